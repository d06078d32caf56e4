"""Ops on nodes (operations.md §5.2): addNode, setNodeName, updateNode, removeNode."""

from __future__ import annotations

import re

from grooph_core.ops.edge_ops import remove_edge_everywhere, remove_scoped_policies
from grooph_core.ops.ids import follows_name, id_set, items, kind_label, kind_slug, slug, unique
from grooph_core.ops.layout_ops import write_position
from grooph_core.ops.patches import apply_patch
from grooph_core.ops.readers import (ABSENT, all_with_id, arg, first_with_id, read_node, read_one_of,
                                     read_optional_new_id, read_optional_patch, read_optional_string,
                                     read_patch, read_position, read_string)
from grooph_core.ops.rename import rename_object

from grooph_core.model.graph import NODE_KINDS


def starting_node(kind: str, node_id: str, name: str) -> dict:
    """The documented starting values of a new node (§5.2 table), keys in that order."""
    node: dict = {"id": node_id, "kind": kind, "name": name}
    if kind == "agent":
        node.update({"role": "builder", "brief": "", "outputs": []})
    elif kind == "human-gate":
        node["prompt"] = ""
    elif kind == "check":
        node["check"] = {"kind": "tests", "pass": ""}
    elif kind == "merge":
        node["merges"] = []
    return node


def add_node(doc: dict, op: dict) -> str:
    """Append a new node (id and name as §5.2 step 1 says), place it when `layout` exists, apply `set`."""
    kind = read_one_of(arg(op, "kind"), "kind", NODE_KINDS)
    at = arg(op, "at")
    position = read_position(at, "at") if at is not ABSENT else None
    name = read_optional_string(arg(op, "name"), "name")
    node_id = read_optional_new_id(arg(op, "id"), "id", doc)
    patch = read_optional_patch(arg(op, "set"), "set", ("id", "kind"))
    label = kind_label(kind) or kind
    if name is not None:
        if node_id is None:
            node_id = unique(slug(name, kind_slug(kind)), id_set(doc))
    elif node_id is not None:
        name = label
    else:
        node_id = unique(kind_slug(kind), id_set(doc))
        suffix = re.fullmatch(re.escape(kind_slug(kind)) + r"-([0-9]+)", node_id)
        name = f"{label} {suffix.group(1)}" if suffix else label
    node = starting_node(kind, node_id, name)
    if not isinstance(doc.get("nodes"), list):
        doc["nodes"] = []
    doc["nodes"].append(node)
    if position is not None and isinstance(doc.get("layout"), dict):
        write_position(doc["layout"], node_id, *position)
    if patch is not None:
        apply_patch(node, patch)
    return node_id


def set_node_name(doc: dict, op: dict) -> str:
    """Set the name; an id that followed the old name is re-derived and renamed everywhere (§3.5)."""
    node_id = read_node(arg(op, "id"), "id", doc)
    name = read_string(arg(op, "name"), "name")
    first = first_with_id(doc, "nodes", node_id)
    old_name = first.get("name") if first is not None else None
    kind = first.get("kind") if first is not None else None
    for node in all_with_id(doc, "nodes", node_id):
        node["name"] = name
    if not follows_name(node_id, old_name):
        return node_id
    taken = set(id_set(doc)) - {node_id}
    new_id = unique(slug(name, kind_slug(kind)), taken)
    if new_id != node_id:
        # "continues exactly as renameId": the node path of §5.8 (our reading: never the graph-only
        # path, even if the graph's id were, erroneously, the same string).
        rename_object(doc, node_id, new_id)
    return new_id


def update_node(doc: dict, op: dict) -> None:
    node_id = read_node(arg(op, "id"), "id", doc)
    patch = read_patch(arg(op, "set"), "set", ("id", "kind"))
    for node in all_with_id(doc, "nodes", node_id):
        apply_patch(node, patch)
    return None


def remove_node(doc: dict, op: dict) -> None:
    """The removal cascade of §5.2 / §5.9, in its order."""
    node_id = read_node(arg(op, "id"), "id", doc)
    for edge in list(items(doc, "edges")):
        if isinstance(edge, dict) and (edge.get("from") == node_id or edge.get("to") == node_id):
            if isinstance(edge.get("id"), str):
                remove_edge_everywhere(doc, edge["id"])
            else:
                doc["edges"] = [e for e in items(doc, "edges") if e is not edge]
    doc["nodes"] = [n for n in items(doc, "nodes") if not (isinstance(n, dict) and n.get("id") == node_id)]
    for loop in items(doc, "loops"):
        if not isinstance(loop, dict):
            continue
        if isinstance(loop.get("members"), list):
            loop["members"] = [m for m in loop["members"] if m != node_id]
        for stop in loop.get("stops") if isinstance(loop.get("stops"), list) else []:
            if isinstance(stop, dict) and stop.get("then") == node_id:
                del stop["then"]
        bar = loop.get("bar")
        if isinstance(bar, dict) and bar.get("answerKeyFrom") == node_id:
            del bar["answerKeyFrom"]
    layout = doc.get("layout")
    if isinstance(layout, dict):
        layout.pop(node_id, None)
    for group in items(doc, "groups"):
        if isinstance(group, dict) and isinstance(group.get("members"), list):
            group["members"] = [m for m in group["members"] if m != node_id]
    remove_scoped_policies(doc, f"node:{node_id}")
    return None
