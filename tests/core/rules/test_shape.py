"""The shape of a map: the object and the line (map.md §8.1, §8.2; cli.md §3.2)."""

from __future__ import annotations

import sys
from pathlib import Path

from grooph_core.semantics.map_shape import map_shape, shape_line

sys.path.insert(0, str(Path(__file__).parent))
import map_examples as ex  # noqa: E402


def test_bakery_ops_shape_object_in_key_order():
    shape = map_shape(ex.bakery_ops())
    assert shape == {
        "lanes": 2,
        "sessions": 3,
        "sessionsCounted": 6,
        "handoffs": 6,
        "carriers": {"session-message": 2, "pull-request": 1, "branch": 1, "scheduled-message": 1, "notification": 1},
        "harnesses": {"claude-code": 5, "codex": 1},
        "crossLane": 2,
        "byHand": [{"handoff": "h-menu", "from": "ana", "to": "chef", "who": "Ana", "starts": True}],
        "people": 1,
    }
    assert list(shape) == ["lanes", "sessions", "sessionsCounted", "handoffs", "carriers", "harnesses", "crossLane",
                           "byHand", "people"]
    assert list(shape["carriers"]) == ["session-message", "pull-request", "branch", "scheduled-message", "notification"]


def test_spec_lines():
    assert shape_line(map_shape(ex.tiny_shop())) == "1 lane · 2 sessions · 2 handoffs"  # map.md §8.2
    assert shape_line(map_shape(ex.bakery_ops())) == \
        "2 lanes · 3 sessions (6 counting families) · 1 person · 6 handoffs, 1 waiting on a person"  # pictures.md §12.2
    assert shape_line(map_shape(ex.person_starts())) == \
        "1 lane · 2 sessions · 1 person · 3 handoffs, 1 waiting on a person"  # map.md §10.12


def test_cli_example_line():
    """cli.md §3.2: `3 lanes · 7 sessions (18 counting families) · 10 handoffs, 2 carried by a person`."""
    shape = {"lanes": 3, "sessions": 7, "sessionsCounted": 18, "handoffs": 10, "carriers": {}, "harnesses": {},
             "crossLane": 0, "byHand": [{"handoff": "a", "from": "x", "to": "y", "who": ""},
                                        {"handoff": "b", "from": "x", "to": "y", "who": "Bo"}]}
    assert shape_line(shape) == "3 lanes · 7 sessions (18 counting families) · 10 handoffs, 2 carried by a person"


def test_map_82_second_example_line():
    """map.md §8.2 second example."""
    shape = {"lanes": 2, "sessions": 3, "sessionsCounted": 6, "handoffs": 6, "carriers": {}, "harnesses": {},
             "crossLane": 0, "byHand": [{"handoff": "a", "from": "x", "to": "y", "who": "X", "starts": True}],
             "people": 1}
    assert shape_line(shape) == "2 lanes · 3 sessions (6 counting families) · 1 person · 6 handoffs, 1 waiting on a person"


def test_singular_and_plural_and_empty_map():
    empty = {"groophMap": 0, "id": "e", "name": "", "version": 0, "lanes": [], "sessions": [], "handoffs": []}
    assert shape_line(map_shape(empty)) == "0 lanes · 0 sessions · 0 handoffs"
    doc = ex.with_people(ex.wakes_itself(), [{"id": "a", "name": "A"}, {"id": "b", "name": "B"}])
    doc["sessions"] = doc["sessions"][:1]
    doc["handoffs"] = doc["handoffs"][2:]
    assert shape_line(map_shape(doc)) == "1 lane · 1 session · 2 people · 1 handoff"


def test_people_is_absent_without_people_and_counts_distinct_ids():
    assert "people" not in map_shape(ex.tiny_shop())
    assert "people" not in map_shape(ex.with_people(ex.tiny_shop(), []))
    doc = ex.with_people(ex.tiny_shop(), [{"id": "a", "name": ""}, {"id": "a", "name": ""}, {"id": "b", "name": ""}])
    assert map_shape(doc)["people"] == 2


def test_waiting_wins_over_carried_when_any_entry_starts_at_a_person():
    doc = ex.person_starts()
    doc["handoffs"].append({"id": "h-relay", "from": "coder", "to": "planner", "carrier": {"kind": "person", "who": "Bo"}})
    assert shape_line(map_shape(doc)).endswith("4 handoffs, 2 waiting on a person")


def test_families_counts_harnesses_and_none_carrier():
    doc = ex.missing_carrier()
    doc["sessions"][0]["count"] = 3.0  # 3.0 is the integer 3
    doc["sessions"][1]["harness"] = "codex"
    doc["sessions"][1]["count"] = 2
    shape = map_shape(doc)
    assert shape["sessionsCounted"] == 5 and isinstance(shape["sessionsCounted"], int)
    assert shape["harnesses"] == {"claude-code": 3, "codex": 2}
    assert shape["carriers"] == {"none": 1, "pull-request": 1}
    assert shape_line(shape) == "1 lane · 2 sessions (5 counting families) · 2 handoffs"


def test_count_one_is_not_a_family():
    doc = ex.tiny_shop()
    doc["sessions"][0]["count"] = 1
    assert shape_line(map_shape(doc)) == "1 lane · 2 sessions · 2 handoffs"


def test_cross_lane_compares_lane_strings_even_for_missing_lanes():
    doc = ex.tiny_shop()
    doc["sessions"][1]["lane"] = "nowhere"  # dangling, still a different lane string
    doc["handoffs"].append({"id": "h-p", "from": "planner", "to": "ghost", "carrier": {"kind": "session-message"}})
    assert map_shape(doc)["crossLane"] == 2  # h-task and h-result; h-p has a dangling end


def test_game_studio():
    import json

    fixture = Path(__file__).resolve().parents[3] / "fixtures/maps/valid/game-studio.grooph-map.json"
    doc = json.loads(fixture.read_text("utf-8"))
    shape = map_shape(doc)
    assert set(shape["carriers"]) == {"branch", "pull-request", "session-message", "scheduled-message",
                                      "review-page", "person", "notification", "other"}
    assert shape_line(shape) == "3 lanes · 6 sessions (12 counting families) · 2 people · 12 handoffs, 3 waiting on a person"
