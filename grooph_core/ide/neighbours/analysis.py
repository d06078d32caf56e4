"""The analysis of a neighbouring document (workflow.md §0): read, check, rules, order, spans.

One pipeline for the three kinds registered in `kinds.NEIGHBOURS`:

1. the reader (JSON: `json_reader.parse`; YAML: `yaml_reader.parse_yaml`) and its issues, first;
2. the kind's structural check (`E_WF_SCHEMA`, `E_BOARD_SCHEMA`, `E_EPISODES_SCHEMA`), in document order;
3. the kind's `RULES` in registration order, each rule's issues by position unless it keeps its own
   order (`Workflow::check()`'s).

**Strict** (the command line): a reader error (`E_SYNTAX`: not YAML or JSON, a second document, a YAML key
written twice) is reported alone; while the structural check finds anything, only the reader's issues and
those are reported, no rule and no warning. **Tolerant** (the editor): the rules also run, on what
could be read; they say nothing about what they could not read.

Spans follow workflow.md §0 "Where an issue points": the value; a key; a missing field's mapping by the
key it stands under, else its first key, else the (empty) mapping itself. The rules speak JSON pointers;
only `issue_span` turns them into text.
"""

from __future__ import annotations

import importlib
import re
from dataclasses import dataclass, field, replace
from pathlib import Path

from grooph_core.ide.document import DocumentAnalysis, placed_span, still_open
from grooph_core.ide.neighbours.names import DEFINING_MAPPINGS, SITES
from grooph_core.issues import Issue, Named, make
from grooph_core.model.compiled import root_type
from grooph_core.rules.episodes.schema import EpisodesSchemaProblem
from grooph_core.rules.serde_shape import SerdeReading, ShapeProblem, engine_problems, skipped_at
from grooph_core.source.json_reader import MAX_CHARS, MAX_DEPTH, ParsedText, collector_paused, parse
from grooph_core.source.kinds import NeighbourKind, neighbour_from_value
from grooph_core.source.load import MAX_DEPTH as CLI_MAX_DEPTH
from grooph_core.source.load import MAX_FILE_BYTES, Loaded
from grooph_core.source.serde_syntax import first_fault
from grooph_core.source.text import did_you_mean, pointer_escape, value_at
from grooph_core.source.yaml_reader import YamlSyntax, parse_yaml
from grooph_core.source.yaml_splice import spliced


@dataclass(frozen=True)
class Carried:
    """What the analysis of the next version may reuse (the editor's, issue 24): the reader's own
    reading (`yaml_splice` re-reads only the entry an edit lies in), the engine's reading (its
    top-level map entries), and the document the rules read (their per-status findings)."""

    reading: ParsedText
    serde: SerdeReading | None = None
    doc: object = None  # the rules package's document (`read`'s answer: a WorkflowDoc for a workflow)


@dataclass(frozen=True)
class NeighbourAnalysis(DocumentAnalysis):
    """One version of a neighbouring document: what was read, and every issue in report order."""

    text: str
    neighbour: NeighbourKind
    parsed: ParsedText
    issues: tuple[Issue, ...]
    _lines: list = field(default_factory=list, compare=False, repr=False)
    carried: Carried | None = field(default=None, compare=False, repr=False)
    # What the editor's requests read of this version, computed on first use (`flow.py`: the name places).
    # Not called `memo`: grooph_lsp/fix_checks.py tells a graph's or map's analysis by that attribute.
    kept: dict = field(default_factory=dict, compare=False, repr=False)

    @property
    def kind(self) -> str:
        return self.neighbour.name

    @property
    def reusable(self) -> bool:
        return self.carried is not None

    def pointer_span(self, pointer: str, *, key: bool = False) -> tuple[int, int]:
        return pointer_span(self.parsed, pointer, key=key)


def rules_of(kind: NeighbourKind):
    """The kind's rules package (`SCHEMA_CODE`, `structure_issues`, `read`, `RULES`)."""
    return importlib.import_module(kind.rules)


