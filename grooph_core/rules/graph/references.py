"""`E_DANGLING_REF`: references that name no object of the kind they must name (graph.md §1.11, §5)."""

from __future__ import annotations

from typing import Sequence

from grooph_core.issues import Issue, make
from grooph_core.rules.graph.semantics import GraphIndex, items, stop_kind, str_id
from grooph_core.text import did_you_mean

# The "did you mean" search is optional for this code (graph.md §5.1). A document full of broken
# references against thousands of ids would make it cost (references x candidates); past this many
# comparisons in one validation we stop suggesting. Our choice; leaving a suggestion out is never wrong.
SUGGESTION_COMPARISONS = 100_000


class _Suggester:
    """Hands out suggestions until the comparison budget is spent."""

    def __init__(self) -> None:
        self.left = SUGGESTION_COMPARISONS

    def __call__(self, word: str, candidates: Sequence[str]) -> str | None:
        if self.left < len(candidates):
            self.left = 0
            return None
        self.left -= len(candidates)
        return did_you_mean(word, candidates)


def _tail(s: str | None) -> str:
    return f'; did you mean "{s}"?' if s else ""


def dangling_ref_issues(doc: dict, index: GraphIndex) -> list[Issue]:
    """One issue per reference naming nothing of the required kind, in the spec's order: edges (from,
    to), loops (members, back, answer key, stop `then`), groups (members), policies (scope).

    Pointer: the referencing string. `data`: `ref` (that string), `id` (the unknown id), `must_name`
    (node | edge | loop | node or group), `holder_kind`, `holder` (its id), `holder_index` (position in
    its list), `field`, `index` (entry or stop index where there is one), `suggestion` (or None)."""
    out: list[Issue] = []
    sug = _Suggester()
    node_ids = list(index.node_pos)
    edge_ids = list(index.edge_pos)

    def issue(msg: str, holder: str, ptr: str, **data) -> None:
        out.append(make("E_DANGLING_REF", msg, [holder], [ptr], holder=holder, **data))

    for i, e in enumerate(index.edges):
        if not isinstance(e, dict):
            continue
        eid = str_id(e) or ""
        for fld, verb in (("from", "starts at"), ("to", "ends at")):
            v = e.get(fld)
            if isinstance(v, str) and not index.is_node(v):
                s = sug(v, node_ids)
                issue(f'edge "{eid}" {verb} unknown node "{v}"{_tail(s)}', eid, f"/edges/{i}/{fld}",
                      ref=v, id=v, must_name="node", holder_kind="edge", holder_index=i, field=fld,
                      index=None, suggestion=s)

    for i, loop in enumerate(index.loops):
        if not isinstance(loop, dict):
            continue
        lid = str_id(loop) or ""
        base = f"/loops/{i}"
        for j, m in enumerate(items(loop, "members")):
            if isinstance(m, str) and not index.is_node(m):
                s = sug(m, node_ids)
                issue(f'loop "{lid}" lists member "{m}", which is not a node{_tail(s)}', lid, f"{base}/members/{j}",
                      ref=m, id=m, must_name="node", holder_kind="loop", holder_index=i, field="members",
                      index=j, suggestion=s)
        for j, b in enumerate(items(loop, "back")):
            if isinstance(b, str) and not index.is_edge(b):
                s = sug(b, edge_ids)
                issue(f'loop "{lid}" lists back edge "{b}", which is not an edge{_tail(s)}', lid, f"{base}/back/{j}",
                      ref=b, id=b, must_name="edge", holder_kind="loop", holder_index=i, field="back",
                      index=j, suggestion=s)
        bar = loop.get("bar")
        if isinstance(bar, dict):
            a = bar.get("answerKeyFrom")
            if isinstance(a, str) and not index.is_node(a):
                s = sug(a, node_ids)
                issue(f'loop "{lid}" takes its answer key from unknown node "{a}"{_tail(s)}', lid,
                      f"{base}/bar/answerKeyFrom", ref=a, id=a, must_name="node", holder_kind="loop",
                      holder_index=i, field="answerKeyFrom", index=None, suggestion=s)
        for k, stop in enumerate(items(loop, "stops")):
            t = stop.get("then") if isinstance(stop, dict) else None
            if isinstance(t, str) and not index.is_node(t):
                s = sug(t, node_ids)
                issue(f'loop "{lid}" stop {k} ({stop_kind(stop)}) continues at unknown node "{t}"{_tail(s)}', lid,
                      f"{base}/stops/{k}/then", ref=t, id=t, must_name="node", holder_kind="loop",
                      holder_index=i, field="then", index=k, suggestion=s)

    group_candidates: list[str] | None = None
    for i, g in enumerate(index.groups):
        if not isinstance(g, dict):
            continue
        gid = str_id(g) or ""
        for j, m in enumerate(items(g, "members")):
            if isinstance(m, str) and not index.is_node(m) and not index.is_group(m):
                if group_candidates is None:
                    group_candidates = list(dict.fromkeys(node_ids + list(index.group_pos)))
                s = sug(m, group_candidates)
                issue(f'group "{gid}" lists member "{m}", which is neither a node nor a group{_tail(s)}', gid,
                      f"/groups/{i}/members/{j}", ref=m, id=m, must_name="node or group", holder_kind="group",
                      holder_index=i, field="members", index=j, suggestion=s)

    kinds = {"node": (index.node_pos, node_ids), "edge": (index.edge_pos, edge_ids),
             "loop": (index.loop_pos, list(index.loop_pos))}
    for i, p in enumerate(index.policies):
        scope = p.get("scope") if isinstance(p, dict) else None
        if not isinstance(scope, str) or scope == "graph":
            continue
        kind, _, x = scope.partition(":")
        if kind not in kinds or x in kinds[kind][0]:
            continue
        pid = str_id(p) or ""
        s = sug(x, kinds[kind][1])
        issue(f'policy "{pid}" is scoped to unknown {kind} "{x}"{_tail(s)}', pid, f"/policies/{i}/scope",
              ref=scope, id=x, must_name=kind, holder_kind="policy", holder_index=i, field="scope",
              index=None, suggestion=s)
    return out
