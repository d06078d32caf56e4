"""The graph picture: one column 400 units wide; a card per node in rank order, arrows between
consecutive cards, other forward edges in the left margin, back edges and self edges in the right
margin, then the list of loops with their bars and stops (pictures.md §7)."""

from __future__ import annotations

import math
from dataclasses import dataclass

from grooph_core.picture import meaning
from grooph_core.picture.graph_view import Face, layer_nodes, objects
from grooph_core.picture.map_parts import attr, heading, title_of
from grooph_core.picture.measure import truncate, width as text_width, wrap
from grooph_core.picture.subgroophs import graph_view
from grooph_core.picture.svg import Pen, fmt, frame, pt
from grooph_core.picture.theme import Theme, loop_colour
from grooph_core.picture.tracks import pack
from grooph_core.source.text import is_blank, js_number

M = 12
RANK_GAP = 30
TRACK = 13
TRACK_LEAD = 16
SLOT = 12
BAND_PAD = 6
TWIN_SHIFT = 64

KIND_LABEL = {"agent": ("Agent", "accent"), "human-gate": ("Human gate", "gate"), "check": ("Check", "check"),
              "merge": ("Merge", "merge"), "stop": ("Stop", "stop")}


# ---------------------------------------------------------------- words on cards (§7.3, §7.4)

def role_text(node: dict) -> str:
    role = node.get("role")
    if isinstance(role, dict):
        c = role.get("custom")
        return c if isinstance(c, str) else ""
    return role if isinstance(role, str) else ""


def kind_and_sub(node: dict) -> tuple[str, str, str]:
    """(kind label, its colour, sub-line) of a node's card (§7.4)."""
    kind = node.get("kind")
    if kind == "agent":
        if meaning.is_person_step(node):
            return "Person", "gate", role_text(node)
        parts = [role_text(node)]
        model = node.get("model")
        if isinstance(model, dict) and isinstance(model.get("tier"), str):
            parts.append(model["tier"])
        if isinstance(node.get("effort"), str):
            parts.append(node["effort"])
        return "Agent", "accent", " \u00b7 ".join(p for p in parts if p)
    if kind == "human-gate":
        options = [o for o in node.get("options", []) if isinstance(o, str)] if isinstance(node.get("options"), list) else []
        prompt = node.get("prompt") if isinstance(node.get("prompt"), str) else ""
        return "Human gate", "gate", " / ".join(options) if options else prompt
    if kind == "check":
        chk = node.get("check") if isinstance(node.get("check"), dict) else {}
        parts = [chk.get("kind"), chk.get("run")]
        return "Check", "check", " \u00b7 ".join(p for p in parts if isinstance(p, str) and p)
    if kind == "merge":
        parts = []
        if isinstance(node.get("strategy"), str) and node["strategy"]:
            parts.append(node["strategy"])
        merges = [m for m in node.get("merges", []) if isinstance(m, str)] if isinstance(node.get("merges"), list) else []
        if merges:
            parts.append("merges " + ", ".join(merges))
        return "Merge", "merge", " \u00b7 ".join(parts)
    if kind == "stop":
        outcome = node.get("outcome")
        return "Stop", "stop", outcome if isinstance(outcome, str) else "ends the run"
    label, colour = KIND_LABEL.get(kind, (str(kind), "ink-2"))
    return label, colour, ""


def graph_caption(doc: dict) -> str:
    """§7.3: the target harness, then the shape line (or `no nodes yet`)."""
    parts = []
    target = doc.get("target")
    if isinstance(target, dict) and isinstance(target.get("harness"), str) and not is_blank(target["harness"]):
        parts.append(target["harness"])
    parts.append(meaning.graph_picture_shape_line(doc) if objects(doc, "nodes") else "no nodes yet")
    return " \u00b7 ".join(parts)


def stop_words(stop: dict) -> str:
    """§7.6: what a stop says."""
    k = stop.get("kind")
    if k == "human":
        every = stop.get("every")
        return "human halt" if every is None else f"human halt, asked every {js_number(every)} round(s)"
    if k == "budget":
        return f"budget: {js_number(stop.get('limit', 0))} {stop.get('measure', '')}"
    if k == "bar-passed":
        return "bar passed"
    if k == "diminishing-returns":
        s = f"diminishing returns over {js_number(stop.get('rounds', 0))} round(s)"
        if isinstance(stop.get("metric"), str):
            s += " on " + stop["metric"]
        if "threshold" in stop and meaning_is_number(stop.get("threshold")):
            s += f" (threshold {js_number(stop['threshold'])})"
        return s
    if k == "evidence-invalid":
        return f"evidence invalid for {js_number(stop.get('rounds', 0))} round(s)"
    if k == "max-iterations":
        return f"max iterations: {js_number(stop.get('n', 0))}"
    return str(k)


