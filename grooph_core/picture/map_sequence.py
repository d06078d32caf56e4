"""The sequence view of a map: a column per person and per session, a lifeline down from each, and
each drawn handoff as a numbered arrow on a row of its own, in the order the map lists them
(pictures.md §5). The rows are an order, not a clock, and the picture says so."""

from __future__ import annotations

import math

from grooph_core.picture import meaning
from grooph_core.picture.map_parts import (
    MapModel, attr, badge, family_mark, carrier_style, handoff_line, heading, map_caption, title_of,
)
from grooph_core.picture.measure import width as text_width, wrap
from grooph_core.picture.svg import Pen, fmt, frame, pt
from grooph_core.picture.theme import Theme
from grooph_core.source.text import WHITESPACE_RUN, js_trim

NOTE = "Read down: the order the map lists its handoffs in. An order, not a clock: a map records no times."
COLUMN_MIN, COLUMN_MAX = 62, 104


def render_sequence(model: MapModel, theme: Theme, width: float | None = None) -> str:
    """The whole sequence view as SVG text."""
    pen = Pen(theme)
    doc = model.doc

    # §5.1 groups and columns: (kind, id, head word)
    groups: list[tuple[str, str, str, list[tuple[str, str, str]]]] = []  # (kind, id, name, columns)
    if model.people:
        cols = [("person", p["id"], meaning.name_or_id(p)) for p in model.people]
        groups.append(("people", "", "Person" if len(cols) == 1 else "People", cols))
    for li, lane in enumerate(model.lanes):
        cols = []
        for s in model.lane_sessions[li]:
            word = meaning.name_or_id(s)
            if family_mark(s):
                word += " " + family_mark(s)
            cols.append(("session", s["id"], word))
        if cols:
            groups.append(("lane", lane.get("id", ""), meaning.name_or_id(lane), cols))
    columns = [c for g in groups for c in g[3]]
    widest = 0.0
    for _, _, word in columns:
        t = js_trim(word)
        for w in (WHITESPACE_RUN.split(t) if t else []):
            widest = max(widest, text_width(w, 10, "bold"))
    col = min(COLUMN_MAX, max(COLUMN_MIN, widest + 14))
    n = len(columns)
    centre = {cid: 12 + (k + 0.5) * col for k, (_, cid, _) in enumerate(columns)}
    words_x = 12 + max(n, 1) * col + 14
    words_w = 270.0
    if width is not None and math.isfinite(width):
        words_w = min(360.0, max(190.0, width - 12 - words_x))
    W = words_x + words_w + 12

    # §5.2 top: heading, note, group names, heads
    hw = min(W, 400)
    head, y = heading(pen, title_of(doc), map_caption(model), hw)
    y -= 12
    note = []
    for line in wrap(NOTE, hw - 24, 11, 3):
        y += 14
        note.append(pen.text(12, y, 11, line, "ink-2"))
    y += 12
    top = y
    group_lines, left = [], 12.0
    spans = []
    for g in groups:
        gw = len(g[3]) * col
        group_lines.append(wrap(g[2], gw - 14, 9.5, 3, "bold"))
        spans.append((left, gw))
        left += gw
    most_group = max((len(x) for x in group_lines), default=0)
    head_lines = {cid: wrap(word, col - 12, 10, 6, "bold") for _, cid, word in columns}
    head_top = top + 8 + most_group * 12 + 3
    head_h = 9 + max([1] + [len(v) for v in head_lines.values()]) * 12.5

    heads = []
    for kind, cid, _ in columns:
        cx = centre[cid]
        lines = head_lines[cid]
        if kind == "person":
            rect = pen.rect(cx - col / 2 + 4, head_top, col - 8, head_h, fill="gate-soft", stroke="gate",
                            stroke_width=1.4, rx=12, mark="card")
        else:
            rect = pen.rect(cx - col / 2 + 4, head_top, col - 8, head_h, fill="surface", stroke="line-strong", rx=8,
                            mark="card")
        texts = "".join(
            pen.text(cx, head_top + (head_h - len(lines) * 12.5) / 2 + 9.5 + j * 12.5, 10, line, "ink", bold=True,
                     anchor="middle")
            for j, line in enumerate(lines))
        heads.append(f'<g data-{kind}="{attr(cid)}">' + rect + texts + "</g>")
    # placed as §5.2 says, written first in the body (§5.4)
    words_head = pen.text(words_x, head_top + head_h / 2 + 3.5, 10, "Carried by, and what is handed", "ink-3")

    # §5.3 rows
    y = head_top + head_h + 8
    rules, rows = [], []
    for idx, i in enumerate(model.drawn):
        h = model.handoffs[i]
        nbr = i + 1
        colour = carrier_style(h)[0]
        carried = wrap(meaning.handoff_carried_by(model.index, h), words_w, 10.5, 3, "bold")
        what_text = h.get("what")
        what = wrap(what_text, words_w, 10.5, 8) if isinstance(what_text, str) and what_text != "" else []
        height = max(30, (len(carried) + len(what)) * 13 + 12)
        cy = y + height / 2
        if idx:
            rules.append(f'<path d="M12,{fmt(y)} H{fmt(W - 12)}" stroke-width="1" style="stroke:{theme("line")}"/>')
        x1, x2 = centre[h["from"]], centre[h["to"]]
        parts = [pen.rect(8, y + 1.5, W - 16, height - 3, fill="transparent", rx=8, mark="row")]
        if h["from"] == h["to"]:
            parts.append(handoff_line(pen, f"M{pt(x1, cy - 6)} h20 v12 H{fmt(x1 + 5.5)}", h))
            parts.append(pen.circle(x1, cy - 6, 2.2, fill=colour))
            parts.append(pen.shape(f"M{pt(x1 + 0.5, cy + 6)} l6.5,-3.6 v7.2 z", colour))
            parts.append(badge(pen, nbr, x1 + 20, cy, colour))
        else:
            d = 1 if x2 > x1 else -1
            parts.append(handoff_line(pen, f"M{pt(x1, cy)} H{fmt(x2 - d * 5.5)}", h))
            parts.append(pen.circle(x1, cy, 2.2, fill=colour))
            parts.append(pen.shape(f"M{pt(x2 - d * 0.5, cy)} l{fmt(-6.5 * d)},-3.6 v7.2 z", colour))
            parts.append(badge(pen, nbr, x1 + d * min(19, 0.42 * abs(x2 - x1)), cy, colour))
        total = len(carried) + len(what)
        base = cy - total * 13 / 2 + 10
        for j, line in enumerate(carried):
            parts.append(pen.text(words_x, base + j * 13, 10.5, line, colour, bold=True))
        for j, line in enumerate(what):
            parts.append(pen.text(words_x, base + (len(carried) + j) * 13, 10.5, line, "ink-2"))
        rows.append(f'<g data-handoff="{attr(h.get("id", ""))}">' + "".join(parts) + "</g>")
        y += height
    if not model.drawn:
        y += 30
    bottom = y + 6

    # §5.4 behind everything, and the size
    boxes = []
    for g, (gl, gw), lines in zip(groups, spans, group_lines):
        kind, gid, _, cols = g
        names = "".join(pen.text(gl + gw / 2, top + 16 + j * 12, 9.5, line, "ink-2", bold=True, anchor="middle")
                        for j, line in enumerate(lines))
        rect = pen.rect(gl + 1.5, top, gw - 3, bottom - top, fill="surface-2", stroke="line", rx=12,
                        dash="5 4" if kind == "people" else None)
        opener = '<g data-people="">' if kind == "people" else f'<g data-lane="{attr(gid)}">'
        boxes.append(opener + rect + names + "</g>")
    lifelines = [f'<path d="M{pt(centre[cid], head_top + head_h)} V{fmt(bottom - 6)}" stroke-width="1" '
                 f'style="stroke:{theme("line-strong")}"/>' for _, cid, _ in columns]
    body = head + "".join(note) + words_head + "".join(boxes) + "".join(rules) + "".join(lifelines) + "".join(heads) + "".join(rows)
    return frame("sequence", W, bottom + 12, title_of(doc), theme, body)
