"""source.parse: value, syntax problems at exact spans, recovery, source map (issue 3 items 1-3, 6;
graph.md §0.5 numbers, §3.2 editor diagnostics, §9 "Parsing"; DESIGN.md "Positions").

Ranges are checked as LSP would show them: 0-based (line, UTF-16 column) through LineIndex.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from grooph_core.source.json_reader import CLI_MAX_DEPTH, MAX_DEPTH, ParsedText, parse, parse_strict
from grooph_core.source.line_index import LineIndex
from grooph_core.source.text import pointer_join
from grooph_core.source.yaml_reader import parse_yaml

# ---------------------------------------------------------------------------------------------
# helpers


def rng(text: str, span) -> tuple[int, int, int, int]:
    """(start line, start col, end line, end col), UTF-16 columns."""
    return LineIndex(text).range(*span)


def syntax(parsed: ParsedText) -> list:
    return [p for p in parsed.problems if p.code == "E_SYNTAX"]


def only_syntax(text: str):
    """The one E_SYNTAX problem of `text` (the test text has exactly one fault)."""
    parsed = parse(text)
    probs = syntax(parsed)
    assert len(probs) == 1, [p.message for p in probs]
    assert not parsed.ok
    return parsed, probs[0], rng(text, probs[0].span)


def pointers(v, base=""):
    yield base
    if isinstance(v, dict):
        for k, x in v.items():
            yield from pointers(x, pointer_join(base, k))
    elif isinstance(v, list):
        for i, x in enumerate(v):
            yield from pointers(x, pointer_join(base, i))


def get(v, pointer):
    from grooph_core.source.text import pointer_split

    for s in pointer_split(pointer):
        v = v[s] if isinstance(v, dict) else v[int(s)]
    return v


def graph_text(n_nodes: int = 7, n_edges: int = 4) -> str:
    """A pretty-printed graph document like a user's (one node/edge per line block)."""
    nodes = [
        {"id": f"n{i}", "kind": "agent", "name": f"N{i}", "role": "builder", "brief": "Do it.", "outputs": ["o.md"]}
        for i in range(n_nodes)
    ]
    edges = [{"id": f"e{i}", "from": f"n{i}", "to": f"n{i + 1}"} for i in range(n_edges)]
    edges[2]["to"] = "ghost"  # a dangling reference the pipeline must still see
    doc = {"grooph": 0, "id": "g", "name": "G", "version": 1, "nodes": nodes, "edges": edges, "loops": []}
    return json.dumps(doc, indent=2)


# ---------------------------------------------------------------------------------------------
# valid text: JSON.parse semantics, fast path


def test_valid_text_gives_exactly_the_strict_value_and_no_problems():
    text = graph_text()
    parsed = parse(text)
    assert parsed.ok and parsed.problems == () and parsed.broken == ()
    assert parsed.value == json.loads(text)


def test_every_pointer_of_a_valid_document_resolves_to_its_own_text():
    text = graph_text()
    parsed = parse(text)
    for p in pointers(parsed.value):
        s, e = parsed.source_map.value_span(p)
        assert json.loads(text[s:e]) == get(parsed.value, p), p
        ks = parsed.source_map.key_span(p)
        if p and isinstance(get(parsed.value, p[: p.rfind("/")]), dict):
            assert ks is not None and text[ks[0]] == '"' and json.loads(text[ks[0] : ks[1]]) == p.split("/")[-1]
        else:
            assert ks is None


def test_spans_of_edges_2_in_a_valid_document():
    text = graph_text()
    parsed = parse(text)
    s, e = parsed.source_map.value_span("/edges/2/to")
    assert text[s:e] == '"ghost"'
    ks = parsed.source_map.key_span("/edges/2/to")
    assert text[ks[0] : ks[1]] == '"to"'


def test_pointer_segments_are_unescaped_and_bad_pointers_give_none():
    text = '{"a/b": {"m~n": [10, 20]}, "": 3}'
    sm = parse(text).source_map
    s, e = sm.value_span("/a~1b/m~0n/1")
    assert text[s:e] == "20"
    assert text[slice(*sm.value_span("/"))] == "3"
    assert sm.key_span("/a~1b/m~0n/1") is None  # array item
    assert sm.key_span("") is None
    for bad in ("/a~1b/m~0n/2", "/a~1b/m~0n/01", "/a~1b/m~0n/-1", "/zz", "a", "/a~1b/m~0n/0/x"):
        assert sm.value_span(bad) is None, bad
        assert sm.key_span(bad) is None, bad


