"""What the graph picture draws, before it is drawn: the rank rows of §7.1 and the view a graph is
drawn from (its nodes, possibly folded into subgrooph boxes, the edges between them, the loops), shared
by the graph picture, its subgroophs and the glyph (pictures.md §7.1, §7.7, §8)."""

from __future__ import annotations

from dataclasses import dataclass, field


def layer_nodes(node_ids: list[str], edges: list[dict], back: set[str]) -> list[list[str]]:
    """pictures.md §7.1: rows of node ids by longest-path rank over the forward edges, cycles broken
    depth-first, then two barycentre sweeps to reduce crossings.

    "Two sweeps" is read as the described top-down pass done twice (the spec describes only one
    direction); the second pass settles nodes whose own position was their key.
    """
    index = {nid: k for k, nid in enumerate(node_ids)}
    out: dict[str, list[str]] = {nid: [] for nid in node_ids}
    for e in edges:
        f, t = e.get("from"), e.get("to")
        if e.get("id") in back or f not in index or t not in index or f == t:
            continue
        out[f].append(t)
    kept: list[tuple[str, str]] = []
    state: dict[str, int] = {}  # 1 on the current path, 2 finished
    for start in node_ids:
        if start in state:
            continue
        state[start] = 1
        stack = [(start, iter(out[start]))]
        while stack:
            node, it = stack[-1]
            for t in it:
                if state.get(t) == 1:
                    continue  # an edge back onto the current path is dropped
                kept.append((node, t))
                if t not in state:
                    state[t] = 1
                    stack.append((t, iter(out[t])))
                    break
            else:
                state[node] = 2
                stack.pop()
    preds: dict[str, list[str]] = {nid: [] for nid in node_ids}
    succs: dict[str, list[str]] = {nid: [] for nid in node_ids}
    for f, t in kept:
        preds[t].append(f)
        succs[f].append(t)
    indeg = {nid: len(preds[nid]) for nid in node_ids}
    rank = {nid: 0 for nid in node_ids}
    queue = [nid for nid in node_ids if indeg[nid] == 0]
    qi = 0
    while qi < len(queue):
        u = queue[qi]
        qi += 1
        for v in succs[u]:
            rank[v] = max(rank[v], rank[u] + 1)
            indeg[v] -= 1
            if indeg[v] == 0:
                queue.append(v)
    by_rank: dict[int, list[str]] = {}
    for nid in node_ids:
        by_rank.setdefault(rank[nid], []).append(nid)
    rows = [by_rank[r] for r in sorted(by_rank)]
    for _sweep in range(2):
        for r in range(1, len(rows)):
            above = {nid: k for k, nid in enumerate(rows[r - 1])}
            current = {nid: k for k, nid in enumerate(rows[r])}

            def bary(nid: str, above=above, current=current) -> float:
                ps = [above[p] for p in preds[nid] if p in above]
                return sum(ps) / len(ps) if ps else current[nid]

            rows[r] = sorted(rows[r], key=lambda nid: (bary(nid), index[nid]))
    return rows


@dataclass
class Face:
    """How a closed subgrooph's card differs from a node's (pictures.md §7.7)."""

    group: dict
    subs: list[str]                      # sub-lines: `<from> · N nodes …`, then the description
    extra: str | None                    # `irreversible inside: …`
    glyph: tuple[str, float, float, tuple[float, float, float, float]]  # (elements, drawn w, drawn h, viewBox)


@dataclass
class OpenBox:
    """An open subgrooph: a frame round the rows of its own nodes (pictures.md §7.7)."""

    group: dict
    first_row: int
    last_row: int
    depth: int
    inner_depth: int = 0                 # largest depth difference to an open box inside it
    inner_same_start: int = 0            # open boxes inside it whose first row is the same
    inner_same_end: int = 0              # open boxes inside it whose last row is the same


@dataclass
class GraphView:
    """The graph as one drawing sees it: cards (nodes or closed boxes), edges between cards, loops."""

    doc: dict
    nodes: list[dict]                    # one per card, in document order (a box where its first node was)
    edges: list[dict]                    # re-pointed to cards; only edges whose two cards exist
    loops: list[dict]                    # the loops that remain, with surviving back edges and card members
    loop_sources: list[dict]             # each remaining loop as written (for its words)
    rows: list[list[str]] | None = None  # when set, the column (else ranked by §7.1)
    faces: dict[str, Face] = field(default_factory=dict)
    open_boxes: list[OpenBox] = field(default_factory=list)


def objects(doc: dict, key: str) -> list[dict]:
    v = doc.get(key) if isinstance(doc, dict) else None
    return [x for x in v if isinstance(x, dict)] if isinstance(v, list) else []


def plain_view(doc: dict) -> GraphView:
    """The graph with nothing folded: the first node per id, every edge, every loop."""
    nodes, seen = [], set()
    for n in objects(doc, "nodes"):
        if isinstance(n.get("id"), str) and n["id"] not in seen:
            seen.add(n["id"])
            nodes.append(n)
    loops = objects(doc, "loops")
    return GraphView(doc, nodes, objects(doc, "edges"), loops, loops)
