"""The document models turned into plain type descriptors, once, at import.

The pydantic models (`model.graph`, `model.map`) are the single source of field order, enums,
constraints and descriptions. Everything that runs per keystroke (the structural check, the canonical
form, the unknown-key rule, the editor's hovers) works from these small frozen descriptors instead, so
no pydantic validation ever runs on a document.
"""

from __future__ import annotations

import re
import types
import typing
from dataclasses import dataclass, field
from typing import Any, Literal, Union

import annotated_types
from pydantic import BaseModel, Strict, StringConstraints
from pydantic.fields import FieldInfo
from pydantic_core import PydanticUndefined

from grooph_core.model.graph import Graph
from grooph_core.model.map import OperationMap
from grooph_core.model.markers import Complaint, Defines, Keys, Lex, Ref, ScalarText, Title, UnitEnum
from grooph_core.source.text import JS_WHITESPACE

MISSING: Any = PydanticUndefined


# ---- descriptors ------------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class StrType:
    """A string, maybe with a pattern, a minimum length (UTF-16 units) or the non-empty check."""

    expected: str = "string"
    pattern: str | None = None
    regex: re.Pattern | None = None
    min_length: int = 0
    nonempty: bool = False
    ref: str | None = None
    defines: str | None = None
    examples: tuple[str, ...] = ()
    any_scalar: bool = False  # a YAML string field that takes any non-null scalar as its text
    complaint: str = ""  # the reader's words when the value is not a string (workflow.md §2 Names)
    unit_enum: bool = False  # a catch-all unit enum of the seed (markers.UnitEnum)


@dataclass(frozen=True, eq=False)
class NumType:
    """A finite number; `integer` when no fraction is allowed; `minimum` and `maximum` inclusive;
    `strict` when an integer must be written without a fraction (serde's i64: `2.0` is refused)."""

    integer: bool
    minimum: float | None = None
    maximum: float | None = None
    strict: bool = False

    @property
    def expected(self) -> str:
        return "integer" if self.integer else "number"


@dataclass(frozen=True, eq=False)
class BoolType:
    expected: str = "boolean"


@dataclass(frozen=True, eq=False)
class ConstType:
    """A literal number (`grooph: 0`, `groophMap: 0`)."""

    value: int

    @property
    def expected(self) -> str:
        return f"the literal {self.value}"


@dataclass(frozen=True, eq=False)
class EnumType:
    """One of a fixed set of strings."""

    values: tuple[str, ...]

    @property
    def expected(self) -> str:
        return "one of " + " | ".join(self.values)


@dataclass(frozen=True, eq=False)
class NullType:
    """The YAML/JSON null, as one alternative of an expression (workflow.md §2 Expr)."""

    expected: str = "null"


@dataclass(frozen=True, eq=False)
class AnyType:
    """Free JSON (run-note `patch`): never checked, keys sorted in canonical form."""

    expected: str = "any JSON value"


@dataclass(frozen=True, eq=False)
class ArrayType:
    item: "TypeDesc"
    min_items: int = 0

    @property
    def expected(self) -> str:
        return "array of " + label_of(self.item)


@dataclass(frozen=True, eq=False)
class RecordType:
    """An object whose keys are data (layout, pin, params, with)."""

    value: "TypeDesc"
    expected: str
    key_pattern: str | None = None
    key_regex: re.Pattern | None = None
    key_role: str = "key"
    key_ref: str | None = None
    min_props: int = 0
    max_props: int | None = None


@dataclass(frozen=True, eq=False)
class FieldDesc:
    name: str
    type: "TypeDesc"
    required: bool
    description: str
    default: Any = MISSING
    nullable: bool = False  # an `Option`: `null` is the same as leaving the field out (workflow.md §0)
    flattened: bool = False  # a field of a `#[serde(flatten)]` part (workflow.md §2 "Flattened items")


@dataclass(frozen=True, eq=False)
class ObjectType:
    """An object with declared fields, in canonical order; unknown keys allowed."""

    title: str
    description: str
    fields: tuple[FieldDesc, ...]
    by_name: dict[str, FieldDesc] = field(repr=False)
    names: tuple[str, ...] = ()
    name_set: frozenset[str] = frozenset()
    required: tuple[str, ...] = ()
    closed: bool = False  # unknown keys refused (serde `deny_unknown_fields`)

    @property
    def expected(self) -> str:
        return self.title


