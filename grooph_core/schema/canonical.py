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
import sys
from typing import Any, Callable

from grooph_core.source.keyorder import is_index_key
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
from grooph_core.schema.check import accepts
from grooph_core.source.text import js_number, utf16_key

# graph.md §6.1: `"` `\` and the C0 controls escaped (\b \t \n \f \r, others \u00xx lower-case), all
# else literal. The C encoder of the json module does exactly this (non-ASCII, U+007F, U+2028, / kept).
_enc: Callable[[str], str] = json.encoder.encode_basestring

_SURROGATE = re.compile("[\ud800-\udfff]")
_MAX_SAFE = 2**53

Writer = Callable[[Any, str, list], None]


def number_text(v) -> str:
    """graph.md §6.4, with a fast path for the doubles that print as plain integers."""
    if type(v) is int:
        if -_MAX_SAFE < v < _MAX_SAFE:
            return str(v)
        return js_number(v)
    if v.is_integer() and -_MAX_SAFE < v < _MAX_SAFE:
        return str(int(v))
    return js_number(v)


def _atom(v) -> str | None:
    """The text of a string, number, boolean or null; None for an array or an object."""
    t = type(v)
    if t is str:
        return _enc(v)
    if t is int:
        return str(v) if -_MAX_SAFE < v < _MAX_SAFE else js_number(v)
    if t is float:
        return number_text(v)
    if v is True:
        return "true"
    if v is False:
        return "false"
    if v is None:
        return "null"
    if t is dict or t is list:
        return None
    if isinstance(v, str):  # subclasses never come from json.loads; written as their base type
        return _enc(str(v))
    if isinstance(v, (int, float)):
        return number_text(float(v) if isinstance(v, float) else int(v))
    if isinstance(v, (dict, list)):
        return None
    raise TypeError(f"not a JSON value: {type(v).__name__}")


def _sort_plain(keys: list[str]) -> list[str]:
    """Keys by UTF-16 code units (graph.md §0.3); plain sort when all are ASCII (same order)."""
    if all(k.isascii() for k in keys):
        return sorted(keys)
    return sorted(keys, key=utf16_key)


def _split_index_keys(keys: list[str]) -> tuple[list[str], list[str]]:
    """(integer-like keys ascending, the others in their order) — graph.md §0.4."""
    idx = [k for k in keys if k[:1].isdigit() and is_index_key(k)]
    if not idx:
        return idx, keys
    idx.sort(key=int)
    taken = set(idx)
    return idx, [k for k in keys if k not in taken]


def _sorted_keys(obj) -> list[str]:
    """Integer-like keys ascending, then the rest by UTF-16 code units (graph.md §0.3, §0.4)."""
    keys = list(obj)
    if len(keys) < 2:
        return keys
    idx, rest = _split_index_keys(keys)
    rest = _sort_plain(rest)
    return idx + rest if idx else rest


def _member(head: str, x, ind2: str, out: list, w: Writer) -> None:
    """Append `head` (separator, indentation, key) and the value written by `w` (atoms inline)."""
    if type(x) is str:
        out.append(head + _enc(x))
        return
    a = _atom(x)
    if a is not None:
        out.append(head + a)
    else:
        out.append(head)
        w(x, ind2, out)


def _free(v, ind: str, out: list) -> None:
    """Free JSON: every nested object's keys sorted, arrays in order (graph.md §6.2)."""
    if isinstance(v, dict):
        if not v:
            out.append("{}")
            return
        ind2 = ind + "  "
        sep, nxt = "{\n" + ind2, ",\n" + ind2
        for k in _sorted_keys(v):  # members written inline: one stack frame per nesting level
            x = v[k]
            a = _atom(x)
            if a is not None:
                out.append(sep + _enc(k) + ": " + a)
            else:
                out.append(sep + _enc(k) + ": ")
                _free(x, ind2, out)
            sep = nxt
        out.append("\n" + ind + "}")
    elif isinstance(v, list):
        if not v:
            out.append("[]")
            return
        ind2 = ind + "  "
        sep, nxt = "[\n" + ind2, ",\n" + ind2
        for x in v:
            a = _atom(x)
            if a is not None:
                out.append(sep + a)
            else:
                out.append(sep)
                _free(x, ind2, out)
            sep = nxt
        out.append("\n" + ind + "]")
    else:
        out.append(_atom(v))


def _compile_array(t: ArrayType) -> Writer:
    item = _compile(t.item)
    if item is _free:
        return _free

    def w(v, ind, out):
        if type(v) is not list or not v:
            _free(v, ind, out)
            return
        ind2 = ind + "  "
        sep, nxt = "[\n" + ind2, ",\n" + ind2
        for x in v:
            _member(sep, x, ind2, out, item)
            sep = nxt
        out.append("\n" + ind + "]")

    return w


def _compile_record(t: RecordType) -> Writer:
    value = _compile(t.value)

    def w(v, ind, out):
        if type(v) is not dict or not v:
            _free(v, ind, out)
            return
        ind2 = ind + "  "
        sep, nxt = "{\n" + ind2, ",\n" + ind2
        for k in _sorted_keys(v):
            _member(sep + _enc(k) + ": ", v[k], ind2, out, value)
            sep = nxt
        out.append("\n" + ind + "}")

    return w


def _compile_object(t: ObjectType) -> Writer:
    fields = [(name, _enc(name) + ": ", _compile(f.type)) for name, f in t.by_name.items()]
    declared = t.name_set

    def w(v, ind, out):
        if type(v) is not dict or not v:
            _free(v, ind, out)
            return
        ind2 = ind + "  "
        sep, nxt = "{\n" + ind2, ",\n" + ind2
        unknown: list[str] = []
        if not (v.keys() <= declared):
            idx, unknown = _split_index_keys([k for k in v if k not in declared])
            for k in idx:  # integer-like keys first (graph.md §0.4); declared names start with a letter
                _member(sep + _enc(k) + ": ", v[k], ind2, out, _free)
                sep = nxt
            if len(unknown) > 1:
                unknown = _sort_plain(unknown)
        for name, head, fw in fields:
            if name in v:
                x = v[name]
                if type(x) is str:
                    out.append(sep + head + _enc(x))
                else:
                    _member(sep + head, x, ind2, out, fw)
                sep = nxt
        for k in unknown:  # then unknown keys, sorted, as free JSON (graph.md §6.2)
            _member(sep + _enc(k) + ": ", v[k], ind2, out, _free)
            sep = nxt
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
    writer = _ROOT_WRITERS.get(kind, _ROOT_WRITERS["graph"])  # any other JSON is written as a graph (map.md §1)
    out: list[str] = []
    try:
        writer(value, "", out)
    except RecursionError:
        # Free JSON nested close to the interpreter's limit (json.loads accepts it): one more try with
        # room for it; Python-to-Python calls do not use the C stack in 3.11+.
        limit = sys.getrecursionlimit()
        sys.setrecursionlimit(max(limit, 20_000))
        try:
            out = []
            writer(value, "", out)
        finally:
            sys.setrecursionlimit(limit)
    text = "".join(out) + "\n"
    if not text.isascii():
        try:
            text.encode("utf-8")  # fails exactly when a surrogate code point is in the text
        except UnicodeEncodeError:
            text = fix_surrogates(text)
    return text


def fix_surrogates(text: str) -> str:
    """graph.md §6.1 / §9: pair surrogates that form a pair (written literally), escape lone ones."""
    text = text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "surrogatepass")
    return _SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def is_canonical(text: str, value: Any, kind: str) -> bool:
    """True when `text` is byte-identical with the canonical form of its parsed `value`."""
    return text == canonical_text(value, kind)
