"""addNode, setNodeName, updateNode, removeNode (operations.md §5.2)."""

import pytest

from .helpers import base_doc, edge, loop, node, ok, refused


@pytest.mark.parametrize("kind, start", [
    ("agent", {"role": "builder", "brief": "", "outputs": []}),
    ("human-gate", {"prompt": ""}),
    ("check", {"check": {"kind": "tests", "pass": ""}}),
    ("merge", {"merges": []}),
    ("stop", {}),
])
def test_add_node_starting_values_and_key_order(kind, start):
    doc, ids = ok(base_doc(), [{"op": "addNode", "kind": kind, "name": "New one"}])
    added = doc["nodes"][-1]
    assert added == {"id": "new-one", "kind": kind, "name": "New one", **start}
    assert list(added) == ["id", "kind", "name", *start]
    assert ids == ["new-one"]


def test_add_node_without_name_uses_kind_label_and_numbers_it():
    doc, ids = ok(base_doc(), [{"op": "addNode", "kind": "human-gate"}, {"op": "addNode", "kind": "human-gate"},
                               {"op": "addNode", "kind": "stop"}])
    assert ids == ["human-gate", "human-gate-2", "stop"]
    assert [n["name"] for n in doc["nodes"][-3:]] == ["Human gate", "Human gate 2", "Stop"]


def test_add_node_with_id_and_no_name_is_named_by_label():
    doc, ids = ok(base_doc(), [{"op": "addNode", "kind": "merge", "id": "join-3"}])
    assert ids == ["join-3"] and node(doc, "join-3")["name"] == "Merge"


def test_add_node_name_slug_collision_and_fallback():
    doc, ids = ok(base_doc(), [{"op": "addNode", "kind": "stop", "name": "Done"},
                               {"op": "addNode", "kind": "agent", "name": "!!!", "set": {"outputs": ["o"]}}])
    assert ids == ["done-2", "agent"]


def test_add_node_set_is_applied_after_creation():
    doc, _ = ok(base_doc(), [{"op": "addNode", "kind": "agent", "name": "Writer",
                              "set": {"brief": "Write.", "outputs": ["a.md"], "role": None, "zz": 1}}])
    assert node(doc, "writer") == {"id": "writer", "kind": "agent", "name": "Writer", "brief": "Write.",
                                   "outputs": ["a.md"], "zz": 1}


def test_add_node_at_writes_layout_only_when_layout_exists():
    doc, _ = ok(base_doc(), [{"op": "addNode", "kind": "stop", "name": "End", "at": {"x": 2.5, "y": -2.5}}])
    assert doc["layout"]["end"] == {"x": 3, "y": -2}
    plain = base_doc()
    del plain["layout"]
    doc, _ = ok(plain, [{"op": "addNode", "kind": "stop", "name": "End", "at": {"x": 1, "y": 1}}])
    assert "layout" not in doc
    assert refused(plain, [{"op": "addNode", "kind": "stop", "at": [1, 2]}]).message.startswith('"at" must be')


def test_add_node_refusals_in_reading_order():
    # kind is read first
    assert refused(base_doc(), [{"op": "addNode", "id": "Bad", "kind": "x"}]).message.startswith('"kind"')
    # then at, then name, then id, then set
    assert refused(base_doc(), [{"op": "addNode", "kind": "stop", "name": 1, "at": 5}]).message.startswith('"at"')
    assert refused(base_doc(), [{"op": "addNode", "kind": "stop", "name": 1, "id": "Bad"}]).message.startswith('"name"')
    assert refused(base_doc(), [{"op": "addNode", "kind": "stop", "id": "Bad", "set": 1}]).message.startswith('"id"')
    assert refused(base_doc(), [{"op": "addNode", "kind": "stop", "set": {"kind": "x"}}]).message.startswith('"set"')


def test_set_node_name_follows_and_renames_derived_edges():
    doc, ids = ok(base_doc(), [{"op": "setNodeName", "id": "tests", "name": "Unit tests"}])
    assert ids == ["unit-tests"]
    assert node(doc, "unit-tests")["name"] == "Unit tests"
    assert [e["id"] for e in doc["edges"]] == ["e-builder-unit-tests", "e-unit-tests-builder", "e-unit-tests-critic",
                                              "handpicked"]
    fix = loop(doc, "fix")
    assert fix["members"] == ["builder", "unit-tests"] and fix["back"] == ["e-unit-tests-builder"]
    assert fix["bar"]["answerKeyFrom"] == "unit-tests"
    assert {p["id"]: p["scope"] for p in doc["policies"]}["p-edge"] == "edge:e-unit-tests-critic"
    assert doc["groups"][0]["members"] == ["builder", "unit-tests"]


def test_set_node_name_hand_chosen_id_stays():
    doc = base_doc()
    new, ids = ok(doc, [{"op": "setNodeName", "id": "done", "name": "Finished"}])
    assert ids == ["finished"]  # `done` followed "Done"
    doc["nodes"][3]["id"] = "the-end"
    doc["edges"][3]["to"] = "the-end"
    new, ids = ok(doc, [{"op": "setNodeName", "id": "the-end", "name": "Finished"}])
    assert ids == ["the-end"] and node(new, "the-end")["name"] == "Finished"


