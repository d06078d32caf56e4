"""Whether work reaches a session and leaves it: `W_SESSION_ISLAND` (map.md §6.6) and `W_NO_RETURN`
(map.md §6.7)."""

from __future__ import annotations

from dataclasses import dataclass

from grooph_core.issues import Facts, Issue, make
from grooph_core.semantics.map_index import MapIndex, is_self_handoff


@dataclass(frozen=True)
class SessionIsland(Facts):
    """W_SESSION_ISLAND: the `kind` of the island (session | person) and its `id`."""

    code = "W_SESSION_ISLAND"
    kind: str
    id: object


@dataclass(frozen=True)
class NoReturn(Facts):
    """W_NO_RETURN: the `session`, and the `senders` (the `from` ids of its inbound handoffs in order;
    the first is the repair's default `to`)."""

    code = "W_NO_RETURN"
    session: object
    senders: tuple[object, ...]


def session_island_issues(index: MapIndex) -> list[Issue]:
    """map.md §6.6: sessions first, then people, each in document order.

    A session is an island when no handoff at all names it (self handoffs and handoffs with a
    dangling other end count). A person is an island when no handoff other than a self handoff names
    them. Pointer: the object's `id`. Facts: `SessionIsland`.
    """
    any_end: set = set()
    other_end: set = set()
    for h in index.handoff_list:
        if not isinstance(h, dict):
            continue
        frm, to = h.get("from"), h.get("to")
        any_end.add(frm)
        any_end.add(to)
        if not is_self_handoff(h):
            other_end.add(frm)
            other_end.add(to)
    out: list[Issue] = []
    for i, s in enumerate(index.session_list):
        if isinstance(s, dict) and s.get("id") not in any_end:
            sid = s.get("id")
            out.append(make(
                "W_SESSION_ISLAND",
                f'session "{sid}" has no handoff in or out: nothing reaches it and it reaches nothing',
                [sid], [f"/sessions/{i}/id"], facts=SessionIsland("session", sid),
            ))
    for i, p in enumerate(index.person_list):
        if isinstance(p, dict) and p.get("id") not in other_end:
            pid = p.get("id")
            message = f'person "{pid}" has no handoff in or out: nothing reaches them and they reach nothing'
            if pid in any_end:
                message += " (a handoff to themselves reaches no one)"
            out.append(make("W_SESSION_ISLAND", message, [pid], [f"/people/{i}/id"], facts=SessionIsland("person", pid)))
    return out


def no_return_issues(index: MapIndex) -> list[Issue]:
    """map.md §6.7: a session that is the `to` of some handoff and the `from` of none (self handoffs
    count on both sides; people are never checked). Pointer: the session's `id`. Facts: `NoReturn`."""
    senders: dict = {}
    froms: set = set()
    for h in index.handoff_list:
        if not isinstance(h, dict):
            continue
        froms.add(h.get("from"))
        senders.setdefault(h.get("to"), []).append(h.get("from"))
    out: list[Issue] = []
    for i, s in enumerate(index.session_list):
        if not isinstance(s, dict):
            continue
        sid = s.get("id")
        if sid in senders and sid not in froms:
            out.append(make(
                "W_NO_RETURN",
                f'session "{sid}" is handed work and hands nothing on: add the handoff its results leave by, '
                f"and name its carrier",
                [sid], [f"/sessions/{i}/id"], facts=NoReturn(sid, tuple(senders[sid])),
            ))
    return out
