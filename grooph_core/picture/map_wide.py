"""Lanes side by side: each lane a column, the people a band across the top, arcs only in the gutters
and on the deck under the people, never over a card; the list below in as many columns as fit
(pictures.md §4)."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from grooph_core.picture.geometry import Point, corner_radii, sign, simplify, unit
from grooph_core.picture.map_parts import (
    BADGE_R, MapModel, Run, RunSet, attr, badge_half, carrier_style, draw_person, draw_session, handoff_line, heading,
    lane_heading, map_caption, measure_person, measure_session, number, place, ring, row, title_of,
)
from grooph_core.picture.svg import Pen, frame, pt
from grooph_core.picture.theme import Theme
from grooph_core.picture.tracks import pack

CARD = 168
CARD_MIN = 150
M = 12
PAD = 8
DECK_SPACING = 11
HEAD = 5.5
LEAN = 2.5
PERSON_MIN = 150
LIST_MIN = 290
LIST_GAP = 16
LEAST_W = 340
SLOT = 13

LEFT, RIGHT = 0, 1


@dataclass
class _Run:
    gutter: int
    group: int          # 0 beside the lane on its left, 1 across, 2 beside the lane on its right
    lo: float
    hi: float
    handoff: int
    t: int = 0          # track within its group (group 1: position among the gutter's across runs)
    x: float = 0.0


@dataclass
class _End:
    card: str
    edge: int           # LEFT or RIGHT edge of a session card
    lean: int           # -1 leaves upward, 0 across or self, +1 leaves downward
    handoff: int
    is_from: bool
    run: _Run
    y: float = 0.0


@dataclass
class _Arc:
    handoff: int
    kind: str                               # "confined", "deck" or "people" (person to person)
    runs: list[_Run] = field(default_factory=list)
    send_end: _End | None = None
    recv_end: _End | None = None
    send_run: _Run | None = None            # the run beside the sender (deck arcs)
    recv_run: _Run | None = None
    send_x: float = math.nan                # deck x on the sender's side (track x or person port)
    recv_x: float = math.nan
    deck_y: float | None = None


def _where(model: MapModel, end: str) -> tuple[int, int] | None:
    """(lane, k) of a drawn session; None for a person."""
    if end in model.session_lane:
        return model.session_lane[end], model.session_k[end]
    return None


def render_wide(model: MapModel, theme: Theme, width: float | None = None) -> str:
    """The whole wide layout as SVG text."""
    pen = Pen(theme)
    doc = model.doc
    n = len(model.lanes)
    people = model.people
    P = len(people)

    # §4.2 which edge a lane's arcs use
    left_count, right_count, met = [0] * n, [0] * n, [False] * n
    for i in model.drawn:
        h = model.handoffs[i]
        a, b = _where(model, h["from"]), _where(model, h["to"])
        if a and b and a[0] != b[0]:
            lo, hi = sorted((a[0], b[0]))
            right_count[lo] += 1
            left_count[hi] += 1
        if (a is None) != (b is None):
            met[(a or b)[0]] = True

    def person_side(i: int) -> int:
        return LEFT if left_count[i] <= right_count[i] else RIGHT

    def own_side(i: int) -> int:
        if met[i]:
            return 1 - person_side(i)
        return RIGHT if right_count[i] <= left_count[i] else LEFT

    # §4.3 runs and ends
    runs: list[_Run] = []
    ends: list[_End] = []
    arcs: list[_Arc] = []

    def beside(lane: int, side: int, lo: float, hi: float, i: int) -> _Run:
        r = _Run(lane + side, 0 if side == RIGHT else 2, lo, hi, i)
        runs.append(r)
        return r

    for i in model.drawn:
        h = model.handoffs[i]
        f, t = h["from"], h["to"]
        a, b = _where(model, f), _where(model, t)
        arc = _Arc(i, "deck")
        if a is None and b is None:
            arc.kind = "people"
        elif a is None or b is None:
            s = a or b
            sid = f if a else t
            side = person_side(s[0])
            r = beside(s[0], side, -1, s[1], i)
            e = _End(sid, side, -1, i, a is not None, r)
            ends.append(e)
            if a:
                arc.send_end, arc.send_run = e, r
            else:
                arc.recv_end, arc.recv_run = e, r
        elif a[0] == b[0]:
            arc.kind = "confined"
            side = own_side(a[0])
            r = beside(a[0], side, min(a[1], b[1]), max(a[1], b[1]), i)
            arc.runs = [r]
            arc.send_end = _End(f, side, sign(b[1] - a[1]), i, True, r)
            arc.recv_end = _End(t, side, sign(a[1] - b[1]), i, False, r)
            ends += [arc.send_end, arc.recv_end]
        elif abs(a[0] - b[0]) == 1:
            arc.kind = "confined"
            r = _Run(max(a[0], b[0]), 1, 0, 0, i)
            runs.append(r)
            arc.runs = [r]
            rightward = b[0] > a[0]
            arc.send_end = _End(f, RIGHT if rightward else LEFT, 0, i, True, r)
            arc.recv_end = _End(t, LEFT if rightward else RIGHT, 0, i, False, r)
            ends += [arc.send_end, arc.recv_end]
        else:
            right = 1 if a[0] < b[0] else 0
            rs = _Run(a[0] + right, 0 if right else 2, -1, a[1], i)
            rr = _Run(b[0] + 1 - right, 2 if right else 0, -1, b[1], i)
            runs += [rs, rr]
            arc.send_run, arc.recv_run = rs, rr
            arc.send_end = _End(f, RIGHT if right else LEFT, -1, i, True, rs)
            arc.recv_end = _End(t, LEFT if right else RIGHT, -1, i, False, rr)
            ends += [arc.send_end, arc.recv_end]
        arcs.append(arc)

    # §4.4 tracks in the gutters
    counts = []  # per gutter: (group-0 tracks, group-1 runs, group-2 tracks)
    for g in range(n + 1):
        per = []
        for grp in (0, 2):
            mine = [r for r in runs if r.gutter == g and r.group == grp]
            tr, c = pack([(r.lo, r.hi) for r in mine])
            for r, tt in zip(mine, tr):
                r.t = tt
            per.append(c)
        across = [r for r in runs if r.gutter == g and r.group == 1]
        for k, r in enumerate(across):
            r.t = k
        counts.append((per[0], len(across), per[1]))
    T = [sum(c) for c in counts]

    def column(r: _Run) -> int:
        g0, _, _ = counts[r.gutter]
        if r.group == 0:
            return r.t
        if r.group == 1:
            return g0 + r.t
        return T[r.gutter] - 1 - r.t

    # §4.5 widths
    def lead(g: int) -> float:
        return 18 if g == 0 and P else 9

    def still(g: int) -> float:
        if T[g] > 0:
            return lead(g) + (18 if g == n and P else 9)
        return 10 if 0 < g < n else 0

    steps = sum(max(0, tg - 1) for tg in T)
    fixed = 24 + n * 16 + sum(still(g) for g in range(n + 1))
    card, track = float(CARD), 13.0
    if width is not None and math.isfinite(width) and n > 0:
        R = width

        def card_at(tk: float) -> float:
            return (R - fixed - steps * tk) / n

        if card_at(13) < CARD_MIN and steps > 0:
            track = min(13.0, max(6.5, (R - fixed - CARD_MIN * n) / steps))
        card = min(float(CARD), max(float(CARD_MIN), card_at(track)))
    gx, lx = [0.0] * (n + 1), [0.0] * n
    x = float(M)
    for g in range(n + 1):
        gx[g] = x
        x += still(g) + max(0, T[g] - 1) * track
        if g < n:
            lx[g] = x
            x += card + 2 * PAD
    W = max(x + 12, LEAST_W, (40 + P * PERSON_MIN + (P - 1) * 8) if P else 0)
    aside = (W - x - 12) / 2
    lx = [v + aside for v in lx]

    def track_x(r: _Run) -> float:
        return aside + gx[r.gutter] + lead(r.gutter) + column(r) * track

    # §4.6 heading, people band, ports
    head, y = heading(pen, title_of(doc), map_caption(model), W)
    body = [head]
    person_cards = []
    person_span: dict[str, tuple[float, float]] = {}
    deck_top = y
    if P:
        top = y
        pw = (W - 24 - 16 - (P - 1) * 8) / P
        measured = [measure_person(p, pw, 0, 3) for p in people]
        ph = max(c.h for c in measured)
        for k, c in enumerate(measured):
            px = 20 + k * (pw + 8)
            person_cards.append(draw_person(pen, c, px, top + 29.5, ph))
            person_span[c.id] = (px, px + pw)
        deck_top = top + 29.5 + ph
        y = deck_top + 8
        body.append('<g data-people="">'
                    + pen.rect(M, top, W - 24, y - top, fill="surface-2", stroke="line", rx=12, dash="5 4")
                    + pen.text(22, top + 20, 12.5, "Person" if P == 1 else "People", "ink", bold=True) + "</g>")
    for r in runs:
        r.x = track_x(r)
    _ports(model, arcs, person_span, [r.x for r in runs])

    # §4.7 the deck, the lanes and the cards
    deck_arcs = [a for a in arcs if a.kind != "confined"]
    for a in deck_arcs:
        if a.send_run is not None:
            a.send_x = a.send_run.x
        if a.recv_run is not None:
            a.recv_x = a.recv_run.x
    level = [a for a in deck_arcs if a.send_x != a.recv_x]
    deck_tracks, dn = pack([(a.send_x, a.recv_x) for a in level], gap=6)
    lanes_top = y + (20 + (dn - 1) * DECK_SPACING if dn else (10 if P else 0))
    for a, d in zip(level, deck_tracks):
        a.deck_y = lanes_top - 10 - d * DECK_SPACING

    headings, first_y = [], []
    for li, lane in enumerate(model.lanes):
        texts, fy = lane_heading(pen, lane, lx[li] + PAD, card, lanes_top + 20, 3)
        headings.append(texts)
        first_y.append(fy)
    cards_top = max([lanes_top + 8] + first_y)
    edge_count: dict[tuple[str, int], int] = {}
    for e in ends:
        edge_count[(e.card, e.edge)] = edge_count.get((e.card, e.edge), 0) + 1
    session_cards = []
    box: dict[str, tuple[float, float, float]] = {}  # session id -> (x, y, h)
    floor = lanes_top
    for li, lane in enumerate(model.lanes):
        cy = cards_top
        sessions = model.lane_sessions[li]
        for s in sessions:
            e = max(edge_count.get((s["id"], LEFT), 0), edge_count.get((s["id"], RIGHT), 0))
            c = measure_session(model, s, card, e, 3)
            session_cards.append(draw_session(pen, c, lx[li] + PAD, cy))
            box[s["id"]] = (lx[li] + PAD, cy, c.h)
            cy += c.h + (14 if c.family else 8)
        if not sessions:
            headings[li] += pen.text(lx[li] + 10, cards_top + 12, 10.5, "no sessions", "ink-3")
            cy += 20
        floor = max(floor, cy + 8 - 8)
    for li, lane in enumerate(model.lanes):
        body.append(f'<g data-lane="{attr(lane.get("id", ""))}">'
                    + pen.rect(lx[li], lanes_top, card + 2 * PAD, floor - lanes_top, fill="surface-2", stroke="line", rx=12)
                    + headings[li] + "</g>")
    body.extend(person_cards)
    body.extend(session_cards)
    y = floor + 10 if n else lanes_top

    # §4.8 ends on the cards, then the across-gutter tracks
    _place_ends(ends, box, model)
    _settle_across(arcs, n)
    for r in runs:
        r.x = track_x(r)
    for a in deck_arcs:
        if a.send_run is not None:
            a.send_x = a.send_run.x
        if a.recv_run is not None:
            a.recv_x = a.recv_run.x

    # §4.9 paths and numbers
    paths = []
    for a in arcs:
        paths.append((a, _points(a, box, card, deck_top, lanes_top)))
    body.append(_draw_arcs(pen, model, paths))

    # §4.10 the list in columns
    if model.handoffs:
        y += 6
        body.append(pen.text(12, y + 11, 12.5, "Handoffs", "ink", bold=True))
        y += 20
        cols = min(max(math.floor((W - 24 + LIST_GAP) / (LIST_MIN + LIST_GAP)), 1), len(model.handoffs))
        cw = (W - 24 - LIST_GAP * (cols - 1)) / cols
        heights = [row(pen, model, h, i + 1, 0, 0, cw, 3)[1] for i, h in enumerate(model.handoffs)]
        total = sum(heights)
        before = 0.0
        top = y
        current = 0
        lowest = y
        for i, h in enumerate(model.handoffs):
            col = min(cols - 1, math.floor((before + heights[i] / 2) * cols / total))
            if col != current:
                current = col
                top = y
            markup, bottom = row(pen, model, h, i + 1, 12 + col * (cw + LIST_GAP), top, cw, 3)
            body.append(markup)
            top = bottom
            lowest = max(lowest, bottom)
            before += heights[i]
        y = lowest
    return frame("map", W, y + 6, title_of(doc), theme, "".join(body))


def _ports(model: MapModel, arcs: list[_Arc], span: dict[str, tuple[float, float]], track_xs: list[float]) -> None:
    """§4.6: where each arc meets a person's card (an x on its bottom edge)."""
    asks: dict[str, list[tuple[_Arc, bool, float]]] = {}
    for a in arcs:
        if a.kind == "confined":
            continue
        h = model.handoffs[a.handoff]
        f, t = h["from"], h["to"]
        for end, is_from, other, other_run in ((f, True, t, a.recv_run), (t, False, f, a.send_run)):
            if not model.is_person(end):
                continue
            if f == t:
                toward = math.nan
            elif model.is_person(other):
                ox0, ox1 = span[other]
                toward = (ox0 + ox1) / 2
            else:
                toward = other_run.x
            asks.setdefault(end, []).append((a, is_from, toward))
    for pid, lst in asks.items():
        x0, x1 = span[pid]

        def under(tw: float) -> bool:
            return x0 + 9.5 <= tw <= x1 - 9.5

        apart = min(13.0, max(3.0, (x1 - x0 - 16) / (sum(1 for _, _, tw in lst if not under(tw)) + 1)))
        taken: list[float] = []

        def seat(start: float, step: int) -> float:
            lo, hi = x0 + 8, x1 - 8
            s = min(hi, max(lo, start))
            gap = apart
            while gap >= 1.5:
                x = s
                while lo <= x <= hi:
                    if (all(abs(x - tx) >= min(5, gap) for tx in track_xs)
                            and all(abs(x - u) >= gap - 0.01 for u in taken)):
                        taken.append(x)
                        return x
                    x += step
                gap /= 2
            return s

        for a, is_from, toward in lst:
            if under(toward):
                port = toward
            elif math.isnan(toward):
                mid = (x0 + x1) / 2
                port = seat(mid - 7, -1) if is_from else seat(mid + 7, 1)
            elif toward < x0 + 9.5:
                port = seat(x0 + 12, 1)
            else:
                port = seat(x1 - 12, -1)
            if is_from:
                a.send_x = port
            else:
                a.recv_x = port


