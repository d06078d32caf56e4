"""Repairs of graph codes (operations.md §8.4): concrete ops built from the document, classes, titles,
fill-in fields, the brakes no repair may loosen (§8.1), and fix-all (§8.2)."""

from __future__ import annotations

import copy
import json

import pytest

from grooph_core.ops.repairs import candidates_for, fix_all, repairs_for, result_of
from grooph_core.rules.validate import validate_value

W = {"id": "w", "kind": "agent", "name": "W", "role": "builder", "brief": "Do it.", "outputs": ["out.txt"],
     "allow": ["edit-files"]}
END = {"id": "end", "kind": "stop", "name": "End"}
T = {"id": "t", "kind": "check", "name": "T", "check": {"kind": "tests", "run": "make test", "pass": "exit 0"}}
C = {"id": "c", "kind": "agent", "name": "C", "role": "critic", "model": {"tier": "frontier"}, "brief": "Judge.",
     "outputs": ["review.md"], "allow": ["write-outputs"]}


def graph(nodes, edges, loops=(), **extra) -> dict:
    return {"grooph": 0, "id": "g", "name": "G", "version": 1, "nodes": copy.deepcopy(list(nodes)),
            "edges": copy.deepcopy(list(edges)), "loops": copy.deepcopy(list(loops)), **copy.deepcopy(extra)}


def grind(stops) -> dict:
    return graph([W, T, END], [{"id": "e1", "from": "w", "to": "t"}, {"id": "e2", "from": "t", "to": "w", "when": "fail"},
                               {"id": "e3", "from": "t", "to": "end", "when": "pass"}],
                 [{"id": "l", "name": "L", "members": ["w", "t"], "back": ["e2"], "stops": stops}])


def issue_of(doc, code, export=False, n=0):
    return [i for i in validate_value(doc, "graph", export=export) if i.code == code][n]


def repairs(doc, code, export=False, n=0):
    return repairs_for(issue_of(doc, code, export, n), doc, "graph", export=export)


def after(doc, repair, export=False):
    new = result_of(repair, doc, "graph")
    assert new is not None
    return new, validate_value(new, "graph", export=export)


def codes(issues):
    return [i.code for i in issues]


# --- E_DANGLING_REF ------------------------------------------------------------------------------------


def test_dangling_edge_end_points_at_the_close_match_first_then_nearest_others():
    doc = graph([W, {**C, "id": "reviewer", "name": "Reviewer"}, {**END, "id": "review-done"}, END],
                [{"id": "e-a-b", "from": "w", "to": "reviwer"}, {"id": "e2", "from": "reviewer", "to": "end"}])
    rs = repairs(doc, "E_DANGLING_REF")
    assert rs[0].title == 'Point edge e-a-b at node reviewer (instead of "reviwer")'
    assert rs[0].kind == "preferred"
    assert rs[0].ops == ({"op": "updateEdge", "id": "e-a-b", "set": {"to": "reviewer"}},)
    assert [r.kind for r in rs[1:]] == ["offered"] * (len(rs) - 1)
    assert rs[1].title.startswith("Point edge e-a-b at node review-done")     # next nearest name
    new, issues = after(doc, rs[0])
    assert "E_DANGLING_REF" not in codes(issues)


def test_dangling_edge_without_close_match_offers_only_targets_that_break_nothing():
    doc = graph([W, END], [{"id": "e1", "from": "w", "to": "end"}, {"id": "e2", "from": "w", "to": "ghost"}])
    rs = repairs(doc, "E_DANGLING_REF")
    # pointing e2 back at w would make a cycle with no stop (a new error), so only `end` is offered
    assert [(r.kind, r.ops) for r in rs] == [("offered", ({"op": "updateEdge", "id": "e2", "set": {"to": "end"}},))]


