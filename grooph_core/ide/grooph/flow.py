"""The flow of a graph or a map in the editor (issue 31 items 1 and 2): the highlight of the id under the
cursor (its definition and every use, from the one model of references, `semantics.references`), and the
call hierarchy: a graph's nodes linked by its edges (graph.md §1.5; a loop's back edges, §2.3, marked),
a map's sessions and people linked by its handoffs (map.md §2.6, the carrier in words, §3.4)."""

from __future__ import annotations

from grooph_core.ide.flow import FlowCall, FlowItem, Highlight, grouped
from grooph_core.ide.grooph.navigation import node_detail, related_occurrences
from grooph_core.ide.grooph.refactor import id_span
from grooph_core.semantics.graph_index import GraphIndex, build_index
from grooph_core.semantics.map_index import MapIndex, end_name, handoff_carried_by, map_index
from grooph_core.semantics.references import Occurrence, accepts, occurrence_at, occurrences_of


def _occurrence(analysis, offset: int) -> Occurrence | None:
    """The id occurrence under the cursor (a string value or a layout key), found along its pointer."""
    if not isinstance(analysis.value, dict):
        return None
    pointer, part = analysis.parsed.source_map.pointer_at(offset)
    return occurrence_at(analysis.value, analysis.kind, pointer, on_key=(part == "key"))


def highlights_at(analysis, offset: int) -> list[Highlight]:
    """The id under the cursor where it is defined (write) and each place naming it (read); a dangling
    reference highlights its like references."""
    occ = _occurrence(analysis, offset)
    if occ is None:
        return []
    related = related_occurrences(occurrences_of(analysis.value, analysis.kind, occ.id), occ)
    return [Highlight(id_span(analysis, o), o.definition) for o in related]


# ---- the call hierarchy ------------------------------------------------------------------------------

def _index(analysis) -> GraphIndex | MapIndex:
    """The graph's or map's index of this version, built once (kept in the analysis's memo)."""
    key = "flow index"
    found = analysis.memo.get(key)
    if found is None:
        doc = analysis.value if isinstance(analysis.value, dict) else {}
        found = analysis.memo[key] = _INDEXES[analysis.kind](doc)
    return found


def _named(obj: dict, what: str) -> str:
    name = obj.get("name")
    return f"{name} · {what}" if isinstance(name, str) and name else what


def _item(analysis, kind: str, ident: str, pointer: str, detail: str) -> FlowItem:
    span = analysis.extent(pointer) or (0, 0)
    sel = id_span(analysis, Occurrence(pointer + "/id", ident, kind, True))
    return FlowItem(kind, ident, ident, detail, span, sel if span[0] <= sel[0] and sel[1] <= span[1] else span)


def _named_at(analysis, pointer: str, ident: str) -> tuple[int, int]:
    """Where a `from`/`to` names the other end: the id's own characters."""
    return id_span(analysis, Occurrence(pointer, ident, "", False))


def _absent(analysis, kind: str, ident: str, where: str, what: str) -> FlowItem:
    """An end that names nothing (a dangling `from`/`to`): shown where it is named."""
    span = _named_at(analysis, where, ident)
    return FlowItem(kind, ident, ident, f"no {what} has this id", span, span)


def _node_item(analysis, index: GraphIndex, ident: str, where: str = "") -> FlowItem | None:
    pos = index.node_pos.get(ident)
    if pos is None:
        return _absent(analysis, "node", ident, where, "node") if where else None
    node = index.nodes[pos]
    return _item(analysis, "node", ident, f"/nodes/{pos}", _named(node, node_detail(node)))


def _end_item(analysis, index: MapIndex, ident: str, where: str = "") -> FlowItem | None:
    """A map's end (map.md §3.2): the first session with the id, else the first person."""
    pos = index.first_sessions.get(ident)
    if pos is not None:
        s = index.session_list[pos]
        lane = s.get("lane")
        return _item(analysis, "session", ident, f"/sessions/{pos}",
                     f"{end_name(index, ident)} · session" + (f" in {lane}" if isinstance(lane, str) else ""))
    pos = index.first_people.get(ident)
    if pos is not None:
        return _item(analysis, "person", ident, f"/people/{pos}", f"{end_name(index, ident)} · person")
    return _absent(analysis, "session", ident, where, "session or person") if where else None


