"""connect, updateEdge, removeEdge (operations.md §5.3)."""

from .helpers import base_doc, edge, loop, ok, refused


def test_connect_derives_ids_and_writes_nothing_else():
    doc, ids = ok(base_doc(), [{"op": "connect", "from": "builder", "to": "critic"},
                               {"op": "connect", "from": "builder", "to": "critic"},
                               {"op": "connect", "from": "done", "to": "done"}])
    assert ids == ["e-builder-critic", "e-builder-critic-2", "e-done-done"]
    assert edge(doc, "e-builder-critic") == {"id": "e-builder-critic", "from": "builder", "to": "critic"}


def test_connect_with_id_and_set():
    doc, ids = ok(base_doc(), [{"op": "connect", "from": "critic", "to": "builder", "id": "e-redo",
                                "set": {"when": "fail", "evidence": ["review.md"], "label": None}}])
    assert ids == ["e-redo"]
    assert edge(doc, "e-redo") == {"id": "e-redo", "from": "critic", "to": "builder", "when": "fail",
                                   "evidence": ["review.md"]}


def test_connect_refusals_in_order():
    assert refused(base_doc(), [{"op": "connect", "from": "x", "to": "y"}]).message.startswith('"from": no node "x"')
    assert refused(base_doc(), [{"op": "connect", "from": "builder", "to": "critc"}]).message == \
        '"to": no node "critc"; did you mean "critic"?'
    assert refused(base_doc(), [{"op": "connect", "from": "builder", "to": "done", "id": "handpicked"}]).message == \
        '"id": the id "handpicked" is already used in this document'
    assert "renameId" in refused(base_doc(), [{"op": "connect", "from": "builder", "to": "done",
                                               "set": {"id": "x"}}]).message


def test_update_edge_may_reroute_without_checks_and_keeps_id():
    doc, ids = ok(base_doc(), [{"op": "updateEdge", "id": "e-builder-tests",
                                "set": {"to": "nowhere", "approval": True, "x-edge": None}}])
    e = edge(doc, "e-builder-tests")
    assert e == {"id": "e-builder-tests", "from": "builder", "to": "nowhere", "approval": True}
    assert ids == [None]


def test_update_edge_refusals():
    assert refused(base_doc(), [{"op": "updateEdge", "id": "e-builder-tests", "set": {"id": "b"}}]).message.startswith(
        '"set" cannot change the id')
    assert refused(base_doc(), [{"op": "updateEdge", "id": "e-nope", "set": {}}]).message.startswith('"id": no edge')


def test_remove_edge_cascade():
    doc, ids = ok(base_doc(), [{"op": "removeEdge", "id": "e-tests-builder"}, {"op": "removeEdge", "id": "e-tests-critic"}])
    assert [e["id"] for e in doc["edges"]] == ["e-builder-tests", "handpicked"]
    assert loop(doc, "fix")["back"] == []
    assert [p["id"] for p in doc["policies"]] == ["iso", "p-node", "p-loop"]
    assert ids == [None, None]


def test_remove_edge_leaves_emptied_policies_list():
    doc = base_doc()
    doc["policies"] = [{"id": "p", "kind": "x", "scope": "edge:handpicked"}]
    new, _ = ok(doc, [{"op": "removeEdge", "id": "handpicked"}])
    assert new["policies"] == []