def _place_ends(ends: list[_End], box: dict[str, tuple[float, float, float]], model: MapModel) -> None:
    """§4.8: order each card edge's ends and give each its y (leaning 2.5 off the middle line)."""
    by_edge: dict[tuple[str, int], list[_End]] = {}
    for e in ends:
        by_edge.setdefault((e.card, e.edge), []).append(e)
    partner: dict[tuple[int, bool], _End] = {(e.handoff, e.is_from): e for e in ends}

    def key(e: _End):
        if e.lean != 0:
            second = -e.lean * e.run.t
        else:
            h = model.handoffs[e.handoff]
            if h["from"] == h["to"]:
                second = -math.inf
            else:
                other = partner.get((e.handoff, not e.is_from))
                ox, oy, oh = box[other.card]
                second = oy + oh / 2
        return ({-1: 0, 0: 1, 1: 2}[e.lean], second, e.handoff, 0 if e.is_from else 1)

    for (cid, edge), lst in by_edge.items():
        lst.sort(key=key)
        _, cy, ch = box[cid]
        nn = len(lst)
        for k, e in enumerate(lst):
            e.y = cy + ch / 2 + (k - (nn - 1) / 2) * SLOT + (-LEAN if edge == RIGHT else LEAN)


def _settle_across(arcs: list[_Arc], n: int) -> None:
    """§4.8: order the across arcs of each inner gutter so that they do not cross needlessly."""
    for g in range(1, n):
        items = []
        for a in arcs:
            if a.kind == "confined" and a.runs and a.runs[0].group == 1 and a.runs[0].gutter == g:
                e1, e2 = a.send_end, a.recv_end
                left_end, right_end = (e1, e2) if e1.edge == RIGHT else (e2, e1)
                items.append([a, left_end.y, right_end.y])
        rising = sorted([it for it in items if it[2] < it[1]], key=lambda it: it[1])
        falling = sorted([it for it in items if not it[2] < it[1]], key=lambda it: -it[1])
        order = rising + falling
        for i in range(len(order)):
            for j in range(i + 1, len(order)):
                if abs(order[j][1] - order[i][2]) < 2 and not abs(order[i][1] - order[j][2]) < 2:
                    order[i], order[j] = order[j], order[i]
        for pos, it in enumerate(order):
            it[0].runs[0].t = pos


