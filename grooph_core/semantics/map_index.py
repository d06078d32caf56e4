"""What a map means, as the rules, the shape, the by-hand list and the pictures read it (map.md §3).

Everything works on the plain parsed JSON value of a map that passed the structural check (map.md §5).
Build a `MapIndex` once per document and hand it to every helper that looks objects up by id.

Lookups by id (map.md §0, §11.5): the rules and the shape resolve "the lane / session / person with
id X" to the LAST object carrying X; display helpers (end names, the starter's name in carrier text)
use the FIRST. Both tables are kept here so the two choices live in one place.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Literal, Mapping

from grooph_core.source.text import is_blank, is_integer

# map.md §2.7: the eight carrier kinds, in the spec's order (also the order messages list them in).
CARRIER_KINDS: tuple[str, ...] = (
    "branch", "pull-request", "session-message", "scheduled-message",
    "review-page", "person", "notification", "other",
)

# map.md §2.7 "Reader's label": the words used for a kind inside messages and in "(not named)".
CARRIER_LABELS: dict[str, str] = {
    "branch": "branch",
    "pull-request": "pull request",
    "session-message": "session message",
    "scheduled-message": "scheduled message",
    "review-page": "review page",
    "person": "person",
    "notification": "notification",
    "other": "other",
}

# map.md §2.7 "Naming field": the field that must not be blank (kinds absent here need none).
NAMING_FIELDS: dict[str, str] = {
    "branch": "repo",
    "pull-request": "repo",
    "review-page": "where",
    "person": "who",
    "other": "name",
}

# map.md §2.7 / §9: each kind's declared fields, canonical order.
CARRIER_FIELDS: dict[str, tuple[str, ...]] = {
    "branch": ("kind", "repo", "ref"),
    "pull-request": ("kind", "repo"),
    "session-message": ("kind",),
    "scheduled-message": ("kind", "schedule"),
    "review-page": ("kind", "where"),
    "person": ("kind", "who"),
    "notification": ("kind", "where"),
    "other": ("kind", "name"),
}

# map.md §6.4: kinds that stay inside one harness and one account, and kinds bound to one account.
STAYS_IN_HARNESS_AND_ACCOUNT: frozenset[str] = frozenset({"session-message", "scheduled-message"})
STAYS_IN_ACCOUNT: frozenset[str] = frozenset({"review-page"})

NO_CARRIER_TEXT = "no carrier named"


@dataclass(frozen=True, eq=False)
class MapIndex:
    """Id tables of one map, built once (map.md §0): id -> array index, last and first holder."""

    doc: dict
    lanes: dict[str, int]  # last lane with the id (rules, shape)
    sessions: dict[str, int]  # last session with the id (rules, shape)
    people: dict[str, int]  # last person with the id (rules, shape, by-hand "who")
    first_sessions: dict[str, int]  # first session with the id (display)
    first_people: dict[str, int]  # first person with the id (display)

    # -- the lists, never None ------------------------------------------------------------------
    @property
    def lane_list(self) -> list:
        return _items(self.doc, "lanes")

    @property
    def session_list(self) -> list:
        return _items(self.doc, "sessions")

    @property
    def person_list(self) -> list:
        return _items(self.doc, "people")

    @property
    def handoff_list(self) -> list:
        return _items(self.doc, "handoffs")

    # -- rule lookups (last holder) ---------------------------------------------------------------
    def lane(self, lane_id: object) -> dict | None:
        i = self.lanes.get(lane_id) if isinstance(lane_id, str) else None
        return None if i is None else self.lane_list[i]

    def session(self, session_id: object) -> dict | None:
        i = self.sessions.get(session_id) if isinstance(session_id, str) else None
        return None if i is None else self.session_list[i]

    def person(self, person_id: object) -> dict | None:
        i = self.people.get(person_id) if isinstance(person_id, str) else None
        return None if i is None else self.person_list[i]

    def is_session(self, end_id: object) -> bool:
        return isinstance(end_id, str) and end_id in self.sessions

    def is_person(self, end_id: object) -> bool:
        return isinstance(end_id, str) and end_id in self.people

    def is_end(self, end_id: object) -> bool:
        """map.md §3.2: an end is a session or a person (not a lane, handoff or the map)."""
        return self.is_session(end_id) or self.is_person(end_id)

    def lane_of(self, session: dict | None) -> dict | None:
        """The lane a session is in, or None when its `lane` names no lane."""
        return None if session is None else self.lane(session.get("lane"))

    # -- display lookups (first holder) -----------------------------------------------------------
    def first_session(self, session_id: object) -> dict | None:
        i = self.first_sessions.get(session_id) if isinstance(session_id, str) else None
        return None if i is None else self.session_list[i]

    def first_person(self, person_id: object) -> dict | None:
        i = self.first_people.get(person_id) if isinstance(person_id, str) else None
        return None if i is None else self.person_list[i]

    @property
    def has_people(self) -> bool:
        """`people` present and non-empty (map.md §6.2 wording choice)."""
        return bool(self.person_list)


def _items(doc: dict, key: str) -> list:
    v = doc.get(key) if isinstance(doc, dict) else None
    return v if isinstance(v, list) else []


def _id_tables(items: list) -> tuple[dict[str, int], dict[str, int]]:
    last: dict[str, int] = {}
    first: dict[str, int] = {}
    for i, item in enumerate(items):
        if isinstance(item, dict):
            k = item.get("id")
            if isinstance(k, str):
                last[k] = i
                first.setdefault(k, i)
    return last, first


# The id tables of `MapIndex`, per list (issue 33): (list, its last-holder field, its first-holder field or
# None). Each reads only its items' `id` (tests/core/rules/test_rule_reads.py proves it), so an edit that
# changes no id of a list keeps that list's tables (`updated_map_index`; `map_index` builds them directly).
MAP_INDEX_PARTS: tuple[tuple[str, str, str | None], ...] = (
    ("lanes", "lanes", None), ("sessions", "sessions", "first_sessions"), ("people", "people", "first_people"),
)
MAP_INDEX_READS: dict[str, frozenset[str]] = {name: frozenset({"id"}) for name, _, _ in MAP_INDEX_PARTS}


def _tables(doc: dict, old: MapIndex | None = None, touched: Callable[[Mapping[str, frozenset[str]]], bool] | None = None) -> dict:
    fields: dict = {}
    for name, last, first in MAP_INDEX_PARTS:
        if old is not None and touched is not None and not touched({name: MAP_INDEX_READS[name]}):
            fields[last] = getattr(old, last)
            if first is not None:
                fields[first] = getattr(old, first)
            continue
        tables = _id_tables(_items(doc, name))
        fields[last] = tables[0]
        if first is not None:
            fields[first] = tables[1]
    return fields


def map_index(doc: dict) -> MapIndex:
    """Build the id tables of a map (map.md §0: insert in document order, so the last holder wins)."""
    lanes, _ = _id_tables(_items(doc, "lanes"))
    sessions, first_sessions = _id_tables(_items(doc, "sessions"))
    people, first_people = _id_tables(_items(doc, "people"))
    return MapIndex(doc, lanes, sessions, people, first_sessions, first_people)


def updated_map_index(old: MapIndex, doc: dict, touched: Callable[[Mapping[str, frozenset[str]]], bool]) -> MapIndex:
    """The index of `doc`, a later version of `old.doc` with the same list lengths (issue 33): the tables of
    a list whose ids the edit `touched` are built again, the others taken from `old`."""
    return MapIndex(doc, **_tables(doc, old, touched))


# --- sessions and families (map.md §3.2) ---------------------------------------------------------


def session_count(session: dict) -> int | float:
    """How many sessions a node stands for: `count`, absent = 1 (an integral double as an int)."""
    c = session.get("count", 1)
    if is_integer(c):
        return int(c) if abs(c) < 2**53 else c
    return 1


def is_family(session: dict) -> bool:
    """map.md §3.2: a session with `count` > 1 stands for that many like sessions."""
    return session_count(session) > 1


# --- handoffs and their ends (map.md §3.2) -------------------------------------------------------


def carrier_of(handoff: dict) -> dict | None:
    """The handoff's carrier object, or None when it names none."""
    c = handoff.get("carrier")
    return c if isinstance(c, dict) else None


