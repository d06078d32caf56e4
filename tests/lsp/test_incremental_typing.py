"""Typing into a workflow, a graph and a map through the real server, with the settings a user has (issues 24
and 33): each keystroke's analysis is made from the one before (only the status, or the item of a top-level
list, the key is in is read again), and what the editor is shown is what a fresh analysis of that very text
says, issue for issue and range for range.

The core's differential tests (tests/core/test_incremental_analysis.py) cover the edits one by one; here
the server's side: the scheduler hands each analysis the document's newest one, also when keys come faster
than the analyses (a result for an older version is then the base), a broken status in between, a status
renamed, and the keys of a second document typed into between them.
"""

from __future__ import annotations

import time

import pytest

from bench.generate import graph_document, map_document
from bench.workflow_docs import workflow_text
from grooph_core.ide.grooph.analysis import analyze
from grooph_core.ide.neighbours.analysis import analyze_neighbour
from grooph_core.source.kinds import neighbour_from_name
from tests.lsp.test_responsive import _open, _published, _type, start_server  # noqa: F401 (the fixture)

WORKFLOW = neighbour_from_name("x.workflow.yaml")
TEXT = workflow_text(24_000)


def _fresh(text: str) -> list[tuple]:
    a = analyze_neighbour(text, WORKFLOW)
    return [(i.code, i.message, a.issue_range(i)) for i in a.issues]


def _shown(s, uri: str, version: int) -> list[tuple]:
    params = _published(s, uri, version).message["params"]
    return [(d["code"], d["message"], d["range"]) for d in params["diagnostics"]]


def test_each_keystroke_shows_what_a_fresh_analysis_of_its_text_says(start_server, tmp_path):
    s = start_server(options={})  # default settings: the server's own wait before validating
    uri = (tmp_path / "board.workflow.yaml").as_uri()
    other = (tmp_path / "other.workflow.yaml").as_uri()
    text, other_text = TEXT, TEXT.replace("s0_ready", "first", 2)
    _open(s, uri, text)
    _open(s, other, other_text)
    assert _shown(s, uri, 1) == _fresh(text)
    version = 1
    keys = [
        (text.index("Blocked step 2:") + 15, " held up"),  # a note, key by key
        (text.index("target: s3_review") + 17, "w"),      # a target no status has: E_WF_UNKNOWN_STATUS
        (text.index("  s4_ready:") + 10, "x"),            # a status renamed: its transitions' target dangles
        (text.index("start: [{target: s5_building}]") + 7, "["),  # the syntax broken ...
        (text.index("start: [{target: s5_building}]") + 7, ""),   # ... (see below) and repaired
        (text.index("Blocked step 6:") + 15, "\n      more"),        # a line break in a block scalar
    ]
    for offset, typed in keys:
        if typed == "":  # the repair: remove the `[` typed before
            version += 1
            s.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version}, "contentChanges": [
                {"range": {"start": _at(text, offset), "end": _at(text, offset + 1)}, "text": ""}]})
            text = text[:offset] + text[offset + 1:]
            assert _shown(s, uri, version) == _fresh(text)
            continue
        for ch in typed:
            version += 1
            text = _type(s, uri, version, text, offset, ch)
            offset += 1
            assert _shown(s, uri, version) == _fresh(text), text[offset - 40:offset + 10]
        other_text = _type(s, other, version, other_text, other_text.index("Blocked step 1:") + 15, "y")
        assert _shown(s, other, version) == _fresh(other_text)
    # keys faster than the analyses: each may be analysed from an older version's result
    at = text.index("Blocked step 7:") + 15
    for ch in "quickly typed":
        version += 1
        text = _type(s, uri, version, text, at, ch)
        at += 1
        time.sleep(0.002)
    assert _shown(s, uri, version) == _fresh(text)


def _at(text: str, offset: int) -> dict:
    line = text.count("\n", 0, offset)
    return {"line": line, "character": len(text[text.rfind("\n", 0, offset) + 1:offset].encode("utf-16-le")) // 2}


def _fresh_grooph(text: str, name: str) -> list[tuple]:
    a = analyze(text, name=name)
    return [(i.code, i.message, a.issue_range(i)) for i in a.issues]


def _remove(s, uri: str, version: int, text: str, offset: int) -> str:
    """Delete the character at `offset` as a ranged change; the new text."""
    s.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version}, "contentChanges": [
        {"range": {"start": _at(text, offset), "end": _at(text, offset + 1)}, "text": ""}]})
    return text[:offset] + text[offset + 1:]


@pytest.mark.parametrize("doc", [graph_document(24_000, faults=True), map_document(24_000, faults=True)],
                         ids=["graph", "map"])
def test_each_keystroke_in_a_graph_or_map_shows_what_a_fresh_analysis_says(start_server, tmp_path, doc):
    """Issue 33 item 2: a key typed into an item of a top-level list is read from the last clean reading;
    the diagnostics are a fresh analysis's: an id typed into (references to it dangle, then resolve
    again), a name, the syntax broken inside an item and repaired, a quote that runs a string on."""
    s = start_server(options={})
    uri = (tmp_path / doc.name).as_uri()
    text = doc.text
    _open(s, uri, text)
    assert _shown(s, uri, 1) == _fresh_grooph(text, doc.name)
    version = 1
    first_list = next(k for k in ('"nodes": [', '"sessions": [') if k in text)
    at_id = text.index('"id": "', text.index(first_list)) + 7  # the first item's id, its first character
    at_name = text.index('"name": "', len(text) // 2) + 9
    steps = [("type", at_id, "zq"), ("remove", at_id, 2), ("type", at_name, "held "),
             ("type", at_name, "{"), ("remove", at_name, 1), ("type", at_id, '"'), ("remove", at_id, 1)]
    for what, offset, arg in steps:
        for k in range(len(arg) if what == "type" else arg):
            version += 1
            if what == "type":
                text = _type(s, uri, version, text, offset + k, arg[k])
            else:
                text = _remove(s, uri, version, text, offset)
            assert _shown(s, uri, version) == _fresh_grooph(text, doc.name), (what, k)
    # keys faster than the analyses: each may be analysed from an older version's result
    for ch in "quickly":
        version += 1
        text = _type(s, uri, version, text, at_name, ch)
        at_name += 1
        time.sleep(0.002)
    assert _shown(s, uri, version) == _fresh_grooph(text, doc.name)
