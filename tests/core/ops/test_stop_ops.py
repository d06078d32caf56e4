"""addStop, setStop, removeStop, moveStop (operations.md §5.5)."""

import pytest

from .helpers import base_doc, loop, ok, refused


@pytest.mark.parametrize("kind, expected", [
    ("human", {"kind": "human"}),
    ("budget", {"kind": "budget", "measure": "dispatches", "limit": 12}),
    ("bar-passed", {"kind": "bar-passed"}),
    ("diminishing-returns", {"kind": "diminishing-returns", "rounds": 2}),
    ("evidence-invalid", {"kind": "evidence-invalid", "rounds": 2}),
    ("max-iterations", {"kind": "max-iterations", "n": 4}),
])
def test_add_stop_bounded_defaults(kind, expected):
    doc, ids = ok(base_doc(), [{"op": "addStop", "loop": "fix", "kind": kind}])
    assert loop(doc, "fix")["stops"][-1] == expected and ids == [None]


def test_add_stop_set_replaces_defaults_in_place_and_drops_nulls():
    doc, _ = ok(base_doc(), [{"op": "addStop", "loop": "fix", "kind": "budget",
                              "set": {"then": "done", "limit": 5, "measure": None}}])
    stop = loop(doc, "fix")["stops"][-1]
    assert stop == {"kind": "budget", "measure": "dispatches", "limit": 5, "then": "done"}
    assert list(stop) == ["kind", "measure", "limit", "then"]


def test_add_stop_refusals():
    assert refused(base_doc(), [{"op": "addStop", "loop": "fix", "kind": "budgte"}]).message.endswith(
        'did you mean "budget"?')
    assert '"kind"' in refused(base_doc(), [{"op": "addStop", "loop": "fix", "kind": "human", "set": {"kind": "x"}}]).message


def test_set_stop_replaces_whole():
    doc, ids = ok(base_doc(), [{"op": "setStop", "loop": "fix", "index": 1, "stop": {"kind": "human", "every": 2}}])
    assert loop(doc, "fix")["stops"] == [{"kind": "max-iterations", "n": 3, "then": "critic"}, {"kind": "human", "every": 2}]
    assert ids == [None]
    doc, _ = ok(base_doc(), [{"op": "setStop", "loop": "fix", "index": 1.0, "stop": {"kind": "bar-passed"}}])
    assert loop(doc, "fix")["stops"][1] == {"kind": "bar-passed"}


def test_set_stop_refusals():
    assert refused(base_doc(), [{"op": "setStop", "loop": "fix", "index": 0, "stop": {"n": 2}}]).message == \
        '"stop.kind" must be one of human | budget | bar-passed | diminishing-returns | evidence-invalid | max-iterations, got nothing'
    assert refused(base_doc(), [{"op": "setStop", "loop": "fix", "index": 0, "stop": {"kind": "cap"}}]).message.endswith(
        'got "cap"')
    assert refused(base_doc(), [{"op": "setStop", "loop": "fix", "index": 5, "stop": {"kind": "human"}}]).message.startswith(
        '"index"')


def test_remove_stop_leaves_empty_list():
    doc, _ = ok(base_doc(), [{"op": "removeStop", "loop": "fix", "index": 0}])
    assert loop(doc, "fix")["stops"] == [{"kind": "budget", "measure": "dispatches", "limit": 9, "x-stop": "s"}]
    doc, _ = ok(doc, [{"op": "removeStop", "loop": "fix", "index": 0}])
    assert loop(doc, "fix")["stops"] == []


def test_move_stop_swaps_and_edges_are_no_ops():
    doc, _ = ok(base_doc(), [{"op": "moveStop", "loop": "fix", "index": 0, "delta": 1}])
    assert [s["kind"] for s in loop(doc, "fix")["stops"]] == ["budget", "max-iterations"]
    doc, _ = ok(doc, [{"op": "moveStop", "loop": "fix", "index": 1, "delta": -1}])
    assert [s["kind"] for s in loop(doc, "fix")["stops"]] == ["max-iterations", "budget"]
    same, _ = ok(doc, [{"op": "moveStop", "loop": "fix", "index": 0, "delta": -1},
                       {"op": "moveStop", "loop": "fix", "index": 1, "delta": 1}])
    assert same == doc


@pytest.mark.parametrize("delta, shown", [(2, "2"), (0, "0"), ("1", '"1"'), (True, "true"), (None, "null")])
def test_move_stop_delta_refusals(delta, shown):
    err = refused(base_doc(), [{"op": "moveStop", "loop": "fix", "index": 0, "delta": delta}])
    assert err.message == f'"delta" must be -1 (earlier) or 1 (later), got {shown}'
    assert refused(base_doc(), [{"op": "moveStop", "loop": "fix", "index": 0}]).message.endswith("got nothing")


def test_stop_ops_on_duplicated_loop_ids_check_the_first():
    doc = base_doc()
    doc["loops"].append({"id": "fix", "name": "Dup", "members": [], "back": [], "stops": []})
    new, _ = ok(doc, [{"op": "setStop", "loop": "fix", "index": 1, "stop": {"kind": "human"}},
                      {"op": "addStop", "loop": "fix", "kind": "human"}])
    assert new["loops"][0]["stops"][1] == {"kind": "human"}
    assert new["loops"][1]["stops"] == [{"kind": "human"}]      # out of range for setStop: unchanged
