"""The canonical form of a graph or a map (graph.md §6, §0.4, §9; map.md §9).

Two-space indentation, `": "`, LF, one final newline; each object's integer-like keys first (ascending),
then its declared fields in the models' order, then its unknown keys sorted by UTF-16 code units with
their values written as free JSON (every nested object's keys sorted). Records (`layout`, `pin`,
`params`, `with`) have sorted keys; `patch` values and values of the wrong JSON type for their place are
free JSON; a union member whose `kind` names no branch, or an untagged alternative that no option
accepts, is free JSON too. Nothing is ever dropped, added or reordered inside arrays.

Writers are compiled once from the model descriptors; a 1M-character document takes a few tens of ms.
"""

from __future__ import annotations

import json.encoder
import re
from typing import Any, Callable

from grooph_core.keyorder import is_index_key
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
from grooph_core.schema_check import accepts
from grooph_core.text import js_number, utf16_key

# graph.md §6.1: `"` `\` and the C0 controls escaped (\b \t \n \f \r, others \u00xx lower-case), all
# else literal. The C encoder of the json module does exactly this (non-ASCII, U+007F, U+2028, / kept).
_enc: Callable[[str], str] = json.encoder.encode_basestring

_SURROGATE = re.compile("[\ud800-\udfff]")
_MAX_SAFE = 2**53

Writer = Callable[[Any, str, list], None]


def _number(v) -> str:
    """graph.md §6.4, with a fast path for the doubles that print as plain integers."""
    if type(v) is int:
        if -_MAX_SAFE < v < _MAX_SAFE:
            return str(v)
        return js_number(v)
    if v.is_integer() and -_MAX_SAFE < v < _MAX_SAFE:
        return str(int(v))
    return js_number(v)


def _sorted_keys(obj) -> list[str]:
    """Integer-like keys ascending, then the rest by UTF-16 code units (graph.md §0.3, §0.4)."""
    keys = list(obj)
    if len(keys) < 2:
        return keys
    idx = [k for k in keys if k[:1].isdigit() and is_index_key(k)]
    if idx:
        idx.sort(key=int)
        rest = [k for k in keys if not (k[:1].isdigit() and is_index_key(k))]
    else:
        rest = keys
    if all(k.isascii() for k in rest):
        rest.sort()
    else:
        rest.sort(key=utf16_key)
    return idx + rest if idx else rest


def _free(v, ind: str, out: list) -> None:
    """Free JSON: every nested object's keys sorted, arrays in order (graph.md §6.2)."""
    t = type(v)
    if t is str:
        out.append(_enc(v))
    elif t is dict:
        if not v:
            out.append("{}")
            return
        ind2 = ind + "  "
        sep = "{\n"
        for k in _sorted_keys(v):
            out.append(sep + ind2 + _enc(k) + ": ")
            _free(v[k], ind2, out)
            sep = ",\n"
        out.append("\n" + ind + "}")
    elif t is list:
        if not v:
            out.append("[]")
            return
        ind2 = ind + "  "
        sep = "[\n"
        for x in v:
            out.append(sep + ind2)
            _free(x, ind2, out)
            sep = ",\n"
        out.append("\n" + ind + "]")
    elif v is True:
        out.append("true")
    elif v is False:
        out.append("false")
    elif v is None:
        out.append("null")
    elif isinstance(v, (int, float)):
        out.append(_number(v))
    else:
        raise TypeError(f"not a JSON value: {type(v).__name__}")


def _compile_array(t: ArrayType) -> Writer:
    item = _compile(t.item)
    if item is _free:
        return _free

    def w(v, ind, out):
        if type(v) is not list or not v:
            _free(v, ind, out)
            return
        ind2 = ind + "  "
        sep = "[\n"
        for x in v:
            out.append(sep + ind2)
            item(x, ind2, out)
            sep = ",\n"
        out.append("\n" + ind + "]")

    return w