def read_text(text: str, kind: NeighbourKind, *, max_chars: int = MAX_CHARS, max_depth: int = MAX_DEPTH,
              recover: bool = False) -> ParsedText:
    """The kind's reader on the text (`recover`: read what it can of broken YAML, as the editor does).
    Its issues carry the pointer they are about in `at` (workflow.md §0 "The report"); of a JSON key
    written several times only the later copies are reported (§0)."""
    return engine_read(reader_reading(text, kind, max_chars=max_chars, max_depth=max_depth, recover=recover), kind)


def reader_reading(text: str, kind: NeighbourKind, *, max_chars: int = MAX_CHARS, max_depth: int = MAX_DEPTH,
                   recover: bool = False, earlier: ParsedText | None = None) -> ParsedText:
    """The kind's reader alone. With `earlier` (the reader's reading of an earlier version of this
    text), a YAML text is read by re-reading only the entry the edit lies in where that is the whole
    reading (`yaml_splice.spliced`), else in full."""
    if kind.syntax != "yaml":
        return parse(text, max_chars=max_chars, max_depth=max_depth)
    if earlier is not None and len(text) <= max_chars:
        if earlier.text == text:  # an edit undone (the reading is immutable: the same one serves)
            return earlier
        # the entry is read alone, one level up from where it stands (under a top-level key)
        found = spliced(earlier, text, lambda piece: parse_yaml(piece, max_chars=max_chars, max_depth=max_depth - 1))
        if found is not None:
            return found
    return parse_yaml(text, max_chars=max_chars, max_depth=max_depth, recover=recover)


def engine_read(parsed: ParsedText, kind: NeighbourKind) -> ParsedText:
    """The reader's reading with what the engine refuses of the text itself, and the problems as the
    report says them (see `read_text`)."""
    text = parsed.text
    if kind.syntax == "json" and not parsed.ok:
        parsed = replace(parsed, problems=one_syntax_fault(parsed, kind))
    refused = engine_text_refusals(text, kind.syntax, parsed.source_map)
    if refused:
        parsed = replace(parsed, problems=tuple(sorted(  # `ok` stays the reader's: the text itself is valid
            refused + [p for p in parsed.problems if not (p.code == "E_SYNTAX" and p.span == (0, 1) and text[:1] == BOM)],
            key=lambda p: p.span or (0, 0))))
    problems, seen = [], set()
    for p in parsed.problems:
        if p.code == "W_DUPLICATE_KEY":
            if p.pointers[0] not in seen:  # the first copy (the reader reports every copy, in text order)
                seen.add(p.pointers[0])
                continue
        problems.append(replace(p, at=p.pointers[:1]) if p.pointers and not p.at else p)
    if problems == list(parsed.problems):
        return parsed
    return replace(parsed, problems=tuple(problems))


def one_syntax_fault(parsed: ParsedText, kind: NeighbourKind) -> tuple[Issue, ...]:
    """The reader's problems with its syntax faults said once (issue 30: one fault, one diagnostic): serde_json
    stops at the first and says that one, so a board or an episode record gets one E_SYNTAX, at the character
    where serde_json stops and in its words (`serde_syntax.first_fault`), with the reader's words for the fault
    it found there first. The reader's tolerant reading of the rest stands: what it could read is checked."""
    text = parsed.text
    bom = text.startswith(BOM)  # the engine stops at the mark (`engine_text_refusals`); what follows it is scanned
    syntax = [p for p in parsed.problems if p.code == "E_SYNTAX" and not (bom and p.span == (0, 1))]
    if not syntax:
        return parsed.problems
    root = root_type(kind.name) if getattr(rules_of(kind), "reading", None) is not None else None  # a serde model
    found = first_fault(text[1:] if bom else text, None if root is None else lambda path: skipped_at(root, path))
    first = one = syntax[0]
    if found is not None:  # (else, none known: a fault serde reads; the reader's first stays)
        at, words = found[0] + bom, found[1]
        said = f"{first.message}: " if first.span is not None and first.span[0] <= at else ""
        why = "" if said.startswith(words) else f" ({words})"
        one = make("E_SYNTAX", f"{said}the engine's JSON reader stops here{why}",
                   span=(at, at + 1) if at < len(text) and text[at] not in "\r\n" else (at, at))  # not across a line end
    return tuple(one if p is first else p for p in parsed.problems if p.code != "E_SYNTAX" or p is first
                 or (bom and p.span == (0, 1)))


