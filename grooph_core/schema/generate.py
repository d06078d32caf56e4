"""Generate the published JSON Schemas from the models (map.md §2.9).

`python -m grooph_core.schema.generate` rewrites `grooph-0.schema.json` and `grooph-map-0.schema.json`;
`tests/core/test_schema_drift.py` fails when the committed files differ from a fresh generation.

Shape (map.md §2.9; the graph schema follows the same conventions): Draft 2020-12; root properties in
canonical order; array items, record values and unions that are objects go to `$defs` (keys sorted),
small inline objects stay inline; ids `{"type":"string","pattern":…}`; integers `{"type":"integer",
"minimum":…}`; enums `{"enum":[…]}`; literals `{"const":…}`; unions a `oneOf` of their branches with
`kind` as a `const`; untagged alternatives an `anyOf`; records `additionalProperties` (+
`propertyNames` for a key pattern). No `additionalProperties` on declared objects: unknown keys are
valid (they are warnings).

The neighbouring formats add (workflow.md §0, §2; board.md §2): `additionalProperties: false` on the types
that refuse unknown keys; a field that may be left out also takes `null` (absence); a YAML string field
takes any scalar but null (serde_yaml reads it as its text); i64 bounds as `minimum`/`maximum`.
"""

from __future__ import annotations

import json
import sys

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
    root_type,
)
from grooph_core.schema import FILES

META = {
    "graph": {
        "$id": "https://grooph.dev/schema/grooph-0.schema.json",
        "title": "grooph graph v0",
        "description": "A grooph graph document: one harness session, its steps, the edges between them, its loops and their brakes.",
    },
    "map": {
        "$id": "https://grooph.dev/schema/grooph-map-0.schema.json",
        "title": "grooph operation map v0",
        "description": "A grooph operation map: harness sessions on machines and accounts, the people they work with, and every path by which work passes between them.",
    },
    "workflow": {
        "$id": "https://grooph.dev/schema/workflow.schema.json",
        "title": "board workflow",
        "description": "A board's workflow (*.workflow.yaml): statuses, the transitions between them, what runs in each, the dispatcher and its caps, and the run machine.",
    },
    "board": {
        "$id": "https://grooph.dev/schema/board.schema.json",
        "title": "task board",
        "description": "One board (*.board.json): a queue of tasks with their lanes, dependencies, attempts, reviews and comments.",
    },
}



class _Gen:
    def __init__(self) -> None:
        self.defs: dict[str, dict] = {}

    def ref(self, t: ObjectType | UnionType) -> dict:
        """A `$ref` to the definition of an object or union, creating it on first use."""
        name = t.title
        if name not in self.defs:
            self.defs[name] = {}  # reserve (no recursion in the models, but keep it safe)
            self.defs[name] = self.inline(t)
        return {"$ref": f"#/$defs/{name}"}

    def place(self, t: TypeDesc) -> dict:
        """The schema of a value inside an array, a record or a union field: objects by reference."""
        if isinstance(t, (ObjectType, UnionType)):
            return self.ref(t)
        return self.inline(t)

    def inline(self, t: TypeDesc) -> dict:
        if isinstance(t, StrType):
            s: dict = {"type": ["string", "number", "boolean"] if t.any_scalar else "string"}
            if t.min_length or t.nonempty:
                s["minLength"] = max(1, t.min_length)
            if t.pattern:
                s["pattern"] = t.pattern
            if t.examples:
                s["examples"] = list(t.examples)
            return s
        if isinstance(t, NumType):
            s = {"type": "integer" if t.integer else "number"}
            if t.minimum is not None:
                s["minimum"] = t.minimum if isinstance(t.minimum, int) else (
                    int(t.minimum) if float(t.minimum).is_integer() else t.minimum)
            if t.maximum is not None:
                s["maximum"] = t.maximum
            return s
        if isinstance(t, NullType):
            return {"type": "null"}
        if isinstance(t, BoolType):
            return {"type": "boolean"}
        if isinstance(t, ConstType):
            return {"const": t.value}
        if isinstance(t, EnumType):
            return {"enum": list(t.values)}
        if isinstance(t, AnyType):
            return {}
        if isinstance(t, ArrayType):
            s = {"type": "array", "items": self.place(t.item)}
            if t.min_items:
                s["minItems"] = t.min_items
            return s
        if isinstance(t, RecordType):
            s = {"type": "object"}
            if t.key_pattern:
                s["propertyNames"] = {"pattern": t.key_pattern}
            s["additionalProperties"] = self.place(t.value)
            if t.min_props:
                s["minProperties"] = t.min_props
            if t.max_props is not None:
                s["maxProperties"] = t.max_props
            return s
        if isinstance(t, ObjectType):
            return self.object(t)
        if isinstance(t, UnionType):
            return {"oneOf": [self.object(b, const=(t.discriminator, name)) for name, b in t.branches.items()]}
        if isinstance(t, AltType):
            return {"anyOf": [self.inline(o) for o in t.options]}
        raise TypeError(t)

    def object(self, t: ObjectType, const: tuple[str, str] | None = None) -> dict:
        props = {}
        for f in t.fields:
            if const is not None and f.name == const[0]:
                props[f.name] = {"const": const[1]}
            elif isinstance(f.type, UnionType):
                props[f.name] = self.ref(f.type)
            elif f.flattened and isinstance(f.type, StrType) and f.type.any_scalar:
                # a flattened part is read from resolved values: a string must be one (workflow.md §2)
                props[f.name] = {**self.inline(f.type), "type": "string"}
            else:
                props[f.name] = self.inline(f.type)
            if f.nullable and not _takes_null(props[f.name]):
                props[f.name] = {"anyOf": [props[f.name], {"type": "null"}]}
        s: dict = {"type": "object", "properties": props}
        if t.required:
            s["required"] = list(t.required)
        if t.closed:
            s["additionalProperties"] = False
        return s


def _takes_null(s: dict) -> bool:
    """True when a schema already accepts null (any value, or a type list with null)."""
    return s == {} or s.get("type") == "null" or any(_takes_null(o) for o in s.get("anyOf", ()))


def generate(kind: str) -> dict:
    """The JSON Schema of a graph ("graph") or an operation map ("map"), as a dict in output order."""
    gen = _Gen()
    root = root_type(kind)
    body = gen.object(root)
    out = {"$schema": "https://json-schema.org/draft/2020-12/schema", **META[kind], **body}
    out["$defs"] = {k: gen.defs[k] for k in sorted(gen.defs)}
    return out


def schema_text(kind: str) -> str:
    """The file text: two-space indented JSON, one final newline."""
    return json.dumps(generate(kind), indent=2, ensure_ascii=False) + "\n"


def main(argv: list[str] | None = None) -> int:
    for kind, path in FILES.items():  # the episode record's schema is the seed's, never generated
        text = schema_text(kind)
        old = path.read_text("utf-8") if path.exists() else None
        if old != text:
            path.write_text(text, "utf-8")
            sys.stdout.write(f"wrote {path}\n")
        else:
            sys.stdout.write(f"{path} is up to date\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
