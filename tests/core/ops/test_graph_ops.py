"""setGraphName, setGraphField, setTarget, setConstraint (operations.md §5.1)."""

from .helpers import base_doc, ok, refused


def test_set_graph_name_id_follows_name():
    doc, ids = ok(base_doc(), [{"op": "setGraphName", "name": "Code review"}])
    assert doc["name"] == "Code review" and doc["id"] == "code-review" and ids == ["code-review"]


def test_set_graph_name_derived_id_avoids_other_ids():
    doc = base_doc()
    doc["nodes"][0]["id"] = "builder"
    new, ids = ok(doc, [{"op": "setGraphName", "name": "Builder"}])
    assert new["id"] == "builder-2" and ids == ["builder-2"]


def test_set_graph_name_hand_chosen_id_stays():
    doc = base_doc()
    doc["id"] = "my-graph"
    new, ids = ok(doc, [{"op": "setGraphName", "name": "Other"}])
    assert new["id"] == "my-graph" and new["name"] == "Other" and ids == ["my-graph"]


def test_set_graph_name_empty_name_falls_back_to_graph():
    new, ids = ok(base_doc(), [{"op": "setGraphName", "name": "!!!"}])
    assert new["id"] == "graph" and new["name"] == "!!!"


def test_set_graph_name_refusal():
    assert refused(base_doc(), [{"op": "setGraphName", "name": None}]).message == '"name" must be a string, got null'


def test_set_graph_field_sets_and_removes():
    doc, ids = ok(base_doc(), [
        {"op": "setGraphField", "key": "goal", "value": "Ship it."},
        {"op": "setGraphField", "key": "adaptation", "value": "fixed"},
        {"op": "setGraphField", "key": "lineage", "value": {"pattern": "review", "extra": 1}},
        {"op": "setGraphField", "key": "description", "value": ""},
    ])
    assert doc["goal"] == "Ship it." and doc["adaptation"] == "fixed" and doc["description"] == ""
    assert doc["lineage"] == {"pattern": "review", "extra": 1}
    assert ids == [None, None, None, None]
    doc, _ = ok(doc, [{"op": "setGraphField", "key": "goal", "value": None}, {"op": "setGraphField", "key": "adaptation"}])
    assert "goal" not in doc and "adaptation" not in doc


def test_set_graph_field_name_does_not_move_the_id():
    doc, _ = ok(base_doc(), [{"op": "setGraphField", "key": "name", "value": "Totally new"}])
    assert doc["id"] == "review" and doc["name"] == "Totally new"


def test_set_graph_field_refusals():
    assert refused(base_doc(), [{"op": "setGraphField", "key": "gaol", "value": "x"}]).message == \
        '"key" must be one of name | goal | description | adaptation | lineage, got "gaol"; did you mean "goal"?'
    assert refused(base_doc(), [{"op": "setGraphField", "key": "adaptation", "value": "adaptve"}]).message.endswith(
        'did you mean "adaptive"?')
    assert refused(base_doc(), [{"op": "setGraphField", "key": "lineage", "value": "x"}]).message == \
        '"value" must be an object, got "x"'
    assert refused(base_doc(), [{"op": "setGraphField", "key": "goal", "value": 3}]).message == \
        '"value" must be a string, got 3'


def test_set_target_keeps_other_keys_and_removes_whole():
    doc = base_doc()
    doc["target"] = {"harness": "codex", "x-t": 1}
    new, _ = ok(doc, [{"op": "setTarget", "harness": "claude-code"}])
    assert new["target"] == {"harness": "claude-code", "x-t": 1}
    new, _ = ok(doc, [{"op": "setTarget", "harness": None}])
    assert "target" not in new
    new, _ = ok(doc, [{"op": "setTarget"}])
    assert "target" not in new
    new, _ = ok(base_doc(), [{"op": "setTarget", "harness": "Claude-Code"}])  # not checked
    assert new["target"] == {"harness": "Claude-Code"}
    assert refused(doc, [{"op": "setTarget", "harness": 1}]).message == '"harness" must be a string, got 1'


def test_set_constraint_creates_and_removes_emptied_object():
    doc, _ = ok(base_doc(), [{"op": "setConstraint", "key": "budget", "value": "$5"},
                             {"op": "setConstraint", "key": "time", "value": "1h"}])
    assert doc["constraints"] == {"budget": "$5", "time": "1h"}
    doc, _ = ok(doc, [{"op": "setConstraint", "key": "budget", "value": None}])
    assert doc["constraints"] == {"time": "1h"}
    doc, _ = ok(doc, [{"op": "setConstraint", "key": "time"}])
    assert "constraints" not in doc
    assert refused(doc, [{"op": "setConstraint", "key": "money", "value": "x"}]).message.startswith(
        '"key" must be one of budget | time | other')
