"""The structural check, the unknown keys and the size of a graph or map, walked per top-level part and
kept for the next analysis (issue 33).

A part is a top-level member, or an item of a top-level list of objects (a node, an edge, a session …).
Each part is walked once for its `E_SCHEMA` findings (graph.md §4, map.md §5), its unknown keys
(graph.md §5, map.md §6.9) and its share of the canonical size (graph.md §6.6, map.md §6.10:
`doc_size.text_size`, additive per member). `walk_document(value, kind, previous)` takes a part that is
the very same object (`is`) as one of `previous`'s from there instead of walking it again: the editor's
incremental reading (`analyze(previous=)`) keeps every item a keystroke did not touch.

The issues are exactly `schema_issues`, `unknown_key_issues` and `doc_size_issues` of the whole value (the
reference path, which the command line runs): the same compiled checks and walkers run on each part, and
the root's own findings are assembled in the same order (required members, then the declared members in
declared order; unknown keys in JavaScript key order, §0.4). An item's findings are kept with pointers
relative to the item, so an item that moved (one inserted before it) is still reused.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from operator import is_
from typing import Any

from grooph_core.issues import Issue
from grooph_core.model.compiled import ArrayType, ObjectType, UnionType, root_type
from grooph_core.rules import unknown_keys
from grooph_core.rules.doc_size import document_size, left_out_of_size, size_issues, text_size
from grooph_core.schema import check
from grooph_core.source.keyorder import keys_in_js_order
from grooph_core.source.text import pointer_escape


# A walked part: (the part's value, its raw structural findings, its raw unknown keys, its size). The
# findings' pointers are relative to the part for a list item, whole-document ones for a member; the size
# is the UTF-16 length of its canonical text at its depth (None: only writing the whole text can tell).
Part = tuple


@dataclass(frozen=True)
class _Member:
    name: str
    seg: str  # "/<name>", escaped
    type: Any
    check: Any  # the compiled structural check of the member
    walker: Any  # its unknown-key walker, or None
    key_size: int  # the UTF-16 length of its key as written in the canonical text, quotes included
    items: tuple | None  # a list of objects: (item check, item walker), walked item by item


@dataclass(frozen=True)
class _Root:
    type: ObjectType
    required: tuple[tuple[str, str], ...]
    members: tuple[_Member, ...]
    by_name: dict


def _root(kind: str) -> _Root:
    t = root_type(kind)
    members = []
    for f in t.fields:
        seg = "/" + pointer_escape(f.name)
        items = None
        if isinstance(f.type, ArrayType) and isinstance(f.type.item, (ObjectType, UnionType)):
            items = (check.compiled_check(f.type.item), unknown_keys.walker_of(f.type.item))
        members.append(_Member(f.name, seg, f.type, check.compiled_check(f.type), unknown_keys.walker_of(f.type),
                               text_size(f.name, 0), items))
    return _Root(t, tuple((n, "/" + pointer_escape(n)) for n in t.required), tuple(members),
                 {m.name: m for m in members})


_ROOTS = {"graph": _root("graph"), "map": _root("map")}
_ABSENT = object()
_NONE: dict = {}


@dataclass
class DocumentWalk:
    """The walked document: its raw findings in the reference's order, its size, and the parts kept for
    the next walk (`walked`: how many parts this walk had to walk, the others were taken as they were)."""

    kind: str
    value: dict
    schema_raw: list
    unknown_raw: list
    size: int | None
    members: dict[str, Part] = field(repr=False)
    items: dict[str, "_Listed"] = field(repr=False)
    walked: int = 0

    def schema_issues(self) -> list[Issue]:
        """`check.schema_issues(value, kind)`."""
        return check.raw_issues(self.value, self.schema_raw)

    def unknown_key_issues(self) -> list[Issue]:
        """`unknown_keys.unknown_key_issues(value, kind)`."""
        return unknown_keys.raw_issues(self.value, self.kind, self.unknown_raw)

    def size_issues(self) -> list[Issue]:
        """`doc_size.doc_size_issues(value, kind)`."""
        size = self.size if self.size is not None else document_size(self.value, self.kind)
        return size_issues(self.value, self.kind, size)


@dataclass(frozen=True)
class _Listed:
    """A walked top-level list: the list, its items' parts by position, the positions whose parts have
    findings (ascending) and the list's size (its brackets, separators, layout and items)."""

    seq: list
    parts: list
    found: list
    size: int | None


def _list_size(parts: list) -> int | None:
    """graph.md §6.6: a list at depth 1 of n items: its brackets, n-1 commas, 5 of layout per item and 3."""
    if not parts:
        return 2
    total = 6 * len(parts) + 4
    for p in parts:
        if p[3] is None:
            return None
        total += p[3]
    return total