BOM = "\ufeff"
# A `\uXXXX` escape of a surrogate in a JSON string, not itself escaped (an even run of backslashes before it).
_SURROGATE_ESCAPE = re.compile(r"(?<!\\)(?:\\\\)*(\\u[dD][89abAB][0-9a-fA-F]{2})(\\u[dD][c-fC-F][0-9a-fA-F]{2})?"
                               r"|(?<!\\)(?:\\\\)*(\\u[dD][c-fC-F][0-9a-fA-F]{2})")
_HEX_ESCAPE = re.compile(r"\\u[0-9a-fA-F]{4}")


def engine_text_refusals(text: str, syntax: str, source_map=None) -> list[Issue]:
    """E_SYNTAX for what the engine's reader refuses in the text itself (workflow.md §0 "Text"): a byte-order
    mark at the start (serde_json refuses it; serde_yaml skips it but counts a column, reading the first
    key one column in: no harm when a line break or a comment follows it), and in JSON a string
    escape of a lone surrogate (`"\\ud800"`), at the escape, with the pointer of the string it stands in
    (serde skips an unknown key's value unread: `_analyze` drops those; `lone_surrogates`)."""
    out = []
    first_line = text[1:].split("\n", 1)[0].strip(" \r")
    if text.startswith(BOM) and (syntax != "yaml" or first_line and not first_line.startswith("#")):
        out.append(make("E_SYNTAX", "a byte-order mark at the start: the engine cannot read the file (save it "
                        "as UTF-8 without a BOM)", span=(0, 1)))
    if syntax == "json" and "\\u" in text:
        out += lone_surrogates(text, source_map)
    if syntax == "yaml" and "\\" in text:
        out += yaml_surrogate_escapes(text, source_map)
    return out


def lone_surrogates(text: str, source_map=None) -> list[Issue]:
    """The one rule for a lone surrogate escape in a board or an episode record (docs/bad-input.md "Lone
    surrogate"; workflow.md §0 "Text"): serde_json refuses a string holding half of a UTF-16 pair, a key's
    as a value's, so each escape gets E_SYNTAX at the escape in serde's words ("unexpected end of hex
    escape" after a leading half, "lone leading surrogate in hex escape" for a trailing half or a leading
    one followed by another escape). Its pointer is the string's (a key's: `on_key`); serde skips an
    unknown key's value unread, escapes and all, and `_analyze` drops what stands in one. Graphs and maps
    read it as JSON.parse does: valid JSON, kept as written."""
    out = []
    done = 0
    for m in _SURROGATE_ESCAPE.finditer(text):
        g = 3 if m.group(3) is not None else 1
        if m.group(2) is not None or m.start(g) < done:  # a pair, or the escape after a leading half (said)
            continue
        start, end = m.span(g)
        after = _HEX_ESCAPE.match(text, end) if g == 1 else None
        if after is not None:  # a leading half and an escape that is no trailing half: the two are refused
            end = after.end()
        done = end
        words = "unexpected end of hex escape" if g == 1 and after is None else "lone leading surrogate in hex escape"
        where, part = source_map.pointer_at(start) if source_map is not None else (None, "")
        out.append(make("E_SYNTAX", f"a lone surrogate escape ({m.group(g)}): the engine's JSON reader refuses a string "
                        f"holding half of a UTF-16 pair ({words})", pointers=() if where is None else (where,),
                        on_key=part == "key", span=(start, end)))
    return out


