"""Ids and the places that name them: definitions, references, document outline.

The reference places come from `semantics.references` (graph.md §1.11, map.md §2.8). The server's
definition, references, rename and symbols are built on `occurrences`; everything here works on the
parsed value and JSON pointers, never on text.
"""

from __future__ import annotations

from dataclasses import dataclass

from grooph_core.semantics.references import Occurrence, accepts, occurrences
from grooph_core.source.kinds import Kind

__all__ = ["Occurrence", "occurrences", "find_definition", "occurrence_at", "related_occurrences", "Symbol",
           "document_symbols"]

def _s(v: object) -> str | None:
    return v if isinstance(v, str) else None


def _items(doc: dict, key: str):
    v = doc.get(key)
    if isinstance(v, list):
        for i, item in enumerate(v):
            if isinstance(item, dict):
                yield i, item


def find_definition(occs: list[Occurrence], ref: Occurrence) -> Occurrence | None:
    """The object a reference names: the first definition of the right kind (graph.md §0)."""
    for o in occs:
        if o.definition and o.id == ref.id and accepts(ref.target, o.target):
            return o
    return None


def occurrence_at(occs: list[Occurrence], pointer: str, *, on_key: bool = False) -> Occurrence | None:
    """The occurrence whose string (or layout key) sits at `pointer`."""
    for o in occs:
        if o.pointer == pointer and o.on_key == on_key:
            return o
    return None


def related_occurrences(occs: list[Occurrence], occ: Occurrence) -> list[Occurrence]:
    """The definition an occurrence is about, and every reference to that same object."""
    if occ.definition:
        target_kind, ident = occ.target, occ.id
    else:
        d = find_definition(occs, occ)
        if d is None:
            return [o for o in occs if not o.definition and o.id == occ.id and o.target == occ.target]
        target_kind, ident = d.target, d.id
    return [
        o for o in occs
        if o.id == ident and ((o.definition and o.target == target_kind) or (not o.definition and accepts(o.target, target_kind)))
    ]


@dataclass(frozen=True)
class Symbol:
    """An entry of the document outline: `pointer` is the object, `id_pointer` its id (selection);
    `on_key`: the selection is the key at `id_pointer` (an entry named by its mapping key)."""

    name: str
    detail: str
    kind: str  # "graph", "node", "edge", "loop", "policy", "group", "note", "map", "lane", "session", "person", "handoff", "list"
    pointer: str
    id_pointer: str | None
    children: tuple["Symbol", ...] = ()
    on_key: bool = False


def _sym(item: dict, pointer: str, kind: str, detail: str, children=()) -> Symbol:
    ident = _s(item.get("id")) or "(no id)"
    name = _s(item.get("name"))
    label = ident if not name or name == ident else f"{ident} — {name}"
    return Symbol(label, detail, kind, pointer, pointer + "/id" if "id" in item else None, tuple(children))


def _list_symbol(doc: dict, key: str, children: list[Symbol]) -> Symbol:
    return Symbol(key, f"{len(children)}", "list", "/" + key, None, tuple(children))


def document_symbols(doc: object, kind: Kind) -> list[Symbol]:
    """Hierarchical outline: graph → nodes, edges, loops, policies, groups; map → lanes with their
    sessions, people, handoffs."""
    if not isinstance(doc, dict):
        return []
    return _OUTLINES.get(kind, _graph_symbols)(doc)


def _graph_symbols(doc: dict) -> list[Symbol]:
    """A graph's outline: its root with nodes, edges, loops, policies, groups and notes (graph.md §1)."""
    children: list[Symbol] = []
    nodes = [_sym(n, f"/nodes/{i}", "node", node_detail(n)) for i, n in _items(doc, "nodes")]
    children.append(_list_symbol(doc, "nodes", nodes))
    edges = []
    for i, e in _items(doc, "edges"):
        detail = f"{e.get('from')} → {e.get('to')}"
        if isinstance(e.get("when"), str) and e["when"] != "always":
            detail += f" ({e['when']})"
        edges.append(Symbol(_s(e.get("id")) or "(no id)", detail, "edge", f"/edges/{i}", f"/edges/{i}/id" if "id" in e else None))
    children.append(_list_symbol(doc, "edges", edges))
    loops = []
    for i, lp in _items(doc, "loops"):
        stops = lp.get("stops") if isinstance(lp.get("stops"), list) else []
        members = lp.get("members") if isinstance(lp.get("members"), list) else []
        loops.append(_sym(lp, f"/loops/{i}", "loop", f"{len(members)} members, {len(stops)} stops"))
    children.append(_list_symbol(doc, "loops", loops))
    for key, k in (("policies", "policy"), ("groups", "group"), ("notes", "note")):
        if isinstance(doc.get(key), list):
            items = []
            for i, it in _items(doc, key):
                detail = ""
                if k == "policy":
                    pk = it.get("kind")
                    detail = f"{pk if isinstance(pk, str) else 'custom'} @ {it.get('scope')}"
                elif k == "group":
                    members = it.get("members")
                    detail = f"{len(members) if isinstance(members, list) else 0} members"
                elif k == "note":
                    detail = str(it.get("at", ""))
                items.append(_sym(it, f"/{key}/{i}", k, detail))
            children.append(_list_symbol(doc, key, items))
    root = Symbol(_s(doc.get("id")) or "graph", _s(doc.get("name")) or "", "graph", "", "/id" if "id" in doc else None, tuple(children))
    return [root]