@dataclass(frozen=True, eq=False)
class UnionType:
    """A union discriminated by `kind` (nodes, stops, carriers)."""

    title: str
    branches: dict[str, ObjectType]
    discriminator: str = "kind"

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(self.branches)

    @property
    def expected(self) -> str:
        return f"{self.title.lower()} with {self.discriminator} one of " + " | ".join(self.branches)


@dataclass(frozen=True, eq=False)
class AltType:
    """Untagged alternatives (role, when, policy kind, params values): one of them must accept."""

    title: str
    options: tuple["TypeDesc", ...]
    expected: str
    complaint: str = ""  # the reader's words when no alternative accepts (workflow.md §2)


TypeDesc = Union[
    StrType, NumType, BoolType, ConstType, EnumType, AnyType, NullType, ArrayType, RecordType, ObjectType, UnionType,
    AltType,
]


def label_of(t: TypeDesc) -> str:
    """How a value of this type is named inside "array of …"."""
    if isinstance(t, (ObjectType, UnionType)):
        return t.title
    return t.expected


# ---- compiling the models ---------------------------------------------------------------------------


def py_regex(pattern: str) -> re.Pattern:
    """The published (ECMAScript) pattern as a Python regex with the same meaning (map.md §2.1):
    `\\d` is ASCII digits only and `\\s` is exactly the ECMAScript whitespace set (graph.md §0.1).
    Matched with `fullmatch`, so Python's `$` never accepts a trailing newline."""
    ws = "".join(f"\\u{ord(c):04x}" for c in JS_WHITESPACE)
    p = pattern.replace(r"\d", "[0-9]").replace(r"[^{}\s]", "[^{}" + ws + "]").replace(r"\s", "[" + ws + "]")
    return re.compile(p)


_OBJECT_CACHE: dict[type, ObjectType] = {}


def _split_annotated(tp) -> tuple[Any, list]:
    meta: list = []
    while typing.get_origin(tp) is typing.Annotated:
        args = typing.get_args(tp)
        tp, meta = args[0], list(args[1:]) + meta
    return tp, meta


def _first(meta: list, cls):
    for m in meta:
        if isinstance(m, cls):
            return m
    return None


def _is_model(tp) -> bool:
    return isinstance(tp, type) and issubclass(tp, BaseModel)


def describe(tp, meta: list | None = None) -> TypeDesc:
    """The descriptor of one annotation (with its metadata: pydantic constraints and our markers)."""
    tp, inner = _split_annotated(tp)
    meta = inner + list(meta or [])
    origin = typing.get_origin(tp)
    title = _first(meta, Title)

    if tp is Any:
        return AnyType()
    if tp is type(None):
        return NullType()
    if _is_model(tp):
        return describe_model(tp)
    if tp is str:
        lex = _first(meta, Lex)
        sc = _first(meta, StringConstraints)
        pattern = sc.pattern if sc and sc.pattern else None
        min_length = (sc.min_length or 0) if sc else 0
        ref = _first(meta, Ref)
        dfn = _first(meta, Defines)
        complaint = _first(meta, Complaint)
        return StrType(
            expected=lex.expected if lex else "string",
            pattern=pattern,
            regex=py_regex(pattern) if pattern else None,
            min_length=min_length,
            nonempty=bool(lex and lex.nonempty),
            ref=ref.kind if ref else None,
            defines=dfn.kind if dfn else None,
            examples=lex.examples if lex else (),
            any_scalar=_first(meta, ScalarText) is not None,
            complaint=complaint.text if complaint else "",
            unit_enum=_first(meta, UnitEnum) is not None,
        )
    if tp is bool:
        return BoolType()
    if tp in (int, float):
        ge = _first(meta, annotated_types.Ge)
        le = _first(meta, annotated_types.Le)
        return NumType(integer=tp is int, minimum=ge.ge if ge else None, maximum=le.le if le else None,
                       strict=_first(meta, Strict) is not None)
    if origin is Literal:
        values = typing.get_args(tp)
        if all(isinstance(v, str) for v in values):
            return EnumType(tuple(values))
        assert len(values) == 1 and type(values[0]) is int, values
        return ConstType(values[0])
    if origin is list:
        (item,) = typing.get_args(tp)
        mn = _first(meta, annotated_types.MinLen)
        return ArrayType(describe(item), mn.min_length if mn else 0)
    if origin is dict:
        _, value = typing.get_args(tp)
        keys = _first(meta, Keys) or Keys()
        size = _first(meta, annotated_types.Len)
        return RecordType(
            value=describe(value),
            expected=title.expected if title else "object",
            key_pattern=keys.pattern,
            key_regex=py_regex(keys.pattern) if keys.pattern else None,
            key_role=keys.role,
            key_ref=keys.ref,
            min_props=size.min_length if size else 0,
            max_props=size.max_length if size else None,
        )
    if origin in (Union, types.UnionType):
        args = typing.get_args(tp)
        if all(_is_model(a) for a in args):
            branches: dict[str, ObjectType] = {}
            for a in args:
                obj = describe_model(a)
                kind_field = obj.by_name["kind"].type
                assert isinstance(kind_field, EnumType) and len(kind_field.values) == 1
                branches[kind_field.values[0]] = obj
            return UnionType(title.expected if title else "value", branches)
        options = tuple(describe(a) for a in args)
        complaint = _first(meta, Complaint)
        return AltType(title.expected if title else "value", options, _alternatives_expected(options),
                       complaint.text if complaint else "")
    raise TypeError(f"no descriptor for annotation {tp!r}")


