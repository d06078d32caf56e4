"""Text -> JSON value + source map + syntax problems (issue 3; DESIGN.md "Positions"; graph.md §0.5,
§3.2 "editor diagnostics", §9 "Parsing").

`parse(text)` never raises on any `str` and never recurses on the text's nesting. Valid text takes the
fast path: the C decoder with JSON.parse's rules (`json_strict`), no Python object per token, spans
resolved lazily per pointer. Anything else (a syntax fault, a duplicate key, a number a double cannot
hold) goes through the tolerant reader (`json_recovery`), which reports every problem at its exact
span and recovers what can be read.

Issues made here have no JSON pointer for syntax faults, so each carries its span as
`Issue.span = (start, end)` (character offsets into the text); `W_DUPLICATE_KEY` also carries
`Issue.related_spans = ((start, end, note), ...)` for the other copies, because every copy has the
same pointer. Codes (registry in `issues.py`):

| code | points at | pointers |
|---|---|---|
| `E_SYNTAX` | the offending characters, or an empty span where a missing `,` `:` value or closer belongs | none |
| `W_DUPLICATE_KEY` | each copy's key (one issue per copy) | the member, `on_key` |
| `W_NUMBER_PRECISION` | the number literal | the number |
| `E_DOC_LIMIT` | empty span at 0 (too long) or the first bracket too deep | none |

`parse_strict(text)` is the command line's reading (graph.md §3.2 step 1): the same reader in strict
mode, giving the value or the one `E_SCHEMA` "not valid JSON" issue, explained in the words and at
the place the editor reports (the tolerant reader's first problem).

The reading limits are defined here, once (docs/bad-input.md): `MAX_CHARS`, what the editor analyses
(the server's `grooph.maxDocumentSize` default); `MAX_DEPTH`, the editor's nesting limit, and
`CLI_MAX_DEPTH`, the command line's (the root is level 1). The two depths differ on purpose: YAML's
tolerant reader (ruamel's composer, `yaml_reader`) recurses three frames per level, so 512 levels
need the process-wide recursion limit raised, which the command line may do and the server's worker
threads, sharing it, must not; 64 levels fit the default. The command line's byte limit on a file is
`load.MAX_FILE_BYTES`.
"""

from __future__ import annotations

import gc
from contextlib import contextmanager
import threading
from dataclasses import dataclass, field
from typing import Callable
from json import JSONDecodeError

from grooph_core.issues import Issue, SchemaProblem, make
from grooph_core.source.json_recovery import TooDeep, recover
from grooph_core.source.json_strict import StrictReader, exceeds_depth, loads
from grooph_core.source.line_index import LineIndex
from grooph_core.source.source_map import SourceMap

MAX_CHARS = 5_000_000  # characters the editor analyses (a longer text gets one E_DOC_LIMIT)
MAX_DEPTH = 64  # levels of nesting the editor analyses, the root being level 1 (deeper: one E_DOC_LIMIT)
CLI_MAX_DEPTH = 512  # the command line's: deeper is "not valid JSON: nested deeper than 512 levels"


@dataclass(frozen=True)
class ParsedText:
    """The result of `parse`: the value, whether the text is valid JSON, its problems, the pointers
    whose content recovery cut or guessed (see `json_recovery`), the source map, and the pointers of
    the containers the text ends inside, outermost first (more may follow in them: a text cut short)."""

    value: object
    ok: bool
    problems: tuple[Issue, ...]
    broken: tuple[str, ...]
    source_map: SourceMap = field(repr=False)
    text: str = field(repr=False, default="")
    open_at_end: tuple[str, ...] = ()


def parse(text: str, *, max_chars: int = MAX_CHARS, max_depth: int = MAX_DEPTH) -> ParsedText:
    """Read `text` as JSON the way JSON.parse does, tolerating faults (see the module docstring).

    `ok` is True when the text is strictly valid JSON (no BOM, no comments, one value); warnings
    (duplicate keys, lossy numbers) do not make it False. Too long or too deep a text gives one
    `E_DOC_LIMIT`, value None, and no deeper analysis.
    """
    # Everything built here is acyclic (JSON values, source-map nodes), so the cycle collector has
    # nothing to find; paused, it stops re-walking the growing value (a third of the time at 1M).
    with collector_paused():
        return _parse(text, max_chars, max_depth)