def node_detail(n: dict) -> str:
    """What a node is, in the outline and the call hierarchy: "agent · builder", "person · lead", "check"."""
    k = n.get("kind")
    if k == "agent":
        role = n.get("role")
        role_s = role if isinstance(role, str) else (role.get("custom") if isinstance(role, dict) else "?")
        who = "person" if n.get("by") == "person" else "agent"
        return f"{who} · {role_s}"
    return str(k)


def _map_symbols(doc: dict) -> list[Symbol]:
    sessions_by_lane: dict[str, list[Symbol]] = {}
    orphans: list[Symbol] = []
    # In text being typed an id can be any JSON value; only string ids group sessions under lanes.
    lane_ids = {l["id"] for _, l in _items(doc, "lanes") if isinstance(l.get("id"), str)}
    for i, s in _items(doc, "sessions"):
        count = s.get("count")
        detail = f"{s.get('harness', '')}" + (f" ×{count}" if isinstance(count, int) and count != 1 else "")
        sym = _sym(s, f"/sessions/{i}", "session", detail)
        lane = s.get("lane")
        if isinstance(lane, str) and lane in lane_ids:
            sessions_by_lane.setdefault(lane, []).append(sym)
        else:
            orphans.append(sym)
    lanes = []
    for i, l in _items(doc, "lanes"):
        lid = l.get("id")
        kids = sessions_by_lane.pop(lid, []) if isinstance(lid, str) else []
        lanes.append(_sym(l, f"/lanes/{i}", "lane", f"{l.get('machine', '')} · {l.get('account', '')}", kids))
    children = [_list_symbol(doc, "lanes", lanes)]
    if orphans:
        children.append(Symbol("sessions (no lane)", str(len(orphans)), "list", "/sessions", None, tuple(orphans)))
    if isinstance(doc.get("people"), list):
        children.append(_list_symbol(doc, "people", [_sym(p, f"/people/{i}", "person", _s(p.get("role")) or "") for i, p in _items(doc, "people")]))
    handoffs = []
    for i, h in _items(doc, "handoffs"):
        carrier = h.get("carrier")
        ck = carrier.get("kind") if isinstance(carrier, dict) else None
        detail = f"{h.get('from')} → {h.get('to')}" + (f" by {ck}" if ck else " (no carrier)")
        handoffs.append(Symbol(_s(h.get("id")) or "(no id)", detail, "handoff", f"/handoffs/{i}", f"/handoffs/{i}/id" if "id" in h else None))
    children.append(_list_symbol(doc, "handoffs", handoffs))
    return [Symbol(_s(doc.get("id")) or "map", _s(doc.get("name")) or "", "map", "", "/id" if "id" in doc else None, tuple(children))]


# The outline of each grooph kind by its name (a name no outline has is read as a graph, map.md §1).
_OUTLINES = {"graph": _graph_symbols, "map": _map_symbols}


@dataclass(frozen=True)
class PlacedSymbol:
    """An outline entry placed in one version's text: `span` covers the whole entry (key to end of
    value, else the whole text), `selection` its name (the id, or the key naming it), within `span`."""

    symbol: Symbol
    span: tuple[int, int]
    selection: tuple[int, int]
    children: tuple["PlacedSymbol", ...] = ()


def place_symbols(analysis, symbols: list[Symbol]) -> list[PlacedSymbol]:
    """The outline `symbols` of an analysis (any kind: `ide.document.DocumentAnalysis`) placed in its text."""

    def place(sym: Symbol) -> PlacedSymbol:
        full = (analysis.extent(sym.pointer) if sym.pointer else None) or (0, len(analysis.text))
        sel = analysis.pointer_span(sym.id_pointer, key=sym.on_key) if sym.id_pointer else full
        if not (full[0] <= sel[0] and sel[1] <= full[1]):
            sel = full
        return PlacedSymbol(sym, full, sel, tuple(place(c) for c in sym.children))

    return [place(s) for s in symbols]


def folding_lines(analysis) -> list[tuple[int, int]]:
    """The folds of a graph or map: (first line, last line), 0-based, of every outline entry written
    over more than one line, in outline order."""
    lines = analysis.line_index
    out: list[tuple[int, int]] = []

    def walk(sym: Symbol) -> None:
        span = analysis.extent(sym.pointer) if sym.pointer else None
        if span is not None:
            first, last = lines.position(span[0])[0], lines.position(span[1])[0]
            if last > first:
                out.append((first, last))
        for c in sym.children:
            walk(c)

    for s in document_symbols(analysis.value, analysis.kind):
        walk(s)
    return out
