"""`E_SCHEMA`: the structural check (graph.md §4, map.md §5).

The model descriptors are compiled once, at import, into plain checking closures, so the check costs
one pass over the parsed value with no pydantic and no jsonschema involved (it runs on every keystroke).

Walk and order (graph.md §4.2): depth-first from the root; for an object, first one "missing required
property" per absent required field in declared order, then each present declared field in declared
order (unknown keys skipped); arrays item by item after their `minItems` issue; records in key order
(§0.4) with the key-pattern issue before the value's; unions by `kind` (a bad `kind` is one issue at
`…/kind` and nothing more); untagged alternatives give one issue at their own path.

Each issue's message is `<path>: <detail>` (`/` for the root); `at` follows graph.md §4.4 / map.md §5.2;
`pointers[0]` is the failing value's pointer, or for a missing field (and a missing `kind`) the pointer
of the object lacking it with `on_key=True`. `facts` (`issues.SchemaProblem`) names the kind of problem for repairs.
"""

from __future__ import annotations

import json
import math
from typing import Any, Callable

from grooph_core.issues import Issue, SchemaProblem, make
from grooph_core.model.compiled import (
    AltType,
    AnyType,
    ArrayType,
    BoolType,
    ConstType,
    EnumType,
    NumType,
    ObjectType,
    RecordType,
    StrType,
    TypeDesc,
    UnionType,
    root_type,
)
from grooph_core.source.keyorder import is_index_key, keys_in_js_order
from grooph_core.source.json_reader import not_json_issue  # noqa: F401  (the reader's issue, step 1 of the same check)
from grooph_core.source.text import compact_json, js_number, json_type, pointer_escape, pointer_split, utf16_len

# A raw finding: (message path, primary pointer, on_key, detail, the `SchemaProblem` fields but `path`)
Raw = tuple[str, str, bool, str, dict]
Check = Callable[[Any, str, list], None]

_ABSENT = object()


FOUND_LIMIT = 120


def found_json(v: Any, limit: int = FOUND_LIMIT) -> str:
    """The value found, as compact JSON for a message (graph.md §4.3), numbers per §6.4.

    Our choice: cut after `limit` characters with "…", so that a message stays one readable line
    even when a whole object sits in the wrong place; written without recursion (any depth)."""
    parts: list[str] = []
    size = 0
    stack: list[tuple[bool, Any]] = [(False, v)]
    while stack:
        literal, x = stack.pop()
        if literal:
            piece = x
        elif type(x) is dict:
            stack.append((True, "}"))
            items = list(x.items())
            for i in range(len(items) - 1, -1, -1):
                stack.append((False, items[i][1]))
                stack.append((True, ("," if i else "") + json.dumps(items[i][0], ensure_ascii=False) + ":"))
            piece = "{"
        elif type(x) is list:
            stack.append((True, "]"))
            for i in range(len(x) - 1, -1, -1):
                stack.append((False, x[i]))
                if i:
                    stack.append((True, ","))
            piece = "["
        else:
            piece = compact_json(x)
        parts.append(piece)
        size += len(piece)
        if size > limit:
            return "".join(parts)[:limit] + "…"
    return "".join(parts)


def _type_issue(expected: str, v, p: str, out: list) -> None:
    out.append((p, p, False, f"expected {expected}, got {json_type(v)}", {"problem": "type", "expected": expected}))


def _compile_str(t: StrType) -> Check:
    expected = f"{t.expected} (non-empty string)" if t.nonempty else t.expected
    nonempty, min_length, regex, pattern = t.nonempty, t.min_length, t.regex, t.pattern
    fullmatch = regex.fullmatch if regex is not None else None

    def check(v, p, out):
        if type(v) is not str:
            _type_issue(expected, v, p, out)
            return
        if nonempty and v == "":
            out.append((p, p, False, f"expected {expected}, got string", {"problem": "empty", "expected": expected}))
            return
        if min_length and len(v) < min_length and utf16_len(v) < min_length:
            out.append((p, p, False, f"expected string of at least {min_length} character(s), got {found_json(v)}",
                        {"problem": "min_length", "expected": t.expected}))
            return
        if fullmatch is not None and fullmatch(v) is None:
            out.append((p, p, False, f"expected {t.expected} matching {pattern}, got {found_json(v)}",
                        {"problem": "pattern", "expected": t.expected, "pattern": pattern}))

    return check


def _compile_num(t: NumType) -> Check:
    expected, integer, minimum = t.expected, t.integer, t.minimum

    def check(v, p, out):
        tv = type(v)
        if tv is int:
            pass
        elif tv is float:
            if not math.isfinite(v):
                out.append((p, p, False, f"expected {expected}, got {js_number(v)}", {"problem": "type", "expected": expected}))
                return
            if integer and v != int(v):
                out.append((p, p, False, f"expected integer, got {js_number(v)}", {"problem": "integer", "expected": expected}))
                return
        elif isinstance(v, (int, float)) and not isinstance(v, bool):  # subclasses, never from json.loads
            return check(float(v) if isinstance(v, float) else int(v), p, out)
        else:
            _type_issue(expected, v, p, out)
            return
        if minimum is not None and v < minimum:
            out.append((p, p, False, f"expected {expected} >= {js_number(minimum)}, got {js_number(v)}",
                        {"problem": "minimum", "expected": expected, "minimum": minimum}))

    return check