def carrier_kind(handoff: dict) -> str | None:
    """The carrier's kind, or None when the handoff has no carrier."""
    c = carrier_of(handoff)
    k = None if c is None else c.get("kind")
    return k if isinstance(k, str) else None


def is_self_handoff(handoff: dict) -> bool:
    """map.md §3.2: `from` equal to `to`."""
    return handoff.get("from") == handoff.get("to")


def starts_at_person(index: MapIndex, handoff: dict) -> bool:
    """map.md §3.2: the handoff's `from` is a person's id; that person is the one it waits on."""
    return index.is_person(handoff.get("from"))


def wakes_itself(index: MapIndex) -> dict[str, str]:
    """map.md §3.3: session id -> schedule, for each session with a self handoff by scheduled message.

    The first such handoff in document order decides the schedule (as written; "" when absent).
    """
    out: dict[str, str] = {}
    for h in index.handoff_list:
        if not isinstance(h, dict):
            continue
        sid = h.get("from")
        if sid in out or not is_self_handoff(h) or not index.is_session(sid):
            continue
        if carrier_kind(h) == "scheduled-message":
            schedule = carrier_of(h).get("schedule")  # type: ignore[union-attr]
            out[sid] = schedule if isinstance(schedule, str) else ""
    return out


# --- accounts, harnesses and what a carrier can cross (map.md §3.1, §6.4) -------------------------


