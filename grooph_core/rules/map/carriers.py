"""The carrier rules of maps: a handoff must name what carries it (`E_HANDOFF_NO_CARRIER`, map.md
§6.3), the carrier must be able to make the trip (`W_CARRIER_CANNOT_CROSS`, §6.4), and a
notification reaches people, not sessions (`W_NOTIFY_NOT_PERSON`, §6.5)."""

from __future__ import annotations

from grooph_core.issues import Issue, make
from grooph_core.rules.map.semantics import (
    CARRIER_KINDS,
    CARRIER_LABELS,
    NAMING_FIELDS,
    MapIndex,
    carrier_of,
    crossing,
    end_facts,
    kinds_that_can_carry,
    notification_misses_person,
    starts_at_person,
)
from grooph_core.text import is_blank

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


def handoff_no_carrier_issues(index: MapIndex) -> list[Issue]:
    """map.md §6.3: at most one issue per handoff, in document order.

    1. no `carrier` key; 2. a `person` carrier on a handoff that starts at a person is complete
    whatever `who` says; 3. a kind with a naming field whose field is blank (absent or whitespace).

    Pointers: a missing carrier -> the handoff's `id` value, then the handoff object; an unnamed one
    -> the blank field when present, else the carrier object. `data` holds what a repair needs: the
    variant, the kind and field, both ends' facts, the sender's repo, and the kinds that can carry.
    """
    out: list[Issue] = []
    for i, h in enumerate(index.handoff_list):
        if not isinstance(h, dict):
            continue
        hid = h.get("id")
        base = f"/handoffs/{i}"
        common = {
            "handoff": hid,
            "from": h.get("from"),
            "to": h.get("to"),
            "ends": {"from": end_facts(index, h.get("from")), "to": end_facts(index, h.get("to"))},
            "starts_at_person": starts_at_person(index, h),
            "from_repo": _sender_repo(index, h),
        }
        if "carrier" not in h:
            out.append(make(
                "E_HANDOFF_NO_CARRIER",
                f'handoff "{hid}" {_ends(h)} names no carrier; name what moves the work across: {KIND_LIST_WORDS}',
                [hid], [f"{base}/id", base],
                variant="missing", kind=None, field=None,
                kinds_that_can_carry=kinds_that_can_carry(index, h.get("from"), h.get("to")),
                **common,
            ))
            continue
        carrier = carrier_of(h)
        if carrier is None:
            continue  # not an object: only possible in a map that failed the structural check
        kind = carrier.get("kind")
        if kind == "person" and common["starts_at_person"]:
            continue
        field = NAMING_FIELDS.get(kind) if isinstance(kind, str) else None
        if field is None or not is_blank(carrier.get(field)):
            continue
        pointer = f"{base}/carrier/{field}" if field in carrier else f"{base}/carrier"
        out.append(make(
            "E_HANDOFF_NO_CARRIER",
            f'handoff "{hid}" {_ends(h)} is carried by {_unnamed_words(kind)}; set carrier.{field}',
            [hid], [pointer],
            variant="unnamed", kind=kind, field=field,
            kinds_that_can_carry=kinds_that_can_carry(index, h.get("from"), h.get("to")),
            **common,
        ))
    return out


def carrier_cannot_cross_issues(index: MapIndex) -> list[Issue]:
    """map.md §6.4: a session or scheduled message between sessions on different accounts or
    harnesses, or a review page between different accounts. Handoffs with a person or a dangling
    end are skipped. Pointer: the carrier's `kind`; related: the two accounts (or harnesses)."""
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
            handoff=hid, kind=kind, crosses=c.crosses, values=list(c.values),
            accounts_differ=c.accounts_differ, harnesses_differ=c.harnesses_differ,
            ends={"from": end_facts(index, frm), "to": end_facts(index, to)},
            kinds_that_can_carry=kinds_that_can_carry(index, frm, to),
        ))
    return out


def notify_not_person_issues(index: MapIndex) -> list[Issue]:
    """map.md §6.5: a notification whose `to` is a session (whoever sends it). Pointer: the `to`."""
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
            handoff=hid, to=to, **{"from": h.get("from")},
            people=[p["id"] for p in index.person_list if isinstance(p, dict) and isinstance(p.get("id"), str)],
            kinds_that_can_carry=kinds_that_can_carry(index, h.get("from"), to),
        ))
    return out
