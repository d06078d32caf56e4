"""The editor's analysis of a workflow after an edit, made from the analysis before it (issue 24), is the
analysis of the text read afresh: the same issues at the same places, the same value, the same source map.

`analyze_neighbour(text, kind, previous=a)` re-reads only the entry of a top-level block mapping the edit
lies in (`source/yaml_splice.py`), takes the engine's reading of every other entry from `a`
(`rules/serde_shape.EntryReading`), and reads everything else afresh where that is not the whole reading.
Each test compares it with `analyze_neighbour(text, kind)` on the same text: issues (code, message,
pointers, facts, span, related spans, order), the value, `open_at_end`, and the source map's answers for
every pointer the value has and for offsets across the text.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bench.workflow_docs import workflow_text
from grooph_core.ide.neighbours import analysis as neighbour_analysis
from grooph_core.ide.neighbours.analysis import analyze_neighbour
from grooph_core.source.kinds import neighbour_from_name
from grooph_core.source.text import pointer_escape

WORKFLOW = neighbour_from_name("x.workflow.yaml")
FIXTURES = Path(__file__).parents[2] / "fixtures" / "workflow"
SPEC_EXAMPLE = (FIXTURES / "valid" / "spec-example.workflow.yaml").read_text("utf-8")
BENCH_24K = workflow_text(24_000)


def _pointers(value, pointer: str = ""):
    yield pointer
    if type(value) is dict:
        for k, v in value.items():
            yield from _pointers(v, pointer + "/" + pointer_escape(k))
    elif type(value) is list:
        for i, v in enumerate(value):
            yield from _pointers(v, f"{pointer}/{i}")


def _said(a) -> list:
    return [(i.code, i.message, i.pointers, i.at, i.on_key, i.facts, a.span(i), i.related_spans) for i in a.issues]


def assert_same(got, fresh) -> None:
    """`got` (made from an earlier analysis) says and answers exactly what `fresh` (read afresh) does."""
    assert _said(got) == _said(fresh)
    assert got.parsed.value == fresh.parsed.value
    assert got.parsed.ok == fresh.parsed.ok
    assert got.parsed.open_at_end == fresh.parsed.open_at_end
    g, f = got.parsed.source_map, fresh.parsed.source_map
    assert getattr(g, "values", None) == getattr(f, "values", None)
    for p in _pointers(fresh.parsed.value):
        assert (g.value_span(p), g.key_span(p), g.scalar(p)) == (f.value_span(p), f.key_span(p), f.scalar(p)), p
    text = fresh.text
    for offset in range(0, len(text) + 1, max(1, len(text) // 400)):
        assert g.pointer_at(offset) == f.pointer_at(offset), offset
        assert g.enclosing_object(offset) == f.enclosing_object(offset), offset


class _Reads:
    """The lengths of the texts the YAML reader is given (a spliced reading reads one entry alone)."""

    def __init__(self, monkeypatch) -> None:
        self.lengths: list[int] = []
        real = neighbour_analysis.parse_yaml

        def parse_yaml(text, **kw):
            self.lengths.append(len(text))
            return real(text, **kw)

        monkeypatch.setattr(neighbour_analysis, "parse_yaml", parse_yaml)


def _after(text: str, edits) -> list[str]:
    """The texts after each edit in turn: the first `old` replaced by `new`."""
    out = []
    for old, new in edits:
        assert old in text, old
        text = text.replace(old, new, 1)
        out.append(text)
    return out


def _typed(text: str, versions: list[str]):
    """Each version analysed from the one before (as the server does) and afresh; both returned."""
    previous = analyze_neighbour(text, WORKFLOW)
    for version in versions:
        got = analyze_neighbour(version, WORKFLOW, previous=previous)
        yield got, analyze_neighbour(version, WORKFLOW)
        previous = got


# Edits that stay within one status entry: the entry alone is read again.
IN_ONE_ENTRY = {
    "a character in a note": [("Blocked step 3:", "Blocked step 3:x")],
    "a word typed into a note, key by key": [("Blocked step 3:" + "hello"[:n], "Blocked step 3:" + "hello"[:n + 1])
                                             for n in range(5)],
    "a target renamed to no status": [("target: s2_review", "target: s2_revieww")],
    "a by role no role has": [("by: [reviewer], target: s3_ready", "by: [reviewerx], target: s3_ready")],
    "stored_as an unknown word": [("  s4_building:\n    stored_as: running", "  s4_building:\n    stored_as: runing")],
    "a params use of an unknown param": [("card.failures < params.failure_limit", "card.failures < params.failure_limitx")],
    "a new field line": [("  s4_ready:\n    stored_as: ready\n", "  s4_ready:\n    stored_as: ready\n    resume_as: nowhere\n")],
    "a line deleted": [("      start: [{target: s5_building}]\n", "")],
    "a status renamed": [("  s6_review:", "  s6_reviewx:")],
    "a status renamed to another's name": [("  s6_review:", "  s6_ready:")],
    "an anchor and an alias": [("  s7_ready:\n    stored_as: ready", "  s7_ready:\n    stored_as: &r ready"),
                               ("  s7_building:\n    stored_as: running", "  s7_building:\n    stored_as: *r")],
    "a key written twice": [("  s8_ready:\n    stored_as: ready\n", "  s8_ready:\n    stored_as: ready\n    stored_as: done\n")],
    "a tab": [("  s9_ready:\n    stored_as: ready", "  s9_ready:\n    stored_as:\tready")],
    "the syntax broken, then repaired": [("start: [{target: s10_building}]", "start: [[{target: s10_building}]"),
                                         ("start: [[{target: s10_building}]", "start: [{target: s10_building}]")],
    "a half-typed key, then finished": [("  s11_ready:\n    stored_as: ready\n", "  s11_ready:\n    stored_as: ready\n    ro"),
                                        ("    stored_as: ready\n    ro", "    stored_as: ready\n    role: x\n")],
    "the last status edited": [("{stored_as: done}", "{stored_as: donex}")],
    "a line break typed at the end of an entry": [("  s12_ready:\n    stored_as: ready", "  s12_ready:\n    stored_as: ready\n")],
    "a comment": [("  s13_review:\n", "  s13_review:\n    # a comment\n")],
    "the entry's key unindented": [("  s14_ready:\n", " s14_ready:\n")],
}

# Edits elsewhere, or across entries: read in full (and still the same).
ACROSS = {
    "two entries at once": [("Blocked step 14", "Blocked 14")] + [("      start: [{target: s15_building}]\n  s15_building:", "  s15_building:")],
    "a status deleted whole": [("  s15_ready:\n    stored_as: ready\n    on:\n      start: [{target: s15_building}]\n", "")],
    "a status added": [("  s16_ready:", "  s16_new:\n    stored_as: ready\n  s16_ready:")],
    "a top-level key": [("dispatch:\n  tick: 30", "dispatch:\n  tick: 45")],
    "a flow mapping": [("roles: {implementer", "roles: {implementerx")],
    "the description": [("description: Build", "description: xBuild")],
    "the document's end": [("counts: runs, max: 2}\n", "counts: runs, max: 2}\nextra: 1\n")],
    "a second document": [("dispatch:", "---\ndispatch:")],
}


@pytest.mark.parametrize("edits", list(IN_ONE_ENTRY.values()) + list(ACROSS.values()),
                         ids=list(IN_ONE_ENTRY) + list(ACROSS))
def test_an_edit_reads_as_the_text_read_afresh(edits):
    for got, fresh in _typed(BENCH_24K, _after(BENCH_24K, edits)):
        assert_same(got, fresh)


# Texts where the entry read alone is not read as in the whole text (found by review, issue 24): each
# must fall back to the whole reading, or be spliced only where that is the same.
NOT_ALONE = {
    "a block scalar keeping its line breaks, last in the last entry":
        ("statuses:\n  s1: {}\n  s2:\n    note: |+\n      line\n\n\ndispatch: {tick: 30}\n", [("line", "linex")]),
    "the same at the end of the text":
        ("statuses:\n  s1: {}\n  s2:\n    note: >2+\n      line\n\n\n", [("line", "linex")]),
    "a document end typed between entries":
        ("statuses:\n  s1: {}\n  s2: {}\n", [("  s2:", ".\n  s2:"), (".\n", "..\n"), ("..\n", "...\n")]),
    "a document start inside a note":
        ("statuses:\n  s1:\n    note: |\n      a\n  s2: {}\n", [("      a\n", "      a\n---\n")]),
    "an empty status given a null":
        ("statuses:\n  s1: {}\n  s2:\n  s3: {}\n", [("  s2:\n", "  s2: ~\n")]),
    "a null verb made empty":
        ("verbs:\n  v1: []\n  v2: ~\n  v3: []\nstatuses: {}\n", [("  v2: ~\n", "  v2:\n")]),
    "a key deleted after an empty status":
        ("statuses:\n  a:\n  sX:\n    stored_as: done\n  c: {}\n", [("  sX:", "  :")]),
}


@pytest.mark.parametrize("case", list(NOT_ALONE.values()), ids=list(NOT_ALONE))
def test_what_the_entry_alone_would_read_otherwise_reads_as_afresh(case):
    text, edits = case
    for got, fresh in _typed(text, _after(text, edits)):
        assert_same(got, fresh)


def test_a_status_that_takes_the_document_past_its_values_limit_is_read_whole():
    """The limit on values (yaml_reader.MAX_VALUES) counts the whole document: an entry that takes it past
    the limit is not spliced, and the whole reading says E_DOC_LIMIT."""
    from grooph_core.source.yaml_reader import parse_yaml
    from grooph_core.source.yaml_splice import spliced

    text = "statuses:\n  a: {stored_as: ready}\n  b: {stored_as: done}\n"
    grown = text.replace("{stored_as: done}", "{stored_as: done, note: [1, 2, 3, 4, 5, 6]}")
    base = parse_yaml(text)
    limit = base.source_map.values + 3
    def piece(t):
        return parse_yaml(t, max_values=limit)
    assert spliced(base, text.replace("ready", "readyx"), piece, max_values=limit).source_map.values == \
        parse_yaml(text.replace("ready", "readyx")).source_map.values
    assert spliced(base, grown, piece, max_values=limit) is None
    assert [p.code for p in parse_yaml(grown, max_values=limit).problems] == ["E_DOC_LIMIT"]


def test_a_crlf_text_is_spliced_too(monkeypatch):
    """A text with CRLF line breaks (as saved on Windows) reads the edited status alone as well."""
    text = BENCH_24K.replace("\n", "\r\n")
    versions = _after(text, [("Blocked step 3:", "Blocked step 3:x"), ("target: s2_review", "target: s2_revieww"),
                             ("  s6_review:", "  s6_reviewx:")])
    previous = analyze_neighbour(text, WORKFLOW)
    reads = _Reads(monkeypatch)
    for version in versions:
        got = analyze_neighbour(version, WORKFLOW, previous=previous)
        assert_same(got, analyze_neighbour(version, WORKFLOW))
        previous = got
    assert max(n for n in reads.lengths if n < len(text)) < 600
    assert sum(1 for n in reads.lengths if n < 600) == len(versions)


def test_an_edit_in_one_status_reads_that_status_alone(monkeypatch):
    """The splice is taken (not only correct when it falls back): typing in a note reads a piece of the
    text, not the text, and so does every keystroke after it."""
    versions = _after(BENCH_24K, IN_ONE_ENTRY["a word typed into a note, key by key"])
    previous = analyze_neighbour(BENCH_24K, WORKFLOW)
    reads = _Reads(monkeypatch)
    for version in versions:
        previous = analyze_neighbour(version, WORKFLOW, previous=previous)
    assert len(reads.lengths) == len(versions)
    assert max(reads.lengths) < 400 < len(BENCH_24K)


def test_after_a_broken_version_the_last_clean_reading_is_the_base(monkeypatch):
    """While a status is broken the text is read in full (its recovery needs the whole text); once it
    reads again, the next keystroke is spliced from the last clean reading, not read in full again."""
    broken, repaired, typed = _after(BENCH_24K, [("start: [{target: s10_building}]", "start: [[{target: s10_building}]"),
                                                 ("start: [[{target: s10_building}]", "start: [{target: s10_buildingx}]"),
                                                 ("Blocked step 10:", "Blocked step 10:x")])
    previous = analyze_neighbour(BENCH_24K, WORKFLOW)
    reads = _Reads(monkeypatch)
    longest = []
    for version in (broken, repaired, typed):
        reads.lengths.clear()
        previous = analyze_neighbour(version, WORKFLOW, previous=previous)
        longest.append(max(reads.lengths, default=0))
    assert longest[0] == len(broken)  # the broken text, read in full (after its entry alone would not read)
    assert 0 < longest[1] < 400 and 0 < longest[2] < 400  # both spliced


def test_the_engine_reading_of_unchanged_statuses_is_reused():
    """Every status the edit left alone keeps its reading (the same objects), so the rules see it unchanged."""
    (version,) = _after(BENCH_24K, IN_ONE_ENTRY["a character in a note"])
    before = analyze_neighbour(BENCH_24K, WORKFLOW)
    after = analyze_neighbour(version, WORKFLOW, previous=before)
    old, new = before.value["statuses"], after.value["statuses"]
    changed = [name for name in new if new[name] is not old[name]]
    assert changed == ["s3_blocked"]


def test_the_command_line_and_another_kind_take_nothing_from_a_previous_analysis():
    before = analyze_neighbour(BENCH_24K, WORKFLOW)
    (version,) = _after(BENCH_24K, IN_ONE_ENTRY["a character in a note"])
    strict = analyze_neighbour(version, WORKFLOW, tolerant=False, previous=before)
    assert strict.carried is None
    assert _said(strict) == _said(analyze_neighbour(version, WORKFLOW, tolerant=False))
    board = neighbour_from_name("x.board.json")
    assert analyze_neighbour("{}", board, previous=before).issues == analyze_neighbour("{}", board).issues


@pytest.mark.parametrize("path", sorted(FIXTURES.glob("**/*.workflow.yaml")), ids=lambda p: p.parent.name + "/" + p.name)
def test_every_fixture_typed_into_reads_as_afresh(path):
    """A character typed at every line start and in the middle of every line of each workflow fixture,
    one after the other, each version from the one before."""
    text = path.read_text("utf-8")
    versions, at = [], 0
    for line in text.splitlines(keepends=True):
        for where in (at, at + len(line) // 2):
            text = text[:where] + "q" + text[where:]
            versions.append(text)
        at += len(line) + 2
    for got, fresh in _typed(path.read_text("utf-8"), versions):
        assert_same(got, fresh)


TOKENS = ["x", " ", "\n", ":", ": ", "- ", "{", "}", "[", "]", "#", "'", '"', "&a ", "*a", "\t", "|", ">", "---\n",
          "? ", "  ", "\n  s1_ready:\n", "target: s1_ready", "stored_as: ", "\n    ", ",", "!!str ", "~", "\r\n",
          "...\n", "|+", "\r", "\n  "]


@settings(max_examples=150)
@given(st.lists(st.tuples(st.floats(0, 1), st.one_of(st.sampled_from(TOKENS), st.integers(1, 6))), min_size=1,
                max_size=4))
def test_random_edits_read_as_afresh(edits):
    """Random keystrokes anywhere in a workflow (a token typed, or a few characters deleted), each
    version analysed from the one before and afresh."""
    text, versions = SPEC_EXAMPLE, []
    for where, what in edits:
        at = int(where * len(text))
        text = text[:at] + what + text[at:] if isinstance(what, str) else text[:at] + text[at + what:]
        versions.append(text)
    for got, fresh in _typed(SPEC_EXAMPLE, versions):
        assert_same(got, fresh)