def accounts_differ(index: MapIndex, a: dict, b: dict) -> bool:
    """map.md §3.1: both lanes exist and their `account` strings differ (exact comparison).

    When either lane does not exist the accounts are not comparable, which counts as no difference.
    """
    la, lb = index.lane_of(a), index.lane_of(b)
    if la is None or lb is None:
        return False
    return la.get("account") != lb.get("account")


def harnesses_differ(a: dict, b: dict) -> bool:
    """map.md §3.1: the two `harness` strings differ (exact comparison)."""
    return a.get("harness") != b.get("harness")


@dataclass(frozen=True)
class Crossing:
    """What a carrier would have to cross between two sessions (map.md §6.4).

    `crosses` is "accounts" when the accounts differ, otherwise "harnesses"; `values` are the two
    accounts or harnesses, from-side first.
    """

    kind: str
    crosses: str
    values: tuple[str, str]
    accounts_differ: bool
    harnesses_differ: bool


def crossing(index: MapIndex, kind: str | None, from_id: object, to_id: object) -> Crossing | None:
    """map.md §6.4: the crossing that makes a carrier of `kind` unable to go from one end to the other.

    None when the kind can make the trip, when either end is not a session (a person or a dangling
    end), or when nothing differs. A self handoff never crosses (same lane, same harness).
    """
    if kind not in STAYS_IN_HARNESS_AND_ACCOUNT and kind not in STAYS_IN_ACCOUNT:
        return None
    a, b = index.session(from_id), index.session(to_id)
    if a is None or b is None:
        return None
    return _crossing(index, kind, a, b)


def _crossing(index: MapIndex, kind: str, a: dict, b: dict) -> Crossing | None:
    acc = accounts_differ(index, a, b)
    har = harnesses_differ(a, b)
    fires = (acc or har) if kind in STAYS_IN_HARNESS_AND_ACCOUNT else acc
    if not fires:
        return None
    if acc:
        values = (str(index.lane_of(a).get("account")), str(index.lane_of(b).get("account")))  # type: ignore[union-attr]
        return Crossing(kind, "accounts", values, acc, har)
    return Crossing(kind, "harnesses", (str(a.get("harness")), str(b.get("harness"))), acc, har)


def notification_misses_person(index: MapIndex, kind: str | None, to_id: object) -> bool:
    """map.md §6.5: a notification whose receiving end is a session (it reaches people, not sessions)."""
    return kind == "notification" and index.is_session(to_id)


def kinds_that_can_carry(index: MapIndex, from_id: object, to_id: object) -> list[str]:
    """The carrier kinds that would raise neither W_CARRIER_CANNOT_CROSS nor W_NOTIFY_NOT_PERSON
    between these two ends, in the order of map.md §2.7 (used by repairs and messages)."""
    a, b = index.session(from_id), index.session(to_id)
    acc = a is not None and b is not None and accounts_differ(index, a, b)
    har = a is not None and b is not None and harnesses_differ(a, b)
    out = []
    for k in CARRIER_KINDS:
        if k in STAYS_IN_HARNESS_AND_ACCOUNT and (acc or har):
            continue
        if k in STAYS_IN_ACCOUNT and acc:
            continue
        if notification_misses_person(index, k, to_id):
            continue
        out.append(k)
    return out


