"""The parts every view of a map uses: what is drawn, carrier styles, the heading, cards, lane
headings, numbers and their placing, and the rows of the handoff list (pictures.md §2).

Cards are measured first (`measure_session`, `measure_person`) and drawn later at a place the layout
chooses, because every layout needs their heights before it can place anything.
"""

from __future__ import annotations

import math
from bisect import bisect_left
from dataclasses import dataclass, field

from grooph_core.picture import meaning
from grooph_core.picture.measure import truncate, width, wrap
from grooph_core.picture.svg import Pen, esc, pill_width, pt
from grooph_core.source.text import js_number

BADGE_R = 7.2

# pictures.md §2.2: carrier kind → (colour, stroke width, dash); None is "no carrier".
CARRIER_STYLE: dict[str | None, tuple[str, float, str | None]] = {
    "branch": ("accent", 1.6, None),
    "pull-request": ("check", 1.6, None),
    "session-message": ("ink-2", 1.4, "5 3"),
    "scheduled-message": ("merge", 1.8, "1.5 3"),
    "review-page": ("loop-3", 1.4, "7 3 1.5 3"),
    "person": ("gate", 2.4, None),
    "notification": ("loop-1", 2.6, "0.1 4.5"),
    "other": ("ink-3", 1.4, "3 3"),
    None: ("error", 1.4, "2 2"),
}

LIFETIME_LABEL = {"long-lived": "long-lived", "per-task": "per task", "scheduled": "scheduled"}
HARNESS_LABEL = {"claude-code": "Claude Code", "codex": "Codex"}


def carrier_style(handoff: dict) -> tuple[str, float, str | None]:
    """The colour, stroke width and dash of a handoff's line (§2.2)."""
    return CARRIER_STYLE.get(meaning.carrier_kind(handoff), CARRIER_STYLE["other"])


def handoff_line(pen: Pen, d: str, handoff: dict) -> str:
    """A handoff's line in its carrier's style (§2.2)."""
    colour, w, dash = carrier_style(handoff)
    return pen.line(d, colour, w, dash)


# ---------------------------------------------------------------- what is drawn (§2.1)

@dataclass
class MapModel:
    """The map as the views see it: drawn sessions per lane, people, drawn handoffs, numbers."""

    doc: dict
    index: meaning.MapIndex
    wakes: dict[str, str]                # session id → schedule, for sessions that wake themselves
    lanes: list[dict]
    people: list[dict]
    lane_sessions: list[list[dict]]      # per lane (document order), its drawn sessions
    handoffs: list[dict]                 # every handoff, in document order (number = index + 1)
    drawn: list[int]                     # indexes into `handoffs` of the drawn ones
    person_ids: set[str] = field(default_factory=set)
    session_lane: dict[str, int] = field(default_factory=dict)   # drawn session id → lane index
    session_k: dict[str, int] = field(default_factory=dict)      # drawn session id → index in its lane

    @property
    def is_empty(self) -> bool:
        return not self.lanes and not self.people and not self.handoffs

    def is_person(self, end: str) -> bool:
        """An end drawn as a person's card (a drawn session with that id wins, as end names do)."""
        return end not in self.session_lane and end in self.person_ids


def _objects(doc: dict, key: str) -> list[dict]:
    v = doc.get(key)
    return [x for x in v if isinstance(x, dict)] if isinstance(v, list) else []


def map_model(doc: dict) -> MapModel:
    """pictures.md §2.1: drawn sessions, people, drawn handoffs.

    Documents with duplicate ids (already E_DUPLICATE_ID) are drawn by the first object with an id:
    a session goes under the first lane with its lane id, and an end resolves to the first drawn
    session, else the first person, with that id. (Our choice; the spec leaves it open.)
    """
    lanes = _objects(doc, "lanes")
    people = _objects(doc, "people")
    lane_index: dict[str, int] = {}
    for i, ln in enumerate(lanes):
        lane_index.setdefault(ln.get("id"), i)
    lane_sessions: list[list[dict]] = [[] for _ in lanes]
    session_lane: dict[str, int] = {}
    session_k: dict[str, int] = {}
    for s in _objects(doc, "sessions"):
        i = lane_index.get(s.get("lane"))
        if i is None or s.get("id") in session_lane:
            continue
        session_lane[s["id"]] = i
        session_k[s["id"]] = len(lane_sessions[i])
        lane_sessions[i].append(s)
    person_ids: set[str] = set()
    unique_people = []
    for p in people:
        if p.get("id") not in person_ids:
            person_ids.add(p.get("id"))
            unique_people.append(p)
    handoffs = _objects(doc, "handoffs")
    ends = set(session_lane) | person_ids
    drawn = [i for i, h in enumerate(handoffs) if h.get("from") in ends and h.get("to") in ends]
    index = meaning.map_index(doc)
    return MapModel(doc, index, meaning.wakes_itself(index), lanes, unique_people, lane_sessions, handoffs, drawn,
                    person_ids, session_lane, session_k)