def test_dangling_loop_member_back_then_answer_key_and_policy_scope():
    doc = grind([{"kind": "max-iterations", "n": 3, "then": "ned"}, {"kind": "budget", "measure": "dispatches", "limit": 9}])
    doc["loops"][0]["members"].append("ww")
    doc["loops"][0]["back"].append("retry-edge")
    doc["loops"][0]["bar"] = {"name": "B", "inspects": [{"kind": "answer-key", "ref": "k"}], "acceptance": "a",
                              "answerKeyFrom": "tt"}
    doc["policies"] = [{"id": "p", "kind": "evidence-required", "scope": "node:tt", "params": {"a": 1}}]
    found = {i.pointers[0]: i for i in validate_value(doc, "graph") if i.code == "E_DANGLING_REF"}
    member = repairs_for(found["/loops/0/members/2"], doc, "graph")
    assert member[0].kind == "preferred" and member[0].ops == (
        {"op": "updateLoop", "id": "l", "set": {"members": ["w", "t", "w"]}},)
    then = repairs_for(found["/loops/0/stops/0/then"], doc, "graph")
    assert then[0].ops == ({"op": "setStop", "loop": "l", "index": 0, "stop": {"kind": "max-iterations", "n": 3, "then": "end"}},)
    assert then[0].title == 'Make stop 0 of loop l continue at node end instead of "ned"'
    key = repairs_for(found["/loops/0/bar/answerKeyFrom"], doc, "graph")
    assert key[0].ops[0]["op"] == "setBar" and key[0].ops[0]["bar"]["answerKeyFrom"] == "t"
    assert key[0].ops[0]["bar"]["inspects"] == [{"kind": "answer-key", "ref": "k"}]
    scope = repairs_for(found["/policies/0/scope"], doc, "graph")
    assert scope[0].kind == "preferred"
    assert scope[0].ops == ({"op": "removePolicy", "id": "p"},
                            {"op": "addPolicy", "kind": "evidence-required", "scope": "node:t", "id": "p",
                             "params": {"a": 1}})
    back = repairs_for(found["/loops/0/back/1"], doc, "graph")
    assert any(r.ops == ({"op": "updateLoop", "id": "l", "set": {"back": ["e2"]}},) for r in back)  # drop it


def test_dangling_group_member_is_a_document_edit():
    doc = graph([W, END], [{"id": "e1", "from": "w", "to": "end"}], groups=[{"id": "ga", "name": "A", "members": ["ww"]}])
    rs = repairs(doc, "E_DANGLING_REF")
    assert rs[0].is_edit and rs[0].ops == ({"edit": "set", "at": "/groups/0/members/0", "value": "w"},)


# --- ids, keys, schema -------------------------------------------------------------------------------


def test_duplicate_id_second_object_gets_a_fresh_id():
    doc = graph([W, END], [{"id": "w", "from": "w", "to": "end"}])
    [r] = repairs(doc, "E_DUPLICATE_ID")
    assert r.kind == "offered" and r.is_edit
    assert r.ops == ({"edit": "set", "at": "/edges/0/id", "value": "w-2"},)
    assert 'edge edges[0] the id "w-2"' in r.title and "keep naming the node" in r.title
    _, issues = after(doc, r)
    assert issues == []


def test_duplicate_graph_id_renames_the_graph_only():
    doc = graph([{**W, "id": "g"}, END], [{"id": "e1", "from": "g", "to": "end"}])
    [r] = repairs(doc, "E_DUPLICATE_ID")
    assert r.kind == "preferred" and r.ops == ({"op": "renameId", "from": "g", "to": "g-2"},)
    new, issues = after(doc, r)
    assert new["id"] == "g-2" and new["nodes"][0]["id"] == "g" and issues == []


def test_duplicate_id_references_follow_when_they_can_only_mean_the_renamed_kind():
    doc = grind([{"kind": "max-iterations", "n": 3}, {"kind": "budget", "measure": "dispatches", "limit": 9}])
    doc["edges"][1]["id"] = "t"      # the back edge shares the check's id; `back` can only mean an edge
    doc["loops"][0]["back"] = ["t"]
    [r] = repairs(doc, "E_DUPLICATE_ID")
    assert r.ops == ({"edit": "set", "at": "/edges/1/id", "value": "t-2"},
                     {"edit": "set", "at": "/loops/0/back/0", "value": "t-2"})
    assert "(its references follow)" in r.title
    _, issues = after(doc, r)
    assert issues == []


def test_unknown_key_rename_preferred_removal_offered_and_brake_fields_only_renamed():
    doc = graph([W, END], [{"id": "e1", "from": "w", "to": "end", "lable": "go"}])
    rs = repairs(doc, "W_UNKNOWN_KEY")
    assert [(r.kind, r.title) for r in rs] == [("preferred", 'Rename "lable" to "label"'),
                                             ("offered", 'Remove the unknown key "lable"')]
    new, issues = after(doc, rs[0])
    assert new["edges"][0] == {"id": "e1", "from": "w", "to": "end", "label": "go"} and issues == []
    doc = graph([W, END], [{"id": "e1", "from": "w", "to": "end", "aproval": True}])
    rs = repairs(doc, "W_UNKNOWN_KEY")
    assert [r.title for r in rs] == ['Rename "aproval" to "approval"']


