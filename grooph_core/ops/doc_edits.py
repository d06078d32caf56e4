"""Document edits: the repairs that no operation can express (operations.md §8.2 item 1: groups,
duplicated ids, unknown keys, E_SCHEMA, and every map repair, §8.5).

An edit is a JSON object like an op, with `"edit"` instead of `"op"`, addressing a place by JSON
pointer:

- `{"edit": "set", "at": P, "value": V}`: set the value at P (an object member, added at the end
  when new; or an existing array item);
- `{"edit": "remove", "at": P}`: remove the object member or the array item at P;
- `{"edit": "renameKey", "at": P, "to": K}`: rename the member at P to K, keeping its place and value.

`apply_edits` applies a list in order, all or nothing, on a copy (like `apply`).
"""

from __future__ import annotations

import copy
import re
from dataclasses import dataclass

from grooph_core.source.json_copy import copy_json
from grooph_core.source.text import pointer_split

EDIT_NAMES = ("set", "remove", "renameKey")
_INDEX = re.compile(r"0|[1-9][0-9]*")


@dataclass(frozen=True)
class EditResult:
    """`doc` when every edit applied, else `error` (which edit, and why)."""

    ok: bool
    doc: object = None
    error: str | None = None


class _EditRefused(Exception):
    pass


def is_edit_list(entries) -> bool:
    """True for a non-empty list whose entries are all document edits (not ops)."""
    return bool(entries) and all(isinstance(e, dict) and "edit" in e for e in entries)


def _parent(doc: object, pointer: str) -> tuple[object, str]:
    segments = pointer_split(pointer)
    if not segments:
        raise _EditRefused("the root cannot be edited this way")
    cur = doc
    for seg in segments[:-1]:
        cur = _step(cur, seg, pointer)
    return cur, segments[-1]


def _index(seg: str, items: list) -> int | None:
    """The array index a pointer segment names in `items`: "0" or digits without a leading zero
    (RFC 6901), below the length (one past the end names nothing); else None."""
    if not _INDEX.fullmatch(seg):
        return None
    i = int(seg)
    return i if i < len(items) else None


def _step(cur: object, seg: str, pointer: str) -> object:
    if isinstance(cur, dict) and seg in cur:
        return cur[seg]
    if isinstance(cur, list) and (i := _index(seg, cur)) is not None:
        return cur[i]
    raise _EditRefused(f"nothing at {pointer}")


def _apply_one(doc: object, edit: dict) -> None:
    kind = edit.get("edit")
    pointer = edit.get("at")
    if kind not in EDIT_NAMES or not isinstance(pointer, str):
        raise _EditRefused(f"not a document edit: {edit!r}")
    parent, last = _parent(doc, pointer)
    if kind == "set":
        value = copy.deepcopy(edit.get("value"))
        if isinstance(parent, dict):
            parent[last] = value
        elif isinstance(parent, list) and (i := _index(last, parent)) is not None:
            parent[i] = value
        else:
            raise _EditRefused(f"nothing at {pointer}")
    elif kind == "remove":
        if isinstance(parent, dict) and last in parent:
            del parent[last]
        elif isinstance(parent, list) and (i := _index(last, parent)) is not None:
            del parent[i]
        else:
            raise _EditRefused(f"nothing at {pointer}")
    else:
        to = edit.get("to")
        if not isinstance(parent, dict) or last not in parent or not isinstance(to, str):
            raise _EditRefused(f"no key at {pointer}")
        if to in parent and to != last:
            raise _EditRefused(f"the object at {pointer} already has the key {to!r}")
        renamed = {(to if k == last else k): v for k, v in parent.items()}
        parent.clear()
        parent.update(renamed)


def apply_edits(doc: object, edits: list) -> EditResult:
    """Apply the edits in order to a copy of `doc`; the input is never modified."""
    work = copy_json(doc)
    try:
        for edit in edits:
            if not isinstance(edit, dict):
                raise _EditRefused(f"not a document edit: {edit!r}")
            _apply_one(work, edit)
    except _EditRefused as refused:
        return EditResult(False, None, str(refused))
    return EditResult(True, work)


def set_value(pointer: str, value: object) -> dict:
    return {"edit": "set", "at": pointer, "value": value}


def remove(pointer: str) -> dict:
    return {"edit": "remove", "at": pointer}


def rename_key(pointer: str, to: str) -> dict:
    return {"edit": "renameKey", "at": pointer, "to": to}
