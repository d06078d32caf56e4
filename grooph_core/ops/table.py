"""The 26 operations in one table (operations.md §2.2): name → argument names, what each is, what the
op does, a worked example, and the implementation.

The order is the spec's: it is used for the "missing op" message and for suggestions. The argument
tuple is the list the "unknown argument" message quotes; each op reads its arguments in its own order.
The summaries, argument texts and examples are what `grooph help apply` and the generated reference
(grooph_core/docs/ops.md, `python -m grooph_core.docs.generate`) print; every example is applied
to EXAMPLE_GRAPH by a test, so none can go stale.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from grooph_core.ops import edge_ops, graph_ops, layout_ops, loop_ops, node_ops, policy_ops, rename, stop_ops
from grooph_core.ops.graph_ops import ADAPTATIONS, CONSTRAINT_KEYS, GRAPH_FIELDS
from grooph_core.ops.ids import KIND_LABELS
from grooph_core.ops.stop_ops import STOP_DEFAULTS

# The graph every worked example starts from (a shipped fixture: a fix-and-test loop with three stops).
EXAMPLE_GRAPH = "fixtures/valid/grind-loop-with-check-and-budget.grooph.json"


def _words(values) -> str:
    return " | ".join(values)


NODE_KINDS, STOP_KINDS = _words(KIND_LABELS), _words(STOP_DEFAULTS)
PATCH = "object of fields to set (null removes a field; a value replaces the field whole)"


@dataclass(frozen=True)
class OpSpec:
    """One operation: its name, its argument names (§2.2 order) and the function that applies it; for
    people, a one-line summary, one text per argument (same order) and a worked example (an op list)."""

    name: str
    args: tuple[str, ...]
    run: Callable[[dict, dict], object]
    summary: str
    arg_help: tuple[str, ...]
    example: tuple[dict, ...]

    def __post_init__(self):
        if len(self.arg_help) != len(self.args):
            raise ValueError(f"{self.name}: one text per argument ({len(self.args)}), got {len(self.arg_help)}")


OPS: tuple[OpSpec, ...] = (
    OpSpec("setGraphName", ("name",), graph_ops.set_graph_name,
           "rename the graph; its id follows the name when it was derived from the old one",
           ("string, required: the new name",),
           ({"op": "setGraphName", "name": "Make CI green again"},)),
    OpSpec("setGraphField", ("key", "value"), graph_ops.set_graph_field,
           "set or remove one top-level field of the graph",
           (f"required, one of {_words(GRAPH_FIELDS)}",
            f"the value (adaptation: one of {_words(ADAPTATIONS)}; lineage: an object; the others: a string); "
            "absent or null removes the field"),
           ({"op": "setGraphField", "key": "description", "value": "Nightly repair of a red main branch."},)),
    OpSpec("setTarget", ("harness",), graph_ops.set_target,
           "set the harness the graph is exported for, or remove the target",
           ("string: the harness name; absent or null removes the whole target",),
           ({"op": "setTarget", "harness": "claude-code"},)),
    OpSpec("setConstraint", ("key", "value"), graph_ops.set_constraint,
           "set or remove one constraint (budget, time, other)",
           (f"required, one of {_words(CONSTRAINT_KEYS)}", "string; absent or null removes the constraint"),
           ({"op": "setConstraint", "key": "time", "value": "one working day"},)),
    OpSpec("addNode", ("kind", "name", "id", "at", "set"), node_ops.add_node,
           "add a node of a kind, with its starting fields; `set` gives the rest",
           (f"required, one of {NODE_KINDS}", "string: the name (default: the kind's label)",
            "new kebab-case id (default: made from the name)",
            '{"x": number, "y": number}: where to draw it (only when the graph has a layout)',
            PATCH + "; not id or kind"),
           ({"op": "addNode", "kind": "human-gate", "name": "Release approval",
             "set": {"prompt": "Ship the fix to main?"}},)),
    OpSpec("setNodeName", ("id", "name"), node_ops.set_node_name,
           "rename a node; its id (and its edges' derived ids) follow when it was derived from the old name",
           ("required: the node's id", "string, required: the new name"),
           ({"op": "setNodeName", "id": "fixer", "name": "Repairer"},)),
    OpSpec("updateNode", ("id", "set"), node_ops.update_node,
           "set or remove fields of a node (role, model, brief, outputs, by …)",
           ("required: the node's id", PATCH + "; not id or kind"),
           ({"op": "updateNode", "id": "fixer", "set": {"effort": "medium", "deny": None}},)),
    OpSpec("removeNode", ("id",), node_ops.remove_node,
           "remove a node, its edges, and every place that names it",
           ("required: the node's id",),
           ({"op": "removeNode", "id": "gave-up"},)),
    OpSpec("connect", ("from", "to", "id", "set"), edge_ops.connect,
           "add an edge between two nodes",
           ("required: the node it leaves", "required: the node it enters",
            "new kebab-case id (default: e-<from>-<to>)", PATCH + " (when, evidence, approval, label …); not id"),
           ({"op": "connect", "from": "fixer", "to": "gave-up", "set": {"when": "fail", "label": "gives up"}},)),
    OpSpec("updateEdge", ("id", "set"), edge_ops.update_edge,
           "set or remove fields of an edge (it may re-route it with from and to)",
           ("required: the edge's id", PATCH + "; not id"),
           ({"op": "updateEdge", "id": "try", "set": {"retry": None, "label": "run the suite"}},)),
    OpSpec("removeEdge", ("id",), edge_ops.remove_edge,
           "remove an edge, its loop back entries and the policies scoped to it",
           ("required: the edge's id",),
           ({"op": "removeEdge", "id": "all-green"},)),
    OpSpec("addLoop", ("members", "name", "id", "set"), loop_ops.add_loop,
           "add a loop over some nodes (no back edge, no stop yet)",
           ("list of node ids (default: none)", "string: the name (default: Loop)",
            "new kebab-case id (default: made from the name)", PATCH + " (mode, back, stops …); not id"),
           ({"op": "addLoop", "members": ["suite"], "name": "Flaky retry", "set": {"mode": "grind"}},)),
    OpSpec("setLoopName", ("id", "name"), loop_ops.set_loop_name,
           "rename a loop; its id follows when it was derived from the old name",
           ("required: the loop's id", "string, required: the new name"),
           ({"op": "setLoopName", "id": "until-green", "name": "Until the suite passes"},)),
    OpSpec("updateLoop", ("id", "set"), loop_ops.update_loop,
           "set or remove fields of a loop (members, back, stops, bar, mode are replaced whole)",
           ("required: the loop's id", PATCH + "; not id"),
           ({"op": "updateLoop", "id": "until-green", "set": {"mode": "grind"}},)),
    OpSpec("removeLoop", ("id",), loop_ops.remove_loop,
           "remove a loop and the policies scoped to it (its back edges stay as plain edges)",
           ("required: the loop's id",),
           ({"op": "removeLoop", "id": "until-green"},)),
    OpSpec("toggleLoopMember", ("loop", "node", "on"), loop_ops.toggle_loop_member,
           "make a node a member of a loop or not; members stay in the nodes' order",
           ("required: the loop's id", "required: the node's id",
            "true adds, false removes, absent flips"),
           ({"op": "toggleLoopMember", "loop": "until-green", "node": "green", "on": True},)),
    OpSpec("toggleLoopBack", ("loop", "edge", "on"), loop_ops.toggle_loop_back,
           "mark an edge as a back edge of a loop or not; back stays in the edges' order",
           ("required: the loop's id", "required: the edge's id", "true adds, false removes, absent flips"),
           ({"op": "toggleLoopBack", "loop": "until-green", "edge": "try", "on": True},)),
    OpSpec("setBar", ("loop", "bar"), loop_ops.set_bar,
           "replace a loop's bar (what it is judged by) whole, or remove it",
           ("required: the loop's id", "object with name, inspects, acceptance; absent or null removes the bar"),
           ({"op": "setBar", "loop": "until-green", "bar": {
               "name": "Suite passes", "inspects": [{"kind": "metric", "ref": "failing test count"}],
               "acceptance": "make test exits 0."}},)),
    OpSpec("addStop", ("loop", "kind", "set"), stop_ops.add_stop,
           "append a stop to a loop, with the kind's bounded defaults",
           ("required: the loop's id", f"required, one of {STOP_KINDS}",
            "object of fields added to the defaults (null values are ignored); not kind"),
           ({"op": "addStop", "loop": "until-green", "kind": "human", "set": {"then": "gave-up"}},)),
    OpSpec("setStop", ("loop", "index", "stop"), stop_ops.set_stop,
           "replace the stop at an index whole",
           ("required: the loop's id", "required: the 0-based index of the stop",
            f"object, required: the whole stop; its kind one of {STOP_KINDS}"),
           ({"op": "setStop", "loop": "until-green", "index": 1, "stop": {"kind": "max-iterations", "n": 8,
                                                                         "then": "gave-up"}},)),
    OpSpec("removeStop", ("loop", "index"), stop_ops.remove_stop,
           "remove the stop at an index; later stops move up",
           ("required: the loop's id", "required: the 0-based index of the stop"),
           ({"op": "removeStop", "loop": "until-green", "index": 0},)),
    OpSpec("moveStop", ("loop", "index", "delta"), stop_ops.move_stop,
           "move a stop one place earlier (-1) or later (1); stops are tried in order",
           ("required: the loop's id", "required: the 0-based index of the stop", "required: -1 or 1"),
           ({"op": "moveStop", "loop": "until-green", "index": 2, "delta": -1},)),
    OpSpec("addPolicy", ("kind", "scope", "params", "id"), policy_ops.add_policy,
           "add a policy over the graph, a loop, a node or an edge",
           ('required: a policy kind such as critic-isolation, or {"custom": "..."}',
            "required: graph, loop:<id>, node:<id> or edge:<id>", "object: the policy's parameters",
            "new kebab-case id (default: p-<kind>)"),
           ({"op": "addPolicy", "kind": "concurrency-cap", "scope": "loop:until-green", "params": {"max": 1}},)),
    OpSpec("removePolicy", ("id",), policy_ops.remove_policy,
           "remove a policy (an emptied policies list is removed too)",
           ("required: the policy's id",),
           ({"op": "addPolicy", "kind": "no-self-grading", "scope": "graph"},
            {"op": "addPolicy", "kind": "concurrency-cap", "scope": "loop:until-green", "params": {"max": 1}},
            {"op": "removePolicy", "id": "p-no-self-grading"})),
    OpSpec("setPositions", ("positions",), layout_ops.set_positions,
           "place nodes in the drawing (creates the layout; x and y rounded to whole numbers)",
           ('object, required: node id → {"x": number, "y": number}',),
           ({"op": "setPositions", "positions": {"fixer": {"x": 0, "y": 0}, "suite": {"x": 0, "y": 120.4}}},)),
    OpSpec("renameId", ("from", "to"), rename.rename_id_op,
           "give an object a new id and rewrite every reference to it",
           ("string, required: the id now", "new kebab-case id, required"),
           ({"op": "renameId", "from": "suite", "to": "test-suite"},)),
)

OP_NAMES: tuple[str, ...] = tuple(o.name for o in OPS)
BY_NAME: dict[str, OpSpec] = {o.name: o for o in OPS}