# ---------------------------------------------------------------- heading (§2.3)

def heading(pen: Pen, title: str, caption: str, w: float) -> tuple[str, float]:
    """Title (17 bold, 2 lines) and caption (11, 2 lines); returns the markup and where the next part starts."""
    out = []
    y = 18.0
    for line in wrap(title, w - 24, 17, 2, "bold"):
        y += 17
        out.append(pen.text(12, y, 17, line, "ink", bold=True))
        y += 4
    for line in wrap(caption, w - 24, 11, 2):
        y += 13
        out.append(pen.text(12, y, 11, line, "ink-3"))
    return "".join(out), y + 12


def map_caption(model: MapModel) -> str:
    """§2.3: `as of <asOf>` when present, then the shape line (map.md §8.2), joined by ` · `."""
    doc = model.doc
    parts = []
    if isinstance(doc.get("asOf"), str):
        parts.append("as of " + doc["asOf"])
    parts.append(meaning.map_shape_line(doc, model.index))
    return " · ".join(parts)


def title_of(doc: dict) -> str:
    """The document's name, or its id when the name is empty (§1.3)."""
    name = doc.get("name")
    return name if isinstance(name, str) and name != "" else str(doc.get("id", ""))


# ---------------------------------------------------------------- cards (§2.4, §2.5)

def slots(e: int) -> float:
    """The height that fits `e` arc ends 13 units apart."""
    return (e + 1) * 13 + 4


@dataclass(frozen=True)
class SessionCard:
    id: str
    w: float
    h: float
    family: str | None          # the `×N` text for a family
    count_w: float
    names: list[str]
    runs_on: list[str]
    codex: bool
    roles: list[str]
    meta: list[str]
    wakes: list[str]
    graph: str | None


def family_mark(s: dict) -> str | None:
    """`×N` for a family (map.md §3.2: `count` > 1), else None."""
    return "\u00d7" + js_number(meaning.session_count(s)) if meaning.is_family(s) else None


def measure_session(model: MapModel, s: dict, w: float, e: int, more: int) -> SessionCard:
    """pictures.md §2.4: a session card's lines and height, before it is placed."""
    tw = w - 20
    family = family_mark(s)
    count_w = 0.0
    if family:
        count_w = width(family, 10.5, "bold") + 12
    first_w = tw - (count_w + 6) if family else tw
    names = wrap(meaning.name_or_id(s), lambda i: first_w if i == 0 else tw, 13.5, 2 + more, "bold")

    harness = s.get("harness") if isinstance(s.get("harness"), str) else ""
    label = HARNESS_LABEL.get(harness, harness)
    # A model that is absent or empty counts as no model (our reading of "with no model").
    runs = s.get("model") if isinstance(s.get("model"), str) else ""
    if not runs or width(f"{label} \u00b7 {runs}", 10.5, "bold") <= tw:
        runs_on = [truncate(f"{label} \u00b7 {runs}" if runs else label, tw, 10.5, "bold")]
    else:
        runs_on = [truncate(label, tw, 10.5, "bold")] + wrap(runs, tw, 10.5, 2 + more, "bold")

    meta_parts = []
    lifetime = LIFETIME_LABEL.get(s.get("lifetime"))
    if lifetime:
        meta_parts.append(lifetime)
    if isinstance(s.get("repo"), str) and s["repo"] != "":
        meta_parts.append(s["repo"])
    meta = wrap(" \u00b7 ".join(meta_parts), tw, 10, 3 + more) if meta_parts else []

    schedule = model.wakes.get(s.get("id"))
    wakes = []
    if schedule is not None:
        wakes = wrap("wakes itself" + (" \u00b7 " + schedule if schedule != "" else ""), tw - 13, 10, 2, "bold")

    graph = s.get("graph")
    graph_line = truncate("graph: " + graph, tw, 10, "mono") if isinstance(graph, str) and graph else None

    fixed = (10 + 16 * len(names) + 1 + 13 * len(runs_on) + 2 + 13 * len(meta) + (1 if meta else 0)
             + (2 + 13 * len(wakes) if wakes else 0) + (15 if graph_line else 0) + 10 - 3)
    role = s.get("role") if isinstance(s.get("role"), str) else ""
    roles = wrap(role, tw, 11, max(12, math.floor((slots(e) - fixed) / 13.5)))
    h = max(fixed + 13.5 * len(roles), slots(e))
    return SessionCard(s.get("id"), w, h, family, count_w, names, runs_on, harness == "codex", roles, meta,
                       wakes, graph_line)


