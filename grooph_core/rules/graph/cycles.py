"""`E_CYCLE_NO_STOP`: cycles of the node graph that no loop with a stop covers (graph.md §5, §8.6)."""

from __future__ import annotations

from dataclasses import dataclass

from grooph_core.issues import Facts, Issue, make
from grooph_core.semantics.graph_index import GraphIndex, items, str_id, strings, strongly_connected_components


def covered_back_ids(index: GraphIndex) -> set[str]:
    """The `back` ids of every loop that has at least one stop (a loop without stops covers nothing)."""
    covered: set[str] = set()
    for loop in index.loops:
        if items(loop, "stops"):
            covered.update(strings(items(loop, "back")))
    return covered


def uncovered_cycles(index: GraphIndex) -> list[tuple[list[str], list[int]]]:
    """The uncovered cycles: for each strongly connected component (over edges between existing nodes
    whose ids no stopping loop lists in `back`) with more than one node or a self edge, its node ids in
    node order and the positions of the edges inside it. Components sorted by their first node."""
    covered = covered_back_ids(index)
    succ: dict[str, list[str]] = {}
    kept: list[int] = []
    self_loops: set[str] = set()
    for p, e in enumerate(index.edges):
        if not isinstance(e, dict) or str_id(e) in covered:
            continue
        f, t = e.get("from"), e.get("to")
        if not (index.is_node(f) and index.is_node(t)):
            continue
        kept.append(p)
        succ.setdefault(f, []).append(t)
        if f == t:
            self_loops.add(f)
    comps = []
    for comp in strongly_connected_components(list(index.node_pos), succ):
        if len(comp) > 1 or comp[0] in self_loops:
            comps.append(index.sort_by_node_order(comp))
    comps.sort(key=lambda c: index.node_order(c[0]))
    where = {v: n for n, c in enumerate(comps) for v in c}
    inside: list[list[int]] = [[] for _ in comps]
    for p in kept:
        e = index.edges[p]
        cf = where.get(e.get("from"))
        if cf is not None and cf == where.get(e.get("to")):
            inside[cf].append(p)
    return list(zip(comps, inside))


@dataclass(frozen=True)
class CycleNoStop(Facts):
    """E_CYCLE_NO_STOP: `nodes` (node order) and `edges` (ids of the edges inside the component,
    document order)."""

    code = "E_CYCLE_NO_STOP"
    nodes: tuple[str, ...]
    edges: tuple[object, ...]


def cycle_no_stop_issues(doc: dict, index: GraphIndex) -> list[Issue]:
    """One issue per uncovered strongly connected component (not per elementary cycle).

    Pointers: the ids of the edges inside the component. Facts: `CycleNoStop`."""
    out = []
    for nodes, edge_pos in uncovered_cycles(index):
        chain = " → ".join(nodes)
        msg = (f"the cycle through {chain} is not covered by any loop with a stop; make it a loop: list the "
               f"returning edge as its back edge and give it a max-iterations stop and a budget")
        out.append(make("E_CYCLE_NO_STOP", msg, nodes, [f"/edges/{p}/id" for p in edge_pos],
                        facts=CycleNoStop(tuple(nodes), tuple(index.edge_id_at(p) for p in edge_pos))))
    return out
