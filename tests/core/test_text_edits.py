"""Value changes become small text edits that keep every other byte as the user wrote it."""

from __future__ import annotations

import json

from hypothesis import given, settings, strategies as st

from grooph_core.ide.text_edits import TextEdit, apply_edits, line_edits, render, same, value_edits
from grooph_core.source.json_reader import parse

TEXT = """{
    "grooph": 0,  "id": "g",
    "name": "G",
    "version": 1,
    "nodes": [
        {"id": "w", "kind": "agent", "name": "W", "role": "builder", "brief": "Do it.", "outputs": ["out.txt"]},
        {"id": "end", "kind": "stop", "name": "End"}
    ],
    "edges": [{"id": "e1", "from": "w", "to": "ghost"}],
    "loops": [],
    "x-note": {"keep": [1, 2.5, "three"]}
}
"""


def _edit(new_value):
    parsed = parse(TEXT)
    edits = value_edits(TEXT, parsed.source_map, parsed.value, new_value)
    assert edits is not None
    out = apply_edits(TEXT, edits)
    assert json.loads(out) == new_value
    return edits, out


def test_changing_one_string_touches_only_that_string():
    v = json.loads(TEXT)
    v["edges"][0]["to"] = "end"
    edits, out = _edit(v)
    assert len(edits) == 1
    assert out == TEXT.replace('"to": "ghost"', '"to": "end"')


def test_adding_a_member_keeps_the_users_layout():
    v = json.loads(TEXT)
    v["goal"] = "Ship it."
    edits, out = _edit(v)
    assert out.startswith(TEXT[: TEXT.index('"x-note"')])
    assert '"goal": "Ship it."' in out


def test_removing_an_item_removes_its_separator():
    v = json.loads(TEXT)
    del v["nodes"][1]
    _, out = _edit(v)
    assert '"id": "end"' not in out
    json.loads(out)


def test_removing_a_member_in_the_middle():
    v = json.loads(TEXT)
    del v["name"]
    _, out = _edit(v)
    assert '"name": "G"' not in out and '"version": 1' in out


def test_renamed_key_is_a_key_edit():
    text = '{"layout": {"w": {"x": 1, "y": 2}, "end": {"x": 3, "y": 4}}}'
    parsed = parse(text)
    new = {"layout": {"worker": {"x": 1, "y": 2}, "end": {"x": 3, "y": 4}}}
    edits = value_edits(text, parsed.source_map, parsed.value, new)
    assert edits == [TextEdit(text.index('"w"'), text.index('"w"') + 3, '"worker"')]


def test_true_is_not_one():
    assert not same(True, 1)
    assert not same({"a": [1]}, {"a": [True]})
    assert same({"a": 1.0}, {"a": 1})


def test_render_writes_numbers_as_ecmascript():
    assert render({"a": [1e16, 1.5, True, None]}, "") == '{\n  "a": [\n    10000000000000000,\n    1.5,\n    true,\n    null\n  ]\n}'


def test_line_edits_replace_only_changed_lines():
    old = "a\nb\nc\nd\n"
    new = "a\nB\nc\nd\n"
    assert line_edits(old, new) == [TextEdit(2, 4, "B\n")]
    assert apply_edits(old, line_edits(old, new)) == new


def test_line_edits_respect_cr_and_crlf():
    old = "a\r\nb\rc\n"
    new = "a\r\nX\rc\n"
    edits = line_edits(old, new)
    assert apply_edits(old, edits) == new
    assert all(e.start >= 3 for e in edits)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.text(max_size=8),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=5), children, max_size=4),
    max_leaves=20,
)


@settings(max_examples=200, deadline=None)
@given(json_values, json_values)
def test_value_edits_either_give_exactly_the_new_value_or_refuse(old, new):
    text = json.dumps(old, indent=3, ensure_ascii=False)
    parsed = parse(text)
    edits = value_edits(text, parsed.source_map, parsed.value, new)
    if edits is not None:
        assert same(json.loads(apply_edits(text, edits)), new)


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet="ab\n\r", max_size=30), st.text(alphabet="ab\n\r", max_size=30))
def test_line_edits_always_reproduce_the_new_text(old, new):
    assert apply_edits(old, line_edits(old, new)) == new