def test_unknown_key_with_suggestion_already_present_is_only_removed():
    doc = graph([W, END], [{"id": "e1", "from": "w", "to": "end", "label": "a", "lable": "b"}])
    assert [r.title for r in repairs(doc, "W_UNKNOWN_KEY")] == ['Remove the unknown key "lable"']


def test_schema_enum_typo_and_bad_id():
    doc = graph([W, END], [{"id": "e1", "from": "w", "to": "end", "isolation": "shard"}])
    [r] = repairs(doc, "E_SCHEMA")
    assert r.kind == "preferred" and r.ops == ({"edit": "set", "at": "/edges/0/isolation", "value": "shared"},)
    assert r.title == 'Change isolation "shard" to "shared"'
    doc = graph([{**W, "id": "Writer"}, END], [{"id": "e1", "from": "Writer", "to": "end"}],
                layout={"Writer": {"x": 1, "y": 2}})
    [r] = repairs(doc, "E_SCHEMA", n=0)
    new, issues = after(doc, r)
    assert new["nodes"][0]["id"] == "writer" and new["edges"][0]["from"] == "writer"
    assert new["layout"] == {"writer": {"x": 1, "y": 2}} and issues == []


def test_schema_missing_field_gets_no_placeholder():
    doc = graph([{k: v for k, v in W.items() if k != "brief"}, END], [{"id": "e1", "from": "w", "to": "end"}])
    assert repairs(doc, "E_SCHEMA") == []


# --- loops -------------------------------------------------------------------------------------------


def test_loop_back_edge_empty_several_candidates_offered_fail_edges_first():
    doc = grind([{"kind": "max-iterations", "n": 3}, {"kind": "budget", "measure": "dispatches", "limit": 9}])
    doc["loops"][0]["back"] = []
    issue = issue_of(doc, "E_LOOP_BACK_EDGE")
    assert [(c.kind, c.ops[0]["edge"]) for c in candidates_for(issue, doc, "graph")] == [("offered", "e2"), ("offered", "e1")]
    # e1 would start the round at an agent: a judgment loop with no bar, a new error, so it is not offered
    [r] = repairs(doc, "E_LOOP_BACK_EDGE")
    assert r.title == "Mark edge e2 (t → w) as the back edge of loop l"


def test_loop_back_edge_empty_single_candidate_preferred():
    doc = graph([W, T, END], [{"id": "e1", "from": "w", "to": "t"}, {"id": "e0", "from": "t", "to": "t", "when": "fail"},
                              {"id": "e3", "from": "t", "to": "end", "when": "pass"}],
                [{"id": "l", "name": "L", "members": ["t"], "back": [], "stops": [{"kind": "max-iterations", "n": 3},
                                                                              {"kind": "budget", "measure": "usd", "limit": 2}]}])
    [r] = repairs(doc, "E_LOOP_BACK_EDGE")
    assert r.kind == "preferred" and r.ops == ({"op": "toggleLoopBack", "loop": "l", "edge": "e0", "on": True},)
    _, issues = after(doc, r)
    assert issues == []


def test_loop_back_edge_outside_members_adds_the_member():
    doc = grind([{"kind": "max-iterations", "n": 3}, {"kind": "budget", "measure": "dispatches", "limit": 9}])
    doc["loops"][0]["members"] = ["w"]
    rs = repairs(doc, "E_LOOP_BACK_EDGE")
    assert rs[0].ops == ({"op": "toggleLoopMember", "loop": "l", "node": "t", "on": True},)
    _, issues = after(doc, rs[0])
    assert issues == []


def test_cycle_no_stop_wraps_a_check_loop_with_explicit_ids():
    doc = graph([W, T, END], [{"id": "e1", "from": "w", "to": "t"}, {"id": "e2", "from": "t", "to": "w", "when": "fail"},
                              {"id": "e3", "from": "t", "to": "end", "when": "pass"}], policies=[{"id": "loop", "kind": "no-self-grading", "scope": "graph"}])
    [r] = repairs(doc, "E_CYCLE_NO_STOP")
    assert r.kind == "preferred"
    assert r.ops == ({"op": "addLoop", "members": ["w", "t"], "id": "loop-2"},
                     {"op": "toggleLoopBack", "loop": "loop-2", "edge": "e2", "on": True},
                     {"op": "addStop", "kind": "max-iterations", "set": {"n": 4}, "loop": "loop-2"},
                     {"op": "addStop", "kind": "budget", "loop": "loop-2"})
    assert "cap of 4 rounds" in r.title and "budget of 12 dispatches" in r.title
    _, issues = after(doc, r)
    assert issues == []


