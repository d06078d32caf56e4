"""The repairs of the graph codes (operations.md §8.4), one builder per code.

Each builder reads the issue (its pointers and its code's typed facts, never its English message,
§8.3) and the document at hand, and returns candidate op lists, best first. `BUILDERS` keys each
builder by its code; the builder's `f` parameter is annotated with that code's `Facts` class (the
one the code's rule makes), which `tests/core/rules/test_code_wiring.py` checks. The checks of §8.2 (applies, passes the
schema, issue gone, no new error, no brake loosened) run afterwards in `repairs.py`; the builders are
written to pass them. Codes with no automatic repair (§8.6) have no builder. Document-edit repairs
shared with maps (E_SCHEMA, E_DUPLICATE_ID, W_UNKNOWN_KEY) are in `edit_repairs.py`.
"""

from __future__ import annotations

from collections import deque
from typing import Callable

from grooph_core.issues import Facts, Issue
from grooph_core.ops.doc_edits import remove, set_value
from grooph_core.ops.ids import id_set, ids_of, items, unique
from grooph_core.ops.memo import LazyIndex, RepairMemo, memo_of
from grooph_core.ops.repair_types import Candidate
from grooph_core.rules.graph.agents import OutputNotWritable, PersonFieldsNotRead
from grooph_core.rules.graph.critics import CriticNotIsolated, HomogeneousCritics
from grooph_core.rules.graph.cycles import CycleNoStop
from grooph_core.rules.graph.export import NoTarget
from grooph_core.rules.graph.gates import IrreversibleNoGate
from grooph_core.rules.graph.groups import GroupCycle, GroupOverlap
from grooph_core.rules.graph.leads import PersonLead, SecondLead
from grooph_core.rules.graph.loops import LongLoopNoBudget, LoopBackEdge, OnlyMaxIterations, StopNotInspectable, closes_inside
from grooph_core.rules.graph.ownership import FanoutOnCoupled, OwnershipConflict
from grooph_core.rules.graph.reach import NoTerminal, UnreachableNode
from grooph_core.rules.graph.references import DanglingRef
from grooph_core.semantics.graph_index import (
    KNOWN_HARNESSES,
    SHORT_CAP,
    GraphIndex,
    has_inspectable_bar,
    is_critic_family,
    loop_mode,
    str_id,
    strongly_connected_components,
)
from grooph_core.source.text import did_you_mean, js_number, pointer_split

# E_DANGLING_REF: besides the did-you-mean match, how many other existing objects (nearest names
# first) are offered as targets. The issue asks for "each existing object of the right kind"; a
# document with fifty nodes would bury the useful ones, so we offer the nearest few (our choice).
OTHER_TARGETS = 4
# §8.4 E_CYCLE_NO_STOP: the round cap and budget a new loop gets (§9 item 1: 12 dispatches).
NEW_LOOP_CAP = 4
DEFAULT_BUDGET = {"measure": "dispatches", "limit": 12}

Builder = Callable[[Issue, Facts | None, dict, GraphIndex], list[Candidate]]


# --- small helpers ---------------------------------------------------------------------------------


def position(issue: Issue, list_key: str) -> int | None:
    """The index in `list_key` that the issue's first pointer goes through (`/edges/3/to` -> 3)."""
    for ptr in issue.pointers:
        seg = pointer_split(ptr)
        if len(seg) >= 2 and seg[0] == list_key and seg[1].isdigit():
            return int(seg[1])
    return None


def sole(doc: dict, list_key: str, obj_id: object) -> bool:
    """True when exactly one object of the list carries the id: ops act on every holder of an id
    (operations.md §1.5), so ops-based repairs are only built for ids that are not duplicated."""
    return isinstance(obj_id, str) and ids_of(doc, list_key).count(obj_id) == 1


def and_list(ids: list[str]) -> str:
    return ids[0] if len(ids) == 1 else ", ".join(ids[:-1]) + " and " + ids[-1]


def is_critic_or_check(node: dict | None) -> bool:
    """§8.4 W_NO_TERMINAL: the edge after a check or a critic-family agent leaves on "pass"."""
    return node is not None and (node.get("kind") == "check" or is_critic_family(node))


