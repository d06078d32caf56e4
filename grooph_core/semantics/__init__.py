"""What a document means beyond its text: the one model of references of graphs and maps
(`references`: which field names which kind of object, compiled from the model's `Ref` / `Defines`
markers), the names of the neighbouring formats (`neighbour_names`), and the shape of a graph
(`graph_shape`: the counts and brakes `grooph shape` prints). The indexes (`GraphIndex`, `MapIndex`)
and the map's shape join it when they leave `rules/`.
"""