def test_root_span_excludes_surrounding_whitespace():
    text = '  \n {"a": 1} \r\n'
    sm = parse(text).source_map
    assert text[slice(*sm.value_span(""))] == '{"a": 1}'


def test_nan_and_infinity_are_rejected_where_python_json_would_accept_them():
    assert json.loads("[NaN]")  # Python accepts it ...
    parsed = parse('[1, NaN, -Infinity, 3]')  # ... JSON.parse does not (graph.md §0.5)
    msgs = [p.message for p in syntax(parsed)]
    assert msgs == ["NaN is not JSON", "-Infinity is not JSON"]
    assert parsed.value == [1, None, None, 3]  # indices after the bad items are stable
    assert parsed.broken == ("/1", "/2")
    assert rng('[1, NaN, -Infinity, 3]', syntax(parsed)[0].span) == (0, 4, 0, 7)


# ---------------------------------------------------------------------------------------------
# one test per syntax-error kind: exact range, message gist, sound parts recovered


def test_missing_comma_in_node_5_leaves_edge_2_readable_with_correct_spans():
    good = graph_text()
    # remove the comma after node 5's "kind" value
    anchor = good.index('"id": "n5"')
    cut = good.index('"agent",', anchor) + len('"agent"')
    text = good[:cut] + good[cut + 1 :]
    parsed, prob, r = only_syntax(text)
    assert prob.message == "missing comma between object members"
    li = LineIndex(text)
    assert r == li.range(cut, cut)  # an empty range right after "agent": where the comma belongs
    assert r[1] == len('      "kind": "agent"')
    # node 5 itself is recovered whole (the comma is the only guess), and nothing is marked broken
    assert parsed.value["nodes"][5] == json.loads(good)["nodes"][5]
    assert parsed.broken == ()
    # edge 2 is readable, with its dangling reference, at the right place
    assert parsed.value["edges"][2]["to"] == "ghost"
    s, e = parsed.source_map.value_span("/edges/2/to")
    assert text[s:e] == '"ghost"'
    assert li.position(s) == (good[: good.index('"ghost"')].count("\n"), len('      "to": '))


def test_missing_comma_between_array_items():
    text = '{"outputs": ["a.md" "b.md", "c.md"]}'
    parsed, prob, r = only_syntax(text)
    assert prob.message == "missing comma between array items"
    assert r == (0, 19, 0, 19)
    assert parsed.value == {"outputs": ["a.md", "b.md", "c.md"]}
    assert text[slice(*parsed.source_map.value_span("/outputs/2"))] == '"c.md"'


def test_missing_colon_after_key():
    text = '{\n  "name" "Planner",\n  "id": "p"\n}'
    parsed, prob, r = only_syntax(text)
    assert prob.message == 'missing colon after key "name"'
    assert r == (1, 8, 1, 8)
    assert parsed.value == {"name": "Planner", "id": "p"}


def test_missing_colon_and_value_before_the_next_key_drops_only_that_member():
    text = '{"a" "b": 1, "c": 2}'
    parsed, prob, r = only_syntax(text)
    assert prob.message == 'missing colon after key "a"'
    assert r == (0, 4, 0, 4)
    assert parsed.value == {"b": 1, "c": 2}
    assert parsed.broken == ("/a",)
    assert text[slice(*parsed.source_map.key_span("/a"))] == '"a"'


def test_unterminated_string_ends_at_the_end_of_its_line():
    text = '{\n  "name": "Plan,\n  "id": "p"\n}'
    parsed, prob, r = only_syntax(text)  # no follow-on "missing comma" report
    assert prob.message == "unterminated string"
    assert r == (1, 10, 1, 16)
    assert parsed.value == {"name": "Plan,", "id": "p"}
    assert parsed.broken == ("/name",)


def test_unterminated_key_while_typing_does_not_cascade():
    text = '{\n  "id": "x",\n  "na\n  "kind": "agent"\n}'
    parsed, prob, r = only_syntax(text)
    assert prob.message == "unterminated string"
    assert r == (2, 2, 2, 5)
    assert parsed.value == {"id": "x", "kind": "agent"}
    assert parsed.source_map.key_span("/na") == (text.index('"na'), text.index('"na') + 3)