def draw_session(pen: Pen, c: SessionCard, x: float, y: float) -> str:
    """pictures.md §2.4: the card (and a family's two cards behind it) inside `<g data-session>`."""
    w, h = c.w, c.h
    out = [f'<g data-session="{attr(c.id)}">']
    if c.family:
        out.append(pen.rect(x + 6, y + 6, w - 6, h - 2, fill="surface", stroke="line", rx=9))
        out.append(pen.rect(x + 3, y + 3, w - 3, h - 1, fill="surface", stroke="line", rx=9))
    out.append(pen.rect(x, y, w, h, fill="surface", stroke="line-strong", rx=9, mark="card"))
    ty = y + 5
    for i, line in enumerate(c.names):
        ty += 16
        out.append(pen.text(x + 10, ty, 13.5, line, "ink", bold=True))
        if i == 0 and c.family:
            out.append(pen.pill(x + w - 10 - c.count_w, ty - 0.5, 10.5, c.family, fill="accent-soft", ink="accent"))
    ty += 1
    for line in c.runs_on:
        ty += 13
        out.append(pen.text(x + 10, ty, 10.5, line, "check" if c.codex else "accent", bold=True))
    ty += 2
    for line in c.roles:
        ty += 13.5
        out.append(pen.text(x + 10, ty, 11, line, "ink-2"))
    if c.meta:
        ty += 1
        for line in c.meta:
            ty += 13
            out.append(pen.text(x + 10, ty, 10, line, "ink-3"))
    for i, line in enumerate(c.wakes):
        ty += 15 if i == 0 else 13
        if i == 0:
            out.append(pen.circle(x + 14.2, ty - 3.4, 3.6, stroke="merge", stroke_width=1.8, dash="1.5 2.2",
                                  mark="wakes"))
        out.append(pen.text(x + 23, ty, 10, line, "merge", bold=True))
    if c.graph:
        ty += 15
        out.append(pen.text(x + 10, ty, 10, c.graph, "loop-0", mono=True))
    out.append("</g>")
    return "".join(out)


@dataclass(frozen=True)
class PersonCard:
    id: str
    w: float
    h: float
    names: list[str]
    roles: list[str]


def measure_person(p: dict, w: float, e: int, more: int) -> PersonCard:
    """pictures.md §2.5: a person's card lines and height (a caller may draw it taller)."""
    tw = w - 20
    names = wrap(meaning.name_or_id(p), tw, 13.5, 2 + more, "bold")
    fixed = 10 + 16 * len(names) + 10 - 3
    role = p.get("role")
    roles = []
    if isinstance(role, str) and role != "":
        roles = wrap(role, tw, 11, max(12, math.floor((slots(e) - fixed - 2) / 13.5)))
    h = max(fixed + (2 + 13.5 * len(roles) if roles else 0), slots(e))
    return PersonCard(p.get("id"), w, h, names, roles)


def draw_person(pen: Pen, c: PersonCard, x: float, y: float, h: float | None = None) -> str:
    """pictures.md §2.5: a person's card in the gate colours, inside `<g data-person>`."""
    out = [f'<g data-person="{attr(c.id)}">',
           pen.rect(x, y, c.w, c.h if h is None else h, fill="gate-soft", stroke="gate", stroke_width=1.4, rx=14,
                    mark="card")]
    ty = y + 5
    for line in c.names:
        ty += 16
        out.append(pen.text(x + 10, ty, 13.5, line, "ink", bold=True))
    ty += 2
    for line in c.roles:
        ty += 13.5
        out.append(pen.text(x + 10, ty, 11, line, "ink-2"))
    out.append("</g>")
    return "".join(out)


