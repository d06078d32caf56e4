"""Boards and episode records as people type them, against the engine (issue 30; workflow.md §0 "The engine's
reader decides", board.md §1–2, episodes.md §1).

- Written forms serde_json takes or refuses that the field-level cases of `test_engine_differential` do not
  write: a board written as an array of its fields (serde reads a struct from a sequence), lone surrogate
  escapes in keys and values (refused at the escape, in serde's words, where serde reads the string).
- Typing edits on the valid fixtures (a character typed or deleted, a line duplicated, swapped or deleted, the
  text cut short, a block pasted): our read/refuse verdict is the engine's on every board, and a syntax fault
  is reported once (no more E_SYNTAX than edits), for boards and episode records alike.
"""

from __future__ import annotations

import json
import random

import pytest

from grooph_core.ide.neighbour_analysis import check_text
from tests.conftest import FIXTURES
from tests.core.test_engine_differential import KINDS, _run
from tests.engine_oracle import ask, oracle

BOARD = (FIXTURES / "board" / "valid" / "checkout.board.json").read_text("utf-8")
_B = json.loads(BOARD)
_FIELDS = [_B["slug"], _B["name"], _B["root"], _B["tasks"], _B["dependencies"]]

WRITTEN_FORMS = {
    "board as an array": json.dumps(_FIELDS, indent=2),
    "board as an array, no dependencies": json.dumps(_FIELDS[:4]),
    "board as an array, name null": json.dumps(["s", None, "/r", {}]),
    "board as an array cut at its tasks": json.dumps(_FIELDS[:3]),
    "board as an empty array": "[]",
    "board as an array, a field too many": json.dumps([*_FIELDS, 5]),
    "board as an array, a wrong type": json.dumps([1, "N", "/r", {}]),
    "board as an array, root a map": json.dumps(["s", "/r", {}]),
    "task as an array without its workspace": json.dumps(["s", "N", "/r", {"a": ["a", "A", None, None, None, None, "todo"]}]),
    "task as an array": json.dumps(["s", "N", "/r", {"a": ["a", "A", None, None, None, None, "todo", 0, None, None, {"kind": "dir"}]}]),
    "surrogate: a map key": BOARD.replace('"t-4": {', '"\\udc00": {', 1),
    "surrogate: a field key": BOARD.replace('"body": "After', '"b\\ud800ody": "After', 1),
    "surrogate: a required key": BOARD.replace('"title": "Old spike"', '"ti\\ud83dtle": "Old spike"', 1),
    "surrogate: a value": BOARD.replace('"title": "Old spike"', '"title": "Old \\ud83d spike"', 1),
    "surrogate: a leading half then another escape": BOARD.replace('"Old spike"', '"Old \\ud800\\u0041"', 1),
    "surrogate: two leading halves": BOARD.replace('"Old spike"', '"\\ud800\\ud800"', 1),
    "surrogate: a pair": BOARD.replace('"Old spike"', '"\\ud83d\\ude00"', 1),
    "surrogate: in residue's key": BOARD.replace('"hermes_column"', '"\\ud800"', 1),
    "surrogate: in an unknown key's value": BOARD.replace('"slug": "checkout",', '"colour": {"\\ud800": "\\udc00"}, "slug": "checkout",', 1),
    "surrogate: an unknown key": BOARD.replace('"slug": "checkout",', '"c\\ud800": 1, "slug": "checkout",', 1),
}


def test_written_forms_read_as_the_engine_reads_them():
    cases = sorted(WRITTEN_FORMS.items())
    bad = _run("board", cases)
    assert not bad, f"{len(bad)} of {len(cases)} disagree; the first:\n" + "\n\n".join(bad[:3])


@pytest.mark.parametrize("case", sorted(c for c in WRITTEN_FORMS if c.startswith("surrogate") and "pair" not in c
                                        and "unknown key's value" not in c))
def test_a_lone_surrogate_is_refused_at_its_escape_in_serdes_words(case):
    oracle()
    text = WRITTEN_FORMS[case]
    answer = ask("board", text)["deserialize_error"]
    words, _, where = answer.rpartition(" at line ")
    _, issues = check_text("x.board.json", text, KINDS["board"])
    (issue,) = issues  # strict: the engine refuses the file, nothing else is said
    assert issue.code == "E_SYNTAX" and f"({words})" in issue.message
    # serde's column is the escape's last digit (a trailing half first) or the character after the escape
    line, column = (int(x) for x in where.split(" column "))
    start, end = issue.span
    offset = sum(len(x) + 1 for x in text.split("\n")[:line - 1]) + column - 1
    assert start < offset <= end + (0 if "lone leading" in words else 1), (issue.span, answer)


def test_a_board_written_as_an_array_is_read_and_its_faults_are_serdes():
    _, issues = check_text("x.board.json", WRITTEN_FORMS["board as an array"], KINDS["board"])
    assert issues == []
    _, issues = check_text("x.board.json", WRITTEN_FORMS["board as an array cut at its tasks"], KINDS["board"])
    assert [i.message for i in issues] == [
        "Board: invalid length 3, expected struct Board with 5 elements (the field tasks is not written)"]
