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
to read back as the same JSON value before any edit is offered. A workflow (YAML) is not formatted: it
has no canonical form here (issue 15 point 5), and rewriting YAML would move its comments, quoting and
flow/block choices, which are the author's.
"""

from __future__ import annotations

import json
import json.encoder
import re
import sys
from typing import Any, Callable

from grooph_core.formatting import _uses_crlf, unreadable
from grooph_core.refactor import Refused
from grooph_core.text_edits import TextEdit, line_edits

_enc: Callable[[str], str] = json.encoder.encode_basestring

WORKFLOW_NOT_FORMATTED = ("Workflows are not formatted: YAML has no canonical form here, and rewriting the file "
                          "would move its comments, quoting and layout, which are yours. Nothing was changed.")


class _Raw:
    """A number's own text, as written in the document."""

    __slots__ = ("text",)

    def __init__(self, text: str):
        self.text = text


_TOKENS = re.compile(r'"(?:[^"\\]|\\.)*"|(-?[0-9][0-9.eE+\-]*)')


def _with_raw_numbers(value: Any, text: str) -> Any:
    """The value with every number replaced by its text (numbers come in text order, as the keys of a
    parsed object do)."""
    numbers = iter(m.group(1) for m in _TOKENS.finditer(text) if m.group(1) is not None)

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


# ---- what each place is: a declared object (its field order), a map, an array or free JSON -----------

FREE = None


class _BoardPlaces:
    """Places of the board model (its compiled descriptors)."""

    def __init__(self):
        from grooph_core.model.compiled import root_type

        self.root = root_type("board")

    @staticmethod
    def declared(t) -> list[str] | None:
        from grooph_core.model.compiled import ObjectType

        return list(t.by_name) if isinstance(t, ObjectType) else None

    @staticmethod
    def child(t, key) -> Any:
        from grooph_core.model.compiled import ArrayType, ObjectType, RecordType

        if isinstance(t, ObjectType):
            f = t.by_name.get(key)
            return f.type if f is not None else FREE
        if isinstance(t, RecordType):
            return t.value
        if isinstance(t, ArrayType):
            return t.item
        return FREE


class _EpisodesPlaces:
    """Places of the episode record's own schema (properties in its order; `$ref` followed)."""

    def __init__(self):
        from grooph_core.model.episodes import record_schema

        self.root = record_schema()

    @staticmethod
    def declared(t) -> list[str] | None:
        return list(t["properties"]) if isinstance(t, dict) and isinstance(t.get("properties"), dict) else None

    @staticmethod
    def child(t, key) -> Any:
        from grooph_core.model.episodes import _deref

        if not isinstance(t, dict):
            return FREE
        if isinstance(t.get("properties"), dict):
            p = t["properties"].get(key)
            return _deref(p) if isinstance(p, dict) else FREE
        if t.get("type") == "array" and isinstance(t.get("items"), dict):
            return _deref(t["items"])
        return FREE


PLACES = {"board": _BoardPlaces, "episodes": _EpisodesPlaces}


def record_text(value: Any, kind: str, text: str) -> str:
    """The written form of a board or an episode record read from `text` (see the module docstring)."""
    places = PLACES[kind]()
    out: list[str] = []

    def write(v, t, ind: str) -> None:
        if type(v) is _Raw:
            out.append(v.text)
        elif type(v) is str:
            out.append(_enc(v))
        elif v is True:
            out.append("true")
        elif v is False:
            out.append("false")
        elif v is None:
            out.append("null")
        elif type(v) is list:
            if not v:
                out.append("[]")
                return
            ind2 = ind + "  "
            item = places.child(t, "0") if t is not FREE else FREE
            sep = "[\n" + ind2
            for x in v:
                out.append(sep)
                write(x, item, ind2)
                sep = ",\n" + ind2
            out.append("\n" + ind + "]")
        else:
            if not v:
                out.append("{}")
                return
            declared = places.declared(t) if t is not FREE else None
            if declared is None:
                keys = sorted(v)
            else:
                keys = [k for k in declared if k in v] + sorted(k for k in v if k not in set(declared))
            ind2 = ind + "  "
            sep = "{\n" + ind2
            for k in keys:
                out.append(sep + _enc(k) + ": ")
                write(v[k], places.child(t, k) if t is not FREE else FREE, ind2)
                sep = ",\n" + ind2
            out.append("\n" + ind + "}")

    limit = sys.getrecursionlimit()
    try:
        sys.setrecursionlimit(max(limit, 20_000))  # free JSON nested near the reader's depth limit
        write(_with_raw_numbers(value, text), places.root, "")
    finally:
        sys.setrecursionlimit(limit)
    result = "".join(out) + "\n"
    if not result.isascii():
        try:
            result.encode("utf-8")
        except UnicodeEncodeError:  # a lone surrogate (`"\ud800"`): written as its escape, as graph.md §6.1
            from grooph_core.canonical import _fix_surrogates

            result = _fix_surrogates(result)
    return result


def neighbour_format_edits(analysis) -> list[TextEdit] | Refused:
    """Edits turning a board or an episode record into its written form, or why it is left as it is."""
    if analysis.neighbour.syntax == "yaml":
        return Refused(WORKFLOW_NOT_FORMATTED)
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
    if _uses_crlf(analysis.text):
        written = written.replace("\n", "\r\n")
    return line_edits(analysis.text, written)