def test_stop_not_inspectable_is_safe_and_adds_a_cap():
    doc = grind([{"kind": "bar-passed"}])
    [r] = repairs(doc, "E_STOP_NOT_INSPECTABLE")
    assert (r.kind, r.ops) == ("safe", ({"op": "addStop", "loop": "l", "kind": "max-iterations"},))
    new, issues = after(doc, r)
    assert new["loops"][0]["stops"][-1] == {"kind": "max-iterations", "n": 4}
    assert "E_STOP_NOT_INSPECTABLE" not in codes(issues)


def test_long_loop_budget_safe_and_tighter_cap_offered():
    doc = grind([{"kind": "human"}, {"kind": "max-iterations", "n": 8}])
    rs = repairs(doc, "W_LONG_LOOP_NO_BUDGET")
    assert [(r.kind, r.title) for r in rs] == [("safe", "Add a budget of 12 dispatches to loop l"),
                                             ("offered", "Lower the cap of loop l from 8 to 5 rounds")]
    assert rs[1].ops == ({"op": "setStop", "loop": "l", "index": 1, "stop": {"kind": "max-iterations", "n": 5}},)


def test_only_max_iterations_by_mode():
    doc = grind([{"kind": "max-iterations", "n": 4}])
    assert [(r.kind, r.ops[0]["kind"]) for r in repairs(doc, "W_ONLY_MAX_ITERATIONS")] == [("safe", "budget")]
    doc = graph([W, C, END], [{"id": "e1", "from": "w", "to": "c"}, {"id": "e2", "from": "c", "to": "w", "when": "fail"},
                              {"id": "e3", "from": "c", "to": "end", "when": "pass"}],
                [{"id": "l", "name": "L", "members": ["w", "c"], "back": ["e2"], "stops": [{"kind": "max-iterations", "n": 3}],
                  "bar": {"name": "B", "inspects": [{"kind": "file", "ref": "spec.md"}], "acceptance": "Meets spec.md."}}])
    rs = repairs(doc, "W_ONLY_MAX_ITERATIONS")
    assert [(r.kind, r.ops[0]["kind"]) for r in rs] == [("preferred", "bar-passed"), ("offered", "budget")]


# --- export codes --------------------------------------------------------------------------------------


def test_no_target_offers_each_known_harness_and_prefers_the_close_one():
    doc = graph([W, END], [{"id": "e1", "from": "w", "to": "end"}], goal="Write.")
    rs = repairs(doc, "E_NO_TARGET", export=True)
    assert [(r.kind, r.ops) for r in rs] == [("offered", ({"op": "setTarget", "harness": "claude-code"},)),
                                           ("offered", ({"op": "setTarget", "harness": "codex"},))]
    doc["target"] = {"harness": "Claude-Code"}
    [r] = repairs(doc, "E_NO_TARGET", export=True)
    assert r.kind == "preferred" and r.ops == ({"op": "setTarget", "harness": "claude-code"},)


def test_no_goal_inserts_an_empty_goal_to_fill_in():
    doc = graph([W, END], [{"id": "e1", "from": "w", "to": "end"}], target={"harness": "codex"})
    [r] = repairs(doc, "E_NO_GOAL", export=True)
    assert r.title == "Add a goal to fill in" and r.fill == "/goal" and r.kind == "offered"
    new, issues = after(doc, r, export=True)
    assert new["goal"] == ""                                     # nothing invented
    assert "E_NO_GOAL" in codes(issues)                          # the code stays until the person types


def test_person_step_template_slot_judgment_bar_have_no_repair():
    doc = graph([{k: v for k, v in W.items() if k != "allow"} | {"by": "person"}, END], [{"id": "e1", "from": "w", "to": "end"}],
                goal="Fix {{area}}.", target={"harness": "codex"})
    found = validate_value(doc, "graph", export=True)
    assert codes(found) == ["E_UNFILLED_SLOT", "E_PERSON_STEP_NOT_COMPILED"]
    for i in found:
        assert repairs_for(i, doc, "graph", export=True) == [], i.code
    doc = graph([W, C, END], [{"id": "e1", "from": "w", "to": "c"}, {"id": "e2", "from": "c", "to": "w", "when": "fail"},
                              {"id": "e3", "from": "c", "to": "end", "when": "pass"}],
                [{"id": "l", "name": "L", "members": ["w", "c"], "back": ["e2"],
                  "stops": [{"kind": "max-iterations", "n": 3}, {"kind": "budget", "measure": "dispatches", "limit": 8}]}])
    assert repairs(doc, "E_JUDGMENT_LOOP_NO_BAR") == []       # never mode grind, never a placeholder bar


# --- critics, owners, gates ------------------------------------------------------------------------------


