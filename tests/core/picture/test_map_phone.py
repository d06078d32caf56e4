"""The phone picture of a map (pictures.md §2, §3, §12.1, §12.2)."""

import pytest

from grooph_core.picture import render_svg
from grooph_core.picture.map_parts import CARRIER_STYLE
from grooph_core.picture.theme import PALETTE

from .helpers import (
    arc_runs, bakery, card_of, children, crossings, long_map, parse, path_points, rect_box, runs, style, tag,
    text_extent, valid_maps, viewbox, with_attr,
)

LIGHT = {n: v for n, v, _ in PALETTE}
MAPS = valid_maps()


def test_bakery_worked_numbers():
    """pictures.md §12.2, phone picture (light)."""
    root = parse(render_svg(bakery(), "map"))
    assert root.attrib["viewBox"] == "0 0 400 892"
    people = with_attr(root, "data-people")[0]
    assert rect_box(children(people, "rect")[0]) == (12, 77, 376, 86)
    lanes = {g.attrib["data-lane"]: rect_box(children(g, "rect")[0]) for g in with_attr(root, "data-lane")}
    assert lanes == {"office": (12, 173, 376, 146), "cloud": (12, 329, 376, 218)}
    cards = {g.attrib.get("data-session") or g.attrib.get("data-person"): card_of(g)
             for g in with_attr(root, "data-session") + with_attr(root, "data-person")}
    assert cards == {"ana": (20, 106.5, 317, 48.5), "chef": (20, 216, 317, 95), "bakers": (20, 372, 317, 76.5),
                     "taster": (20, 462.5, 317, 76.5)}
    arcs = arc_runs(root)
    expect = {"h-menu": (353, 124.3, 231), "h-bake": (353, 283, 403.8), "h-pr": (353, 416.8, 494.3),
              "h-verdict": (366, 507.3, 296), "h-morning": (353, 257, 270), "h-ready": (366, 244, 137.3)}
    for hid, (x, y1, y2) in expect.items():
        lvl1, up, lvl2 = arcs[hid]
        assert up == ("upright", x, y1, y2), hid
        assert lvl1[0] == "level" and lvl1[1] == y1 and lvl2[1] == y2
    rings = {g.attrib["data-plate"]: g for g in with_attr(root, "data-plate")}
    at = {hid: (float(c.attrib["cx"]), float(c.attrib["cy"])) for hid, g in rings.items() for c in children(g, "circle")}
    assert at == {"h-menu": (353, 177.6), "h-bake": (353, 343.4), "h-pr": (353, 455.5), "h-verdict": (366, 401.6),
                  "h-ready": (366, 198.6), "h-morning": (353, 263.5)}
    # plates that fit are drawn first; h-morning's follows its own line
    order = [el.attrib.get("data-plate") or ("line:" + el.attrib["data-handoff"])
             for el in root if "data-plate" in el.attrib or "data-handoff" in el.attrib]
    assert order[:5] == ["h-menu", "h-bake", "h-pr", "h-verdict", "h-ready"]
    assert order.index("h-morning") == order.index("line:h-morning") + 1
    heads = [el for el in root.iter() if tag(el) == "text" and el.text == "Handoffs"]
    assert float(heads[0].attrib["y"]) == 574
    rows = [rect_box(children(g, "rect")[0]) for g in with_attr(root, "data-handoff-row")]
    assert [r[1] for r in rows] == [581, 631.5, 682, 732.5, 783, 833.5]
    assert all(r[2] == 384 and r[3] == 47.5 for r in rows)
    assert crossings(arcs) == 2
    captions = [el.text for el in root.iter() if tag(el) == "text" and el.attrib["font-size"] == "11"][:2]
    assert captions == ["as of 2027-01-15 \u00b7 2 lanes \u00b7 3 sessions (6 counting families) \u00b7 1",
                        "person \u00b7 6 handoffs, 1 waiting on a person"]


@pytest.mark.parametrize("name,doc", MAPS, ids=[n for n, _ in MAPS])
def test_phone_properties_of_section_12_1(name, doc):
    svg = render_svg(doc, "map")
    assert svg.startswith("<svg ") and svg.endswith("</svg>\n")
    root = parse(svg)
    assert root.attrib["data-picture"] == "map"
    assert viewbox(root)[0] == 400
    assert render_svg(doc, "map") == svg
    for bad in ("NaN", "Infinity", "undefined", "var(--"):
        assert bad not in svg
    lane_ids = [g.attrib["data-lane"] for g in with_attr(root, "data-lane")]
    assert lane_ids == [ln["id"] for ln in doc["lanes"]]
    # card order (§3.1): each lane in document order, its sessions in document order
    drawn_sessions = [s for ln in doc["lanes"] for s in doc["sessions"] if s["lane"] == ln["id"]]
    sess = with_attr(root, "data-session")
    assert [g.attrib["data-session"] for g in sess] == [s["id"] for s in drawn_sessions]
    # every name is on its card: the 13.5 bold lines joined give the name (or the id when it is empty)
    for g, obj in list(zip(sess, drawn_sessions)) + list(zip(with_attr(root, "data-person"), doc.get("people", []))):
        lines = [t.text for t in g.iter() if tag(t) == "text" and t.attrib["font-size"] == "13.5"]
        assert " ".join(lines) == " ".join((obj["name"] or obj["id"]).split())
    lane_words = " ".join(t.text for g in with_attr(root, "data-lane") for t in g.iter() if tag(t) == "text")
    for ln in doc["lanes"]:
        assert (ln["name"] or ln["id"]) in lane_words
    people = doc.get("people", [])
    assert [g.attrib["data-person"] for g in with_attr(root, "data-person")] == [p["id"] for p in people]
    ends = {s["id"] for s in drawn_sessions} | {p["id"] for p in people}
    drawn = [h for h in doc["handoffs"] if h["from"] in ends and h["to"] in ends]
    for attr in ("data-handoff", "data-number", "data-plate"):
        assert sorted(g.attrib[attr] for g in with_attr(root, attr)) == sorted(h["id"] for h in drawn)
    assert [g.attrib["data-handoff-row"] for g in with_attr(root, "data-handoff-row")] == [h["id"] for h in doc["handoffs"]]
    # every arc is one arc, from the cards' right edge to 5.5 right of it
    edge = None
    for g in sess + with_attr(root, "data-person"):
        x, _, w, _ = card_of(g)
        edge = x + w if edge is None else edge
        assert x + w == edge
    for hid, rr in arc_runs(root).items():
        assert [r[0] for r in rr] == ["level", "upright", "level"], hid
        assert rr[0][2] == edge and abs(rr[-1][3] - (edge + 5.5)) < 0.11
    # every text line on a card ends inside the card
    for g in sess + with_attr(root, "data-person"):
        x, y, w, h = card_of(g)
        for t in (el for el in g.iter() if tag(el) == "text"):
            left, right = text_extent(t)
            assert left >= x and right <= x + w - 4, (t.text, right, x + w)
            assert y < float(t.attrib["y"]) < y + h


