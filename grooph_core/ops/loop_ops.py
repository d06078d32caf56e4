"""Ops on loops (operations.md §5.4): addLoop, setLoopName, updateLoop, removeLoop,
toggleLoopMember, toggleLoopBack, setBar."""

from __future__ import annotations

import copy

from grooph_core.ops.edge_ops import remove_scoped_policies
from grooph_core.ops.errors import ABSENT
from grooph_core.ops.ids import follows_name, id_set, items, slug, unique
from grooph_core.ops.patches import apply_patch
from grooph_core.ops.readers import (all_with_id, arg, first_with_id, read_edge, read_loop, read_node,
                                     read_object, read_optional_boolean, read_optional_list,
                                     read_optional_new_id, read_optional_patch, read_optional_string,
                                     read_patch, read_string)
from grooph_core.ops.rename import rename_object


def add_loop(doc: dict, op: dict) -> str:
    """Append `{id, name, members, back: [], stops: []}`; members kept in the given order (§9 item 5)."""
    members = read_optional_list(arg(op, "members"), "members")
    if members is not None:
        for i, m in enumerate(members):
            read_node(m, f"members[{i}]", doc)
    name = read_optional_string(arg(op, "name"), "name")
    loop_id = read_optional_new_id(arg(op, "id"), "id", doc)
    patch = read_optional_patch(arg(op, "set"), "set", ("id",))
    if name is not None:
        if loop_id is None:
            loop_id = unique(slug(name, "loop"), id_set(doc))
    else:
        given = loop_id is not None
        if loop_id is None:
            loop_id = unique("loop", id_set(doc))
        name = "Loop" if given or loop_id == "loop" else "Loop " + loop_id[len("loop-"):]
    loop = {"id": loop_id, "name": name, "members": list(members or []), "back": [], "stops": []}
    if patch is not None:
        apply_patch(loop, patch)
    if not isinstance(doc.get("loops"), list):
        doc["loops"] = []
    doc["loops"].append(loop)
    return loop_id


def set_loop_name(doc: dict, op: dict) -> str:
    """Set the name; an id that followed the old name is re-derived and renamed everywhere."""
    loop_id = read_loop(arg(op, "id"), "id", doc)
    name = read_string(arg(op, "name"), "name")
    first = first_with_id(doc, "loops", loop_id)
    old_name = first.get("name") if first is not None else None
    for loop in all_with_id(doc, "loops", loop_id):
        loop["name"] = name
    if not follows_name(loop_id, old_name):
        return loop_id
    new_id = unique(slug(name, "loop"), set(id_set(doc)) - {loop_id})
    if new_id != loop_id:
        rename_object(doc, loop_id, new_id)
    return new_id


def update_loop(doc: dict, op: dict) -> None:
    loop_id = read_loop(arg(op, "id"), "id", doc)
    patch = read_patch(arg(op, "set"), "set", ("id",))
    for loop in all_with_id(doc, "loops", loop_id):
        apply_patch(loop, patch)
    return None


def remove_loop(doc: dict, op: dict) -> None:
    """Remove the loop(s) and their `loop:` policies; former back edges stay as plain edges."""
    loop_id = read_loop(arg(op, "id"), "id", doc)
    doc["loops"] = [lp for lp in items(doc, "loops") if not (isinstance(lp, dict) and lp.get("id") == loop_id)]
    remove_scoped_policies(doc, f"loop:{loop_id}")
    return None


def _document_order(values: list, order: list[str]) -> list:
    """Stable sort by first position in `order`; values that name nothing go last, in their order."""
    first: dict[str, int] = {}
    for i, v in enumerate(order):
        first.setdefault(v, i)
    known = [v for v in values if isinstance(v, str) and v in first]
    unknown = [v for v in values if not (isinstance(v, str) and v in first)]
    return sorted(known, key=lambda v: first[v]) + unknown


def _toggle(values: list, item: str, on: bool | None) -> list:
    present = item in values
    want = (not present) if on is None else on
    if want and not present:
        return values + [item]
    if not want and present:
        return [v for v in values if v != item]
    return list(values)


def toggle_loop_member(doc: dict, op: dict) -> None:
    """Add, remove or flip a member; then always re-sort `members` by node order (§9 item 4)."""
    loop_id = read_loop(arg(op, "loop"), "loop", doc)
    node_id = read_node(arg(op, "node"), "node", doc)
    on = read_optional_boolean(arg(op, "on"), "on")
    order = [n.get("id") for n in items(doc, "nodes") if isinstance(n, dict)]
    for loop in all_with_id(doc, "loops", loop_id):
        current = loop.get("members") if isinstance(loop.get("members"), list) else []
        loop["members"] = _document_order(_toggle(current, node_id, on), order)
    return None


def toggle_loop_back(doc: dict, op: dict) -> None:
    """Add, remove or flip a back edge; then always re-sort `back` by edge order."""
    loop_id = read_loop(arg(op, "loop"), "loop", doc)
    edge_id = read_edge(arg(op, "edge"), "edge", doc)
    on = read_optional_boolean(arg(op, "on"), "on")
    order = [e.get("id") for e in items(doc, "edges") if isinstance(e, dict)]
    for loop in all_with_id(doc, "loops", loop_id):
        current = loop.get("back") if isinstance(loop.get("back"), list) else []
        loop["back"] = _document_order(_toggle(current, edge_id, on), order)
    return None


def set_bar(doc: dict, op: dict) -> None:
    """Replace the loop's whole bar, or remove it (absent or null)."""
    loop_id = read_loop(arg(op, "loop"), "loop", doc)
    bar = arg(op, "bar")
    if bar is ABSENT or bar is None:
        for loop in all_with_id(doc, "loops", loop_id):
            loop.pop("bar", None)
        return None
    bar = read_object(bar, "bar")
    for loop in all_with_id(doc, "loops", loop_id):
        loop["bar"] = copy.deepcopy(bar)
    return None
