"""The contract of `apply` (operations.md §1): order, all or nothing, the ids reply, untouched keys."""

import copy
import json

import pytest

from grooph_core.ops import apply

from .helpers import base_doc, ok, refused

# One op of each of the 26 kinds, each valid on base_doc() (used for "unknown keys survive").
EVERY_OP = [
    {"op": "setGraphName", "name": "Review"},
    {"op": "setGraphField", "key": "goal", "value": "g"},
    {"op": "setTarget", "harness": "codex"},
    {"op": "setConstraint", "key": "time", "value": "1h"},
    {"op": "addNode", "kind": "stop", "name": "End"},
    {"op": "setNodeName", "id": "critic", "name": "Critic two"},
    {"op": "updateNode", "id": "builder", "set": {"brief": "b"}},
    {"op": "removeNode", "id": "done"},
    {"op": "connect", "from": "builder", "to": "tests"},
    {"op": "updateEdge", "id": "e-builder-tests", "set": {"label": "go"}},
    {"op": "removeEdge", "id": "e-tests-critic"},
    {"op": "addLoop", "name": "Other"},
    {"op": "setLoopName", "id": "fix", "name": "Fix"},
    {"op": "updateLoop", "id": "fix", "set": {"mode": "grind"}},
    {"op": "removeLoop", "id": "fix"},
    {"op": "toggleLoopMember", "loop": "fix", "node": "critic"},
    {"op": "toggleLoopBack", "loop": "fix", "edge": "e-builder-tests", "on": True},
    {"op": "setBar", "loop": "fix", "bar": {"name": "B", "inspects": [], "acceptance": "a"}},
    {"op": "addStop", "loop": "fix", "kind": "human"},
    {"op": "setStop", "loop": "fix", "index": 1, "stop": {"kind": "budget", "measure": "usd", "limit": 2, "x-stop": "s"}},
    {"op": "removeStop", "loop": "fix", "index": 0},
    {"op": "moveStop", "loop": "fix", "index": 0, "delta": 1},
    {"op": "addPolicy", "kind": "evidence-required", "scope": "graph"},
    {"op": "removePolicy", "id": "p-node"},
    {"op": "setPositions", "positions": {"builder": {"x": 1, "y": 1}}},
    {"op": "renameId", "from": "work", "to": "crew"},
]

UNKNOWN_KEYS = {  # where base_doc() carries an unknown key -> how to find the holder in a result
    "x-root": lambda d: d,
    "x-node": lambda d: next(n for n in d["nodes"] if n["name"] == "Builder"),
    "x-check": lambda d: next(n for n in d["nodes"] if n["name"] == "Tests")["check"],
    "x-edge": lambda d: next(e for e in d["edges"] if e["from"] == "builder" and e["to"] == "tests"),
    "x-bar": lambda d: d["loops"][0]["bar"],
    "x-loop": lambda d: d["loops"][0],
    "x-group": lambda d: d["groups"][0],
    "x-stale": lambda d: d["layout"],
}


def test_every_op_kind_is_exercised():
    from grooph_core.ops import OP_NAMES
    assert sorted(o["op"] for o in EVERY_OP) == sorted(OP_NAMES)


@pytest.mark.parametrize("op", EVERY_OP, ids=[o["op"] for o in EVERY_OP])
def test_unknown_keys_survive_every_op(op):
    doc, _ = ok(base_doc(), [op])
    original = base_doc()
    for key, holder in UNKNOWN_KEYS.items():
        try:
            where = holder(doc)
        except (StopIteration, IndexError, KeyError):
            continue  # the op removed the holder itself (removeLoop, removeNode, …)
        if op["op"] == "updateLoop" and key == "x-bar":
            continue
        if op["op"] == "setBar" and key == "x-bar":
            continue
        assert where.get(key) == holder(original)[key], (op, key)
    stop_key = [s for lp in doc["loops"] for s in lp["stops"] if "x-stop" in s]
    if op["op"] not in ("removeLoop", "removeStop"):
        assert stop_key, op


def test_all_ops_in_one_list_apply_in_order():
    ops = [o for o in EVERY_OP if o["op"] not in ("removeLoop", "removeNode", "setNodeName")]
    doc, ids = ok(base_doc(), ops)
    assert len(ids) == len(ops)
    assert doc["x-root"] == {"keep": True}


def test_failure_at_index_k_leaves_the_document_unchanged_and_names_k():
    doc = base_doc()
    snapshot = json.dumps(doc, sort_keys=True)
    ops = [{"op": "addNode", "kind": "stop", "name": "End"},
           {"op": "removeNode", "id": "builder"},
           {"op": "connect", "from": "builder", "to": "end"},     # builder is gone in the evolving doc
           {"op": "setGraphName", "name": "Never"}]
    result = apply(doc, ops)
    assert not result.ok and result.doc is None and result.ids == ()
    assert result.error.index == 2 and result.error.op == "connect"
    assert result.error.message == '"from": no node "builder"'
    assert result.error.line() == 'ops[2] connect: "from": no node "builder"'
    assert json.dumps(doc, sort_keys=True) == snapshot


def test_later_ops_see_earlier_results():
    doc, ids = ok(base_doc(), [{"op": "addNode", "kind": "agent", "name": "Reviewer", "set": {"outputs": ["r"]}},
                               {"op": "connect", "from": "reviewer", "to": "done"},
                               {"op": "setNodeName", "id": "reviewer", "name": "Second look"},
                               {"op": "updateEdge", "id": "e-second-look-done", "set": {"label": "ok"}}])
    assert ids == ["reviewer", "e-reviewer-done", "second-look", None]


def test_empty_list_succeeds_unchanged():
    result = apply(base_doc(), [])
    assert result.ok and result.doc == base_doc() and result.ids == ()


def test_result_never_shares_structure_with_input_or_ops():
    doc = base_doc()
    patch_value = {"tier": "fast"}
    ops = [{"op": "updateNode", "id": "builder", "set": {"model": patch_value}}]
    result = apply(doc, ops)
    result.doc["nodes"][0]["model"]["tier"] = "changed"
    result.doc["nodes"][1]["check"]["run"] = "changed"
    assert patch_value == {"tier": "fast"} and doc == base_doc()


def test_apply_does_not_validate():
    doc, ids = ok(base_doc(), [{"op": "addNode", "kind": "agent"},                   # empty outputs
                               {"op": "updateNode", "id": "agent", "set": {"role": 5}},
                               {"op": "connect", "from": "agent", "to": "agent"}])
    assert ids == ["agent", None, "e-agent-agent"]


def test_ops_not_a_list():
    result = apply(base_doc(), {"op": "addNode"})
    assert not result.ok and result.error.index == -1


def test_deterministic():
    ops = EVERY_OP[:12]
    a, b = apply(base_doc(), ops), apply(base_doc(), copy.deepcopy(ops))
    assert json.dumps(a.doc) == json.dumps(b.doc) and a.ids == b.ids