def test_set_node_name_same_slug_keeps_id():
    doc, ids = ok(base_doc(), [{"op": "setNodeName", "id": "builder", "name": "BUILDER!"}])
    assert ids == ["builder"] and node(doc, "builder")["name"] == "BUILDER!"


def test_set_node_name_suffix_follows():
    doc = base_doc()
    doc["nodes"][0]["id"] = "builder-2"
    doc["edges"][0]["from"] = "builder-2"
    doc["edges"][0]["id"] = "e-builder-2-tests"
    new, ids = ok(doc, [{"op": "setNodeName", "id": "builder-2", "name": "Maker"}])
    assert ids == ["maker"] and new["edges"][0]["id"] == "e-maker-tests"


def test_set_node_name_refusals():
    assert refused(base_doc(), [{"op": "setNodeName", "id": "ghost", "name": "x"}]).message.startswith('"id": no node')
    assert refused(base_doc(), [{"op": "setNodeName", "id": "done"}]).message == '"name" must be a string, got nothing'


def test_update_node_patch_semantics():
    doc, ids = ok(base_doc(), [{"op": "updateNode", "id": "builder",
                                "set": {"model": {"tier": "fast"}, "allow": None, "brief": "New.", "deny": []}}])
    b = node(doc, "builder")
    assert b["model"] == {"tier": "fast"} and "allow" not in b and b["brief"] == "New." and b["deny"] == []
    assert list(b)[-2:] == ["model", "deny"] and b["x-node"] == 1
    assert ids == [None]


def test_update_node_replaces_nested_objects_whole():
    doc = base_doc()
    doc["nodes"][0]["model"] = {"tier": "strong", "pin": {"codex": "x"}}
    new, _ = ok(doc, [{"op": "updateNode", "id": "builder", "set": {"model": {"tier": "frontier"}}}])
    assert node(new, "builder")["model"] == {"tier": "frontier"}


def test_update_node_acts_on_every_node_with_the_id():
    doc = base_doc()
    doc["nodes"].append({"id": "builder", "kind": "stop", "name": "Dup"})
    new, _ = ok(doc, [{"op": "updateNode", "id": "builder", "set": {"description": "d"}}])
    assert [n.get("description") for n in new["nodes"] if n["id"] == "builder"] == ["d", "d"]


def test_update_node_refusals():
    assert refused(base_doc(), [{"op": "updateNode", "id": "builder"}]).message == '"set" must be an object, got nothing'
    assert "renameId" in refused(base_doc(), [{"op": "updateNode", "id": "builder", "set": {"id": "x"}}]).message


def test_remove_node_cascade_of_section_5_9():
    doc, ids = ok(base_doc(), [{"op": "removeNode", "id": "tests"}])
    assert ids == [None]
    assert [n["id"] for n in doc["nodes"]] == ["builder", "critic", "done"]
    assert [e["id"] for e in doc["edges"]] == ["handpicked"]     # every edge at `tests` went
    fix = loop(doc, "fix")
    assert fix["members"] == ["builder"] and fix["back"] == []   # membership and back entry went
    assert "answerKeyFrom" not in fix["bar"]                       # answer key pointed at it
    assert [p["id"] for p in doc["policies"]] == ["iso", "p-node", "p-loop"]  # edge-scoped policy went
    assert doc["groups"][0]["members"] == ["builder"]
    assert doc["notes"][0]["at"] == "node:critic"


def test_remove_node_then_and_layout_and_node_policies():
    doc, _ = ok(base_doc(), [{"op": "removeNode", "id": "critic"}])
    assert loop(doc, "fix")["stops"][0] == {"kind": "max-iterations", "n": 3}   # lost its then
    assert "critic" not in doc["layout"] and "builder" in doc["layout"]
    assert [p["id"] for p in doc["policies"]] == ["iso", "p-loop"]
    assert doc["notes"] == base_doc()["notes"]                   # run notes untouched


def test_remove_node_leaves_emptied_containers():
    doc, _ = ok(base_doc(), [{"op": "removeNode", "id": "builder"}, {"op": "removeNode", "id": "tests"},
                             {"op": "removeNode", "id": "critic"}, {"op": "removeNode", "id": "done"},
                             {"op": "removePolicy", "id": "iso"}])
    assert doc["nodes"] == [] and doc["edges"] == []
    assert loop(doc, "fix")["members"] == []                     # loops are never removed
    assert doc["groups"][0]["members"] == []                     # emptied groups stay
    assert doc["layout"] == {"x-stale": {"x": 1, "y": 1}}
    assert doc["policies"] == [{"id": "p-loop", "kind": "concurrency-cap", "scope": "loop:fix"}]


def test_remove_node_refusal():
    assert refused(base_doc(), [{"op": "removeNode", "id": "critc"}]).message == \
        '"id": no node "critc"; did you mean "critic"?'
