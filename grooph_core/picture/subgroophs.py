"""Subgroophs in the graph picture: groups with a `from`, drawn closed (one card) or open (a frame
round their own rows) (pictures.md §7.7)."""

from __future__ import annotations


def subgrooph_ids(doc: dict) -> list[str]:
    """The ids of the graph's subgroophs (groups with a `from`), in document order, each once."""
    groups = doc.get("groups") if isinstance(doc, dict) else None
    out: list[str] = []
    for g in groups if isinstance(groups, list) else []:
        if isinstance(g, dict) and isinstance(g.get("from"), str) and isinstance(g.get("id"), str):
            if g["id"] not in out:
                out.append(g["id"])
    return out