# A `\uXXXX` or `\UXXXXXXXX` escape of a surrogate, not itself escaped.
_YAML_SURROGATE_ESCAPE = re.compile(r"(?<!\\)(?:\\\\)*(\\u[dD][89a-fA-F][0-9a-fA-F]{2}|\\U0000[dD][89a-fA-F][0-9a-fA-F]{2})")


def yaml_surrogate_escapes(text: str, source_map=None) -> list[Issue]:
    """A workflow's part of the lone-surrogate rule (docs/bad-input.md "Lone surrogate"): libyaml, serde_yaml's
    scanner, refuses an escape of any surrogate in a double-quoted scalar, even the two halves of a pair
    ("found invalid Unicode character escape code"), wherever the scalar stands (an unknown key's value too):
    E_SYNTAX at the escape. In a plain, single-quoted or block scalar it is text, not an escape."""
    out = []
    for m in _YAML_SURROGATE_ESCAPE.finditer(text):
        start, end = m.span(1)
        where, part = source_map.pointer_at(start) if source_map is not None else (None, "")
        if where is None:
            continue
        span = source_map.key_span(where) if part == "key" else source_map.value_span(where)
        if span is None or not (span[0] <= start < span[1]) or text[span[0]] != '"':  # not in a double-quoted scalar
            continue
        out.append(make("E_SYNTAX", f"a surrogate escape ({m.group(1)}): the engine's YAML reader refuses an escape of "
                        "half of a UTF-16 pair in a double-quoted scalar, even of both halves (found invalid Unicode "
                        "character escape code); write the character itself", pointers=(where,), on_key=part == "key",
                        span=(start, end)))
    return out


def analyze_neighbour(text: str, kind: NeighbourKind, *, tolerant: bool = True, max_chars: int = MAX_CHARS,
                      max_depth: int = MAX_DEPTH, previous: NeighbourAnalysis | None = None) -> NeighbourAnalysis:
    """Read and check one text of a neighbouring kind. Never raises on any `str`. `previous`, the
    editor's analysis of an earlier version of the document (tolerant, same kind and limits), lets
    this one reuse what the edit did not touch (`Carried`); the issues are the same either way."""
    # The reader and the rules build acyclic values; with the cycle collector paused they do not pay
    # for it re-walking the document's tree over and over (two thirds of the time at 1M characters).
    carried = previous.carried if previous is not None and previous.neighbour is kind and tolerant else None
    with collector_paused():
        return _analyze(text, kind, tolerant, max_chars, max_depth, carried)