def critic_doc(**edge) -> dict:
    return graph([W, C, END], [{"id": "e1", "from": "w", "to": "c", **edge}, {"id": "e2", "from": "c", "to": "end", "when": "pass"}],
                 policies=[{"id": "iso", "kind": "critic-isolation", "scope": "graph"}])


def test_critic_not_isolated_shared_sets_fresh_and_the_writers_outputs():
    doc = critic_doc(isolation="shared")
    rs = repairs(doc, "E_CRITIC_NOT_ISOLATED")
    assert rs[0].kind == "preferred"
    assert rs[0].ops == ({"op": "updateEdge", "id": "e1", "set": {"isolation": "fresh", "evidence": ["out.txt"]}},)
    assert "out.txt" in rs[0].title                               # the title shows the evidence it writes
    assert rs[1].fill == "/edges/0/evidence" and rs[1].ops[0]["set"] == {"isolation": "fresh", "evidence": []}
    _, issues = after(doc, rs[0])
    assert issues == []
    new, issues = after(doc, rs[1])
    assert "E_CRITIC_NOT_ISOLATED" in codes(issues) and new["policies"] == doc["policies"]


def test_critic_not_isolated_no_evidence():
    rs = repairs(critic_doc(), "E_CRITIC_NOT_ISOLATED")
    assert rs[0].ops == ({"op": "updateEdge", "id": "e1", "set": {"evidence": ["out.txt"]}},)
    assert rs[0].title == "Let critic c read out.txt on edge e1 (the writer's outputs)"


def test_ownership_conflict_one_offer_per_owner():
    a = {**W, "id": "a", "owns": ["src", "docs"]}
    b = {**W, "id": "b", "owns": ["src"]}
    doc = graph([a, b, END], [{"id": "e1", "from": "a", "to": "b"}, {"id": "e2", "from": "b", "to": "end"}])
    rs = repairs(doc, "E_OWNERSHIP_CONFLICT")
    assert [(r.title, r.ops) for r in rs] == [
        ("Make a the only owner of src", ({"op": "updateNode", "id": "b", "set": {"owns": None}},)),
        ("Make b the only owner of src", ({"op": "updateNode", "id": "a", "set": {"owns": ["docs"]}},))]


def test_irreversible_open_edge_gets_approval_safe():
    pub = {**W, "id": "pub", "irreversible": ["publish"]}
    doc = graph([W, pub, END], [{"id": "e1", "from": "w", "to": "pub"}, {"id": "e2", "from": "pub", "to": "end"}])
    [r] = repairs(doc, "E_IRREVERSIBLE_NO_GATE")
    assert r.kind == "safe" and r.ops == ({"op": "updateEdge", "id": "e1", "set": {"approval": True}},)
    new, issues = after(doc, r)
    assert issues == [] and new["nodes"][1]["irreversible"] == ["publish"]


def test_irreversible_with_open_stop_is_preferred_and_leaves_the_stop_to_the_person():
    pub = {**W, "id": "pub", "irreversible": ["publish"]}
    doc = graph([W, T, pub, END],
                [{"id": "e1", "from": "w", "to": "t"}, {"id": "e2", "from": "t", "to": "w", "when": "fail"},
                 {"id": "e3", "from": "t", "to": "pub", "when": "pass"}, {"id": "e4", "from": "pub", "to": "end"}],
                [{"id": "l", "name": "L", "members": ["w", "t"], "back": ["e2"],
                  "stops": [{"kind": "max-iterations", "n": 3, "then": "pub"}, {"kind": "budget", "measure": "dispatches", "limit": 9}]}])
    [r] = repairs(doc, "E_IRREVERSIBLE_NO_GATE")
    assert r.kind == "preferred" and "still need a gate" in r.title
    _, issues = after(doc, r)
    [left] = [i for i in issues if i.code == "E_IRREVERSIBLE_NO_GATE"]
    assert left.at == ("pub", "l")


# --- warnings ----------------------------------------------------------------------------------------


def test_homogeneous_critic_moves_to_another_tier():
    w = {**W, "model": {"tier": "strong"}}
    c = {**C, "model": {"tier": "strong"}}
    doc = graph([w, c, END], [{"id": "e1", "from": "w", "to": "c"}, {"id": "e2", "from": "c", "to": "end", "when": "pass"}])
    [r] = repairs(doc, "W_HOMOGENEOUS_CRITICS")
    assert r.kind == "offered" and r.ops == ({"op": "updateNode", "id": "c", "set": {"model": {"tier": "frontier"}}},)
    doc["nodes"][0]["model"] = doc["nodes"][1]["model"] = {"tier": "frontier"}
    [r] = repairs(doc, "W_HOMOGENEOUS_CRITICS")
    assert r.ops[0]["set"] == {"model": {"tier": "strong"}}       # never strong <-> fast