# --- E_DANGLING_REF ------------------------------------------------------------------------------------


# E_DANGLING_REF: the lists whose ids a reference of each kind may name.
POOLS = {"node": ("nodes",), "edge": ("edges",), "loop": ("loops",), "node or group": ("nodes", "groups")}


def dangling_ref(issue: Issue, f: DanglingRef, doc: dict, index: GraphIndex) -> list[Candidate]:
    """Re-point the reference at an existing object of the right kind (the close match preferred, the
    nearest others offered); for list entries, answer keys and stop exits also offer dropping it."""
    field, holder, hi, entry = f.field, f.holder, f.holder_index, f.index
    ref, missing, must = f.ref, f.id, f.must_name
    memo = memo_of(index, doc)  # the ids and the names near `missing`, asked once per document value
    lists = POOLS.get(must, ())
    suggestion = memo.did_you_mean(missing, lists) if lists else None
    targets = memo.nearest(missing, lists, suggestion, OTHER_TARGETS) if lists else []
    out: list[Candidate] = []

    def add(title: str, ops: list[dict], target: str | None) -> None:
        kind = "preferred" if target is not None and target == suggestion else "offered"
        out.append(Candidate(title, ops, kind))

    kind_holder = f.holder_kind
    if kind_holder == "edge":
        if not memo.sole("edges", holder):
            return []
        for t in targets:
            title = (f"Point edge {holder} at node {t}" if field == "to" else f"Start edge {holder} at node {t}")
            add(title + (f' (instead of "{missing}")'), [{"op": "updateEdge", "id": holder, "set": {field: t}}], t)
        return out
    if kind_holder == "loop":
        if not memo.sole("loops", holder):
            return []
        loop = items(doc, "loops")[hi]
        if field in ("members", "back"):
            noun = "member" if field == "members" else "back edge"
            current = list(items(loop, field))
            for t in targets:
                new = current[:entry] + [t] + current[entry + 1:]
                add(f'Make loop {holder} list {"node" if field == "members" else "edge"} {t} instead of "{missing}"',
                    [{"op": "updateLoop", "id": holder, "set": {field: new}}], t)
            if suggestion is None:
                add(f'Remove the unknown {noun} "{missing}" from loop {holder}',
                    [{"op": "updateLoop", "id": holder, "set": {field: current[:entry] + current[entry + 1:]}}], None)
            return out
        if field == "answerKeyFrom":
            bar = loop.get("bar") if isinstance(loop.get("bar"), dict) else {}
            for t in targets:
                add(f"Take loop {holder}'s answer key from node {t} instead of \"{missing}\"",
                    [{"op": "setBar", "loop": holder, "bar": {**bar, "answerKeyFrom": t}}], t)
            if suggestion is None:
                rest = {k: v for k, v in bar.items() if k != "answerKeyFrom"}
                add(f'Drop the unknown answer-key source "{missing}" from loop {holder}\'s bar',
                    [{"op": "setBar", "loop": holder, "bar": rest}], None)
            return out
        if field == "then":
            stop = items(loop, "stops")[entry]
            for t in targets:
                add(f"Make stop {entry} of loop {holder} continue at node {t} instead of \"{missing}\"",
                    [{"op": "setStop", "loop": holder, "index": entry, "stop": {**stop, "then": t}}], t)
            if suggestion is None:
                rest = {k: v for k, v in stop.items() if k != "then"}
                add(f'Make stop {entry} of loop {holder} end the run (drop the unknown "{missing}")',
                    [{"op": "setStop", "loop": holder, "index": entry, "stop": rest}], None)
            return out
        return []
    if kind_holder == "group":
        ptr = issue.pointers[0]
        for t in targets:
            add(f'Make group {holder} list {t} instead of "{missing}"', [set_value(ptr, t)], t)
        if suggestion is None:
            add(f'Remove the unknown member "{missing}" from group {holder}', [remove(ptr)], None)
        return out
    if kind_holder == "policy":
        if not memo.sole("policies", holder):
            return []
        policy = items(doc, "policies")[hi]
        scope_kind = ref.partition(":")[0] if isinstance(ref, str) else must
        for t in targets:
            add_op = {"op": "addPolicy", "kind": policy.get("kind"), "scope": f"{scope_kind}:{t}", "id": holder}
            if "params" in policy:
                add_op["params"] = policy["params"]
            add(f'Scope policy {holder} to {scope_kind} {t} instead of "{missing}"',
                [{"op": "removePolicy", "id": holder}, add_op], t)
        return out
    return []


