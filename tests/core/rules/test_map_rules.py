"""The map rules, codes 2–9 of map.md §4.2: logic, `at`, order, message facts, pointers and repair data
(map.md §6.1–§6.8, §10; operations.md §8.5)."""

from __future__ import annotations

import copy
import os
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from grooph_core.rules.map import (
    FOUND,
    NOT_A_GRAPH,
    RULE_ORDER,
    UNKNOWN,
    file_graph_resolver,
    is_checked_pointer,
    map_rule_issues,
)
from grooph_core.semantics.map_index import End
from grooph_core.source.text import pointer_split

sys.path.insert(0, str(Path(__file__).parent))
import map_examples as ex  # noqa: E402



def value_at(doc, pointer: str):
    """The value a JSON pointer names (raises KeyError/IndexError when it names nothing)."""
    cur = doc
    for seg in pointer_split(pointer):
        cur = cur[int(seg)] if isinstance(cur, list) else cur[seg]
    return cur


def codes_and_at(issues):
    return [(i.code, list(i.at)) for i in issues]


def never(pointer):  # a resolver for tests that must not need one
    raise AssertionError(f"resolver asked about {pointer!r}")


# --- map.md §10: one example per code -----------------------------------------------------------


def test_the_registered_order_is_map_md_4_2():
    """map.md §4.2 codes 2–9 (E_SCHEMA before them, W_UNKNOWN_KEY and W_DOC_TOO_LARGE after them are the
    pipeline's); the rest of the tests read `RULE_ORDER`."""
    assert RULE_ORDER == ("E_DUPLICATE_ID", "E_DANGLING_REF", "E_HANDOFF_NO_CARRIER", "W_CARRIER_CANNOT_CROSS",
                          "W_NOTIFY_NOT_PERSON", "W_SESSION_ISLAND", "W_NO_RETURN", "W_GRAPH_UNRESOLVED")


def test_tiny_shop_raises_nothing():
    assert map_rule_issues(ex.tiny_shop(), resolver=lambda p: NOT_A_GRAPH) == []


def test_10_2_duplicate_id():
    doc = ex.duplicate_id()
    [issue] = map_rule_issues(doc)
    assert (issue.code, issue.severity, issue.at) == ("E_DUPLICATE_ID", "error", ("coder",))
    assert issue.message == 'id "coder" is used 2 times: sessions[1], handoffs[1]'
    assert issue.pointers == ("/handoffs/1/id",)  # the later copy
    assert [p for p, _ in issue.related] == ["/sessions/1/id"]  # the first copy
    assert value_at(doc, issue.pointers[0]) == "coder"
    assert [o.kind for o in issue.facts.occurrences] == ["session", "handoff"]
    assert [o.referable for o in issue.facts.occurrences] == [True, False]


def test_10_3_dangling_end_with_suggestion():
    doc = ex.dangling_end()
    [issue] = map_rule_issues(doc)
    assert codes_and_at([issue]) == [("E_DANGLING_REF", ["h-result"])]
    assert issue.message == 'handoff "h-result" ends at unknown session "plannr"; did you mean "planner"?'
    assert value_at(doc, issue.pointers[0]) == "plannr"
    assert issue.facts.ref == "plannr" and issue.facts.suggestion == "planner" and issue.facts.field == "to"


def test_10_4_missing_carrier():
    doc = ex.missing_carrier()
    [issue] = map_rule_issues(doc)
    assert codes_and_at([issue]) == [("E_HANDOFF_NO_CARRIER", ["h-task"])]
    assert issue.message.startswith('handoff "h-task" ("planner" → "coder") names no carrier')
    for kind in ("branch", "pull-request", "session-message", "scheduled-message", "review-page", "person",
                 "notification", "other"):
        assert kind in issue.message  # all eight kinds, notification included (map.md §11.2)
    assert value_at(doc, issue.pointers[0]) == "h-task"
    assert value_at(doc, issue.pointers[1]) is doc["handoffs"][0]
    assert issue.facts.variant == "missing"


def test_10_4_unnamed_pull_request_points_at_the_carrier():
    doc = ex.unnamed_pull_request()
    [issue] = map_rule_issues(doc)
    assert codes_and_at([issue]) == [("E_HANDOFF_NO_CARRIER", ["h-result"])]
    assert issue.message == ('handoff "h-result" ("coder" → "planner") is carried by a pull request that is not named; '
                             "set carrier.repo")
    assert value_at(doc, issue.pointers[0]) == {"kind": "pull-request"}
    assert (issue.facts.variant, issue.facts.kind, issue.facts.field) == ("unnamed", "pull-request", "repo")