def test_fanout_on_coupled_one_at_a_time():
    m = {**W, "id": "m", "coupled": True}
    doc = graph([W, m, END], [{"id": "e1", "from": "w", "to": "m", "concurrency": {"max": 3}}, {"id": "e2", "from": "m", "to": "end"}])
    [r] = repairs(doc, "W_FANOUT_ON_COUPLED")
    assert r.kind == "safe" and r.ops == ({"op": "updateEdge", "id": "e1", "set": {"concurrency": {"max": 1}}},)
    new, _ = after(doc, r)
    assert new["nodes"][1]["coupled"] is True                     # never clears `coupled`


def test_no_terminal_adds_done_after_the_only_sink_with_pass_after_a_check():
    doc = graph([W, T], [{"id": "e1", "from": "w", "to": "t"}])
    [r] = repairs(doc, "W_NO_TERMINAL")
    assert r.kind == "preferred"
    assert r.ops == ({"op": "addNode", "kind": "stop", "name": "Done", "id": "done"},
                     {"op": "connect", "from": "t", "to": "done", "set": {"when": "pass"}})
    _, issues = after(doc, r)
    assert issues == []


def test_no_terminal_unreachable_stop_offers_connections():
    doc = graph([W, END], [{"id": "e1", "from": "end", "to": "end"}])
    doc["edges"] = []
    doc["nodes"] = [W, {**END}]
    doc["edges"] = [{"id": "e0", "from": "w", "to": "w"}]
    doc["loops"] = [{"id": "l", "name": "L", "members": ["w"], "back": ["e0"], "stops": [{"kind": "max-iterations", "n": 2}]}]
    doc["edges"].append({"id": "ex", "from": "ghost", "to": "end"})
    rs = [r for r in candidates_for(issue_of(doc, "W_NO_TERMINAL"), doc, "graph")]
    assert all(r.ops[0]["op"] == "connect" and r.ops[0]["to"] == "end" for r in rs)


def test_output_not_writable_appends_and_respects_deny():
    doc = graph([{**W, "role": "researcher", "allow": ["read-files"]}, END], [{"id": "e1", "from": "w", "to": "end"}])
    [r] = repairs(doc, "W_OUTPUT_NOT_WRITABLE")
    assert r.ops == ({"op": "updateNode", "id": "w", "set": {"allow": ["read-files", "write-outputs"]}},)
    assert r.kind == "preferred" and r.title == "Let w write its outputs (allow write-outputs)"
    doc["nodes"][0]["deny"] = ["write-outputs"]
    assert repairs(doc, "W_OUTPUT_NOT_WRITABLE") == []


def test_output_not_writable_lets_a_builder_edit_files():
    """graph.md §5: a builder takes `edit-files` (the title and the edit say so), every other role
    `write-outputs`; a builder that denies `edit-files` gets no repair."""
    doc = graph([{**W, "allow": ["read-files"]}, END], [{"id": "e1", "from": "w", "to": "end"}])
    [r] = repairs(doc, "W_OUTPUT_NOT_WRITABLE")
    assert r.ops == ({"op": "updateNode", "id": "w", "set": {"allow": ["read-files", "edit-files"]}},)
    assert r.kind == "preferred" and r.title == "Let w edit files (allow edit-files)"
    assert after(doc, r)[1] == []
    doc["nodes"][0]["deny"] = ["edit-files"]
    assert repairs(doc, "W_OUTPUT_NOT_WRITABLE") == []


def test_person_fields_and_unreachable_and_group_overlap():
    doc = graph([{**W, "by": "person", "allow": None, "effort": "high"}, END], [{"id": "e1", "from": "w", "to": "end"}])
    del doc["nodes"][0]["allow"]
    [r] = repairs(doc, "W_PERSON_FIELDS_NOT_READ")
    assert r.ops == ({"op": "updateNode", "id": "w", "set": {"effort": None}},)
    x = {**W, "id": "x"}
    doc = graph([W, x, END], [{"id": "e1", "from": "w", "to": "end"}, {"id": "e2", "from": "ghost", "to": "x"}],
                groups=[{"id": "ga", "name": "A", "members": ["w"]}, {"id": "gb", "name": "B", "members": ["x", "w"]}])
    [r] = repairs(doc, "W_UNREACHABLE_NODE")
    assert r.ops == ({"op": "removeNode", "id": "x"},) and r.kind == "offered"
    [r] = repairs(doc, "W_GROUP_OVERLAP")
    assert r.ops == ({"edit": "remove", "at": "/groups/1/members/1"},)
    assert r.title == "Keep w only in group ga (remove it from gb)"


