"""renameId on every reference kind (operations.md §5.8)."""

from .helpers import base_doc, edge, loop, ok, refused


def test_rename_node_every_place_and_derived_edges():
    doc, ids = ok(base_doc(), [{"op": "renameId", "from": "tests", "to": "checks"}])
    assert ids == ["checks"]
    assert [n["id"] for n in doc["nodes"]] == ["builder", "checks", "critic", "done"]
    assert [(e["id"], e["from"], e["to"]) for e in doc["edges"]] == [
        ("e-builder-checks", "builder", "checks"), ("e-checks-builder", "checks", "builder"),
        ("e-checks-critic", "checks", "critic"), ("handpicked", "critic", "done")]
    fix = loop(doc, "fix")
    assert fix["members"] == ["builder", "checks"]
    assert fix["back"] == ["e-checks-builder"]                      # the derived back edge followed
    assert fix["bar"]["answerKeyFrom"] == "checks"
    scopes = {p["id"]: p["scope"] for p in doc["policies"]}
    assert scopes["p-edge"] == "edge:e-checks-critic"               # edge scope followed the edge rename
    assert doc["groups"][0]["members"] == ["builder", "checks"]


def test_rename_node_stop_then_node_scope_layout_key_order():
    doc, _ = ok(base_doc(), [{"op": "renameId", "from": "critic", "to": "reviewer"}])
    assert loop(doc, "fix")["stops"][0]["then"] == "reviewer"
    assert {p["id"]: p["scope"] for p in doc["policies"]}["p-node"] == "node:reviewer"
    assert list(doc["layout"]) == ["builder", "reviewer", "x-stale"]
    assert doc["layout"]["reviewer"] == {"x": 5, "y": 5}
    assert edge(doc, "handpicked")["from"] == "reviewer"            # hand-picked edge id kept
    assert edge(doc, "e-tests-reviewer")["to"] == "reviewer"
    assert doc["notes"][0]["at"] == "node:critic"                   # run notes are history


def test_rename_edge_loop_group_policy():
    doc, _ = ok(base_doc(), [{"op": "renameId", "from": "e-tests-builder", "to": "e-retry"},
                             {"op": "renameId", "from": "fix", "to": "repair"},
                             {"op": "renameId", "from": "work", "to": "crew"},
                             {"op": "renameId", "from": "iso", "to": "isolation"}])
    assert loop(doc, "repair")["back"] == ["e-retry"]
    assert {p["id"]: p["scope"] for p in doc["policies"]}["p-loop"] == "loop:repair"
    assert doc["groups"][0]["id"] == "crew" and doc["policies"][0]["id"] == "isolation"


def test_rename_group_member_of_another_group():
    doc = base_doc()
    doc["groups"].append({"id": "outer", "name": "Outer", "members": ["work", "done"]})
    new, _ = ok(doc, [{"op": "renameId", "from": "work", "to": "inner"}])
    assert new["groups"][1]["members"] == ["inner", "done"]


def test_rename_graph_id_only_changes_the_graph():
    doc = base_doc()
    doc["nodes"][3]["id"] = "review"   # erroneous duplicate of the graph id
    new, ids = ok(doc, [{"op": "renameId", "from": "review", "to": "code-review"}])
    assert new["id"] == "code-review" and new["nodes"][3]["id"] == "review" and ids == ["code-review"]


def test_rename_does_not_touch_artifacts_lineage_or_group_from():
    doc = base_doc()
    doc["nodes"][0]["owns"] = ["builder"]
    doc["lineage"] = {"from": "builder@1"}
    doc["groups"][0]["from"] = "builder@1"
    new, _ = ok(doc, [{"op": "renameId", "from": "builder", "to": "maker"}])
    assert new["nodes"][0]["owns"] == ["builder"] and new["lineage"] == {"from": "builder@1"}
    assert new["groups"][0]["from"] == "builder@1"


def test_rename_edge_rederivation_takes_a_free_id():
    doc = base_doc()
    doc["nodes"].append({"id": "tst", "kind": "stop", "name": "T"})
    doc["edges"].append({"id": "e-builder-checks", "from": "tst", "to": "done"})  # occupies the derived id
    new, _ = ok(doc, [{"op": "renameId", "from": "tests", "to": "checks"}])
    assert [e["id"] for e in new["edges"]][:2] == ["e-builder-checks-2", "e-checks-builder"]


def test_rename_derived_suffix_counts_as_derived():
    doc = base_doc()
    doc["edges"].append({"id": "e-builder-tests-2", "from": "builder", "to": "tests"})
    new, _ = ok(doc, [{"op": "renameId", "from": "builder", "to": "maker"}])
    assert [e["id"] for e in new["edges"] if e["from"] == "maker" and e["to"] == "tests"] == \
        ["e-maker-tests", "e-maker-tests-2"]


def test_rename_refusals():
    err = refused(base_doc(), [{"op": "renameId", "from": "critc", "to": "Bad Id"}])
    assert err.message == '"from": no object has the id "critc"; did you mean "critic"?'   # from checked first
    assert refused(base_doc(), [{"op": "renameId", "from": "n1", "to": "n2"}]).message.startswith(
        '"from": no object has the id "n1"')                                                 # notes are history
    assert refused(base_doc(), [{"op": "renameId", "from": "done", "to": "done"}]).message == \
        '"to": the id "done" is already used in this document'
    assert refused(base_doc(), [{"op": "renameId", "from": "done", "to": "n1"}]).message.endswith("already used in this document")
    assert refused(base_doc(), [{"op": "renameId", "from": 1, "to": "x"}]).message == '"from" must be a string, got 1'
