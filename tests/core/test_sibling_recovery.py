"""The tolerant reader keeps every sound sibling (issue 13; json_recovery's docstring): inside an array, an
object never closed ends where the next sibling object starts or at the array's `]` (jsonc-parser's
recovery); a stray character is skipped; only the broken object is marked as cut."""

from __future__ import annotations

import pytest

from grooph_core.source.json_reader import parse
from grooph_core.source.yaml_reader import parse_yaml


def _read(text: str):
    parsed = parse(text)
    return parsed.value, [(p.message, tuple(p.span)) for p in parsed.problems if p.code == "E_SYNTAX"], \
        list(parsed.broken)


def test_an_object_cut_by_its_next_sibling_after_a_comma():
    text = '[{"a": 1, {"b": 2}]'
    value, problems, broken = _read(text)
    assert value == [{"a": 1}, {"b": 2}]
    assert problems == [("unclosed object started at line 1 (the next item starts at line 1)", (8, 8))]
    assert broken == ["/0"]


def test_an_object_cut_by_its_next_sibling_without_a_comma():
    """Both the `}` and the `,` are missing: one fault, one report."""
    value, problems, broken = _read('[{"a": 1 {"b": 2}]')
    assert value == [{"a": 1}, {"b": 2}]
    assert [m for m, _ in problems] == ["unclosed object started at line 1 (the next item starts at line 1)"]
    assert broken == ["/0"]


def test_nested_objects_cut_by_the_next_sibling_all_close():
    text = '[{"a": {"x": 1,\n {"b": 2}]'
    value, problems, broken = _read(text)
    assert value == [{"a": {"x": 1}}, {"b": 2}]
    assert [m for m, _ in problems] == ["unclosed object started at line 1 (the next item starts at line 2)"] * 2
    assert {s for _, s in problems} == {(14, 14)}
    assert broken == ["/0/a", "/0"]


def test_siblings_after_the_cut_keep_their_indices_and_spans():
    text = '{"nodes": [{"id": "a"}, {"id": "b",\n {"id": "c"}, {"id": "d"}]}'
    parsed = parse(text)
    assert parsed.value == {"nodes": [{"id": "a"}, {"id": "b"}, {"id": "c"}, {"id": "d"}]}
    assert list(parsed.broken) == ["/nodes/1"]
    assert text[slice(*parsed.source_map.value_span("/nodes/3/id"))] == '"d"'
    # the cursor right after the cut object's last comma still counts as inside it (completion)
    assert parsed.source_map.enclosing_object(text.index('\n')) == "/nodes/1"


def test_an_object_cut_by_the_arrays_closer_leaves_the_array_sound():
    value, problems, broken = _read('{"nodes": [{"id": "a"}, {"id": "b", ]}')
    assert value == {"nodes": [{"id": "a"}, {"id": "b"}]}
    assert [m for m, _ in problems] == ["unclosed object started at line 1 (closed by ']' at line 1)"]
    assert broken == ["/nodes/1"]


def test_an_array_cut_by_an_objects_closer_is_still_a_guess():
    value, problems, broken = _read('{"a": {"b": [1, 2 }, "c": 3}')
    assert value == {"a": {"b": [1, 2]}, "c": 3}
    assert broken == ["/a/b", "/a"]


def test_outside_an_array_a_brace_where_a_key_belongs_is_still_an_error_there():
    value, problems, broken = _read('{"a": 1, {"b": 2}}')
    assert problems[0][0] == "expected a key in double quotes"
    assert broken == [""]


@pytest.mark.parametrize("text, value", [
    ('{"a": 1, # "b": 2}', {"a": 1, "b": 2}),
    ('{"a": 1 ; , "b": 2}', {"a": 1, "b": 2}),
    ('[1 % , 2]', [1, 2]),
])
def test_a_stray_character_is_skipped_and_nothing_is_in_doubt(text, value):
    got, problems, broken = _read(text)
    assert got == value
    assert len(problems) == 1 and problems[0][0].startswith("unexpected character")
    assert broken == []


