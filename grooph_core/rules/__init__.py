"""The validator's rules: one package per document kind (graph, map) and the rules both share."""