def _end_point(e: _End, box: dict[str, tuple[float, float, float]], card: float) -> Point:
    x, _, _ = box[e.card]
    return (x + (card if e.edge == RIGHT else 0), e.y)


def _points(a: _Arc, box, card: float, deck_top: float, lanes_top: float) -> list[Point]:
    """§4.9: the arc's corner points, simplified."""
    if a.kind == "confined":
        r = a.runs[0]
        p0, p3 = _end_point(a.send_end, box, card), _end_point(a.recv_end, box, card)
        return simplify([p0, (r.x, p0[1]), (r.x, p3[1]), p3])
    deck_y = a.deck_y if a.deck_y is not None else lanes_top
    pts: list[Point] = []
    if a.send_end is not None:
        p0 = _end_point(a.send_end, box, card)
        pts += [p0, (a.send_x, p0[1])]
    else:
        pts.append((a.send_x, deck_top))
    pts += [(a.send_x, deck_y), (a.recv_x, deck_y)]
    if a.recv_end is not None:
        p3 = _end_point(a.recv_end, box, card)
        pts += [(a.recv_x, p3[1]), p3]
    else:
        pts.append((a.recv_x, deck_top))
    return simplify(pts)


def _draw_arcs(pen: Pen, model: MapModel, paths: list[tuple[_Arc, list[Point]]]) -> str:
    """§4.9: numbers on the longest upright (or level) run, paths with cuts for rings, three layers."""
    levels: list[Run] = []
    uprights: list[Run] = []
    for a, pts in paths:
        for p, q in zip(pts, pts[1:]):
            if p[1] == q[1]:
                levels.append(Run(p[1], min(p[0], q[0]), max(p[0], q[0]), a.handoff))
            elif p[0] == q[0]:
                uprights.append(Run(p[0], min(p[1], q[1]), max(p[1], q[1]), a.handoff))
    placed: list = []
    turned: list = []
    level_set, upright_set = RunSet(levels), RunSet(uprights)
    plates, lines, numbers = [], [], []
    for a, pts in paths:
        i = a.handoff
        h = model.handoffs[i]
        nbr = i + 1
        colour = carrier_style(h)[0]
        half = badge_half(nbr)
        radii = corner_radii(pts)
        segs = list(range(len(pts) - 1))
        ups = [k for k in segs if pts[k][0] == pts[k + 1][0] and pts[k][1] != pts[k + 1][1]]
        lvls = [k for k in segs if pts[k][1] == pts[k + 1][1] and pts[k][0] != pts[k + 1][0]]

        def length(k: int) -> float:
            return abs(pts[k + 1][0] - pts[k][0]) + abs(pts[k + 1][1] - pts[k][1])

        best_up = max(ups, key=lambda k: (length(k), -k)) if ups else None
        best_lv = max(lvls, key=lambda k: (length(k), -k)) if lvls else None
        on_level = best_lv is not None and (best_up is None or (length(best_up) < 24 and length(best_lv) >= 40))
        cut_seg = None
        if on_level:
            k = best_lv
            yv, xa, xb = pts[k][1], pts[k][0], pts[k + 1][0]
            nx = place(yv, xa, xb, BADGE_R, i, turned, upright_set)
            placed.append((nx, yv, half))
            bx, by = nx, yv
        elif best_up is not None:
            k = best_up
            xv, y1, y2 = pts[k][0], pts[k][1], pts[k + 1][1]
            d = sign(y2 - y1)
            ny = place(xv, y1, y2, half, i, placed, level_set)
            turned.append((ny, xv, BADGE_R))
            s = HEAD if k == len(pts) - 2 else radii[k + 1]
            if ((ny - BADGE_R * d - (y1 + d * radii[k])) * d >= 0
                    and (y2 - d * s - (ny + BADGE_R * d)) * d >= 0):
                cut_seg = k
            bx, by = xv, ny
        else:
            bx, by = pts[0]
        d_path = f"M{pt(*pts[0])}"
        for k in segs:
            p = pts[k + 1]
            ux, uy = unit(pts[k], p)
            last = k == len(pts) - 2
            stop = HEAD if last else radii[k + 1]
            if cut_seg == k:
                d_path += f" L{pt(bx, by - uy * BADGE_R)} M{pt(bx, by + uy * BADGE_R)}"
            d_path += f" L{pt(p[0] - ux * stop, p[1] - uy * stop)}"
            if not last:
                nux, nuy = unit(p, pts[k + 2])
                d_path += f" Q{pt(p[0], p[1])} {pt(p[0] + nux * stop, p[1] + nuy * stop)}"
        ux, uy = unit(pts[-2], pts[-1]) if len(pts) > 1 else (1.0, 0.0)
        hx, hy = pts[-1][0] - ux * 0.5, pts[-1][1] - uy * 0.5
        bxx, byy = hx - 6.5 * ux, hy - 6.5 * uy
        head = pen.shape(f"M{pt(hx, hy)} L{pt(bxx - 3.6 * uy, byy - 3.6 * ux)} L{pt(bxx + 3.6 * uy, byy + 3.6 * ux)} z",
                         colour)
        hid = attr(h.get("id", ""))
        plate = f'<g data-plate="{hid}">' + ring(pen, nbr, bx, by, colour) + "</g>"
        if cut_seg is not None:
            plates.append(plate)
        lines.append(f'<g data-handoff="{hid}">' + handoff_line(pen, d_path, h)
                     + pen.circle(pts[0][0], pts[0][1], 2.2, fill=colour) + head + "</g>")
        if cut_seg is None:
            lines.append(plate)
        numbers.append(f'<g data-number="{hid}">' + number(pen, nbr, bx, by) + "</g>")
    return "".join(plates) + "".join(lines) + "".join(numbers)

