"""Repairs of map codes (operations.md §8.5, map.md §6): document edits built from the map's facts;
a handoff is only offered carriers that can cross between its two ends."""

from __future__ import annotations

import copy

import pytest

from grooph_core.ops.repairs import fix_all, repairs_for, result_of
from grooph_core.rules.validate import validate_value

DESK = {"id": "desk", "name": "Desk", "machine": "a desktop", "account": "team account"}
LAPTOP = {"id": "laptop", "name": "Laptop", "machine": "a laptop", "account": "contractor account"}


def tiny(**changes) -> dict:
    doc = {"groophMap": 0, "id": "tiny-shop", "name": "Tiny shop", "version": 1, "lanes": [DESK],
           "sessions": [{"id": "planner", "name": "Planner", "lane": "desk", "harness": "claude-code", "role": "Splits the work"},
                        {"id": "coder", "name": "Coder", "lane": "desk", "harness": "claude-code", "role": "Writes the change"}],
           "handoffs": [{"id": "h-task", "from": "planner", "to": "coder", "carrier": {"kind": "session-message"}},
                        {"id": "h-result", "from": "coder", "to": "planner", "carrier": {"kind": "pull-request", "repo": "acme/shop"}}]}
    doc = copy.deepcopy(doc)
    doc.update(copy.deepcopy(changes))
    return doc


def map_repairs(doc, code, n=0):
    issue = [i for i in validate_value(doc, "map") if i.code == code][n]
    return issue, repairs_for(issue, doc, "map")


def test_tiny_shop_is_clean():
    assert validate_value(tiny(), "map") == []


def test_missing_carrier_same_lane_offers_session_message_and_repo_carriers():
    doc = tiny()
    doc["sessions"][0]["repo"] = "acme/shop"
    del doc["handoffs"][0]["carrier"]
    _, rs = map_repairs(doc, "E_HANDOFF_NO_CARRIER")
    assert [r.title for r in rs] == ["Carry h-task by branch on acme/shop", "Carry h-task by pull request on acme/shop",
                                     "Carry h-task by session message (both sessions share one harness and account)",
                                     "Carry h-task by a person (who carries it to fill in)"]
    assert all(r.kind == "offered" and r.is_edit for r in rs)
    assert rs[1].ops == ({"edit": "set", "at": "/handoffs/0/carrier", "value": {"kind": "pull-request", "repo": "acme/shop"}},)
    assert rs[3].fill == "/handoffs/0/carrier/who"
    for r in rs[:3]:
        assert validate_value(result_of(r, doc, "map"), "map") == []


def test_missing_carrier_across_accounts_never_offers_what_cannot_cross():
    doc = tiny(lanes=[DESK, LAPTOP])
    doc["sessions"][1]["lane"] = "laptop"
    del doc["handoffs"][0]["carrier"]
    _, rs = map_repairs(doc, "E_HANDOFF_NO_CARRIER")
    kinds = [r.ops[0]["value"]["kind"] for r in rs]
    assert "session-message" not in kinds and "scheduled-message" not in kinds and "review-page" not in kinds
    assert kinds == ["branch", "pull-request", "person"]
    assert [r.fill for r in rs] == ["/handoffs/0/carrier/repo"] * 2 + ["/handoffs/0/carrier/who"]
    for r in rs:
        after = validate_value(result_of(r, doc, "map"), "map")
        assert not any(i.code in ("W_CARRIER_CANNOT_CROSS", "W_NOTIFY_NOT_PERSON") for i in after), r.title
        assert [i.code for i in after] == ["E_HANDOFF_NO_CARRIER"]     # the value still to be typed


def test_across_harnesses_no_session_message():
    doc = tiny()
    doc["sessions"][1]["harness"] = "codex"
    doc["sessions"][1]["repo"] = "acme/shop"
    del doc["handoffs"][0]["carrier"]
    _, rs = map_repairs(doc, "E_HANDOFF_NO_CARRIER")
    assert [r.title for r in rs][:2] == ["Carry h-task by branch on acme/shop", "Carry h-task by pull request on acme/shop"]
    assert not any("session message" in r.title for r in rs)


def test_missing_carrier_from_a_person_is_preferred_person():
    doc = tiny(people=[{"id": "maya", "name": "Maya", "role": "Owner"}])
    doc["handoffs"].insert(0, {"id": "h-ask", "from": "maya", "to": "planner"})
    _, rs = map_repairs(doc, "E_HANDOFF_NO_CARRIER")
    assert [(r.kind, r.title) for r in rs] == [("preferred", "Carry h-ask by a person: Maya, who starts it")]
    assert rs[0].ops == ({"edit": "set", "at": "/handoffs/0/carrier", "value": {"kind": "person"}},)
    assert validate_value(result_of(rs[0], doc, "map"), "map") == []