# ---------------------------------------------------------------- a lane's heading (§2.6)

def lane_heading(pen: Pen, lane: dict, x: float, w: float, y: float, more: int) -> tuple[str, float]:
    """The lane's place pill, name and `machine · account` lines; returns markup and the first card's y.

    Element order (§2.6): the name's first line, the pill (rect, word), the further name lines, then
    the machine · account lines."""
    hw = w - 2
    out = []
    place = lane.get("place") if lane.get("place") in ("local", "cloud") else None
    pw = pill_width(place, 9.5) if place else 0.0

    def line_w(i: int) -> float:
        return hw - (pw + 8) if place and (i == 0 or more == 0) else hw

    names = wrap(meaning.name_or_id(lane), line_w, 12.5, 2 + more, "bold")  # at least one line
    pill = pen.pill(x + w - pw, y - 0.5, 9.5, place, fill="surface", ink="ink-2", stroke="line-strong") if place else ""
    for i, line in enumerate(names):
        if i:
            y += 15
        out.append(pen.text(x + 2, y, 12.5, line, "ink", bold=True))
        if place and i == 0:
            out.append(pill)
    machine = lane.get("machine") if isinstance(lane.get("machine"), str) else ""
    account = lane.get("account") if isinstance(lane.get("account"), str) else ""
    for line in wrap(f"{machine} \u00b7 {account}", hw, 10.5, 3 + more):
        y += 13.5
        out.append(pen.text(x + 2, y, 10.5, line, "ink-3"))
    return "".join(out), y + 9.5


# ---------------------------------------------------------------- numbers (§2.7, §2.8)

def badge_half(n: int) -> float:
    """Half the badge's width: the ring's radius for one digit, else the pill's half-width."""
    s = str(n)
    return BADGE_R if len(s) == 1 else (width(s, 8.5, "bold") + 4.5) / 2


def ring(pen: Pen, n: int, x: float, y: float, colour: str) -> str:
    """The badge's ring (a circle for one digit, a rounded rect for more), filled with the ground."""
    if len(str(n)) == 1:
        return pen.circle(x, y, BADGE_R, fill="bg", stroke=colour, stroke_width=1.3, raw_r="7.2")
    half = badge_half(n)
    return pen.rect(x - half, y - BADGE_R, 2 * half, 2 * BADGE_R, fill="bg", stroke=colour, stroke_width=1.3,
                    rx=BADGE_R)


def number(pen: Pen, n: int, x: float, y: float) -> str:
    """The badge's number, bold and centred, 9.5 for one digit and 8.5 for more."""
    return pen.text(x, y + 3.3, 9.5 if n < 10 else 8.5, str(n), "ink", bold=True, anchor="middle")


def badge(pen: Pen, n: int, x: float, y: float, colour: str) -> str:
    return ring(pen, n, x, y, colour) + number(pen, n, x, y)


@dataclass(frozen=True)
class Run:
    """A straight run of an arc: level (`y` fixed, `lo`..`hi` in x) or, turned, upright."""

    y: float
    lo: float
    hi: float
    of: int


class RunSet:
    """The level runs of every arc, grouped by extent, so that `place` gathers the ones within reach of
    an upright with a few list operations instead of a test per run (long maps stay fast)."""

    def __init__(self, runs: list[Run]):
        grouped: dict[tuple[float, float], list[Run]] = {}
        for r in runs:
            grouped.setdefault((r.lo, r.hi), []).append(r)
        self.groups = []
        for (lo, hi), rs in grouped.items():
            own: dict[int, list[float]] = {}
            for r in rs:
                own.setdefault(r.of, []).append(r.y)
            self.groups.append((lo, hi, [r.y for r in rs], own))

    def ys_within(self, x: float, half: float, self_i: int) -> list[float]:
        """The sorted y of every run of another arc reaching the band x ± (half + 1)."""
        out: list[float] = []
        for lo, hi, ys, own in self.groups:
            if hi >= x - half - 1 and lo <= x + half + 1:
                out.extend(ys)
                for y in own.get(self_i, ()):
                    out.remove(y)
        out.sort()
        return out


