"""The structural check of a serde model (workflow.md §2 `E_WF_SCHEMA`, board.md §2 `E_BOARD_SCHEMA`).

It says what serde would refuse when reading the document into the model, from the same compiled
descriptors as everything else (`grooph_core.model.compiled`): a required field missing (or null where
its type takes no null), a wrong type, an enum word not listed (with did-you-mean), an unknown key in a
type that refuses them (with did-you-mean), an i64 written with a fraction or out of range, and a value
of the three shapes Expr, Action, Names that is none of their forms, in the seed's own words.

Conventions of the neighbouring formats (workflow.md §0): `null` for a field that may be left out is
absence; a YAML string field takes any non-null scalar as its text. Issues come in walk order (the
value's key order, which is the text's); the pipeline orders them by position.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from grooph_core.issues import Facts, Issue, make
from grooph_core.model.compiled import (
    AltType,
    AnyType,
    ArrayType,
    BoolType,
    ConstType,
    EnumType,
    NullType,
    NumType,
    ObjectType,
    RecordType,
    StrType,
    TypeDesc,
    UnionType,
)
from grooph_core.schema.check import found_json
from grooph_core.source.text import did_you_mean, json_type, pointer_join


@dataclass(frozen=True)
class ShapeProblem(Facts):
    """What serde would refuse, for the repairs and the editor: the `problem` ("type", "null",
    "missing", "unknown_key", "integer", "range", "enum", "size", "alternatives"), what was `expected`,
    the missing `field`, the `allowed` words, the did-you-mean `suggestion`; for a missing field,
    `written_after`: the mapping has a field the model lists after it (so in a YAML text cut short it
    cannot be one still to come, issue 21). One subclass per code."""

    problem: str
    expected: str | None = None
    field: str | None = None
    allowed: tuple[str, ...] = ()
    suggestion: str | None = None
    written_after: bool = False


@dataclass(frozen=True)
class WorkflowShapeProblem(ShapeProblem):
    """E_WF_SCHEMA (workflow.md §2)."""

    code = "E_WF_SCHEMA"


@dataclass(frozen=True)
class BoardShapeProblem(ShapeProblem):
    """E_BOARD_SCHEMA (board.md §2)."""

    code = "E_BOARD_SCHEMA"


SHAPE_FACTS = {c.code: c for c in (WorkflowShapeProblem, BoardShapeProblem)}


def takes_null(t: TypeDesc) -> bool:
    """True when null is a value of the type (an expression's literal, any value)."""
    return isinstance(t, (NullType, AnyType)) or (isinstance(t, AltType) and any(takes_null(o) for o in t.options))


def _noun(v: Any) -> str:
    t = json_type(v)
    return {"object": "a mapping", "array": "a list", "null": "null"}.get(t, f"a {t}")


class _Walk:
    def __init__(self, code: str):
        self.code = code
        self.facts = SHAPE_FACTS[code]
        self.out: list[Issue] = []

    def add(self, pointer: str, message: str, *, on_key: bool = False, at: str | None = None, **facts) -> None:
        self.out.append(make(self.code, message, (pointer if at is None else at,), (pointer,), on_key=on_key,
                             facts=self.facts(**facts)))

    def check(self, t: TypeDesc, v: Any, p: str, name: str) -> None:
        if isinstance(t, ObjectType):
            self.object(t, v, p, name)
        elif isinstance(t, StrType):
            if type(v) is str or (t.any_scalar and v is not None and not isinstance(v, (dict, list))):
                return
            if t.complaint:
                self.add(p, f"{t.complaint}, not {found_json(v)}", problem="type", expected="string")
            else:
                self.add(p, f"{name}: expected a string, got {_noun(v)}", problem="type", expected="string")
        elif isinstance(t, NumType):
            self.number(t, v, p, name)
        elif isinstance(t, BoolType):
            if v is not True and v is not False:
                self.add(p, f"{name}: expected true or false, got {_noun(v)}", problem="type", expected="boolean")
        elif isinstance(t, NullType):
            if v is not None:
                self.add(p, f"{name}: expected null, got {_noun(v)}", problem="type", expected="null")
        elif isinstance(t, EnumType):
            self.enum(t, v, p, name)
        elif isinstance(t, ArrayType):
            if type(v) is not list:
                self.add(p, f"{name}: expected a list, got {_noun(v)}", problem="type", expected="array")
                return
            for i, x in enumerate(v):
                self.check(t.item, x, f"{p}/{i}", name)
        elif isinstance(t, RecordType):
            if type(v) is not dict:
                self.add(p, f"{name}: expected a mapping ({t.expected}), got {_noun(v)}", problem="type",
                         expected="object")
                return
            if len(v) < t.min_props or (t.max_props is not None and len(v) > t.max_props):
                self.add(p, f"{name}: expected a mapping of {t.min_props} to {t.max_props} keys, got {len(v)}",
                         problem="size", expected="object")
                return
            for k, x in v.items():
                self.check(t.value, x, pointer_join(p, k), k)
        elif isinstance(t, AltType):
            self.alternatives(t, v, p, name)
        elif isinstance(t, (AnyType, ConstType, UnionType)):
            return

    def object(self, t: ObjectType, v: Any, p: str, name: str) -> None:
        if type(v) is not dict:
            self.add(p, f"{name}: expected a mapping ({t.title}), got {_noun(v)}", problem="type", expected="object")
            return
        for n, f in enumerate(t.fields):
            if f.required and (f.name not in v or (v[f.name] is None and not takes_null(f.type))):
                if f.name in v:
                    self.add(pointer_join(p, f.name), f"{f.name} is required and cannot be null", problem="null")
                else:
                    self.add(p, f'{t.title} is missing the required field "{f.name}"', on_key=True,
                             at=pointer_join(p, f.name), problem="missing", field=f.name,
                             written_after=any(g.name in v for g in t.fields[n + 1:]))
        by_name = t.by_name
        for k, x in v.items():
            f = by_name.get(k)
            kp = pointer_join(p, k)
            if f is None:
                if t.closed:
                    hint = did_you_mean(k, t.names)
                    self.add(kp, f'{t.title} has no field "{k}" (expected one of {", ".join(t.names)})'
                             + (f"; did you mean {hint}?" if hint else ""), on_key=True, problem="unknown_key",
                             suggestion=hint)
                continue
            if x is None and not f.required:
                continue  # serde reads null as absence
            if f.required and x is None:
                continue  # reported above
            self.check(f.type, x, kp, k)

    def number(self, t: NumType, v: Any, p: str, name: str) -> None:
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            self.add(p, f"{name}: expected {'an integer' if t.integer else 'a number'}, got {_noun(v)}",
                     problem="type", expected=t.expected)
            return
        if t.integer and type(v) is float and (t.strict or v != int(v)):
            self.add(p, f"{name}: expected an integer, got {v!r} (an integer is written without a "
                     "fraction)", problem="integer", expected="integer")
            return
        if (t.minimum is not None and v < t.minimum) or (t.maximum is not None and v > t.maximum):
            shown = str(v) if type(v) is int else found_json(v)
            self.add(p, f"{name}: {shown} is out of range (a signed 64-bit integer)", problem="range",
                     expected=t.expected)

    def enum(self, t: EnumType, v: Any, p: str, name: str) -> None:
        if type(v) is str and v in t.values:
            return
        if isinstance(v, (dict, list)) or v is None:
            self.add(p, f"{name}: expected one of {', '.join(t.values)}, got {_noun(v)}", problem="type",
                     expected=t.expected)
            return
        word = v if type(v) is str else found_json(v)
        hint = did_you_mean(word, t.values)
        self.add(p, f'{name}: "{word}" is not one of {", ".join(t.values)}' + (f"; did you mean {hint}?" if hint else ""),
                 problem="enum", allowed=tuple(t.values), suggestion=hint)

    def alternatives(self, t: AltType, v: Any, p: str, name: str) -> None:
        for o in t.options:
            if accepts(o, v):
                return
        # A list where a list is one of the forms: say which items are wrong (Names: "a name is a string").
        if type(v) is list:
            for o in t.options:
                if isinstance(o, ArrayType):
                    self.check(o, v, p, name)
                    return
        message = f"{t.complaint}, not {found_json(v)}" if t.complaint else f"{name}: expected {t.expected}, got {_noun(v)}"
        self.add(p, message, problem="alternatives", expected=t.title)


def accepts(t: TypeDesc, v: Any) -> bool:
    """True when `v` is a value of the type (no structural issue)."""
    w = _Walk("E_WF_SCHEMA")
    w.check(t, v, "", "")
    return not w.out


def shape_issues(value: Any, root: ObjectType, code: str) -> list[Issue]:
    """Every structural issue of `value` read as the model `root`, each with the kind's `code`."""
    w = _Walk(code)
    if value is None:
        w.add("", f"the document is empty; a {root.title} is a mapping with {', '.join(root.required)}",
              problem="type", expected="object")
        return w.out
    w.object(root, value, "", root.title)
    return w.out