def test_trailing_comma_in_array_and_object():
    text = '{"a": [1, 2,], "b": 3,}'
    parsed = parse(text)
    probs = syntax(parsed)
    assert [p.message.split(" (")[0] for p in probs] == ["trailing comma", "trailing comma"]
    assert [rng(text, p.span) for p in probs] == [(0, 11, 0, 12), (0, 21, 0, 22)]
    assert parsed.value == {"a": [1, 2], "b": 3}
    assert parsed.broken == ()


def test_unclosed_object_at_the_end_of_the_text_names_the_line_it_started_on():
    text = '{\n  "nodes": [\n    {"id": "a",\n     "kind": "stop"'
    parsed = parse(text)
    probs = syntax(parsed)
    assert [p.message for p in probs] == [
        "unclosed object started at line 3",
        "unclosed array started at line 2",
        "unclosed object started at line 1",
    ]
    # each where its closer belongs: right after the last content
    assert {rng(text, p.span) for p in probs} == {(3, 19, 3, 19)}
    assert parsed.value == {"nodes": [{"id": "a", "kind": "stop"}]}
    assert set(parsed.broken) == {"", "/nodes", "/nodes/0"}
    # the cursor at the end is inside the unclosed node (completion)
    assert parsed.source_map.enclosing_object(len(text)) == "/nodes/0"


def test_closer_of_the_wrong_kind_closes_the_inner_container_as_unclosed():
    text = '{"a": [1, 2}, "b": 3'
    parsed = parse(text)
    msgs = [p.message for p in syntax(parsed)]
    assert msgs[0] == "unclosed array started at line 1 (closed by '}' at line 1)"
    assert rng(text, syntax(parsed)[0].span) == (0, 11, 0, 11)
    assert parsed.value["a"] == [1, 2]


def test_unexpected_closing_bracket():
    text = '{"a": 1}\n}'
    parsed, prob, r = only_syntax(text)
    assert prob.message == "unexpected closing bracket '}'"
    assert r == (1, 0, 1, 1)
    assert parsed.value == {"a": 1}


def test_invalid_literal():
    text = '{"approval": tru, "label": "x"}'
    parsed, prob, r = only_syntax(text)
    assert prob.message.startswith('invalid literal "tru"')
    assert "true" in prob.message
    assert r == (0, 13, 0, 16)
    assert parsed.value == {"label": "x"}  # the unreadable member is left out ...
    assert parsed.broken == ("/approval",)  # ... and named, so "missing field" echoes can be dropped
    assert text[slice(*parsed.source_map.value_span("/approval"))] == "tru"


def test_nan_is_not_json():
    text = '{"threshold": NaN}'
    parsed, prob, r = only_syntax(text)
    assert prob.message == "NaN is not JSON"
    assert r == (0, 14, 0, 17)


def test_leading_zeros():
    text = '{"version": 01}'
    parsed, prob, r = only_syntax(text)
    assert prob.message == 'numbers cannot have leading zeros ("01")'
    assert r == (0, 12, 0, 14)
    assert parsed.value == {"version": 1}
    assert parsed.broken == ("/version",)


def test_invalid_escape():
    text = '{"brief": "say \\q here", "id": "a"}'
    parsed, prob, r = only_syntax(text)
    assert prob.message == 'invalid escape "\\q"'
    assert r == (0, 15, 0, 17)
    assert parsed.value == {"brief": "say q here", "id": "a"}


def test_a_short_unicode_escape_is_marked_over_its_backslash_u_and_hex_digits():
    """`\\u` with fewer than four hex digits: the problem covers `\\u` and the digits there are (on a
    line after an emoji, in UTF-16 columns); the string reads on with the escape's text kept."""
    text = '{"brief": "say \\u12x here", "id": "a"}'
    parsed, prob, r = only_syntax(text)
    assert prob.message == 'invalid escape "\\u12" (\\u needs four hex digits)'
    assert r == (0, 15, 0, 19)
    assert parsed.value == {"brief": "say u12x here", "id": "a"}
    assert parsed.broken == ("/brief",)
    text = '{"id": "a",\n "brief": "🚀 \\uzz"}'
    parsed, prob, r = only_syntax(text)
    assert prob.message == 'invalid escape "\\u" (\\u needs four hex digits)'
    assert r == (1, 14, 1, 16)
    assert parsed.value == {"id": "a", "brief": "🚀 uzz"}


