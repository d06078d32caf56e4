"""Which kind of document a file is (cli.md §0.4, map.md §1, workflow.md §1, board.md §1, episodes.md §1).

The file name decides first (`.grooph-map.json` is a map, `.grooph.json` a graph, `.workflow.yaml` a
workflow …), so an editor can choose before the text is valid; failing that, the content (the
neighbouring formats by their keys, then `groophMap` for a map, else a graph).

`NEIGHBOURS` is the one registration of each neighbouring format: its name, file names, syntax, the
top-level keys that make a file of another name one, and its rules package (`grooph_core.rules.<name>`:
`SCHEMA_CODE`, `structure_issues`, `read`, `RULES`). Adding such a kind is a model, a reader (JSON or
YAML exist), a rules package and one entry here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from grooph_core.source.json_reader import parse

Kind = Literal["graph", "map", "workflow", "board", "episodes"]


@dataclass(frozen=True)
class NeighbourKind:
    """A neighbouring format (workflow.md §0): read by our tolerant reader, checked by its rules package."""

    name: str
    title: str  # what a message calls one ("a board workflow")
    suffixes: tuple[str, ...]
    syntax: Literal["json", "yaml"]
    content_keys: frozenset[str]
    rules: str  # module path of its rules package

    def matches(self, value: object) -> bool:
        """§1 of its spec: a top-level mapping holding all the content keys."""
        return isinstance(value, dict) and self.content_keys <= value.keys()


NEIGHBOURS: tuple[NeighbourKind, ...] = (
    NeighbourKind("workflow", "a board workflow", (".workflow.yaml", ".workflow.yml"), "yaml",
                  frozenset({"statuses", "initial"}), "grooph_core.rules.workflow"),
    NeighbourKind("board", "a task board", (".board.json",), "json", frozenset({"slug", "root", "tasks"}),
                  "grooph_core.rules.board"),
    NeighbourKind("episodes", "an episode record", (".episodes.json",), "json",
                  frozenset({"present", "store", "worktree"}), "grooph_core.rules.episodes"),
)
NEIGHBOUR_KINDS: dict[str, NeighbourKind] = {k.name: k for k in NEIGHBOURS}
YAML_SUFFIXES = (".yaml", ".yml")

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


def neighbour_from_name(name: str | None) -> NeighbourKind | None:
    """The neighbouring format a file name says (`x.workflow.yaml`, `x.board.json` …), or None."""
    low = (name or "").lower()
    return next((k for k in NEIGHBOURS if low.endswith(k.suffixes)), None)


def neighbour_from_value(value: object, syntax: str = "json") -> NeighbourKind | None:
    """The neighbouring format a parsed value of that syntax is by its content (each spec's §1), or None."""
    return next((k for k in NEIGHBOURS if k.syntax == syntax and k.matches(value)), None)


def is_yaml_name(name: str | None) -> bool:
    return (name or "").lower().endswith(YAML_SUFFIXES)


def any_kind_from_name(name: str | None) -> str | None:
    """The kind a file name says, among every kind this tool reads."""
    n = neighbour_from_name(name)
    return n.name if n is not None else kind_from_name(name)


def content_decides(name: str | None) -> bool:
    """Whether a name leaves the kind to the content (`claims_grooph`): a `.json` file of another name
    (`graph.json`), or a buffer with no file extension (VS Code's `untitled:Untitled-1`). Any other name
    (`config.yaml`, `notes.md`) is another format's, whatever its text or an editor's language id says."""
    low = (name or "").lower()
    return low.endswith(".json") or "." not in low.lstrip(".")


DOC_SUFFIXES: tuple[str, ...] = (GRAPH_SUFFIX, MAP_SUFFIX, *(s for k in NEIGHBOURS for s in k.suffixes))


def kind_from_value(value: object) -> Kind:
    """map.md §1: an object with a `groophMap` key is a map; anything else is read as a graph."""
    if is_map_value(value):
        return "map"
    return "graph"


def is_map_value(value: object) -> bool:
    """map.md §1: the value claims to be a map (an object with a `groophMap` key)."""
    return isinstance(value, dict) and "groophMap" in value


def is_grooph_value(value: object) -> bool:
    """True for a JSON object that claims to be a grooph document by content."""
    return isinstance(value, dict) and ("grooph" in value or "groophMap" in value)


# A JSON text of another name is searched only this far for a claim before it is read in full.
CLAIM_WINDOW = 65536
CLAIM_KEYS = re.compile(r'"groophMap"\s*:|"grooph"\s*:')


def claims_grooph(text: str) -> bool:
    """A JSON text of another name (`package.json`, `graph.json`) whose top level claims to be a grooph
    document (`is_grooph_value`): judged by its first CLAIM_WINDOW characters first, so that other JSON
    files cost a search, and only a text that names the keys there is read (tolerantly, as the editor
    reads: a claim typed into a broken text still counts)."""
    if not CLAIM_KEYS.search(text[:CLAIM_WINDOW]):
        return False
    return is_grooph_value(parse(text).value)


def detect_kind(name: str | None, value: object) -> Kind:
    """The file name when it says, else the content."""
    return kind_from_name(name) or kind_from_value(value)
