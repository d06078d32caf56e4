"""`E_IRREVERSIBLE_NO_GATE`: irreversible actions that a run can reach without a person deciding
(graph.md §2.7, §5)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from typing import Literal

from grooph_core.issues import Facts, Issue, make
from grooph_core.semantics.graph_index import GraphIndex, is_agent, is_entry_node, is_person_step, items, stop_kind, str_id
from grooph_core.source.text import quoted


def led_stops(index: GraphIndex) -> dict[str, list[tuple[int, str, int, str]]]:
    """Node id -> every stop (of every loop, document order) whose `then` names it, as
    (loop position, loop id, stop index, stop kind)."""
    out: dict[str, list[tuple[int, str, int, str]]] = {}
    for li, loop in enumerate(index.loops):
        lid = str_id(loop) or ""
        for k, s in enumerate(items(loop, "stops")):
            t = s.get("then") if isinstance(s, dict) else None
            if isinstance(t, str):
                out.setdefault(t, []).append((li, lid, k, stop_kind(s)))
    return out


def _is_gated_edge(e: dict, index: GraphIndex) -> bool:
    """An edge with `approval: true` or starting at a human gate."""
    if e.get("approval") is True:
        return True
    src = index.node(e.get("from"))
    return src is not None and src.get("kind") == "human-gate"


@dataclass(frozen=True)
class OpenStop:
    """A stop that continues at the node without a person deciding: its loop (id and position), its
    index in `stops`, its kind."""

    loop: str
    loop_index: int
    stop: int
    kind: str


@dataclass(frozen=True)
class IrreversibleNoGate(Facts):
    """E_IRREVERSIBLE_NO_GATE: `variant`, `node`, `actions`, `inbound` (edge ids), `open_edges` (ids),
    `open_stops`, `loops` (the ids of the open stops' loops, "open ways" only)."""

    code = "E_IRREVERSIBLE_NO_GATE"
    variant: Literal["starts here", "nothing leads to it", "open ways"]
    node: str
    actions: tuple[str, ...]
    inbound: tuple[object, ...]
    open_edges: tuple[object, ...]
    open_stops: tuple[OpenStop, ...]
    loops: tuple[str, ...]


def irreversible_no_gate_issues(doc: dict, index: GraphIndex) -> list[Issue]:
    """Per agent's step (not a person's) with irreversible actions, the first matching variant:
    "starts here" (an entry with a way in), none (every way gated), "nothing leads to it", "open ways".

    Pointers: "open ways": each open edge's id, then each open stop's `then`; otherwise the node's
    `irreversible`, then the ways in. Facts: `IrreversibleNoGate`."""
    stops_by_target = led_stops(index)
    out = []
    for i, n in enumerate(index.nodes):
        if not is_agent(n) or is_person_step(n):
            continue
        actions = [a for a in items(n, "irreversible") if isinstance(a, str)]
        if not items(n, "irreversible"):
            continue
        nid = str_id(n) or ""
        inbound = list(index.incoming.get(nid, ()))
        led = stops_by_target.get(nid, [])
        open_edges = [p for p in inbound if not _is_gated_edge(index.edges[p], index)]
        open_stops = [s for s in led if s[3] != "human"]
        what = (f'agent "{nid}" takes {"an irreversible action" if len(actions) == 1 else "irreversible actions"} '
                f'({", ".join(actions)})')
        base = f"/nodes/{i}/irreversible"
        inbound_ids = [index.edge_id_at(p) for p in inbound]
        facts = partial(IrreversibleNoGate, node=nid, actions=tuple(actions), inbound=tuple(inbound_ids),
                        open_edges=tuple(index.edge_id_at(p) for p in open_edges),
                        open_stops=tuple(OpenStop(lid, li, k, kind) for li, lid, k, kind in open_stops))
        if (inbound or led) and is_entry_node(nid, index):
            ways = []
            if inbound:
                ways.append(f"its loop's back {'edge' if len(inbound) == 1 else 'edges'} {quoted(inbound_ids)}")
            if led:
                ways.append("a stop of its own loop")
            verb = "lead" if len(inbound) + len(led) > 1 else "leads"
            msg = (f"{what}, and the run starts at it: only {' and '.join(ways)} {verb} there, so the first time "
                   f"nobody is asked; put a human gate in front of it")
            pointers = [base] + [f"/edges/{p}/id" for p in inbound] + [f"/loops/{li}/stops/{k}/then" for li, _, k, _ in led]
            out.append(make("E_IRREVERSIBLE_NO_GATE", msg, [nid] + inbound_ids, pointers,
                            facts=facts(variant="starts here", loops=())))
            continue
        if (inbound or led) and not open_edges and not open_stops:
            continue
        if not inbound and not led:
            msg = f"{what}, and nothing leads to it, so no person decides before it runs; put a human gate in front of it"
            out.append(make("E_IRREVERSIBLE_NO_GATE", msg, [nid], [base],
                            facts=facts(variant="nothing leads to it", loops=())))
            continue
        loops = list(dict.fromkeys(lid for _, lid, _, _ in open_stops))
        ways = []
        advice = []
        if open_edges:
            ids = [index.edge_id_at(p) for p in open_edges]
            ways.append(f"{'edge' if len(ids) == 1 else 'edges'} {quoted(ids)}")
            advice.append("give that edge approval: true or start it at a human gate" if len(ids) == 1
                          else "give those edges approval: true or start them at a human gate")
        for _, lid, k, kind in open_stops:
            ways.append(f'loop "{lid}" stop {k} ({kind}), which continues there')
        if open_stops:
            advice.append("have the stop continue at a human gate that leads to the node")
        msg = f"{what}, and it can be reached without a person deciding: by {'; by '.join(ways)}; {'; '.join(advice)}"
        pointers = [f"/edges/{p}/id" for p in open_edges] + [f"/loops/{li}/stops/{k}/then" for li, _, k, _ in open_stops]
        at = [nid] + [index.edge_id_at(p) for p in open_edges] + loops
        out.append(make("E_IRREVERSIBLE_NO_GATE", msg, at, pointers,
                        facts=facts(variant="open ways", loops=tuple(loops))))
    return out
