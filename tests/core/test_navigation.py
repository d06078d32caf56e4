"""Ids and their places (graph.md §1.11, map.md §2.8), definition/references/rename at a cursor."""

from __future__ import annotations

import json

from grooph_core.ide.grooph.analysis import analyze
from grooph_core.ide.grooph.navigation import document_symbols, occurrences
from grooph_core.ide.grooph.refactor import definition_at, prepare_rename_at, references_at, rename_at
from grooph_core.ide.refused import Refused
from grooph_core.ide.text_edits import apply_edits

GRAPH = {
    "grooph": 0, "id": "g", "name": "G", "version": 1,
    "nodes": [
        {"id": "w", "kind": "agent", "name": "W", "role": "builder", "brief": "b", "outputs": ["o"], "allow": ["edit-files"]},
        {"id": "t", "kind": "check", "name": "T", "check": {"kind": "tests", "pass": "exit 0"}},
        {"id": "end", "kind": "stop", "name": "End"},
    ],
    "edges": [
        {"id": "e-w-t", "from": "w", "to": "t"},
        {"id": "e-t-w", "from": "t", "to": "w", "when": "fail"},
        {"id": "e3", "from": "t", "to": "end", "when": "pass"},
    ],
    "loops": [{"id": "l", "name": "L", "members": ["w", "t"], "back": ["e-t-w"],
               "stops": [{"kind": "max-iterations", "n": 3, "then": "end"}, {"kind": "budget", "measure": "usd", "limit": 5}]}],
    "policies": [{"id": "iso", "kind": "critic-isolation", "scope": "node:w"}],
    "groups": [{"id": "grp", "name": "Grp", "members": ["w", "t"]}],
    "layout": {"w": {"x": 0, "y": 0}},
}
TEXT = json.dumps(GRAPH, indent=2) + "\n"


def _at(text: str, needle: str, nth: int = 0, shift: int = 1) -> int:
    pos = -1
    for _ in range(nth + 1):
        pos = text.index(needle, pos + 1)
    return pos + shift


def test_every_reference_place_is_found():
    occs = occurrences(GRAPH, "graph")
    refs_to_w = sorted(o.pointer for o in occs if o.id == "w" and not o.definition)
    assert refs_to_w == ["/edges/0/from", "/edges/1/to", "/groups/0/members/0", "/layout/w", "/loops/0/members/0", "/policies/0/scope"]


def test_definition_from_an_edge_end_and_from_a_policy_scope():
    a = analyze(TEXT, name="g.grooph.json")
    (span,) = definition_at(a, _at(TEXT, '"to": "t"', shift=7))
    assert TEXT[span[0]:span[1]] == "t"
    assert span[0] == TEXT.index('"id": "t"') + 7
    (span,) = definition_at(a, _at(TEXT, '"node:w"', shift=6))
    assert TEXT[span[0]:span[1]] == "w" and span[0] == TEXT.index('"id": "w"') + 7


def test_references_include_the_declaration_on_request():
    a = analyze(TEXT, name="g.grooph.json")
    offset = TEXT.index('"id": "end"') + 8
    spans = references_at(a, offset, include_declaration=True)
    assert len(spans) == 3  # the node id, the edge e3's `to`, the stop's `then`
    assert all(TEXT[s:e] == "end" for s, e in spans)
    assert len(references_at(a, offset, include_declaration=False)) == 2


def test_rename_updates_every_reference_like_renameId():
    a = analyze(TEXT, name="g.grooph.json")
    edits = rename_at(a, TEXT.index('"id": "w"') + 8, "worker")
    assert not isinstance(edits, Refused)
    out = json.loads(apply_edits(TEXT, edits))
    assert out["nodes"][0]["id"] == "worker"
    assert [e["id"] for e in out["edges"]] == ["e-worker-t", "e-t-worker", "e3"]  # derived ids follow
    assert out["loops"][0]["members"] == ["worker", "t"] and out["loops"][0]["back"] == ["e-t-worker"]
    assert out["policies"][0]["scope"] == "node:worker"
    assert out["groups"][0]["members"] == ["worker", "t"]
    assert list(out["layout"]) == ["worker"]


def test_rename_refuses_bad_or_taken_ids():
    a = analyze(TEXT, name="g.grooph.json")
    offset = TEXT.index('"id": "w"') + 8
    assert isinstance(rename_at(a, offset, "Worker"), Refused)
    taken = rename_at(a, offset, "t")
    assert isinstance(taken, Refused) and "already used" in taken.message


def test_prepare_rename_gives_the_id_span():
    a = analyze(TEXT, name="g.grooph.json")
    span, text = prepare_rename_at(a, TEXT.index('"from": "t"') + 10)
    assert text == "t" and TEXT[span[0]:span[1]] == "t"
    assert prepare_rename_at(a, TEXT.index('"name": "G"') + 9) is None


def test_map_rename_follows_lanes_and_handoff_ends():
    m = {"groophMap": 0, "id": "m", "name": "M", "version": 1,
         "lanes": [{"id": "lap", "name": "L", "machine": "a laptop", "account": "me"}],
         "sessions": [{"id": "a", "name": "A", "lane": "lap", "harness": "codex", "role": "r"},
                      {"id": "b", "name": "B", "lane": "lap", "harness": "codex", "role": "r"}],
         "handoffs": [{"id": "h", "from": "a", "to": "b", "carrier": {"kind": "session-message"}}]}
    text = json.dumps(m, indent=2)
    a = analyze(text, name="m.grooph-map.json")
    edits = rename_at(a, text.index('"id": "lap"') + 8, "laptop")
    out = json.loads(apply_edits(text, edits))
    assert [s["lane"] for s in out["sessions"]] == ["laptop", "laptop"]
    edits = rename_at(a, text.index('"from": "a"') + 10, "alpha")
    out = json.loads(apply_edits(text, edits))
    assert out["sessions"][0]["id"] == "alpha" and out["handoffs"][0]["from"] == "alpha"


def test_symbols_are_hierarchical():
    (root,) = document_symbols(GRAPH, "graph")
    assert root.name == "g"
    names = {c.name: [g.name for g in c.children] for c in root.children}
    assert names["nodes"] == ["w — W", "t — T", "end — End"]
    assert names["loops"] == ["l — L"]
    assert "policies" in names and "groups" in names