def meaning_is_number(v: object) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def stop_action(stop: dict, plan: bool) -> str:
    """§7.6: where the run goes when the stop fires."""
    if isinstance(stop.get("then"), str):
        return "continue at node " + stop["then"]
    if stop.get("kind") == "bar-passed":
        return "follow the loop's pass exit edges"
    return "stop here and decide" if plan else "halt the run and report to the human"


# ---------------------------------------------------------------- edges (§7.5)

def edge_style(edge: dict, back_loop: int | None) -> tuple[str, float, str | None]:
    """(colour, stroke width, dash) of an edge."""
    if back_loop is not None:
        return loop_colour(back_loop), 1.6, "5 3"
    when = edge.get("when", "always")
    if edge.get("approval") is True:
        return "gate", 2, None
    if when == "fail":
        return "warning", 1.5, "5 3"
    if isinstance(when, dict):
        return "ink-3", 1.7, "1.5 3"
    return "ink-2", 1.5, None


def edge_label(edge: dict) -> str:
    """The verdict, the `when` word, or for `always` the edge's label; plus `approval`."""
    when = edge.get("when", "always")
    parts = []
    if isinstance(when, dict):
        v = when.get("verdict")
        if isinstance(v, str) and v:
            parts.append(v)
    elif when in ("pass", "fail"):
        parts.append(when)
    elif isinstance(edge.get("label"), str) and edge["label"]:
        parts.append(edge["label"])
    if edge.get("approval") is True:
        parts.append("approval")
    return " \u00b7 ".join(parts)


# ---------------------------------------------------------------- the picture

@dataclass
class _Card:
    id: str
    node: dict
    face: Face | None
    label: str
    colour: str
    names: list[str]
    subs: list[str]
    extra: str | None
    loops: list[int]
    x: float = 0
    y: float = 0
    h: float = 0


