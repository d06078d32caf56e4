"""Which kind of document a file is (cli.md §0.4, map.md §1).

The file name decides first (`.grooph-map.json` is a map, `.grooph.json` a graph), so an editor can
choose before the text is valid JSON; failing that, the content (`groophMap` key means a map).
"""

from __future__ import annotations

from typing import Literal

Kind = Literal["graph", "map"]

GRAPH_SUFFIX = ".grooph.json"
MAP_SUFFIX = ".grooph-map.json"


def kind_from_name(name: str | None) -> Kind | None:
    """The kind the file name says, or None when it says nothing."""
    if not name:
        return None
    low = name.lower()
    if low.endswith(MAP_SUFFIX):
        return "map"
    if low.endswith(GRAPH_SUFFIX):
        return "graph"
    return None


def kind_from_value(value: object) -> Kind:
    """map.md §1: an object with a `groophMap` key is a map; anything else is read as a graph."""
    if isinstance(value, dict) and "groophMap" in value:
        return "map"
    return "graph"


def is_grooph_value(value: object) -> bool:
    """True for a JSON object that claims to be a grooph document by content."""
    return isinstance(value, dict) and ("grooph" in value or "groophMap" in value)


def detect_kind(name: str | None, value: object) -> Kind:
    """The file name when it says, else the content."""
    return kind_from_name(name) or kind_from_value(value)