@dataclass(frozen=True)
class End:
    """What a repair may want to know about one end of a handoff: what it `is_` (session, person, or
    unknown), for a session where it runs (`lane`, whether that lane exists, its `account`, the
    session's `harness` and `repo`), for a person their `name`."""

    id: object
    is_: Literal["session", "person", "unknown"]
    lane: object = None
    lane_exists: bool = False
    account: object = None
    harness: object = None
    repo: object = None
    name: object = None


def end_facts(index: MapIndex, end_id: object) -> End:
    """The facts of one end (`End`)."""
    s = index.session(end_id)
    if s is not None:
        lane = index.lane_of(s)
        return End(end_id, "session", lane=s.get("lane"), lane_exists=lane is not None,
                   account=None if lane is None else lane.get("account"), harness=s.get("harness"),
                   repo=s.get("repo"))
    p = index.person(end_id)
    if p is not None:
        return End(end_id, "person", name=p.get("name"))
    return End(end_id, "unknown")


# --- words for carriers and ends (map.md §3.4) ----------------------------------------------------


def _s(carrier: dict, key: str) -> str:
    v = carrier.get(key)
    return v if isinstance(v, str) else ""


def carrier_text(carrier: dict | None, starter_name: str | None = None) -> str:
    """map.md §3.4 "Carrier text". `starter_name` is the display name of the person the handoff
    starts at (see `starter_display_name`), None when it does not start at a person.

    Values are inserted as written; blankness only picks the branch.
    """
    if carrier is None:
        return ""
    kind = carrier.get("kind")
    if kind == "branch":
        repo = _s(carrier, "repo")
        if is_blank(repo):
            return ""
        ref = _s(carrier, "ref")
        return "branch " + ("" if is_blank(ref) else ref + " ") + "on " + repo
    if kind == "pull-request":
        repo = _s(carrier, "repo")
        return "" if is_blank(repo) else "pull request on " + repo
    if kind == "session-message":
        return "session message"
    if kind == "scheduled-message":
        schedule = _s(carrier, "schedule")
        return "scheduled message" if is_blank(schedule) else "scheduled message, " + schedule
    if kind == "review-page":
        where = _s(carrier, "where")
        return "" if is_blank(where) else "review page: " + where
    if kind == "person":
        who = _s(carrier, "who")
        if not is_blank(who):
            return "carried by " + who
        return "" if starter_name is None else "carried by " + starter_name
    if kind == "notification":
        where = _s(carrier, "where")
        return "notification" if is_blank(where) else "notification, " + where
    if kind == "other":
        name = _s(carrier, "name")
        return "" if is_blank(name) else name
    return ""


def carried_by_text(carrier: dict | None, starter_name: str | None = None) -> str:
    """map.md §3.4 "Carried-by text": the line shown in lists and in the sequence view."""
    if carrier is None:
        return NO_CARRIER_TEXT
    text = carrier_text(carrier, starter_name)
    if text:
        return text
    return CARRIER_LABELS.get(str(carrier.get("kind")), str(carrier.get("kind"))) + " (not named)"


def _name_or_id(obj: dict | None, fallback: str) -> str | None:
    if obj is None:
        return None
    name = obj.get("name")
    return name if isinstance(name, str) and name != "" else fallback


def end_name(index: MapIndex, end_id: str) -> str:
    """map.md §3.4 "End name": the first session's non-empty name, else the first person's, else the id."""
    s = index.first_session(end_id)
    if s is not None and isinstance(s.get("name"), str) and s["name"] != "":
        return s["name"]
    p = index.first_person(end_id)
    if p is not None and isinstance(p.get("name"), str) and p["name"] != "":
        return p["name"]
    return end_id


def starter_display_name(index: MapIndex, handoff: dict) -> str | None:
    """The name of the person a handoff starts at for carrier text (first holder; id when the
    name is empty), or None when it does not start at a person (map.md §3.4)."""
    frm = handoff.get("from")
    if not isinstance(frm, str):
        return None
    return _name_or_id(index.first_person(frm), frm)


def handoff_carrier_text(index: MapIndex, handoff: dict) -> str:
    """Carrier text of a handoff, with the starter's name filled in (map.md §3.4)."""
    return carrier_text(carrier_of(handoff), starter_display_name(index, handoff))


def handoff_carried_by(index: MapIndex, handoff: dict) -> str:
    """Carried-by text of a handoff, with the starter's name filled in (map.md §3.4)."""
    return carried_by_text(carrier_of(handoff), starter_display_name(index, handoff))
