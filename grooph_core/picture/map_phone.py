"""The phone picture of a map: one column 400 units wide, lanes as boxes, every arc in one shared
margin on the right, then the numbered list of every handoff (pictures.md §3)."""

from __future__ import annotations

from dataclasses import dataclass

from grooph_core.picture.map_parts import (
    MapModel, Run, RunSet, arrow_left, attr, badge_half, carrier_style, draw_person, draw_session, handoff_line,
    heading, lane_heading, map_caption, measure_person, measure_session, number, place, ring, row, title_of,
)
from grooph_core.picture.svg import Pen, fmt, frame, pt
from grooph_core.picture.theme import Theme
from grooph_core.picture.tracks import pack

M = 12
PAD = 8


@dataclass
class _End:
    handoff: int     # index into model.handoffs
    is_from: bool
    other: int       # the card order of the card at the other end


def card_order(model: MapModel) -> list[str]:
    """§3.1: people in document order, then each lane's drawn sessions in document order."""
    return [p["id"] for p in model.people] + [s["id"] for ss in model.lane_sessions for s in ss]


def sorted_ends(model: MapModel, order: dict[str, int]) -> dict[str, list[_End]]:
    """§3.1 slots: on each card, ends from above (nearest first), then its own, then below."""
    ends: dict[str, list[_End]] = {cid: [] for cid in order}
    for i in model.drawn:
        h = model.handoffs[i]
        a, b = h["from"], h["to"]
        ends[a].append(_End(i, True, order[b]))
        ends[b].append(_End(i, False, order[a]))
    for cid, lst in ends.items():
        me = order[cid]

        def key(e: _End, me=me):
            cat = 0 if e.other < me else (1 if e.other == me else 2)
            return (cat, -e.other if cat == 0 else e.other, e.handoff, 0 if e.is_from else 1)

        lst.sort(key=key)
    return ends


def track_spacing(c: int, inner: float) -> float:
    """§3.2: 13 while it fits; cards keep 56 % of the lane until tracks reach 6.5, then down to 120 wide."""
    if c <= 1:
        return 13

    def fit(room: float) -> float:
        return (room - 16 - 14) / (c - 1)

    return min(13, max(6.5, fit(0.44 * inner)), max(fit(inner - 120), fit(0.44 * inner)))


def render_phone(model: MapModel, theme: Theme, width: float = 400) -> str:
    """The whole phone picture as SVG text."""
    pen = Pen(theme)
    doc = model.doc
    W = width
    ids = card_order(model)
    order = {cid: k for k, cid in enumerate(ids)}
    ends = sorted_ends(model, order)
    pos = {}
    for cid, lst in ends.items():
        for k, e in enumerate(lst):
            pos[(e.handoff, e.is_from)] = order[cid] * 1000 + k
    spans = [(pos[(i, True)], pos[(i, False)]) for i in model.drawn]
    tracks, c = pack(spans)

    lane_w = W - 2 * M
    inner = lane_w - 2 * PAD
    track = track_spacing(c, inner)
    margin = 0 if not model.drawn else 16 + (c - 1) * track + 14
    card_w = lane_w - 2 * PAD - margin
    card_x = M + PAD

    head, y = heading(pen, title_of(doc), map_caption(model), W)
    body = [head]
    cards_markup: list[str] = []
    card_y: dict[str, float] = {}
    card_h: dict[str, float] = {}

    if model.people:
        top = y
        cy = top + 29.5
        for p in model.people:
            c_ = measure_person(p, card_w, len(ends[p["id"]]), 0)
            cards_markup.append(draw_person(pen, c_, card_x, cy))
            card_y[p["id"]], card_h[p["id"]] = cy, c_.h
            cy += c_.h + 8
        bottom = cy + 8 - 8
        body.append('<g data-people="">'
                    + pen.rect(M, top, lane_w, bottom - top, fill="surface-2", stroke="line", rx=12, dash="5 4")
                    + pen.text(22, top + 20, 12.5, "Person" if len(model.people) == 1 else "People", "ink", bold=True)
                    + "</g>")
        y = bottom + 10

    for li, lane in enumerate(model.lanes):
        top = y
        texts, cy = lane_heading(pen, lane, card_x, card_w, top + 20, 0)
        sessions = model.lane_sessions[li]
        for s in sessions:
            c_ = measure_session(model, s, card_w, len(ends[s["id"]]), 0)
            cards_markup.append(draw_session(pen, c_, card_x, cy))
            card_y[s["id"]], card_h[s["id"]] = cy, c_.h
            cy += c_.h + (14 if c_.family else 8)
        if not sessions:
            cy += 12
            texts += pen.text(22, cy, 10.5, "no sessions", "ink-3")
            cy += 8
        bottom = cy + 8 - 8
        body.append(f'<g data-lane="{attr(lane.get("id", ""))}">'
                    + pen.rect(M, top, lane_w, bottom - top, fill="surface-2", stroke="line", rx=12)
                    + texts + "</g>")
        y = bottom + 10

    body.extend(cards_markup)
    body.append(_arcs(pen, model, ends, tracks, track, card_x + card_w, card_y, card_h))

    if model.handoffs:
        y += 6
        body.append(pen.text(12, y + 11, 12.5, "Handoffs", "ink", bold=True))
        y += 20
        for i, h in enumerate(model.handoffs):
            markup, y = row(pen, model, h, i + 1, M, y, W - 2 * M, 0)
            body.append(markup)
    return frame("map", W, y + 6, title_of(doc), theme, "".join(body))


