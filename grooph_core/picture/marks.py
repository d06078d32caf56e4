"""Which `data-*` attribute of a picture marks which kind of object (pictures.md §7.4, §2.4, §2.5, §3,
§5, §12.1; a workflow's statuses), so that a click on an element of a picture finds the object it
draws. The attribute's value is the object's id (a status's name), escaped as every attribute is."""

from __future__ import annotations

# data-<mark>="<id>" -> the kind of object whose id it is (`semantics.references` kinds; "status").
# A handoff is drawn as its line, its number plate, its number and its row in the list: all name it.
MARKS: dict[str, str] = {
    "node": "node",
    "group": "group",
    "edge": "edge",
    "loop": "loop",
    "lane": "lane",
    "person": "person",
    "session": "session",
    "handoff": "handoff",
    "handoff-row": "handoff",
    "plate": "handoff",
    "number": "handoff",
    "status": "status",
}


def marked_kind(mark: object) -> str | None:
    """The kind of object a mark names, or None for anything that is not one of the marks."""
    return MARKS.get(mark) if isinstance(mark, str) else None