def test_comments_are_reported_and_skipped():
    text = '{\n  // the id\n  "id": "a", /* why */ "name": "A"\n}'
    parsed = parse(text)
    probs = syntax(parsed)
    assert [p.message for p in probs] == ["comments are not allowed in JSON"] * 2
    assert [rng(text, p.span) for p in probs] == [(1, 2, 1, 11), (2, 13, 2, 22)]
    assert parsed.value == {"id": "a", "name": "A"}
    assert parsed.broken == ()


def test_more_than_one_top_level_value():
    text = '{"a": 1}\n{"b": [2, 3]}\n'
    parsed, prob, r = only_syntax(text)
    assert prob.message == "more than one top-level value"
    assert r == (1, 0, 1, 13)
    assert parsed.value == {"a": 1}


def test_the_document_is_empty():
    for text in ("", "  \n\t"):
        parsed, prob, r = only_syntax(text)
        assert prob.message == "the document is empty"
        assert parsed.value is None
        assert prob.span == (0, len(text))


def test_byte_order_mark():
    text = '\ufeff{"a": 1}'
    parsed, prob, r = only_syntax(text)
    assert prob.message == "byte-order mark (U+FEFF) at the start is not JSON"
    assert r == (0, 0, 0, 1)
    assert parsed.value == {"a": 1}
    assert text[slice(*parsed.source_map.value_span("/a"))] == "1"


def test_missing_value_for_key():
    text = '{"a": , "b": 2}'
    parsed, prob, r = only_syntax(text)
    assert prob.message == 'missing value for key "a"'
    assert r == (0, 5, 0, 5)
    assert parsed.value == {"b": 2}
    assert parsed.broken == ("/a",)


def test_stray_character_in_an_array_keeps_the_slot():
    text = '["a", @, "c"]'
    parsed, prob, r = only_syntax(text)
    assert prob.message.startswith('unexpected character "@"')
    assert r == (0, 6, 0, 7)
    assert parsed.value == ["a", None, "c"]
    assert text[slice(*parsed.source_map.value_span("/2"))] == '"c"'


def test_control_character_in_a_string():
    text = '{"a": "x\ty"}'
    parsed, prob, r = only_syntax(text)
    assert prob.message == "control character U+0009 must be escaped in a string"
    assert r == (0, 8, 0, 9)
    assert parsed.value == {"a": "x\ty"}


def test_single_quotes_and_unquoted_keys():
    text = "{'a': 'b', c: 1}"
    parsed = parse(text)
    msgs = [p.message for p in syntax(parsed)]
    assert msgs == [
        "keys must be in double quotes, not single quotes",
        "strings must be in double quotes, not single quotes",
        'keys must be strings in double quotes (found "c")',
    ]
    assert parsed.value == {"a": "b", "c": 1}


# ---------------------------------------------------------------------------------------------
# warnings on valid JSON


def test_duplicate_keys_are_reported_on_both_copies():
    text = '{\n  "id": "a",\n  "name": "A",\n  "id": "b"\n}'
    parsed = parse(text)
    assert parsed.ok  # valid JSON: warnings only
    assert parsed.value == {"id": "b", "name": "A"}
    assert list(parsed.value) == ["id", "name"]  # last value, first key's position (JSON.parse)
    dups = [p for p in parsed.problems if p.code == "W_DUPLICATE_KEY"]
    assert len(dups) == 2
    first, second = dups
    assert rng(text, first.span) == (1, 2, 1, 6)
    assert rng(text, second.span) == (3, 2, 3, 6)
    assert "lost" in first.message and "line 4" in first.message
    assert "replaces" in second.message and "line 2" in second.message
    for issue, other in ((first, second), (second, first)):
        assert issue.pointers == ("/id",) and issue.on_key and issue.severity == "warning"
        assert [r[:2] for r in issue.related_spans] == [other.span]
        assert issue.related == (("/id", 'other copy of key "id"'),)
    # the pointer names the copy whose value the parsed value holds
    assert text[slice(*parsed.source_map.value_span("/id"))] == '"b"'


def test_duplicate_keys_deep_in_a_large_document_are_found():
    doc = json.loads(graph_text(30, 20))
    text = json.dumps(doc, indent=2)
    anchor = text.index('"id": "e17"')
    text = text[:anchor] + '"to": "n1",\n      ' + text[anchor:]
    parsed = parse(text)
    dups = [p for p in parsed.problems if p.code == "W_DUPLICATE_KEY"]
    assert [p.pointers for p in dups] == [("/edges/17/to",), ("/edges/17/to",)]
    assert parsed.value["edges"][17]["to"] == "n18"  # the last copy wins


