"""The brake check (operations.md §8.1 table, §8.2 item 5): it must catch every kind of loosening,
and let tightening through."""

import copy

import pytest

from grooph_core.ops import apply
from grooph_core.ops.brakes import loosened

from .helpers import base_doc


def braked() -> dict:
    d = base_doc()
    d["nodes"] += [
        {"id": "gate", "kind": "human-gate", "name": "Gate", "prompt": "Ship?", "options": ["ship", "hold"]},
        {"id": "pub", "kind": "agent", "name": "Pub", "role": "builder", "brief": "Publish.", "outputs": ["r"],
         "allow": ["write-outputs"], "deny": ["web"], "irreversible": ["publish"]},
    ]
    d["edges"] += [{"id": "e-gate-pub", "from": "gate", "to": "pub", "approval": True},
                   {"id": "e-critic-gate", "from": "critic", "to": "gate"}]
    d["edges"][2]["evidence"] = ["out.txt"]                      # e-tests-critic: into the critic
    d["loops"][0]["stops"].append({"kind": "human", "every": 2})
    return d


def change(ops):
    result = apply(braked(), ops)
    assert result.ok, result.error
    return loosened(braked(), result.doc)


@pytest.mark.parametrize("ops, phrase", [
    ([{"op": "removeNode", "id": "gate"}], "human gate"),
    ([{"op": "updateNode", "id": "gate", "set": {"options": ["ship"]}}], "option"),
    ([{"op": "updateEdge", "id": "e-gate-pub", "set": {"approval": False}}], "approval"),
    ([{"op": "updateEdge", "id": "e-gate-pub", "set": {"approval": None}}], "approval"),
    ([{"op": "connect", "from": "gate", "to": "pub"}], "without approval"),
    ([{"op": "updateNode", "id": "pub", "set": {"irreversible": []}}], "irreversible"),
    ([{"op": "updateNode", "id": "pub", "set": {"deny": None}}], "denied"),
    ([{"op": "removeStop", "loop": "fix", "index": 0}], "stop 0"),
    ([{"op": "setStop", "loop": "fix", "index": 0, "stop": {"kind": "max-iterations", "n": 9, "then": "critic"}}], "raised"),
    ([{"op": "setStop", "loop": "fix", "index": 1, "stop": {"kind": "budget", "measure": "dispatches", "limit": 99}}], "budget"),
    ([{"op": "setStop", "loop": "fix", "index": 1, "stop": {"kind": "budget", "measure": "usd", "limit": 9}}], "budget"),
    ([{"op": "setStop", "loop": "fix", "index": 1, "stop": {"kind": "budget", "measure": "dispatches", "limit": 9, "then": "done"}}], "given a then"),
    ([{"op": "moveStop", "loop": "fix", "index": 0, "delta": 1}], "moved"),
    ([{"op": "setStop", "loop": "fix", "index": 2, "stop": {"kind": "human", "every": 5}}], "rarer"),
    ([{"op": "setBar", "loop": "fix"}], "bar"),
    ([{"op": "setBar", "loop": "fix", "bar": {"name": "Green", "inspects": [], "acceptance": "All pass."}}], "inspects"),
    ([{"op": "setBar", "loop": "fix", "bar": {"name": "Green", "inspects": [{"kind": "file", "ref": "report.txt"}], "acceptance": "Most pass."}}], "acceptance"),
    ([{"op": "toggleLoopBack", "loop": "fix", "edge": "e-tests-builder", "on": False}], "back edge"),
    ([{"op": "toggleLoopMember", "loop": "fix", "node": "builder", "on": False}], "member"),
    ([{"op": "removeLoop", "id": "fix"}], "loop"),
    ([{"op": "removePolicy", "id": "iso"}], "critic-isolation"),
    ([{"op": "updateEdge", "id": "e-tests-critic", "set": {"isolation": "shared"}}], "shared"),
    ([{"op": "updateEdge", "id": "e-tests-critic", "set": {"evidence": []}}], "evidence"),
    ([{"op": "updateNode", "id": "tests", "set": {"check": {"kind": "tests", "run": "true", "pass": "exit 0"}}}], "check"),
    ([{"op": "updateEdge", "id": "e-tests-critic", "set": {"when": "always"}}], "leaving check"),
    ([{"op": "removePolicy", "id": "p-node"}], "policy"),
    ([{"op": "removePolicy", "id": "p-node"}, {"op": "addPolicy", "kind": "evidence-required", "scope": "node:builder", "id": "p-node"}], "scope"),
])
def test_each_loosening_is_caught(ops, phrase):
    found = change(ops)
    assert found and any(phrase in f for f in found), found


@pytest.mark.parametrize("ops", [
    [{"op": "addStop", "loop": "fix", "kind": "budget"}],
    [{"op": "setStop", "loop": "fix", "index": 0, "stop": {"kind": "max-iterations", "n": 2, "then": "critic"}}],
    [{"op": "updateEdge", "id": "e-builder-tests", "set": {"approval": True}}],
    [{"op": "addPolicy", "kind": "critic-isolation", "scope": "graph"}],
    [{"op": "updateEdge", "id": "e-tests-critic", "set": {"evidence": ["out.txt", "log"]}}],
    [{"op": "addNode", "kind": "human-gate", "name": "Another"}],
    [{"op": "updateNode", "id": "builder", "set": {"x-node": None, "brief": "Better."}}],
])
def test_tightening_and_neutral_edits_pass(ops):
    assert change(ops) == []


def test_correcting_a_dangling_reference_is_not_loosening():
    d = braked()
    d["policies"][1]["scope"] = "node:critc"
    d["loops"][0]["back"].append("e-nope")
    fixed = copy.deepcopy(d)
    fixed["policies"] = [p for p in fixed["policies"] if p["id"] != "p-node"] + \
        [{"id": "p-node", "kind": "evidence-required", "scope": "node:critic"}]
    fixed["loops"][0]["back"].remove("e-nope")
    assert loosened(d, fixed) == []


def test_renames_are_followed():
    result = apply(braked(), [{"op": "renameId", "from": "gate", "to": "approve"}])
    assert loosened(braked(), result.doc) != []
    assert loosened(braked(), result.doc, {"gate": "approve", "e-gate-pub": "e-approve-pub",
                                           "e-critic-gate": "e-critic-approve"}) == []
