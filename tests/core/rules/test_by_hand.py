"""The by-hand list: which handoffs wait on a person, its text lines and its JSON (map.md §7)."""

from __future__ import annotations

import sys
from pathlib import Path

from grooph_core.rules.map import map_rule_issues
from grooph_core.semantics.by_hand import by_hand, by_hand_line, by_hand_lines

sys.path.insert(0, str(Path(__file__).parent))
import map_examples as ex  # noqa: E402


def _spec_72_map() -> dict:
    """A map that gives exactly the three example lines of map.md §7.2."""
    doc = ex.person_starts()  # h-ask: maya → planner, started by Maya
    doc["handoffs"].append({"id": "h-relay", "from": "coder", "to": "planner", "carrier": {"kind": "person", "who": "Maya"}})
    doc["handoffs"].append({"id": "h-paste", "from": "planner", "to": "coder", "carrier": {"kind": "person"}})
    return doc


def test_the_three_example_lines_of_7_2_byte_for_byte():
    assert by_hand_lines(_spec_72_map()) == [
        "by hand  h-ask  maya → planner: moves only when Maya does it",
        "by hand  h-relay  coder → planner: moves only when Maya carries it",
        "by hand  h-paste  planner → coder: moves only when a person carries it",
    ]


def test_the_json_entries_and_their_key_order():
    entries = by_hand(_spec_72_map())
    assert entries == [
        {"handoff": "h-ask", "from": "maya", "to": "planner", "who": "Maya", "starts": True},
        {"handoff": "h-relay", "from": "coder", "to": "planner", "who": "Maya"},
        {"handoff": "h-paste", "from": "planner", "to": "coder", "who": ""},
    ]
    assert list(entries[0]) == ["handoff", "from", "to", "who", "starts"]
    assert list(entries[1]) == ["handoff", "from", "to", "who"]  # `starts` absent, not false


def test_10_12_person_starts():
    assert by_hand(ex.person_starts()) == [
        {"handoff": "h-ask", "from": "maya", "to": "planner", "who": "Maya", "starts": True}]


def test_tiny_shop_and_bakery_ops():
    assert by_hand(ex.tiny_shop()) == []
    assert by_hand_lines(ex.bakery_ops()) == ["by hand  h-menu  ana → chef: moves only when Ana does it"]


def test_a_person_to_themselves_is_skipped():
    doc = ex.with_people(ex.tiny_shop(), [{"id": "maya", "name": "Maya"}])
    doc["handoffs"].append({"id": "h-memo", "from": "maya", "to": "maya", "carrier": {"kind": "person", "who": "Maya"}})
    assert by_hand(doc) == []


def test_a_session_to_itself_carried_by_a_person_is_listed():
    doc = ex.tiny_shop()
    doc["handoffs"].append({"id": "h-self", "from": "coder", "to": "coder", "carrier": {"kind": "person", "who": "Ann"}})
    assert by_hand_lines(doc) == ["by hand  h-self  coder → coder: moves only when Ann carries it"]


def test_whatever_carries_it_a_handoff_started_by_a_person_waits_on_them():
    doc = ex.with_people(ex.tiny_shop(), [{"id": "maya", "name": "Maya"}])
    doc["handoffs"].append({"id": "h-a", "from": "maya", "to": "coder", "carrier": {"kind": "session-message"}})
    doc["handoffs"].append({"id": "h-b", "from": "maya", "to": "planner"})  # no carrier at all
    doc["handoffs"].append({"id": "h-c", "from": "maya", "to": "coder", "carrier": {"kind": "person", "who": "Bo"}})
    assert by_hand_lines(doc) == [
        "by hand  h-a  maya → coder: moves only when Maya does it",
        "by hand  h-b  maya → planner: moves only when Maya does it",
        "by hand  h-c  maya → coder: moves only when Maya does it",  # the starter, not carrier.who
    ]


def test_an_empty_name_gives_the_id_and_the_last_person_with_the_id_wins():
    doc = ex.with_people(ex.tiny_shop(), [{"id": "maya", "name": "Maya"}, {"id": "maya", "name": "Maya B."}])
    doc["handoffs"].append({"id": "h-a", "from": "maya", "to": "coder", "carrier": {"kind": "person"}})
    assert by_hand(doc)[0]["who"] == "Maya B."  # map.md §7.1 rule 2
    doc["people"][1]["name"] = ""
    assert by_hand(doc)[0]["who"] == "maya"


def test_who_is_used_as_written_and_spaces_print_as_spaces():
    doc = ex.tiny_shop()
    doc["handoffs"][0]["carrier"] = {"kind": "person", "who": "   "}
    assert by_hand_lines(doc) == ["by hand  h-task  planner → coder: moves only when     carries it"]
    assert [i.code for i in map_rule_issues(doc)] == ["E_HANDOFF_NO_CARRIER"]  # map.md §7.2 note


def test_dangling_ends_are_still_listed():
    doc = ex.tiny_shop()
    doc["handoffs"].append({"id": "h-x", "from": "ghost", "to": "nobody", "carrier": {"kind": "person", "who": "Ann"}})
    assert by_hand(doc) == [{"handoff": "h-x", "from": "ghost", "to": "nobody", "who": "Ann"}]


def test_person_carried_handoff_into_a_person_is_listed_by_rule_3():
    doc = ex.with_people(ex.tiny_shop(), [{"id": "maya", "name": "Maya"}])
    doc["handoffs"].append({"id": "h-file", "from": "coder", "to": "maya", "carrier": {"kind": "person", "who": "Bo"}})
    assert by_hand(doc) == [{"handoff": "h-file", "from": "coder", "to": "maya", "who": "Bo"}]


def test_other_carriers_from_sessions_are_not_listed():
    doc = ex.bakery_ops()
    doc["handoffs"] = doc["handoffs"][1:]
    assert by_hand(doc) == []


def test_one_line_from_an_entry():
    assert by_hand_line({"handoff": "h", "from": "a", "to": "b", "who": ""}) == \
        "by hand  h  a → b: moves only when a person carries it"
    assert by_hand_line({"handoff": "h", "from": "p", "to": "b", "who": "Pat", "starts": True}) == \
        "by hand  h  p → b: moves only when Pat does it"
