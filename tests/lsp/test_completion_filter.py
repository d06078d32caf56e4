"""Completion items match in both ways clients filter them (issue 21 item 5), through a real client:

- VS Code filters by the text from the item's `textEdit` range start to the cursor;
- eglot 1.9 by the word at the cursor (Emacs's symbol at point, without the quote: `en` in `"en`),
  which must be a prefix of `filterText` (or the label).

Inside a half-typed or closed string, graph ids, enum words and keys, and a board's task ids are each
offered under both filters, and applying the item gives the value a person meant.
"""

from __future__ import annotations

import json
import re

import pytest
from lsprotocol import types as lsp

from tests.conftest import FIXTURES
from tests.lsp.conftest import dumps, open_text
from tests.lsp.docs import graph
from tests.lsp.test_editing import _apply, _offset

DOC = lsp.TextDocumentIdentifier
# Emacs's symbol at point in js-mode, with `-` a symbol character as the documented grooph-mode sets it
# (docs/editors.md, Emacs): letters, digits, `_`, `$` and `-`.
EMACS_SYMBOL = re.compile(r"[\w$-]*\Z")


def _position(text: str, offset: int) -> lsp.Position:
    line = text.count("\n", 0, offset)
    return lsp.Position(line=line, character=offset - (text.rfind("\n", 0, offset) + 1))


async def _items(client, uri: str, text: str, marked: str) -> tuple[str, int, list[lsp.CompletionItem]]:
    """Complete at `|` in `marked` (the document `text` with the cursor mark)."""
    cursor = marked.index("|")
    edited = marked.replace("|", "", 1)
    open_text(client, uri, edited, version=2)
    res = await client.text_document_completion_async(lsp.CompletionParams(text_document=DOC(uri=uri), position=_position(edited, cursor)))
    return edited, cursor, list(res.items)


def _matched(text: str, cursor: int, items: list[lsp.CompletionItem]) -> tuple[list[str], list[str]]:
    """The labels VS Code's and eglot's filters keep."""
    vscode, eglot = [], []
    probe = EMACS_SYMBOL.search(text[:cursor]).group()
    for item in items:
        filter_text = item.filter_text or item.label
        start = _offset(text, item.text_edit.range.start)
        assert start <= cursor <= _offset(text, item.text_edit.range.end), item
        if filter_text.startswith(text[start:cursor]):
            vscode.append(item.label)
        if filter_text.startswith(probe):
            eglot.append(item.label)
    return vscode, eglot


def _take(text: str, items: list[lsp.CompletionItem], label: str) -> str:
    item = next(i for i in items if i.label == label)
    return _apply(text, [item.text_edit, *(item.additional_text_edits or [])])


TEXT = dumps(graph(edges=[{"id": "e1", "from": "w", "to": "end", "when": "always"}]))


# (the text replaced in TEXT, what is typed there with the cursor at `|`, what taking the item gives, its label)
CASES = {
    "id-closed": ('"to": "end"', '"to": "en|"', '"to": "end"', "end"),
    "id-open": ('"to": "end",\n', '"to": "en|\n', '"to": "end"\n', "end"),  # cut at the line's end, no comma yet
    "enum": ('"when": "always"', '"when": "fa|"', '"when": "fail"', "fail"),
    "key": ('"when": "always"\n', '"when": "always",\n        "lab|\n', '"when": "always",\n        "label": ""\n', "label"),
}


@pytest.mark.parametrize("old, typed, completed, label", list(CASES.values()), ids=list(CASES))
async def test_items_inside_a_string_match_both_filters_and_apply(client, tmp_path, old, typed, completed, label):
    uri = (tmp_path / "c.grooph.json").as_uri()
    open_text(client, uri, TEXT)
    text, cursor, items = await _items(client, uri, TEXT, TEXT.replace(old, typed, 1))
    vscode, eglot = _matched(text, cursor, items)
    assert label in vscode and label in eglot, (vscode, eglot, [(i.label, i.filter_text) for i in items])
    assert vscode == eglot  # the same items under either filter
    assert _take(text, items, label) == TEXT.replace(old, completed, 1)


async def test_a_hyphenated_board_task_id_matches_both_filters(client, tmp_path):
    board = (FIXTURES / "board" / "valid" / "checkout.board.json").read_text("utf-8")
    deps = json.loads(board)["dependencies"]
    tasks = list(json.loads(board)["tasks"])
    uri = (tmp_path / "b.board.json").as_uri()
    open_text(client, uri, board)
    old = f'"parent": "{deps[0]["parent"]}"'
    typed = tasks[-1][:3]  # e.g. `t-3`: a hyphen inside the word typed
    text, cursor, items = await _items(client, uri, board, board.replace(old, f'"parent": "{typed}|"', 1))
    vscode, eglot = _matched(text, cursor, items)
    assert tasks[-1] in vscode and vscode == eglot, (typed, vscode, eglot)
    assert json.loads(_take(text, items, tasks[-1]))["dependencies"][0]["parent"] == tasks[-1]


async def test_outside_a_string_the_item_still_brings_its_quotes(client, tmp_path):
    """Where nothing is typed yet (`"to": |`), the edit inserts the quoted id and filters by it."""
    uri = (tmp_path / "c.grooph.json").as_uri()
    open_text(client, uri, TEXT)
    text, cursor, items = await _items(client, uri, TEXT, TEXT.replace('"to": "end"', '"to": |'))
    end = next(i for i in items if i.label == "end")
    assert end.text_edit.new_text == '"end"' and end.filter_text == '"end"'
    assert json.loads(_take(text, items, "end"))["edges"][0]["to"] == "end"