# --- E_LOOP_BACK_EDGE --------------------------------------------------------------------------------


def _shortest_path(index: GraphIndex, start: str, goal: str) -> list[str] | None:
    """Breadth-first over every edge of the document (edges in document order), start to goal."""
    prev: dict[str, str | None] = {start: None}
    queue = deque([start])
    while queue:
        cur = queue.popleft()
        if cur == goal:
            path = [cur]
            while prev[path[-1]] is not None:
                path.append(prev[path[-1]])  # type: ignore[arg-type]
            return list(reversed(path))
        for p in index.outgoing.get(cur, ()):
            nxt = index.edges[p].get("to")
            if isinstance(nxt, str) and nxt not in prev:
                prev[nxt] = cur
                queue.append(nxt)
    return None


def loop_back_edge(issue: Issue, f: LoopBackEdge, doc: dict, index: GraphIndex) -> list[Candidate]:
    lid, variant = f.loop, f.variant
    li = position(issue, "loops")
    if li is None or not sole(doc, "loops", lid):
        return []
    loop = index.loops[li]
    members = set(m for m in items(loop, "members") if isinstance(m, str))
    if variant == "empty":
        found = [e for e in index.edges if isinstance(e, dict) and isinstance(e.get("id"), str)
                 and closes_inside(index, e, members)]
        found.sort(key=lambda e: 0 if e.get("when") == "fail" else 1)  # stable: "fail" edges first
        kind = "preferred" if len(found) == 1 else "offered"
        return [Candidate(f"Mark edge {e['id']} ({e.get('from')} → {e.get('to')}) as the back edge of loop {lid}",
                          [{"op": "toggleLoopBack", "loop": lid, "edge": e["id"], "on": True}], kind)
                for e in found if sole(doc, "edges", e["id"])]
    edge_id = f.edge
    edge = index.edge(edge_id)
    if edge is None:
        return []
    out: list[Candidate] = []
    if variant == "outside":
        ends = [x for x in f.outside if index.is_node(x)]
        if ends:
            out.append(Candidate(f"Add {and_list(ends)} to loop {lid} so that back edge {edge_id} stays inside it",
                                 [{"op": "toggleLoopMember", "loop": lid, "node": x, "on": True} for x in ends],
                                 "preferred"))
        out.append(Candidate(f"Stop listing {edge_id} as a back edge of loop {lid}",
                             [{"op": "toggleLoopBack", "loop": lid, "edge": edge_id, "on": False}], "offered"))
        return out
    if variant == "no cycle":
        path = _shortest_path(index, edge.get("to"), edge.get("from"))
        if path is None:
            return []
        missing = [x for x in path if x not in members and index.is_node(x)]
        if missing:
            out.append(Candidate(f"Add {and_list(missing)} to loop {lid} so that back edge {edge_id} closes a cycle",
                                 [{"op": "toggleLoopMember", "loop": lid, "node": x, "on": True} for x in missing],
                                 "preferred"))
    return out


# --- E_GROUP_CYCLE, E_SECOND_LEAD, E_PERSON_LEAD --------------------------------------------------------


def group_cycle(issue: Issue, f: GroupCycle, doc: dict, index: GraphIndex) -> list[Candidate]:
    ring, gi = f.ring, f.closing_group_index
    if not ring:
        return []
    holder = str_id(index.groups[gi]) or ""
    return [Candidate(f"Take group {ring[0]} out of group {holder} to break the ring", [remove(issue.pointers[0])],
                      "offered")]


