"""The written form of a board and an episode record (issue 15 point 5: formatting of the neighbours).

A board (`*.board.json`) and an episode record (`*.episodes.json`) are written as the seed's program
writes them, serde_json's pretty printer over the seed's types (board.md §2 from
`seeds/003_ca5f1ab61fbd5a82.txt`; episodes.md §2 from `seeds/002_0e685013f9e26888.txt`, whose schema lists
each struct's fields in their order):

- two-space indentation, one member or item a line, `": "` between key and value, `[]` and `{}` for empty
  ones, LF, one final newline (graph.md §6.1's layout, which is serde_json's pretty layout);
- an object of a declared type: its fields in the type's declared order (the struct's: `id`, `title`,
  `body`, … of a Task; the schema's `properties` of an `Episode`), then the keys the type does not
  declare, sorted (serde would drop them; they are kept);
- a map (`tasks`, a BTreeMap) and any free JSON (`residue`, `handoff.metadata`: serde_json's `Value`,
  whose objects are BTreeMaps): keys sorted by code point, which is a BTreeMap's (UTF-8 byte) order;
- arrays keep their order; strings escaped as serde_json escapes them (`"`, `\\`, control characters;
  everything else literal, as graph.md §6.1 says too); **numbers exactly as written** (a `2.0` stays
  `2.0`: serde refuses it where an integer is due, and rewriting it as `2` would hide that).

Nothing is added (no defaults, no nulls for absent fields) and nothing is dropped: the result is checked
to read back as the same JSON value before any edit is offered. A workflow (YAML) is not formatted: its
kind says why (`ide/neighbours/face.py`).
"""

from __future__ import annotations

import json
import json.encoder
import re
import sys
from typing import Any, Callable

from grooph_core.ide.refused import Refused, unreadable
from grooph_core.ide.text_edits import TextEdit, line_edits, uses_crlf
from grooph_core.model.compiled import ArrayType, ObjectType, RecordType, root_type
from grooph_core.model.episodes import deref, record_schema
from grooph_core.schema.canonical import fix_surrogates

_enc: Callable[[str], str] = json.encoder.encode_basestring

class _Raw:
    """A number's own text, as written in the document."""

    __slots__ = ("text",)

    def __init__(self, text: str):
        self.text = text


# Where a number could be written otherwise than Python writes it (strings included: a hit there only
# costs the full scan below).
_MAYBE_UNUSUAL = re.compile(r"[0-9][.eE]|-0(?![0-9])")
_NUMBERS = re.compile(r'"(?:[^"\\]|\\.)*"|(-?[0-9][0-9.eE+\-]*)')


def _written_as_python_writes(tokens: list[str]) -> bool:
    """Every number token is the text Python writes for the number it reads as (`3`, `1.5`, `2.0`; not
    `1E2`, `0.10`, `-0`, `1e16`): the values can then be written as they are."""
    for tok in tokens:
        if "." in tok or "e" in tok or "E" in tok:
            if repr(float(tok)) != tok:
                return False
        elif str(int(tok)) != tok:
            return False
    return True


def _with_raw_numbers(value: Any, text: str) -> Any:
    """The value with every number that Python would write otherwise replaced by its own text (numbers
    come in text order, as the keys of a parsed object do)."""
    if _MAYBE_UNUSUAL.search(text) is None:  # no fraction, exponent or -0 anywhere: every number is an integer
        return value                         # as Python writes it
    tokens = [t for t in _NUMBERS.findall(text) if t]
    if _written_as_python_writes(tokens):
        return value
    numbers = iter(tokens)

    def wrap(v):
        t = type(v)
        if t is dict:
            return {k: wrap(x) for k, x in v.items()}
        if t is list:
            return [wrap(x) for x in v]
        if t is int or t is float:
            return _Raw(next(numbers))
        return v

    wrapped = wrap(value)
    if next(numbers, None) is not None:
        raise ValueError("more numbers in the text than in the value")
    return wrapped


# ---- what each place is: a declared object (its field order), a map, an array or free JSON (None) ----


class _Place:
    __slots__ = ("declared", "declared_set", "children", "item", "value")

    def __init__(self):
        self.declared: tuple[str, ...] | None = None  # an object of a declared type: its fields' order
        self.declared_set: frozenset = frozenset()
        self.children: dict[str, _Place | None] = {}
        self.item: _Place | None = None  # an array's items
        self.value: _Place | None = None  # a map's values (keys sorted)


_PLACES: dict[str, _Place] = {}


def _board_place(t, done: dict) -> _Place | None:
    if id(t) in done:
        return done[id(t)]
    if not isinstance(t, (ObjectType, RecordType, ArrayType)):
        return None
    p = done[id(t)] = _Place()
    if isinstance(t, ObjectType):
        p.declared = tuple(t.by_name)
        p.declared_set = frozenset(p.declared)
        p.children = {n: _board_place(f.type, done) for n, f in t.by_name.items()}
    elif isinstance(t, RecordType):
        p.value = _board_place(t.value, done)
    else:
        p.item = _board_place(t.item, done)
    return p


