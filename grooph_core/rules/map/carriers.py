"""The carrier rules of maps: a handoff must name what carries it (`E_HANDOFF_NO_CARRIER`, map.md
§6.3), the carrier must be able to make the trip (`W_CARRIER_CANNOT_CROSS`, §6.4), and a
notification reaches people, not sessions (`W_NOTIFY_NOT_PERSON`, §6.5)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from grooph_core.issues import Facts, Issue, make
from grooph_core.semantics.map_index import (
    CARRIER_KINDS,
    CARRIER_LABELS,
    NAMING_FIELDS,
    End,
    MapIndex,
    carrier_of,
    crossing,
    end_facts,
    kinds_that_can_carry,
    notification_misses_person,
    starts_at_person,
)
from grooph_core.source.text import is_blank

KIND_LIST_WORDS = ", ".join(CARRIER_KINDS[:-1]) + " or " + CARRIER_KINDS[-1]

# map.md §6.4: why the carrier cannot cross, per kind.
WHY_IT_STAYS = {
    "session-message": "a session message stays inside one harness and one account",
    "scheduled-message": "a scheduled message stays inside one harness and one account",
    "review-page": "a published page belongs to the account that published it",
}
INSTEAD = "so something else carries this: a branch, a pull request, or a person"


def _ends(h: dict) -> str:
    return f'("{h.get("from")}" → "{h.get("to")}")'


def _unnamed_words(kind: str) -> str:
    """"a pull request that is not named", with the reader's label of map.md §2.7."""
    if kind == "other":
        return "an other carrier that is not named"
    if kind == "person":
        return "a person who is not named"
    return f"a {CARRIER_LABELS[kind]} that is not named"


def _sender_repo(index: MapIndex, h: dict) -> str | None:
    s = index.session(h.get("from"))
    repo = None if s is None else s.get("repo")
    return repo if isinstance(repo, str) and not is_blank(repo) else None


@dataclass(frozen=True)
class HandoffNoCarrier(Facts):
    """E_HANDOFF_NO_CARRIER: the `variant` ("missing": no carrier; "unnamed": its naming field is
    blank), the carrier's `kind` and naming `field` ("unnamed" only), the `handoff` and its ends
    (`from_`, `to` as written; `from_end`, `to_end` their facts), whether it `starts_at_person`, the
    sender's repository (`from_repo`), and the `kinds_that_can_carry` it between its ends."""

    code = "E_HANDOFF_NO_CARRIER"
    variant: Literal["missing", "unnamed"]
    kind: object
    field: str | None
    handoff: object
    from_: object
    to: object
    from_end: End
    to_end: End
    starts_at_person: bool
    from_repo: str | None
    kinds_that_can_carry: tuple[str, ...]


def handoff_no_carrier_issues(index: MapIndex) -> list[Issue]:
    """map.md §6.3: at most one issue per handoff, in document order.

    1. no `carrier` key; 2. a `person` carrier on a handoff that starts at a person is complete
    whatever `who` says; 3. a kind with a naming field whose field is blank (absent or whitespace).

    Pointers: a missing carrier -> the handoff's `id` value, then the handoff object; an unnamed one
    -> the blank field when present, else the carrier object. Facts: `HandoffNoCarrier` (what a repair
    needs).
    """
    out: list[Issue] = []
    for i, h in enumerate(index.handoff_list):
        if not isinstance(h, dict):
            continue
        hid = h.get("id")
        base = f"/handoffs/{i}"
        if "carrier" not in h:
            out.append(make(
                "E_HANDOFF_NO_CARRIER",
                f'handoff "{hid}" {_ends(h)} names no carrier; name what moves the work across: {KIND_LIST_WORDS}',
                [hid], [f"{base}/id", base], facts=_no_carrier_facts(index, h, "missing", None, None),
            ))
            continue
        carrier = carrier_of(h)
        if carrier is None:
            continue  # not an object: only possible in a map that failed the structural check
        kind = carrier.get("kind")
        field = NAMING_FIELDS.get(kind) if isinstance(kind, str) else None
        if field is None or not is_blank(carrier.get(field)):
            continue
        if kind == "person" and starts_at_person(index, h):
            continue
        pointer = f"{base}/carrier/{field}" if field in carrier else f"{base}/carrier"
        out.append(make(
            "E_HANDOFF_NO_CARRIER",
            f'handoff "{hid}" {_ends(h)} is carried by {_unnamed_words(kind)}; set carrier.{field}',
            [hid], [pointer], facts=_no_carrier_facts(index, h, "unnamed", kind, field),
        ))
    return out


