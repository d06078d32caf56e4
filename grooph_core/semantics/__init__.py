"""What a document means beyond its text: the one model of references of graphs and maps
(`references`: which field names which kind of object, compiled from the model's `Ref` / `Defines`
markers), the indexes the rules, repairs and pictures read (`graph_index.GraphIndex`,
`map_index.MapIndex`, with their small readers), and the shapes: of a graph (`graph_shape`: the counts
and brakes `grooph shape` prints) and of a map (`map_shape`, and `by_hand`: what waits on a person,
map.md §7).
"""