def _schema_place(s, done: dict) -> _Place | None:
    s = deref(s) if isinstance(s, dict) else s
    if not isinstance(s, dict):
        return None
    if id(s) in done:
        return done[id(s)]
    props, items = s.get("properties"), s.get("items")
    if not isinstance(props, dict) and not (s.get("type") == "array" and isinstance(items, dict)):
        return None
    p = done[id(s)] = _Place()
    if isinstance(props, dict):
        p.declared = tuple(props)
        p.declared_set = frozenset(p.declared)
        p.children = {n: _schema_place(v, done) for n, v in props.items()}
    else:
        p.item = _schema_place(items, done)
    return p


def _root_place(kind: str) -> _Place:
    """The board model's places (its compiled descriptors), or the episode record schema's (properties
    in its order, `$ref` followed); built once."""
    p = _PLACES.get(kind)
    if p is None:
        p = _PLACES[kind] = _PLACE_BUILDERS[kind]()
    return p


# How each formatted neighbouring kind's places are built: the board's model, the episode record's schema.
_PLACE_BUILDERS = {"board": lambda: _board_place(root_type("board"), {}),
                   "episodes": lambda: _schema_place(record_schema(), {})}
PLACES = tuple(_PLACE_BUILDERS)


def _atom(v) -> str:
    """A number (its own text when it has one), a boolean or null."""
    t = type(v)
    if t is _Raw:
        return v.text
    if t is int:
        return str(v)
    if t is float:
        return repr(v)
    return "true" if v is True else "false" if v is False else "null"


def record_text(value: Any, kind: str, text: str) -> str:
    """The written form of a board or an episode record read from `text` (see the module docstring)."""
    out: list[str] = []
    append = out.append

    def write(v, p: _Place | None, ind: str) -> None:
        t = type(v)
        if t is dict:
            if not v:
                append("{}")
                return
            if p is None or p.declared is None:
                keys = sorted(v)
            elif v.keys() <= p.declared_set:
                keys = [k for k in p.declared if k in v]
            else:
                keys = [k for k in p.declared if k in v] + sorted(k for k in v if k not in p.declared_set)
            ind2 = ind + "  "
            sep, nxt = "{\n" + ind2, ",\n" + ind2
            for k in keys:
                x = v[k]
                tx = type(x)
                if tx is str:
                    append(sep + _enc(k) + ": " + _enc(x))
                elif tx is dict or tx is list:
                    append(sep + _enc(k) + ": ")
                    write(x, None if p is None else (p.value if p.declared is None else p.children.get(k)), ind2)
                else:
                    append(sep + _enc(k) + ": " + _atom(x))
                sep = nxt
            append("\n" + ind + "}")
        elif t is list:
            if not v:
                append("[]")
                return
            ind2 = ind + "  "
            item = None if p is None else p.item
            sep, nxt = "[\n" + ind2, ",\n" + ind2
            for x in v:
                tx = type(x)
                if tx is str:
                    append(sep + _enc(x))
                elif tx is dict or tx is list:
                    append(sep)
                    write(x, item, ind2)
                else:
                    append(sep + _atom(x))
                sep = nxt
            append("\n" + ind + "]")
        elif t is str:
            append(_enc(v))
        else:
            append(_atom(v))

    limit = sys.getrecursionlimit()
    try:
        sys.setrecursionlimit(max(limit, 20_000))  # free JSON nested near the reader's depth limit
        write(_with_raw_numbers(value, text), _root_place(kind), "")
    finally:
        sys.setrecursionlimit(limit)
    result = "".join(out) + "\n"
    if not result.isascii():
        try:
            result.encode("utf-8")
        except UnicodeEncodeError:  # a lone surrogate (`"\ud800"`): written as its escape, as graph.md §6.1
            result = fix_surrogates(result)
    return result


def neighbour_format_edits(analysis) -> list[TextEdit] | Refused:
    """Edits turning a board or an episode record into its written form, or why it is left as it is."""
    if analysis.kind not in PLACES:
        return Refused(f"A {analysis.kind} document is not formatted. Nothing was changed.")
    limit = next((p for p in analysis.parsed.problems if p.code == "E_DOC_LIMIT"), None)
    if limit is not None:
        return Refused(f"Not formatted: {limit.message}. Nothing was changed.")
    refused = unreadable(analysis)
    if refused is not None:
        return refused
    try:
        value = json.loads(analysis.text)
        written = record_text(value, analysis.kind, analysis.text)
        same = json.loads(written) == value
    except (ValueError, RecursionError):
        same = False
    if not same:  # never offered: an edit that would change what the record says
        return Refused("Not formatted: the written form would not read back as the same record. Nothing was changed.")
    if uses_crlf(analysis.text):
        written = written.replace("\n", "\r\n")
    return line_edits(analysis.text, written)
