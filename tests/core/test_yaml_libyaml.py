"""The libyaml fast path of the YAML reader gives exactly what ruamel.yaml (the reference, spec/workflow.md
§0) gives: values, source-map spans, E_SYNTAX marks and messages, duplicate keys, limits, recovery."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from grooph_core.source import yaml_libyaml, yaml_reader as yaml_source
from grooph_core.source.yaml_reader import parse_yaml

pytestmark = pytest.mark.skipif(not yaml_libyaml.available(), reason="PyYAML without libyaml")
ROOT = Path(__file__).resolve().parents[2]
FIXTURES = sorted((ROOT / "fixtures").glob("**/*.yaml"))


def _norm(v):
    if isinstance(v, float) and math.isnan(v):
        return "NaN"
    if isinstance(v, dict):
        return {k: _norm(x) for k, x in v.items()}
    if isinstance(v, list):
        return [_norm(x) for x in v]
    return v


def _tree(y):
    if y is None:
        return None
    return (y.is_obj, y.start, y.end, y.names, y.kspans, y.vspans, [_tree(k) for k in y.kids])


def _picture(parsed):
    sm = parsed.source_map
    return (_norm(parsed.value), type(parsed.value).__name__, parsed.ok, parsed.broken, parsed.text,
            [(p.code, p.message, p.span, p.related_spans, p.facts) for p in parsed.problems], sm._root_span, _tree(sm._root))


def _reference(text, **kw):
    real = yaml_libyaml.compose
    yaml_libyaml.compose = lambda *a: None
    try:
        return parse_yaml(text, **kw)
    finally:
        yaml_libyaml.compose = real


def assert_same(text, **kw):
    for recover in (False, True):
        assert _picture(parse_yaml(text, recover=recover, **kw)) == _picture(_reference(text, recover=recover, **kw)), text


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: str(p.relative_to(ROOT)))
def test_fixtures_read_the_same(path):
    assert_same(path.read_text(encoding="utf-8"))


@pytest.mark.parametrize("path", FIXTURES[:40], ids=lambda p: str(p.relative_to(ROOT)))
def test_fixtures_cut_short_read_the_same(path):
    text = path.read_text(encoding="utf-8")
    for n in range(0, len(text), max(1, len(text) // 25)):
        assert_same(text[:n])


CASES = [
    "a: 1\na: 2\n", "a: &x [1, *x]\n", "a: *nope\n", "? x:\n: b\n", "a:\n  ? x:\n  : b: 1\n", "a: &x 1\nb: &x 2\nc: *x\n", "---\na: 1\n---\nb: 2\n",
    "? [1]\n: 2\n", "a: !!int '3'\nb: ! 4\nc: !!str 5\nd: !custom x\n", "a:\tb\n", "a: b: c\n", "- a\nb: 1\n",
    "a: [1, 2\n", "a: {b: 1\n", "a: 'x\n", "a: |\n  x\n\n  y\n\n\nb: >-\n  z\n", "%YAML 1.2\n---\na: 1\n",
    "\ufeffa: 1\n", "a: é🚀\r\nb: ~\r\n", "on: yes\noff: no\n1: 0x1F\n.inf: -.inf\nn: .NaN\n", "", "  \n", "# c\n",
    "a: \x07\n", "[1, 2]", "x", "a:\n  - b: 1\n    c: 2\n  - [3]\n", "a: \ud800\n", "<<: *a\n", "a: &a {b: *a}\n",
    # tabs inside lines (read as the engine reads them, issue 30) and as indentation (refused)
    "a:\t\n  b: 1\nc: {d:\t}\n", "a: [x,\ty]\nb: c\td\t# e\n", "a:\n  b: one\n   \ttwo\n", "a:\n  b: one\n\ttwo\n",
    "a:\t\n\tb: 1\n", "- a\n-\tb\n", "a\t: b\n",
]


@pytest.mark.parametrize("text", CASES)
def test_corner_cases_read_the_same(text):
    assert_same(text)


def test_limits_are_the_same():
    deep = "a:\n" + "".join("  " * i + "- \n" for i in range(1, 40)) + "  " * 40 + "x\n"
    assert_same(deep, max_depth=10)
    assert_same("[" * 30 + "]" * 30, max_depth=30)
    assert_same("[" * 30 + "]" * 30, max_depth=31)
    bomb = "a: &a [x, x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"{c}: &{c} [{', '.join(['*' + p] * 10)}]\n" for p, c in zip("abcdef", "bcdefg"))
    assert_same(bomb)
    assert_same(bomb, max_values=50_000_000)


_WORD = st.sampled_from(["a", "b", "on", "1", "0x1F", "~", "null", "true", "'q'", '"d"', "x y", "-.inf", "é", "🚀",
                         "*x", "&x", "!!str", "[", "]", "{", "}", ",", ":", "- ", "? ", "#", "|", ">", "\t", "\r\n"])
_LINE = st.tuples(st.integers(0, 6), st.lists(_WORD, max_size=5)).map(lambda t: " " * t[0] + " ".join(t[1]))
_TEXT = st.lists(_LINE, max_size=12).map("\n".join)


def _value():
    scalar = st.one_of(st.none(), st.booleans(), st.integers(-10**6, 10**6), st.sampled_from(["on", "x y", "1.5", ""]),
                       st.text(max_size=6))
    return st.recursive(scalar, lambda kids: st.one_of(st.lists(kids, max_size=4),
                                                       st.dictionaries(st.text(max_size=5), kids, max_size=4)),
                        max_leaves=15)


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(_TEXT)
def test_generated_texts_read_the_same(text):
    assert_same(text)


# Found by this test (issue 25): a `:` typed right after a flow mapping that is an item of a flow sequence.
FOUND_VALUE = [[], [0, "on"], {"": 0, "00": {"": None, "00\x1f\x1f": "on", "0000\x1f": False}, "00;": []},
               {"": None, "0000\x00": None, "00;": 0}]


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(_value(), st.booleans(), st.integers(0, 400), st.sampled_from(["", "x", ":", "\n", "[", "'", " - "]))
@example(FOUND_VALUE, True, 127, ":")
def test_dumped_values_and_their_edits_read_the_same(value, flow, at, insert):
    from ruamel.yaml import YAML
    import io
    y = YAML(typ="safe", pure=True)
    y.default_flow_style = flow
    buf = io.StringIO()
    y.dump({"doc": value}, buf)
    text = buf.getvalue()
    assert_same(text)
    at = min(at, len(text))
    assert_same(text[:at] + insert + text[at:])


# A pair in a flow sequence whose `:` stands right before its value or the end: libyaml reads a pair,
# and so does ruamel as the engine's rules make it read (`yaml_engine_rules`; it read a plain scalar `:…`
# and refused the text); a space after the `:`, or a flow mapping of its own, both read as a pair.
ADJACENT_VALUES = [
    '{doc: [[], [0, on], {\'\': 0, \'00\': {\'\': null, "00\\x1F\\x1F": on, "0000\\x1F": false},\n00;: []}, '
    '{\'\': null, "0000\\0": null, 00;: 0}:]}\n',
    "[{a: 1}:]", '["a":]', "['a':,]", '["a" :]', '["a":x]', "[[a]:]", '[? "a":]', '[a: 1, "b":]', '["a":[1]]',
    '["a":{}]', "[&x 'a':]", '[{a: 1}:x]', '[{a: 1}: x]', '["a": ]', '["a":\n]', '[{"a":x}]', '{"a":x}',
    '{"a":}', '[{a: 1}: ]', '[[a]: b]',
]


@pytest.mark.parametrize("text", ADJACENT_VALUES)
def test_a_value_right_after_the_colon_of_a_pair_in_a_flow_sequence_reads_the_same(text):
    assert_same(text)


def test_the_found_text_reads_as_the_engine_reads_it():
    """The text the dumped-values property found (issue 25): the fast path gave a value, ruamel none. The
    engine's libyaml reads it (a `:` in a flow collection is a value indicator), and so does ruamel now
    (issue 30, `yaml_engine_rules`): the last item is a pair whose key is a mapping, kept apart, which the
    engine refuses where it reads a string key (`invalid type: map, expected a string key`)."""
    parsed = parse_yaml(ADJACENT_VALUES[0])
    assert parsed.ok and not parsed.problems
    assert parsed.value["doc"][3] == {}
    assert parsed.source_map.node("/doc/3").complex == [((93, 127), "map")]


def test_the_fast_path_still_answers_for_compact_json():
    """Only a pair in a flow sequence is left to ruamel: a JSON text (`"a":1`) is read by libyaml."""
    for text in ['{"a":1,"b":[{"c":"d"},{"e":[]}]}', '[{"a":1}, {"b":{"c":2}}]']:
        assert isinstance(yaml_libyaml.compose(text, 64, yaml_source.core_tag), tuple), text
        assert_same(text)


# ---- empty values: libyaml answers, with ruamel's marks ----------------------------------------------

EMPTY_VALUES = [
    "a:\nb: 1\n", "a:   \nb: 1\n", "a: # c\n  # d\nb: 1\n", "a:\n", "a:", "x:\n\n\n", "a:\n  b:\n  c: 1\n",
    "a:\n  b:\nc: 1\n", "a:\n? b\n: c\n", "a:\n...\n", "a:\n---\nb:\n", "a:\r\nb:\r\n", "- \n- x\n", "a:\n  - \n  -\n",
    "a:\n- \n-\nb:\n", "{a: , b: }", "{a:  }", "[a: , b: ]", "{a: # c\n, b}", "- a:\n- b:\n  c:\n", "a: {b: [c: ]}\n",
    "s:\n  x:\n    on:\n      go:\n  y: {}\n",
]


@pytest.mark.parametrize("text", EMPTY_VALUES)
def test_empty_values_read_the_same(text):
    assert_same(text)


@pytest.mark.parametrize("text", ["a:\nb: 1\n", "a:\n  b:\n  c: 1\n", "a:\n? b\n: c\n", "- \n- x\n", "{a: , b: }",
                                  "statuses:\n  ready:\n    stored_as:\n  done: {}\n"])
def test_the_fast_path_answers_for_an_empty_value(text):
    """A half-typed `key:` no longer sends a whole document to the pure-Python reader (issue 15: the
    server reads the workflow on every keystroke)."""
    assert isinstance(yaml_libyaml.compose(text, 64, yaml_source.core_tag), tuple)


# ---- broken text: ruamel's complaint found without the lines libyaml says it may skip ----------------

def _workflow(statuses: int) -> str:
    """A workflow with block mappings and sequences of several entries at every level (the cuts
    happen there), comments, blank lines, block scalars and an explicit key."""
    out = ["# a workflow\ndescription: Build, then review — é 🚀.\nparams: {failure_limit: 3}\n",
           "roles:\n  implementer: card.assignee\n  reviewer: \"'reviewer'\"\n  other: x\n",
           "initial:\n  - target: s0_ready\n  - target: s1_ready\n    guard: card.x\n  - {target: s2_ready}\n",
           "statuses:\n"]
    for n in range(statuses):
        out.append(f"""  s{n}_ready:
    stored_as: ready
    on:
      start: [{{target: s{n}_building}}]
  s{n}_building:
    stored_as: running
    run: {{role: implementer, session: implementer}}

    on:
      handed_off: [{{target: s{n}_review}}]
      failed:
        - guard: card.failures < params.failure_limit
          target: s{n}_ready
        - target: s{n}_blocked
        -
          target: s{n}_ready
        - target: s{n}_done
  s{n}_review:
    stored_as: review   # a comment
    exit:
      - close_session: reviewer
      - close_session: implementer
      - {{close_session: other}}
    ? on
    : approve: [{{by: [reviewer], target: s{n}_done}}]
      request_changes:
        - by: [reviewer]
          target: s{n}_building
  s{n}_blocked:
    stored_as: blocked
    note: |
      Blocked {n}: on, off, yes stay strings.
      "quoted" 'single'
  s{n}_done: {{stored_as: done}}