def test_10_5_session_message_across_accounts():
    doc = ex.cross_accounts()
    [issue] = map_rule_issues(doc)
    assert codes_and_at([issue]) == [("W_CARRIER_CANNOT_CROSS", ["h-task", "planner", "coder"])]
    assert issue.severity == "warning"
    m = issue.message
    assert m.startswith('handoff "h-task" ("planner" → "coder") crosses accounts "team account" and '
                        '"contractor account" by session message')
    assert "stays inside one harness and one account" in m and "a branch, a pull request, or a person" in m
    assert value_at(doc, issue.pointers[0]) == "session-message"
    assert [value_at(doc, p) for p, _ in issue.related] == ["team account", "contractor account"]


def test_10_5_harness_variant_names_harnesses():
    doc = ex.cross_harnesses()
    [issue] = map_rule_issues(doc)
    assert issue.code == "W_CARRIER_CANNOT_CROSS"
    assert 'crosses harnesses "claude-code" and "codex" by session message' in issue.message
    assert [value_at(doc, p) for p, _ in issue.related] == ["claude-code", "codex"]
    assert issue.facts.crosses == "harnesses" and issue.facts.accounts_differ is False


def test_10_6_notification_to_a_session():
    doc = ex.notify_session()
    [issue] = map_rule_issues(doc)
    assert codes_and_at([issue]) == [("W_NOTIFY_NOT_PERSON", ["h-task", "coder"])]
    assert issue.message.startswith('handoff "h-task" sends a notification to session "coder"')
    assert value_at(doc, issue.pointers[0]) == "coder"


def test_10_7_island_session_and_person():
    doc = ex.island_session()
    [issue] = map_rule_issues(doc)
    assert codes_and_at([issue]) == [("W_SESSION_ISLAND", ["reviewer"])]
    assert issue.message == 'session "reviewer" has no handoff in or out: nothing reaches it and it reaches nothing'
    assert value_at(doc, issue.pointers[0]) == "reviewer"
    doc = ex.island_person()
    [issue] = map_rule_issues(doc)
    assert codes_and_at([issue]) == [("W_SESSION_ISLAND", ["maya"])]
    assert issue.message.startswith('person "maya" has no handoff in or out: nothing reaches them')
    assert issue.pointers == ("/people/0/id",)


def test_10_8_no_return():
    doc = ex.no_return()
    [issue] = map_rule_issues(doc)
    assert codes_and_at([issue]) == [("W_NO_RETURN", ["tester"])]
    assert issue.message.startswith('session "tester" is handed work and hands nothing on')
    assert value_at(doc, issue.pointers[0]) == "tester"
    assert issue.facts.senders == ("coder",)


def test_10_9_graph_unresolved_with_a_resolver_only():
    doc = ex.graph_pointer()
    assert map_rule_issues(doc) == []  # no resolver, no W_GRAPH_UNRESOLVED (map.md §4.4)
    [issue] = map_rule_issues(doc, resolver=lambda p: NOT_A_GRAPH)
    assert codes_and_at([issue]) == [("W_GRAPH_UNRESOLVED", ["planner"])]
    assert issue.message == ('session "planner" points at graph "plans/missing.grooph.json", which is not a graph '
                             "document that could be read")
    assert value_at(doc, issue.pointers[0]) == "plans/missing.grooph.json"
    assert map_rule_issues(doc, resolver=lambda p: FOUND) == []
    assert map_rule_issues(doc, resolver=lambda p: UNKNOWN) == []


@pytest.mark.parametrize("pointer", ["https://example.com/plan.grooph.json", "plan@3"])
def test_10_9_urls_and_graph_ids_raise_nothing_from_the_file_resolver(tmp_path, pointer):
    resolver = file_graph_resolver(str(tmp_path / "tiny.grooph-map.json"))
    assert map_rule_issues(ex.graph_pointer(pointer), resolver=resolver) == []


@pytest.mark.parametrize("make", [ex.person_starts, ex.wakes_itself, ex.notify_person, ex.bakery_ops])
def test_10_12_valid_edges_raise_nothing(make):
    assert map_rule_issues(make(), resolver=lambda p: NOT_A_GRAPH) == []


