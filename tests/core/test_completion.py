"""Completion (issue 4 item 7): inserting a completed key keeps the document valid JSON wherever the
cursor is in the object; values and ids fit the place."""

from __future__ import annotations

import json

from grooph_core.ide.grooph.analysis import analyze
from grooph_core.ide.grooph.completion import complete_at
from grooph_core.ide.text_edits import TextEdit, apply_edits
from tests.conftest import FIXTURES

REVIEW = (FIXTURES / "valid" / "review-loop.grooph.json").read_text()


def _insert_blank_line_after(text: str, needle: str) -> tuple[str, int]:
    i = text.index(needle) + len(needle)
    indent = "      "
    new = text[:i] + "\n" + indent + text[i:]
    return new, i + 1 + len(indent)


def _complete(text: str, offset: int, label: str) -> str:
    a = analyze(text, name="x.grooph.json")
    items = {c.label: c for c in complete_at(a, offset)}
    c = items[label]
    edits = [TextEdit(c.span[0], c.span[1], c.insert_text)]
    if c.comma_at is not None:
        edits.append(TextEdit(c.comma_at, c.comma_at, ","))
    return apply_edits(text, edits)


def test_key_in_the_middle_of_an_object_adds_the_commas_it_needs():
    text, offset = _insert_blank_line_after(REVIEW, '"name": "Plan",')
    out = _complete(text, offset, "description")
    assert json.loads(out)["nodes"][0]["description"] == ""
    text, offset = _insert_blank_line_after(REVIEW, '"role": "planner"')  # no comma: more members follow
    json.loads(_complete(text, offset, "description"))


def test_key_at_the_start_and_at_the_end_of_an_object():
    text = '{\n  "grooph": 0, "id": "g", "name": "G", "version": 1, "nodes": [], "edges": [], "loops": [],\n  "x": {}\n}'
    start = text.index('"grooph"')
    out = _complete(text[:start] + text[start:], start, "goal")
    json.loads(out)
    end = text.rindex("}")
    out = _complete(text, end, "goal")
    assert json.loads(out)["goal"] == ""


def test_snippet_puts_the_cursor_inside_the_value():
    text = '{"grooph": 0, "id": "g", "name": "G", "version": 1, "nodes": [], "edges": [], "loops": [] }'
    a = analyze(text, name="x.grooph.json")
    c = {c.label: c for c in complete_at(a, len(text) - 1)}["goal"]
    assert c.snippet == '"goal": "$1"' and text[c.comma_at - 1] == "]"


def test_inside_a_string_the_client_edit_starts_after_the_typed_quote():
    """Completion.client_edit: the same result, with the quote the person typed left in place and
    the word between the quotes to filter by (eglot's word at the cursor, VS Code's text from the edit's start)."""
    for old, typed, label in (('"to": "tests"', '"to": "te', "tests"), ('"to": "tests"', '"to": "te"', "tests"),
                              ('"kind": "agent"', '"kind": "ag"', "agent")):
        text = REVIEW.replace(old, typed, 1)
        offset = text.index(typed) + len(typed.rstrip('"'))
        a = analyze(text, name="x.grooph.json")
        c = next(c for c in complete_at(a, offset) if c.label == label)
        given = c.client_edit(text, offset)
        assert text[given.span[0] - 1] == '"' and given.span[0] <= offset <= given.span[1]
        assert given.filter_text == label and given.filter_text.startswith(text[given.span[0]:offset])
        assert apply_edits(text, [TextEdit(*given.span, given.text)]) == apply_edits(text, [TextEdit(*c.span, c.insert_text)])
    outside = '{"grooph": 0, "id": "g", "name": "G", "version": 1, "nodes": [], "edges": [], "loops": [] }'
    c = complete_at(analyze(outside, name="x.grooph.json"), len(outside) - 1)[0]
    given = c.client_edit(outside, len(outside) - 1)
    assert given == (c.span, len(outside) - 1, c.insert_text, c.snippet, c.filter_text)  # nothing typed yet: its own quotes