def call_items_at(analysis, offset: int) -> list[FlowItem]:
    """The item of the flow at the cursor: a node (graph), a session or a person (map), at its id or at
    any place naming it."""
    occ = _occurrence(analysis, offset)
    if occ is None:
        return []
    item = _ITEM_AT[analysis.kind](analysis, _index(analysis), occ)
    return [item] if item is not None else []


def _graph_item_at(analysis, index: GraphIndex, occ: Occurrence) -> FlowItem | None:
    return _node_item(analysis, index, occ.id) if accepts(occ.target, "node") else None


def _map_item_at(analysis, index: MapIndex, occ: Occurrence) -> FlowItem | None:
    return _end_item(analysis, index, occ.id) if accepts(occ.target, "session") or accepts(occ.target, "person") else None


def _when(edge: dict) -> str:
    when = edge.get("when")
    return f"when {when}" if isinstance(when, str) else "always"


def _edge_detail(index: GraphIndex, edge: dict) -> str:
    """An edge in words: its `when`, whether it is a loop's back edge (graph.md §2.3), its id (in that order:
    a narrow view cuts the end off)."""
    ident = edge.get("id")
    words = [_when(edge)]
    if index.is_back_edge(edge):
        loops = [lp.get("id") for lp in index.loops if isinstance(lp, dict) and ident in (lp.get("back") or ())]
        named = ", ".join(x for x in loops if isinstance(x, str))
        words.append(f"back edge of {named}" if named else "back edge")
    words.append(ident if isinstance(ident, str) else "edge")
    return " · ".join(words)


def _links(analysis, kind: str, ident: str, incoming: bool) -> list[FlowCall]:
    """The calls of the item, grouped by the item at the other end; `incoming`: where `to` names it."""
    this, other = ("to", "from") if incoming else ("from", "to")
    return grouped(_LINKS[analysis.kind](analysis, _index(analysis), kind, ident, this, other))


def _graph_links(analysis, index: GraphIndex, kind: str, ident: str, this: str, other: str) -> list:
    """The edges whose `this` end is the node, each with the node at its `other` end (graph.md §1.5)."""
    if kind != "node" or ident not in index.node_pos:
        return []
    out = []
    for pos in (index.incoming if this == "to" else index.outgoing).get(ident, ()):
        edge = index.edges[pos]
        end = edge.get(other)
        if isinstance(end, str):
            item = _node_item(analysis, index, end, f"/edges/{pos}/{other}")
            out.append((item, _named_at(analysis, f"/edges/{pos}/{other}", end), _edge_detail(index, edge)))
    return out


def _map_links(analysis, index: MapIndex, kind: str, ident: str, this: str, other: str) -> list:
    """The handoffs whose `this` end is the session or person, each with its `other` end (map.md §2.6)."""
    if kind not in ("session", "person") or not index.is_end(ident):
        return []
    out = []
    for pos, h in enumerate(index.handoff_list):
        if not isinstance(h, dict) or h.get(this) != ident or not isinstance(h.get(other), str):
            continue
        item = _end_item(analysis, index, h[other], f"/handoffs/{pos}/{other}")
        hid = h.get("id")
        detail = f"{handoff_carried_by(index, h)} · {hid if isinstance(hid, str) else 'handoff'}"  # map.md §3.4
        out.append((item, _named_at(analysis, f"/handoffs/{pos}/{other}", h[other]), detail))
    return out


# Each grooph kind's flow, by the kind's name: its index, the item a place names, its links.
_INDEXES = {"graph": build_index, "map": map_index}
_ITEM_AT = {"graph": _graph_item_at, "map": _map_item_at}
_LINKS = {"graph": _graph_links, "map": _map_links}


def incoming_calls(analysis, kind: str, ident: str) -> list[FlowCall]:
    """What leads to the item: a node's incoming edges by source node (each call's places: the edges'
    `from`), an end's handoffs in by sender (the handoffs' `from`); none when the item is gone."""
    return _links(analysis, kind, ident, True)


def outgoing_calls(analysis, kind: str, ident: str) -> list[FlowCall]:
    """Where the item leads: a node's outgoing edges by target (the edges' `to`), an end's handoffs out
    by receiver (the handoffs' `to`); none when the item is gone."""
    return _links(analysis, kind, ident, False)
