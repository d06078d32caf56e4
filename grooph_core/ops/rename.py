"""Renaming an id everywhere it is referenced (operations.md §5.8), shared by `renameId`,
`setNodeName` and `setLoopName`."""

from __future__ import annotations

from grooph_core.ops.ids import derived_edge_id, id_set, ids_of, is_derived_from, items, unique

SCOPE_PREFIXES = ("node:", "loop:", "edge:")


def _swap_list(values: list, frm: str, to: str) -> None:
    for i, v in enumerate(values):
        if v == frm:
            values[i] = to


def rewrite_references(doc: dict, frm: str, to: str) -> None:
    """Every occurrence of `frm` in the places of the §5.8 table becomes `to` (not the graph's id).

    Not rewritten: run notes, group `from`/`with`, lineage, template slots, merges, owns, free text.
    """
    for node in items(doc, "nodes"):
        if isinstance(node, dict) and node.get("id") == frm:
            node["id"] = to
    for edge in items(doc, "edges"):
        if isinstance(edge, dict):
            for key in ("id", "from", "to"):
                if edge.get(key) == frm:
                    edge[key] = to
    for loop in items(doc, "loops"):
        if not isinstance(loop, dict):
            continue
        if loop.get("id") == frm:
            loop["id"] = to
        for key in ("members", "back"):
            if isinstance(loop.get(key), list):
                _swap_list(loop[key], frm, to)
        for stop in loop.get("stops") if isinstance(loop.get("stops"), list) else []:
            if isinstance(stop, dict) and stop.get("then") == frm:
                stop["then"] = to
        bar = loop.get("bar")
        if isinstance(bar, dict) and bar.get("answerKeyFrom") == frm:
            bar["answerKeyFrom"] = to
    for policy in items(doc, "policies"):
        if not isinstance(policy, dict):
            continue
        if policy.get("id") == frm:
            policy["id"] = to
        scope = policy.get("scope")
        if isinstance(scope, str) and scope.startswith(SCOPE_PREFIXES) and scope.split(":", 1)[1] == frm:
            policy["scope"] = scope.split(":", 1)[0] + ":" + to
    for group in items(doc, "groups"):
        if not isinstance(group, dict):
            continue
        if group.get("id") == frm:
            group["id"] = to
        if isinstance(group.get("members"), list):
            _swap_list(group["members"], frm, to)
    layout = doc.get("layout")
    if isinstance(layout, dict) and frm in layout:
        renamed: dict = {}
        for key, value in layout.items():
            renamed[to if key == frm else key] = value
        doc["layout"] = renamed


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
    from grooph_core.ops.errors import OpRefused, suggest
    from grooph_core.ops.readers import arg, read_new_id, read_string

    frm = read_string(arg(op, "from"), "from")
    renamable = id_set(doc, notes=False)
    if frm not in renamable:
        raise OpRefused(f'"from": no object has the id "{frm}"' + suggest(frm, renamable))
    to = read_new_id(arg(op, "to"), "to", doc)
    rename_id(doc, frm, to)
    return to
