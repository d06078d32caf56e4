"""Ids (operations.md §3): the id set, `slug`, `unique`, derived ids and ids that follow their names.

These functions are pure and work on any parsed value: lists that are missing or not lists count as
empty, ids that are not strings are not ids.
"""

from __future__ import annotations

import re
import unicodedata

from grooph_core.semantics.references import ID_LISTS as KIND_ID_LISTS

ID_PATTERN = re.compile(r"[a-z][a-z0-9-]*")

# operations.md §3.4: kind labels; their slugs are the fallback bases of derived node ids.
KIND_LABELS = {"agent": "Agent", "human-gate": "Human gate", "check": "Check", "merge": "Merge", "stop": "Stop"}
# Clarifications (operations.md, end): a node of unknown kind falls back to the slug `node`.
UNKNOWN_KIND_FALLBACK = "node"

# The lists of the id set, in id-set order after the graph's own id (operations.md §3.1).
ID_LISTS = tuple(KIND_ID_LISTS["graph"])


def is_id(v: object) -> bool:
    """A string matching `^[a-z][a-z0-9-]*$` (whole string; a trailing newline does not pass)."""
    return isinstance(v, str) and ID_PATTERN.fullmatch(v) is not None


def items(doc: dict, key: str) -> list:
    """`doc[key]` when it is a list, else an empty list (the ops never crash on a malformed document)."""
    v = doc.get(key) if isinstance(doc, dict) else None
    return v if isinstance(v, list) else []


def ids_of(doc: dict, key: str) -> list[str]:
    """The string ids of the objects in one list, document order, duplicates kept."""
    return [o["id"] for o in items(doc, key) if isinstance(o, dict) and isinstance(o.get("id"), str)]


def id_set(doc: dict, *, notes: bool = True) -> list[str]:
    """operations.md §3.1: graph id, node, edge, loop, group, policy and (optionally) run-note ids."""
    out: list[str] = []
    if isinstance(doc.get("id"), str):
        out.append(doc["id"])
    for key in ID_LISTS:
        if key == "notes" and not notes:
            continue
        out.extend(ids_of(doc, key))
    return out


def slug(text: str, fallback: str) -> str:
    """operations.md §3.2: NFKD, drop combining marks, lower-case, runs of non [a-z0-9] to `-`, trim."""
    s = unicodedata.normalize("NFKD", text)
    s = "".join(ch for ch in s if not ("\u0300" <= ch <= "\u036f"))
    s = s.lower()
    s = re.sub(r"[^a-z0-9]+", "-", s)
    s = s.strip("-")
    s = re.sub(r"^[^a-z]+", "", s)
    return s or fallback


def unique(base: str, taken) -> str:
    """operations.md §3.3: `base`, else the first free `base-2`, `base-3`, … (there is no `base-1`)."""
    taken = taken if isinstance(taken, (set, frozenset)) else set(taken)
    if base not in taken:
        return base
    n = 2
    while f"{base}-{n}" in taken:
        n += 1
    return f"{base}-{n}"


def kind_label(kind: object) -> str | None:
    """The label of a node kind (`Human gate`), or None for a kind that is not one of the five."""
    return KIND_LABELS.get(kind) if isinstance(kind, str) else None


def kind_slug(kind: object) -> str:
    """slug(kind label), or `node` for an unknown kind (operations.md, Clarifications)."""
    label = kind_label(kind)
    return slug(label, UNKNOWN_KIND_FALLBACK) if label else UNKNOWN_KIND_FALLBACK


def follows_name(obj_id: object, name: object) -> bool:
    """operations.md §3.5: the id is slug(name, "") or that slug plus `-<digits>`; an empty slug follows.

    A current name that is absent or not a string counts as "" (Clarifications), so the id follows.
    """
    s = slug(name if isinstance(name, str) else "", "")
    if s == "":
        return True
    if not isinstance(obj_id, str):
        return False
    return obj_id == s or re.fullmatch(re.escape(s) + r"-[0-9]+", obj_id) is not None


def derived_edge_id(frm: object, to: object) -> str:
    """operations.md §3.4: the base of an edge id, `e-<from>-<to>` with the two node ids as given."""
    return f"e-{frm}-{to}"


def is_derived_from(edge_id: object, base: str) -> bool:
    """True when an id is exactly `base` or `base-<digits>` (an id §3.3 made from that base)."""
    if not isinstance(edge_id, str):
        return False
    return edge_id == base or re.fullmatch(re.escape(base) + r"-[0-9]+", edge_id) is not None


def policy_kind_name(kind: object) -> str:
    """The kind string, or the `custom` text of a custom kind (operations.md §3.4, policy ids)."""
    if isinstance(kind, dict):
        c = kind.get("custom")
        return c if isinstance(c, str) else ""
    return kind if isinstance(kind, str) else ""