# --- E_DUPLICATE_ID -------------------------------------------------------------------------------


def test_duplicates_come_in_first_met_order_with_the_map_id_first():
    doc = ex.tiny_shop()
    doc["sessions"].append({"id": "coder", "name": "", "lane": "desk", "harness": "codex", "role": "x"})
    doc["handoffs"][1]["id"] = "tiny-shop"
    issues = map_rule_issues(doc)
    # the rules then read "coder" as the LAST session with that id, on codex (map.md §0)
    assert codes_and_at(issues) == [("E_DUPLICATE_ID", ["tiny-shop"]), ("E_DUPLICATE_ID", ["coder"]),
                                    ("W_CARRIER_CANNOT_CROSS", ["h-task", "planner", "coder"])]
    assert '"claude-code" and "codex"' in issues[2].message
    assert issues[0].message == "id \"tiny-shop\" is used 2 times: the map's own id, handoffs[1]"
    assert issues[0].related[0][0] == "/id"


def test_an_id_used_three_times_points_at_both_later_copies():
    doc = ex.with_people(ex.tiny_shop(), [{"id": "desk", "name": "Dee"}])
    doc["handoffs"].insert(0, {"id": "desk", "from": "desk", "to": "planner", "carrier": {"kind": "person"}})
    [issue] = map_rule_issues(doc)
    assert issue.message == 'id "desk" is used 3 times: lanes[0], people[0], handoffs[0]'
    assert issue.pointers == ("/people/0/id", "/handoffs/0/id")
    assert all(value_at(doc, p) == "desk" for p in issue.pointers)


# --- E_DANGLING_REF -------------------------------------------------------------------------------


def test_lanes_first_then_from_then_to():
    doc = ex.tiny_shop()
    doc["sessions"][1]["lane"] = "dsk"
    doc["handoffs"][0]["from"] = "plannerr"
    doc["handoffs"][0]["to"] = "codr"
    issues = [i for i in map_rule_issues(doc) if i.code == "E_DANGLING_REF"]
    assert codes_and_at(issues) == [("E_DANGLING_REF", ["coder"]), ("E_DANGLING_REF", ["h-task"]),
                                    ("E_DANGLING_REF", ["h-task"])]
    assert issues[0].message == 'session "coder" is in unknown lane "dsk"; did you mean "desk"?'
    assert [value_at(doc, i.pointers[0]) for i in issues] == ["dsk", "plannerr", "codr"]
    assert [i.facts.field for i in issues] == ["lane", "from", "to"]
    assert "starts at" in issues[1].message and "ends at" in issues[2].message


def test_an_end_naming_a_lane_handoff_or_the_map_is_dangling():
    for target in ("desk", "h-result", "tiny-shop"):
        doc = ex.tiny_shop()
        doc["handoffs"][0]["to"] = target
        dangling = [i for i in map_rule_issues(doc) if i.code == "E_DANGLING_REF"]
        assert [value_at(doc, i.pointers[0]) for i in dangling] == [target]


def test_with_people_the_end_is_neither_a_session_nor_a_person():
    doc = ex.with_people(ex.tiny_shop(), [{"id": "maya", "name": "Maya"}])
    doc["handoffs"].insert(0, {"id": "h-ask", "from": "mya", "to": "planner", "carrier": {"kind": "person", "who": "M"}})
    [issue] = [i for i in map_rule_issues(doc) if i.code == "E_DANGLING_REF"]
    assert issue.message == 'handoff "h-ask" starts at "mya", which is neither a session nor a person; did you mean "maya"?'
    empty_people = ex.with_people(ex.dangling_end(), [])
    [issue] = map_rule_issues(empty_people)
    assert "unknown session" in issue.message  # `people: []` counts as no people


def test_no_suggestion_when_nothing_is_close():
    doc = ex.tiny_shop()
    doc["handoffs"][0]["to"] = "zzzzzz"
    [issue] = [i for i in map_rule_issues(doc) if i.code == "E_DANGLING_REF"]
    assert issue.message == 'handoff "h-task" ends at unknown session "zzzzzz"'
    assert issue.facts.suggestion is None


def test_a_reference_to_a_duplicated_id_still_resolves():
    doc = ex.tiny_shop()
    doc["lanes"].append(copy.deepcopy(doc["lanes"][0]))
    assert codes_and_at(map_rule_issues(doc)) == [("E_DUPLICATE_ID", ["desk"])]