def _compile_record(t: RecordType) -> Writer:
    value = _compile(t.value)

    def w(v, ind, out):
        if type(v) is not dict or not v:
            _free(v, ind, out)
            return
        ind2 = ind + "  "
        sep = "{\n"
        for k in _sorted_keys(v):
            out.append(sep + ind2 + _enc(k) + ": ")
            value(v[k], ind2, out)
            sep = ",\n"
        out.append("\n" + ind + "}")

    return w


def _compile_object(t: ObjectType) -> Writer:
    fields = [(f.name, _enc(f.name) + ": ", _compile(f.type)) for f in t.fields]
    declared = t.name_set

    def w(v, ind, out):
        if type(v) is not dict or not v:
            _free(v, ind, out)
            return
        ind2 = ind + "  "
        sep = "{\n"
        n_declared = 0
        # integer-like keys first (graph.md §0.4); declared names all start with a letter
        if any(k[:1].isdigit() for k in v):
            for k in sorted((k for k in v if k[:1].isdigit() and is_index_key(k)), key=int):
                out.append(sep + ind2 + _enc(k) + ": ")
                _free(v[k], ind2, out)
                sep = ",\n"
        for name, head, fw in fields:
            if name in v:
                out.append(sep + ind2 + head)
                fw(v[name], ind2, out)
                sep = ",\n"
                n_declared += 1
        if n_declared != len(v):
            unknown = [k for k in v if k not in declared and not (k[:1].isdigit() and is_index_key(k))]
            if unknown:
                if len(unknown) > 1:
                    unknown = _sorted_keys(dict.fromkeys(unknown))
                for k in unknown:
                    out.append(sep + ind2 + _enc(k) + ": ")
                    _free(v[k], ind2, out)
                    sep = ",\n"
        out.append("\n" + ind + "}")

    return w


def _compile_union(t: UnionType) -> Writer:
    disc = t.discriminator
    branches = {name: _compile(obj) for name, obj in t.branches.items()}

    def w(v, ind, out):
        if type(v) is dict:
            k = v.get(disc)
            if type(k) is str:
                b = branches.get(k)
                if b is not None:
                    b(v, ind, out)
                    return
        _free(v, ind, out)

    return w


def _compile_alt(t: AltType) -> Writer:
    objects = [(o, _compile(o)) for o in t.options if isinstance(o, ObjectType)]

    def w(v, ind, out):
        if type(v) is dict:
            for o, ow in objects:
                if accepts(o, v):
                    ow(v, ind, out)
                    return
        _free(v, ind, out)  # strings, numbers, booleans and rejected objects alike

    return w


def _scalar(t) -> Writer:
    return _free


_COMPILERS = {
    StrType: _scalar, NumType: _scalar, BoolType: _scalar, ConstType: _scalar, EnumType: _scalar,
    AnyType: _scalar, ArrayType: _compile_array, RecordType: _compile_record, ObjectType: _compile_object,
    UnionType: _compile_union, AltType: _compile_alt,
}
_CACHE: dict[int, Writer] = {}


def _compile(t: TypeDesc) -> Writer:
    c = _CACHE.get(id(t))
    if c is None:
        c = _COMPILERS[type(t)](t)
        _CACHE[id(t)] = c
    return c


_ROOT_WRITERS = {"graph": _compile(root_type("graph")), "map": _compile(root_type("map"))}


def canonical_text(value: Any, kind: str) -> str:
    """The canonical text of a parsed document (graph.md §6, map.md §9), ending with one newline.

    `kind` is "graph" or "map". Works on any JSON value (a document that fails the schema is ordered
    as far as its branches can be recognized, graph.md §6.5); idempotent; never drops anything."""
    out: list[str] = []
    _ROOT_WRITERS["map" if kind == "map" else "graph"](value, "", out)
    text = "".join(out) + "\n"
    if _SURROGATE.search(text):
        text = _fix_surrogates(text)
    return text


def _fix_surrogates(text: str) -> str:
    """graph.md §6.1 / §9: pair surrogates that form a pair (written literally), escape lone ones."""
    text = text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "surrogatepass")
    return _SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def is_canonical(text: str, value: Any, kind: str) -> bool:
    """True when `text` is byte-identical with the canonical form of its parsed `value`."""
    return text == canonical_text(value, kind)