@pytest.mark.parametrize(
    "literal, flagged",
    [
        ("12345678901234567890", True),  # reads as 12345678901234567168, written 12345678901234567000
        ("9007199254740993", True),  # 2^53 + 1
        ("9007199254740992", False),  # 2^53
        ("1e400", True),  # Infinity
        ("-1e400", True),
        ("1e-400", True),  # 0
        ("1e21", False),
        ("0.1", False),
        ("1.0", False),
        ("-0", False),
        ("0.30000000000000000000001", True),
        ("100000000000000000000", False),  # written back as 100000000000000000000
    ],
)
def test_number_precision(literal, flagged):
    text = '{"threshold": ' + literal + "}"
    parsed = parse(text)
    warns = [p for p in parsed.problems if p.code == "W_NUMBER_PRECISION"]
    assert parsed.ok
    if flagged:
        assert len(warns) == 1
        assert warns[0].pointers == ("/threshold",)
        assert rng(text, warns[0].span) == (0, 14, 0, 14 + len(literal))
        assert literal in warns[0].message
    else:
        assert warns == []
    assert parsed.value == json.loads(text)


def test_number_precision_message_says_what_it_reads_as():
    parsed = parse("[12345678901234567890, 1e400]")
    msgs = [p.message for p in parsed.problems]
    assert "12345678901234567000" in msgs[0]
    assert "Infinity" in msgs[1]


# ---------------------------------------------------------------------------------------------
# positions with non-ASCII text, line endings, tabs


def test_spans_after_emoji_and_cjk_are_in_utf16_units():
    text = '{"name": "😀设计", "id": tru}'
    parsed, prob, r = only_syntax(text)
    assert prob.span == (22, 25)  # character offsets
    assert r == (0, 23, 0, 26)  # 😀 counts 2 UTF-16 units, 设 and 计 one each
    assert LineIndex(text).range(*prob.span, "utf-8") == (0, 29, 0, 32)  # 4 + 3 + 3 bytes
    assert LineIndex(text).range(*prob.span, "utf-32") == (0, 22, 0, 25)


def test_spans_with_crlf_line_endings():
    text = '{\r\n  "a": 1\r\n  "b": 2\r\n}\r\n'
    parsed, prob, r = only_syntax(text)
    assert r == (1, 8, 1, 8)
    assert rng(text, parsed.source_map.value_span("/b")) == (2, 7, 2, 8)


def test_spans_with_cr_line_endings():
    text = '{\r  "a": 1,\r  "b": 01\r}'
    parsed, prob, r = only_syntax(text)
    assert r == (2, 7, 2, 9)


def test_tabs_are_one_column():
    text = '{\n\t"a":\t[1,\t2,]\n}'
    parsed, prob, r = only_syntax(text)
    assert r == (1, 11, 1, 12)


def test_u2028_inside_a_string_is_not_a_line_break():
    text = '{"a": "x\u2028y\u2029z\x85",\n "b": tru}'
    parsed, prob, r = only_syntax(text)
    assert r == (1, 6, 1, 9)  # line 1: the only line break is the \n
    assert parsed.value == {"a": "x\u2028y\u2029z\x85"}
    assert LineIndex(text).line_count == 2


def test_pointer_at_and_enclosing_object():
    text = '{\n  "nodes": [\n    {"id": "a", "kind": "stop"}\n  ],\n  "x": 12\n}'
    sm = parse(text).source_map
    assert sm.pointer_at(text.index('"id"') + 1) == ("/nodes/0/id", "key")
    assert sm.pointer_at(text.index('"a"')) == ("/nodes/0/id", "value")
    assert sm.pointer_at(text.index('"a"') + 3) == ("/nodes/0/id", "value")  # right after it
    assert sm.pointer_at(text.index("12") + 1) == ("/x", "value")
    assert sm.pointer_at(text.index(", \"kind\"") + 1) == ("/nodes/0", "value")
    assert sm.pointer_at(0) == ("", "value")
    assert sm.enclosing_object(text.index('"kind"')) == "/nodes/0"
    assert sm.enclosing_object(text.index("[") + 1) == ""
    assert sm.enclosing_object(0) is None