def test_missing_carrier_to_a_person_names_that_person():
    doc = tiny(people=[{"id": "maya", "name": "Maya"}])
    doc["handoffs"].append({"id": "h-tell", "from": "coder", "to": "maya"})
    doc["handoffs"].append({"id": "h-ask", "from": "maya", "to": "coder", "carrier": {"kind": "person"}})
    _, rs = map_repairs(doc, "E_HANDOFF_NO_CARRIER")
    titles = [r.title for r in rs]
    assert "Carry h-tell by a person: Maya" in titles and "Carry h-tell by notification to Maya" in titles
    assert not any("session message" in t for t in titles)


def test_unnamed_pull_request_takes_the_senders_repo():
    doc = tiny()
    doc["sessions"][1]["repo"] = "acme/shop"
    doc["handoffs"][1]["carrier"] = {"kind": "pull-request"}
    _, rs = map_repairs(doc, "E_HANDOFF_NO_CARRIER")
    assert [(r.kind, r.title, r.ops) for r in rs] == [
        ("offered", "Name the repository of h-result's pull request: acme/shop",
         ({"edit": "set", "at": "/handoffs/1/carrier/repo", "value": "acme/shop"},))]
    assert validate_value(result_of(rs[0], doc, "map"), "map") == []


def test_unnamed_without_a_known_repo_inserts_it_empty():
    doc = tiny()
    doc["handoffs"][1]["carrier"] = {"kind": "pull-request"}
    _, [r] = map_repairs(doc, "E_HANDOFF_NO_CARRIER")
    assert r.fill == "/handoffs/1/carrier/repo" and r.title == "Add h-result's carrier.repo to fill in"
    assert result_of(r, doc, "map")["handoffs"][1]["carrier"] == {"kind": "pull-request", "repo": ""}


def test_dangling_end_and_lane():
    doc = tiny()
    doc["handoffs"][1]["to"] = "plannr"
    doc["sessions"][1]["lane"] = "dsk"
    lane_issue, lane = map_repairs(doc, "E_DANGLING_REF", 0)
    assert lane[0].title == 'Put session coder in lane desk (instead of "dsk")' and lane[0].kind == "preferred"
    _, end = map_repairs(doc, "E_DANGLING_REF", 1)
    assert end[0].title == 'Point handoff h-result at planner (instead of "plannr")' and end[0].kind == "preferred"
    assert [r.kind for r in end[1:]] == ["offered"] * (len(end) - 1)
    fixed = result_of(end[0], result_of(lane[0], doc, "map"), "map")
    assert validate_value(fixed, "map") == []


def test_duplicate_handoff_id_renamed_preferred():
    doc = tiny()
    doc["handoffs"][1]["id"] = "coder"
    _, [r] = map_repairs(doc, "E_DUPLICATE_ID")
    assert r.kind == "preferred" and r.ops == ({"edit": "set", "at": "/handoffs/1/id", "value": "coder-2"},)
    assert validate_value(result_of(r, doc, "map"), "map") == []


def test_duplicate_sessions_offered_and_say_where_references_go():
    doc = tiny()
    doc["sessions"].append({"id": "coder", "name": "Coder 2", "lane": "desk", "harness": "codex", "role": "Also codes"})
    _, [r] = map_repairs(doc, "E_DUPLICATE_ID")
    assert r.kind == "offered" and 'keep naming the session sessions[1]' in r.title


def test_unknown_key_rename_and_graph_pointer_removal(tmp_path):
    doc = tiny()
    doc["sessions"][1]["lifetme"] = "per-task"
    _, rs = map_repairs(doc, "W_UNKNOWN_KEY")
    assert [(r.kind, r.title) for r in rs] == [("preferred", 'Rename "lifetme" to "lifetime"'),
                                             ("offered", 'Remove the unknown key "lifetme"')]
    assert result_of(rs[0], doc, "map")["sessions"][1]["lifetime"] == "per-task"
    from grooph_core.rules.map import file_graph_resolver
    doc = tiny()
    doc["sessions"][0]["graph"] = "plans/missing.grooph.json"
    resolver = file_graph_resolver(str(tmp_path / "m.grooph-map.json"))
    [issue] = validate_value(doc, "map", resolver=resolver)
    [r] = repairs_for(issue, doc, "map", resolver=resolver)
    assert r.title == "Remove the graph pointer of session planner" and "graph" not in result_of(r, doc, "map")["sessions"][0]


@pytest.mark.parametrize("code, change", [
    ("W_CARRIER_CANNOT_CROSS", lambda d: d["sessions"][1].update(harness="codex")),
    ("W_NOTIFY_NOT_PERSON", lambda d: d["handoffs"][0].update(carrier={"kind": "notification"})),
    ("W_SESSION_ISLAND", lambda d: d["sessions"].append({"id": "x", "name": "X", "lane": "desk", "harness": "codex", "role": "r"})),
])
def test_true_map_warnings_are_left_to_the_person(code, change):
    doc = tiny()
    change(doc)
    issue, rs = map_repairs(doc, code)
    assert rs == []


def test_fix_all_on_a_map_applies_nothing_unasked():
    doc = tiny()
    doc["sessions"][1]["lifetme"] = "x"
    new, titles = fix_all(doc, "map")
    assert titles == [] and new == doc
