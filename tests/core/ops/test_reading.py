"""Reading an op and its arguments (operations.md §2.1–§2.4): each refusal names the facts."""

import pytest

from grooph_core.ops import OP_NAMES, apply

from .helpers import base_doc, refused


def test_the_26_ops_in_spec_order():
    assert OP_NAMES == (
        "setGraphName", "setGraphField", "setTarget", "setConstraint", "addNode", "setNodeName", "updateNode",
        "removeNode", "connect", "updateEdge", "removeEdge", "addLoop", "setLoopName", "updateLoop",
        "removeLoop", "toggleLoopMember", "toggleLoopBack", "setBar", "addStop", "setStop", "removeStop",
        "moveStop", "addPolicy", "removePolicy", "setPositions", "renameId")


@pytest.mark.parametrize("entry, shown", [([1], "a list"), ("addNode", '"addNode"'), (None, "null"), (3, "3")])
def test_entry_that_is_not_an_object(entry, shown):
    err = refused(base_doc(), [entry])
    assert err.op == "?"
    assert "JSON object" in err.message and err.message.endswith("got " + shown)


@pytest.mark.parametrize("entry", [{}, {"op": 5}, {"kind": "stop"}])
def test_missing_op_key_lists_all_26_names(entry):
    err = refused(base_doc(), [entry])
    assert err.op == "?"
    assert '"op"' in err.message
    assert ", ".join(OP_NAMES) in err.message


def test_unknown_op_name_with_suggestion():
    err = refused(base_doc(), [{"op": "addNodee", "kind": "stop"}])
    assert err.op == "addNodee"
    assert err.message.endswith('; did you mean "addNode"?')
    assert err.line().startswith("ops[0] addNodee: ")


def test_unknown_op_name_without_suggestion():
    err = refused(base_doc(), [{"op": "frobnicate"}])
    assert "frobnicate" in err.message and "did you mean" not in err.message


def test_unknown_argument_names_suggestion_and_argument_list():
    err = refused(base_doc(), [{"op": "addNode", "kind": "stop", "nmae": "Done"}])
    assert err.op == "addNode"
    assert '"nmae"' in err.message
    assert 'did you mean "name"?' in err.message
    assert '"kind", "name", "id", "at", "set"' in err.message


def test_unknown_arguments_are_checked_in_key_order_integer_like_first():
    err = refused(base_doc(), [{"op": "removeEdge", "zzz": 1, "7": 2, "id": "handpicked"}])
    assert err.message.startswith('"7"')


def test_arguments_are_checked_before_any_reading():
    # the unknown argument wins over the bad kind value
    err = refused(base_doc(), [{"op": "addNode", "kind": 5, "bogus": 1}])
    assert '"bogus"' in err.message


def test_string_reader():
    err = refused(base_doc(), [{"op": "setGraphName", "name": 7}])
    assert err.message == '"name" must be a string, got 7'
    err = refused(base_doc(), [{"op": "setGraphName"}])
    assert err.message == '"name" must be a string, got nothing'
    err = refused(base_doc(), [{"op": "setGraphName", "name": ["x"]}])
    assert err.message == '"name" must be a string, got a list'


def test_one_of_reader_with_suggestion():
    err = refused(base_doc(), [{"op": "addNode", "kind": "agnet"}])
    assert err.message == '"kind" must be one of agent | human-gate | check | merge | stop, got "agnet"; did you mean "agent"?'
    err = refused(base_doc(), [{"op": "addNode", "kind": True}])
    assert err.message.endswith("got true")


def test_optional_boolean_reader():
    err = refused(base_doc(), [{"op": "toggleLoopMember", "loop": "fix", "node": "critic", "on": "yes"}])
    assert err.message == '"on" must be true or false, got "yes"'


def test_optional_list_reader():
    err = refused(base_doc(), [{"op": "addLoop", "members": "builder"}])
    assert err.message == '"members" must be a list, got "builder"'


def test_patch_must_be_an_object():
    err = refused(base_doc(), [{"op": "updateNode", "id": "builder", "set": None}])
    assert err.message == '"set" must be an object, got null'


def test_patch_forbidden_id_then_kind_whatever_the_value():
    err = refused(base_doc(), [{"op": "updateNode", "id": "builder", "set": {"kind": "stop", "id": None}}])
    assert "renameId" in err.message and err.message.startswith('"set" cannot change the id')
    err = refused(base_doc(), [{"op": "updateNode", "id": "builder", "set": {"kind": None}}])
    assert err.message.startswith('"set" cannot change "kind"')
    err = refused(base_doc(), [{"op": "addStop", "loop": "fix", "kind": "human", "set": {"kind": None}}])
    assert '"kind"' in err.message


