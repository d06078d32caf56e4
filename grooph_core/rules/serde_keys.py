"""`W_UNKNOWN_KEY` for a serde model (workflow.md §3.2, board.md §3): a key the type does not have, where
serde ignores it (every type but those that refuse unknown keys, whose unknown keys are structural
errors). Did-you-mean among the type's own keys. Keys of the open maps (`statuses`, `roles`, `params`,
`tasks`, `on`, …) are names, never unknown; values of free JSON (`params`, `residue`,
`handoff.metadata`, an action's arguments) are not walked.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from grooph_core.issues import Issue, make
from grooph_core.model.compiled import AltType, ArrayType, ObjectType, RecordType, TypeDesc
from grooph_core.rules.serde_shape import accepts
from grooph_core.rules.unknown_keys import UnknownKey
from grooph_core.source.text import did_you_mean, pointer_join


def unknown_key_issues(value: Any, root: ObjectType) -> list[Issue]:
    """Every key serde ignores in `value` read as the model `root`, in walk (text) order."""
    out: list[Issue] = []
    _walk(root, value, "", out)
    return out


def value_issues(t: TypeDesc, value: Any, pointer: str) -> list[Issue]:
    """Every key serde ignores in `value` (standing at `pointer`) read as the type `t`, in walk order: one
    part of a document (a workflow's status, issue 24)."""
    out: list[Issue] = []
    _walk(t, value, pointer, out)
    return out


def member_issues(t: ObjectType, value: dict, key: str, pointer: str) -> list[Issue]:
    """What `unknown_key_issues` says of one member `key` of the mapping `value` (at `pointer`) read as
    `t`: the key itself when `t` has no such key, else the keys serde ignores below it."""
    out: list[Issue] = []
    _members(t, value, ((key, value[key]),), pointer, out)
    return out


@lru_cache(maxsize=1024)
def _hint(key: str, names: tuple[str, ...]) -> str | None:
    """The did-you-mean of an unknown key (the same key is often unknown many times: a `note` in
    every status of a 1M workflow, 1,293 times)."""
    return did_you_mean(key, names)


def _walk(t: TypeDesc, v: Any, p, out: list[Issue]) -> None:
    """Walk `v` read as `t` (a type that may find something: `_finds`) at the place `p` (`_pointer`)."""
    tt = type(t)
    if tt is ObjectType:
        if type(v) is dict:
            _members(t, v, v.items(), p, out)  # type: ignore[arg-type]
    elif tt is ArrayType:
        item = t.item  # type: ignore[union-attr]
        if type(v) is list and _finds(item):
            for i, x in enumerate(v):
                _walk(item, x, (p, i), out)
    elif tt is RecordType:
        kid = t.value  # type: ignore[union-attr]
        if type(v) is dict and _finds(kid):
            for k, x in v.items():
                _walk(kid, x, (p, k), out)
    elif tt is AltType:
        for o in t.options:  # type: ignore[union-attr]
            if isinstance(o, (ObjectType, ArrayType, RecordType)) and accepts(o, v):
                _walk(o, v, p, out)
                return


def _members(t: ObjectType, v: dict, members, p, out: list[Issue]) -> None:
    walked = _walked_fields(t)
    for k, x in members:
        if k in walked:
            kid = walked[k]
            if kid is not None:
                _walk(kid, x, (p, k), out)
        elif not t.closed:
            at = _pointer(p)
            kp = (pointer_join(at, k),)  # one tuple for `at` and `pointers` (a 1M workflow has 1,293)
            hint = _hint(k, t.names)
            out.append(make("W_UNKNOWN_KEY", f'{t.title} has no key "{k}"; the engine ignores it'
                            + (f"; did you mean {hint}?" if hint else ""), kp, kp, on_key=True,
                            facts=UnknownKey(k, hint, at, hint is not None and hint in v)))


def _pointer(p) -> str:
    """The JSON pointer of a walk's place: a pointer, or (the parent's place, a key or an index), which
    the walk passes down instead of joining pointers it mostly never needs."""
    segments = []
    while type(p) is tuple:
        p, segment = p
        segments.append(segment)
    return pointer_join(p, *reversed(segments)) if segments else p


@lru_cache(maxsize=None)
def _walked_fields(t: ObjectType) -> dict[str, TypeDesc | None]:
    """The type's fields, each with its type when a walk below it may find something, else None."""
    return {f.name: f.type if _finds(f.type) else None for f in t.fields}


def _finds(t: TypeDesc, _seen: frozenset = frozenset()) -> bool:
    """Whether a value of `t` may hold a key serde ignores (an open object somewhere below it); the walk
    skips the rest (a guard, a limit, an action's arguments: 1,293 actions of a 1M workflow)."""
    found = _FINDS.get(t)
    if found is None:
        if t in _seen:
            return True  # a type holding itself: say it may, the walk finds out
        seen = _seen | {t}
        if isinstance(t, ObjectType):
            found = not t.closed or any(_finds(f.type, seen) for f in t.fields)
        elif isinstance(t, ArrayType):
            found = _finds(t.item, seen)
        elif isinstance(t, RecordType):
            found = _finds(t.value, seen)
        elif isinstance(t, AltType):
            found = any(isinstance(o, (ObjectType, ArrayType, RecordType)) and _finds(o, seen) for o in t.options)
        else:
            found = False
        _FINDS[t] = found
    return found


_FINDS: dict[TypeDesc, bool] = {}