@contextmanager
def collector_paused():
    """Pause Python's cycle collector for a block that builds acyclic values (JSON and YAML values,
    source-map nodes, issues, diagnostics): it has nothing to find there, and paused it stops
    re-walking the growing tree (a third to two thirds of a 1M read). Nested and concurrent blocks
    are safe: only the block that paused it resumes it, so it is never left paused."""
    paused = gc.isenabled()
    if paused:
        gc.disable()
    try:
        yield
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

    reader = strict_reader()
    try_root = False
    try:
        value = reader.loads(text)
    except JSONDecodeError as e:
        # The root container itself is sound when the fault is after it or a BOM before it.
        try_root = e.msg == "Extra data" or text.startswith("\ufeff")
    except (ValueError, RecursionError):
        pass
    else:
        if not reader.suspect and not _too_deep(text, value, max_depth):
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
    return ParsedText(rec.value, ok, problems, tuple(rec.broken), source_map, text, rec.open_at_end)


def _too_deep(text: str, value: object, limit: int) -> bool:
    """`exceeds_depth` of a text's value, skipping the walk over its containers when the text has too few
    brackets to nest that deep (each container opens with one). Counted only in a short text, where the count
    usually settles it (a 2k graph has 26 brackets; a 1M text's count would cost a fifth of the walk)."""
    if len(text) <= 128 * limit and text.count("{") + text.count("[") <= limit:
        return False
    return exceeds_depth(value, limit)


def not_json_issue(explanation: str) -> Issue:
    """graph.md §3.2 step 1 / map.md §4.3: the one `E_SCHEMA` for text that is not valid JSON."""
    return make("E_SCHEMA", f"/: not valid JSON: {explanation}", (), ("",), facts=SchemaProblem("not_json"))


def parse_strict(text: str, *, max_depth: int = CLI_MAX_DEPTH) -> tuple[object, Issue | None]:
    """Strict JSON as JSON.parse reads it (graph.md §0.5, §3.2 step 1): the value, or None and the one
    `E_SCHEMA` "not valid JSON" issue (an empty text, a BOM, NaN/Infinity, trailing text, any syntax
    fault, nesting deeper than `max_depth`). Duplicate keys and lossy numbers are JSON.parse's to
    accept: the value keeps the last copy, as there. Never raises on any `str`."""
    value, why_not = _read_strict(text, max_depth)
    return (value, None) if why_not is None else (None, not_json_issue(why_not()))


def strict_value(text: str, *, max_depth: int = CLI_MAX_DEPTH) -> tuple[object, bool]:
    """(value, True) when `parse_strict` accepts the text, else (None, False): the same verdict without
    its explanation, which re-reads a refused text with the tolerant reader (seconds for a 1M YAML
    text) and is wasted on a caller that needs only yes or no (a map's graph answer, map.md §6.8)."""
    value, why_not = _read_strict(text, max_depth)
    return value, why_not is None


def _read_strict(text: str, max_depth: int) -> tuple[object, Callable[[], str] | None]:
    """The value JSON.parse reads, or None and a function saying why the text is not JSON (called only
    by a caller that reports it)."""
    if not text or text.isspace():  # as `text.strip() == ""`, without a copy of the text
        return None, lambda: "the document is empty"
    if text.startswith("\ufeff"):
        return None, lambda: "a byte-order mark (U+FEFF) at the start is not JSON"
    try:
        with collector_paused():
            value = loads(text)
    except (ValueError, RecursionError) as e:  # a syntax fault, NaN/Infinity, nesting the decoder recursed on
        return None, lambda error=e: _explain(text, max_depth, error)
    if _too_deep(text, value, max_depth):
        return None, lambda: f"nested deeper than {max_depth} levels"
    return value, None


def _explain(text: str, max_depth: int, error: Exception) -> str:
    """Why a text the strict reader refused is not JSON: nesting past the limit first (as the editor
    says it), else the first syntax problem in the editor's words with its line and column."""
    parsed = parse(text, max_chars=len(text), max_depth=max_depth)
    for p in parsed.problems:
        if p.code == "E_DOC_LIMIT":
            return f"nested deeper than {max_depth} levels"
        if p.code == "E_SYNTAX":
            line, col = LineIndex(text).position(p.span[0])
            return f"{p.message} (line {line + 1}, column {col + 1})"
    # The tolerant reader finds a problem wherever the C decoder does; failing that, the decoder's words.
    if isinstance(error, JSONDecodeError):
        return f"{error.msg} at line {error.lineno}, column {error.colno}"
    return f"nested deeper than {max_depth} levels" if isinstance(error, RecursionError) else str(error)


_local = threading.local()


def strict_reader() -> StrictReader:
    """This thread's strict reader (one per thread: it keeps a note between its hooks and the caller)."""
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
