"""Edits of an operation map (operations.md §8.5, map.md §6): maps have no op language, so every map
repair is a small document edit, built here by what it means (set a handoff's carrier, re-point a
reference, drop a session's graph pointer). Renaming an id with its references is
`semantics.references.rewrite_id`."""

from __future__ import annotations

from grooph_core.ops.doc_edits import remove, set_value
from grooph_core.source.text import pointer_join


def set_handoff_carrier(handoff_index: int, carrier: dict) -> dict:
    """Give the handoff this carrier (the whole object)."""
    return set_value(pointer_join("", "handoffs", handoff_index, "carrier"), carrier)


def set_carrier_field(handoff_index: int, field: str, value: str) -> dict:
    """Set one field of the handoff's carrier (e.g. `repo` of a pull request)."""
    return set_value(pointer_join("", "handoffs", handoff_index, "carrier", field), value)


def set_reference(pointer: str, target_id: str) -> dict:
    """Point a session's `lane` or a handoff's `from`/`to` (the string at `pointer`) at another id."""
    return set_value(pointer, target_id)


def remove_session_graph(session_index: int) -> dict:
    """Drop a session's `graph` pointer."""
    return remove(pointer_join("", "sessions", session_index, "graph"))