@pytest.mark.parametrize("op", [
    {"op": "updateNode", "id": "builder", "set": {"__proto__": {}}},
    {"op": "setStop", "loop": "fix", "index": 0, "stop": {"constructor": 1}},
    {"op": "setBar", "loop": "fix", "bar": {"prototype": 1}},
    {"op": "addPolicy", "kind": "x", "scope": "graph", "params": {"__proto__": 1}},
    {"op": "setPositions", "positions": {"constructor": {"x": 1, "y": 1}}},
    {"op": "setGraphField", "key": "lineage", "value": {"__proto__": {}}},
])
def test_reserved_keys_are_refused_at_top_level(op):
    err = refused(base_doc(), [op])
    assert "cannot hold the key" in err.message


def test_reserved_key_check_runs_before_forbidden_keys_and_stop_kind():
    err = refused(base_doc(), [{"op": "updateNode", "id": "builder", "set": {"id": "x", "__proto__": 1}}])
    assert "cannot hold the key" in err.message
    err = refused(base_doc(), [{"op": "setStop", "loop": "fix", "index": 0, "stop": {"prototype": 1}}])
    assert "cannot hold the key" in err.message


def test_reserved_keys_deeper_are_ordinary_data():
    result = apply(base_doc(), [{"op": "updateNode", "id": "builder", "set": {"x": {"__proto__": 1}}}])
    assert result.ok and result.doc["nodes"][0]["x"] == {"__proto__": 1}


def test_position_reader():
    err = refused(base_doc(), [{"op": "addNode", "kind": "stop", "at": {"x": 1}}])
    assert err.message == '"at" must be {"x": number, "y": number}, got {"x":1}'
    err = refused(base_doc(), [{"op": "addNode", "kind": "stop", "at": {"x": True, "y": 1}}])
    assert err.message.startswith('"at" must be')


def test_new_id_reader():
    err = refused(base_doc(), [{"op": "addNode", "kind": "stop", "id": "Done"}])
    assert err.message == '"id" must be a kebab-case id matching ^[a-z][a-z0-9-]*$, got "Done"'
    err = refused(base_doc(), [{"op": "addNode", "kind": "stop", "id": "done"}])
    assert err.message == '"id": the id "done" is already used in this document'
    err = refused(base_doc(), [{"op": "addNode", "kind": "stop", "id": "n1"}])  # run notes count
    assert "already used" in err.message
    err = refused(base_doc(), [{"op": "addNode", "kind": "stop", "id": 3}])
    assert err.message == '"id" must be a string, got 3'


def test_node_reader():
    err = refused(base_doc(), [{"op": "connect", "from": "buidler", "to": "done"}])
    assert err.message == '"from": no node "buidler"; did you mean "builder"?'
    err = refused(base_doc(), [{"op": "connect", "from": 1, "to": "done"}])
    assert err.message == '"from" must be a node id, got 1'


def test_edge_loop_policy_readers():
    assert refused(base_doc(), [{"op": "removeEdge", "id": "handpiked"}]).message == \
        '"id": no edge "handpiked"; did you mean "handpicked"?'
    assert refused(base_doc(), [{"op": "removeLoop", "id": "fxi"}]).message == '"id": no loop "fxi"; did you mean "fix"?'
    assert refused(base_doc(), [{"op": "removePolicy", "id": "isx"}]).message == \
        '"id": no policy "isx"; did you mean "iso"?'
    assert refused(base_doc(), [{"op": "removeEdge", "id": 4}]).message == '"id" must be a string, got 4'


def test_stop_index_reader():
    err = refused(base_doc(), [{"op": "removeStop", "loop": "fix", "index": 2}])
    assert err.message == '"index" must be a stop index from 0 to 1 in loop "fix", got 2'
    err = refused(base_doc(), [{"op": "removeStop", "loop": "fix", "index": 0.5}])
    assert "got 0.5" in err.message
    err = refused(base_doc(), [{"op": "removeStop", "loop": "fix", "index": True}])
    assert "got true" in err.message
    doc = base_doc()
    doc["loops"][0]["stops"] = []
    err = refused(doc, [{"op": "removeStop", "loop": "fix", "index": 0}])
    assert 'loop "fix" has no stops yet' in err.message
