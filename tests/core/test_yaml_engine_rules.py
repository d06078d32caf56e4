"""The YAML reader reads tabs, later byte-order marks and empty keys as the engine's libyaml does (issue 30
items 2-4; workflow.md §0 "The engine's reader decides"). Each expectation here is what the engine oracle
answers for the same text (tests/core/test_engine_typing.py asks it); these run without it."""

from __future__ import annotations

import pytest

from grooph_core.source.yaml_reader import parse_yaml


def _read(text: str):
    parsed = parse_yaml(text)
    return parsed.value, [(p.code, p.message) for p in parsed.problems]


@pytest.mark.parametrize("text, value", [
    ("stored_as:\tready\n", {"stored_as": "ready"}),  # a tab after a key's colon
    ("key\t: x\n", {"key": "x"}),  # before the colon
    ("target: re\tady\n", {"target": "re\tady"}),  # inside a plain scalar: kept
    ("a: {targ\tet: x}\n", {"a": {"targ\tet": "x"}}),  # inside a flow mapping's key
    ("a: [x,\ty]\n", {"a": ["x", "y"]}),
    ("a: b\t# c\n", {"a": "b"}),  # before a comment
    ("a: b\t\nc: d\n", {"a": "b", "c": "d"}),  # at the end of a line
    ("a: 'x'\t\n", {"a": "x"}),
    ("a:\n  b: one\n   \ttwo\n", {"a": {"b": "one two"}}),  # on a scalar's next line, right of its indentation
])
def test_a_tab_inside_a_line_is_white_space(text, value):
    assert _read(text) == (value, [])


@pytest.mark.parametrize("text, message", [
    ("a:\n\tb: 1\n", "found character '\\t' that cannot start any token"),  # indentation
    ("- a\n-\tb\n", "found character '\\t' that cannot start any token"),  # after `-`
    ("a:\n  b: one\n\ttwo\n", "found a tab character that violates indentation"),  # a next line's indentation
])
def test_a_tab_as_indentation_is_refused(text, message):
    value, problems = _read(text)
    assert [c for c, _ in problems] == ["E_SYNTAX"]
    assert problems[0][1].startswith(message)


@pytest.mark.parametrize("text, value", [
    ("a: x\n\ufeff\nb: y\n", {"a": "x", "b": "y"}),  # alone on a line
    ("a: x\n\ufeff# c\nb: y\n", {"a": "x", "b": "y"}),  # before a comment
    ("a: [x,\n\ufeff y]\n", {"a": ["x", "y"]}),  # before a token in a flow collection
    ("a:\n  \ufeffb: x\n", {"a": {"\ufeffb": "x"}}),  # after a line's indentation: part of the key
])
def test_a_byte_order_mark_on_a_later_line_is_read_as_libyaml_reads_it(text, value):
    assert _read(text) == (value, [])


@pytest.mark.parametrize("text", ["a: 1\n\ufeffb: 2\n", "a:\n  x: 1\n\ufeff  y: 2\n"])
def test_a_byte_order_mark_before_a_later_key_takes_a_column_and_is_refused(text):
    """The engine skips the mark but counts it: the key stands one column in ("did not find expected key")."""
    value, problems = _read(text)
    assert [c for c, _ in problems] == ["E_SYNTAX"]


@pytest.mark.parametrize("text, message", [
    ("statuses:\n  : {}\n  ready: {}\n", "did not find expected key (while parsing a block mapping)"),
    ("statuses:\n  :\n", "did not find expected key (while parsing a block mapping)"),
    (": 5\n", "did not find expected key (while parsing a block mapping)"),
    ("roles: {: x}\n", "did not find expected node content (while parsing a flow node)"),
    ("roles: {a: x, : y}\n", "did not find expected node content (while parsing a flow node)"),
])
def test_a_mapping_entry_without_a_key_is_refused(text, message):
    assert _read(text)[1] == [("E_SYNTAX", message)]


@pytest.mark.parametrize("text, value", [
    ("statuses:\n  '': {}\n", {"statuses": {"": {}}}),  # a quoted empty key is a key
    ("statuses:\n  ? \n  : {}\n", {"statuses": {"": {}}}),  # an explicit empty key too
    ("roles: {'': x}\n", {"roles": {"": "x"}}),
])
def test_an_empty_key_written_as_one_is_read(text, value):
    assert _read(text) == (value, [])


def test_a_tab_typed_before_a_status_key_leaves_out_that_status_alone_while_typing():
    """The tab's line is the fault (not the scalar above it, which the complaint names as its context)."""
    text = "statuses:\n  one:\n    x: 1\n    y: 2\n\ttwo:\n    x: 3\n  three: {x: 4}\n"
    parsed = parse_yaml(text, recover=True)
    assert parsed.value == {"statuses": {"one": {"x": 1, "y": 2}, "three": {"x": 4}}}
    assert [p.code for p in parsed.problems] == ["E_SYNTAX"]


@pytest.mark.parametrize("text, value", [
    ("a: {tick: !!str, b: x}\n", {"a": {"tick": "", "b": "x"}}),  # a tag right before a flow collection's `,`
    ("a: !!str\tx\n", {"a": "x"}),  # before a tab
    ("a:\n  &working: {}\n  b: x\n", {"a": {"": {}, "b": "x"}}),  # an anchor's name ends before its `:`
    ('a: ["b":x]\n', {"a": [{"b": "x"}]}),  # a `:` in a flow collection is a value indicator
    ("a: {x:y}\n", {"a": {"x:y": None}}),  # inside a plain scalar, before a letter, it is the scalar's
])
def test_tags_anchors_and_a_flow_collections_colon_read_as_libyaml_reads_them(text, value):
    assert _read(text) == (value, [])


@pytest.mark.parametrize("text", ["a: {target:, x}\n", "a: {target:? x}\n", "a: [b:]]\n", "a: {x:[y]}\n"])
def test_a_plain_scalars_colon_before_a_flow_indicator_is_refused(text):
    assert _read(text)[1] == [("E_SYNTAX", "found unexpected ':' (while scanning a plain scalar)")]