def render_graph(doc: dict, theme: Theme, width: float = 400, open_groups=()) -> str:
    """The whole graph picture as SVG text; subgroophs closed unless named in `open_groups` (§7.7)."""
    pen = Pen(theme)
    v = graph_view(doc, theme, open_groups)
    W = width
    node_by_id = {n["id"]: n for n in v.nodes}
    ids = [n["id"] for n in v.nodes]
    edges = [e for e in v.edges if e.get("from") in node_by_id and e.get("to") in node_by_id]
    back_of: dict[str, int] = {}
    for li, lp in enumerate(v.loops):
        for b in lp.get("back", []) if isinstance(lp.get("back"), list) else []:
            if isinstance(b, str):
                back_of.setdefault(b, li)
    rows = v.rows if v.rows is not None else layer_nodes(ids, edges, set(back_of))
    column = [nid for r in rows for nid in r]
    pos = {nid: k for k, nid in enumerate(column)}

    # §7.2 routes, slots and margins
    routes: dict[int, str] = {}
    for j, e in enumerate(edges):
        if e.get("id") in back_of or e["from"] == e["to"]:
            routes[j] = "right"
        elif pos[e["to"]] == pos[e["from"]] + 1:
            routes[j] = "next"
        else:
            routes[j] = "left"
    side_ends: dict[str, dict[str, list]] = {"left": {nid: [] for nid in ids}, "right": {nid: [] for nid in ids}}
    for j, e in enumerate(edges):
        side = routes[j]
        if side == "next":
            continue
        side_ends[side][e["from"]].append((j, True, pos[e["to"]]))
        side_ends[side][e["to"]].append((j, False, pos[e["from"]]))
    side_tracks, margin = {}, {}
    end_pos: dict[tuple[str, int, bool], int] = {}
    for side in ("left", "right"):
        for nid, lst in side_ends[side].items():
            me = pos[nid]

            def key(t, me=me):
                j, is_from, other = t
                cat = 0 if other < me else (1 if other == me else 2)
                return (cat, -other if cat == 0 else other, j, 0 if is_from else 1)

            lst.sort(key=key)
            for k, (j, is_from, _) in enumerate(lst):
                end_pos[(side, j, is_from)] = pos[nid] * 1000 + k
        mine = [j for j in range(len(edges)) if routes[j] == side]
        tr, c = pack([(end_pos[(side, j, True)], end_pos[(side, j, False)]) for j in mine])
        side_tracks[side] = dict(zip(mine, tr))
        margin[side] = 0 if not mine else TRACK_LEAD + (c - 1) * TRACK + 12
    banded = any(len(r) > 1 for r in rows)
    card_x = M + margin["left"] + (BAND_PAD if banded else 0)
    card_w = W - 24 - margin["left"] - margin["right"] - (2 * BAND_PAD if banded else 0)
    tw = card_w - 20

    # §7.3 heading
    head, y = heading(pen, title_of(doc), graph_caption(doc), W)
    y -= 12
    goal = doc.get("goal")
    if isinstance(goal, str) and goal != "":
        y += 5
        for line in wrap(goal, W - 24, 11.5, 3):
            y += 14.5
            head += pen.text(12, y, 11.5, line, "ink-2")
    y += 14

    # §7.4 cards
    loop_members = [set(m for m in lp.get("members", []) if isinstance(m, str))
                    if isinstance(lp.get("members"), list) else set() for lp in v.loops]
    cards: dict[str, _Card] = {}
    for nid in column:
        node = node_by_id[nid]
        face = v.faces.get(nid)
        label, colour, sub = ("Subgrooph", "ink-2", "") if face else kind_and_sub(node)
        names = wrap(meaning.name_or_id(node), tw, 13.5, 2, "bold")
        if face:
            subs = [line for text in face.subs for line in wrap(text, tw, 10.5, 2)]
        else:
            subs = wrap(sub, tw, 10.5, 2)
        extra = None
        irrev = node.get("irreversible")
        if face and face.extra:
            extra = truncate(face.extra, tw, 10, "bold")
        elif node.get("kind") == "agent" and isinstance(irrev, list) and irrev:
            extra = truncate("irreversible: " + ", ".join(str(a) for a in irrev), tw, 10, "bold")
        loops = [li for li, mem in enumerate(loop_members) if nid in mem]
        c = _Card(nid, node, face, label, colour, names, subs, extra, loops)
        slots = max(len(side_ends["left"][nid]), len(side_ends["right"][nid]))
        foot = face.glyph[2] + 8 if face and face.glyph else 0
        c.h = max(10 + 10 + 4 + 15.5 * len(names) + 13 * len(subs) + (14 if extra else 0) + 7 + foot,
                  (slots + 1) * SLOT + 2)
        cards[nid] = c
    starts = [sum(1 for b in v.open_boxes if b.first_row == r) for r in range(len(rows))]
    ends = [sum(1 for b in v.open_boxes if b.last_row == r) for r in range(len(rows))]
    row_top, row_bottom = [0.0] * len(rows), [0.0] * len(rows)
    bands = []
    for ri, r in enumerate(rows):
        y += 24 * starts[ri]  # room for the names of open subgroophs starting here
        top = row_top[ri] = y
        for k, nid in enumerate(r):
            c = cards[nid]
            if k == 0 and len(r) > 1:
                y += 16
            elif k:
                y += 8
            c.x, c.y = card_x, y
            y += c.h
        row_bottom[ri] = y
        if len(r) > 1:
            bands.append(pen.rect(card_x - 6, top - 4, card_w + 12, y - top + 10, fill="surface-2", stroke="line", rx=12)
                         + pen.text(card_x + 2, top + 9, 9.5, f"{len(r)} side by side", "ink-3", bold=True))
        y += 10 * ends[ri]
        if ri < len(rows) - 1:
            y += RANK_GAP

    # §7.7 underlay: open frames (outer first), the closed boxes' back cards
    underlay = []
    for b in v.open_boxes:
        out = 5 + 4 * b.inner_depth
        left, right = card_x - out, card_x + card_w + out
        top = row_top[b.first_row] - 24 * (1 + b.inner_same_start) + 4
        bottom = row_bottom[b.last_row] + 4 + 4 * b.inner_same_end
        words_w = card_w / 2 - 34
        name = meaning.name_or_id(b.group)
        source = b.group.get("from") if isinstance(b.group.get("from"), str) else ""
        underlay.append(f'<g data-group="{attr(b.group.get("id", ""))}" data-open="">'
                        + pen.rect(left, top, right - left, bottom - top, stroke="line-strong", rx=12, dash="5 4")
                        + pen.text(left + 8, top + 13, 9.5, truncate(name, words_w, 9.5, "bold"), "ink-3", bold=True)
                        + pen.text(right - 8, top + 13, 9.5, truncate(source, words_w, 9.5), "ink-3", anchor="end")
                        + "</g>")
    for nid in column:
        c = cards[nid]
        if c.face:
            underlay.append(pen.rect(c.x + 4, c.y + 4, card_w, c.h, fill="surface", stroke="line-strong", rx=9))

    # §7.5 edges
    next_lines, margin_lines = [], {"left": [], "right": []}
    # the label layer is written next-edge pills first, then left, then right (§7.5), each in edge order
    labels: dict[str, list[str]] = {"next": [], "left": [], "right": []}
    twins: dict[tuple[str, str], list[int]] = {}
    for j, e in enumerate(edges):
        if routes[j] == "next":
            twins.setdefault((e["from"], e["to"]), []).append(j)
    end_y: dict[tuple[str, int, bool], float] = {}
    for side in ("left", "right"):
        for nid, lst in side_ends[side].items():
            c = cards[nid]
            for k, (j, is_from, _) in enumerate(lst):
                end_y[(side, j, is_from)] = c.y + c.h / 2 + (k - (len(lst) - 1) / 2) * SLOT
    placed_labels: dict[str, list[tuple[float, float, float]]] = {"left": [], "right": []}
    for j, e in enumerate(edges):
        colour, sw, dash = edge_style(e, back_of.get(e.get("id")))
        label = edge_label(e)
        eid = attr(e.get("id", ""))
        a, b = cards[e["from"]], cards[e["to"]]
        if routes[j] == "next":
            group = twins[(e["from"], e["to"])]
            # several edges joining the same pair stand 64 apart, centred on the card's middle (our reading)
            x = card_x + card_w / 2 + (group.index(j) - (len(group) - 1) / 2) * TWIN_SHIFT
            y1, y2 = a.y + a.h, b.y
            next_lines.append(f'<g data-edge="{eid}">' + pen.line(f"M{pt(x, y1)} V{fmt(y2 - 5.5)}", colour, sw, dash)
                              + pen.shape(f"M{pt(x, y2 - 0.5)} l-3.6,-6.5 h7.2 z", colour) + "</g>")
            if label:
                lw = text_width(label, 9.5, "bold") + 10.5
                labels["next"].append(pen.pill(x - lw / 2, (y1 + y2) / 2 + 3.2, 9.5, label, fill="bg", ink=colour,
                                       stroke=colour))
            continue
        side = routes[j]
        s = 1 if side == "right" else -1
        edge_x = card_x + card_w if side == "right" else card_x
        x = edge_x + s * (TRACK_LEAD + side_tracks[side][j] * TRACK)
        y1, y2 = end_y[(side, j, True)], end_y[(side, j, False)]
        r = min(6, abs(y2 - y1) / 2)
        d = 1 if y2 >= y1 else -1
        path = (f"M{pt(edge_x, y1)} H{fmt(x - s * r)} Q{pt(x, y1)} {pt(x, y1 + d * r)} V{fmt(y2 - d * r)}"
                f" Q{pt(x, y2)} {pt(x - s * r, y2)} H{fmt(edge_x + s * 5.5)}")
        margin_lines[side].append(
            f'<g data-edge="{eid}">' + pen.line(path, colour, sw, dash) + pen.circle(edge_x, y1, 2.2, fill=colour)
            + pen.shape(f"M{pt(edge_x + s * 0.5, y2)} l{fmt(s * 6.5)},-3.6 v7.2 z", colour) + "</g>")
        if label:
            lw = text_width(label, 9, "bold") + 9
            cy = _label_y(x, y1, y2, lw, placed_labels[side])
            placed_labels[side].append((x, cy, lw))
            labels[side].append(f'<g transform="rotate(-90 {fmt(x)} {fmt(cy)})">'
                          + pen.rect(x - lw / 2, cy - 6.5, lw, 13, fill="bg", stroke=colour, rx=6.5)
                          + pen.text(x, cy + 3.2, 9, label, colour, bold=True, anchor="middle") + "</g>")

    card_markup = [_draw_card(pen, cards[nid], card_w) for nid in column]
    overlay = [_glyph_at(cards[nid]) for nid in column if cards[nid].face and cards[nid].face.glyph]

    # §7.6 loops
    y += 14
    loop_markup = []
    if v.loops:
        y += 4
        loop_markup.append(pen.text(12, y + 11, 12.5, "Loop" if len(v.loops) == 1 else "Loops", "ink", bold=True))
        y += 20
        plan = meaning.is_plan(doc)
        index = meaning.build_index(doc)
        for li, lp in enumerate(v.loop_sources):
            parts = []
            y += 12
            parts.append(pen.circle(17, y - 4, 4.5, fill=loop_colour(li)))
            parts.append(pen.text(28, y, 12, truncate(meaning.name_or_id(lp), W - 40, 12, "bold"), "ink", bold=True))
            members = [meaning.name_or_id(index.node(m)) if index.is_node(m) else str(m)
                       for m in (lp.get("members") if isinstance(lp.get("members"), list) else [])]
            paragraphs = [(meaning.loop_mode(lp, index) + " loop \u00b7 " + ", ".join(members), 2, "ink-3")]
            bar = lp.get("bar")
            if isinstance(bar, dict):
                paragraphs.append((f"Bar: {bar.get('name', '')}. {bar.get('acceptance', '')}", 3, "ink-2"))
            for k, stop in enumerate(lp.get("stops", []) if isinstance(lp.get("stops"), list) else []):
                if isinstance(stop, dict):
                    paragraphs.append((f"{k + 1}. {stop_words(stop)}: {stop_action(stop, plan)}", 2, "ink-2"))
            for text, most, colour in paragraphs:
                for line in wrap(text, W - 40, 11, most):
                    y += 13.5
                    parts.append(pen.text(28, y, 11, line, colour))
            y += 12
            loop_markup.append(f'<g data-loop="{attr(lp.get("id", ""))}">' + "".join(parts) + "</g>")

    body = (head + "".join(bands) + "".join(underlay) + "".join(next_lines) + "".join(margin_lines["left"])
            + "".join(margin_lines["right"]) + "".join(card_markup) + "".join(overlay)
            + "".join(labels["next"]) + "".join(labels["left"]) + "".join(labels["right"])
            + "".join(loop_markup))
    return frame("graph", W, y + 6, title_of(doc), theme, body)


