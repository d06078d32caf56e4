"""The repairs of the map codes (operations.md §8.5, map.md §6), as map edits (`map_edits.py`).

E_SCHEMA, E_DUPLICATE_ID and W_UNKNOWN_KEY are shared with graphs (`edit_repairs.py`). The carriers
offered for a handoff are built from facts the map already states (which ends are sessions or
people, their lanes, accounts, harnesses and repositories): a carrier that cannot cross between the
two ends is never offered, and a value the map does not know (a repository nobody names, who carries
a prompt) is inserted empty for the person to type (`fill`), never invented.
"""

from __future__ import annotations

from typing import Callable

from grooph_core.issues import Facts, Issue
from grooph_core.ops.graph_repairs import OTHER_TARGETS, position
from grooph_core.ops.map_edits import remove_session_graph, set_carrier_field, set_handoff_carrier, set_reference
from grooph_core.ops.memo import RepairMemo
from grooph_core.ops.repair_types import Candidate
from grooph_core.rules.map.carriers import HandoffNoCarrier
from grooph_core.rules.map.graph_pointers import GraphUnresolved
from grooph_core.rules.map.references import MapDanglingRef
from grooph_core.semantics.map_index import CARRIER_LABELS, End
from grooph_core.source.text import is_blank

# Each builder gets the issue, its facts, the map and the map's `RepairMemo` (its ids and near names,
# kept per document value).
MapBuilder = Callable[[Issue, Facts | None, dict, RepairMemo], list[Candidate]]


def dangling_ref(issue: Issue, f: MapDanglingRef, doc: dict, memo: RepairMemo) -> list[Candidate]:
    """Point the reference at the close match (preferred) or another existing lane / end (offered,
    nearest names first)."""
    ref, field, holder = f.ref, f.field, f.holder_id
    if not isinstance(ref, str) or not issue.pointers:
        return []
    lists = ("lanes",) if field == "lane" else ("sessions", "people")
    suggestion = f.suggestion
    out = []
    for t in memo.nearest(ref, lists, suggestion, OTHER_TARGETS):
        if field == "lane":
            title = f"Put session {holder} in lane {t}"
        elif field == "to":
            title = f"Point handoff {holder} at {t}"
        else:
            title = f"Start handoff {holder} at {t}"
        out.append(Candidate(f'{title} (instead of "{ref}")', [set_reference(issue.pointers[0], t)],
                             "preferred" if t == suggestion else "offered"))
    return out


def _repo(end: End) -> str | None:
    repo = end.repo if end.is_ == "session" else None
    return repo if isinstance(repo, str) and not is_blank(repo) else None


def _person_name(end: End) -> str | None:
    if end.is_ != "person":
        return None
    name = end.name
    return name if isinstance(name, str) and not is_blank(name) else end.id


def handoff_no_carrier(issue: Issue, f: HandoffNoCarrier, doc: dict, memo: RepairMemo) -> list[Candidate]:
    hid = f.handoff
    hi = position(issue, "handoffs")
    if hi is None:
        return []
    frm, to = f.from_end, f.to_end
    can = f.kinds_that_can_carry
    repos = list(dict.fromkeys(r for r in (_repo(frm), _repo(to)) if r))
    person_end = _person_name(to) or _person_name(frm)
    out: list[Candidate] = []

    if f.variant == "unnamed":
        kind, field = f.kind, f.field
        label = CARRIER_LABELS.get(kind, str(kind))
        if kind in ("branch", "pull-request"):
            for r in ([f.from_repo] if f.from_repo else []) + [r for r in repos if r != f.from_repo]:
                out.append(Candidate(f"Name the repository of {hid}'s {label}: {r}",
                                     [set_carrier_field(hi, "repo", r)], "offered"))
        if kind == "person" and _person_name(to):
            out.append(Candidate(f"Name {_person_name(to)} as the person who carries {hid}",
                                 [set_carrier_field(hi, "who", _person_name(to))], "offered"))
        carrier = doc["handoffs"][hi].get("carrier")
        if not out and isinstance(carrier, dict) and field and field not in carrier:
            out.append(Candidate(f"Add {hid}'s carrier.{field} to fill in", [set_carrier_field(hi, field, "")],
                                 "offered", fill=f"/handoffs/{hi}/carrier/{field}", keeps_code=True))
        return out

    if f.starts_at_person:
        who = _person_name(frm) or f.from_
        return [Candidate(f"Carry {hid} by a person: {who}, who starts it",
                          [set_handoff_carrier(hi, {"kind": "person"})], "preferred")]
    both_sessions = frm.is_ == "session" and to.is_ == "session"
    same_lane_facts = both_sessions and frm.lane_exists and to.lane_exists
    fill_base = f"/handoffs/{hi}/carrier"
    for kind in can:
        label = CARRIER_LABELS[kind]
        if kind in ("branch", "pull-request"):
            if repos:
                for r in repos:
                    out.append(Candidate(f"Carry {hid} by {label} on {r}",
                                         [set_handoff_carrier(hi, {"kind": kind, "repo": r})], "offered"))
            else:
                out.append(Candidate(f"Carry {hid} by {label} (the repository to fill in)",
                                     [set_handoff_carrier(hi, {"kind": kind, "repo": ""})], "offered",
                                     fill=f"{fill_base}/repo", keeps_code=True))
        elif kind == "session-message" and same_lane_facts and f.from_ != f.to:
            out.append(Candidate(f"Carry {hid} by session message (both sessions share one harness and account)",
                                 [set_handoff_carrier(hi, {"kind": kind})], "offered"))
        elif kind == "scheduled-message" and both_sessions and f.from_ == f.to:
            out.append(Candidate(f"Carry {hid} by scheduled message (the session wakes itself)",
                                 [set_handoff_carrier(hi, {"kind": kind})], "offered"))
        elif kind == "person":
            if person_end:
                out.append(Candidate(f"Carry {hid} by a person: {person_end}",
                                     [set_handoff_carrier(hi, {"kind": "person", "who": person_end})], "offered"))
            else:
                out.append(Candidate(f"Carry {hid} by a person (who carries it to fill in)",
                                     [set_handoff_carrier(hi, {"kind": "person", "who": ""})], "offered",
                                     fill=f"{fill_base}/who", keeps_code=True))
        elif kind == "notification" and to.is_ == "person":
            out.append(Candidate(f"Carry {hid} by notification to {_person_name(to)}",
                                 [set_handoff_carrier(hi, {"kind": kind})], "offered"))
    # complete carriers first, then those with a value to fill in
    return [c for c in out if c.fill is None] + [c for c in out if c.fill is not None]


def graph_unresolved(issue: Issue, f: GraphUnresolved, doc: dict, memo: RepairMemo) -> list[Candidate]:
    si = position(issue, "sessions")
    if si is None:
        return []
    return [Candidate(f"Remove the graph pointer of session {f.session}", [remove_session_graph(si)],
                      "offered")]


BUILDERS: dict[str, MapBuilder] = {
    "E_DANGLING_REF": dangling_ref,
    "E_HANDOFF_NO_CARRIER": handoff_no_carrier,
    "W_GRAPH_UNRESOLVED": graph_unresolved,
}


def map_candidates(issue: Issue, doc: dict, memo: RepairMemo | None = None) -> list[Candidate]:
    """The candidate repairs of a map issue; `memo`, when given, is the `RepairMemo` of this `doc`."""
    builder = BUILDERS.get(issue.code)
    if builder is None:
        return []
    return builder(issue, issue.facts, doc, memo if memo is not None and memo.doc is doc else RepairMemo(doc))