# --- E_HANDOFF_NO_CARRIER -------------------------------------------------------------------------


def test_a_person_carrier_from_a_person_is_complete_whatever_who_says():
    for who in (None, "", "   "):
        doc = ex.person_starts()
        if who is not None:
            doc["handoffs"][0]["carrier"]["who"] = who
        assert map_rule_issues(doc) == []


def test_a_person_carrier_from_a_session_needs_who():
    doc = ex.tiny_shop()
    doc["handoffs"][0]["carrier"] = {"kind": "person"}
    [issue] = map_rule_issues(doc)
    assert issue.message.endswith("is carried by a person who is not named; set carrier.who")
    assert issue.pointers == ("/handoffs/0/carrier",)
    doc["handoffs"][0]["carrier"]["who"] = " \u3000"  # ECMAScript whitespace only: blank
    [issue] = map_rule_issues(doc)
    assert value_at(doc, issue.pointers[0]) == " \u3000"


@pytest.mark.parametrize("carrier,field", [
    ({"kind": "branch", "ref": "main"}, "repo"),
    ({"kind": "review-page", "where": "\t"}, "where"),
    ({"kind": "other"}, "name"),
])
def test_each_naming_field(carrier, field):
    doc = ex.tiny_shop()
    doc["handoffs"][0]["carrier"] = carrier
    [issue] = map_rule_issues(doc)
    assert issue.code == "E_HANDOFF_NO_CARRIER" and issue.facts.field == field
    assert f"set carrier.{field}" in issue.message


@pytest.mark.parametrize("carrier", [{"kind": "session-message"}, {"kind": "scheduled-message"},
                                     {"kind": "branch", "repo": "a/b"}, {"kind": "other", "name": "fax"},
                                     {"kind": "person", "who": "Ann"}, {"kind": "review-page", "where": "wiki"}])
def test_named_or_nameless_kinds_raise_nothing(carrier):
    doc = ex.tiny_shop()
    doc["handoffs"][0]["carrier"] = carrier
    assert [i.code for i in map_rule_issues(doc)] == []


def test_a_notification_never_needs_a_name():
    doc = ex.notify_person()
    assert map_rule_issues(doc) == []


def test_missing_carrier_data_describes_both_ends_for_a_repair():
    doc = ex.cross_accounts()
    doc["sessions"][0]["repo"] = "acme/shop"
    doc["sessions"][1]["harness"] = "codex"
    del doc["handoffs"][0]["carrier"]
    [issue] = [i for i in map_rule_issues(doc) if i.code == "E_HANDOFF_NO_CARRIER"]
    facts = issue.facts
    assert facts.from_end == End("planner", "session", lane="desk", lane_exists=True, account="team account",
                                 harness="claude-code", repo="acme/shop")
    assert facts.to_end.account == "contractor account" and facts.to_end.harness == "codex"
    assert facts.from_repo == "acme/shop"
    assert facts.starts_at_person is False
    # across accounts and harnesses, and into a session: messages, review pages and notifications cannot carry it
    assert facts.kinds_that_can_carry == ("branch", "pull-request", "person", "other")


def test_missing_carrier_from_a_person_says_it_starts_at_a_person():
    doc = ex.person_starts()
    del doc["handoffs"][0]["carrier"]
    [issue] = map_rule_issues(doc)
    assert issue.facts.starts_at_person is True
    assert issue.facts.from_end == End("maya", "person", name="Maya")
    assert "person" in issue.facts.kinds_that_can_carry


def test_at_most_one_issue_per_handoff_in_document_order():
    doc = ex.tiny_shop()
    del doc["handoffs"][1]["carrier"]
    doc["handoffs"][0]["carrier"] = {"kind": "pull-request", "repo": ""}
    assert codes_and_at(map_rule_issues(doc)) == [("E_HANDOFF_NO_CARRIER", ["h-task"]),
                                                  ("E_HANDOFF_NO_CARRIER", ["h-result"])]


# --- W_CARRIER_CANNOT_CROSS -----------------------------------------------------------------------


def test_accounts_are_named_before_harnesses_when_both_differ():
    doc = ex.cross_accounts()
    doc["sessions"][1]["harness"] = "codex"
    [issue] = map_rule_issues(doc)
    assert '"team account" and "contractor account"' in issue.message
    assert issue.facts.accounts_differ and issue.facts.harnesses_differ


