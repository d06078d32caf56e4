"""Maps linked to graphs (issue 17 item 2): what a hover on a session's `graph` says, and the edits
that keep maps pointing at their graphs when files move. Paths come from `graph_path` (map.md §6.8),
the one place a pointer becomes a file."""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from dataclasses import dataclass

from grooph_core.ide.kinds import kind_named
from grooph_core.workspace.facts import DocumentFacts, GraphLink


def graph_hover_markdown(link: GraphLink, graph: DocumentFacts | None) -> str:
    """The graph a pointer leads to: its name, goal and own error count; or why it leads nowhere."""
    if link.target is None:
        return f"**graph** `{link.pointer}`\n\nNot looked up: only a relative or absolute path ending in `.json` is (map.md §6.8)."
    if graph is None:
        return f"**graph** `{link.pointer}`\n\nNo graph document could be read at `{link.target}`."
    title = f"**{graph.name}** (`{graph.ident}`)" if graph.name and graph.ident else f"**{graph.title or '(untitled graph)'}**"
    lines = [f"graph {title}"]
    if graph.goal:
        lines.append(f"Goal: {graph.goal}")
    lines.append(_count(graph.errors, "error") + (f", {_count(graph.warnings, 'warning')}" if graph.warnings else "")
                 + " in the graph")
    lines.append(f"`{link.target}`")
    return "\n\n".join(lines)


def _count(n: int, word: str) -> str:
    return f"{'no' if n == 0 else n} {word}{'' if n == 1 else 's'}"


def moved(path: str, renames: Iterable[tuple[str, str]]) -> str:
    """Where `path` ends up after the renames (a renamed folder moves everything inside it)."""
    for old, new in renames:
        old, new = os.path.normpath(old), os.path.normpath(new)
        if path == old:
            return new
        if path.startswith(old.rstrip(os.sep) + os.sep):
            return new + path[len(old):]
    return path


def pointer_to(target: str, map_path: str, written: str) -> str:
    """The pointer naming `target` from a map at `map_path`, in the style it was written: absolute
    stays absolute, `./` stays, `/` separators."""
    if os.path.isabs(written):
        return target
    rel = os.path.relpath(target, os.path.dirname(map_path)).replace(os.sep, "/")
    if written.startswith("./") and not rel.startswith("../"):
        rel = "./" + rel
    return rel


@dataclass(frozen=True)
class PointerEdit:
    """Replace the pointer's JSON string at `span` of the map at `path` with `text`."""

    path: str
    span: tuple[int, int]
    text: str


def rename_edits(maps: Iterable[DocumentFacts], renames: list[tuple[str, str]]) -> list[PointerEdit]:
    """For files about to move (`renames`: old → new absolute paths), the edits that keep every map
    pointing at the same graphs: maps naming a moved graph, and moved maps' own relative pointers."""
    out: list[PointerEdit] = []
    for facts in maps:
        if not kind_named(facts.kind).names_graphs:
            continue
        new_map = moved(facts.path, renames)
        for link in facts.links:
            if link.target is None:
                continue
            new_target = moved(link.target, renames)
            if new_target == link.target and new_map == facts.path:
                continue
            pointer = pointer_to(new_target, new_map, link.pointer)
            if pointer != link.pointer:
                out.append(PointerEdit(facts.path, link.span, json.dumps(pointer, ensure_ascii=False)))
    return out
