"""Renaming an id everywhere it is referenced (operations.md §5.8), shared by `renameId`,
`setNodeName` and `setLoopName`."""

from __future__ import annotations

from grooph_core.ops.errors import OpRefused, suggest
from grooph_core.ops.ids import derived_edge_id, id_set, ids_of, is_derived_from, items, unique
from grooph_core.ops.readers import arg, read_new_id, read_string
from grooph_core.semantics.references import rewrite_id

# operations.md §5.8: renameId keeps the graph's own id (renamed alone) and run notes (history).
_KEPT_DEFINITIONS = frozenset({"graph", "note"})


def rewrite_references(doc: dict, frm: str, to: str) -> None:
    """Every occurrence of `frm` at the reference places of the §5.8 table (`semantics.references`)
    becomes `to`, except the graph's id and run-note ids.

    Not rewritten: run notes, group `from`/`with`, lineage, template slots, merges, owns, free text.
    """
    rewrite_id(doc, "graph", frm, to, keep=_KEPT_DEFINITIONS)


def rename_object(doc: dict, frm: str, to: str) -> None:
    """The §5.8 effect for an id that is not the graph's: rewrite every reference, then re-derive the
    ids of edges that were derived from a renamed node."""
    was_node = frm in ids_of(doc, "nodes")
    edges = items(doc, "edges")
    rewrite_references(doc, frm, to)
    if not was_node:
        return
    for edge in list(edges):  # document order as it stood before this step
        if not isinstance(edge, dict):
            continue
        e_from, e_to, e_id = edge.get("from"), edge.get("to"), edge.get("id")
        if e_from != to and e_to != to:
            continue
        old_base = derived_edge_id(frm if e_from == to else e_from, frm if e_to == to else e_to)
        if not is_derived_from(e_id, old_base):
            continue
        taken = set(id_set(doc)) - {e_id}
        new_id = unique(derived_edge_id(e_from, e_to), taken)
        if new_id != e_id:
            rewrite_references(doc, e_id, new_id)


def rename_id(doc: dict, frm: str, to: str) -> None:
    """renameId's effect: the graph's own id alone, or `rename_object`."""
    if doc.get("id") == frm:
        doc["id"] = to
        return
    rename_object(doc, frm, to)


def rename_id_op(doc: dict, op: dict) -> str:
    """The `renameId` op: `from` must be an id (run notes excluded, they are history), `to` a new id."""
    frm = read_string(arg(op, "from"), "from")
    renamable = id_set(doc, notes=False)
    if frm not in renamable:
        raise OpRefused(f'"from": no object has the id "{frm}"' + suggest(frm, renamable))
    to = read_new_id(arg(op, "to"), "to", doc)
    rename_id(doc, frm, to)
    return to