def _analyze(text: str, kind: NeighbourKind, tolerant: bool, max_chars: int, max_depth: int,
             carried: Carried | None) -> NeighbourAnalysis:
    reading = reader_reading(text, kind, max_chars=max_chars, max_depth=max_depth, recover=tolerant,
                             earlier=carried.reading if carried is not None else None)
    # A broken reading is no base to splice from (yaml_splice): the last clean one stays the base.
    base = carried.reading if reading.problems and carried is not None else reading
    parsed = engine_read(reading, kind)
    problems = list(parsed.problems)
    if any(p.code == "E_DOC_LIMIT" for p in problems):
        return NeighbourAnalysis(text, kind, parsed, tuple(problems))
    pkg = rules_of(kind)
    engine_reading = getattr(pkg, "reading", None)
    serde = None
    if engine_reading is not None and parsed.value is not None:
        serde = engine_reading(parsed, reuse=carried.serde if carried is not None else None)
    if serde is not None and serde.ignored and kind.syntax == "json":  # serde_json skips a lone surrogate in an
        # unknown key's value unread (a key's: in its object); libyaml refuses it anywhere
        problems = [p for p in problems if not (p.code == "E_SYNTAX" and p.pointers and serde.is_ignored(
            p.pointers[0].rpartition("/")[0] if p.on_key else p.pointers[0]))]
        parsed = replace(parsed, problems=tuple(problems))
    reader_failed = any(p.severity == "error" for p in problems)
    if reader_failed and (parsed.value is None or not tolerant):  # the engine refuses the file as it reads it
        return NeighbourAnalysis(text, kind, parsed, tuple(problems), carried=_carry(kind, tolerant, base, serde))

    def in_text_order(issues) -> list[Issue]:
        return sorted(issues, key=lambda i: issue_span(parsed, i))

    if serde is not None:  # a serde kind: its reader's own verdicts, and the value as it holds it
        problems, refused = engine_problems(problems, serde, pkg.SCHEMA_CODE)
        structure = in_text_order(refused + serde.issues)
        parsed = replace(parsed, value=serde.value, problems=tuple(problems))
    else:
        structure = in_text_order(pkg.structure_issues(parsed.value))
    if not tolerant and structure:
        return NeighbourAnalysis(text, kind, parsed, tuple(problems + structure))
    doc = pkg.read(parsed.value, previous=carried.doc if carried is not None else None)
    findings = list(structure)
    for rule in pkg.RULES:
        found = list(rule.run(doc))
        findings += in_text_order(found) if rule.by_position else found
    cuts = cut_spans(parsed)
    if cuts:
        findings = [i for i in findings if not _echoes_a_cut(parsed, i, cuts, pkg.WHOLE_SHAPE_CODES)]
    if parsed.open_at_end:
        findings = _not_yet_written(parsed, kind, findings, cuts, pkg.WHOLE_SHAPE_CODES)
    return NeighbourAnalysis(text, kind, parsed, tuple(problems + findings), carried=_carry(kind, tolerant, base, serde, doc))


def _carry(kind: NeighbourKind, tolerant: bool, base: ParsedText, serde=None, doc=None) -> Carried | None:
    """What the editor's next analysis may reuse: of a YAML text, the one kind read incrementally (the
    command line reads a text once; a JSON text is read whole each time: nothing)."""
    return Carried(base, serde, doc) if tolerant and kind.syntax == "yaml" else None


def _not_yet_written(parsed: ParsedText, kind: NeighbourKind, findings: list[Issue], cuts,
                     whole_shape_codes) -> list[Issue]:
    """The findings left once those about what may still follow are held back, in a text that ends
    inside collections (`ParsedText.open_at_end`; DESIGN.md "As you type", issue 21): a field missing
    from a mapping the text ends inside, once it has a member (in YAML only a field the model lists
    after every field it has: a YAML text ends inside its last block collection whether it is cut or
    finished). Where the text is cut at its end for sure (JSON's unclosed brackets; a YAML text
    without its last line break, or whose last line the reader left out) also the whole-shape
    findings, and an unknown name of a kind whose mapping is still open, unless in YAML it is a near miss
    of a name the mapping has (a misspelling: "no status redy; did you mean ready?", issue 30)."""
    yaml = kind.syntax == "yaml"
    cut_short = not yaml or _yaml_cut_short(parsed.text, cuts)
    growing: dict[str, str] | None = None  # the places naming what a mapping still open may define, asked once
    out = []
    for i in findings:
        if (_missing(i) and i.pointers and still_open(parsed, i.pointers[0])
                and not (yaml and getattr(i.facts, "written_after", False))):
            continue
        if cut_short and i.code in whole_shape_codes:
            continue
        if cut_short and isinstance(i.facts, Named) and i.pointers:
            if growing is None:
                growing = _naming_what_may_follow(parsed, kind)
            mapping = growing.get(i.pointers[0])
            if mapping is not None and not (yaml and _near_miss(parsed, mapping, i.facts.name)):
                continue
        out.append(i)
    return out