def test_unreachable_brakes_are_never_removed():
    gate = {"id": "gate", "kind": "human-gate", "name": "Gate", "prompt": "Go?"}
    doc = graph([W, gate, {**T}, {**W, "id": "pub", "irreversible": ["x"]}, END],
                [{"id": "e1", "from": "w", "to": "end"}] + [{"id": f"g{n}", "from": "ghost", "to": n} for n in ("gate", "t", "pub")])
    unreachable = [i for i in validate_value(doc, "graph") if i.code == "W_UNREACHABLE_NODE"]
    assert [i.at[0] for i in unreachable] == ["gate", "t", "pub"]
    for i in unreachable:
        assert candidates_for(i, doc, "graph") == [], i.at


# --- the brakes: no repair ever loosens one (§8.1) ------------------------------------------------------


def brake_rich_faulty_doc() -> dict:
    """A graph full of brakes (gates, approvals, irreversible steps, critic isolation, budgets, caps)
    and of faults whose repairs touch the objects around them."""
    plan = {"id": "plan", "kind": "agent", "name": "Plan", "role": "planner", "brief": "Plan.", "outputs": ["PLAN.md"]}
    build = {**W, "id": "build", "name": "Build", "owns": ["src"], "model": {"tier": "strong"}}
    build2 = {**W, "id": "build2", "name": "Build 2", "owns": ["src"], "coupled": True}
    review = {**C, "id": "review", "model": {"tier": "strong"}}
    gate = {"id": "gate", "kind": "human-gate", "name": "Gate", "prompt": "Ship?", "options": ["ship", "hold"]}
    lonely_gate = {"id": "lonely", "kind": "human-gate", "name": "Lonely", "prompt": "?"}
    deploy = {**W, "id": "deploy", "name": "Deploy", "irreversible": ["deploy", "spend"], "deny": ["web"]}
    merge = {**W, "id": "merge", "name": "Merge", "irreversible": ["merge"]}
    return graph(
        [plan, build, build2, T, review, gate, lonely_gate, deploy, merge, END, {**W, "id": "orphan", "name": "Orphan"}],
        [{"id": "e-plan", "from": "plan", "to": "build"},
         {"id": "e-fan", "from": "plan", "to": "build2", "concurrency": {"max": 4}},
         {"id": "e-build", "from": "build", "to": "t"},
         {"id": "e-retry", "from": "t", "to": "build", "when": "fail"},
         {"id": "e-review", "from": "t", "to": "review", "when": "pass", "isolation": "shared"},
         {"id": "e-redo", "from": "review", "to": "build", "when": "fail", "evidence": ["review.md"]},
         {"id": "e-gate", "from": "review", "to": "gate", "when": "pass", "aproval": True},
         {"id": "e-ship", "from": "gate", "to": "deploy", "approval": True},
         {"id": "e-merge", "from": "deploy", "to": "merge"},
         {"id": "e-end", "from": "merge", "to": "doen"},
         {"id": "e-b2", "from": "build2", "to": "end"},
         {"id": "e-lonely", "from": "nobody", "to": "lonely"},
         {"id": "e-orphan", "from": "nobody", "to": "orphan"}],
        [{"id": "fix", "name": "Fix", "members": ["build", "t"], "back": ["e-retry", "e-gone"],
          "stops": [{"kind": "max-iterations", "n": 8}]},
         {"id": "rev", "name": "Review", "members": ["build", "t", "review"], "back": ["e-redo"], "mode": "judgment",
          "bar": {"name": "Spec", "inspects": [{"kind": "file", "ref": "spec.md"}], "acceptance": "Meets spec.md."},
          "stops": [{"kind": "bar-passed"}, {"kind": "max-iterations", "n": 3},
                    {"kind": "budget", "measure": "dispatches", "limit": 18}]}],
        goal="Ship it.", target={"harness": "Codex"},
        policies=[{"id": "iso", "kind": "critic-isolation", "scope": "loop:rev"},
                  {"id": "p-scope", "kind": "evidence-required", "scope": "node:reveiw"}],
        groups=[{"id": "ga", "name": "A", "members": ["build", "ghost"]}, {"id": "gb", "name": "B", "members": ["build"]}])