def _walk_list(m: _Member, v: list, old: _Listed | None) -> tuple[_Listed, int]:
    """The parts of a top-level list's items, and how many were walked. An item that is the very same
    object as one of `old`'s is taken; when the list has its old length and few items differ at their
    places (a keystroke in one item), only those places are looked at."""
    item_check, item_walker = m.items

    def walk(x):
        s: list = []
        item_check(x, "", s)
        u: list = []
        if item_walker is not None:
            item_walker(x, "", u)
        return (x, s or (), u or (), text_size(x, 2))  # no list held for an item without findings

    if old is not None and len(v) == len(old.seq):
        same = list(map(is_, v, old.seq))
        changed = len(v) - sum(same)
        if changed * 8 <= len(v):
            parts = old.parts.copy()
            at: list[int] = []
            i = -1
            for _ in range(changed):
                i = same.index(False, i + 1)
                at.append(i)
            by_id = {id(old.parts[i][0]): old.parts[i] for i in at} if changed > 1 else _NONE
            size = old.size
            walked = 0
            for i in at:
                x = v[i]
                part = by_id.get(id(x))
                if part is None or part[0] is not x:
                    part = walk(x)
                    walked += 1
                if size is not None and part[3] is not None and parts[i][3] is not None:
                    size += part[3] - parts[i][3]
                else:
                    size = None
                parts[i] = part
            if any(old.parts[i][1] or old.parts[i][2] or parts[i][1] or parts[i][2] for i in at):
                changed_at = set(at)
                found = sorted([(i, p) for i, p in old.found if i not in changed_at]
                               + [(i, parts[i]) for i in at if parts[i][1] or parts[i][2]], key=lambda f: f[0])
            else:
                found = old.found
            if size is None:
                size = _list_size(parts)
            return _Listed(v, parts, found, size), walked
    by_id = {id(p[0]): p for p in old.parts} if old is not None else _NONE
    parts = []
    found = []
    walked = 0
    for i, x in enumerate(v):
        part = by_id.get(id(x))
        if part is None or part[0] is not x:
            part = walk(x)
            walked += 1
        parts.append(part)
        if part[1] or part[2]:
            found.append((i, part))
    return _Listed(v, parts, found, _list_size(parts)), walked


def _walk_member(m: _Member, v: Any, measured: bool) -> Part:
    s: list = []
    m.check(v, m.seg, s)
    u: list = []
    if m.walker is not None:
        m.walker(v, m.seg, u)
    return (v, s or (), u or (), text_size(v, 1) if measured else 0)


def walk_document(value: Any, kind: str, previous: DocumentWalk | None = None) -> DocumentWalk | None:
    """Walk a parsed graph or map (any other kind reads as a graph, map.md §1) part by part, taking the
    parts of `previous` that are the very same objects; None when the value is not an object (the
    reference functions answer that alone)."""
    if type(value) is not dict:
        return None
    if kind not in _ROOTS:
        kind = "graph"  # any other JSON is read as a graph (map.md §1)
    root = _ROOTS[kind]
    left_out = left_out_of_size(kind)
    if previous is not None and previous.kind != kind:
        previous = None
    old_members = previous.members if previous is not None else {}
    old_items = previous.items if previous is not None else {}
    members: dict[str, Part] = {}
    items: dict[str, _Listed] = {}
    walked = 0
    # graph.md §4.2: the root's missing required members, then each present declared member in order
    schema_raw: list = [check.missing_finding(name, seg, "") for name, seg in root.required if name not in value]
    unknown_of: dict[str, list] = {}
    sizes: dict[str, int | None] = {}
    for m in root.members:
        v = value.get(m.name, _ABSENT)
        if v is _ABSENT:
            continue
        if m.items is not None and type(v) is list:
            check.array_head(m.type, v, m.seg, schema_raw)
            listed, fresh = _walk_list(m, v, old_items.get(m.name))
            walked += fresh
            items[m.name] = listed
            unknown: list = []
            for i, part in listed.found:
                prefix = f"{m.seg}/{i}"
                schema_raw += [(prefix + a, prefix + b, *rest) for a, b, *rest in part[1]]
                unknown += [(prefix + kp, key, prefix + hp, *rest) for kp, key, hp, *rest in part[2]]
            unknown_of[m.name] = unknown
            sizes[m.name] = listed.size
        else:
            part = old_members.get(m.name)
            if part is None or part[0] is not v:
                part = _walk_member(m, v, m.name != left_out)
                walked += 1
            members[m.name] = part
            schema_raw += part[1]
            unknown_of[m.name] = part[2]
            sizes[m.name] = part[3]
    return DocumentWalk(kind, value, schema_raw, _root_unknown(root, value, unknown_of),
                        _root_size(root, value, left_out, sizes), members, items, walked)


def _root_unknown(root: _Root, value: dict, unknown_of: dict[str, list]) -> list:
    """The unknown keys in document order: the root's keys in JavaScript order (§0.4), an undeclared
    one where it stands, a declared member's findings in its place."""
    t = root.type
    keys = value if value.keys() <= t.name_set else keys_in_js_order(value)
    out: list = []
    for k in keys:
        found = unknown_of.get(k)
        if found is not None:
            out += found
        elif k not in root.by_name:
            out.append(("/" + pointer_escape(k), k, "", t.names, value))
    return out


def _root_size(root: _Root, value: dict, left_out: str | None, sizes: dict[str, int | None]) -> int | None:
    """The canonical size from the members' (doc_size.canonical_size: at depth 0 each of the n members
    takes its key, `": "`, a comma but the last, and a line break and 2 spaces; the root its braces, a
    line break before the closer and the final newline)."""
    size = 3  # "{", "}" and the final newline; with n members, n-1 commas, 3n of layout and 1 before "}"
    for k, v in value.items():
        if k == left_out:
            continue
        m = root.by_name.get(k)
        vs = sizes[k] if m is not None else text_size(v, 1)
        ks = m.key_size if m is not None else text_size(k, 0)
        if vs is None or ks is None:
            return None
        size += ks + 2 + vs + 4  # with a comma but after the last, and the closer's line break
    return size