def test_scheduled_message_and_review_page():
    doc = ex.cross_accounts()
    doc["handoffs"][0]["carrier"] = {"kind": "scheduled-message"}
    doc["handoffs"][1]["carrier"] = {"kind": "review-page", "where": "docs"}
    issues = map_rule_issues(doc)
    assert codes_and_at(issues) == [("W_CARRIER_CANNOT_CROSS", ["h-task", "planner", "coder"]),
                                    ("W_CARRIER_CANNOT_CROSS", ["h-result", "coder", "planner"])]
    assert "by scheduled message" in issues[0].message
    assert '"contractor account" and "team account" by review page' in issues[1].message  # from-side first
    assert "a published page belongs to the account that published it" in issues[1].message


def test_a_review_page_crosses_harnesses():
    doc = ex.cross_harnesses()
    doc["handoffs"][0]["carrier"] = {"kind": "review-page", "where": "wiki"}
    assert map_rule_issues(doc) == []


@pytest.mark.parametrize("kind", ["branch", "pull-request", "person", "other", "notification"])
def test_other_kinds_never_raise_it(kind):
    doc = ex.cross_accounts()
    doc["sessions"][1]["harness"] = "codex"
    doc["handoffs"][0]["carrier"] = {"kind": kind, "repo": "a/b", "who": "Ann", "name": "fax"}
    assert "W_CARRIER_CANNOT_CROSS" not in [i.code for i in map_rule_issues(doc)]


def test_a_missing_lane_makes_accounts_not_comparable_but_harnesses_still_count():
    doc = ex.cross_accounts()
    doc["sessions"][1]["lane"] = "nowhere"
    assert [i.code for i in map_rule_issues(doc)] == ["E_DANGLING_REF"]
    doc["sessions"][1]["harness"] = "codex"
    issues = map_rule_issues(doc)
    assert [i.code for i in issues] == ["E_DANGLING_REF", "W_CARRIER_CANNOT_CROSS"]
    assert "harnesses" in issues[1].message


def test_a_person_or_dangling_end_skips_the_handoff():
    doc = ex.with_people(ex.cross_harnesses(), [{"id": "maya", "name": "Maya"}])
    doc["handoffs"].append({"id": "h-m", "from": "maya", "to": "coder", "carrier": {"kind": "session-message"}})
    doc["handoffs"].append({"id": "h-x", "from": "coder", "to": "ghost", "carrier": {"kind": "session-message"}})
    crossing = [i.at[0] for i in map_rule_issues(doc) if i.code == "W_CARRIER_CANNOT_CROSS"]
    assert crossing == ["h-task"]


def test_a_self_handoff_never_crosses():
    doc = ex.cross_accounts()
    doc["handoffs"].append({"id": "h-wake", "from": "coder", "to": "coder", "carrier": {"kind": "scheduled-message"}})
    assert [i.at[0] for i in map_rule_issues(doc)] == ["h-task"]


def test_rules_look_up_the_last_lane_with_a_duplicated_id():
    """map.md §0: rules resolve "the lane with id X" to the last one."""
    doc = ex.cross_accounts()
    doc["lanes"].append({"id": "desk", "name": "Desk", "machine": "m", "account": "contractor account"})
    assert [i.code for i in map_rule_issues(doc)] == ["E_DUPLICATE_ID"]  # no crossing: last desk = contractor


# --- W_NOTIFY_NOT_PERSON --------------------------------------------------------------------------


def test_the_sender_does_not_matter_and_people_or_dangling_ends_are_fine():
    doc = ex.with_people(ex.tiny_shop(), [{"id": "maya", "name": "Maya"}])
    doc["handoffs"] += [
        {"id": "h-a", "from": "maya", "to": "coder", "carrier": {"kind": "notification"}},
        {"id": "h-b", "from": "coder", "to": "maya", "carrier": {"kind": "notification"}},
        {"id": "h-c", "from": "coder", "to": "ghost", "carrier": {"kind": "notification"}},
    ]
    notes = [i for i in map_rule_issues(doc) if i.code == "W_NOTIFY_NOT_PERSON"]
    assert codes_and_at(notes) == [("W_NOTIFY_NOT_PERSON", ["h-a", "coder"])]
    assert notes[0].facts.people == ("maya",)


