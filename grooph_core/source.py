"""Text -> JSON value + source map + syntax problems (issue 3; DESIGN.md "Positions"; graph.md §0.5,
§3.2 "editor diagnostics", §9 "Parsing").

`parse(text)` never raises on any `str` and never recurses on the text's nesting. Valid text takes the
fast path: the C decoder with JSON.parse's rules (`json_strict`), no Python object per token, spans
resolved lazily per pointer. Anything else (a syntax fault, a duplicate key, a number a double cannot
hold) goes through the tolerant reader (`json_recovery`), which reports every problem at its exact
span and recovers what can be read.

Issues made here have no JSON pointer for syntax faults, so each carries its span as
`data["span"] = (start, end)` (character offsets into the text); `W_DUPLICATE_KEY` also carries
`data["related_spans"] = ((start, end, note), ...)` for the other copies, because every copy has the
same pointer. Codes (registry in `issues.py`):

| code | points at | pointers |
|---|---|---|
| `E_SYNTAX` | the offending characters, or an empty span where a missing `,` `:` value or closer belongs | none |
| `W_DUPLICATE_KEY` | each copy's key (one issue per copy) | the member, `on_key` |
| `W_NUMBER_PRECISION` | the number literal | the number |
| `E_DOC_LIMIT` | empty span at 0 (too long) or the first bracket too deep | none |
"""

from __future__ import annotations

import gc
import threading
from dataclasses import dataclass, field
from json import JSONDecodeError

from grooph_core.issues import Issue, make
from grooph_core.json_recovery import TooDeep, recover
from grooph_core.json_strict import StrictReader, exceeds_depth
from grooph_core.line_index import LineIndex
from grooph_core.source_map import SourceMap

MAX_CHARS = 5_000_000
MAX_DEPTH = 64


@dataclass(frozen=True)
class ParsedText:
    """The result of `parse`: the value, whether the text is valid JSON, its problems, the pointers
    whose content recovery cut or guessed (see `json_recovery`), and the source map."""

    value: object
    ok: bool
    problems: tuple[Issue, ...]
    broken: tuple[str, ...]
    source_map: SourceMap = field(repr=False)
    text: str = field(repr=False, default="")


def parse(text: str, *, max_chars: int = MAX_CHARS, max_depth: int = MAX_DEPTH) -> ParsedText:
    """Read `text` as JSON the way JSON.parse does, tolerating faults (see the module docstring).

    `ok` is True when the text is strictly valid JSON (no BOM, no comments, one value); warnings
    (duplicate keys, lossy numbers) do not make it False. Too long or too deep a text gives one
    `E_DOC_LIMIT`, value None, and no deeper analysis.
    """
    # Everything built here is acyclic (JSON values, source-map nodes), so the cycle collector has
    # nothing to find; paused, it stops re-walking the growing value (a third of the time at 1M).
    paused = gc.isenabled()
    if paused:
        gc.disable()
    try:
        return _parse(text, max_chars, max_depth)
    finally:
        if paused:
            gc.enable()


def _parse(text: str, max_chars: int, max_depth: int) -> ParsedText:
    if len(text) > max_chars:
        issue = make(
            "E_DOC_LIMIT",
            f"the document has {len(text):,} characters, more than the {max_chars:,} the editor analyses",
            span=(0, 0),
        )
        return ParsedText(None, False, (issue,), (), SourceMap(text, None), text)

    reader = _reader()
    try_root = False
    try:
        value = reader.loads(text)
    except JSONDecodeError as e:
        # The root container itself is sound when the fault is after it or a BOM before it.
        try_root = e.msg == "Extra data" or text.startswith("\ufeff")
    except (ValueError, RecursionError):
        pass
    else:
        if not reader.suspect and not exceeds_depth(value, max_depth):
            return ParsedText(value, True, (), (), SourceMap.for_valid(text), text)

    try:
        rec = recover(text, max_depth, try_root=try_root)
    except TooDeep as e:
        line = LineIndex(text).line_of(e.offset) + 1
        issue = make(
            "E_DOC_LIMIT",
            f"the document nests deeper than {max_depth} levels (line {line}); the editor does not analyse it",
            span=(e.offset, e.offset + 1),
        )
        return ParsedText(None, False, (issue,), (), SourceMap(text, None), text)

    issues = sorted(rec.issues, key=lambda r: (r[1], r[2]))
    problems = tuple(_issue(r) for r in issues)
    ok = not any(r[0] == "E_SYNTAX" for r in issues)
    source_map = SourceMap(text, rec.root_span, rec.root_node)
    return ParsedText(rec.value, ok, problems, tuple(rec.broken), source_map, text)


_local = threading.local()


def _reader() -> StrictReader:
    """One strict reader per thread (it keeps a note between its hooks and the caller)."""
    r = getattr(_local, "reader", None)
    if r is None:
        r = _local.reader = StrictReader()
    return r


def _issue(raw) -> Issue:
    code, start, end, message, pointer, related_spans = raw
    if code == "E_SYNTAX":
        return make(code, message, span=(start, end))
    if code == "W_DUPLICATE_KEY":
        related = tuple((pointer, note) for _, _, note in related_spans)
        return make(code, message, pointers=(pointer,), on_key=True, related=related,
                    span=(start, end), related_spans=tuple(related_spans))
    return make(code, message, pointers=(pointer,), span=(start, end))