def _compile_bool(t: BoolType) -> Check:
    def check(v, p, out):
        if v is not True and v is not False:
            _type_issue("boolean", v, p, out)

    return check


def _compile_const(t: ConstType) -> Check:
    want = t.value

    def check(v, p, out):
        if not (type(v) in (int, float) and v == want):
            out.append((p, p, False, f"expected {t.expected}, got {found_json(v)}",
                        {"problem": "const", "expected": t.expected, "allowed": (want,)}))

    return check


def _compile_enum(t: EnumType) -> Check:
    values = frozenset(t.values)
    expected = t.expected

    def check(v, p, out):
        if type(v) is not str or v not in values:
            out.append((p, p, False, f"expected {expected}, got {found_json(v)}",
                        {"problem": "enum", "expected": expected, "allowed": tuple(t.values)}))

    return check


def array_head(t: ArrayType, v: Any, p: str, out: list) -> bool:
    """An array's own findings, which come before its items' (not an array; fewer than `minItems`
    items); False when `v` is not an array (its items are then not checked)."""
    if type(v) is not list:
        _type_issue(t.expected, v, p, out)
        return False
    if t.min_items and len(v) < t.min_items:
        out.append((p, p, False, f"expected at least {t.min_items} item(s), got {len(v)}",
                    {"problem": "min_items", "expected": t.expected, "minimum": t.min_items}))
    return True


def _compile_array(t: ArrayType) -> Check:
    item = _compile(t.item)
    plain_strings = isinstance(t.item, StrType) and t.item.regex is None and not t.item.nonempty and not t.item.min_length

    def check(v, p, out):
        if not array_head(t, v, p, out):
            return
        if plain_strings:
            for i, x in enumerate(v):
                if type(x) is not str:
                    _type_issue("string", x, f"{p}/{i}", out)
            return
        for i, x in enumerate(v):
            item(x, f"{p}/{i}", out)

    return check


def _compile_record(t: RecordType) -> Check:
    expected = t.expected
    value = _compile(t.value)
    key_match = t.key_regex.fullmatch if t.key_regex is not None else None
    role, pattern = t.key_role, t.key_pattern

    def check(v, p, out):
        if type(v) is not dict:
            _type_issue(expected, v, p, out)
            return
        for k in keys_in_js_order(v):
            kp = p + "/" + pointer_escape(k)
            if key_match is not None and key_match(k) is None:
                out.append((kp, kp, True, f"expected {role} matching {pattern} as key, got {found_json(k)}",
                            {"problem": "record_key", "expected": role, "pattern": pattern}))
            value(v[k], kp, out)

    return check


# Fast acceptance of a field's value without calling its check (most values pass): the mode says
# which test proves the value fine; when it does not, the field's own check runs and reports.
_PLAIN_STR, _NONEMPTY_STR, _PATTERN_STR, _ENUM, _INT, _BOOL, _NUM = 1, 2, 3, 4, 5, 6, 7
_INF = float("inf")


def _fast_accept(t: TypeDesc) -> tuple[int, object]:
    if isinstance(t, StrType) and not t.min_length:
        if t.regex is None:
            return (_NONEMPTY_STR if t.nonempty else _PLAIN_STR), None
        if not t.nonempty:
            return _PATTERN_STR, t.regex.fullmatch
    if isinstance(t, EnumType):
        return _ENUM, frozenset(t.values)
    if isinstance(t, NumType):
        return (_INT if t.integer else _NUM), t.minimum
    if isinstance(t, BoolType):
        return _BOOL, None
    return 0, None


def missing_finding(name: str, seg: str, p: str) -> Raw:
    """The finding of an object at `p` lacking the required field `name` (`seg`: its pointer segment)."""
    return (p + seg, p, True, f'missing required property "{name}"', {"problem": "missing", "field": name})


def _compile_object(t: ObjectType) -> Check:
    expected = t.title
    required = [(name, "/" + pointer_escape(name)) for name in t.required]
    fields = [(f.name, "/" + pointer_escape(f.name), _compile(f.type), *_fast_accept(f.type)) for f in t.fields]

    def check(v, p, out):
        if type(v) is not dict:
            _type_issue(expected, v, p, out)
            return
        for name, seg in required:
            if name not in v:
                out.append(missing_finding(name, seg, p))
        for name, seg, fcheck, mode, data in fields:
            x = v.get(name, _ABSENT)
            if x is _ABSENT:
                continue
            if mode == _PLAIN_STR:
                if type(x) is str:
                    continue
            elif mode == _PATTERN_STR:
                if type(x) is str and data(x) is not None:
                    continue
            elif mode == _ENUM:
                if type(x) is str and x in data:
                    continue
            elif mode == _NONEMPTY_STR:
                if type(x) is str and x:
                    continue
            elif mode == _INT:
                if type(x) is int and (data is None or x >= data):
                    continue
            elif mode == _BOOL:
                if x is True or x is False:
                    continue
            elif mode == _NUM:
                tx = type(x)
                if (tx is int or (tx is float and -_INF < x < _INF)) and (data is None or x >= data):
                    continue
            fcheck(x, p + seg, out)

    return check


