"""What the graph and map rules found, kept from one version of a document to the next (issue 33 item 2:
a keystroke in a 1,000,000-character graph or map).

The editor reads a keystroke's version from the previous one: the root and the edited list are new objects,
the edited item is new, and every other member and item is the very same object (`is`) as before. Each rule
declares what it reads (`Rule.reads`: the root's members, per top-level list the fields of its items,
through the shared index included), so a rule whose inputs the edit left alone keeps its findings (the same
`Issue` objects). `changes` finds what the edit changed: items by identity first, then the fields of a
changed item that differ from its old version (same JSON types, same order); when a list's length, the
root's keys or anything else is in doubt, it answers None and every rule runs (a kept finding's pointers
name item positions, which stay only while no list grows or shrinks). A rule without a declaration (one
that asks the resolver about other documents, whose answers can change while this document does not)
always runs. The index is built again only in the parts whose inputs changed (`updated_index`).

Correct only while the values are not changed in place after their analysis (nothing does: the reader
builds a new value, the operations copy). `tests/core/rules/test_rule_reads.py` proves each rule's
declaration; `tests/core/rules/test_rule_memo.py` compares kept findings with fresh ones on chains of edits.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import compress, count
from math import copysign
from operator import is_not
from typing import Callable, Iterable, Mapping, Sequence

from grooph_core.issues import Issue
from grooph_core.rules.registration import Rule

Reads = Mapping[str, frozenset[str]]
_MISSING = object()
# More root members or items than this not the same objects: not one keystroke's version (a text read afresh
# shares nothing, and comparing it all would cost more than the rules), so every rule runs.
_MOST_CHANGED = 4


@dataclass(frozen=True)
class Changes:
    """What an edit changed: `root` the root's members (other than the item lists) whose values differ,
    `lists` per item list the fields that differ in its changed items ("*" when their keys' order did)."""

    root: frozenset[str] = frozenset()
    lists: dict[str, frozenset[str]] = field(default_factory=dict)

    def touches(self, reads: Reads | None) -> bool:
        """Whether the edit changed anything `reads` names (None: anything at all)."""
        if reads is None:
            return True
        if self.root and _meets(reads.get(""), self.root):
            return True
        return any(_meets(reads.get(name), changed) for name, changed in self.lists.items())


def _meets(declared: frozenset[str] | None, changed: frozenset[str]) -> bool:
    return bool(declared) and bool(changed) and ("*" in declared or not declared.isdisjoint(changed))  # type: ignore[union-attr]


def same(a: object, b: object) -> bool:
    """`a` and `b` are the same JSON value: the same types all the way down (`1` is not `true` nor `1.0`,
    `0.0` is not `-0.0`), objects with the same keys in the same order. Iterative (any depth)."""
    stack = [(a, b)]
    while stack:
        x, y = stack.pop()
        if x is y:
            continue
        t = type(x)
        if t is not type(y):
            return False
        if t is dict:
            if len(x) != len(y):  # type: ignore[arg-type]
                return False
            for (kx, vx), (ky, vy) in zip(x.items(), y.items()):  # type: ignore[union-attr]
                if kx != ky:
                    return False
                stack.append((vx, vy))
        elif t is list:
            if len(x) != len(y):  # type: ignore[arg-type]
                return False
            stack.extend(zip(x, y))  # type: ignore[call-overload]
        elif t is float:
            if not (x == y and copysign(1.0, x) == copysign(1.0, y)):  # type: ignore[arg-type]
                return False
        elif x != y:
            return False
    return True


def _item_fields(a: object, b: object) -> frozenset[str] | None:
    """The fields in which two versions of an item differ (None: not both objects)."""
    if type(a) is not dict or type(b) is not dict:
        return None
    out = {k for k in a.keys() | b.keys() if not same(a.get(k, _MISSING), b.get(k, _MISSING))}  # type: ignore[union-attr]
    if list(a) != list(b):  # type: ignore[arg-type]
        out.add("*")
    return frozenset(out)


def changes(old: object, new: object, lists: Iterable[str], watched: frozenset[str] | None = None) -> Changes | None:
    """What changed from `old` to `new` (two versions of a document's root object), or None when the
    findings of `old` cannot be kept for `new` at all: not both objects, root keys added, removed or moved,
    an item list that grew, shrank or is not a list of objects where it changed, or more than a few members
    or items changed (`_MOST_CHANGED`). `watched`: the root's members anything reads (None: all); the others
    are not compared (a layout written beside the graph can be large, and no rule reads it)."""
    if old is new:
        return Changes()
    if type(old) is not dict or type(new) is not dict or len(old) != len(new) or list(old) != list(new):  # type: ignore[arg-type]
        return None
    lists = frozenset(lists)
    root: set[str] = set()
    per_list: dict[str, frozenset[str]] = {}
    differ = 0
    for k, b in new.items():  # type: ignore[union-attr]
        a = old[k]  # type: ignore[index]
        if a is b:
            continue
        differ += 1
        if differ > _MOST_CHANGED:
            return None
        if k not in lists:
            if (watched is None or k in watched) and not same(a, b):
                root.add(k)
            continue
        if type(a) is not list or type(b) is not list or len(a) != len(b):
            return None
        fields: set[str] = set()
        for n, i in enumerate(compress(count(), map(is_not, a, b))):
            f = _item_fields(a[i], b[i]) if n < _MOST_CHANGED else None
            if f is None:
                return None
            fields |= f
        if fields:
            per_list[k] = frozenset(fields)
    return Changes(frozenset(root), per_list)


_WATCHED: dict[tuple, tuple[Sequence[Rule], frozenset[str] | None]] = {}


def _watched(rules: Sequence[Rule], export: bool, index_root: frozenset[str]) -> frozenset[str] | None:
    """The root's members that the rules (those that run with `export`) and the index read; None: all.
    Worked out once per rule list (kept with it, so an id is never taken for another list's)."""
    key = (id(rules), export, index_root)
    hit = _WATCHED.get(key)
    if hit is not None and hit[0] is rules:
        return hit[1]
    out: set[str] | None = set(index_root)
    for rule in rules:
        if rule.export and not export:
            continue
        declared = None if rule.reads is None else rule.reads.get("", frozenset())
        if declared is None or "*" in declared:
            out = None
            break
        out |= declared  # type: ignore[operator]
    watched = None if out is None else frozenset(out)
    _WATCHED[key] = (rules, watched)
    return watched


class RuleMemo:
    """One clean analysis's rule findings, handed to the next version's analysis (`RuleMemo(before)`,
    filled by `run`). It holds the value the rules read (the analysis's own, so shared), each rule's
    findings (the analysis's own issues) and the shared index; the memo it was made from is dropped once
    used, so versions never chain."""

    __slots__ = ("before", "value", "export", "found", "index", "ran")

    def __init__(self, before: RuleMemo | None = None) -> None:
        self.before = before
        self.value: object = None
        self.export = False
        self.found: list[list[Issue]] = []
        self.index: object = None
        self.ran = 0  # how many rules ran (the others kept their findings)

    def run(self, rules: Sequence[Rule], doc: dict, *, lists: Iterable[str], export: bool,
            args: Callable[[object], tuple], build: Callable[[dict], object], index_root: frozenset[str],
            update: Callable[[object, dict, Callable[[Reads], bool]], object]) -> list[Issue]:
        """The findings of `rules` on `doc` in order (an `export` rule only with `export`), each rule's
        either kept from the version before (when the edit touched nothing it reads) or
        `rule.run(*args(index))`. A fresh run pays for nothing but keeping each rule's list. `index_root`:
        the root's members the index is built from."""
        before, self.before = self.before, None
        edit = None
        if before is not None and before.export == export and before.index is not None:
            edit = changes(before.value, doc, lists, _watched(rules, export, index_root))
        index = build(doc) if edit is None else update(before.index, doc, edit.touches)  # type: ignore[union-attr]
        call = args(index)
        found: list[list[Issue]] = []
        issues: list[Issue] = []
        ran = 0
        for i, rule in enumerate(rules):
            if rule.export and not export:
                r: list[Issue] = []
            elif edit is not None and not edit.touches(rule.reads):
                r = before.found[i]  # type: ignore[union-attr]  # never changed in place: shared
            else:
                r = rule.run(*call)  # type: ignore[assignment]
                if type(r) is not list:
                    r = list(r)
                ran += 1
            found.append(r)
            issues += r
        self.value, self.export, self.found, self.index, self.ran = doc, export, found, index, ran
        return issues


__all__ = ["Changes", "RuleMemo", "changes", "same"]
