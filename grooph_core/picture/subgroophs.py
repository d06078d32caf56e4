"""Subgroophs in the graph picture (pictures.md §7.7): groups with a `from`, drawn closed (one card
standing for everything they hold, with the glyph of it at its foot) or open (a frame round the rows
of their own nodes). Plain groups are never drawn.

Choices the spec leaves open, kept here:
- a node held by two subgroophs neither of which holds the other (an overlap, already a rule issue)
  stands on the first such subgrooph in document order;
- when an open subgrooph shares its rank row with other cards, the row is split in place: the cards
  before it, then its own rows, then the cards after it;
- a closed card's counts use plain plurals (`1 node`, `3 nodes`);
- the glyph at a closed card's foot is scaled down to fit 34 × 200, never up.
"""

from __future__ import annotations

from grooph_core.picture.glyph import PICTURE_NAMES, draw_glyph
from grooph_core.picture.graph_view import Face, GraphView, OpenBox, layer_nodes, objects, plain_view
from grooph_core.picture.theme import Theme
from grooph_core.semantics.graph_index import build_index, flattened_members, groups_held_by

GLYPH_MAX_H = 34
GLYPH_MAX_W = 200


def subgrooph_ids(doc: dict) -> list[str]:
    """The ids of the graph's subgroophs (groups with a `from`), in document order, each once."""
    out: list[str] = []
    for g in objects(doc, "groups"):
        if isinstance(g.get("from"), str) and isinstance(g.get("id"), str) and g["id"] not in out:
            out.append(g["id"])
    return out


def _plural(n: int, one: str) -> str:
    return f"{n} {one}" + ("" if n == 1 else "s")


def graph_view(doc: dict, theme: Theme, open_groups=()) -> GraphView:
    """The view §7.1–§7.6 draw: every subgrooph closed unless named in `open_groups`."""
    sub_ids = subgrooph_ids(doc)
    base = plain_view(doc)
    if not sub_ids:
        return base
    index = build_index(doc)
    node_by_id = {n["id"]: n for n in base.nodes}
    node_ids = list(node_by_id)
    groups = {gid: index.group(gid) for gid in sub_ids}
    holds_nodes = {gid: [m for m in dict.fromkeys(flattened_members(index, g)) if m in node_by_id]
                   for gid, g in groups.items()}
    holds_sets = {gid: set(v) for gid, v in holds_nodes.items()}
    holds_groups = {gid: groups_held_by(index, g) for gid, g in groups.items()}
    opened = [g for g in sub_ids if g in set(open_groups)]
    closed = [g for g in sub_ids if g not in set(open_groups)]

    def outermost(nid: str, among: list[str]) -> str | None:
        cands = [g for g in among if nid in holds_sets[g]]
        outer = [g for g in cands if not any(o != g and g in holds_groups[o] for o in cands)]
        return (outer or cands or [None])[0]

    card_of = {nid: outermost(nid, closed) or nid for nid in node_ids}

    # nodes: a closed box stands where its first node was
    nodes: list[dict] = []
    placed: set[str] = set()
    for nid in node_ids:
        c = card_of[nid]
        if c in placed:
            continue
        placed.add(c)
        if c == nid:
            nodes.append(node_by_id[nid])
        else:
            g = groups[c]
            nodes.append({"id": c, "kind": "merge", "name": g.get("name") if isinstance(g.get("name"), str) else "",
                          "merges": []})
    edges = []
    for e in objects(doc, "edges"):
        f, t = e.get("from"), e.get("to")
        if f not in card_of or t not in card_of:
            continue
        cf, ct = card_of[f], card_of[t]
        if cf == ct and f != t:
            continue
        edges.append(e if (cf, ct) == (f, t) else dict(e, **{"from": cf, "to": ct}))
    surviving = {e.get("id") for e in edges}
    loops, sources = [], []
    for lp in objects(doc, "loops"):
        mem = [m for m in lp.get("members", []) if m in card_of] if isinstance(lp.get("members"), list) else []
        cards = list(dict.fromkeys(card_of[m] for m in mem))
        if mem and len(cards) == 1 and cards[0] in groups:
            continue  # every member folds into one closed box: the loop is inside it
        back = [b for b in lp.get("back", []) if b in surviving] if isinstance(lp.get("back"), list) else []
        loops.append(dict(lp, members=cards, back=back))
        sources.append(lp)

    view = GraphView(doc, nodes, edges, loops, sources)
    for gid in closed:
        if gid in placed:
            view.faces[gid] = _face(doc, groups[gid], holds_nodes[gid], node_by_id, theme)
    if opened:
        _open_rows(view, doc, node_ids, card_of, sub_ids, set(opened), holds_sets, holds_groups)
    return view


