"""Reading pictures back for tests: parse the SVG, find the marked groups, turn paths into straight runs,
count crossings, and build the long map of pictures.md §12.3."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path

from grooph_core.picture.measure import width

HERE = Path(__file__).resolve().parent
EXAMPLES = HERE / "examples"
ROOT = HERE.parent.parent.parent
FIXTURES = ROOT / "fixtures"
NS = "{http://www.w3.org/2000/svg}"


def example(name: str) -> dict:
    return json.loads((EXAMPLES / name).read_text("utf-8"))


def bakery() -> dict:
    """pictures.md §12.2: the worked map."""
    return example("bakery-ops.grooph-map.json")


def essay() -> dict:
    """pictures.md §12.4: the worked graph."""
    return example("essay-week.grooph.json")


def valid_maps() -> list[tuple[str, dict]]:
    """The spec's worked map and every valid fixture map."""
    out = [("bakery-ops(spec)", bakery())]
    for p in sorted((FIXTURES / "maps" / "valid").glob("*.grooph-map.json")):
        out.append((p.name, json.loads(p.read_text("utf-8"))))
    return out


def valid_graphs() -> list[tuple[str, dict]]:
    out = [("essay-week(spec)", essay())]
    for base in (FIXTURES / "valid", FIXTURES / "maps" / "valid" / "graphs"):
        for p in sorted(base.glob("*.grooph.json")) if base.exists() else []:
            out.append((p.name, json.loads(p.read_text("utf-8"))))
    return out


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def tag(el: ET.Element) -> str:
    return el.tag.removeprefix(NS)


def with_attr(root: ET.Element, name: str) -> list[ET.Element]:
    """Every element carrying the attribute `name` (e.g. `data-handoff`), in document order."""
    return [el for el in root.iter() if name in el.attrib]


def children(el: ET.Element, name: str) -> list[ET.Element]:
    return [c for c in el if tag(c) == name]


def viewbox(root: ET.Element) -> tuple[float, float]:
    _, _, w, h = (float(v) for v in root.attrib["viewBox"].split())
    return w, h


def rect_box(el: ET.Element) -> tuple[float, float, float, float]:
    a = el.attrib
    return float(a["x"]), float(a["y"]), float(a["width"]), float(a["height"])


def card_of(group: ET.Element) -> tuple[float, float, float, float]:
    """The `data-card` rect of a card group: (x, y, w, h)."""
    cards = [r for r in group.iter() if tag(r) == "rect" and "data-card" in r.attrib]
    assert len(cards) == 1, "a card group holds exactly one data-card rect"
    return rect_box(cards[0])


def style(el: ET.Element, prop: str) -> str | None:
    for part in el.attrib.get("style", "").split(";"):
        k, _, v = part.partition(":")
        if k == prop:
            return v
    return None


def text_extent(el: ET.Element) -> tuple[float, float]:
    """(left, right) of a text element as the picture measures it (pictures.md §1.5)."""
    a = el.attrib
    size = float(a["font-size"])
    weight = "mono" if "font-family" in a else ("bold" if a.get("font-weight") == "700" else "regular")
    w = width(el.text or "", size, weight)
    x = float(a["x"])
    anchor = a.get("text-anchor")
    if anchor == "middle":
        return x - w / 2, x + w / 2
    if anchor == "end":
        return x - w, x
    return x, x + w


_TOKEN = re.compile(r"[MLHVQZmlhvqz]|-?\d+(?:\.\d+)?(?:e-?\d+)?")


def path_points(d: str) -> list[tuple[float, float]]:
    """The corner points of an orthogonal path: moves inside it (ring gaps) do not break it, and a
    `Q` corner reads as the corner it rounds (pictures.md §12.1)."""
    tokens = _TOKEN.findall(d)
    pts: list[tuple[float, float]] = []
    cur = (0.0, 0.0)
    i = 0
    cmd = None
    while i < len(tokens):
        t = tokens[i]
        if t.isalpha():
            cmd = t
            i += 1
            continue
        if cmd in ("M", "L"):
            cur = (float(tokens[i]), float(tokens[i + 1]))
            i += 2
            pts.append(cur)
        elif cmd == "H":
            cur = (float(t), cur[1])
            i += 1
            pts.append(cur)
        elif cmd == "V":
            cur = (cur[0], float(t))
            i += 1
            pts.append(cur)
        elif cmd == "h":
            cur = (cur[0] + float(t), cur[1])
            i += 1
            pts.append(cur)
        elif cmd == "v":
            cur = (cur[0], cur[1] + float(t))
            i += 1
            pts.append(cur)
        elif cmd == "Q":
            corner = (float(tokens[i]), float(tokens[i + 1]))
            cur = (float(tokens[i + 2]), float(tokens[i + 3]))
            i += 4
            pts.append(corner)
            pts.append(cur)
        else:
            raise AssertionError(f"unexpected path command {cmd!r} in {d!r}")
    return pts


