"""Subgroophs in the graph picture (pictures.md §7.7) and the glyph (§8)."""

import re

import pytest

from grooph_core.cli import main
from grooph_core.picture import PictureError, render_svg
from grooph_core.picture.glyph import glyph_svg

from .helpers import card_of, children, essay, example, parse, rect_box, tag, with_attr


def with_groups():
    """essay-week with a placed kit holding Lint and a nested kit holding Review, and a plain group."""
    return example("essay-week-kits.grooph.json")


def texts(el):
    return [t.text for t in el.iter() if tag(t) == "text"]


def test_closed_by_default_one_card_stands_for_what_it_holds():
    root = parse(render_svg(with_groups(), "graph"))
    assert [g.attrib["data-node"] for g in with_attr(root, "data-node")] == ["plan", "draft", "ship", "done"]
    boxes = [g for g in with_attr(root, "data-group")]
    assert [g.attrib["data-group"] for g in boxes] == ["checks"] and "data-open" not in boxes[0].attrib
    words = texts(boxes[0])
    assert words == ["Subgrooph", "Checks", "review-kit@2 \u00b7 2 nodes", "Lint, then a critic reads it",
                     "irreversible inside: publish"]
    x, y, w, h = card_of(boxes[0])
    # the glyph of what it holds, nested at the card's foot, at most 34 tall
    glyph = [el for el in root.iter() if tag(el) == "svg" and "data-glyph" in el.attrib]
    assert len(glyph) == 1
    gx, gy, gh = float(glyph[0].attrib["x"]), float(glyph[0].attrib["y"]), float(glyph[0].attrib["height"])
    assert gx == x + 10 and abs(gy + gh + 8 - (y + h)) < 0.11 and gh <= 34
    assert sum(1 for el in glyph[0] if tag(el) in ("path", "rect", "circle")) >= 3  # hexagon, diamond, edge, bar
    # a second card edge behind it, offset by 4
    assert any(tag(r) == "rect" and rect_box(r) == (x + 4, y + 4, w, h) for r in root)
    # edges re-pointed to the box; the one inside it is gone
    edges = {g.attrib["data-edge"] for g in with_attr(root, "data-edge")}
    assert edges == {"e1", "e2", "e3", "e4", "e5", "e6", "e7", "e8"}
    assert "Not drawn" not in " ".join(texts(root))
    assert [g.attrib["data-loop"] for g in with_attr(root, "data-loop")] == ["edit-loop"]


def test_open_subgroophs_frame_their_own_rows():
    doc = with_groups()
    root = parse(render_svg(doc, "graph", open_groups=["checks", "inner"]))
    nodes = {g.attrib["data-node"]: card_of(g) for g in with_attr(root, "data-node")}
    assert set(nodes) == {"plan", "draft", "lint", "review", "ship", "done"}
    frames = {g.attrib["data-group"]: g for g in with_attr(root, "data-open")}
    assert list(frames) == ["checks", "inner"]  # outer first, so the inner one lies over it
    for gid, held in (("checks", ("lint", "review")), ("inner", ("review",))):
        fx, fy, fw, fh = rect_box(children(frames[gid], "rect")[0])
        for n in held:
            x, y, w, h = nodes[n]
            assert fx < x and x + w < fx + fw and fy < y and y + h < fy + fh
        assert children(frames[gid], "rect")[0].attrib.get("stroke-dasharray") == "5 4"
    assert texts(frames["checks"]) == ["Checks", "review-kit@2"]
    assert "e9" in {g.attrib["data-edge"] for g in with_attr(root, "data-edge")}
    inner = rect_box(children(frames["inner"], "rect")[0])
    outer = rect_box(children(frames["checks"], "rect")[0])
    assert outer[0] < inner[0] and inner[0] + inner[2] < outer[0] + outer[2]