def _face(doc: dict, group: dict, held: list[str], node_by_id: dict[str, dict], theme: Theme) -> Face:
    """What a closed box's card says, and the glyph of what it holds."""
    inside = [node_by_id[n] for n in held]
    held_set = set(held)
    loops = [lp for lp in objects(doc, "loops")
             if isinstance(lp.get("members"), list)
             and (mem := [m for m in lp["members"] if m in node_by_id]) and all(m in held_set for m in mem)]
    parts = [str(group.get("from", ""))]
    if inside:
        parts.append(_plural(len(inside), "node"))
    gates = sum(1 for n in inside if n.get("kind") == "human-gate")
    if gates:
        parts.append(_plural(gates, "human gate"))
    if loops:
        parts.append(_plural(len(loops), "loop"))
    subs = [" \u00b7 ".join(parts)]
    desc = group.get("description")
    if isinstance(desc, str) and desc.strip():
        subs.append(desc)
    actions: list[str] = []
    for n in inside:
        irr = n.get("irreversible")
        if n.get("kind") == "agent" and isinstance(irr, list):
            actions += [a for a in irr if isinstance(a, str) and a not in actions]
    extra = "irreversible inside: " + ", ".join(actions) if actions else None
    edges = [e for e in objects(doc, "edges") if e.get("from") in held_set and e.get("to") in held_set]
    glyph = draw_glyph(inside, edges, loops, doc.get("layout"), lambda role: theme(PICTURE_NAMES.get(role, "ink-2")))
    gx, gy, gw, gh = glyph.box
    scale = min(1.0, GLYPH_MAX_H / gh, GLYPH_MAX_W / gw)
    markup = "".join(glyph.elements).replace("\n", "")
    return Face(group, subs, extra, (markup, gw * scale, gh * scale, glyph.box))


def _open_rows(view: GraphView, doc: dict, node_ids: list[str], card_of: dict[str, str], sub_ids: list[str],
               opened: set[str], holds: dict[str, set[str]], holds_groups: dict[str, set[str]]) -> None:
    """§7.7 "Column": rank with every subgrooph closed, then replace each open one's entry by the rows of
    its own nodes ranked on their own (recursively)."""
    back = {b for lp in objects(doc, "loops") for b in (lp.get("back") or []) if isinstance(b, str)}
    all_edges = [e for e in objects(doc, "edges") if e.get("from") in card_of and e.get("to") in card_of]

    def fold(scope_nodes: list[str], scope_subs: list[str]) -> tuple[list[str], list[dict]]:
        entry: dict[str, str] = {}
        for nid in scope_nodes:
            cands = [g for g in scope_subs if nid in holds[g]]
            outer = [g for g in cands if not any(o != g and g in holds_groups[o] for o in cands)]
            entry[nid] = (outer or cands or [nid])[0]
        ids = list(dict.fromkeys(entry[n] for n in scope_nodes))
        edges = []
        for e in all_edges:
            f, t = e["from"], e["to"]
            if f in entry and t in entry and (entry[f] != entry[t] or f == t):
                edges.append(dict(e, **{"from": entry[f], "to": entry[t]}))
        return ids, edges

    items: list = []  # rows (lists of card ids) and ("start", gid, depth) / ("end", gid) markers

    def expand(scope_nodes: list[str], scope_subs: list[str], depth: int) -> None:
        ids, edges = fold(scope_nodes, scope_subs)
        for row in layer_nodes(ids, edges, back):
            current: list[str] = []
            for entry in row:
                if entry in opened:
                    if current:
                        items.append(current)
                        current = []
                    inner_subs = [g for g in sub_ids if g in holds_groups[entry]]
                    items.append(("start", entry, depth))
                    expand([n for n in scope_nodes if n in holds[entry]], inner_subs, depth + 1)
                    items.append(("end", entry))
                else:
                    current.append(entry)
            if current:
                items.append(current)

    expand(node_ids, sub_ids, 0)
    cards = {n["id"] for n in view.nodes}
    rows: list[list[str]] = []
    seen: set[str] = set()
    boxes: dict[str, OpenBox] = {}
    starts: list[tuple[str, int, int]] = []
    for it in items:
        if isinstance(it, list):
            row = [c for c in it if c in cards and c not in seen]
            seen.update(row)
            if row:
                rows.append(row)
        elif it[0] == "start":
            starts.append((it[1], len(rows), it[2]))
        else:
            gid, first, depth = next(s for s in reversed(starts) if s[0] == it[1])
            if len(rows) > first:
                boxes[gid] = OpenBox(_group(doc, gid), first, len(rows) - 1, depth)
    for c in (n["id"] for n in view.nodes):
        if c not in seen:
            rows.append([c])
    ordered = sorted(boxes.values(), key=lambda b: (b.depth, sub_ids.index(b.group["id"])))
    for b in ordered:
        inner = [o for o in ordered if o is not b and o.depth > b.depth and o.group["id"] in holds_groups[b.group["id"]]]
        b.inner_depth = max((o.depth - b.depth for o in inner), default=0)
        b.inner_same_start = sum(1 for o in inner if o.first_row == b.first_row)
        b.inner_same_end = sum(1 for o in inner if o.last_row == b.last_row)
    view.rows = rows
    view.open_boxes = ordered


def _group(doc: dict, gid: str) -> dict:
    for g in objects(doc, "groups"):
        if g.get("id") == gid:
            return g
    return {"id": gid}
