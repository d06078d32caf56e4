"""The glyph: a small wordless SVG of a graph's shape (pictures.md §8). The graph picture nests one at
the foot of a closed subgrooph's card (§7.7), with its colours mapped to the picture's palette."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable

from grooph_core.picture.graph_view import layer_nodes, objects
from grooph_core.picture.svg import fmt, xml_chars
from grooph_core.semantics.graph_index import is_critic_family, is_writer_family

# role -> (CSS variable, light fallback) for a glyph standing on its own (§8 "Colours").
GLYPH_COLOURS: dict[str, tuple[str, str]] = {
    "edge": ("--edge", "#5c6663"), "muted": ("--ink-3", "#6b7370"), "ink": ("--ink", "#2b302e"),
    "surface": ("--surface", "#ffffff"), "agent-fill": ("--accent-soft", "#e3efe9"),
    "agent": ("--kind-agent", "#1f5f4a"), "gate": ("--kind-human-gate", "#b25e09"),
    "check": ("--kind-check", "#2b5f9e"), "merge": ("--kind-merge", "#6b4fa0"), "warning": ("--warning", "#955500"),
    "error": ("--error", "#b42318"), "loop-0": ("--loop-0", "#7a4cc2"), "loop-1": ("--loop-1", "#0f7c8c"),
    "loop-2": ("--loop-2", "#c2410c"), "loop-3": ("--loop-3", "#b5306e"),
}
# role -> the graph picture's palette name, for a glyph nested in a picture (§8, §7.7).
PICTURE_NAMES: dict[str, str] = {
    "edge": "ink-2", "muted": "ink-3", "ink": "ink", "surface": "surface", "agent-fill": "accent-soft",
    "agent": "accent", "gate": "gate", "check": "check", "merge": "merge", "warning": "warning", "error": "error",
    "loop-0": "loop-0", "loop-1": "loop-1", "loop-2": "loop-2", "loop-3": "loop-3",
}


def standalone_colour(role: str) -> str:
    name, fallback = GLYPH_COLOURS[role]
    return f"var({name}, {fallback})"


@dataclass(frozen=True)
class _Shape:
    kind: str       # diamond, square, rounded, hexagon, octagon, circle, dot
    ext_x: float
    top: float
    bottom: float
    bar: bool       # irreversible actions: a bar under it

    def reach(self, dx: float, dy: float) -> float:
        """How far the border is from the centre in direction (dx, dy) (a unit vector)."""
        if self.kind == "diamond":
            return 14 / (abs(dx) + abs(dy))
        if self.kind in ("square", "rounded"):
            return min(11 / max(abs(dx), abs(dy)), 11 * math.sqrt(2) - 1)
        return {"hexagon": 13, "octagon": 13, "circle": 11, "dot": 6}[self.kind]


def _shape(node: dict) -> _Shape:
    kind = node.get("kind")
    irreversible = kind == "agent" and isinstance(node.get("irreversible"), list) and bool(node["irreversible"])
    if kind == "agent":
        if is_critic_family(node):
            s = _Shape("diamond", 14, 14, 14, irreversible)
        elif is_writer_family(node):
            s = _Shape("square", 11, 11, 11, irreversible)
        else:
            s = _Shape("rounded", 11, 11, 11, irreversible)
        if irreversible:
            s = _Shape(s.kind, max(s.ext_x, 13), s.top, 19, True)
        return s
    if kind == "check":
        return _Shape("hexagon", 14, 12, 12, False)
    if kind == "human-gate":
        return _Shape("octagon", 13, 13, 13, False)
    if kind == "merge":
        return _Shape("circle", 11, 11, 11, False)
    return _Shape("dot", 6, 6, 6, False)


def _p(x: float, y: float) -> str:
    return f"{fmt(x)},{fmt(y)}"


def _poly(points: list[tuple[float, float]]) -> str:
    return "M" + " L".join(_p(x, y) for x, y in points) + " Z"


@dataclass
class Glyph:
    """A drawn glyph: its elements (one per line in the standalone file) and the viewBox."""

    elements: list[str]
    box: tuple[float, float, float, float]   # x, y, w, h


def draw_glyph(nodes: list[dict], edges: list[dict], loops: list[dict], layout: object,
               colour: Callable[[str], str] = standalone_colour) -> Glyph:
    """pictures.md §8: placement, back-edge lanes, edges, hulls and shapes of a graph's nodes."""
    by_id: dict[str, dict] = {}
    for n in nodes:
        if isinstance(n.get("id"), str) and n["id"] not in by_id:
            by_id[n["id"]] = n
    ids = list(by_id)
    if not ids:
        return Glyph([], (-16, -16, 32, 32))
    edges = [e for e in edges if e.get("from") in by_id and e.get("to") in by_id]
    back_owner: dict[str, int] = {}
    for li, lp in enumerate(loops):
        for b in lp.get("back", []) if isinstance(lp.get("back"), list) else []:
            if isinstance(b, str):
                back_owner.setdefault(b, li)
    shapes = {nid: _shape(by_id[nid]) for nid in ids}
    pos, portrait = _place(ids, edges, set(back_owner), layout)

    def along(nid: str) -> float:
        return pos[nid][1] if portrait else pos[nid][0]

    def far(nid: str) -> float:
        x, y = pos[nid]
        return x + shapes[nid].ext_x if portrait else y + shapes[nid].bottom

    def xy(a: float, c: float) -> tuple[float, float]:
        return (c, a) if portrait else (a, c)

    # back-edge lanes
    members = [frozenset(m for m in lp.get("members", []) if isinstance(m, str)) if isinstance(lp.get("members"), list)
               else frozenset() for lp in loops]
    backs = [(k, e) for k, e in enumerate(edges) if e.get("id") in back_owner and e["from"] != e["to"]]

    def smallest(e: dict) -> int:
        return min(len(members[li]) for li, lp in enumerate(loops)
                   if isinstance(lp.get("back"), list) and e.get("id") in lp["back"])

    backs.sort(key=lambda t: (smallest(t[1]), abs(along(t[1]["from"]) - along(t[1]["to"])), t[0]))
    lane_of: dict[int, float] = {}
    lane_rank: dict[int, int] = {}
    for k, (ei, e) in enumerate(backs):
        lo, hi = sorted((along(e["from"]), along(e["to"])))
        reach = max(far(nid) for nid in ids if lo - 1 <= along(nid) <= hi + 1)
        lane_of[ei] = reach + 14 + 8 * k
        lane_rank[ei] = k
    spread: dict[tuple[int, bool], float] = {}
    for end_is_from in (True, False):
        at: dict[str, list[int]] = {}
        for ei, e in backs:
            at.setdefault(e["from"] if end_is_from else e["to"], []).append(ei)
        for lst in at.values():
            lst.sort(key=lambda ei: lane_rank[ei])
            for j, ei in enumerate(lst):
                spread[(ei, end_is_from)] = (j - (len(lst) - 1) / 2) * 6

    bounds: list[tuple[float, float, float, float]] = []  # (x0, y0, x1, y1)
    for nid in ids:
        x, y = pos[nid]
        s = shapes[nid]
        bounds.append((x - s.ext_x, y - s.top, x + s.ext_x, y + s.bottom))

    # edges, in document order
    edge_lines: list[str] = []
    pairs: dict[frozenset, list[int]] = {}
    for ei, e in enumerate(edges):
        if ei not in lane_of and e["from"] != e["to"] and e.get("id") not in back_owner:
            pairs.setdefault(frozenset((e["from"], e["to"])), []).append(ei)
    up = (-1.0, 0.0) if portrait else (0.0, -1.0)
    for ei, e in enumerate(edges):
        when = e.get("when", "always")
        approval = e.get("approval") is True
        role, dash = "edge", None
        if approval:
            role = "gate"
        elif when == "fail":
            role, dash = "warning", "5 3"
        elif isinstance(when, dict):
            role, dash = "muted", "1.5 3.5"
        if when == "fail":
            dash = "5 3"
        elif isinstance(when, dict):
            dash = "1.5 3.5"
        col = colour(role)
        f, t = e["from"], e["to"]
        if f == t:
            a, c = along(f), far(f)
            pts = [xy(a + 5, c + 1), xy(a + 18, c + 20), xy(a - 18, c + 20), xy(a - 5, c + 3)]
            d = f"M{_p(*pts[0])} C{_p(*pts[1])} {_p(*pts[2])} {_p(*pts[3])}"
            tip, u = pts[3], up
            bounds.extend((x - 1, y - 1, x + 1, y + 1) for x, y in pts)
        elif ei in lane_of:
            lane = lane_of[ei]
            s = xy(along(f) + spread[(ei, True)], far(f) + 1)
            en = xy(along(t) + spread[(ei, False)], far(t) + 3)
            c1 = xy(along(f) + spread[(ei, True)], lane)
            c2 = xy(along(t) + spread[(ei, False)], lane)
            d = f"M{_p(*s)} C{_p(*c1)} {_p(*c2)} {_p(*en)}"
            tip, u = en, up
            bounds.extend((x - 1, y - 1, x + 1, y + 1) for x, y in (s, c1, c2, en))
        else:
            (fx, fy), (tx, ty) = pos[f], pos[t]
            dist = math.hypot(tx - fx, ty - fy) or 1.0
            ux, uy = (tx - fx) / dist, (ty - fy) / dist
            group = pairs.get(frozenset((f, t)), [ei])
            k = group.index(ei) if ei in group else 0
            off = (k - (len(group) - 1) / 2) * 5
            # sideways is measured for the pair's first-listed direction, so twins in both directions part
            first = edges[group[0]]
            sgn = 1 if first["from"] == f else -1
            px, py = -uy * off * sgn, ux * off * sgn
            r0 = shapes[f].reach(ux, uy) + 1
            r1 = shapes[t].reach(-ux, -uy) + 3
            s = (fx + ux * r0 + px, fy + uy * r0 + py)
            en = (tx - ux * r1 + px, ty - uy * r1 + py)
            d = f"M{_p(*s)} L{_p(*en)}"
            tip, u = en, (ux, uy)
        line = f'<path d="{d}" stroke-width="1.6"' + (f' stroke-dasharray="{dash}"' if dash else "") + \
            f' style="stroke:{col}"/>'
        if approval:
            nx, ny = -u[1] * 1.7, u[0] * 1.7
            edge_lines.append(f'<g transform="translate({fmt(nx)} {fmt(ny)})">{line}</g>')
            edge_lines.append(f'<g transform="translate({fmt(-nx)} {fmt(-ny)})">{line}</g>')
        else:
            edge_lines.append(line)
        bx, by = tip[0] - 7 * u[0], tip[1] - 7 * u[1]
        wing = (-u[1] * 3.5, u[0] * 3.5)
        edge_lines.append(f'<path d="M{_p(*tip)} L{_p(bx + wing[0], by + wing[1])} L{_p(bx - wing[0], by - wing[1])} Z"'
                          f' style="fill:{col}"/>')

    # hulls: the most-nesting loop first
    hulls: list[tuple[int, int, str]] = []
    for li, lp in enumerate(loops):
        mem = [m for m in members[li] if m in pos]
        if not mem:
            continue
        x0 = min(pos[m][0] - shapes[m].ext_x for m in mem)
        x1 = max(pos[m][0] + shapes[m].ext_x for m in mem)
        y0 = min(pos[m][1] - shapes[m].top for m in mem)
        y1 = max(pos[m][1] + shapes[m].bottom for m in mem)
        for ei, e in enumerate(edges):
            if ei in lane_of and back_owner.get(e.get("id")) is not None and e.get("id") in (lp.get("back") or []):
                if portrait:
                    x1 = max(x1, lane_of[ei])
                else:
                    y1 = max(y1, lane_of[ei])
        nested = sum(1 for lj in range(len(loops)) if lj != li and members[lj] < members[li])
        pad = 8 + 6 * nested
        x0, y0, x1, y1 = x0 - pad, y0 - pad, x1 + pad, y1 + pad
        bounds.append((x0, y0, x1, y1))
        hulls.append((-nested, li, f'<rect x="{fmt(x0)}" y="{fmt(y0)}" width="{fmt(x1 - x0)}" height="{fmt(y1 - y0)}"'
                                   f' rx="10" stroke-width="1.3" stroke-dasharray="4 3"'
                                   f' style="stroke:{colour(f"loop-{li % 4}")}"/>'))
    hulls.sort()

    shapes_out = [_draw_node(by_id[nid], shapes[nid], pos[nid], colour) for nid in ids]
    bx0 = min(b[0] for b in bounds) - 4
    by0 = min(b[1] for b in bounds) - 4
    bx1 = max(b[2] for b in bounds) + 4
    by1 = max(b[3] for b in bounds) + 4
    return Glyph([h for _, _, h in hulls] + edge_lines + shapes_out, (bx0, by0, bx1 - bx0, by1 - by0))


