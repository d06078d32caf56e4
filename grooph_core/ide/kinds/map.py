"""The operation map kind (map.md): a grooph document whose rules read the graphs its sessions name."""

from __future__ import annotations

from grooph_core.ide.kinds.grooph import GroophKind
from grooph_core.source.kinds import MAP_SUFFIX


class MapKind(GroophKind):
    name = "map"
    title = "an operation map"
    suffixes = (MAP_SUFFIX,)
    names_graphs = True  # map.md §4.2: a session's `graph` pointer


MAP = MapKind()
