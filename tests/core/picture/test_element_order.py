"""The order of elements in the SVG where the reference's golden pictures fix it (issue 16 point 2):
a lane's heading (pictures.md §2.6), the sequence's body (§5.4) and the graph picture's label layer (§7.5).
Positions are tested elsewhere; here only which element comes before which."""

from __future__ import annotations

import pytest

from grooph_core.picture import render_svg
from tests.core.picture.helpers import NS, parse, tag

LONG_LANE = "Cloud runners in the far away data centre of the north"


def small_map(lane_name: str = LONG_LANE) -> dict:
    return {
        "groophMap": 0, "id": "m", "name": "Small map", "version": 1,
        "lanes": [{"id": "far", "name": lane_name, "machine": "sandboxes", "place": "cloud", "account": "team"}],
        "people": [{"id": "ana", "name": "Ana", "role": "Owner"}],
        "sessions": [{"id": "chef", "name": "Chef", "lane": "far", "harness": "codex", "role": "Plans",
                      "lifetime": "long-lived"}],
        "handoffs": [{"id": "h1", "from": "ana", "to": "chef", "carrier": {"kind": "session-message"}, "what": "wishes"}],
    }


def lane_heading_parts(svg: str, lane_id: str) -> list[tuple[str, str]]:
    """(tag, text) of the children of the lane's group, after its box, in document order."""
    root = parse(svg)
    [lane] = [g for g in root.iter(f"{NS}g") if g.get("data-lane") == lane_id]
    return [(tag(el), el.text or "") for el in list(lane)[1:]]


@pytest.mark.parametrize("layout", ["phone", "wide"])
def test_lane_heading_pill_follows_the_names_first_line(layout):
    """§2.6: first name line, pill rect, pill word, further name lines, machine · account."""
    parts = lane_heading_parts(render_svg(small_map(), "map", layout=layout), "far")
    words = [t for _, t in parts]
    assert len(parts) >= 5, parts
    assert [tg for tg, _ in parts[:3]] == ["text", "rect", "text"]
    assert words[2] == "cloud"
    name_lines = [words[0]] + words[3:words.index("sandboxes \u00b7 team")]
    assert len(name_lines) >= 2, "the test needs a lane name that wraps"
    assert " ".join(name_lines) == LONG_LANE
    assert words[-1] == "sandboxes \u00b7 team"


def test_lane_heading_with_one_name_line_keeps_the_same_order():
    parts = lane_heading_parts(render_svg(small_map("Far"), "map"), "far")
    assert parts == [("text", "Far"), ("rect", ""), ("text", "cloud"), ("text", "sandboxes \u00b7 team")]


def test_sequence_writes_the_words_heading_right_after_the_note():
    """§5.4: heading, note lines, then `Carried by, and what is handed`, then the group boxes."""
    root = parse(render_svg(small_map(), "map", view="sequence"))
    body = list(root)
    texts = [i for i, el in enumerate(body) if tag(el) == "text"]
    words = next(i for i in texts if body[i].text == "Carried by, and what is handed")
    assert "a map records no times." in (body[words - 1].text or "")
    first_box = next(i for i, el in enumerate(body) if "data-people" in el.attrib or "data-lane" in el.attrib)
    assert words + 1 == first_box
    heads = [i for i, el in enumerate(body) if "data-session" in el.attrib or "data-person" in el.attrib]
    assert heads and words < min(heads)


def column_graph(edges: list[dict], loops: list[dict] | None = None) -> dict:
    nodes = [{"id": n, "kind": "agent", "name": n.upper(), "role": "builder", "brief": "b", "outputs": ["o"],
              "allow": ["edit-files"]} for n in ("a", "b", "c")] + [{"id": "end", "kind": "stop", "name": "End"}]
    return {"grooph": 0, "id": "g", "name": "G", "version": 1, "nodes": nodes, "edges": edges, "loops": loops or []}


def label_layer(svg: str, words: set[str]) -> list[tuple[str, bool]]:
    """The edge labels among the picture's top-level elements, in document order: (word, turned), where
    a turned label rides a margin upright and an upright one is a next-edge pill."""
    out = []
    for el in parse(svg):
        if tag(el) == "text" and el.text in words:
            out.append((el.text, False))
        elif tag(el) == "g" and (el.get("transform") or "").startswith("rotate(-90 "):
            out.extend((t.text, True) for t in el.iter(f"{NS}text"))
    return out


def turned_label_xs(svg: str) -> list[float]:
    """The x of each turned label's upright (from `rotate(-90 x cy)`), in document order."""
    return [float(el.get("transform").split()[1]) for el in parse(svg)
            if tag(el) == "g" and (el.get("transform") or "").startswith("rotate(-90 ")]


def test_graph_labels_next_pills_then_left_then_right_each_in_edge_order():
    """§7.5: the right-margin edge comes first in the document, the left-margin one second, the
    next-edges after: the pills are written first, then the left label, then the right one."""
    edges = [
        {"id": "r1", "from": "c", "to": "c", "label": "right-one"},  # a self edge: right margin
        {"id": "l1", "from": "a", "to": "c", "label": "left-one"},   # skips b: left margin
        {"id": "n1", "from": "a", "to": "b", "label": "next-one"},
        {"id": "r2", "from": "b", "to": "b", "label": "right-two"},
        {"id": "l2", "from": "a", "to": "end", "label": "left-two"},
        {"id": "n2", "from": "b", "to": "c", "label": "next-two"},
        {"id": "n3", "from": "c", "to": "end", "label": "next-three"},
    ]
    words = {e["label"] for e in edges}
    layer = label_layer(render_svg(column_graph(edges), "graph"), words)
    assert layer == [("next-one", False), ("next-two", False), ("next-three", False),
                     ("left-one", True), ("left-two", True), ("right-one", True), ("right-two", True)]


def test_graph_labels_fail_pass_pass_fail_writes_the_pills_first():
    """The spec's own case (§7.5): edges fail, pass, pass, fail give pills pass, pass, then the turned fail, fail."""
    edges = [
        {"id": "back", "from": "b", "to": "a", "when": "fail"},   # a loop's back edge: right margin
        {"id": "ab", "from": "a", "to": "b", "when": "pass"},
        {"id": "bc", "from": "b", "to": "c", "when": "pass"},
        {"id": "skip", "from": "a", "to": "end", "when": "fail"},  # skips cards: left margin
        {"id": "ce", "from": "c", "to": "end"},
    ]
    loops = [{"id": "l", "name": "L", "members": ["a", "b"], "back": ["back"], "stops": [{"kind": "max-iterations", "n": 3}]}]
    svg = render_svg(column_graph(edges, loops), "graph")
    assert label_layer(svg, {"pass", "fail"}) == [("pass", False), ("pass", False), ("fail", True), ("fail", True)]
    left, right = turned_label_xs(svg)
    assert left < right, "the left-margin label is written before the right-margin one"
