"""The sequence view of a map (pictures.md §5, §12.1, §12.2)."""

import pytest

from grooph_core.picture import render_svg
from grooph_core.picture.map_parts import CARRIER_STYLE
from grooph_core.picture.theme import PALETTE

from .helpers import bakery, children, long_map, parse, path_points, rect_box, style, tag, valid_maps, viewbox, with_attr

LIGHT = {n: v for n, v, _ in PALETTE}
MAPS = valid_maps()


def seq(doc, **kw):
    return parse(render_svg(doc, "map", view="sequence", **kw))


def heads(root):
    """(id, card rect) per column head, left to right."""
    out = []
    for g in with_attr(root, "data-session") + with_attr(root, "data-person"):
        r = [c for c in children(g, "rect") if "data-card" in c.attrib][0]
        out.append((g.attrib.get("data-session") or g.attrib.get("data-person"), rect_box(r)))
    return sorted(out, key=lambda t: t[1][0])


def test_bakery_worked_numbers():
    """pictures.md §12.2, sequence (light)."""
    root = seq(bakery())
    assert root.attrib["data-picture"] == "sequence"
    assert root.attrib["viewBox"] == "0 0 556 428"
    cols = heads(root)
    assert [c for c, _ in cols] == ["ana", "chef", "bakers", "taster"]
    assert [b[0] + b[2] / 2 for _, b in cols] == [43, 105, 167, 229]
    assert {b[1] for _, b in cols} == {140} and {b[3] for _, b in cols} == {34}
    bakers = [g for g in with_attr(root, "data-session") if g.attrib["data-session"] == "bakers"][0]
    assert [t.text for t in children(bakers, "text")] == ["Bakers", "\u00d74"]
    rows = [rect_box([r for r in children(g, "rect") if "data-row" in r.attrib][0]) for g in with_attr(root, "data-handoff")]
    assert [r[1] - 1.5 for r in rows] == [182, 220, 258, 296, 334, 372]
    words = [t for t in root.iter() if tag(t) == "text" and t.text == "Carried by, and what is handed"][0]
    assert float(words.attrib["x"]) == 274


@pytest.mark.parametrize("name,doc", MAPS, ids=[n for n, _ in MAPS])
def test_sequence_properties_of_section_12_1(name, doc):
    svg = render_svg(doc, "map", view="sequence")
    assert render_svg(doc, "map", view="sequence") == svg
    root = parse(svg)
    words = " ".join(t.text or "" for t in root.iter() if tag(t) == "text")
    assert "An order, not a clock: a map records no times." in words
    cols = heads(root)
    widths = {b[2] + 8 for _, b in cols}
    assert len(widths) == 1 and 62 <= widths.pop() <= 104
    centre = {cid: b[0] + b[2] / 2 for cid, b in cols}
    lanes = {ln["id"] for ln in doc["lanes"]}
    drawn_sessions = {s["id"] for s in doc["sessions"] if s["lane"] in lanes}
    ends = drawn_sessions | {p["id"] for p in doc.get("people", [])}
    assert set(centre) == ends
    drawn = [h for h in doc["handoffs"] if h["from"] in ends and h["to"] in ends]
    rows = with_attr(root, "data-handoff")
    assert [g.attrib["data-handoff"] for g in rows] == [h["id"] for h in drawn]
    tops = [rect_box([r for r in children(g, "rect") if "data-row" in r.attrib][0])[1] for g in rows]
    assert tops == sorted(tops)
    for g, h in zip(rows, drawn):
        arrow = children(g, "path")[0]
        pts = path_points(arrow.attrib["d"])
        assert abs(pts[0][0] - centre[h["from"]]) <= 0.2
        if h["from"] != h["to"]:
            assert abs(pts[-1][0] - centre[h["to"]]) <= 5.7
        colour, sw, dash = CARRIER_STYLE[h["carrier"]["kind"] if "carrier" in h else None]
        assert float(arrow.attrib["stroke-width"]) == sw and arrow.attrib.get("stroke-dasharray") == dash
    assert not any((t.text or "").endswith("\u2026") for t in root.iter() if tag(t) == "text")
    boxed = {g.attrib["data-lane"] for g in with_attr(root, "data-lane")}
    assert boxed == {s["lane"] for s in doc["sessions"] if s["lane"] in lanes}


def test_the_note_says_it_is_an_order_not_a_clock():
    root = seq(bakery())
    note = " ".join(t.text for t in root.iter() if tag(t) == "text" and t.attrib.get("font-size") == "11"
                    and style(t, "fill") == LIGHT["ink-2"])
    assert "An order, not a clock: a map records no times." in note


def test_a_width_only_changes_the_words_area():
    doc = bakery()
    base = heads(seq(doc))
    for room, expect in ((2000, 556 + 90), (200, 556 - 80), (600, 600)):
        root = seq(doc, width=room)
        assert heads(root) == base
        assert viewbox(root)[0] == expect


def test_a_lane_with_no_session_has_no_box_and_a_self_handoff_loops_back():
    doc = bakery()
    doc["lanes"].append({"id": "spare", "name": "Spare", "machine": "m", "account": "a"})
    root = seq(doc)
    assert "spare" not in {g.attrib["data-lane"] for g in with_attr(root, "data-lane")}
    morning = [g for g in with_attr(root, "data-handoff") if g.attrib["data-handoff"] == "h-morning"][0]
    assert children(morning, "path")[0].attrib["d"] == "M105,347 h20 v12 H110.5"


def test_many_columns_stay_within_bounds():
    root = seq(long_map())
    widths = {b[2] + 8 for _, b in heads(root)}
    assert len(widths) == 1 and 62 <= widths.pop() <= 104