def _draw_node(node: dict, s: _Shape, c: tuple[float, float], colour: Callable[[str], str]) -> str:
    x, y = c
    if s.kind == "diamond":
        out = (f'<path d="{_poly([(x, y - 14), (x + 14, y), (x, y + 14), (x - 14, y)])}" stroke-width="1.8"'
               f' style="fill:{colour("agent-fill")};stroke:{colour("agent")}"/>')
    elif s.kind in ("square", "rounded"):
        out = (f'<rect x="{fmt(x - 11)}" y="{fmt(y - 11)}" width="22" height="22" rx="{2 if s.kind == "square" else 7}"'
               f' stroke-width="1.8" style="fill:{colour("agent-fill")};stroke:{colour("agent")}"/>')
    elif s.kind == "hexagon":
        pts = [(x - 7, y - 12), (x + 7, y - 12), (x + 14, y), (x + 7, y + 12), (x - 7, y + 12), (x - 14, y)]
        out = f'<path d="{_poly(pts)}" stroke-width="1.8" style="fill:{colour("surface")};stroke:{colour("check")}"/>'
    elif s.kind == "octagon":
        pts = [(x + 13 * math.cos(math.radians(22.5 + 45 * k)), y + 13 * math.sin(math.radians(22.5 + 45 * k)))
               for k in range(8)]
        out = f'<path d="{_poly(pts)}" stroke-width="2.4" style="fill:{colour("surface")};stroke:{colour("gate")}"/>'
    elif s.kind == "circle":
        out = (f'<circle cx="{fmt(x)}" cy="{fmt(y)}" r="11" stroke-width="1.8"'
               f' style="fill:{colour("surface")};stroke:{colour("merge")}"/>')
    else:
        fill = colour("warning") if node.get("outcome") == "halt" else colour("ink")
        out = f'<circle cx="{fmt(x)}" cy="{fmt(y)}" r="6" style="fill:{fill}"/>'
    if s.bar:
        out += (f'\n<path d="M{_p(x - 13, y + 17)} L{_p(x + 13, y + 17)}" stroke-width="3"'
                f' style="stroke:{colour("error")}"/>')
    return out


