"""Edits of an operation map (operations.md §8.5, map.md §6): maps have no op language, so every map
repair is a small document edit, built here by what it means (set a handoff's carrier, re-point a
reference, rename an id, drop a key)."""

from __future__ import annotations

from grooph_core.ops.doc_edits import remove, rename_key, set_value
from grooph_core.text import pointer_join

# map.md §2.8: who refers to what. Sessions' `lane` names a lane; handoffs' `from`/`to` name a
# session or a person; nothing refers to a handoff or to the map's own id.
REFERENCES = {"lanes": (("sessions", "lane"),), "sessions": (("handoffs", "from"), ("handoffs", "to")),
              "people": (("handoffs", "from"), ("handoffs", "to"))}


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


def rename_map_key(key_pointer: str, to: str) -> dict:
    """Rename a member of an object (an unknown key to the declared field it was meant to be)."""
    return rename_key(key_pointer, to)


def remove_map_key(key_pointer: str) -> dict:
    return remove(key_pointer)


def set_map_id(id_pointer: str, new_id: str) -> dict:
    """Change one object's `id` alone (references keep naming whatever they named)."""
    return set_value(id_pointer, new_id)


def rename_map_id(doc: dict, list_key: str | None, index: int | None, new_id: str) -> list[dict]:
    """Change an object's id and every reference to it (map.md §2.8): the object at
    `doc[list_key][index]`, or the map itself when `list_key` is None."""
    if list_key is None:
        return [set_value("/id", new_id)]
    old = doc[list_key][index].get("id")
    edits = [set_value(pointer_join("", list_key, index, "id"), new_id)]
    for holder_list, field in REFERENCES.get(list_key, ()):
        holders = doc.get(holder_list)
        for i, obj in enumerate(holders if isinstance(holders, list) else []):
            if isinstance(obj, dict) and obj.get(field) == old:
                edits.append(set_value(pointer_join("", holder_list, i, field), new_id))
    return edits
