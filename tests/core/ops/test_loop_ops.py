"""addLoop, setLoopName, updateLoop, removeLoop, toggleLoopMember, toggleLoopBack, setBar (§5.4)."""

from .helpers import base_doc, loop, ok, refused


def test_add_loop_with_name_keeps_members_order():
    doc, ids = ok(base_doc(), [{"op": "addLoop", "name": "Review round", "members": ["critic", "builder", "critic"]}])
    assert ids == ["review-round"]
    assert loop(doc, "review-round") == {"id": "review-round", "name": "Review round",
                                         "members": ["critic", "builder", "critic"], "back": [], "stops": []}


def test_add_loop_without_name():
    doc, ids = ok(base_doc(), [{"op": "addLoop"}, {"op": "addLoop"}, {"op": "addLoop", "id": "mine"}])
    assert ids == ["loop", "loop-2", "mine"]
    assert [lp["name"] for lp in doc["loops"][1:]] == ["Loop", "Loop 2", "Loop"]
    assert doc["loops"][1]["members"] == []


def test_add_loop_set_applied():
    doc, _ = ok(base_doc(), [{"op": "addLoop", "name": "R", "set": {"mode": "judgment", "back": ["handpicked"]}}])
    assert loop(doc, "r")["mode"] == "judgment" and loop(doc, "r")["back"] == ["handpicked"]


def test_add_loop_refusals():
    assert refused(base_doc(), [{"op": "addLoop", "members": ["builder", "critc"]}]).message == \
        '"members[1]": no node "critc"; did you mean "critic"?'
    assert refused(base_doc(), [{"op": "addLoop", "members": ["builder", 3]}]).message == \
        '"members[1]" must be a node id, got 3'
    assert refused(base_doc(), [{"op": "addLoop", "name": "X", "set": {"id": "y"}}]).message.startswith('"set" cannot')


def test_set_loop_name_follows_and_updates_scopes():
    doc, ids = ok(base_doc(), [{"op": "setLoopName", "id": "fix", "name": "Repair"}])
    assert ids == ["repair"]
    assert {p["id"]: p["scope"] for p in doc["policies"]}["p-loop"] == "loop:repair"


def test_set_loop_name_hand_chosen_id_stays():
    doc = base_doc()
    doc["loops"][0]["name"] = "Something else"
    new, ids = ok(doc, [{"op": "setLoopName", "id": "fix", "name": "Repair"}])
    assert ids == ["fix"] and loop(new, "fix")["name"] == "Repair"
    assert refused(doc, [{"op": "setLoopName", "id": "fxi", "name": "R"}]).message.startswith('"id": no loop "fxi"')


def test_update_loop():
    doc, ids = ok(base_doc(), [{"op": "updateLoop", "id": "fix", "set": {"mode": "grind", "bar": None}}])
    assert loop(doc, "fix")["mode"] == "grind" and "bar" not in loop(doc, "fix") and ids == [None]
    assert refused(base_doc(), [{"op": "updateLoop", "id": "fix", "set": {"id": "x"}}]).message.startswith('"set" cannot')


def test_remove_loop_keeps_back_edges_and_removes_loop_policies():
    doc, _ = ok(base_doc(), [{"op": "removeLoop", "id": "fix"}])
    assert doc["loops"] == []
    assert "e-tests-builder" in [e["id"] for e in doc["edges"]]
    assert [p["id"] for p in doc["policies"]] == ["iso", "p-node", "p-edge"]
    assert refused(base_doc(), [{"op": "removeLoop", "id": "nope"}]).message.startswith('"id": no loop')


def test_toggle_loop_member_on_off_flip_and_sort():
    doc, _ = ok(base_doc(), [{"op": "toggleLoopMember", "loop": "fix", "node": "done", "on": True},
                             {"op": "toggleLoopMember", "loop": "fix", "node": "critic"}])
    assert loop(doc, "fix")["members"] == ["builder", "tests", "critic", "done"]
    doc, _ = ok(doc, [{"op": "toggleLoopMember", "loop": "fix", "node": "critic"},
                      {"op": "toggleLoopMember", "loop": "fix", "node": "builder", "on": False},
                      {"op": "toggleLoopMember", "loop": "fix", "node": "builder", "on": False}])
    assert loop(doc, "fix")["members"] == ["tests", "done"]


def test_toggle_loop_member_always_resorts_unknown_last():
    doc = base_doc()
    doc["loops"][0]["members"] = ["ghost", "tests", "builder"]
    new, _ = ok(doc, [{"op": "toggleLoopMember", "loop": "fix", "node": "tests", "on": True}])
    assert loop(new, "fix")["members"] == ["builder", "tests", "ghost"]


def test_toggle_loop_member_refusals():
    assert refused(base_doc(), [{"op": "toggleLoopMember", "loop": "fix", "node": "ghost"}]).message.startswith(
        '"node": no node "ghost"')
    assert refused(base_doc(), [{"op": "toggleLoopMember", "loop": "fxx", "node": "done"}]).message.startswith(
        '"loop": no loop')


def test_toggle_loop_back_sorts_by_edge_order():
    doc, _ = ok(base_doc(), [{"op": "toggleLoopBack", "loop": "fix", "edge": "e-builder-tests", "on": True}])
    assert loop(doc, "fix")["back"] == ["e-builder-tests", "e-tests-builder"]
    doc, _ = ok(doc, [{"op": "toggleLoopBack", "loop": "fix", "edge": "e-tests-builder"}])
    assert loop(doc, "fix")["back"] == ["e-builder-tests"]
    assert refused(doc, [{"op": "toggleLoopBack", "loop": "fix", "edge": "e-x"}]).message.startswith('"edge": no edge')


def test_set_bar_replaces_and_removes():
    bar = {"name": "B", "inspects": [], "acceptance": "ok"}
    doc, _ = ok(base_doc(), [{"op": "setBar", "loop": "fix", "bar": bar}])
    assert loop(doc, "fix")["bar"] == bar
    doc, _ = ok(doc, [{"op": "setBar", "loop": "fix", "bar": None}])
    assert "bar" not in loop(doc, "fix")
    doc, _ = ok(base_doc(), [{"op": "setBar", "loop": "fix"}])
    assert "bar" not in loop(doc, "fix")
    assert refused(base_doc(), [{"op": "setBar", "loop": "fix", "bar": "x"}]).message == '"bar" must be an object, got "x"'