def _label_y(x: float, y1: float, y2: float, w: float, placed: list[tuple[float, float, float]]) -> float:
    """§7.5: where a turned label rides its upright without touching labels already on that side."""
    lo, hi = min(y1, y2) + w / 2 + 2, max(y1, y2) - w / 2 - 2
    mid = (y1 + y2) / 2

    def clear(c: float) -> bool:
        return all(abs(px - x) > 14 or abs(py - c) > (pw + w) / 2 + 2 for px, py, pw in placed)

    if clear(mid):
        return mid
    for step in range(1, 60):
        c = mid + (7 if step % 2 else -7) * math.ceil(step / 2)
        if lo <= c <= hi and clear(c):
            return c
    return mid


def _draw_card(pen: Pen, c: _Card, w: float) -> str:
    """§7.4: a node's card inside `<g data-node>`, or a closed subgrooph's inside `<g data-group>`."""
    x, y, h = c.x, c.y, c.h
    kind = None if c.face else c.node.get("kind")
    gate = kind == "human-gate"
    out = [f'<g data-group="{attr(c.id)}">' if c.face else f'<g data-node="{attr(c.id)}">']
    out.append(pen.rect(x, y, w, h, fill="surface", stroke="gate" if gate else "line-strong",
                        stroke_width=1.8 if gate else 1, rx=16 if kind == "stop" else 9, mark="card"))
    ty = y + 18
    out.append(pen.circle(x + 13.5, ty - 3.4, 3.5, fill=c.colour))
    out.append(pen.text(x + 21, ty, 9.5, c.label, c.colour, bold=True))
    for k, li in enumerate(c.loops):
        out.append(pen.circle(x + w - 13.5 - 10 * k, ty - 3.4, 3.5, fill=loop_colour(li)))
    ty += 4
    for line in c.names:
        ty += 15.5
        out.append(pen.text(x + 10, ty, 13.5, line, "ink", bold=True))
    for line in c.subs:
        ty += 13
        out.append(pen.text(x + 10, ty, 10.5, line, "ink-2"))
    if c.extra:
        ty += 14
        out.append(pen.text(x + 10, ty, 10, c.extra, "gate", bold=True))
    out.append("</g>")
    return "".join(out)


def _glyph_at(c: _Card) -> str:
    """§7.7: the glyph of what a closed subgrooph holds, nested at the foot of its card."""
    markup, gw, gh, (vx, vy, vw, vh) = c.face.glyph
    return (f'<svg x="{fmt(c.x + 10)}" y="{fmt(c.y + c.h - gh - 8)}" width="{fmt(gw)}" height="{fmt(gh)}"'
            f' viewBox="{fmt(vx)} {fmt(vy)} {fmt(vw)} {fmt(vh)}" fill="none" stroke-linecap="round"'
            f' stroke-linejoin="round" data-glyph="">{markup}</svg>')
