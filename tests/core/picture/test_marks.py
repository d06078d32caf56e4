"""Every element a picture marks with an id leads back to that id's definition in the text
(picture.marks; the live picture's click -> reveal, issue 29 item 4): graph, map in its three views,
workflow; an unknown mark or id finds nothing."""

from __future__ import annotations

import html
import json
import re

import pytest

from grooph_core.ide.kinds import analyse
from grooph_core.picture.marks import MARKS
from tests.conftest import FIXTURES

MARKED = re.compile(r'<g data-([a-z-]+)="([^"]*)"')


def _analysis(path):
    text = path.read_text("utf-8")
    return analyse(text, name=path.name)


CASES = [
    (FIXTURES / "valid" / "review-loop.grooph.json", None),
    (FIXTURES / "maps" / "valid" / "bakery-ops.grooph-map.json", None),
    (FIXTURES / "maps" / "valid" / "bakery-ops.grooph-map.json", "wide"),
    (FIXTURES / "maps" / "valid" / "bakery-ops.grooph-map.json", "sequence"),
    (FIXTURES / "workflow" / "valid" / "spec-example.workflow.yaml", None),
]


@pytest.mark.parametrize("path, view", CASES, ids=lambda c: getattr(c, "name", str(c)))
def test_every_marked_element_leads_to_its_definition(path, view):
    a = _analysis(path)
    kind = a.document_kind
    svg = kind.picture(a, view=view, theme="auto")
    marked = [(m, html.unescape(i)) for m, i in MARKED.findall(svg) if m in MARKS]
    assert len({m for m, _ in marked}) >= 1 and marked
    for mark, ident in marked:
        span = kind.picture_target(a, mark, ident)
        assert span is not None, (mark, ident)
        assert a.text[span[0]:span[1]] == ident, (mark, ident, a.text[span[0]:span[1]])


def test_a_graph_picture_marks_nodes_edges_and_loops_and_each_finds_its_own_definition():
    a = _analysis(FIXTURES / "valid" / "review-loop.grooph.json")
    svg = a.document_kind.picture(a, theme="light")
    marks = {m for m, _ in MARKED.findall(svg)}
    assert {"node", "edge", "loop"} <= marks
    doc = json.loads(a.text)
    node = doc["nodes"][1]["id"]
    s, e = a.document_kind.picture_target(a, "node", node)
    # the definition, not the first mention (an edge's `from` may come first in the text)
    line_start = a.text.rfind("\n", 0, s) + 1
    assert a.text[line_start:s].strip().startswith('"id"')


def test_a_map_marks_lanes_sessions_people_and_handoffs():
    a = _analysis(FIXTURES / "maps" / "valid" / "bakery-ops.grooph-map.json")
    marks = {m for m, _ in MARKED.findall(a.document_kind.picture(a, view="wide", theme="light"))}
    assert {"lane", "session", "person", "handoff"} <= marks
    assert a.text[slice(*a.document_kind.picture_target(a, "handoff-row", "h-pr"))] == "h-pr"


def test_an_unknown_mark_or_id_finds_nothing():
    a = _analysis(FIXTURES / "valid" / "review-loop.grooph.json")
    kind = a.document_kind
    assert kind.picture_target(a, "node", "no-such-node") is None
    assert kind.picture_target(a, "picture", "graph") is None
    assert kind.picture_target(a, "onclick", "plan") is None
    w = _analysis(FIXTURES / "workflow" / "valid" / "spec-example.workflow.yaml")
    assert w.document_kind.picture_target(w, "status", "nowhere") is None
    assert w.document_kind.picture_target(w, "node", "ready") is None


def test_a_board_has_no_picture_to_click():
    a = _analysis(FIXTURES / "board" / "valid" / "checkout.board.json")
    assert a.document_kind.picture_target(a, "status", "x") is None
