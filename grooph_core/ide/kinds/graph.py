"""The graph kind (graph.md): a grooph document that operations change and whose `layout` keys are ids."""

from __future__ import annotations

from grooph_core.ide.kinds.grooph import GroophKind
from grooph_core.source.kinds import GRAPH_SUFFIX


class GraphKind(GroophKind):
    name = "graph"
    title = "a graph document"
    suffixes = (GRAPH_SUFFIX,)
    layout_keys_are_ids = True  # graph.md §1.12
    named_by_maps = True  # map.md §4.2: a session's `graph` pointer


GRAPH = GraphKind()