def test_opening_the_outer_box_keeps_the_inner_one_closed():
    root = parse(render_svg(with_groups(), "graph", open_groups=["checks"]))
    assert [g.attrib["data-group"] for g in with_attr(root, "data-group")] == ["checks", "inner"]
    assert "data-open" in with_attr(root, "data-group")[0].attrib
    assert "review" not in {g.attrib["data-node"] for g in with_attr(root, "data-node")}


def test_a_loop_wholly_inside_a_closed_box_disappears():
    doc = with_groups()
    doc["groups"] = [{"id": "all-edit", "name": "Editing", "members": ["draft", "lint", "review"], "from": "edit@1"}]
    root = parse(render_svg(doc, "graph"))
    assert with_attr(root, "data-loop") == []
    box = with_attr(root, "data-group")[0]
    assert "edit@1 \u00b7 3 nodes \u00b7 1 loop" in texts(box)
    assert "e6" not in {g.attrib["data-edge"] for g in with_attr(root, "data-edge")}


def test_no_subgrooph_draws_exactly_as_before():
    doc = essay()
    doc["groups"] = [{"id": "plain", "name": "Plain", "members": ["plan", "draft"]}]
    assert render_svg(doc, "graph") == render_svg(essay(), "graph")


def test_open_names_must_be_subgroophs():
    with pytest.raises(PictureError, match='"plain" is not a subgrooph of this graph; its subgroophs are: checks, inner'):
        render_svg(with_groups(), "graph", open_groups=["plain"])
    with pytest.raises(PictureError, match="it has no subgrooph"):
        render_svg(essay(), "graph", open_groups=["x"])


def test_cli_open(capsys, tmp_path):
    import json

    p = tmp_path / "g.grooph.json"
    p.write_text(json.dumps(with_groups()), "utf-8")
    assert main(["image", str(p), "--open", "checks", "--theme", "light"]) == 0
    out = capsys.readouterr().out
    assert out == render_svg(with_groups(), "graph", open_groups=["checks"])
    assert main(["image", str(p), "--open", "all", "--theme", "light"]) == 0
    assert capsys.readouterr().out == render_svg(with_groups(), "graph", open_groups=["checks", "inner"])
    assert main(["image", str(p), "--open", "plain"]) == 1
    err = capsys.readouterr().err
    assert err == f'grooph: "plain" is not a subgrooph of {p}; its subgroophs are: checks, inner\n'


def test_standalone_glyph_form():
    svg = glyph_svg(essay())
    lines = svg.split("\n")
    assert lines[0].startswith('<svg xmlns="http://www.w3.org/2000/svg" viewBox="') and 'class="grooph-glyph"' in lines[0]
    assert lines[1] == "<title>Essay of the week</title>" and lines[-1] == "</svg>" and not svg.endswith("\n")
    assert sum(1 for ln in lines if ln.startswith("<rect") and 'stroke-dasharray="4 3"' in ln) == 1  # one hull
    body = "\n".join(lines[2:-1])
    assert body.count(" C") == 1  # the back edge curves round its lane
    assert len(re.findall(r'style="fill:var\(--edge|style="fill:var\(--warning', body)) == 8  # an arrowhead per edge
    assert "var(--kind-human-gate, #b25e09)" in body and "var(--kind-check, #2b5f9e)" in body
    assert glyph_svg(essay()) == svg


def test_empty_glyph_and_layout_glyph():
    empty = {"grooph": 0, "id": "e", "name": "A & <b>", "version": 0, "nodes": [], "edges": [], "loops": []}
    assert glyph_svg(empty).split("\n")[:2] == [
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="-16 -16 32 32" width="32" height="32" role="img" fill="none"'
        ' stroke-linecap="round" stroke-linejoin="round" class="grooph-glyph">', "<title>A &amp; &lt;b&gt;</title>"]
    doc = essay()
    doc["layout"] = {n["id"]: {"x": 0, "y": 200 * k} for k, n in enumerate(doc["nodes"][:4])}
    svg = glyph_svg(doc)
    x, y, w, h = (float(v) for v in svg.split('viewBox="')[1].split('"')[0].split())
    assert h > w  # laid out top to bottom: portrait
