"""Completion (issue 4 item 7): inserting a completed key keeps the document valid JSON wherever the
cursor is in the object; values and ids fit the place."""

from __future__ import annotations

import json

from grooph_core.ide.analysis import analyze
from grooph_core.ide.completion import complete_at
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
