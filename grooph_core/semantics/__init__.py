"""What a document means beyond its text: the one model of references of graphs and maps (which field
names which kind of object, compiled from the model's `Ref` / `Defines` markers), and the names of the
neighbouring formats (definitions and references per kind). Indexes and shapes join it here when those
modules move."""