def _brakes(doc: dict) -> dict:
    """An independent, plain reading of the five brakes the issue names."""
    nodes, edges = doc["nodes"], doc["edges"]
    return {
        "gates": sorted(n["id"] for n in nodes if n["kind"] == "human-gate"),
        "approvals": sorted(e["id"] for e in edges if e.get("approval") is True),
        "irreversible": sorted((n["id"], a) for n in nodes for a in n.get("irreversible", [])),
        "isolation": sorted(p["id"] for p in doc.get("policies", []) if p["kind"] == "critic-isolation"),
        "stops": sorted((lp["id"], s["kind"], s.get("n", s.get("limit")))
                        for lp in doc["loops"] for s in lp["stops"] if s["kind"] in ("budget", "max-iterations")),
    }


def _kept(before: dict, after: dict) -> list[str]:
    b, a = _brakes(before), _brakes(after)
    lost = [f"{k}: {set(b[k]) - set(a[k])}" for k in ("gates", "approvals", "irreversible", "isolation") if not set(b[k]) <= set(a[k])]
    for loop_id, kind, value in b["stops"]:
        mine = [v for lid, k, v in a["stops"] if lid == loop_id and k == kind]
        if not any(v is not None and v <= value for v in mine):
            lost.append(f"{kind} stop of {loop_id} lost or raised")
    return lost


@pytest.mark.parametrize("export", [False, True])
def test_no_repair_removes_a_gate_approval_irreversible_marker_isolation_policy_or_stop(export):
    doc = brake_rich_faulty_doc()
    issues = validate_value(doc, "graph", export=export)
    assert {"E_DANGLING_REF", "E_CRITIC_NOT_ISOLATED", "E_OWNERSHIP_CONFLICT", "W_LONG_LOOP_NO_BUDGET",
            "W_UNREACHABLE_NODE", "W_UNKNOWN_KEY", "W_FANOUT_ON_COUPLED", "W_GROUP_OVERLAP"} <= set(codes(issues))
    tried = 0
    for issue in issues:
        # the builders themselves, before any check, and what survives the checks
        for r in [c.repair() for c in candidates_for(issue, doc, "graph")] + repairs_for(issue, doc, "graph", export=export):
            new = result_of(r, doc, "graph")
            if new is None:
                continue
            tried += 1
            assert _kept(doc, new) == [], (issue.code, r.title)
    assert tried > 20
    new, titles = fix_all(doc, "graph", export=export)
    assert titles and _kept(doc, new) == []


def test_misspelt_brake_key_is_only_ever_renamed():
    doc = brake_rich_faulty_doc()
    [i] = [i for i in validate_value(doc, "graph") if i.code == "W_UNKNOWN_KEY"]
    [r] = repairs_for(i, doc, "graph")
    assert r.title == 'Rename "aproval" to "approval"'


# --- fix-all -----------------------------------------------------------------------------------------


def test_fix_all_applies_every_safe_repair_and_only_those():
    pub = {**W, "id": "pub", "irreversible": ["publish"]}
    m = {**W, "id": "m", "coupled": True}
    doc = graph([W, T, pub, m, END],
                [{"id": "e1", "from": "w", "to": "t"}, {"id": "e2", "from": "t", "to": "w", "when": "fail"},
                 {"id": "e3", "from": "t", "to": "pub", "when": "pass"}, {"id": "e4", "from": "pub", "to": "m", "concurrency": {"max": 3}},
                 {"id": "e5", "from": "m", "to": "end", "lable": "x"}],
                [{"id": "l", "name": "L", "members": ["w", "t"], "back": ["e2"], "stops": [{"kind": "max-iterations", "n": 8}]}])
    snapshot = json.dumps(doc, sort_keys=True)
    new, titles = fix_all(doc, "graph")
    assert titles == ["Ask a person before pub runs: approval on edge e3",
                      "Run edge e4 one at a time (concurrency max 1) into coupled m",
                      "Add a budget of 12 dispatches to loop l"]
    assert codes(validate_value(new, "graph")) == ["W_UNKNOWN_KEY"]     # a rename is preferred, not safe
    assert json.dumps(doc, sort_keys=True) == snapshot


def test_fix_all_with_nothing_safe_changes_nothing():
    doc = graph([W, END], [{"id": "e1", "from": "w", "to": "ghost"}])
    new, titles = fix_all(doc, "graph")
    assert titles == [] and new == doc


def test_repairs_are_deterministic_and_do_not_touch_the_document():
    doc = brake_rich_faulty_doc()
    snapshot = json.dumps(doc, sort_keys=True)
    first = [(i.code, repairs_for(i, doc, "graph")) for i in validate_value(doc, "graph")]
    second = [(i.code, repairs_for(i, doc, "graph")) for i in validate_value(doc, "graph")]
    assert first == second and json.dumps(doc, sort_keys=True) == snapshot