def _compile_union(t: UnionType) -> Check:
    expected = t.expected
    disc = t.discriminator
    seg = "/" + disc
    names = " | ".join(t.branches)
    branches = {name: _compile(obj) for name, obj in t.branches.items()}

    def check(v, p, out):
        if type(v) is not dict:
            _type_issue(expected, v, p, out)
            return
        k = v.get(disc, _ABSENT)
        if k is _ABSENT:
            out.append((p + seg, p, True, f"expected {disc} to be one of {names}, got nothing",
                        {"problem": "discriminator", "field": disc, "allowed": tuple(t.branches)}))
            return
        branch = branches.get(k) if type(k) is str else None
        if branch is None:
            out.append((p + seg, p + seg, False, f"expected {disc} to be one of {names}, got {found_json(k)}",
                        {"problem": "discriminator", "field": disc, "allowed": tuple(t.branches)}))
            return
        branch(v, p, out)

    return check


def _compile_alt(t: AltType) -> Check:
    options = [_compile(o) for o in t.options]
    expected = t.expected
    allowed = tuple(v for o in t.options if isinstance(o, EnumType) for v in o.values)

    def check(v, p, out):
        for o in options:
            scratch: list = []
            o(v, p, scratch)
            if not scratch:
                return
        out.append((p, p, False, f"expected {expected}, got {found_json(v)}",
                    {"problem": "alternatives", "expected": expected, "allowed": allowed}))

    return check


def _compile_any(t: AnyType) -> Check:
    def check(v, p, out):
        return None

    return check


_COMPILERS = {
    StrType: _compile_str, NumType: _compile_num, BoolType: _compile_bool, ConstType: _compile_const,
    EnumType: _compile_enum, ArrayType: _compile_array, RecordType: _compile_record, ObjectType: _compile_object,
    UnionType: _compile_union, AltType: _compile_alt, AnyType: _compile_any,
}
_CACHE: dict[int, Check] = {}


def _compile(t: TypeDesc) -> Check:
    """The structural check of a type: `check(value, pointer, out)` appends its raw findings to `out`."""
    c = _CACHE.get(id(t))
    if c is None:
        c = _COMPILERS[type(t)](t)
        _CACHE[id(t)] = c
    return c


def accepts(t: TypeDesc, value: Any) -> bool:
    """True when `value` passes the structural check of type `t` (used by the canonical form to pick
    an untagged alternative, graph.md §6.2)."""
    out: list = []
    _compile(t)(value, "", out)
    return not out


compiled_check = _compile
_ROOT_CHECKS = {"graph": _compile(root_type("graph")), "map": _compile(root_type("map"))}


# ---- `at` (graph.md §4.4, map.md §5.2) ----------------------------------------------------------------


def nearest_id(value: Any, segments: list[str]) -> tuple[str, ...]:
    """The id of the deepest object below the root along `segments` that has a string `id`.

    Walk from the root; after each step remember the id of a reached object with a string `id`; stop
    when a step reaches something that is not an object or array (or does not exist)."""
    cur = value
    found = None
    for s in segments:
        if isinstance(cur, dict):
            if s not in cur:
                break
            cur = cur[s]
        elif isinstance(cur, list):
            if not is_index_key(s) or int(s) >= len(cur):
                break
            cur = cur[int(s)]
        else:
            break
        if isinstance(cur, dict):
            i = cur.get("id")
            if isinstance(i, str):
                found = i
        elif not isinstance(cur, list):
            break
    return (found,) if found is not None else ()


# ---- public API -------------------------------------------------------------------------------------


def schema_issues(value: Any, kind: str) -> list[Issue]:
    """Every `E_SCHEMA` issue of a parsed document, in walk order (graph.md §4, map.md §5).

    `kind` is "graph" or "map"; the value is what `json.loads` returned (any JSON value)."""
    raw: list[Raw] = []
    _ROOT_CHECKS.get(kind, _ROOT_CHECKS["graph"])(value, "", raw)  # any other JSON is read as a graph (map.md §1)
    return raw_issues(value, raw)


def raw_issues(value: Any, raw: list[Raw]) -> list[Issue]:
    """The `E_SCHEMA` issues of raw findings (whole-document pointers) on `value`."""
    return [_issue(value, r) for r in raw]


def _issue(value: Any, r: Raw) -> Issue:
    path, pointer, on_key, detail, data = r
    at = nearest_id(value, pointer_split(path))
    return make("E_SCHEMA", f"{path or '/'}: {detail}", at, (pointer,), on_key=on_key,
                facts=SchemaProblem(path=path, **data))
