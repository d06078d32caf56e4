"""The graph picture (pictures.md §7, §12.4)."""

import pytest

from grooph_core.picture import render_svg
from grooph_core.picture.graph_picture import layer_nodes
from grooph_core.picture.theme import PALETTE

from .helpers import card_of, children, essay, parse, rect_box, style, tag, text_extent, valid_graphs, with_attr

LIGHT = {n: v for n, v, _ in PALETTE}
GRAPHS = valid_graphs()


def texts(el):
    return [t.text for t in el.iter() if tag(t) == "text"]


def test_essay_week_worked_numbers():
    """pictures.md §12.4."""
    doc = essay()
    root = parse(render_svg(doc, "graph"))
    assert root.attrib["data-picture"] == "graph" and root.attrib["viewBox"] == "0 0 400 708"
    nodes = {g.attrib["data-node"]: g for g in with_attr(root, "data-node")}
    assert list(nodes) == ["plan", "draft", "lint", "review", "ship", "done"]
    boxes = {nid: card_of(g) for nid, g in nodes.items()}
    assert {b[0] for b in boxes.values()} == {72} and {b[2] for b in boxes.values()} == {282}
    assert {b[3] for b in boxes.values()} == {59.5}
    assert [boxes[n][1] for n in nodes] == [98.5, 188, 293.5, 361, 450.5, 540]
    band = [r for r in root if tag(r) == "rect" and r.attrib.get("rx") == "12"][0]
    assert rect_box(band) == (66, 273.5, 294, 153)
    assert "2 side by side" in texts(root)
    all_text = texts(root)
    assert all_text[1:3] == ["claude-code \u00b7 1 person's step \u00b7 2 agents' steps \u00b7 1 check \u00b7 1 gate",
                             "\u00b7 1 loop \u00b7 up to 3 rounds"]
    kinds = [texts(g)[0] for g in nodes.values()]
    assert kinds == ["Agent", "Person", "Check", "Agent", "Human gate", "Stop"]
    subs = [texts(g)[2] for g in nodes.values()]
    assert subs == ["planner \u00b7 fast", "builder", "command \u00b7 make lint", "critic \u00b7 strong \u00b7 high",
                    "ship / hold", "success"]
    person_label = children(nodes["draft"], "text")[0]
    assert style(person_label, "fill") == LIGHT["gate"]
    edges = {g.attrib["data-edge"]: g for g in with_attr(root, "data-edge")}
    assert sorted(edges) == [f"e{i}" for i in range(1, 9)]
    nexts = {e: children(edges[e], "path")[0].attrib["d"] for e in ("e1", "e2", "e5", "e7")}
    assert nexts == {"e1": "M213,158 V182.5", "e2": "M213,247.5 V288", "e5": "M213,420.5 V445", "e7": "M213,510 V534.5"}
    track = {e: children(edges[e], "path")[0].attrib["d"].split("Q")[1].split(",")[0] for e in ("e3", "e4", "e8", "e6")}
    assert track == {"e3": "56", "e4": "43", "e8": "30", "e6": "370"}
    labels = {g.attrib["transform"]: texts(g)[0] for g in root if "transform" in g.attrib}
    assert labels == {"rotate(-90 43 398.8)": "pass", "rotate(-90 30 307.3)": "urgent", "rotate(-90 370 304.3)": "fail"}
    loop = with_attr(root, "data-loop")[0]
    assert texts(loop) == ["Edit loop", "judgment loop \u00b7 Draft, Lint, Review",
                           "1. max iterations: 3: stop here and decide",
                           "2. human halt, asked every 2 round(s): stop here and decide"]
    # the back edge is drawn in its loop's colour, dashed
    e6 = children(edges["e6"], "path")[0]
    assert style(e6, "stroke") == LIGHT["loop-0"] and e6.attrib["stroke-dasharray"] == "5 3"


def test_rank_rows_of_the_worked_example():
    doc = essay()
    ids = [n["id"] for n in doc["nodes"]]
    assert layer_nodes(ids, doc["edges"], {"e6"}) == [["plan"], ["draft"], ["lint", "review"], ["ship"], ["done"]]


def test_cycles_among_forward_edges_are_broken_depth_first():
    edges = [{"id": "a", "from": "x", "to": "y"}, {"id": "b", "from": "y", "to": "x"}, {"id": "c", "from": "y", "to": "z"}]
    assert layer_nodes(["x", "y", "z"], edges, set()) == [["x"], ["y"], ["z"]]


@pytest.mark.parametrize("name,doc", GRAPHS, ids=[n for n, _ in GRAPHS])
def test_graph_properties(name, doc):
    svg = render_svg(doc, "graph")
    assert render_svg(doc, "graph") == svg
    root = parse(svg)
    assert root.attrib["viewBox"].split()[2] == "400"
    nodes = with_attr(root, "data-node")
    assert sorted(g.attrib["data-node"] for g in nodes) == sorted({n["id"] for n in doc["nodes"]})
    ids = {n["id"] for n in doc["nodes"]}
    assert sorted(g.attrib["data-edge"] for g in with_attr(root, "data-edge")) == sorted(
        e["id"] for e in doc["edges"] if e["from"] in ids and e["to"] in ids)
    for g in nodes:
        x, y, w, h = card_of(g)
        for t in (el for el in g.iter() if tag(el) == "text"):
            left, right = text_extent(t)
            assert left >= x and right <= x + w - 4
            assert y < float(t.attrib["y"]) < y + h
    assert [g.attrib["data-loop"] for g in with_attr(root, "data-loop")] == [lp["id"] for lp in doc["loops"]]


def test_a_graph_with_no_nodes_says_so():
    doc = {"grooph": 0, "id": "blank", "name": "Blank", "version": 0, "nodes": [], "edges": [], "loops": []}
    root = parse(render_svg(doc, "graph"))
    assert texts(root) == ["Blank", "no nodes yet"]


def test_edge_styles_and_labels():
    doc = essay()
    doc["edges"].append({"id": "e9", "from": "plan", "to": "done", "approval": True})
    doc["edges"].append({"id": "e10", "from": "review", "to": "done", "when": {"verdict": "reject"}})
    root = parse(render_svg(doc, "graph"))
    edges = {g.attrib["data-edge"]: children(g, "path")[0] for g in with_attr(root, "data-edge")}
    assert style(edges["e9"], "stroke") == LIGHT["gate"] and edges["e9"].attrib["stroke-width"] == "2"
    assert style(edges["e10"], "stroke") == LIGHT["ink-3"] and edges["e10"].attrib["stroke-dasharray"] == "1.5 3"
    labels = {texts(g)[0] for g in root if "transform" in g.attrib}
    assert {"approval", "reject"} <= labels
    assert "2 gates" in " ".join(texts(root)[1:3])  # the human gate and the approval edge


def test_plan_words_and_budget_stops():
    doc = essay()
    doc["nodes"][1].pop("by")
    doc["loops"][0]["stops"].append({"kind": "budget", "measure": "usd", "limit": 2.5, "then": "ship"})
    doc["loops"][0]["bar"] = {"name": "Clear", "inspects": [], "acceptance": "Reads well aloud."}
    loop = with_attr(parse(render_svg(doc, "graph")), "data-loop")[0]
    words = texts(loop)
    assert "Bar: Clear. Reads well aloud." in words
    assert "1. max iterations: 3: halt the run and report to the human" in words
    assert "3. budget: 2.5 usd: continue at node ship" in words