# --- W_SESSION_ISLAND -----------------------------------------------------------------------------


def test_sessions_before_people_and_a_self_handoff_saves_a_session_but_not_a_person():
    doc = ex.with_people(ex.tiny_shop(), [{"id": "maya", "name": "Maya"}, {"id": "ravi", "name": "Ravi"}])
    doc["sessions"].insert(0, {"id": "alarm", "name": "", "lane": "desk", "harness": "codex", "role": "r"})
    doc["sessions"].append({"id": "idle", "name": "", "lane": "desk", "harness": "codex", "role": "r"})
    doc["handoffs"] += [
        {"id": "h-alarm", "from": "alarm", "to": "alarm", "carrier": {"kind": "scheduled-message"}},
        {"id": "h-memo", "from": "maya", "to": "maya", "carrier": {"kind": "person"}},
    ]
    islands = [i for i in map_rule_issues(doc) if i.code == "W_SESSION_ISLAND"]
    assert codes_and_at(islands) == [("W_SESSION_ISLAND", ["idle"]), ("W_SESSION_ISLAND", ["maya"]),
                                     ("W_SESSION_ISLAND", ["ravi"])]
    assert "reaches no one" in islands[1].message and "reaches no one" not in islands[2].message


def test_a_handoff_with_a_dangling_other_end_still_touches_a_session():
    doc = ex.island_session()
    doc["handoffs"].append({"id": "h-x", "from": "reviewer", "to": "ghost", "carrier": {"kind": "branch", "repo": "r"}})
    assert "W_SESSION_ISLAND" not in [i.code for i in map_rule_issues(doc)]


# --- W_NO_RETURN ----------------------------------------------------------------------------------


def test_self_handoffs_count_on_both_sides_and_people_are_never_checked():
    doc = ex.no_return()
    doc["handoffs"].append({"id": "h-tick", "from": "tester", "to": "tester", "carrier": {"kind": "scheduled-message"}})
    assert map_rule_issues(doc) == []
    doc = ex.with_people(ex.tiny_shop(), [{"id": "maya", "name": "Maya"}])
    doc["handoffs"].append({"id": "h-done", "from": "coder", "to": "maya", "carrier": {"kind": "notification"}})
    assert map_rule_issues(doc) == []


def test_duplicated_sessions_are_each_visited():
    doc = ex.no_return()
    doc["sessions"].append(copy.deepcopy(doc["sessions"][2]))
    assert codes_and_at(map_rule_issues(doc)) == [("E_DUPLICATE_ID", ["tester"]), ("W_NO_RETURN", ["tester"]),
                                                  ("W_NO_RETURN", ["tester"])]


# --- W_GRAPH_UNRESOLVED and the file resolver (map.md §6.8, cli.md §2.1) --------------------------


def test_the_resolver_is_asked_once_per_session_with_a_graph_in_order():
    doc = ex.graph_pointer("a.grooph.json")
    doc["sessions"][1]["graph"] = "b@2"
    asked = []
    map_rule_issues(doc, resolver=lambda p: asked.append(p) or FOUND)
    assert asked == ["a.grooph.json", "b@2"]


@pytest.mark.parametrize("pointer,checked", [
    ("plans/x.grooph.json", True), ("x.JSON", True), ("/abs/x.json", True), ("C:\\x.json", True),
    ("plan@3", False), ("plans/x.grooph", False), ("https://example.com/x.grooph.json", False),
    ("HTTP://example.com/x.json", False), ("file:///etc/x.json", False), ("git+ssh://host/x.json", False),
    ("s3://bucket/x.json", False),
])
def test_which_pointers_are_looked_up(pointer, checked):
    assert is_checked_pointer(pointer) is checked


def test_file_resolver_never_touches_the_disk_for_urls_or_graph_ids(tmp_path, monkeypatch):
    resolver = file_graph_resolver(str(tmp_path / "m.grooph-map.json"))

    def refuse(*a, **k):
        raise AssertionError("touched the file system")

    monkeypatch.setattr(os, "stat", refuse)
    monkeypatch.setattr("builtins.open", refuse)
    for p in ("https://example.com/plan.grooph.json", "plan@3", "ftp://x/y.json"):
        assert resolver(p) == UNKNOWN


GRAPH = {"grooph": 0, "id": "g", "name": "G", "version": 1, "nodes": [], "edges": [], "loops": []}


