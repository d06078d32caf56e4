"""Lanes side by side (pictures.md §4, §12.1, §12.2)."""

import pytest

from grooph_core.picture import render_svg

from .helpers import (
    arc_runs, bakery, card_of, children, crossings, long_map, parse, rect_box, tag, valid_maps, viewbox, with_attr,
)

MAPS = valid_maps()


def wide(doc, **kw):
    return parse(render_svg(doc, "map", layout="wide", **kw))


def cards(root):
    return {g.attrib.get("data-session") or g.attrib.get("data-person"): card_of(g)
            for g in with_attr(root, "data-session") + with_attr(root, "data-person")}


def test_bakery_worked_numbers():
    """pictures.md §12.2, wide layout (light)."""
    root = wide(bakery())
    assert root.attrib["viewBox"] == "0 0 503 763"
    assert rect_box(children(with_attr(root, "data-people")[0], "rect")[0]) == (12, 77, 479, 86)
    assert cards(root) == {"ana": (20, 106.5, 463, 48.5), "chef": (60, 229.5, 168, 118),
                           "bakers": (288, 229.5, 168, 90), "taster": (288, 333.5, 168, 76.5)}
    lanes = {g.attrib["data-lane"]: rect_box(children(g, "rect")[0]) for g in with_attr(root, "data-lane")}
    assert lanes == {"office": (52, 173, 184, 245), "cloud": (280, 173, 184, 245)}
    numbers = {g.attrib["data-number"]: (float(t.attrib["x"]), float(t.attrib["y"]) - 3.3)
               for g in with_attr(root, "data-number") for t in children(g, "text")}
    expect = {"h-menu": (43, 219.8), "h-bake": (258, 284.8), "h-pr": (473, 320.6), "h-verdict": (271, 339.9),
              "h-morning": (245, 273), "h-ready": (30, 242.3)}
    for hid, (x, y) in expect.items():
        assert numbers[hid][0] == x and abs(numbers[hid][1] - y) < 0.06, hid
    # the tracks each arc's upright runs on
    ups = {hid: sorted({r[1] for r in rr if r[0] == "upright"}) for hid, rr in arc_runs(root).items()}
    assert ups == {"h-ready": [30], "h-menu": [43], "h-morning": [245], "h-bake": [258], "h-verdict": [271],
                   "h-pr": [473]}
    head = [t for t in root.iter() if tag(t) == "text" and t.text == "Handoffs"][0]
    assert float(head.attrib["y"]) == 445
    rows = [rect_box(children(g, "rect")[0]) for g in with_attr(root, "data-handoff-row")]
    assert [r[1] for r in rows] == [452, 502.5, 553, 603.5, 654, 704.5] and all(r[2] == 487 for r in rows)
    assert crossings(arc_runs(root)) == 0