@pytest.mark.parametrize("name,doc", MAPS, ids=[n for n, _ in MAPS])
def test_each_line_and_list_sample_takes_its_carrier_style(name, doc):
    """pictures.md §2.2: colour, width and dash by carrier kind, on the arc and on the row's sample."""
    root = parse(render_svg(doc, "map", theme="light"))
    by_id = {h["id"]: h for h in doc["handoffs"]}
    for attr in ("data-handoff", "data-handoff-row"):
        for g in with_attr(root, attr):
            h = by_id[g.attrib[attr]]
            kind = h["carrier"]["kind"] if "carrier" in h else None
            colour, sw, dash = CARRIER_STYLE[kind]
            line = children(g, "path")[0]
            assert style(line, "stroke") == LIGHT[colour]
            assert float(line.attrib["stroke-width"]) == sw
            assert line.attrib.get("stroke-dasharray") == dash


def test_family_count_wakes_itself_and_missing_ends():
    doc = bakery()
    doc["handoffs"].append({"id": "h-lost", "from": "chef", "to": "nobody", "carrier": {"kind": "session-message"}})
    doc["handoffs"].append({"id": "h-bare", "from": "taster", "to": "bakers"})
    svg = render_svg(doc, "map")
    root = parse(svg)
    assert "\u00d74" in svg
    chef = [g for g in with_attr(root, "data-session") if g.attrib["data-session"] == "chef"][0]
    assert len(with_attr(chef, "data-wakes")) == 1
    assert any(t.text == "wakes itself \u00b7 07:00 daily" for t in chef.iter() if tag(t) == "text")
    drawn = [g.attrib["data-handoff"] for g in with_attr(root, "data-handoff")]
    assert "h-lost" not in drawn and "h-bare" in drawn
    rows = {g.attrib["data-handoff-row"]: g for g in with_attr(root, "data-handoff-row")}
    assert "h-lost" in rows
    lost = [t.text for t in rows["h-lost"].iter() if tag(t) == "text"]
    assert lost[0] == "7" and lost[1] == "Chef \u2192 nobody"
    bare = [t.text for t in rows["h-bare"].iter() if tag(t) == "text"]
    assert "no carrier named" in bare


def test_a_long_map_crosses_often_on_the_phone():
    """pictures.md §3.6, §12.3: all arcs share one margin."""
    root = parse(render_svg(long_map(), "map"))
    assert crossings(arc_runs(root)) >= 100


def test_empty_map_is_a_heading_and_nothing_else():
    doc = {"groophMap": 0, "id": "empty", "name": "", "version": 0, "lanes": [], "sessions": [], "handoffs": []}
    root = parse(render_svg(doc, "map"))
    texts = [t.text for t in root.iter() if tag(t) == "text"]
    assert texts == ["empty", "0 lanes \u00b7 0 sessions \u00b7 0 handoffs"]
    assert not with_attr(root, "data-lane") and not with_attr(root, "data-handoff-row")
    assert root.find("{http://www.w3.org/2000/svg}title").text == "empty"


def test_a_lane_with_no_session_says_so():
    doc = bakery()
    doc["lanes"].append({"id": "spare", "name": "Spare", "machine": "m", "account": "a"})
    root = parse(render_svg(doc, "map"))
    spare = [g for g in with_attr(root, "data-lane") if g.attrib["data-lane"] == "spare"][0]
    assert [t.text for t in spare.iter() if tag(t) == "text"][-1] == "no sessions"


def test_many_handoffs_use_pill_badges_and_narrower_tracks():
    doc = long_map()
    root = parse(render_svg(doc, "map"))
    plates = {g.attrib["data-plate"]: g for g in with_attr(root, "data-plate")}
    assert children(plates["h-out-4"], "rect"), "a two-digit number sits in a rounded rect"
    assert children(plates["h-ask"], "circle"), "a one-digit number sits in a ring"
    xs = sorted({rr[1][1] for rr in arc_runs(root).values()})
    gaps = [b - a for a, b in zip(xs, xs[1:])]
    assert len(xs) > 10 and max(gaps) - min(gaps) <= 0.2 and 6.5 <= min(gaps) and max(gaps) < 13


def test_path_points_reads_q_corners():
    pts = path_points("M337,124.3 H347 Q353,124.3 353,130.3 V170.4 M353,184.8 V225 Q353,231 347,231 H342.5")
    assert runs(pts) == [("level", 124.3, 337, 353), ("upright", 353, 124.3, 231), ("level", 231, 353, 342.5)]
