"""Diagnostics whose ranges are kept from the version before (issue 33, grooph_lsp/convert.diagnostics_of):
after edits that keep the JSON structure, an issue no edit touches keeps its range moved by the edits
instead of being placed again in the new text. What the editor is shown must be what placing every issue
afresh gives, range for range, whatever the edits: random keys typed and deleted (line breaks, non-ASCII
text, several changes in one notification) into graphs and maps with faults, in every position encoding;
and through the real server, each keystroke's publish equals a fresh analysis of its text."""

from __future__ import annotations

import random

import pytest
from lsprotocol import types as lsp

from bench.generate import graph_document, map_document
from grooph_core.ide.grooph.analysis import analyze
from grooph_core.source.line_index import LineIndex
from grooph_lsp import convert
from grooph_lsp.documents import DocumentStore, Edit
from tests.lsp.test_responsive import _open, _published, start_server  # noqa: F401 (the fixture)

IN_STRING = ["x", "é", "😀", "设计", "1", ""]   # typed inside a string value
BETWEEN = [" ", "\n", "\n  ", ""]                # typed at the start of a line (white space)


def _fresh(text: str, name: str, uri: str, encoding: str = "utf-16") -> list:
    a = analyze(text, name=name)
    return [convert.to_lsp_diagnostic(a, i, uri, encoding, n) for n, i in enumerate(a.issues)]


def _change(text: str, start: int, end: int, typed: str, encoding: str) -> lsp.TextDocumentContentChangePartial:
    lines = LineIndex(text)
    (sl, sc), (el, ec) = lines.position(start, encoding), lines.position(end, encoding)
    return lsp.TextDocumentContentChangePartial(range=lsp.Range(lsp.Position(sl, sc), lsp.Position(el, ec)), text=typed)


FREE_TEXT = ('"name": "', '"brief": "', '"description": "', '"what": "', '"when": "')  # text no rule reads


def _somewhere(text: str, rng: random.Random) -> tuple[int, int, str]:
    """(start, end, typed) of a key that keeps the JSON structure: a character typed into (or deleted from)
    a free-text value, now and then an id (its issues change), or white space at the start of a line."""
    if rng.random() < 0.25:
        at = text.index("\n", rng.randrange(len(text) // 2)) + 1
        return at, at, rng.choice(BETWEEN)
    opening = '"id": "' if rng.random() < 0.1 else rng.choice([o for o in FREE_TEXT if o in text])
    while True:
        found = text.find(opening, rng.randrange(len(text) // 2))
        if found >= 0 and text.index('"', found + len(opening)) - (found + len(opening)) >= 2:
            break
    at = found + len(opening)
    at += rng.randrange(text.index('"', at) - at)
    if rng.random() < 0.3:
        return at, at + 1, ""
    return at, at, rng.choice(IN_STRING)


@pytest.mark.parametrize("make", [graph_document, map_document])
@pytest.mark.parametrize("encoding", ["utf-16", "utf-8", "utf-32"])
def test_kept_ranges_are_the_ranges_placed_afresh(make, encoding, monkeypatch):
    doc = make(24_000, faults=True)
    rng = random.Random(33)
    store = DocumentStore()
    uri = f"file:///{doc.name}"
    open_doc = store.open(uri, doc.text, 1)
    shown, base = _fresh(doc.text, doc.name, uri, encoding), 1
    kept, placed, place = 0, [], convert.to_lsp_diagnostic
    monkeypatch.setattr(convert, "to_lsp_diagnostic", lambda *a: placed.append(a) or place(*a))
    for version in range(2, 60):
        text = open_doc.text
        changes = []
        for _ in range(rng.choice([1, 1, 1, 2])):  # now and then two changes in one notification
            at, end, typed = _somewhere(text, rng)
            changes.append(_change(text, at, end, typed, encoding))
            text = text[:at] + typed + text[end:]
        store.change(uri, version, changes, encoding)
        assert open_doc.text == text
        if rng.random() < 0.4:  # the analysis is sometimes several versions behind
            continue
        a = analyze(text, name=doc.name)
        want = [place(a, i, uri, encoding, n) for n, i in enumerate(a.issues)]
        placed.clear()
        got = convert.diagnostics_of(a, uri, encoding, shown, open_doc.edits_after(base))
        assert got == want, version
        kept += len(got) - len(placed)
        shown, base = got, version
    assert kept > 50, f"only {kept} ranges were kept"


def test_an_edit_that_changes_the_structure_keeps_nothing():
    """A quote, bracket, brace, comma, colon or backslash typed or deleted may move members: no range is kept."""
    store = DocumentStore()
    doc = store.open("file:///g.grooph.json", '{"a": [1, 2]}', 1)
    for version, (typed, start, end) in enumerate([(",", 8, 8), ("", 8, 9), ('"', 2, 2), ("x", 1, 2)], 2):
        rng = lsp.Range(lsp.Position(0, start), lsp.Position(0, end))
        store.change(doc.uri, version, [lsp.TextDocumentContentChangePartial(range=rng, text=typed)], "utf-16")
        assert doc.edits_after(version - 1) is None
    assert Edit.of((0, 1), (0, 2), "x", "y", "utf-16") is not None and Edit.of((0, 1), (0, 2), "x", "\\", "utf-16") is None


def test_each_keystroke_through_the_server_shows_what_placing_afresh_gives(start_server, tmp_path):
    s = start_server(options={})  # default settings
    doc = graph_document(24_000, faults=True)
    uri = (tmp_path / doc.name).as_uri()
    text = doc.text
    _open(s, uri, text)
    _published(s, uri, 1)
    rng = random.Random(7)
    for version in range(2, 14):
        at, end, typed = _somewhere(text, rng)
        change = _change(text, at, end, typed, "utf-16")
        s.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version}, "contentChanges": [
            {"range": {"start": {"line": change.range.start.line, "character": change.range.start.character},
                       "end": {"line": change.range.end.line, "character": change.range.end.character}}, "text": typed}]})
        text = text[:at] + typed + text[end:]
        params = _published(s, uri, version).message["params"]
        want = [convert.diagnostic_text(d) for d in _fresh(text, doc.name, uri)]
        assert [convert.diagnostic_text(_as_diagnostic(d)) for d in params["diagnostics"]] == want, version


def _as_diagnostic(d: dict) -> lsp.Diagnostic:
    from lsprotocol import converters

    return converters.get_converter().structure(d, lsp.Diagnostic)


def test_edits_are_logged_where_the_text_has_them():
    """A range given end first, or past the end of its line, is logged as the text was changed: in order,
    at the line's end (the store clamps it so)."""
    store = DocumentStore()
    doc = store.open("file:///g.grooph.json", '{"a": "bc"}\n', 1)
    for version, (start, end) in enumerate([((0, 9), (0, 8)), ((0, 40), (0, 40))], 2):
        rng = lsp.Range(lsp.Position(*start), lsp.Position(*end))
        store.change(doc.uri, version, [lsp.TextDocumentContentChangePartial(range=rng, text="x")], "utf-16")
    assert doc.text == '{"a": "bx"}x\n'
    assert doc.edits_after(1) == (Edit((0, 8), (0, 9), 0, 1), Edit((0, 11), (0, 11), 0, 1))