def place(x: float, y1: float, y2: float, half: float, self_i: int, placed: list, levels: RunSet) -> float:
    """pictures.md §2.8: the y of a number on the upright at x between y1 and y2; recorded in `placed`.

    `placed` holds (x, y, half) triples; `levels` the level runs of every arc (the number keeps
    clear of other arcs' level runs and of numbers already placed). The wide layout also calls it
    turned, with x and y exchanged (§4.9).
    """
    lo, hi, mid = min(y1, y2) + 9, max(y1, y2) - 9, (y1 + y2) / 2
    # What can be in the way is fixed for this upright: keep it sorted, and ask only the nearest
    # (min over |y - at| - c is reached at a neighbour of `at`), so a long map stays fast.
    badge_ys = sorted(by for bx, by, bh in placed if abs(bx - x) <= bh + half + 1)
    level_ys = levels.ys_within(x, half, self_i)

    def nearest(ys: list[float], at: float) -> float:
        k = bisect_left(ys, at)
        d = math.inf
        if k < len(ys):
            d = ys[k] - at
        if k > 0:
            d = min(d, at - ys[k - 1])
        return d

    def room(at: float) -> float:
        r = math.inf
        if badge_ys:
            r = nearest(badge_ys, at) - (2 * BADGE_R + 6)
        if level_ys:
            r = min(r, nearest(level_ys, at) - (BADGE_R + 2.5))
        return r

    best_at, best_room = mid, room(mid)
    if not (best_room >= 0 or hi <= lo):
        step = 1
        while 4 * step <= hi - lo:
            for at in (mid + 4 * step, mid - 4 * step):
                if at < lo or at > hi:
                    continue
                r = room(at)
                if best_room < 0 and (r >= 0 or r > best_room):
                    best_at, best_room = at, r
            if best_room >= 0:
                break
            step += 1
    placed.append((x, best_at, half))
    return best_at


# ---------------------------------------------------------------- a row of the list (§2.9)

def who_to_whom(model: MapModel, h: dict) -> str:
    """`<end> → itself` for a self handoff, else `<from end> → <to end>` (map.md §3.4 end names)."""
    f, t = str(h.get("from", "")), str(h.get("to", ""))
    if f == t:
        return meaning.end_name(model.index, f) + " \u2192 itself"
    return meaning.end_name(model.index, f) + " \u2192 " + meaning.end_name(model.index, t)


def row(pen: Pen, model: MapModel, h: dict, n: int, x: float, top: float, w: float, more: int) -> tuple[str, float]:
    """pictures.md §2.9: one handoff's numbered row; returns its markup and where the next row starts."""
    list_x, list_w = x + 24, w - 24
    colour, _, _ = carrier_style(h)
    parts = []
    y = top + 12
    parts.append(badge(pen, n, x + 8, y - 4, colour))
    for i, line in enumerate(wrap(who_to_whom(model, h), list_w, 12, 2 + more, "bold")):
        if i:
            y += 14
        parts.append(pen.text(list_x, y, 12, line, "ink", bold=True))
    y += 14
    parts.append(handoff_line(pen, f"M{pt(list_x, y - 3.5)} h18", h))
    for i, line in enumerate(wrap(meaning.handoff_carried_by(model.index, h), list_w - 24, 11, 2 + more, "bold")):
        if i:
            y += 13.5
        parts.append(pen.text(list_x + 24, y, 11, line, colour, bold=True))
    what = h.get("what")
    if isinstance(what, str) and what != "":
        for line in wrap(what, list_w, 11, 4 + more):
            y += 13.5
            parts.append(pen.text(list_x, y, 11, line, "ink-2"))
    y += 11
    markup = (f'<g data-handoff-row="{attr(h.get("id", ""))}">'
              + pen.rect(x - 4, top - 2, w + 8, y - top - 3, fill="transparent", rx=8, mark="row")
              + "".join(parts) + "</g>")
    return markup, y


def attr(v: object) -> str:
    """An id written into a data attribute (escaped like any document text)."""
    return esc(str(v))


def arrow_left(pen: Pen, x: float, y: float, colour: str) -> str:
    """An arrowhead whose tip is at (x, y), pointing left into a card."""
    return pen.shape(f"M{pt(x, y)} l6.5,-3.6 v7.2 z", colour)

