"""The meaning the map rules and pictures rely on (map.md §3): lookups, families, waking, crossings and
the words for carriers and ends."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from grooph_core.semantics.map_index import (
    CARRIER_KINDS,
    carried_by_text,
    carrier_text,
    crossing,
    end_name,
    handoff_carried_by,
    handoff_carrier_text,
    is_family,
    kinds_that_can_carry,
    map_index,
    session_count,
    starter_display_name,
    wakes_itself,
)

sys.path.insert(0, str(Path(__file__).parent))
import map_examples as ex  # noqa: E402


@pytest.mark.parametrize("carrier,starter,text", [
    ({"kind": "branch", "repo": "acme/shop", "ref": "main"}, None, "branch main on acme/shop"),
    ({"kind": "branch", "repo": "acme/shop"}, None, "branch on acme/shop"),
    ({"kind": "branch", "repo": "acme/shop", "ref": "  "}, None, "branch on acme/shop"),
    ({"kind": "branch", "repo": " ", "ref": "main"}, None, ""),
    ({"kind": "pull-request", "repo": "acme/shop"}, None, "pull request on acme/shop"),
    ({"kind": "pull-request"}, None, ""),
    ({"kind": "session-message"}, None, "session message"),
    ({"kind": "scheduled-message"}, None, "scheduled message"),
    ({"kind": "scheduled-message", "schedule": " every hour "}, None, "scheduled message,  every hour "),
    ({"kind": "review-page", "where": "wiki"}, None, "review page: wiki"),
    ({"kind": "review-page"}, None, ""),
    ({"kind": "person", "who": "Maya"}, "Ann", "carried by Maya"),
    ({"kind": "person"}, "Ann", "carried by Ann"),
    ({"kind": "person", "who": "\t"}, None, ""),
    ({"kind": "notification"}, None, "notification"),
    ({"kind": "notification", "where": "phone"}, None, "notification, phone"),
    ({"kind": "other", "name": "fax"}, None, "fax"),
    ({"kind": "other", "name": ""}, None, ""),
    (None, None, ""),
])
def test_carrier_text_table_of_3_4(carrier, starter, text):
    assert carrier_text(carrier, starter) == text


def test_carried_by_text():
    assert carried_by_text(None) == "no carrier named"
    assert carried_by_text({"kind": "pull-request"}) == "pull request (not named)"
    assert carried_by_text({"kind": "person"}) == "person (not named)"
    assert carried_by_text({"kind": "other", "name": " "}) == "other (not named)"
    assert carried_by_text({"kind": "branch", "repo": "r"}) == "branch on r"


def test_end_names_use_the_first_holder_and_fall_back_to_the_id():
    doc = ex.with_people(ex.tiny_shop(), [{"id": "maya", "name": ""}, {"id": "maya", "name": "Maya"},
                                          {"id": "coder", "name": "Person coder"}])
    doc["sessions"].append({"id": "coder", "name": "Second coder", "lane": "desk", "harness": "codex", "role": "r"})
    index = map_index(doc)
    assert end_name(index, "planner") == "Planner"
    assert end_name(index, "coder") == "Coder"  # the first session with the id
    assert end_name(index, "maya") == "maya"  # the first person with the id has an empty name
    assert end_name(index, "ghost") == "ghost"
    doc["sessions"][1]["name"] = ""
    assert end_name(map_index(doc), "coder") == "Person coder"  # an empty session name: the person's


def test_starter_name_in_carrier_text_is_the_first_person():
    doc = ex.with_people(ex.tiny_shop(), [{"id": "maya", "name": "Maya"}, {"id": "maya", "name": "Maya B."}])
    doc["handoffs"].append({"id": "h-a", "from": "maya", "to": "coder", "carrier": {"kind": "person"}})
    index = map_index(doc)
    h = doc["handoffs"][-1]
    assert starter_display_name(index, h) == "Maya"
    assert handoff_carrier_text(index, h) == "carried by Maya"
    assert handoff_carried_by(index, doc["handoffs"][0]) == "session message"
    assert starter_display_name(index, doc["handoffs"][0]) is None
    doc["people"][0]["name"] = ""
    assert handoff_carrier_text(map_index(doc), h) == "carried by maya"


def test_wakes_itself_first_handoff_decides():
    doc = ex.wakes_itself()
    doc["handoffs"].append({"id": "h-later", "from": "planner", "to": "planner",
                            "carrier": {"kind": "scheduled-message", "schedule": "never"}})
    doc["handoffs"].append({"id": "h-coder", "from": "coder", "to": "coder", "carrier": {"kind": "scheduled-message"}})
    doc["handoffs"].append({"id": "h-msg", "from": "planner", "to": "coder", "carrier": {"kind": "scheduled-message"}})
    assert wakes_itself(map_index(doc)) == {"planner": "every hour", "coder": ""}


def test_a_person_never_wakes_itself():
    doc = ex.with_people(ex.tiny_shop(), [{"id": "maya", "name": "Maya"}])
    doc["handoffs"].append({"id": "h", "from": "maya", "to": "maya", "carrier": {"kind": "scheduled-message"}})
    assert wakes_itself(map_index(doc)) == {}


def test_families():
    assert session_count({"id": "a"}) == 1 and not is_family({"id": "a"})
    assert session_count({"count": 1}) == 1 and not is_family({"count": 1})
    assert session_count({"count": 4.0}) == 4 and is_family({"count": 4.0})


def test_crossing_and_the_kinds_that_can_carry():
    index = map_index(ex.cross_accounts())
    c = crossing(index, "session-message", "planner", "coder")
    assert (c.crosses, c.values) == ("accounts", ("team account", "contractor account"))
    assert crossing(index, "branch", "planner", "coder") is None
    assert crossing(index, "session-message", "planner", "planner") is None
    assert kinds_that_can_carry(index, "planner", "coder") == ["branch", "pull-request", "person", "other"]
    same = map_index(ex.tiny_shop())
    assert kinds_that_can_carry(same, "planner", "coder") == [k for k in CARRIER_KINDS if k != "notification"]
    people = map_index(ex.person_starts())
    assert kinds_that_can_carry(people, "planner", "maya") == list(CARRIER_KINDS)
