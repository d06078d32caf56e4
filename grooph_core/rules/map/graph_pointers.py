"""A session's `graph` pointer (map.md §4.4, §6.8; cli.md §2.1): the resolver that looks it up
beside the map, and `W_GRAPH_UNRESOLVED`, raised when the resolver says it is not a graph.

The resolver reads local files only: it never fetches anything and never follows a URL.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from typing import Callable

from grooph_core.issues import Facts, Issue, make
from grooph_core.semantics.map_index import MapIndex
from grooph_core.schema.check import schema_issues
from grooph_core.source.json_reader import strict_value
from grooph_core.source.load import NoSuchFile, read_document

FOUND = "found"
NOT_A_GRAPH = "not-a-graph"
UNKNOWN = "unknown"

GraphResolver = Callable[[str], str]

# map.md §6.8 (the command line's test, §11.7): a URL scheme followed by `://`, any letter case.
URL_SCHEME = re.compile(r"[a-z][a-z0-9+.\-]*://", re.IGNORECASE | re.ASCII)


def is_checked_pointer(pointer: str) -> bool:
    """map.md §6.8: only a path ending in `.json` is looked up; URLs and `<graph-id>@<version>` are
    left alone (the resolver cannot tell)."""
    return URL_SCHEME.match(pointer) is None and pointer.lower().endswith(".json")


def graph_path(map_path: str, pointer: object) -> str | None:
    """map.md §6.8: the file a session's `graph` pointer names, for a map at `map_path`: relative paths
    against the map's folder, an absolute path as it is; None when the pointer is not checked (a URL,
    `<graph-id>@<version>`, not a string). The one place a pointer becomes a path: the rule, go to
    definition, the workspace's links and rename all ask it."""
    if not isinstance(pointer, str) or not is_checked_pointer(pointer):
        return None
    return os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(map_path)), pointer))


def graph_answer_for_text(text: str) -> str:
    """found / not-a-graph for a graph's text: strict JSON passing the graph's structural check
    (graph.md §4). Graph rule findings do not matter."""
    value, is_json = strict_value(text)  # only the verdict: explaining a refused text costs more than reading it
    if not is_json:
        return NOT_A_GRAPH
    return NOT_A_GRAPH if schema_issues(value, "graph") else FOUND


def _read_graph_answer(path: str) -> str:
    """found / not-a-graph for a local path (see graph_answer_for_text)."""
    try:
        loaded = read_document(path)
    except NoSuchFile:
        return NOT_A_GRAPH
    if loaded.error is not None:
        return NOT_A_GRAPH
    return NOT_A_GRAPH if schema_issues(loaded.value, "graph") else FOUND


def graph_answer_at(path: str, open_text: Callable[[str], str | None] | None = None,
                    cache: dict[str, tuple[tuple[int, int], str]] | None = None) -> str:
    """found / not-a-graph for the file at `path` (map.md §6.8): the editor's open text for it when
    `open_text` has one, else the file (missing, a folder, a FIFO or a device: not a graph, never
    read). `cache` keeps answers per file, refreshed when its modification time or size changes."""
    text = open_text(path) if open_text is not None else None
    if text is not None:
        return graph_answer_for_text(text)
    try:
        st = os.stat(path)
    except (OSError, ValueError):  # missing, unreadable, or an impossible name (a NUL byte)
        return NOT_A_GRAPH
    if not os.path.isfile(path):
        return NOT_A_GRAPH
    stamp = (st.st_mtime_ns, st.st_size)
    hit = cache.get(path) if cache is not None else None
    if hit is not None and hit[0] == stamp:
        return hit[1]
    answer = _read_graph_answer(path)
    if cache is not None:
        cache[path] = (stamp, answer)
    return answer


def file_graph_resolver(map_path: str, open_text: Callable[[str], str | None] | None = None) -> GraphResolver:
    """The command line's resolver for a map on disk (map.md §6.8): paths relative to the map's folder
    (an absolute path stays absolute). Answers are cached per file and refreshed when the file's
    modification time or size changes, so an editor may keep one resolver per map. An editor passes
    `open_text(path)`: the text it has open for a path (which wins over the file), or None."""
    cache: dict[str, tuple[tuple[int, int], str]] = {}

    def resolve(pointer: str) -> str:
        path = graph_path(map_path, pointer)
        return UNKNOWN if path is None else graph_answer_at(path, open_text, cache)

    return resolve


@dataclass(frozen=True)
class GraphUnresolved(Facts):
    """W_GRAPH_UNRESOLVED: the `session` and its `graph` pointer."""

    code = "W_GRAPH_UNRESOLVED"
    session: object
    graph: object


def graph_unresolved_issues(index: MapIndex, resolver: GraphResolver | None) -> list[Issue]:
    """map.md §6.8: with a resolver, one issue per session (document order) whose `graph` the
    resolver answers "not-a-graph". Pointer: the `graph` value. Facts: `GraphUnresolved`."""
    if resolver is None:
        return []
    out: list[Issue] = []
    for i, s in enumerate(index.session_list):
        if not isinstance(s, dict) or "graph" not in s:
            continue
        pointer = s.get("graph")
        if resolver(pointer) != NOT_A_GRAPH:
            continue
        sid = s.get("id")
        out.append(make(
            "W_GRAPH_UNRESOLVED",
            f'session "{sid}" points at graph "{pointer}", which is not a graph document that could be read',
            [sid], [f"/sessions/{i}/graph"], facts=GraphUnresolved(sid, pointer),
        ))
    return out