def _arcs(pen: Pen, model: MapModel, ends: dict[str, list[_End]], tracks: list[int], track: float,
          edge_x: float, card_y: dict[str, float], card_h: dict[str, float]) -> str:
    """§3.4: arcs in three layers (fitting rings, lines with their own non-fitting rings, numbers)."""
    end_y: dict[tuple[int, bool], float] = {}
    for cid, lst in ends.items():
        n = len(lst)
        for k, e in enumerate(lst):
            end_y[(e.handoff, e.is_from)] = card_y[cid] + card_h[cid] / 2 + (k - (n - 1) / 2) * 13
    geo = []
    levels: list[Run] = []
    for j, i in enumerate(model.drawn):
        x = edge_x + 16 + tracks[j] * track
        y1, y2 = end_y[(i, True)], end_y[(i, False)]
        geo.append((i, x, y1, y2))
        levels.append(Run(y1, float("-inf"), x, i))
        levels.append(Run(y2, float("-inf"), x, i))
    placed: list = []
    level_set = RunSet(levels)
    plates, lines, numbers = [], [], []
    for i, x, y1, y2 in geo:
        h = model.handoffs[i]
        n = i + 1
        colour = carrier_style(h)[0]
        ny = place(x, y1, y2, badge_half(n), i, placed, level_set)
        r = min(6, abs(y2 - y1) / 2)
        d = 1 if y2 >= y1 else -1
        top, bottom = y1 + d * r, y2 - d * r
        before, after = ny - d * 7.2, ny + d * 7.2
        fits = (before - top) * d >= 0 and (bottom - after) * d >= 0
        path = f"M{pt(edge_x, y1)} H{fmt(x - r)} Q{pt(x, y1)} {pt(x, top)}"
        path += f" V{fmt(before)} M{pt(x, after)} V{fmt(bottom)}" if fits else f" V{fmt(bottom)}"
        path += f" Q{pt(x, y2)} {pt(x - r, y2)} H{fmt(edge_x + 5.5)}"
        hid = attr(h.get("id", ""))
        plate = f'<g data-plate="{hid}">' + ring(pen, n, x, ny, colour) + "</g>"
        if fits:
            plates.append(plate)
        lines.append(f'<g data-handoff="{hid}">' + handoff_line(pen, path, h)
                     + pen.circle(edge_x, y1, 2.2, fill=colour) + arrow_left(pen, edge_x + 0.5, y2, colour) + "</g>")
        if not fits:
            lines.append(plate)
        numbers.append(f'<g data-number="{hid}">' + number(pen, n, x, ny) + "</g>")
    return "".join(plates) + "".join(lines) + "".join(numbers)