def test_file_resolver_answers(tmp_path):
    import json

    (tmp_path / "plans").mkdir()
    (tmp_path / "plans" / "ok.grooph.json").write_text(json.dumps(GRAPH))
    (tmp_path / "plans" / "broken.json").write_text("{not json")
    (tmp_path / "plans" / "map.json").write_text(json.dumps(ex.tiny_shop()))
    (tmp_path / "plans" / "dir.json").mkdir()
    (tmp_path / "plans" / "empty.json").write_text("")
    bad_graph = dict(GRAPH, nodes=[{"id": "x"}])
    (tmp_path / "plans" / "bad.json").write_text(json.dumps(bad_graph))
    resolver = file_graph_resolver(str(tmp_path / "ops.grooph-map.json"))
    assert resolver("plans/ok.grooph.json") == FOUND
    assert resolver(str(tmp_path / "plans" / "ok.grooph.json")) == FOUND  # absolute stays absolute
    for name in ("missing.json", "broken.json", "map.json", "dir.json", "empty.json", "bad.json"):
        assert resolver(f"plans/{name}") == NOT_A_GRAPH, name
    assert resolver("plans/\x00.json") == NOT_A_GRAPH


def test_file_resolver_is_relative_to_the_map_folder_not_the_working_directory(tmp_path, monkeypatch):
    import json

    (tmp_path / "maps").mkdir()
    (tmp_path / "maps" / "g.grooph.json").write_text(json.dumps(GRAPH))
    (tmp_path / "elsewhere").mkdir()
    monkeypatch.chdir(tmp_path / "elsewhere")
    resolver = file_graph_resolver("../maps/m.grooph-map.json")
    assert resolver("g.grooph.json") == FOUND


def test_file_resolver_sees_a_file_change(tmp_path):
    import json

    f = tmp_path / "g.grooph.json"
    f.write_text("{")
    resolver = file_graph_resolver(str(tmp_path / "m.grooph-map.json"))
    assert resolver("g.grooph.json") == NOT_A_GRAPH
    f.write_text(json.dumps(GRAPH, indent=2))  # a different size, so a new stamp
    assert resolver("g.grooph.json") == FOUND


def test_an_open_text_that_is_not_json_is_no_graph_without_being_explained(monkeypatch):
    """The editor asks for the graph answer of an open text after each change to it (a map may name
    it): a YAML workflow, or a broken graph, is "not a graph" from the strict reader's verdict alone;
    the tolerant re-read that explains a refusal (seconds on a 1M workflow, issue 24) is not run."""
    import json

    from grooph_core.rules.map.graph_pointers import graph_answer_for_text
    from grooph_core.source import json_reader

    def no_explaining(*args):
        raise AssertionError("the refusal was explained")

    monkeypatch.setattr(json_reader, "_explain", no_explaining)
    for text in ("statuses:\n  a: {stored_as: done}\ninitial: [{target: a}]\n", '{"grooph": 0, "id": ', "", "\ufeff{}"):
        assert graph_answer_for_text(text) == NOT_A_GRAPH, text
    assert graph_answer_for_text(json.dumps(GRAPH)) == FOUND
    assert graph_answer_for_text(json.dumps(dict(GRAPH, nodes=[{"id": "x"}]))) == NOT_A_GRAPH


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_file_resolver_never_reads_a_fifo(tmp_path):
    os.mkfifo(tmp_path / "pipe.json")
    resolver = file_graph_resolver(str(tmp_path / "m.grooph-map.json"))
    assert resolver("pipe.json") == NOT_A_GRAPH  # would block forever if it were opened


# --- the whole list: order, and never raising on any structurally valid map ------------------------

ids = st.sampled_from(["a", "b", "c", "desk", "maya", "h1", "m", "x-1"])
text = st.text(alphabet=st.sampled_from(list("ab \t\u3000é→")), max_size=4)
unknown = st.dictionaries(st.sampled_from(["zone", "0", "note"]),
                          st.recursive(st.none() | st.booleans() | st.integers() | text,
                                       lambda c: st.lists(c, max_size=2) | st.dictionaries(text, c, max_size=2),
                                       max_leaves=4), max_size=1)


def _opt(d: dict, **maybe) -> st.SearchStrategy:
    """A fixed dict plus optional keys."""
    return st.fixed_dictionaries(d, optional=maybe)


