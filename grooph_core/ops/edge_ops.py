"""Ops on edges (operations.md §5.3): connect, updateEdge, removeEdge."""

from __future__ import annotations

from grooph_core.ops.ids import derived_edge_id, id_set, items, unique
from grooph_core.ops.patches import apply_patch
from grooph_core.ops.readers import (all_with_id, arg, read_edge, read_node, read_optional_new_id,
                                     read_optional_patch, read_patch)


def connect(doc: dict, op: dict) -> str:
    """Append `{id, from, to}` (id given or unique `e-<from>-<to>`), then apply `set`."""
    frm = read_node(arg(op, "from"), "from", doc)
    to = read_node(arg(op, "to"), "to", doc)
    edge_id = read_optional_new_id(arg(op, "id"), "id", doc)
    patch = read_optional_patch(arg(op, "set"), "set", ("id",))
    if edge_id is None:
        edge_id = unique(derived_edge_id(frm, to), id_set(doc))
    edge = {"id": edge_id, "from": frm, "to": to}
    if patch is not None:
        apply_patch(edge, patch)
    _edges(doc).append(edge)
    return edge_id


def update_edge(doc: dict, op: dict) -> None:
    """Apply the patch to every edge with the id; new ends are not checked."""
    edge_id = read_edge(arg(op, "id"), "id", doc)
    patch = read_patch(arg(op, "set"), "set", ("id",))
    for edge in all_with_id(doc, "edges", edge_id):
        apply_patch(edge, patch)
    return None


def remove_edge_everywhere(doc: dict, edge_id: str) -> None:
    """removeEdge's effect: the edge(s), their `back` entries, their `edge:` policies (list kept)."""
    doc["edges"] = [e for e in items(doc, "edges") if not (isinstance(e, dict) and e.get("id") == edge_id)]
    for loop in items(doc, "loops"):
        if isinstance(loop, dict) and isinstance(loop.get("back"), list):
            loop["back"] = [b for b in loop["back"] if b != edge_id]
    remove_scoped_policies(doc, f"edge:{edge_id}")


def remove_scoped_policies(doc: dict, scope: str) -> None:
    """Drop every policy with exactly this scope; an emptied `policies` stays as [] (§5.6, §9 item 6)."""
    if isinstance(doc.get("policies"), list):
        doc["policies"] = [p for p in doc["policies"] if not (isinstance(p, dict) and p.get("scope") == scope)]


def remove_edge(doc: dict, op: dict) -> None:
    edge_id = read_edge(arg(op, "id"), "id", doc)
    remove_edge_everywhere(doc, edge_id)
    return None


def _edges(doc: dict) -> list:
    if not isinstance(doc.get("edges"), list):
        doc["edges"] = []
    return doc["edges"]
