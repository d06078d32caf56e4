"""The shape of a map: the counts object and the one-line summary (map.md §8.1, §8.2)."""

from __future__ import annotations

from grooph_core.semantics.by_hand import by_hand
from grooph_core.semantics.map_index import MapIndex, carrier_kind, map_index, session_count
from grooph_core.source.text import js_number


def _tidy(x: int | float) -> int | float:
    """An integral double as an int (so JSON writes `6`, not `6.0`)."""
    if isinstance(x, float) and x.is_integer() and abs(x) < 2**53:
        return int(x)
    return x


def map_shape(doc: dict, index: MapIndex | None = None) -> dict:
    """map.md §8.1: `lanes`, `sessions`, `sessionsCounted`, `handoffs`, `carriers`, `harnesses`,
    `crossLane`, `byHand`, and `people` only when there is at least one person id."""
    index = index or map_index(doc)
    sessions = index.session_list
    handoffs = index.handoff_list
    counted: int | float = 0
    harnesses: dict[str, int | float] = {}
    for s in sessions:
        if not isinstance(s, dict):
            continue
        n = session_count(s)
        counted = _tidy(counted + n)
        h = s.get("harness")
        if isinstance(h, str):
            harnesses[h] = _tidy(harnesses.get(h, 0) + n)
    carriers: dict[str, int] = {}
    cross_lane = 0
    for h in handoffs:
        if not isinstance(h, dict):
            continue
        k = carrier_kind(h) or "none"
        carriers[k] = carriers.get(k, 0) + 1
        a, b = index.session(h.get("from")), index.session(h.get("to"))
        if a is not None and b is not None and a.get("lane") != b.get("lane"):
            cross_lane += 1
    shape: dict = {
        "lanes": len(index.lane_list),
        "sessions": len(sessions),
        "sessionsCounted": counted,
        "handoffs": len(handoffs),
        "carriers": carriers,
        "harnesses": harnesses,
        "crossLane": cross_lane,
        "byHand": by_hand(doc, index),
    }
    if index.people:
        shape["people"] = len(index.people)
    return shape


def _n(count: int | float, one: str, many: str) -> str:
    return f"{js_number(count)} {one if count == 1 else many}"


def shape_line(shape: dict) -> str:
    """map.md §8.2: `<L> · <S><F><P> · <H><W>`, e.g.
    `2 lanes · 3 sessions (6 counting families) · 1 person · 6 handoffs, 1 waiting on a person`."""
    line = _n(shape["lanes"], "lane", "lanes") + " · " + _n(shape["sessions"], "session", "sessions")
    if shape["sessionsCounted"] != shape["sessions"]:
        line += f" ({js_number(shape['sessionsCounted'])} counting families)"
    if "people" in shape:
        line += " · " + _n(shape["people"], "person", "people")
    line += " · " + _n(shape["handoffs"], "handoff", "handoffs")
    listed = shape["byHand"]
    if listed:
        waiting = any(e.get("starts") is True for e in listed)
        line += f", {len(listed)} " + ("waiting on a person" if waiting else "carried by a person")
    return line