lanes = _opt({"id": ids, "name": text, "machine": st.just("pc"), "account": st.sampled_from(["me", "you", " "])},
             place=st.sampled_from(["local", "cloud"]), description=text)
people = _opt({"id": ids, "name": text}, role=text)
sessions = _opt({"id": ids, "name": text, "lane": ids, "harness": st.sampled_from(["codex", "claude-code", " "]),
                 "role": st.just("r")},
                count=st.integers(1, 5) | st.just(2.0), graph=st.sampled_from(["g.json", "x@1", "https://h/g.json"]),
                repo=text, lifetime=st.sampled_from(["long-lived", "per-task", "scheduled"]))
carriers = st.one_of(
    _opt({"kind": st.just("branch")}, repo=text, ref=text),
    _opt({"kind": st.just("pull-request")}, repo=text),
    st.just({"kind": "session-message"}),
    _opt({"kind": st.just("scheduled-message")}, schedule=text),
    _opt({"kind": st.just("review-page")}, where=text),
    _opt({"kind": st.just("person")}, who=text),
    _opt({"kind": st.just("notification")}, where=text, repo=st.integers()),  # an unknown key on a carrier
    _opt({"kind": st.just("other")}, name=text),
)
handoffs = _opt({"id": ids, "from": ids, "to": ids}, carrier=carriers, what=text)
maps = st.builds(
    lambda root, extra: {**root, **extra},
    _opt({"groophMap": st.just(0), "id": ids, "name": text, "version": st.integers(0, 3),
          "lanes": st.lists(lanes, max_size=3), "sessions": st.lists(sessions, max_size=5),
          "handoffs": st.lists(handoffs, max_size=6)},
         people=st.lists(people, max_size=3)),
    unknown,
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(maps, st.sampled_from([FOUND, NOT_A_GRAPH, UNKNOWN]))
def test_rules_never_raise_and_every_issue_is_well_formed(doc, answer):
    from grooph_core.semantics.by_hand import by_hand_lines
    from grooph_core.semantics.map_shape import map_shape, shape_line
    from grooph_core.schema.check import schema_issues

    assert schema_issues(doc, "map") == []  # the generator makes structurally valid maps only
    issues = map_rule_issues(doc, resolver=lambda p: answer)
    positions = [RULE_ORDER.index(i.code) for i in issues]
    assert positions == sorted(positions)  # rule order (map.md §4.2)
    for i in issues:
        assert i.at and all(isinstance(a, str) for a in i.at)
        assert i.severity == ("error" if i.code.startswith("E_") else "warning")
        assert i.pointers
        for p in list(i.pointers) + [p for p, _ in i.related]:
            value_at(doc, p)  # every pointer names a value of the document
    shape_line(map_shape(doc))
    by_hand_lines(doc)


# --- the fast suggestion equals graph.md §5.1's --------------------------------------------------

id_words = st.text(alphabet=st.sampled_from(list("abcd-1")), min_size=1, max_size=12)


@settings(max_examples=500, deadline=None)
@given(id_words, st.lists(id_words, max_size=12))
def test_id_suggester_equals_did_you_mean(word, candidates):
    from grooph_core.rules.map.references import IdSuggester
    from grooph_core.source.text import did_you_mean

    suggest = IdSuggester(candidates)
    assert suggest(word) == did_you_mean(word, candidates)
    assert suggest(word) == did_you_mean(word, candidates)  # cached answer


def test_suggestions_stop_at_the_budget_on_a_pathological_map():
    """Thousands of distinct dangling ends against thousands of sessions: the rule still answers
    quickly; later ends lose their suggestion (the facts say the search was skipped)."""
    doc = ex.tiny_shop()
    doc["sessions"] = [{"id": f"s{i}", "name": "", "lane": "desk", "harness": "codex", "role": "r"} for i in range(3000)]
    doc["handoffs"] = [{"id": f"h{i}", "from": "s1", "to": f"s{i}x", "carrier": {"kind": "session-message"}}
                       for i in range(3000)]
    dangling = [i for i in map_rule_issues(doc) if i.code == "E_DANGLING_REF"]
    assert len(dangling) == 3000
    assert dangling[0].facts.suggestion == "s0" and dangling[0].facts.suggestion_searched is True
    assert dangling[-1].facts.suggestion is None and dangling[-1].facts.suggestion_searched is False
    assert dangling[-1].message == 'handoff "h2999" ends at unknown session "s2999x"'