def second_lead(issue: Issue, f: SecondLead, doc: dict, index: GraphIndex) -> list[Candidate]:
    leads = list(dict.fromkeys(f.leads))
    if any(not sole(doc, "nodes", x) for x in leads):
        return []
    out = []
    for keep in leads:
        others = [x for x in leads if x != keep]
        out.append(Candidate(f"Keep {keep} as the lead; make {and_list(others)} {'a builder' if len(others) == 1 else 'builders'}",
                             [{"op": "updateNode", "id": o, "set": {"role": "builder"}} for o in others], "offered"))
    return out


def person_lead(issue: Issue, f: PersonLead, doc: dict, index: GraphIndex) -> list[Candidate]:
    nid = f.node
    if not sole(doc, "nodes", nid):
        return []
    return [Candidate(f'Make lead {nid} an agent\'s step (remove "by": "person")',
                      [{"op": "updateNode", "id": nid, "set": {"by": None}}], "offered")]


# --- E_CYCLE_NO_STOP ---------------------------------------------------------------------------------


def returning_edges(index: GraphIndex, nodes: list[str], edge_ids: list[str]) -> list[str]:
    """§8.4: the edge whose `to` comes earliest in node order and, among those, whose `from` comes
    latest (ties: document order); then again in every cycle left once the chosen edges are out."""
    pos = {e: index.edge_pos[e] for e in edge_ids if e in index.edge_pos}
    chosen: list[str] = []

    def pick(candidates: list[str]) -> str:
        return min(candidates, key=lambda e: (index.node_order(index.edges[pos[e]].get("to")),
                                              -index.node_order(index.edges[pos[e]].get("from")), pos[e]))

    pending = [list(nodes)]
    remaining = [e for e in edge_ids if e in pos]
    while pending:
        comp = set(pending.pop(0))
        inside = [e for e in remaining if index.edges[pos[e]].get("from") in comp and index.edges[pos[e]].get("to") in comp]
        if not inside:
            continue
        first = pick(inside)
        chosen.append(first)
        remaining = [e for e in remaining if e != first]
        succ: dict[str, list[str]] = {}
        loops: set[str] = set()
        for e in remaining:
            f, t = index.edges[pos[e]].get("from"), index.edges[pos[e]].get("to")
            if f in comp and t in comp:
                succ.setdefault(f, []).append(t)
                if f == t:
                    loops.add(f)
        for c in strongly_connected_components(index.sort_by_node_order(comp), succ):
            if len(c) > 1 or c[0] in loops:
                pending.append(index.sort_by_node_order(c))
    return chosen


def cycle_no_stop(issue: Issue, f: CycleNoStop, doc: dict, index: GraphIndex) -> list[Candidate]:
    nodes = list(f.nodes)
    edge_ids = [e for e in f.edges if isinstance(e, str)]
    if not nodes or not edge_ids or any(not sole(doc, "edges", e) for e in edge_ids):
        return []
    comp = set(nodes)
    budget = f"a budget of {DEFAULT_BUDGET['limit']} {DEFAULT_BUDGET['measure']}"
    stops = [{"op": "addStop", "kind": "max-iterations", "set": {"n": NEW_LOOP_CAP}},
             {"op": "addStop", "kind": "budget"}]
    holding = [(i, lp) for i, lp in enumerate(index.loops) if isinstance(lp, dict) and isinstance(lp.get("id"), str)
               and comp <= set(items(lp, "members")) and sole(doc, "loops", lp["id"])]
    for _, lp in holding:
        if not items(lp, "stops") and set(items(lp, "back")) & set(edge_ids):
            return [Candidate(f"Give loop {lp['id']} a cap of {NEW_LOOP_CAP} rounds and {budget}",
                              [{**s, "loop": lp["id"]} for s in stops], "preferred")]
    back = returning_edges(index, index.sort_by_node_order(nodes), edge_ids)
    for _, lp in holding:
        if items(lp, "stops"):
            return [Candidate(f"Mark {and_list(back)} as back {'edge' if len(back) == 1 else 'edges'} of loop {lp['id']}",
                              [{"op": "toggleLoopBack", "loop": lp["id"], "edge": e, "on": True} for e in back],
                              "preferred")]
    loop_id = unique("loop", id_set(doc))
    ops = [{"op": "addLoop", "members": index.sort_by_node_order(nodes), "id": loop_id}]
    ops += [{"op": "toggleLoopBack", "loop": loop_id, "edge": e, "on": True} for e in back]
    ops += [{**s, "loop": loop_id} for s in stops]
    title = (f"Make the cycle through {and_list(index.sort_by_node_order(nodes))} a loop ({loop_id}) with a cap "
             f"of {NEW_LOOP_CAP} rounds and {budget}")
    judged = loop_mode({"back": back}, index) == "judgment"
    if not judged:
        return [Candidate(title, ops, "preferred")]
    # A back edge from an agent makes the new loop a judgment loop (graph.md §2.4), which needs a bar
    # only the person can state (§8.4 E_JUDGMENT_LOOP_NO_BAR: "ask the person"). Our reading of the
    # §8.2 "no new error" check: that follow-up on the loop this action creates is the next step the
    # title announces, not a new fault; the action is offered, never preferred or in fix-all.
    return [Candidate(title + "; then give it a bar (what the critic examines)", ops, "offered",
                      continues=lambda i, lid=loop_id: i.code == "E_JUDGMENT_LOOP_NO_BAR" and tuple(i.at) == (lid,))]