def _alternatives_expected(options: tuple[TypeDesc, ...]) -> str:
    """graph.md §4.3: the allowed values joined by ` | `, e.g. `one of fresh | shared | {verdict: string}`."""
    parts: list[str] = []
    one_of = False
    for o in options:
        if isinstance(o, EnumType):
            parts.extend(o.values)
            one_of = True
        elif isinstance(o, ObjectType):
            parts.append("{" + ", ".join(f"{f.name}: {f.type.expected}" for f in o.fields if f.required) + "}")
        else:
            parts.append(o.expected)
    return ("one of " if one_of else "") + " | ".join(parts)


def describe_model(cls: type[BaseModel]) -> ObjectType:
    """The descriptor of a model class: its fields in declared (canonical) order."""
    if cls in _OBJECT_CACHE:
        return _OBJECT_CACHE[cls]
    fields: list[FieldDesc] = []
    extra = cls.model_config.get("json_schema_extra")
    flat = extra.get("serde_flatten") if isinstance(extra, dict) else None
    flat_fields = next((c.model_fields for c in cls.__mro__ if getattr(c, "__name__", "") == flat), {})
    for attr, info in cls.model_fields.items():
        fields.append(_describe_field(attr, info, attr in flat_fields))
    doc = (cls.__doc__ or "").strip().splitlines()
    obj = ObjectType(
        title=cls.model_config.get("title") or cls.__name__,
        description=doc[0] if doc else "",
        fields=tuple(fields),
        by_name={f.name: f for f in fields},
        names=tuple(f.name for f in fields),
        name_set=frozenset(f.name for f in fields),
        required=tuple(f.name for f in fields if f.required),
        closed=cls.model_config.get("extra") == "forbid",
    )
    _OBJECT_CACHE[cls] = obj
    return obj


def _describe_field(attr: str, info: FieldInfo, flattened: bool = False) -> FieldDesc:
    name = info.alias or attr
    annotation, nullable = info.annotation, False
    if not info.is_required() and typing.get_origin(annotation) in (Union, types.UnionType):
        # `Optional[T]` (the neighbouring formats): null is absence, the field's type is T.
        args = typing.get_args(annotation)
        rest = tuple(a for a in args if a is not type(None))
        if len(rest) == 1 and len(args) == 2:
            annotation, nullable = rest[0], True
    t = describe(annotation, list(info.metadata))
    if not info.description:
        raise TypeError(f"field {name!r} has no description")
    default = info.default if info.default is not None else MISSING
    if default is MISSING and info.default_factory is not None:
        default = info.default_factory()
    return FieldDesc(name, t, info.is_required(), info.description, default, nullable, flattened)


def _roots() -> dict[str, ObjectType]:
    return {"graph": describe_model(Graph), "map": describe_model(OperationMap)}


ROOTS: dict[str, ObjectType] = _roots()
# The neighbouring formats with a pydantic model, described on first use (workflow.md, board.md).
_LATER_ROOTS = {"workflow": ("grooph_core.model.workflow", "Workflow"), "board": ("grooph_core.model.board", "Board")}


def root_type(kind: str) -> ObjectType:
    """The descriptor of a document's root object: kind is "graph", "map", "workflow" or "board"."""
    if kind in _LATER_ROOTS and kind not in ROOTS:
        import importlib

        module, name = _LATER_ROOTS[kind]
        ROOTS[kind] = describe_model(getattr(importlib.import_module(module), name))
    return ROOTS.get(kind) or ROOTS["graph"]