def _no_carrier_facts(index: MapIndex, h: dict, variant: str, kind: object, field: str | None) -> HandoffNoCarrier:
    """The facts of a handoff's finding, built only for a handoff that has one (most have none)."""
    return HandoffNoCarrier(variant, kind, field, handoff=h.get("id"), from_=h.get("from"), to=h.get("to"),
                            from_end=end_facts(index, h.get("from")), to_end=end_facts(index, h.get("to")),
                            starts_at_person=starts_at_person(index, h), from_repo=_sender_repo(index, h),
                            kinds_that_can_carry=tuple(kinds_that_can_carry(index, h.get("from"), h.get("to"))))


@dataclass(frozen=True)
class CarrierCannotCross(Facts):
    """W_CARRIER_CANNOT_CROSS: the `handoff`, the carrier `kind`, what it `crosses` (accounts |
    harnesses) and the two `values`, which of the two differ, the ends' facts, and the
    `kinds_that_can_carry` it instead."""

    code = "W_CARRIER_CANNOT_CROSS"
    handoff: object
    kind: str
    crosses: str
    values: tuple[object, ...]
    accounts_differ: bool
    harnesses_differ: bool
    from_end: End
    to_end: End
    kinds_that_can_carry: tuple[str, ...]


def carrier_cannot_cross_issues(index: MapIndex) -> list[Issue]:
    """map.md §6.4: a session or scheduled message between sessions on different accounts or
    harnesses, or a review page between different accounts. Handoffs with a person or a dangling
    end are skipped. Pointer: the carrier's `kind`; related: the two accounts (or harnesses). Facts:
    `CarrierCannotCross`."""
    out: list[Issue] = []
    for i, h in enumerate(index.handoff_list):
        if not isinstance(h, dict):
            continue
        carrier = carrier_of(h)
        if carrier is None:
            continue
        kind = carrier.get("kind")
        frm, to = h.get("from"), h.get("to")
        c = crossing(index, kind if isinstance(kind, str) else None, frm, to)
        if c is None:
            continue
        hid = h.get("id")
        a, b = c.values
        message = (f'handoff "{hid}" {_ends(h)} crosses {c.crosses} "{a}" and "{b}" by {CARRIER_LABELS[kind]}; '
                   f"{WHY_IT_STAYS[kind]}, {INSTEAD}")
        if c.crosses == "accounts":
            related = [
                (f"/lanes/{index.lanes[index.session(frm)['lane']]}/account", f'account of "{frm}"'),
                (f"/lanes/{index.lanes[index.session(to)['lane']]}/account", f'account of "{to}"'),
            ]
        else:
            related = [
                (f"/sessions/{index.sessions[frm]}/harness", f'harness of "{frm}"'),
                (f"/sessions/{index.sessions[to]}/harness", f'harness of "{to}"'),
            ]
        out.append(make(
            "W_CARRIER_CANNOT_CROSS", message, [hid, frm, to], [f"/handoffs/{i}/carrier/kind"],
            related=related,
            facts=CarrierCannotCross(hid, kind, c.crosses, tuple(c.values), c.accounts_differ, c.harnesses_differ,
                                     end_facts(index, frm), end_facts(index, to),
                                     tuple(kinds_that_can_carry(index, frm, to))),
        ))
    return out


@dataclass(frozen=True)
class NotifyNotPerson(Facts):
    """W_NOTIFY_NOT_PERSON: the `handoff`, its ends `from_` and `to`, the map's `people` (ids), and the
    `kinds_that_can_carry` it."""

    code = "W_NOTIFY_NOT_PERSON"
    handoff: object
    from_: object
    to: object
    people: tuple[str, ...]
    kinds_that_can_carry: tuple[str, ...]


def notify_not_person_issues(index: MapIndex) -> list[Issue]:
    """map.md §6.5: a notification whose `to` is a session (whoever sends it). Pointer: the `to`. Facts:
    `NotifyNotPerson`."""
    out: list[Issue] = []
    for i, h in enumerate(index.handoff_list):
        if not isinstance(h, dict):
            continue
        carrier = carrier_of(h)
        kind = None if carrier is None else carrier.get("kind")
        to = h.get("to")
        if not notification_misses_person(index, kind, to):
            continue
        hid = h.get("id")
        message = (f'handoff "{hid}" sends a notification to session "{to}"; notifications reach people, '
                   f"and a session is reached by a message, a branch or a pull request: name the person it "
                   f"reaches, or the carrier that reaches the session")
        out.append(make(
            "W_NOTIFY_NOT_PERSON", message, [hid, to], [f"/handoffs/{i}/to"],
            related=[(f"/handoffs/{i}/carrier/kind", "the notification")],
            facts=NotifyNotPerson(hid, h.get("from"), to,
                                  tuple(p["id"] for p in index.person_list
                                        if isinstance(p, dict) and isinstance(p.get("id"), str)),
                                  tuple(kinds_that_can_carry(index, h.get("from"), to))),
        ))
    return out