# --- loops and stops ---------------------------------------------------------------------------------


def stop_not_inspectable(issue: Issue, f: StopNotInspectable, doc: dict, index: GraphIndex) -> list[Candidate]:
    lid = f.loop
    if not sole(doc, "loops", lid):
        return []
    return [Candidate(f"Add a cap of 4 rounds to loop {lid} (a second brake besides its bar)",
                      [{"op": "addStop", "loop": lid, "kind": "max-iterations"}], "safe")]


def long_loop_no_budget(issue: Issue, f: LongLoopNoBudget, doc: dict, index: GraphIndex) -> list[Candidate]:
    lid = f.loop
    li = position(issue, "loops")
    if li is None or not sole(doc, "loops", lid):
        return []
    out = [Candidate(f"Add a budget of {DEFAULT_BUDGET['limit']} {DEFAULT_BUDGET['measure']} to loop {lid}",
                     [{"op": "addStop", "loop": lid, "kind": "budget", "set": dict(DEFAULT_BUDGET)}], "safe")]
    for k, s in enumerate(items(index.loops[li], "stops")):
        if (isinstance(s, dict) and s.get("kind") == "max-iterations" and "then" not in s
                and isinstance(s.get("n"), (int, float)) and not isinstance(s.get("n"), bool) and s["n"] > SHORT_CAP):
            out.append(Candidate(f"Lower the cap of loop {lid} from {js_number(s['n'])} to {SHORT_CAP} rounds",
                                 [{"op": "setStop", "loop": lid, "index": k, "stop": {**s, "n": SHORT_CAP}}], "offered"))
            break
    return out


def only_max_iterations(issue: Issue, f: OnlyMaxIterations, doc: dict, index: GraphIndex) -> list[Candidate]:
    lid = f.loop
    li = position(issue, "loops")
    if li is None or not sole(doc, "loops", lid):
        return []
    budget = Candidate(f"Add a budget of {DEFAULT_BUDGET['limit']} {DEFAULT_BUDGET['measure']} to loop {lid}",
                       [{"op": "addStop", "loop": lid, "kind": "budget"}], "safe")
    if f.mode == "grind":
        return [budget]
    budget.kind = "offered"
    if has_inspectable_bar(index.loops[li], index):
        return [Candidate(f"Let loop {lid} stop when its bar passes", [{"op": "addStop", "loop": lid, "kind": "bar-passed"}],
                          "preferred"), budget]
    return [budget]


# --- export codes ------------------------------------------------------------------------------------