def test_a_stray_character_where_a_value_belongs_still_makes_that_value_unreadable():
    got, problems, broken = _read('{"a": @, "b": 2}')
    assert got == {"b": 2} and broken == ["/a"]


@pytest.mark.parametrize("typed", ['"na', '"name"'])
def test_a_key_being_typed_at_the_end_of_its_line_does_not_take_the_next_item(typed):
    text = '[{"id": "a", ' + typed + '\n {"id": "b"}]'
    value, problems, broken = _read(text)
    assert value == [{"id": "a"}, {"id": "b"}]
    assert problems[-1][0] == "unclosed object started at line 1 (the next item starts at line 2)"
    assert broken[-1] == "/0"


def test_a_key_without_its_colon_before_an_object_on_the_same_line_is_still_that_keys_value():
    value, problems, _ = _read('[{"id": "a", "model" {"tier": "fast"}}]')
    assert value == [{"id": "a", "model": {"tier": "fast"}}]
    assert [m for m, _ in problems] == ['missing colon after key "model"']


# ---- the end of the text (issue 21 item 3) -----------------------------------------------------------


def test_the_containers_a_json_text_ends_inside_are_listed_outermost_first():
    parsed = parse('{"nodes": [{"id": "a"}, {"id": "b", "na')
    assert parsed.open_at_end == ("", "/nodes", "/nodes/1")
    assert parse('{"nodes": [{"id": "a"}]}').open_at_end == ()
    # a container closed by a closer of the other kind is cut, but the text does not end inside it
    assert parse('{"a": [1, 2 }').open_at_end == ()


def _yaml(text: str):
    return parse_yaml(text, recover=True)


def test_a_yaml_text_ends_inside_the_block_collections_that_hold_its_last_line():
    assert _yaml("a: 1\nb:\n  c:\n    - x\n").open_at_end == ("", "/b", "/b/c")
    assert _yaml("a: 1\nb:\n  c: {x: 1}\n").open_at_end == ("", "/b")
    assert _yaml("b:\n  c: 1\na: 1\n").open_at_end == ()  # its last line is at the top level
    assert _yaml("a: [1, 2]\n").open_at_end == ()


MAPPING = "top:\n  one:\n    x: 1\n    y: 2\n  two:\n    x: 3\n  three: {x: 4}\nlast: 5\n"


@pytest.mark.parametrize("slip, left_out", [
    (("  two:\n", "\ttwo:\n"), "\ttwo:\n    x: 3"),  # a tab where the key's indentation belongs
    (("  two:\n", " two:\n"), " two:\n    x: 3"),  # the key dedented by a column
    (("  two:\n", "   two:\n"), "   two:\n    x: 3"),  # the key indented by a column
    (("    y: 2\n", "\ty: 2\n"), "\ty: 2"),  # a tab before a scalar member: that line alone
])
def test_a_yaml_slip_leaves_out_its_entry_with_its_block_and_keeps_the_siblings(slip, left_out):
    text = MAPPING.replace(*slip, 1)
    parsed = _yaml(text)
    cut = [text[a:b] for p in parsed.problems if p.code == "E_SYNTAX" for a, b in p.facts.cut]
    assert cut == [left_out]
    kept = {"one": {"x": 1, "y": 2}, "two": {"x": 3}, "three": {"x": 4}}
    if "two" in left_out:
        del kept["two"]
    else:
        del kept["one"]["y"]
    assert parsed.value == {"top": kept, "last": 5}


def test_a_yaml_slip_on_a_key_with_nothing_deeper_below_leaves_out_that_line_alone():
    """The key indented by a column has no block: the line below stands where its siblings do."""
    text = "top:\n  one:\n    x: 1\n   two:\n  three: {x: 4}\nlast: 5\n"
    parsed = _yaml(text)
    assert [text[a:b] for p in parsed.problems for a, b in p.facts.cut] == ["   two:"]
    assert parsed.value == {"top": {"one": {"x": 1}, "three": {"x": 4}}, "last": 5}