def test_pointer_at_in_broken_text():
    text = '{"nodes": [{"id": "a" "kind": "stop"}], "edges": [{"to": "b"'
    sm = parse(text).source_map
    assert sm.pointer_at(text.index('"stop"')) == ("/nodes/0/kind", "value")
    assert sm.pointer_at(text.index('"to"')) == ("/edges/0/to", "key")
    assert sm.enclosing_object(len(text)) == "/edges/0"


# ---------------------------------------------------------------------------------------------
# limits


def test_deep_nesting_gives_one_doc_limit_quickly_without_recursion_error():
    text = "[" * 100_000
    t = time.perf_counter()
    parsed = parse(text)
    assert time.perf_counter() - t < 2
    assert [p.code for p in parsed.problems] == ["E_DOC_LIMIT"]
    assert parsed.value is None and not parsed.ok
    assert parsed.problems[0].span == (64, 65)  # the 65th bracket
    assert parsed.source_map.value_span("") is None
    assert parsed.source_map.pointer_at(5) == ("", "value")


def test_depth_limit_applies_to_valid_text_too():
    assert parse("[" * 64 + "]" * 64).ok
    parsed = parse("[" * 65 + "]" * 65)
    assert [p.code for p in parsed.problems] == ["E_DOC_LIMIT"]
    assert parse('{"a":' * 65 + "1" + "}" * 65).problems[0].code == "E_DOC_LIMIT"
    assert parse("[" * 10 + "]" * 10, max_depth=9).problems[0].code == "E_DOC_LIMIT"


def test_too_long_text_gives_one_doc_limit_without_analysis():
    parsed = parse('{"a": tru}' + " " * 100, max_chars=50)
    assert [p.code for p in parsed.problems] == ["E_DOC_LIMIT"]
    assert "110" in parsed.problems[0].message and "50" in parsed.problems[0].message
    assert parsed.value is None


@pytest.mark.parametrize("read, around", [(parse, ('{"a": "', '"}')), (parse_yaml, ("a: ", "\n"))], ids=["json", "yaml"])
def test_the_editors_size_limit_is_5_000_000_characters_inclusive(read, around):
    """README's `grooph.maxDocumentSize` default: a text of 5,000,000 characters is analysed, one
    character more gets the one E_DOC_LIMIT and no value (both readers)."""
    head, tail = around
    filler = 5_000_000 - len(head) - len(tail)
    parsed = read(head + "x" * filler + tail)
    assert parsed.ok and parsed.problems == () and parsed.value == {"a": "x" * filler}
    parsed = read(head + "x" * (filler + 1) + tail)
    assert [p.code for p in parsed.problems] == ["E_DOC_LIMIT"] and parsed.value is None
    assert "5,000,001" in parsed.problems[0].message and "5,000,000" in parsed.problems[0].message


# ---------------------------------------------------------------------------------------------
# property: random edits of the spec's examples


GRIND = (
    '{"grooph":0,"id":"g","name":"G","version":1,"nodes":['
    '{"id":"w","kind":"agent","name":"W","role":"builder","brief":"Do it.","outputs":["out.txt"],"allow":["edit-files"]},'
    '{"id":"t","kind":"check","name":"T","check":{"kind":"tests","run":"make test","pass":"exit 0"}},'
    '{"id":"end","kind":"stop","name":"End"}],'
    '"edges":[{"id":"e1","from":"w","to":"t"},{"id":"e2","from":"t","to":"w","when":"fail"},'
    '{"id":"e3","from":"t","to":"end","when":"pass"}],'
    '"loops":[{"id":"l","name":"L","members":["w","t"],"back":["e2"],"stops":[{"kind":"max-iterations","n":3}]}]}'
)
WORKED = (
    '{"version":1,"name":"G","id":"g","grooph":0,"loops":[],"edges":[],\n'
    ' "nodes":[{"name":"End","kind":"stop","id":"end","zeta":1,"alpha":{"b":1,"a":[2,1]}}],\n'
    ' "extra":true,"layout":{"end":{"y":2,"x":1.0}}}'
)
TINY_SHOP = """{
  "groophMap": 0,
  "id": "tiny-shop",
  "name": "Tiny shop",
  "version": 1,
  "lanes": [
    {"id": "desk", "name": "Desk", "machine": "a desktop", "account": "team account"}
  ],
  "sessions": [
    {"id": "planner", "name": "Planner", "lane": "desk", "harness": "claude-code", "role": "Splits the work"},
    {"id": "coder", "name": "Coder", "lane": "desk", "harness": "claude-code", "role": "Writes the change"}
  ],
  "handoffs": [
    {"id": "h-task", "from": "planner", "to": "coder", "carrier": {"kind": "session-message"}},
    {"id": "h-result", "from": "coder", "to": "planner", "carrier": {"kind": "pull-request", "repo": "acme/shop"}}
  ]
}
"""


