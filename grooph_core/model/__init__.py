"""The document models and a small introspection API for editors (hover and completion).

`object_shape(kind, value, pointer)` tells which fields the object at a JSON pointer declares (a node or
stop by its `kind`, a carrier by its `kind`), and `field_info(kind, value, pointer)` what the value at a
pointer is: its description, whether it is required, the allowed literal values, and which kind of
object an id reference must name. Both walk the compiled descriptors along the pointer: O(depth), no
pydantic, no validation.

Reference kinds: node, edge, loop, group, policy, note, graph, lane, session, person, handoff, map,
node-or-group (group members), session-or-person (handoff ends), scope (a policy scope `node:X`, …).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from grooph_core.model.compiled import (
    MISSING,
    AltType,
    AnyType,
    ArrayType,
    BoolType,
    ConstType,
    EnumType,
    FieldDesc,
    NumType,
    ObjectType,
    RecordType,
    StrType,
    TypeDesc,
    UnionType,
    root_type,
)
from grooph_core.source.keyorder import is_index_key
from grooph_core.source.text import pointer_split

__all__ = ["FieldShape", "ObjectShape", "object_shape", "field_info", "root_type"]


@dataclass(frozen=True)
class FieldShape:
    """What a field (or an array item, or a record entry) is, for hover and completion.

    `values` are the allowed literal values (enum strings, the branch kinds of a union, the string
    alternatives of `role`/`when`/policy `kind`, `0` for the version literal); for an array they are
    the items'. `examples` are known but not exclusive values (capabilities, harnesses, outcomes).
    `ref` names the kind of object an id reference must name (also for array items: loop `members`
    is `node`); `key_ref` the same for a record's keys (`layout` keys name nodes); `defines` is set on
    an object's own `id`. `default` is the spec's default when the field is absent, else None.
    """

    name: str
    description: str
    required: bool
    expected: str
    json_type: str
    values: tuple = ()
    examples: tuple[str, ...] = ()
    ref: str | None = None
    key_ref: str | None = None
    defines: str | None = None
    default: Any = None
    pattern: str | None = None
    item: bool = False


@dataclass(frozen=True)
class ObjectShape:
    """The declared fields of the object at `pointer`, in canonical order.

    `branch` is the union branch chosen by the object's `kind` (None when it is not a union member or
    the kind is not known yet; the fields are then those every branch shares). `present` lists the
    declared fields the object already has, `unknown` the keys it has that are not declared."""

    title: str
    description: str
    pointer: str
    fields: tuple[FieldShape, ...]
    branch: str | None = None
    present: tuple[str, ...] = ()
    unknown: tuple[str, ...] = ()

    def field(self, name: str) -> FieldShape | None:
        for f in self.fields:
            if f.name == name:
                return f
        return None

    @property
    def missing_required(self) -> tuple[str, ...]:
        return tuple(f.name for f in self.fields if f.required and f.name not in self.present)


# ---- descriptors → shapes ---------------------------------------------------------------------------


def _json_type(t: TypeDesc) -> str:
    if isinstance(t, (StrType, EnumType)):
        return "string"
    if isinstance(t, NumType):
        return t.expected
    if isinstance(t, ConstType):
        return "number"
    if isinstance(t, BoolType):
        return "boolean"
    if isinstance(t, ArrayType):
        return "array"
    if isinstance(t, (ObjectType, UnionType, RecordType)):
        return "object"
    if isinstance(t, AltType):
        return " or ".join(dict.fromkeys(_json_type(o) for o in t.options))
    return "any"


def _values(t: TypeDesc) -> tuple:
    if isinstance(t, EnumType):
        return t.values
    if isinstance(t, ConstType):
        return (t.value,)
    if isinstance(t, UnionType):
        return t.names
    if isinstance(t, AltType):
        return tuple(v for o in t.options if isinstance(o, EnumType) for v in o.values)
    if isinstance(t, ArrayType):
        return _values(t.item)
    return ()


def _scalar_attr(t: TypeDesc, attr: str):
    if isinstance(t, ArrayType):
        t = t.item
    return getattr(t, attr, None) if isinstance(t, StrType) else None


_SHAPES: dict[tuple[int, bool], FieldShape] = {}


def _shape(name: str, t: TypeDesc, required: bool, description: str, default: Any = MISSING, item: bool = False) -> FieldShape:
    return FieldShape(
        name=name,
        description=description,
        required=required,
        expected=t.expected,
        json_type=_json_type(t),
        values=_values(t),
        examples=_scalar_attr(t, "examples") or (),
        ref=_scalar_attr(t, "ref"),
        key_ref=t.key_ref if isinstance(t, RecordType) else None,
        defines=_scalar_attr(t, "defines") if not isinstance(t, ArrayType) else None,
        default=None if default is MISSING else default,
        pattern=_scalar_attr(t, "pattern"),
        item=item,
    )


def _field_shape(f: FieldDesc) -> FieldShape:
    key = (id(f), False)
    s = _SHAPES.get(key)
    if s is None:
        s = _SHAPES[key] = _shape(f.name, f.type, f.required, f.description, f.default)
    return s


_HEADS: dict[int, ObjectType] = {}


def _union_head(u: UnionType) -> ObjectType:
    """The fields every branch of a union shares (in the first branch's order); `kind` lists all kinds."""
    h = _HEADS.get(id(u))
    if h is None:
        branches = list(u.branches.values())
        common = [f for f in branches[0].fields if all(f.name in b.by_name for b in branches[1:])]
        fields = tuple(
            FieldDesc(f.name, EnumType(u.names), True, f"{u.title} kind: one of " + ", ".join(u.names) + ".")
            if f.name == u.discriminator else f
            for f in common
        )
        h = ObjectType(
            title=u.title, description=f"A {u.title.lower()}; its {u.discriminator} decides its other fields.",
            fields=fields, by_name={f.name: f for f in fields}, names=tuple(f.name for f in fields),
            name_set=frozenset(f.name for f in fields), required=tuple(f.name for f in fields if f.required),
        )
        _HEADS[id(u)] = h
    return h


def _as_object(t: TypeDesc | None, v: Any) -> tuple[ObjectType | None, str | None]:
    """The object type a (union or alternatives) place takes for value `v`, and the union branch."""
    if isinstance(t, ObjectType):
        return t, None
    if isinstance(t, UnionType):
        k = v.get(t.discriminator) if isinstance(v, dict) else None
        if isinstance(k, str) and k in t.branches:
            return t.branches[k], k
        return _union_head(t), None
    if isinstance(t, AltType) and isinstance(v, dict):
        for o in t.options:
            if isinstance(o, ObjectType):
                return o, None
    return None, None


_NOTHING = object()


def _step(t: TypeDesc | None, v: Any, seg: str) -> tuple[TypeDesc | None, Any, FieldShape | None]:
    """One pointer step: the child's type, the child's value (or _NOTHING) and the child's field shape."""
    obj, _ = _as_object(t, v)
    child = _NOTHING
    if isinstance(v, dict):
        child = v.get(seg, _NOTHING)
    elif isinstance(v, list) and is_index_key(seg) and int(seg) < len(v):
        child = v[int(seg)]
    if obj is not None:
        f = obj.by_name.get(seg)
        if f is None:
            return None, child, None
        if isinstance(t, UnionType) and seg == t.discriminator:
            f = _union_head(t).by_name[seg]  # any kind may be chosen, not only the current one
        return f.type, child, _field_shape(f)
    if isinstance(t, ArrayType):
        return t.item, child, None
    if isinstance(t, RecordType):
        return t.value, child, None
    return None, child, None


def _walk(kind: str, value: Any, pointer: str):
    """Types and values along a pointer: a list of (type, value, field shape, segment) per step."""
    t: TypeDesc | None = root_type(kind)
    v = value
    trail = [(t, v, None, None)]
    for seg in pointer_split(pointer):
        t, v, fs = _step(t, v, seg)
        trail.append((t, v, fs, seg))
        if t is None:
            break
    return trail


def object_shape(kind: str, value: Any, pointer: str) -> ObjectShape | None:
    """The declared fields of the object at `pointer` in the document `value` ("graph" or "map").

    Unions are resolved by the value's `kind`. Returns None when the place at the pointer is not a
    declared object (a string, an array, a record such as `layout` or `pin`, a `patch`, an unknown
    key's value). The value at the pointer need not exist yet (completion inside a new object)."""
    trail = _walk(kind, value, pointer)
    if len(trail) != len(pointer_split(pointer)) + 1:
        return None
    t, v, _, _ = trail[-1]
    obj, branch = _as_object(t, v if v is not _NOTHING else None)
    if obj is None:
        return None
    present: tuple[str, ...] = ()
    unknown: tuple[str, ...] = ()
    if isinstance(v, dict):
        present = tuple(n for n in obj.names if n in v)
        unknown = tuple(k for k in v if k not in obj.name_set)
    fields = obj.fields
    if isinstance(t, UnionType) and branch is not None:
        head_kind = _union_head(t).by_name[t.discriminator]
        fields = tuple(head_kind if f.name == t.discriminator else f for f in fields)
    return ObjectShape(
        title=obj.title, description=obj.description, pointer=pointer,
        fields=tuple(_field_shape(f) for f in fields), branch=branch, present=present, unknown=unknown,
    )


def field_info(kind: str, value: Any, pointer: str) -> FieldShape | None:
    """What the value at `pointer` is: a declared field, an array item (`item=True`, the owning
    field's description) or a record entry (the record's description). None for the root, unknown
    keys and anything inside free JSON."""
    segments = pointer_split(pointer)
    if not segments:
        return None
    trail = _walk(kind, value, pointer)
    if len(trail) != len(segments) + 1:
        return None
    t, _, fs, seg = trail[-1]
    if fs is not None:
        return fs
    if t is None:
        return None
    parent_t = trail[-2][0]
    owner = next((step[2] for step in reversed(trail[:-1]) if step[2] is not None), None)
    description = owner.description if owner is not None else ""
    if isinstance(parent_t, ArrayType):
        return _shape(owner.name if owner else seg, t, True, description, item=True)
    if isinstance(parent_t, RecordType):
        s = _shape(seg, t, True, description, item=True)
        return FieldShape(**{**s.__dict__, "key_ref": parent_t.key_ref})
    return None