def no_target(issue: Issue, f: NoTarget, doc: dict, index: GraphIndex) -> list[Candidate]:
    harness = f.harness
    if f.variant == "unknown" and isinstance(harness, str):
        s = did_you_mean(harness, KNOWN_HARNESSES)
        if s is not None:
            return [Candidate(f'Target the {s} harness (instead of "{harness}")', [{"op": "setTarget", "harness": s}],
                              "preferred")]
    return [Candidate(f"Target the {h} harness", [{"op": "setTarget", "harness": h}], "offered") for h in KNOWN_HARNESSES]


def no_goal(issue: Issue, f: None, doc: dict, index: GraphIndex) -> list[Candidate]:
    """§8.6 automates nothing for a goal; the issue asks for an empty goal the person then types (our
    addition, "ask, do not invent"): the code stays until the goal is written."""
    if "goal" in doc:
        return []
    return [Candidate("Add a goal to fill in", [{"op": "setGraphField", "key": "goal", "value": ""}], "offered",
                      fill="/goal", keeps_code=True)]


# --- critics, owners, irreversible actions --------------------------------------------------------------


def _outputs(node: dict | None) -> list[str]:
    return [o for o in items(node, "outputs") if isinstance(o, str)] if isinstance(node, dict) else []


def critic_not_isolated(issue: Issue, f: CriticNotIsolated, doc: dict, index: GraphIndex) -> list[Candidate]:
    eid, cid, wid = f.edge, f.critic, f.writer
    ei = position(issue, "edges")
    if ei is None or not sole(doc, "edges", eid):
        return []
    edge = index.edges[ei]
    has_evidence = bool(items(edge, "evidence"))
    evidence = _outputs(index.node(wid)) if wid else []
    shown = ", ".join(evidence)
    fill = f"/edges/{ei}/evidence"
    out: list[Candidate] = []
    if f.variant == "shared":
        patch: dict = {"isolation": "fresh"}
        title = f"Give critic {cid} a fresh context on edge {eid}"
        if wid and not has_evidence and evidence:
            patch["evidence"] = evidence
            title += f", reading {shown} (the writer's outputs)"
        out.append(Candidate(title, [{"op": "updateEdge", "id": eid, "set": patch}], "preferred"))
        if wid and "evidence" not in edge:
            out.append(Candidate(f"Give critic {cid} a fresh context on edge {eid}, with the evidence to fill in",
                                 [{"op": "updateEdge", "id": eid, "set": {"isolation": "fresh", "evidence": []}}],
                                 "offered", fill=fill, keeps_code=True))
        return out
    if evidence:
        out.append(Candidate(f"Let critic {cid} read {shown} on edge {eid} (the writer's outputs)",
                             [{"op": "updateEdge", "id": eid, "set": {"evidence": evidence}}], "preferred"))
    if "evidence" not in edge:
        out.append(Candidate(f"Add the evidence critic {cid} may read on edge {eid}, to fill in",
                             [{"op": "updateEdge", "id": eid, "set": {"evidence": []}}], "offered", fill=fill,
                             keeps_code=True))
    return out


def _sole_owner_repairs(doc: dict, index: GraphIndex, artifact: str, owners: list[str]) -> list[Candidate]:
    owners = list(dict.fromkeys(owners))
    if any(not sole(doc, "nodes", o) for o in owners):
        return []
    out = []
    for keep in owners:
        ops = []
        for o in owners:
            if o == keep:
                continue
            left = [a for a in items(index.node(o), "owns") if a != artifact]
            ops.append({"op": "updateNode", "id": o, "set": {"owns": left if left else None}})
        out.append(Candidate(f"Make {keep} the only owner of {artifact}", ops, "offered"))
    return out


def ownership_conflict(issue: Issue, f: OwnershipConflict, doc: dict, index: GraphIndex) -> list[Candidate]:
    if not isinstance(f.artifact, str):
        return []
    return _sole_owner_repairs(doc, index, f.artifact, list(f.owners))


