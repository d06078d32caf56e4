"""The flow in the text in the core (issue 31 items 1, 2, 4): the places of one id through the generated walk
(`references.occurrences_of`, `occurrence_at`) agree with the full walk; highlights; the call hierarchy of a
graph (back edges marked, graph.md §2.3), a map (carriers, map.md §3.4) and a workflow (events, guards,
entries, the run machine, workflow.md §2); selection chains nested on every kind, whole and cut."""

from __future__ import annotations

import json

import pytest

import grooph_core.ide  # noqa: F401  (makes the faces)
from grooph_core.ide.kinds import kind_of_file
from grooph_core.semantics.references import occurrence_at, occurrences, occurrences_of
from tests.conftest import FIXTURES

GRAPHS = sorted((FIXTURES / "valid").glob("*.grooph.json"))
MAPS = sorted((FIXTURES / "maps" / "valid").glob("*.grooph-map.json"))
EVERY_KIND = [*GRAPHS[:3], *MAPS[:3], *sorted(FIXTURES.glob("workflow/**/*.workflow.yaml"))[:6],
              *sorted(FIXTURES.glob("board/valid/*.board.json")), *sorted(FIXTURES.glob("episodes/valid/*.episodes.json"))]


def _read(path, text=None):
    text = path.read_text("utf-8") if text is None else text
    return kind_of_file(path.name).read(text, name=path.name), text


@pytest.mark.parametrize("path", GRAPHS + MAPS, ids=lambda p: p.name)
def test_places_of_one_id_are_the_full_walks(path):
    kind = "map" if path in MAPS else "graph"
    doc = json.loads(path.read_text("utf-8"))
    occs = occurrences(doc, kind)
    assert occs
    for o in occs:
        assert occurrences_of(doc, kind, o.id) == [x for x in occs if x.id == o.id]
        assert occurrence_at(doc, kind, o.pointer, on_key=o.on_key) == o
    assert occurrence_at(doc, kind, "/id/0") is None and occurrence_at(doc, kind, "/nodes/999/id") is None


def test_highlight_of_a_layout_key_and_a_scope():
    path = FIXTURES / "valid" / "groups-policies-notes.grooph.json"
    a, text = _read(path)
    layout = text.index('"layout"')
    key = text.index('"', text.index("{", layout) + 1)  # the first layout key
    name = text[key + 1:text.index('"', key + 1)]
    found = a.document_kind.highlights(a, key + 2)
    assert {text[s:e] for (s, e), _ in ((h.span, h.write) for h in found)} == {name}
    assert [h.write for h in found].count(True) == 1 and len(found) >= 2


def test_graph_calls_mark_back_edges_and_group_by_node():
    a, text = _read(FIXTURES / "valid" / "review-loop.grooph.json")
    face = a.document_kind
    (item,) = face.call_items(a, text.index('"to": "build"') + 8)
    assert (item.kind, item.id, item.detail) == ("node", "build", "Build · agent · builder")
    calls = {c.item.id: c for c in face.incoming_calls(a, "node", "build")}
    assert calls["tests"].detail == "when fail · back edge of fix-tests · tests-failed"
    assert calls["review"].detail == "when fail · back edge of review-loop · review-failed"
    assert calls["plan"].detail == "always · plan-build"
    assert [text[s:e] for s, e in calls["plan"].spans] == ["plan"]
    assert face.incoming_calls(a, "node", "nobody") == [] and face.outgoing_calls(a, "edge", "build") == []
    # two edges between the same nodes are one call with two places
    doubled = text.replace('{\n      "id": "plan-build",', '{"id": "plan-build-2", "from": "plan", "to": "build"},\n    {\n      "id": "plan-build",')
    b, doubled = _read(FIXTURES / "valid" / "review-loop.grooph.json", doubled)
    (plan,) = [c for c in b.document_kind.incoming_calls(b, "node", "build") if c.item.id == "plan"]
    assert len(plan.spans) == 2 and plan.detail == "always · plan-build-2; always · plan-build"


def test_map_calls_name_the_carrier_and_a_dangling_end():
    path = FIXTURES / "maps" / "valid" / "tiny-shop.grooph-map.json"
    a, text = _read(path)
    face = a.document_kind
    (out,) = face.outgoing_calls(a, "session", "coder")
    assert (out.item.id, out.detail) == ("planner", "pull request on acme/shop · h-result")
    b, t2 = _read(path, text.replace('"to": "coder"', '"to": "codr"'))
    (out,) = b.document_kind.outgoing_calls(b, "session", "planner")
    assert out.item.id == "codr" and out.item.detail == "no session or person has this id"
    assert b.document_kind.incoming_calls(b, "session", "codr") == []


def test_workflow_run_machine_and_entries():
    path = FIXTURES / "workflow" / "invalid" / "E_WF_UNKNOWN_RUN_STATE" / "run-targets.workflow.yaml"
    a, text = _read(path)
    face = a.document_kind
    (starting,) = face.call_items(a, text.index("starting:") + 2)
    assert (starting.kind, starting.id) == ("run state", "starting")
    incoming = face.incoming_calls(a, "run state", "starting")
    assert [(c.item.kind, c.item.name, c.detail) for c in incoming] == [("run state", "working", "on down"),
                                                                       ("entry", "run initial", "")]
    (lost,) = face.call_items(a, text.index("lost:") + 1)
    assert (lost.kind, lost.id, lost.name) == ("entry", "/run/on/lost", "run on lost")
    # a template target is left out; a target naming no state is shown where it is named
    (gone,) = face.outgoing_calls(a, "entry", "/run/on/lost")
    assert gone.item.detail == "no run state of this name" and [text[s:e] for s, e in gone.spans] == ["gone"]
    # the card machine beside it: ready targets itself
    (ready,) = face.outgoing_calls(a, "status", "ready")
    assert (ready.item.id, ready.detail) == ("ready", "on start")


def test_verbs_with_from_leave_those_statuses():
    text = ("initial: [{target: a}]\nverbs:\n  finish: [{from: [a, b], target: c, guard: card.ok}]\n"
            "on:\n  cancel: [{target: c}]\nstatuses:\n  a: {}\n  b: {}\n  c: {}\ndispatch: {tick: 30, start: go}\n")
    path = FIXTURES / "workflow" / "valid" / "spec-example.workflow.yaml"
    a, _ = _read(path, text)
    incoming = a.document_kind.incoming_calls(a, "status", "c")
    assert [(c.item.name, c.detail) for c in incoming] == [("a", "verb finish · if card.ok"), ("b", "verb finish · if card.ok"),
                                                          ("on cancel", "on cancel (every status)")]


@pytest.mark.parametrize("path", EVERY_KIND, ids=lambda p: p.name)
def test_selection_chains_are_nested_whole_and_cut(path):
    text = path.read_text("utf-8")
    for version in (text, text[: len(text) * 2 // 3]):
        a, version = _read(path, version)
        offsets = list(range(0, len(version) + 1, max(1, len(version) // 60)))
        chains = a.document_kind.selection_ranges(a, offsets)
        assert len(chains) == len(offsets)
        for offset, chain in zip(offsets, chains):
            assert chain[-1] == (0, len(version))
            assert chain[0][0] <= offset <= chain[0][1], (offset, chain[0])
            for inner, outer in zip(chain, chain[1:]):
                assert outer[0] <= inner[0] and inner[1] <= outer[1] and inner != outer


def test_highlights_not_offered_without_names():
    path = sorted(FIXTURES.glob("episodes/valid/*.episodes.json"))[0]
    a, _ = _read(path)
    assert a.document_kind.highlights(a, 5) is None and a.document_kind.call_items(a, 5) is None