def _seed_texts() -> list[str]:
    seeds = [GRIND, WORKED, TINY_SHOP, graph_text(), json.dumps(json.loads(GRIND), indent=2, ensure_ascii=False)]
    root = Path(__file__).resolve().parents[2] / "fixtures"
    for p in sorted(root.glob("**/valid/*.json"))[:12] if root.is_dir() else []:
        if p.name.endswith((".grooph.json", ".grooph-map.json")):
            seeds.append(p.read_text(encoding="utf-8"))
    return seeds


SEEDS = _seed_texts()
JUNK = ["{", "}", "[", "]", ",", ":", '"', "\\", "\x00", "\ud800", "\udfff", "😀", "设", "\n", "\r", "\r\n",
        "\u2028", "tru", "NaN", "01", "//", "/*", "'", " ", "1e400", "-", ".", "\ufeff", "\t", "\\u12"]


@st.composite
def edited(draw):
    text = draw(st.sampled_from(SEEDS))
    for _ in range(draw(st.integers(1, 5))):
        i = draw(st.integers(0, len(text)))
        op = draw(st.sampled_from(["delete", "insert", "insert", "cut"]))
        if op == "delete":
            text = text[:i] + text[i + draw(st.integers(1, 8)) :]
        elif op == "insert":
            text = text[:i] + draw(st.sampled_from(JUNK) | st.text(max_size=3)) + text[i:]
        else:
            text = text[:i]
    return text


