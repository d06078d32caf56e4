"""The argument readers of operations.md §2.3, and the reserved-key check of §2.4.

Each reader takes the op object, the argument name (or a `where` label for nested places) and the
evolving document where it needs one; it returns the value read or raises `OpRefused` with the
spec's facts. `ABSENT` stands for an argument that is not in the op.
"""

from __future__ import annotations

import math

from grooph_core.ops.errors import ABSENT, OpRefused, render, suggest
from grooph_core.ops.ids import ID_PATTERN, id_set, ids_of, is_id, items
from grooph_core.source.text import is_integer, is_number, js_key_order

RESERVED_KEYS = ("__proto__", "constructor", "prototype")


def arg(op: dict, name: str) -> object:
    """The argument's value, or ABSENT."""
    return op.get(name, ABSENT)


def read_string(v: object, name: str) -> str:
    if not isinstance(v, str):
        raise OpRefused(f'"{name}" must be a string, got {render(v)}')
    return v


def read_optional_string(v: object, name: str) -> str | None:
    if v is ABSENT:
        return None
    return read_string(v, name)


def read_removable_string(v: object, name: str) -> str | None:
    """Absent or null mean "remove" (None); otherwise a string."""
    if v is ABSENT or v is None:
        return None
    return read_string(v, name)


def read_optional_boolean(v: object, name: str) -> bool | None:
    if v is ABSENT:
        return None
    if v is True or v is False:
        return v
    raise OpRefused(f'"{name}" must be true or false, got {render(v)}')


def read_one_of(v: object, name: str, values: tuple[str, ...]) -> str:
    if isinstance(v, str) and v in values:
        return v
    msg = f'"{name}" must be one of {" | ".join(values)}, got {render(v)}'
    raise OpRefused(msg + suggest(v, values))


def check_reserved(obj: dict, name: str) -> None:
    """operations.md §2.4: no top-level `__proto__`, `constructor` or `prototype` key."""
    for key in js_key_order(obj.keys()):
        if key in RESERVED_KEYS:
            raise OpRefused(f'"{name}" cannot hold the key "{key}"')


def read_object(v: object, name: str, *, reserved: bool = True) -> dict:
    if not isinstance(v, dict):
        raise OpRefused(f'"{name}" must be an object, got {render(v)}')
    if reserved:
        check_reserved(v, name)
    return v


def read_optional_list(v: object, name: str) -> list | None:
    if v is ABSENT:
        return None
    if not isinstance(v, list):
        raise OpRefused(f'"{name}" must be a list, got {render(v)}')
    return v


def read_patch(v: object, name: str, forbidden: tuple[str, ...]) -> dict:
    """A `set` patch (operations.md §4): an object, no reserved key, none of the forbidden keys.

    Forbidden keys are refused whatever their value, `null` included, in the order listed.
    """
    patch = read_object(v, name)
    for key in forbidden:
        if key in patch:
            if key == "id":
                raise OpRefused(f'"{name}" cannot change the id; use renameId, which updates every reference')
            raise OpRefused(f'"{name}" cannot change "{key}"; remove the object and add a new one instead')
    return patch


def read_optional_patch(v: object, name: str, forbidden: tuple[str, ...]) -> dict | None:
    if v is ABSENT:
        return None
    return read_patch(v, name, forbidden)


def _finite_number(v: object) -> bool:
    return is_number(v) and (isinstance(v, int) or math.isfinite(v))


def read_position(v: object, where: str) -> tuple[object, object]:
    """An object whose `x` and `y` are both numbers (other keys ignored).

    A number too large for a double (`1e400` parses to infinity) is refused like a non-number: no
    position can be rounded from it (our reading; the reference's JSON cannot hold such a value).
    """
    if isinstance(v, dict) and _finite_number(v.get("x", ABSENT)) and _finite_number(v.get("y", ABSENT)):
        return v["x"], v["y"]
    raise OpRefused(f'"{where}" must be {{"x": number, "y": number}}, got {render(v)}')


def read_new_id(v: object, name: str, doc: dict) -> str:
    """A kebab-case id not yet in the document's id set (run notes included)."""
    s = read_string(v, name)
    if not is_id(s):
        raise OpRefused(f'"{name}" must be a kebab-case id matching ^{ID_PATTERN.pattern}$, got {render(s)}')
    if s in id_set(doc):
        raise OpRefused(f'"{name}": the id "{s}" is already used in this document')
    return s


def read_optional_new_id(v: object, name: str, doc: dict) -> str | None:
    if v is ABSENT:
        return None
    return read_new_id(v, name, doc)


def read_node(v: object, where: str, doc: dict) -> str:
    if not isinstance(v, str):
        raise OpRefused(f'"{where}" must be a node id, got {render(v)}')
    ids = ids_of(doc, "nodes")
    if v not in ids:
        raise OpRefused(f'"{where}": no node "{v}"' + suggest(v, ids))
    return v


def _read_member(v: object, name: str, doc: dict, list_key: str, noun: str) -> str:
    s = read_string(v, name)
    ids = ids_of(doc, list_key)
    if s not in ids:
        raise OpRefused(f'"{name}": no {noun} "{s}"' + suggest(s, ids))
    return s


def read_edge(v: object, name: str, doc: dict) -> str:
    return _read_member(v, name, doc, "edges", "edge")


def read_loop(v: object, name: str, doc: dict) -> str:
    return _read_member(v, name, doc, "loops", "loop")


def read_policy(v: object, name: str, doc: dict) -> str:
    return _read_member(v, name, doc, "policies", "policy")


def first_with_id(doc: dict, list_key: str, obj_id: str) -> dict | None:
    """The first object of a list carrying the id (operations.md §1.5: old values are read there)."""
    for o in items(doc, list_key):
        if isinstance(o, dict) and o.get("id") == obj_id:
            return o
    return None


def all_with_id(doc: dict, list_key: str, obj_id: str) -> list[dict]:
    """Every object of a list carrying the id (operations.md §1.5: changes act on all of them)."""
    return [o for o in items(doc, list_key) if isinstance(o, dict) and o.get("id") == obj_id]


def read_stop_index(v: object, name: str, doc: dict, loop_id: str) -> int:
    """An integer from 0 to count−1 in the first loop with the id (Clarifications: duplicated loops)."""
    loop = first_with_id(doc, "loops", loop_id)
    stops = loop.get("stops") if loop is not None else None
    count = len(stops) if isinstance(stops, list) else 0
    if count == 0:
        raise OpRefused(f'"{name}": loop "{loop_id}" has no stops yet')
    if is_integer(v) and 0 <= int(v) < count:
        return int(v)
    raise OpRefused(f'"{name}" must be a stop index from 0 to {count - 1} in loop "{loop_id}", got {render(v)}')
