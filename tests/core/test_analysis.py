"""The editor's tolerant analysis (issue 3 item 3): a syntax or schema fault in one place must not
hide a fault elsewhere, and must not produce nonsense about the objects it broke."""

from __future__ import annotations

import json

import pytest

from grooph_core.ide.grooph.analysis import analyze
from grooph_core.source.line_index import LineIndex

W = {"id": "w", "kind": "agent", "name": "W", "role": "builder", "brief": "Do it.", "outputs": ["out.txt"], "allow": ["edit-files"]}
X = {"id": "x", "kind": "agent", "name": "X", "role": "builder", "brief": "Also.", "outputs": ["x.txt"], "allow": ["edit-files"]}
END = {"id": "end", "kind": "stop", "name": "End"}
DOC = {"grooph": 0, "id": "g", "name": "G", "version": 1, "nodes": [W, X, END],
       "edges": [{"id": "e1", "from": "w", "to": "x"}, {"id": "e2", "from": "x", "to": "end"}, {"id": "e3", "from": "w", "to": "ghost"}],
       "loops": []}
TEXT = json.dumps(DOC, indent=2) + "\n"


def _codes(a):
    return [i.code for i in a.issues]


def _token(a, issue):
    s, e = a.span(issue)
    return a.text[s:e]


# (what breaks, how the text is broken, the text the syntax error points at)
BREAKS = [
    ("missing comma", lambda t: t.replace('"name": "X",', '"name": "X"', 1), '"X"'),
    ("missing colon", lambda t: t.replace('"brief": "Also."', '"brief" "Also."', 1), '"Also."'),
    ("trailing comma", lambda t: t.replace('"x.txt"\n', '"x.txt",\n', 1), ","),
    ("bad literal", lambda t: t.replace('"allow": [\n        "edit-files"\n      ]\n    },\n    {\n      "id": "end"',
                                         '"allow": tru\n    },\n    {\n      "id": "end"', 1), "tru"),
    ("leading zero", lambda t: t.replace('"name": "X",', '"name": "X", "n": 01,', 1), "01"),
    ("NaN", lambda t: t.replace('"name": "X",', '"name": "X", "n": NaN,', 1), "NaN"),
    ("bad escape", lambda t: t.replace('"Also."', '"Al\\qso."', 1), "\\q"),
    ("comment", lambda t: t.replace('"name": "X",', '"name": "X", // note', 1), "// note"),
]


@pytest.mark.parametrize("name,breaker,token", BREAKS, ids=[b[0] for b in BREAKS])
def test_syntax_error_in_node_x_keeps_the_dangling_edge_elsewhere(name, breaker, token):
    text = breaker(TEXT)
    assert text != TEXT
    a = analyze(text, name="g.grooph.json")
    syntax = [i for i in a.issues if i.code == "E_SYNTAX"]
    assert syntax, _codes(a)
    s, e = a.span(syntax[0])
    assert token in a.text[s - 12: e + 12], (_token(a, syntax[0]), syntax[0].message)
    dangling = [i for i in a.issues if i.code == "E_DANGLING_REF"]
    assert [_token(a, i) for i in dangling] == ['"ghost"']
    # node x lies in the broken region: nothing may call it unreachable or an orphan
    assert "W_UNREACHABLE_NODE" not in _codes(a)
    assert "E_DANGLING_REF" not in [i.code for i in a.issues if '"x"' in _token(a, i)]


def test_unterminated_string_reports_at_its_start_and_keeps_earlier_parts():
    text = TEXT.replace('"to": "ghost"', '"to": "ghost', 1)
    a = analyze(text, name="g.grooph.json")
    syntax = [i for i in a.issues if i.code == "E_SYNTAX"]
    assert syntax and "unterminated" in syntax[0].message
    line, _ = LineIndex(text).position(a.span(syntax[0])[0])
    assert line == text[: text.index('"ghost')].count("\n")


