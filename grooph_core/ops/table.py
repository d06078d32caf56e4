"""The 26 operations in one table (operations.md §2.2): name → argument names and implementation.

The order is the spec's: it is used for the "missing op" message and for suggestions. The argument
tuple is the list the "unknown argument" message quotes; each op reads its arguments in its own order.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from grooph_core.ops import edge_ops, graph_ops, layout_ops, loop_ops, node_ops, policy_ops, rename, stop_ops


@dataclass(frozen=True)
class OpSpec:
    """One operation: its name, its argument names (§2.2 order) and the function that applies it."""

    name: str
    args: tuple[str, ...]
    run: Callable[[dict, dict], object]


OPS: tuple[OpSpec, ...] = (
    OpSpec("setGraphName", ("name",), graph_ops.set_graph_name),
    OpSpec("setGraphField", ("key", "value"), graph_ops.set_graph_field),
    OpSpec("setTarget", ("harness",), graph_ops.set_target),
    OpSpec("setConstraint", ("key", "value"), graph_ops.set_constraint),
    OpSpec("addNode", ("kind", "name", "id", "at", "set"), node_ops.add_node),
    OpSpec("setNodeName", ("id", "name"), node_ops.set_node_name),
    OpSpec("updateNode", ("id", "set"), node_ops.update_node),
    OpSpec("removeNode", ("id",), node_ops.remove_node),
    OpSpec("connect", ("from", "to", "id", "set"), edge_ops.connect),
    OpSpec("updateEdge", ("id", "set"), edge_ops.update_edge),
    OpSpec("removeEdge", ("id",), edge_ops.remove_edge),
    OpSpec("addLoop", ("members", "name", "id", "set"), loop_ops.add_loop),
    OpSpec("setLoopName", ("id", "name"), loop_ops.set_loop_name),
    OpSpec("updateLoop", ("id", "set"), loop_ops.update_loop),
    OpSpec("removeLoop", ("id",), loop_ops.remove_loop),
    OpSpec("toggleLoopMember", ("loop", "node", "on"), loop_ops.toggle_loop_member),
    OpSpec("toggleLoopBack", ("loop", "edge", "on"), loop_ops.toggle_loop_back),
    OpSpec("setBar", ("loop", "bar"), loop_ops.set_bar),
    OpSpec("addStop", ("loop", "kind", "set"), stop_ops.add_stop),
    OpSpec("setStop", ("loop", "index", "stop"), stop_ops.set_stop),
    OpSpec("removeStop", ("loop", "index"), stop_ops.remove_stop),
    OpSpec("moveStop", ("loop", "index", "delta"), stop_ops.move_stop),
    OpSpec("addPolicy", ("kind", "scope", "params", "id"), policy_ops.add_policy),
    OpSpec("removePolicy", ("id",), policy_ops.remove_policy),
    OpSpec("setPositions", ("positions",), layout_ops.set_positions),
    OpSpec("renameId", ("from", "to"), rename.rename_id_op),
)

OP_NAMES: tuple[str, ...] = tuple(o.name for o in OPS)
BY_NAME: dict[str, OpSpec] = {o.name: o for o in OPS}
