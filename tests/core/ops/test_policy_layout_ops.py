"""addPolicy, removePolicy (operations.md §5.6) and setPositions (§5.7)."""

import pytest

from .helpers import base_doc, ok, refused


def test_add_policy_derived_id_and_params():
    doc, ids = ok(base_doc(), [{"op": "addPolicy", "kind": "no-self-grading", "scope": "graph"},
                               {"op": "addPolicy", "kind": "no-self-grading", "scope": "loop:fix", "params": {"a": 1}},
                               {"op": "addPolicy", "kind": {"custom": "Ask Maya", "junk": 1}, "scope": "node:ghost"},
                               {"op": "addPolicy", "kind": {"custom": "!!!"}, "scope": "graph", "id": "mine"}])
    assert ids == ["p-no-self-grading", "p-no-self-grading-2", "p-ask-maya", "mine"]
    assert doc["policies"][-3] == {"id": "p-no-self-grading-2", "kind": "no-self-grading", "scope": "loop:fix",
                                   "params": {"a": 1}}
    assert doc["policies"][-2] == {"id": "p-ask-maya", "kind": {"custom": "Ask Maya"}, "scope": "node:ghost"}


def test_add_policy_creates_the_list():
    doc = base_doc()
    del doc["policies"]
    new, ids = ok(doc, [{"op": "addPolicy", "kind": {"custom": "!!!"}, "scope": "graph"}])
    assert new["policies"] == [{"id": "p-policy", "kind": {"custom": "!!!"}, "scope": "graph"}]


@pytest.mark.parametrize("op, start", [
    ({"op": "addPolicy", "kind": "", "scope": "graph"}, '"kind" must be a policy kind'),
    ({"op": "addPolicy", "kind": {"custom": 1}, "scope": "graph"}, '"kind" must be a policy kind'),
    ({"op": "addPolicy", "scope": "graph"}, '"kind" must be a policy kind'),
    ({"op": "addPolicy", "kind": "x", "scope": 1}, '"scope" must be a string'),
    ({"op": "addPolicy", "kind": "x", "scope": "node:Bad"}, '"scope" must be graph, loop:<id>, node:<id> or edge:<id>, got "node:Bad"'),
    ({"op": "addPolicy", "kind": "x", "scope": "graph", "params": []}, '"params" must be an object, got a list'),
    ({"op": "addPolicy", "kind": "x", "scope": "graph", "id": "iso"}, '"id": the id "iso" is already used'),
])
def test_add_policy_refusals(op, start):
    assert refused(base_doc(), [op]).message.startswith(start)


def test_remove_policy_removes_emptied_key():
    doc, ids = ok(base_doc(), [{"op": "removePolicy", "id": "iso"}])
    assert [p["id"] for p in doc["policies"]] == ["p-node", "p-edge", "p-loop"] and ids == [None]
    doc, _ = ok(doc, [{"op": "removePolicy", "id": i} for i in ("p-node", "p-edge", "p-loop")])
    assert "policies" not in doc


def test_set_positions_rounds_halves_up_and_keeps_box_fields():
    doc, ids = ok(base_doc(), [{"op": "setPositions", "positions": {
        "builder": {"x": 2.5, "y": -2.5, "ignored": 1}, "done": {"x": -0.4, "y": 0.49999999999999994}}}])
    assert doc["layout"]["builder"] == {"x": 3, "y": -2, "w": 10}
    assert doc["layout"]["done"] == {"x": 0, "y": 0}
    assert ids == [None]


def test_set_positions_creates_layout():
    doc = base_doc()
    del doc["layout"]
    new, _ = ok(doc, [{"op": "setPositions", "positions": {"critic": {"x": 1, "y": 2}}}])
    assert new["layout"] == {"critic": {"x": 1, "y": 2}}


def test_set_positions_refusals():
    assert refused(base_doc(), [{"op": "setPositions", "positions": {"ghost": {"x": 1, "y": 1}}}]).message.startswith(
        '"positions key": no node "ghost"')
    assert refused(base_doc(), [{"op": "setPositions", "positions": {"done": {"x": "1", "y": 1}}}]).message.startswith(
        '"positions.done" must be {"x": number, "y": number}')
    assert refused(base_doc(), [{"op": "setPositions", "positions": []}]).message == '"positions" must be an object, got a list'