def test_unbalanced_braces_and_empty_document():
    a = analyze(TEXT.rstrip()[:-1], name="g.grooph.json")
    assert "E_SYNTAX" in _codes(a)
    assert "E_DANGLING_REF" in _codes(a)
    assert _codes(analyze("", name="g.grooph.json")) == ["E_SYNTAX"]
    assert _codes(analyze("   \n", name="g.grooph.json")) == ["E_SYNTAX"]


def test_schema_failure_in_one_node_leaves_it_out_of_the_rules():
    doc = json.loads(TEXT)
    doc["nodes"][1]["outputs"] = []  # x fails the schema (E_SCHEMA); the rest is sound
    a = analyze(json.dumps(doc, indent=2), name="g.grooph.json")
    assert _codes(a) == ["E_SCHEMA", "E_DANGLING_REF"]
    assert _token(a, a.issues[1]) == '"ghost"'
    # edges into x are not reported as dangling: x exists, it was only left out
    strict = analyze(json.dumps(doc, indent=2), name="g.grooph.json", tolerant=False)
    assert _codes(strict) == ["E_SCHEMA"]  # the reference stops at the schema failure


def test_duplicate_keys_are_reported_on_both_copies():
    text = TEXT.replace('"name": "X",', '"name": "X", "name": "Y",', 1)
    a = analyze(text, name="g.grooph.json")
    dups = [i for i in a.issues if i.code == "W_DUPLICATE_KEY"]
    assert len(dups) == 2
    assert {_token(a, i) for i in dups} == {'"name"'}
    assert len({a.span(i) for i in dups}) == 2


def test_several_top_level_values_and_bom():
    a = analyze(TEXT + "{}", name="g.grooph.json")
    assert "E_SYNTAX" in _codes(a) and "E_DANGLING_REF" in _codes(a)
    a = analyze("\ufeff" + TEXT, name="g.grooph.json")
    assert "E_SYNTAX" in _codes(a) and "E_DANGLING_REF" in _codes(a)


def test_number_beyond_two_to_the_53_is_warned_not_rewritten():
    text = TEXT.replace('"version": 1', '"version": 12345678901234567890', 1)
    a = analyze(text, name="g.grooph.json")
    assert "W_NUMBER_PRECISION" in _codes(a)
    from grooph_core.ide.grooph.formatting import format_edits
    from grooph_core.ide.refused import Refused

    assert isinstance(format_edits(a), Refused)


def test_map_with_a_broken_session_keeps_the_handoff_rules():
    m = {"groophMap": 0, "id": "m", "name": "M", "version": 1,
         "lanes": [{"id": "lap", "name": "L", "machine": "a laptop", "account": "me"}],
         "sessions": [{"id": "a", "name": "A", "lane": "lap", "harness": "codex", "role": "r"},
                      {"id": "b", "name": "B", "lane": "lap", "harness": "codex"}],
         "handoffs": [{"id": "h1", "from": "a", "to": "b"}, {"id": "h2", "from": "a", "to": "nobody", "carrier": {"kind": "session-message"}}]}
    a = analyze(json.dumps(m, indent=2), name="m.grooph-map.json")
    codes = _codes(a)
    assert codes[0] == "E_SCHEMA"  # session b has no role
    assert "E_DANGLING_REF" in codes and "E_HANDOFF_NO_CARRIER" in codes
    assert all(_token(a, i) != '"b"' for i in a.issues if i.code == "E_DANGLING_REF")


def test_a_value_cut_by_the_syntax_error_is_not_also_a_missing_field():
    text = TEXT.replace('"brief": "Also.",', '"brief": ,', 1)
    a = analyze(text, name="g.grooph.json")
    assert "E_SYNTAX" in _codes(a)
    assert not [i for i in a.issues if i.code == "E_SCHEMA" and "brief" in i.message]
    assert "E_DANGLING_REF" in _codes(a)
