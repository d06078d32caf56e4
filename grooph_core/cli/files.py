"""Writing documents from the command line (cli.md §0.6): paths as typed, parents created, and the
kept graph of an exported package refused."""

from __future__ import annotations

import os
import re
from pathlib import Path

ID_PATTERN = re.compile(r"[a-z][a-z0-9-]*")
NOT_GRAPH_FOLDERS = frozenset({"graphs", "proposals", "templates", "events", "hooks"})


def is_kept_graph(path: str) -> bool:
    """cli.md §0.6: after resolving links, `.grooph/<graph id>/graph.grooph.json` (name case ignored),
    the folder an id that is none of graphs, proposals, templates, events, hooks."""
    try:
        p = Path(path).resolve()
    except (OSError, RuntimeError):
        p = Path(os.path.abspath(path))
    if p.name.lower() != "graph.grooph.json":
        return False
    folder = p.parent
    return (ID_PATTERN.fullmatch(folder.name) is not None and folder.name not in NOT_GRAPH_FOLDERS
            and folder.parent.name == ".grooph")


def kept_graph_refusal(path: str) -> str:
    """The stderr line refusing to write the kept graph (cli.md §0.6)."""
    return (f"grooph: {path} is the graph an exported package keeps; only export writes it, so nothing was "
            "written. Work on your own copy (usually .grooph/graphs/<id>.grooph.json) and export that.")


def write_text(path: str, text: str) -> None:
    """Write UTF-8 text with LF line endings, creating missing parent folders."""
    parent = os.path.dirname(path)
    if parent:
        os.makedirs(parent, exist_ok=True)
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write(text)