def _yaml_cut_short(text: str, cuts) -> bool:
    """A YAML text that stops inside its last line, or whose last lines the reader could not read."""
    return bool(text) and text[-1] not in "\r\n" or any(not text[c[1]:].strip() for c in cuts)


def _naming_what_may_follow(parsed: ParsedText, kind: NeighbourKind) -> dict[str, str]:
    """The pointers of the places that name a status, a role, a run state, a task… of a kind whose
    mapping the text ends inside (workflow.md §4, board.md §4), each with that mapping's pointer: what
    they name may be defined below the cut. A lane or a stored_as word names nothing the document defines."""
    open_kinds = {k: p for k, p in DEFINING_MAPPINGS.get(kind.name, {}).items() if p in parsed.open_at_end}
    if not open_kinds:
        return {}
    return {s.pointer: open_kinds[s.kind] for s in SITES[kind.name](parsed.value)
            if not s.defines and s.kind in open_kinds}


def _near_miss(parsed: ParsedText, mapping: str, name: object) -> bool:
    """True when `name` is not one of the mapping's keys but close to one ("did you mean")."""
    names = value_at(parsed.value, mapping)
    return type(name) is str and isinstance(names, dict) and did_you_mean(name, list(names)) is not None


def cut_spans(parsed: ParsedText) -> list[tuple[int, int]]:
    """The spans of text the reader could not read and left out or guessed at (broken text only): the
    YAML lines it blanked, the JSON values it cut (DESIGN.md "As you type")."""
    spans = [tuple(c) for p in parsed.problems if isinstance(p.facts, YamlSyntax) for c in p.facts.cut]
    ends_inside = set(parsed.open_at_end)
    for pointer in parsed.broken:
        # an unclosed root, or a list or a mapping with members the text ends inside, spoils none of
        # its members before the cut (each cut member is listed itself); a `{` just opened is all cut
        if pointer and not (pointer in ends_inside and (isinstance(value_at(parsed.value, pointer), list)
                                                        or still_open(parsed, pointer))):
            vs = parsed.source_map.value_span(pointer)
            if vs is not None:
                spans.append(vs)
    return spans  # type: ignore[return-value]


def _overlaps(a: tuple[int, int], b: tuple[int, int]) -> bool:
    return a[0] < b[1] and b[0] < a[1] or (a[0] == a[1] and b[0] <= a[0] <= b[1])


def _echoes_a_cut(parsed: ParsedText, issue: Issue, cuts, whole_shape_codes) -> bool:
    """A finding that may only say what the reader could not read: it points into a cut; it is a
    missing field of a mapping a cut runs through; it is about a null whose content may be the cut right
    after it; it is about the whole document's shape; or it says a name is unknown whose definition may
    stand in a cut."""
    if issue.code in whole_shape_codes:
        return True
    span = issue_span(parsed, issue)
    if any(_overlaps(span, c) for c in cuts):
        return True
    if issue.on_key and _missing(issue):
        holder = parsed.source_map.value_span(issue.pointers[0])
        if holder is not None and any(holder[0] <= c[0] and c[1] <= holder[1] for c in cuts):
            return True
    if issue.pointers and value_at(parsed.value, issue.pointers[0]) is None:
        ks = parsed.source_map.key_span(issue.pointers[0])  # `statuses:` whose lines were all cut
        if ks is not None and any(c[0] >= ks[1] and not parsed.text[ks[1]:c[0]].strip(" \t\r\n:") for c in cuts):
            return True
    name = issue.facts.name if isinstance(issue.facts, Named) else None
    return isinstance(name, str) and bool(name) and any(name in parsed.text[c[0]:c[1]] for c in cuts)


def _missing(issue: Issue) -> bool:
    """A structural finding that an object lacks a required field (workflow.md §2, board.md §2,
    episodes.md §2)."""
    return isinstance(issue.facts, (ShapeProblem, EpisodesSchemaProblem)) and issue.facts.problem == "missing"