def irreversible_no_gate(issue: Issue, f: IrreversibleNoGate, doc: dict, index: GraphIndex) -> list[Candidate]:
    open_edges = list(f.open_edges)
    if f.variant != "open ways" or not open_edges or any(not sole(doc, "edges", e) for e in open_edges):
        return []
    node = f.node
    ops = [{"op": "updateEdge", "id": e, "set": {"approval": True}} for e in open_edges]
    title = f"Ask a person before {node} runs: approval on {'edge' if len(open_edges) == 1 else 'edges'} {and_list(open_edges)}"
    if not f.open_stops:
        return [Candidate(title, ops, "safe")]

    def edges_gone(after: list) -> bool:
        return not any(i.code == "E_IRREVERSIBLE_NO_GATE" and i.at and i.at[0] == node and set(open_edges) & set(i.at)
                       for i in after)

    def remains(i: Issue) -> bool:
        return i.code == "E_IRREVERSIBLE_NO_GATE" and bool(i.at) and i.at[0] == node

    return [Candidate(title + " (the stops that lead there still need a gate)", ops, "preferred", gone=edges_gone,
                      continues=remains)]


# --- warnings ----------------------------------------------------------------------------------------


def homogeneous_critics(issue: Issue, f: HomogeneousCritics, doc: dict, index: GraphIndex) -> list[Candidate]:
    out = []
    for entry in f.critics:
        cid, writers = entry.critic, entry.writers
        critic = index.node(cid)
        if critic is None or not sole(doc, "nodes", cid):
            continue
        if any(isinstance(index.node(x), dict) and isinstance(index.node(x).get("model"), dict)
               and index.node(x)["model"].get("pin") for x in [cid, *writers]):
            continue  # no action when pins are involved
        model = critic.get("model")
        tier = model.get("tier") if isinstance(model, dict) else None
        new = "strong" if tier == "frontier" else "frontier"
        out.append(Candidate(f"Put critic {cid} on the {new} tier ({entry.key} is its writers' model too)",
                             [{"op": "updateNode", "id": cid, "set": {"model": {"tier": new}}}], "offered"))
    return out


def fanout_on_coupled(issue: Issue, f: FanoutOnCoupled, doc: dict, index: GraphIndex) -> list[Candidate]:
    if f.variant in ("node", "group"):
        eid = f.edge
        if not sole(doc, "edges", eid):
            return []
        return [Candidate(f"Run edge {eid} one at a time (concurrency max 1) into coupled {f.node}",
                          [{"op": "updateEdge", "id": eid, "set": {"concurrency": {"max": 1}}}], "safe")]
    if not isinstance(f.artifact, str):
        return []
    return _sole_owner_repairs(doc, index, f.artifact, list(f.owners))


def unreachable_node(issue: Issue, f: UnreachableNode, doc: dict, index: GraphIndex) -> list[Candidate]:
    nid = f.node
    node = index.node(nid)
    if node is None or not sole(doc, "nodes", nid):
        return []
    if node.get("kind") in ("human-gate", "check", "stop") or items(node, "irreversible") or index.loops_by_member.get(nid):
        return []  # removing any of those could remove a brake
    return [Candidate(f"Remove the unreachable node {nid}", [{"op": "removeNode", "id": nid}], "offered")]


def no_terminal(issue: Issue, f: NoTerminal, doc: dict, index: GraphIndex) -> list[Candidate]:
    reached = index.reached
    sinks = []
    for n in index.nodes:
        nid = str_id(n)
        if nid is None or nid not in reached or nid in sinks:
            continue
        if not any(not index.is_back_edge(index.edges[p]) for p in index.outgoing.get(nid, ())):
            sinks.append(nid)
    if not sinks:
        return []

    def leave(sink: str) -> dict:
        return {"set": {"when": "pass"}} if is_critic_or_check(index.node(sink)) else {}

    stop_nodes = [str_id(n) for n in index.nodes if isinstance(n, dict) and n.get("kind") == "stop" and str_id(n)]
    if stop_nodes:
        end = stop_nodes[0]
        return [Candidate(f"Connect {s} to stop node {end}" + (" when it passes" if leave(s) else ""),
                          [{"op": "connect", "from": s, "to": end, **leave(s)}], "offered") for s in sinks]
    done = unique("done", id_set(doc))
    kind = "preferred" if len(sinks) == 1 else "offered"
    return [Candidate(f'Add a stop node "Done" after {s}' + (" when it passes" if leave(s) else ""),
                      [{"op": "addNode", "kind": "stop", "name": "Done", "id": done},
                       {"op": "connect", "from": s, "to": done, **leave(s)}], kind) for s in sinks]