""")
    out.append("dispatch:\n  tick: 30\n  capacity:\n    - {name: two, scope: board, counts: runs, max: 2}\n"
               "    - name: three\n      max: 3\n    - name: four\n      max: 4\n")
    return "".join(out)


WORKFLOW = _workflow(4)
_LINES = WORKFLOW.splitlines(keepends=True)
TYPOS = ["stor", "x: [a", "x: {a: 1", "x: 'q", 'x: "q', "x: a: b", "- ", "x:", "]", "}", "? y", ": z", "- a: [",
         "x: *al", "x: |", "x: >\n   y", "- b", "#c", "---", "...", "x: @", "x: `", "x: !t", "{", "[x:]", "- - ",
         "a\n b:", "x: -", ",", "x:: y", "'", "x: [a, b,", "x: {a: }", "|", "- [", "x: &a", "x: 'a\n  b"]


@settings(max_examples=250, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.integers(0, len(_LINES)), st.integers(0, 5), st.sampled_from(TYPOS), st.integers(0, 3))
@example(104, 2, "x:", 1)  # `? x:` then the outer `:`: the key mapping's empty value ends at the block's end
def test_a_typo_anywhere_in_a_workflow_reads_the_same(line, indent, typo, how):
    """A new line, a line's end replaced, a line cut short, or a character typed mid-line."""
    before, after = "".join(_LINES[:line]), "".join(_LINES[line:])
    if how == 0:
        text = before + "  " * indent + typo + "\n" + after
    elif how == 1 and after:
        first, rest = after.split("\n", 1) if "\n" in after else (after, "")
        text = before + first[: max(0, len(first) - len(typo))] + typo + "\n" + rest
    elif how == 2:
        text = before + after[: indent * 3]
    else:
        text = before + after[:indent * 2] + typo[:1] + after[indent * 2:]
    assert_same(text)


def test_a_broken_large_workflow_is_not_read_whole_by_ruamel(monkeypatch):
    """A complaint in the middle of a large workflow: ruamel reads it without the complete statuses
    before it (what libyaml read), and still says what it says about the whole text."""
    text = _workflow(60)
    at = text.index("  s40_review:")
    broken = text[:at] + "  s40_rev\n" + text[at:]
    read = []
    real = yaml_source._compose
    monkeypatch.setattr(yaml_source, "_compose", lambda t, *a, **k: read.append(len(t)) or real(t, *a, **k))
    parsed = parse_yaml(broken)
    monkeypatch.undo()
    assert read and max(read) < len(broken) - at + 2_000  # what follows the complaint, and a status or two
    assert _picture(parsed) == _picture(_reference(broken))
    assert parsed.problems[0].code == "E_SYNTAX" and parsed.problems[0].span[0] > at