def _place(ids: list[str], edges: list[dict], back: set[str], layout: object) -> tuple[dict, bool]:
    """§8 "Placement": centres, and whether the drawing is portrait."""
    entries = layout if isinstance(layout, dict) else {}

    def box(nid: str):
        e = entries.get(nid)
        if not isinstance(e, dict):
            return None
        x, y = e.get("x"), e.get("y")
        if not all(isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) for v in (x, y)):
            return None
        w = e.get("w", 200) if isinstance(e.get("w"), (int, float)) and not isinstance(e.get("w"), bool) else 200
        h = e.get("h", 84) if isinstance(e.get("h"), (int, float)) and not isinstance(e.get("h"), bool) else 84
        return float(x), float(y), float(w), float(h)

    laid = {nid: b for nid in ids if (b := box(nid)) is not None}
    if not laid:
        rows = layer_nodes(ids, edges, back)
        tallest = max(len(r) for r in rows)
        pos = {}
        for r, row in enumerate(rows):
            for i, nid in enumerate(row):
                pos[nid] = (60.0 * r, (tallest - 1) * 22 - (len(row) - 1) * 22 + 44.0 * i)
        return pos, False
    raw = {nid: (x + w / 2, y + h / 2) for nid, (x, y, w, h) in laid.items()}
    rest = [nid for nid in ids if nid not in laid]
    if rest:
        auto: dict[str, tuple[float, float]] = {}
        line = 0
        for row in layer_nodes(ids, edges, back):
            for start in range(0, len(row), 4):
                chunk = row[start:start + 4]
                left = -(len(chunk) * 200 + (len(chunk) - 1) * 36) / 2
                for i, nid in enumerate(chunk):
                    auto[nid] = (float(round(left + i * 236)), line * 160.0)
                line += 1
        dx = min(b[0] for b in laid.values()) - min(auto[n][0] for n in rest)
        dy = max(b[1] for b in laid.values()) + 160 - min(auto[n][1] for n in rest)
        for nid in rest:
            raw[nid] = (auto[nid][0] + dx + 100, auto[nid][1] + dy + 42)
    pts = sorted(set(raw.values()))
    scale = 1.0
    if len(pts) > 1:
        nearest = min(math.hypot(a[0] - b[0], a[1] - b[1]) for i, a in enumerate(pts) for b in pts[i + 1:])
        scale = 40 / nearest
    xs, ys = [p[0] for p in raw.values()], [p[1] for p in raw.values()]
    ex, ey = max(xs) - min(xs), max(ys) - min(ys)
    if ex * scale > 400:
        scale = 400 / ex
    if ey * scale > 400:
        scale = 400 / ey
    mx, my = min(xs), min(ys)
    return {nid: ((x - mx) * scale, (y - my) * scale) for nid, (x, y) in raw.items()}, ey > ex


def glyph_svg(doc: dict, scale: float = 1) -> str:
    """The standalone glyph of a graph document (no final newline)."""
    g = draw_glyph(objects(doc, "nodes"), objects(doc, "edges"), objects(doc, "loops"), doc.get("layout"))
    x, y, w, h = g.box
    name = doc.get("name") if isinstance(doc.get("name"), str) else ""
    title = xml_chars(name.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;"))
    head = (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="{fmt(x)} {fmt(y)} {fmt(w)} {fmt(h)}"'
            f' width="{fmt(w * scale)}" height="{fmt(h * scale)}" role="img" fill="none" stroke-linecap="round"'
            f' stroke-linejoin="round" class="grooph-glyph">')
    return "\n".join([head, f"<title>{title}</title>", *g.elements, "</svg>"])