def runs(points: list[tuple[float, float]], tol: float = 0.11) -> list[tuple[str, float, float, float]]:
    """Straight runs of a polyline: ("level", y, x1, x2) or ("upright", x, y1, y2); collinear joined."""
    out: list[tuple[str, float, float, float]] = []
    for (x1, y1), (x2, y2) in zip(points, points[1:]):
        if abs(x1 - x2) <= tol and abs(y1 - y2) <= tol:
            continue
        if abs(y1 - y2) <= tol:
            r = ("level", y1, x1, x2)
        elif abs(x1 - x2) <= tol:
            r = ("upright", x1, y1, y2)
        else:
            raise AssertionError(f"a diagonal run from {(x1, y1)} to {(x2, y2)}")
        if out and out[-1][0] == r[0] and abs(out[-1][1] - r[1]) <= tol and (r[3] - r[2]) * (out[-1][3] - out[-1][2]) > 0:
            out[-1] = (r[0], r[1], out[-1][2], r[3])
        else:
            out.append(r)
    return out


def arc_runs(root: ET.Element) -> dict[str, list[tuple[str, float, float, float]]]:
    """Each `data-handoff` group's line (its first path) as straight runs."""
    out = {}
    for g in with_attr(root, "data-handoff"):
        line = children(g, "path")[0]
        out[g.attrib["data-handoff"]] = runs(path_points(line.attrib["d"]))
    return out


def crossings(arcs: dict[str, list]) -> int:
    """Level runs of one arc that strictly cross an upright run of another (pictures.md §12.1)."""
    n = 0
    items = list(arcs.items())
    for a, ra in items:
        for b, rb in items:
            if a == b:
                continue
            for kind, y, x1, x2 in ra:
                if kind != "level":
                    continue
                for kind2, x, y1, y2 in rb:
                    if kind2 != "upright":
                        continue
                    if min(x1, x2) < x < max(x1, x2) and min(y1, y2) < y < max(y1, y2):
                        n += 1
    return n


def long_map() -> dict:
    """pictures.md §12.3: one person, nine sessions in three lanes, nineteen handoffs, most to or from
    one hub session (a map of our own with that structure)."""
    lanes = [{"id": f"lane-{k}", "name": f"Lane {k}", "machine": f"machine {k}", "account": "team"} for k in "abc"]
    sessions = []
    for li, lane in enumerate("abc"):
        for k in range(3):
            sid = "hub" if (li, k) == (0, 0) else f"s-{lane}{k}"
            sessions.append({"id": sid, "name": sid.title(), "lane": f"lane-{lane}", "harness": "claude-code",
                             "role": f"Works on part {lane}{k} of the job"})
    others = [s["id"] for s in sessions if s["id"] != "hub"]
    kinds = ["session-message", "branch", "pull-request", "review-page", "other", "scheduled-message"]
    handoffs = []

    def carrier(i: int) -> dict:
        k = kinds[i % len(kinds)]
        return {"kind": k, **({"repo": "team/repo"} if k in ("branch", "pull-request") else {}),
                **({"where": "the wiki"} if k == "review-page" else {}), **({"name": "a queue"} if k == "other" else {})}

    handoffs.append({"id": "h-ask", "from": "pat", "to": "hub", "carrier": {"kind": "session-message"}})
    for i, o in enumerate(others):
        handoffs.append({"id": f"h-out-{i}", "from": "hub", "to": o, "carrier": carrier(i)})
        handoffs.append({"id": f"h-back-{i}", "from": o, "to": "hub", "carrier": carrier(i + 1)})
    handoffs.append({"id": "h-done", "from": "hub", "to": "pat", "carrier": {"kind": "notification"}})
    handoffs.append({"id": "h-side", "from": "s-b1", "to": "s-c2", "carrier": {"kind": "session-message"}})
    return {"groophMap": 0, "id": "long-map", "name": "Long map", "version": 1,
            "lanes": lanes, "people": [{"id": "pat", "name": "Pat", "role": "Asks and reads"}],
            "sessions": sessions, "handoffs": handoffs}