def issue_span(parsed: ParsedText, issue: Issue) -> tuple[int, int]:
    """The character span an issue points at (workflow.md §0 "Where an issue points")."""
    return placed_span(issue, lambda pointer, key=False: pointer_span(parsed, pointer, key=key))


def pointer_span(parsed: ParsedText, pointer: str, *, key: bool = False) -> tuple[int, int]:
    """The span of a pointer's value, or with `key` of its key: for a mapping with no key above it
    (the top level, a list item) its first key, for an empty one the mapping itself. A pointer the text
    does not have falls back to its nearest ancestor that it has."""
    sm = parsed.source_map
    if key:
        ks = sm.key_span(pointer)
        if ks is not None:
            return ks
        v = value_at(parsed.value, pointer)
        if isinstance(v, dict) and v:
            first = sm.key_span(pointer + "/" + pointer_escape(next(iter(v))))
            if first is not None:
                return first
    p = pointer
    while True:
        vs = sm.value_span(p)
        if vs is not None:
            if vs[0] == vs[1] and p:
                ks = sm.key_span(p)  # a null written as nothing (`role:`): its key shows it
                if ks is not None:
                    return ks
            return vs
        if p == "":
            return (0, 0)
        p = p[: p.rfind("/")]


# ---- the command line --------------------------------------------------------------------------------


@dataclass(frozen=True)
class NeighbourLoaded(Loaded):
    """A file of a neighbouring kind as the command line read it, with its strict analysis."""

    analysis: NeighbourAnalysis | None = None


class NotOurs(Exception):
    """A YAML file that is not a workflow (workflow.md §1: "Other YAML files are not ours")."""


def check_file(path: str, kind: NeighbourKind) -> tuple[NeighbourLoaded, list[Issue]]:
    """Read and strictly check one file of a neighbouring kind, within the command line's limits (the
    limits of grooph documents: 64 MiB, 512 levels). Raises OSError when it cannot be read."""
    p = Path(path)
    size = p.stat().st_size
    if size > MAX_FILE_BYTES:
        issue = make("E_DOC_LIMIT", f"the file is {size} bytes, over the {MAX_FILE_BYTES}-byte limit", span=(0, 0))
        return NeighbourLoaded(path, None, None, kind.name, issue), [issue]  # type: ignore[arg-type]
    data = p.read_bytes()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        issue = make("E_SYNTAX", f"the file is not UTF-8 text (byte 0x{data[e.start]:02x} at offset {e.start})",
                     span=(0, 0))
        return NeighbourLoaded(path, None, None, kind.name, issue), [issue]  # type: ignore[arg-type]
    return check_text(path, text, kind)


def check_text(path: str, text: str, kind: NeighbourKind) -> tuple[NeighbourLoaded, list[Issue]]:
    """The strict analysis of a text already read."""
    a = analyze_neighbour(text, kind, tolerant=False, max_chars=MAX_FILE_BYTES, max_depth=CLI_MAX_DEPTH)
    return NeighbourLoaded(path, text, a.value, kind.name, None, a), list(a.issues)  # type: ignore[arg-type]


def yaml_kind(path: str) -> NeighbourKind:
    """The kind of a YAML file of another name, by its content; NotOurs when it is no workflow."""
    try:
        text = Path(path).read_text("utf-8")
    except UnicodeDecodeError:
        text = ""
    kind = neighbour_from_value(parse_yaml(text).value, "yaml")
    if kind is None:
        raise NotOurs(f"grooph: {path} is YAML but not a workflow (its top level has no statuses and initial); "
                      "nothing was checked")
    return kind


def report_ranges(doc: Loaded, issues: list[Issue]) -> list[dict]:
    """The JSON report's ranges of a neighbouring file's issues (plain LSP shape)."""
    a = getattr(doc, "analysis", None)
    if a is None:
        zero = {"line": 0, "character": 0}
        return [{"start": zero, "end": dict(zero)} for _ in issues]
    return [a.issue_range(i) for i in issues]