def output_not_writable(issue: Issue, f: OutputNotWritable, doc: dict, index: GraphIndex) -> list[Candidate]:
    nid = f.node
    node = index.node(nid)
    if node is None or not sole(doc, "nodes", nid):
        return []
    cap = "edit-files" if node.get("role") == "builder" else "write-outputs"
    if cap in items(node, "deny"):
        return []  # the person denied it on purpose
    allow = list(items(node, "allow")) + [cap]
    what = "edit files" if cap == "edit-files" else "write its outputs"
    return [Candidate(f"Let {nid} {what} (allow {cap})", [{"op": "updateNode", "id": nid, "set": {"allow": allow}}],
                      "preferred")]


def person_fields_not_read(issue: Issue, f: PersonFieldsNotRead, doc: dict, index: GraphIndex) -> list[Candidate]:
    nid, fields = f.node, list(f.fields)
    if not fields or not sole(doc, "nodes", nid):
        return []
    return [Candidate(f"Drop {', '.join(fields)} from person's step {nid} (no person reads {'it' if len(fields) == 1 else 'them'})",
                      [{"op": "updateNode", "id": nid, "set": {f: None for f in fields}}], "preferred")]


def group_overlap(issue: Issue, f: GroupOverlap, doc: dict, index: GraphIndex) -> list[Candidate]:
    member, holders = f.member, f.holders
    if not holders or not issue.pointers:
        return []

    def order(ptr: str) -> tuple[int, int]:
        seg = pointer_split(ptr)
        return (int(seg[1]), int(seg[3]))

    edits = [remove(p) for p in sorted(issue.pointers, key=order, reverse=True)]
    others = list(dict.fromkeys(holders[1:]))
    return [Candidate(f"Keep {member} only in group {holders[0]} (remove it from {and_list(others)})", edits, "offered")]


BUILDERS: dict[str, Builder] = {
    "E_DANGLING_REF": dangling_ref,
    "E_LOOP_BACK_EDGE": loop_back_edge,
    "E_GROUP_CYCLE": group_cycle,
    "E_SECOND_LEAD": second_lead,
    "E_PERSON_LEAD": person_lead,
    "E_CYCLE_NO_STOP": cycle_no_stop,
    "E_STOP_NOT_INSPECTABLE": stop_not_inspectable,
    "E_NO_TARGET": no_target,
    "E_NO_GOAL": no_goal,
    "E_CRITIC_NOT_ISOLATED": critic_not_isolated,
    "E_OWNERSHIP_CONFLICT": ownership_conflict,
    "E_IRREVERSIBLE_NO_GATE": irreversible_no_gate,
    "W_HOMOGENEOUS_CRITICS": homogeneous_critics,
    "W_FANOUT_ON_COUPLED": fanout_on_coupled,
    "W_LONG_LOOP_NO_BUDGET": long_loop_no_budget,
    "W_ONLY_MAX_ITERATIONS": only_max_iterations,
    "W_UNREACHABLE_NODE": unreachable_node,
    "W_NO_TERMINAL": no_terminal,
    "W_OUTPUT_NOT_WRITABLE": output_not_writable,
    "W_PERSON_FIELDS_NOT_READ": person_fields_not_read,
    "W_GROUP_OVERLAP": group_overlap,
}


def graph_candidates(issue: Issue, doc: dict, memo: RepairMemo | None = None) -> list[Candidate]:
    """The candidate repairs of a graph issue whose code has an op-based or group repair. `memo`, when
    given, is the `RepairMemo` of this very `doc` (the editor keeps one per analysis); the builders get
    its index, built only when one reads it."""
    builder = BUILDERS.get(issue.code)
    if builder is None:
        return []
    if memo is None or memo.doc is not doc:
        memo = RepairMemo(doc)
    return builder(issue, issue.facts, doc, LazyIndex(memo))  # type: ignore[arg-type]