def _inside(text, span):
    return span is None or (0 <= span[0] <= span[1] <= len(text))


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(edited())
def test_random_edits_never_raise_and_every_span_lies_inside_the_text(text):
    parsed = parse(text)
    sm = parsed.source_map
    for p in parsed.problems:
        assert _inside(text, p.span)
        for r in p.related_spans:
            assert _inside(text, r[:2])
    for ptr in list(pointers(parsed.value))[:300] + list(parsed.broken):
        assert _inside(text, sm.value_span(ptr))
        assert _inside(text, sm.key_span(ptr))
    for off in range(-1, len(text) + 2, max(1, len(text) // 40)):
        ptr, part = sm.pointer_at(off)
        assert part in ("key", "value") and (ptr == "" or ptr.startswith("/"))
        enc = sm.enclosing_object(off)
        assert enc is None or enc == "" or enc.startswith("/")
    # whatever was recovered is addressable: every pointer of the value has a span
    for ptr in list(pointers(parsed.value))[:300] if parsed.value is not None else []:
        assert sm.value_span(ptr) is not None, ptr
    if parsed.ok:
        assert parsed.value == json.loads(text) or parsed.value != parsed.value


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(edited())
def test_when_an_edit_leaves_valid_json_fast_and_tolerant_paths_agree(text):
    try:
        expected = json.loads(text, parse_constant=lambda c: 1 / 0)
    except Exception:
        return
    if text.startswith("\ufeff"):
        return
    from grooph_core.source.json_recovery import recover
    from grooph_core.source.source_map import SourceMap

    parsed = parse(text)
    assert parsed.ok and parsed.value == expected
    rec = recover(text, 64)
    assert rec.value == expected and not [i for i in rec.issues if i[0] == "E_SYNTAX"]
    slow = SourceMap(text, rec.root_span, rec.root_node)
    for ptr in list(pointers(expected))[:200]:
        assert parsed.source_map.value_span(ptr) == slow.value_span(ptr), ptr
        assert parsed.source_map.key_span(ptr) == slow.key_span(ptr), ptr
        s, e = parsed.source_map.value_span(ptr)
        assert json.loads(text[s:e]) == get(expected, ptr)


def test_a_flood_of_faults_is_listed_up_to_a_cap_and_counted():
    parsed = parse("[" + "," * 5000 + "]")
    probs = syntax(parsed)
    assert len(probs) == 201
    assert probs[-1].message.startswith("4801 more syntax errors are not listed")  # 5000 + a trailing comma
    many = parse("{" + ",".join('"a":1' for _ in range(3000)) + "}")
    dups = [p for p in many.problems if p.code == "W_DUPLICATE_KEY"]
    assert len(dups) == 201 and dups[-1].message.startswith("2800 more duplicate-key warnings")
    assert all(len(p.related_spans) <= 10 for p in dups)


def test_line_numbers_in_messages_follow_crlf_and_cr_breaks():
    text = '{\r\n "a": [\r  {"b": 1'
    msgs = [p.message for p in syntax(parse(text))]
    assert msgs == [
        "unclosed object started at line 3",
        "unclosed array started at line 2",
        "unclosed object started at line 1",
    ]


# ---------------------------------------------------------------------------------------------
# the strict mode: the command line's reading (graph.md §3.2 step 1)


def strict_message(text: str) -> str:
    value, err = parse_strict(text)
    assert value is None and err is not None and err.code == "E_SCHEMA" and err.at == () and err.pointers == ("",)
    assert err.message.startswith("/: not valid JSON: ")
    return err.message.removeprefix("/: not valid JSON: ")


@pytest.mark.parametrize("text, message", [
    ("", "the document is empty"),
    (" \n\t", "the document is empty"),
    ("\ufeff{}", "a byte-order mark (U+FEFF) at the start is not JSON"),
    ('{"a": NaN}', "NaN is not JSON (line 1, column 7)"),
    ('{"a": 1,\n "b": -Infinity}', "-Infinity is not JSON (line 2, column 7)"),
    ('{"a": 1} {}', None),
    ('{"a": tru}', None),
    ('{"a": 1,}', None),
])
def test_strict_mode_refuses_what_json_parse_refuses_in_the_editors_words(text, message):
    """Every refusal says why in the words the editor's diagnostic uses, at the same line and column."""
    got = strict_message(text)
    if message is None:
        first = next(p for p in parse(text).problems if p.code == "E_SYNTAX")
        line, col = LineIndex(text).position(first.span[0])
        message = f"{first.message} (line {line + 1}, column {col + 1})"
    assert got == message


def test_strict_mode_reads_what_json_parse_reads():
    """Duplicate keys (the last copy wins, as in JSON.parse) and lossy numbers are the editor's
    warnings, not the command line's refusals; the value is the tolerant reader's value."""
    for text in ('{"a": 1, "a": 2}', '[12345678901234567890, 1e400, 0.1]', '{"a": {"b": [1, "x", null, true]}}',
                 '  "just a string"  ', "[]"):
        value, err = parse_strict(text)
        assert err is None, text
        assert value == parse(text).value or text.startswith("[1234"), text
    assert parse_strict('{"a": 1, "a": 2}')[0] == {"a": 2}


def test_strict_mode_depth_limit_is_the_command_lines():
    """512 levels with the root read; 513 do not, whether the decoder reads them (valid text), recurses
    past the interpreter's limit (100,000 levels), or the text is also broken past the limit."""
    assert CLI_MAX_DEPTH == 512 and MAX_DEPTH == 64
    assert parse_strict("[" * 512 + "]" * 512)[1] is None
    assert parse_strict("[" * 512 + "]" * 512, max_depth=511)[1] is not None
    too_deep = "nested deeper than 512 levels"
    t = time.perf_counter()
    for text in ("[" * 513 + "]" * 513, "[" * 100_000 + "]" * 100_000, "[" * 200_000, '{"a":' * 100_000 + "1" + "}" * 100_000,
                 "[tru, " + "[" * 600):
        assert strict_message(text) == too_deep, text[:20]
    assert time.perf_counter() - t < 5
    # a syntax fault before a deep part: nesting is still what is named (the editor names it too)
    assert strict_message("[tru, " + "[" * 513 + "]" * 513 + "]") == too_deep


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(alphabet='{}[]":, 01tnefalrsu\\\n', max_size=40))
def test_strict_mode_agrees_with_the_tolerant_reader(text):
    """One reader: the strict mode accepts a text exactly when the tolerant reader finds no syntax
    problem in it (besides a BOM), and then both read the same value."""
    value, err = parse_strict(text)
    parsed = parse(text)
    if text.strip() == "":
        assert err is not None
        return
    assert (err is None) == parsed.ok, text
    if err is None:
        assert value == parsed.value