@pytest.mark.parametrize("name,doc", MAPS, ids=[n for n, _ in MAPS])
def test_wide_properties_of_section_12_1(name, doc):
    svg = render_svg(doc, "map", layout="wide")
    assert render_svg(doc, "map", layout="wide") == svg
    root = parse(svg)
    assert root.attrib["data-picture"] == "map"
    W, _ = viewbox(root)
    lanes = [(g.attrib["data-lane"], rect_box(children(g, "rect")[0])) for g in with_attr(root, "data-lane")]
    assert [lid for lid, _ in lanes] == [ln["id"] for ln in doc["lanes"]]
    tops = {b[1] for _, b in lanes}
    heights = {b[3] for _, b in lanes}
    assert len(tops) <= 1 and len(heights) <= 1
    assert all(a[1][0] + a[1][2] < b[1][0] for a, b in zip(lanes, lanes[1:]))
    lane_box = dict(lanes)
    sessions = {s["id"]: s for s in doc["sessions"]}
    boxes = cards(root)
    for g in with_attr(root, "data-session"):
        x, y, w, h = card_of(g)
        lx, ly, lw, lh = lane_box[sessions[g.attrib["data-session"]]["lane"]]
        assert lx <= x and x + w <= lx + lw and ly <= y and y + h <= ly + lh
    if doc.get("people"):
        band = rect_box(children(with_attr(root, "data-people")[0], "rect")[0])
        assert band[2] > W - 30 and band[1] + band[3] <= min(tops)
    # no arc segment passes through a card; no two arcs run along the same line
    arcs = arc_runs(root)
    for hid, rr in arcs.items():
        for kind, c, a, b in rr:
            lo, hi = sorted((a, b))
            for cid, (x, y, w, h) in boxes.items():
                if kind == "level":
                    inside = y + 0.5 < c < y + h - 0.5 and lo < x + w - 0.5 and hi > x + 0.5 and (hi - lo) > 0
                    overlap = min(hi, x + w) - max(lo, x)
                    assert not (inside and overlap > 7), (hid, cid)
                else:
                    assert not (x + 0.5 < c < x + w - 0.5 and lo < y + h - 0.5 and hi > y + 0.5), (hid, cid)
    segs = [(hid, r) for hid, rr in arcs.items() for r in rr]
    for i, (ha, ra) in enumerate(segs):
        for hb, rb in segs[i + 1:]:
            if ha == hb or ra[0] != rb[0] or abs(ra[1] - rb[1]) > 0.05:
                continue
            overlap = min(max(ra[2], ra[3]), max(rb[2], rb[3])) - max(min(ra[2], ra[3]), min(rb[2], rb[3]))
            assert overlap <= 0.5, (ha, hb, ra, rb)
    # each arc starts on its sender's card edge and ends at its receiver's
    by_id = {h["id"]: h for h in doc["handoffs"]}
    for hid, rr in arcs.items():
        h = by_id[hid]
        first, last = rr[0], rr[-1]
        start = (first[2], first[1]) if first[0] == "level" else (first[1], first[2])
        end = (last[3], last[1]) if last[0] == "level" else (last[1], last[3])
        sx, sy, sw, sh = boxes[h["from"]]
        rx, ry, rw, rh = boxes[h["to"]]
        assert min(abs(start[0] - sx), abs(start[0] - sx - sw), abs(start[1] - sy - sh)) <= 0.6, hid
        assert min(abs(end[0] - rx), abs(end[0] - rx - rw), abs(end[1] - ry - rh)) <= 6.2, hid
    # narrower cards get more lines rather than cut words (the graph pointer is always cut to one line)
    assert not any((t.text or "").endswith("\u2026") for t in root.iter()
                   if tag(t) == "text" and "font-family" not in t.attrib)


def test_a_width_larger_than_needed_changes_nothing():
    doc = bakery()
    assert render_svg(doc, "map", layout="wide", width=2000) == render_svg(doc, "map", layout="wide")


@pytest.mark.parametrize("room", [900, 820, 760])
def test_a_given_width_squeezes_cards_first(room):
    root = wide(long_map(), width=room)
    W, _ = viewbox(root)
    assert W <= room
    widths = {card_of(g)[2] for g in with_attr(root, "data-session")}
    assert len(widths) == 1 and 150 <= widths.pop() <= 168


def test_a_width_too_small_keeps_cards_at_150_and_the_picture_whole():
    root = wide(long_map(), width=300)
    assert {card_of(g)[2] for g in with_attr(root, "data-session")} == {150}
    assert viewbox(root)[0] > 300
    assert not any((t.text or "").endswith("\u2026") for t in root.iter() if tag(t) == "text")


def test_the_long_map_barely_crosses_side_by_side():
    """pictures.md §3.6, §12.3: the phone crosses often, the wide layout very few times."""
    assert crossings(arc_runs(wide(long_map()))) <= 3


def test_person_to_person_handoffs_run_along_the_deck():
    doc = bakery()
    doc["people"].append({"id": "bo", "name": "Bo", "role": "Deliveries"})
    doc["handoffs"].append({"id": "h-van", "from": "ana", "to": "bo", "carrier": {"kind": "person"}})
    doc["handoffs"].append({"id": "h-note", "from": "bo", "to": "bo", "carrier": {"kind": "other", "name": "a note"}})
    root = wide(doc)
    arcs = arc_runs(root)
    ana, bo = card_of(with_attr(root, "data-person")[0]), card_of(with_attr(root, "data-person")[1])
    for hid in ("h-van", "h-note"):
        kinds = [r[0] for r in arcs[hid]]
        assert kinds == ["upright", "level", "upright"], hid
        assert arcs[hid][0][2] == ana[1] + ana[3] == bo[1] + bo[3]  # leaves a person card's bottom edge
    lanes_top = rect_box(children(with_attr(root, "data-lane")[0], "rect")[0])[1]
    assert all(r[1] < lanes_top for hid in ("h-van", "h-note") for r in arcs[hid] if r[0] == "level")
