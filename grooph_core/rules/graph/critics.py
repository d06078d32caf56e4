"""Critic rules: isolation under a critic-isolation policy, and critics on their writers' model
(graph.md §2.9, §2.10, §5: `E_CRITIC_NOT_ISOLATED`, `W_HOMOGENEOUS_CRITICS`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from grooph_core.issues import Facts, Issue, make
from grooph_core.semantics.graph_index import (
    GraphIndex,
    is_agent,
    is_critic_family,
    is_person_step,
    is_writer_family,
    items,
    model_key,
    named_harness,
    nearest_writers,
    render_model_key,
    str_id,
)
from grooph_core.source.text import quoted


@dataclass(frozen=True)
class CriticNotIsolated(Facts):
    """E_CRITIC_NOT_ISOLATED: `variant`, `edge`, `critic`, `policy`, `writer` (or None)."""

    code = "E_CRITIC_NOT_ISOLATED"
    variant: Literal["shared", "no evidence"]
    edge: str
    critic: str
    policy: str
    writer: object


def critic_not_isolated_issues(doc: dict, index: GraphIndex) -> list[Issue]:
    """Per edge into a critic-family agent that is not a person's step and that a critic-isolation
    policy covers: "shared" isolation, else (from a writer, persons included) no evidence list.

    Pointer: the edge's `isolation` ("shared"); the edge's `evidence` when it is an empty list, else the
    edge's id ("no evidence"). Facts: `CriticNotIsolated`."""
    policies = [p for p in index.policies if isinstance(p, dict) and p.get("kind") == "critic-isolation"]
    if not policies:
        return []
    first_covering = _coverage(policies, index)
    out = []
    for i, e in enumerate(index.edges):
        if not isinstance(e, dict):
            continue
        c = index.node(e.get("to"))
        if c is None or not is_critic_family(c) or is_person_step(c):
            continue
        policy = first_covering(e)
        if policy is None:
            continue
        eid, cid, pid = str_id(e) or "", str_id(c) or "", str_id(policy) or ""
        if e.get("isolation") == "shared":
            msg = (f'edge "{eid}" brings shared context to critic "{cid}", but policy "{pid}" requires critic '
                   f"isolation; switch the edge to fresh isolation and give it an evidence list")
            out.append(make("E_CRITIC_NOT_ISOLATED", msg, [eid, cid], [f"/edges/{i}/isolation"],
                            facts=CriticNotIsolated("shared", eid, cid, pid, e.get("from") if is_writer_family(
                                index.node(e.get("from"))) else None)))
            continue
        w = index.node(e.get("from"))
        if is_writer_family(w) and not items(e, "evidence"):
            wid = str_id(w) or ""
            ptr = f"/edges/{i}/evidence" if isinstance(e.get("evidence"), list) else f"/edges/{i}/id"
            msg = (f'edge "{eid}" brings writer "{wid}"\'s work to critic "{cid}" with no evidence list, but policy '
                   f'"{pid}" requires critic isolation; keep the edge fresh and list the evidence the critic may read')
            out.append(make("E_CRITIC_NOT_ISOLATED", msg, [eid, wid, cid], [ptr],
                            facts=CriticNotIsolated("no evidence", eid, cid, pid, wid)))
    return out


def _coverage(policies: list[dict], index: GraphIndex):
    """A function edge -> the first of `policies` (in their order) covering it (§2.9), or None.

    The policies are indexed by scope once, so each edge costs a few dict look-ups instead of a scan
    of every policy (a graph with a critic-isolation policy per critic was quadratic here)."""
    by_scope: dict[str, list[int]] = {}
    by_loop: dict[int, list[int]] = {}  # loop position -> positions of the policies scoped to it
    for n, p in enumerate(policies):
        scope = p.get("scope")
        if not isinstance(scope, str):
            continue
        kind, _, x = scope.partition(":")
        if kind == "loop":
            pos = index.loop_pos.get(x)
            if pos is not None:
                by_loop.setdefault(pos, []).append(n)
        elif scope == "graph" or kind in ("edge", "node"):
            by_scope.setdefault(scope, []).append(n)
    graph_wide = by_scope.get("graph", [])
    loops_of: dict[str, list[int]] = {}  # node id -> positions of the policy-scoped loops listing it
    for pos in by_loop:
        for m in index.loop_members[pos]:
            if isinstance(m, str):
                loops_of.setdefault(m, []).append(pos)

    def first_covering(edge: dict) -> dict | None:
        found = graph_wide[0] if graph_wide else None
        eid, frm, to = edge.get("id"), edge.get("from"), edge.get("to")
        candidates = []
        if isinstance(eid, str):
            candidates.append(by_scope.get("edge:" + eid))
        if isinstance(frm, str):
            candidates.append(by_scope.get("node:" + frm))
        if isinstance(to, str):
            candidates.append(by_scope.get("node:" + to))
            candidates += [by_loop[pos] for pos in loops_of.get(to, ())]
        for positions in candidates:
            if positions and (found is None or positions[0] < found):
                found = positions[0]
        return None if found is None else policies[found]

    return first_covering


@dataclass(frozen=True)
class CriticOnWritersModel:
    """One flagged critic of W_HOMOGENEOUS_CRITICS: its `writers` and the shared model `key` (rendered as
    in the message)."""

    critic: str
    writers: tuple[str, ...]
    key: str


@dataclass(frozen=True)
class HomogeneousCritics(Facts):
    """W_HOMOGENEOUS_CRITICS: `critics`, in document order."""

    code = "W_HOMOGENEOUS_CRITICS"
    critics: tuple[CriticOnWritersModel, ...]


def homogeneous_critics_issues(doc: dict, index: GraphIndex) -> list[Issue]:
    """One warning for the whole graph when some critic's nearest writers (§2.10; agents' steps only)
    all share its model key.

    Pointers: each flagged critic's `model` (its id when it has none). Facts: `HomogeneousCritics`."""
    harness = named_harness(doc)
    flagged = []  # (position, critic id, writers, rendered key)
    for i, c in enumerate(index.nodes):
        if not is_critic_family(c) or is_person_step(c):
            continue
        cid = str_id(c) or ""
        writers = [w for w in nearest_writers(index, cid) if w != cid]
        writers = [w for w in writers if is_agent(index.node(w)) and is_writer_family(index.node(w))
                   and not is_person_step(index.node(w))]
        if not writers:
            continue
        key = model_key(c, harness)
        if all(model_key(index.node(w), harness) == key for w in writers):
            flagged.append((i, cid, index.sort_by_node_order(writers), render_model_key(key)))
    if not flagged:
        return []
    ids: dict[str, None] = {}
    for _, cid, writers, _ in flagged:
        ids[cid] = None
        ids.update(dict.fromkeys(writers))
    at = index.sort_by_node_order(ids)
    parts = [f'critic "{cid}" runs on the same model as {"writer" if len(ws) == 1 else "writers"} {quoted(ws)} '
             f"({key})" for _, cid, ws, key in flagged]
    msg = "; ".join(parts) + "; a critic running on another tier or pin is more likely to notice different errors"
    pointers = [f"/nodes/{i}/model" if isinstance(index.nodes[i].get("model"), dict) else f"/nodes/{i}/id"
                for i, _, _, _ in flagged]
    return [make("W_HOMOGENEOUS_CRITICS", msg, at, pointers,
                 facts=HomogeneousCritics(tuple(CriticOnWritersModel(cid, tuple(ws), key) for _, cid, ws, key in flagged)))]
