"""`W_UNKNOWN_KEY`: keys the format does not declare (graph.md §5, map.md §6.9).

The walk follows the model descriptors: every declared object (unions by their `kind`, `{custom}` and
`{verdict}` alternatives when they are the accepted alternative, layout boxes), each object's keys in
JavaScript order (§0.4) so issues follow the document. Record keys (`pin`, `params`, `with`, `layout`)
are data and never reported; `patch` values and the values of unknown keys are not walked.

`at` differs between the two kinds, as in the reference: a graph takes the nearest id of the object
holding the key (graph.md §4.4 on the path without its last segment) and falls back to the graph's id;
a map takes the nearest id along the key's full path and may stay empty (map.md §6.9).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any, Callable

from grooph_core.issues import Facts, Issue, make
from grooph_core.model.compiled import AltType, ArrayType, ObjectType, RecordType, TypeDesc, UnionType, root_type
from grooph_core.schema.check import accepts, nearest_id
from grooph_core.source.keyorder import keys_in_js_order
from grooph_core.source.text import compact_json, did_you_mean, pointer_escape, pointer_split

@dataclass(frozen=True)
class UnknownKey(Facts):
    """W_UNKNOWN_KEY: the `key`, the declared key it is a near miss of (`suggestion`, or None), the
    pointer of the object holding it (`holder`), and whether the suggested key is already in that
    object (`suggestion_present`: renaming is then not a repair, map.md §6.9)."""

    code = "W_UNKNOWN_KEY"
    key: str
    suggestion: str | None
    holder: str
    suggestion_present: bool


# A raw finding: (key pointer, key, holder pointer, declared names of the holder in canonical order, holder)
Walker = Callable[[Any, str, list], None]


def _compile_object(t: ObjectType) -> Walker:
    names = t.names
    fields: dict[str, Walker | None] = {f.name: _compile(f.type) for f in t.fields}
    declared = frozenset(fields)
    # Declared fields that hold declared objects, with their pointer segments written once.
    walked = {name: (fw, "/" + pointer_escape(name)) for name, fw in fields.items() if fw is not None}

    def w(v, p, out):
        if type(v) is not dict:
            return
        if v.keys() <= declared:
            # The usual object: nothing unknown here, only its object-holding fields to walk. No
            # declared name is an array index, so the keys' own order is JavaScript's (§0.4).
            if walked:
                for k in v:
                    hit = walked.get(k)
                    if hit is not None:
                        hit[0](v[k], p + hit[1], out)
            return
        for k in keys_in_js_order(v):
            kp = p + "/" + pointer_escape(k)
            if k in fields:
                fw = fields[k]
                if fw is not None:
                    fw(v[k], kp, out)
            else:
                out.append((kp, k, p, names, v))

    return w


def _compile_array(t: ArrayType) -> Walker | None:
    item = _compile(t.item)
    if item is None:
        return None

    def w(v, p, out):
        if type(v) is list:
            for i, x in enumerate(v):
                item(x, f"{p}/{i}", out)

    return w


def _compile_record(t: RecordType) -> Walker | None:
    value = _compile(t.value)
    if value is None:
        return None

    def w(v, p, out):
        if type(v) is dict:
            for k in keys_in_js_order(v):
                value(v[k], p + "/" + pointer_escape(k), out)

    return w


def _compile_union(t: UnionType) -> Walker:
    disc = t.discriminator
    branches = {name: _compile(obj) for name, obj in t.branches.items()}

    def w(v, p, out):
        if type(v) is dict:
            k = v.get(disc)
            b = branches.get(k) if type(k) is str else None
            if b is not None:
                b(v, p, out)

    return w


def _compile_alt(t: AltType) -> Walker | None:
    objects = [(o, _compile(o)) for o in t.options if isinstance(o, ObjectType)]
    if not objects:
        return None

    def w(v, p, out):
        if type(v) is dict:
            for o, ow in objects:
                if accepts(o, v):
                    ow(v, p, out)
                    return

    return w


_COMPILERS = {
    ObjectType: _compile_object, ArrayType: _compile_array, RecordType: _compile_record,
    UnionType: _compile_union, AltType: _compile_alt,
}
_CACHE: dict[int, Walker | None] = {}


def _compile(t: TypeDesc) -> Walker | None:
    """The walker of a type, or None for types that hold no declared object (scalars, `patch`)."""
    if id(t) in _CACHE:
        return _CACHE[id(t)]
    c = _COMPILERS.get(type(t))
    w = c(t) if c is not None else None
    _CACHE[id(t)] = w
    return w


walker_of = _compile
_ROOT_WALKERS = {"graph": _compile(root_type("graph")), "map": _compile(root_type("map"))}


def _at_in_graph(value: Any, segments: list[str], fallback: tuple) -> tuple:
    """graph.md §5: a key's finding is at the id of the object holding it, else the graph's id."""
    return nearest_id(value, segments[:-1]) or fallback


def _at_in_map(value: Any, segments: list[str], fallback: tuple) -> tuple:
    """map.md §6.9: a key's finding is at the nearest id along its own path."""
    return nearest_id(value, segments)


_AT = {"graph": _at_in_graph, "map": _at_in_map}


def unknown_key_issues(value: Any, kind: str) -> list[Issue]:
    """One `W_UNKNOWN_KEY` per undeclared key, in document order (graph.md §5, map.md §6.9).

    `pointers[0]` is the key (`on_key=True`). Facts: `UnknownKey`."""
    raw: list = []
    walker = _ROOT_WALKERS.get(kind, _ROOT_WALKERS["graph"])  # any other JSON is read as a graph (map.md §1)
    if walker is None:
        return []
    walker(value, "", raw)
    return raw_issues(value, kind, raw)


@functools.lru_cache(maxsize=4096)
def _suggestion(key: str, names: tuple[str, ...]) -> str | None:
    """`did_you_mean` over an object's declared names (graph.md §5.1), remembered: a misspelt key stays
    in the text keystroke after keystroke, and each search costs tens of microseconds."""
    return did_you_mean(key, names)


def raw_issues(value: Any, kind: str, raw: list) -> list[Issue]:
    """The `W_UNKNOWN_KEY` issues of raw findings (whole-document pointers) on `value`."""
    if not raw:
        return []
    at_of = _AT.get(kind, _at_in_graph)
    graph_id = value.get("id") if isinstance(value, dict) else None
    fallback = (graph_id,) if isinstance(graph_id, str) else ()
    issues = []
    for kp, key, holder_p, names, holder in raw:
        suggestion = _suggestion(key, names)
        segments = pointer_split(kp)
        at = at_of(value, segments, fallback)
        if suggestion is None:
            message = f"{kp}: unknown key {compact_json(key)}; the key is kept but ignored"
        else:
            message = f"{kp}: unknown key {compact_json(key)}; did you mean {compact_json(suggestion)}? The key is kept but ignored"
        issues.append(
            make(
                "W_UNKNOWN_KEY", message, at, (kp,), on_key=True,
                facts=UnknownKey(key, suggestion, holder_p, suggestion is not None and suggestion in holder),
            )
        )
    return issues
