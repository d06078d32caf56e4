"""Repair-checker gaps found by mutating the code (issue 13): each was a change of the code that no test
noticed. The brake check of operations.md §8.1 on stops that are no brake and stop entries that are not
objects; a fresh id on a map that must avoid handoff ids (§3.3 unique over map.md §2.8's id set); a
document edit through an array index one past the end (§8.2: an edit that cannot apply is refused)."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from grooph_core.ops.brakes import loosened
from grooph_core.ops.doc_edits import apply_edits
from grooph_core.ops.repairs import repairs_for, result_of
from grooph_core.rules.validate import validate_value

from .helpers import base_doc

NON_BRAKE_STOPS = [{"kind": "bar-passed"}, {"kind": "diminishing-returns", "window": 2},
                   {"kind": "evidence-invalid"}]
MAP = Path(__file__).parents[3] / "fixtures" / "maps" / "valid" / "tiny-shop.grooph-map.json"


def _with_stops(stops: list) -> dict:
    d = base_doc()
    d["loops"][0]["stops"] = copy.deepcopy(stops)
    return d


BRAKES = [{"kind": "max-iterations", "n": 3}, {"kind": "budget", "measure": "dispatches", "limit": 9}]


@pytest.mark.parametrize("stop", NON_BRAKE_STOPS, ids=lambda s: s["kind"])
def test_removing_a_trailing_non_brake_stop_loosens_nothing(stop):
    before = _with_stops(BRAKES + [stop])
    assert loosened(before, _with_stops(BRAKES)) == []


@pytest.mark.parametrize("stop", NON_BRAKE_STOPS, ids=lambda s: s["kind"])
def test_removing_a_non_brake_stop_before_the_brakes_loosens_nothing(stop):
    """The brakes move up a place: they come due no later than before."""
    before = _with_stops([stop] + BRAKES)
    assert loosened(before, _with_stops(BRAKES)) == []


def test_removing_a_brake_among_non_brake_stops_is_still_caught():
    before = _with_stops([{"kind": "bar-passed"}] + BRAKES)
    found = loosened(before, _with_stops([{"kind": "bar-passed"}, BRAKES[1]]))
    assert found == ['max-iterations stop 1 of loop "fix" removed or moved']


def test_a_brake_moved_after_a_stop_that_leads_on_is_caught():
    leads_on = {"kind": "bar-passed", "then": "critic"}
    found = loosened(_with_stops([BRAKES[0], leads_on]), _with_stops([leads_on, BRAKES[0]]))
    assert found == ['max-iterations stop 0 of loop "fix" moved after a stop that leads on']


@pytest.mark.parametrize("junk", ["max-iterations", 7, None, ["budget"]], ids=repr)
def test_a_stop_entry_that_is_not_an_object_is_skipped(junk):
    before = _with_stops([junk] + BRAKES + [junk])
    assert loosened(before, _with_stops(BRAKES)) == []
    assert loosened(_with_stops(BRAKES), _with_stops([junk, junk] + BRAKES)) == []
    # a brake replaced by such an entry is removed
    assert loosened(_with_stops(BRAKES), _with_stops([junk, BRAKES[1]])) == [
        'max-iterations stop 0 of loop "fix" removed or moved']


def test_a_fresh_session_id_avoids_the_handoff_ids():
    """Session "Planner X" beside handoff "planner-x": slug("Planner X") is taken by the handoff, so the
    repair gives "planner-x-2" (a new duplicate would go unseen by §8.2 while E_SCHEMA errors exist)."""
    m = json.loads(MAP.read_text(encoding="utf-8"))
    m["sessions"][0]["id"] = "Planner X"
    m["handoffs"][0]["id"] = "planner-x"
    m["handoffs"][0]["from"] = "Planner X"
    m["handoffs"][1]["to"] = "Planner X"
    issue = next(i for i in validate_value(m, "map") if i.pointers == ("/sessions/0/id",))
    (repair,) = repairs_for(issue, m, "map")
    assert repair.title == 'Make the id "Planner X" valid: "planner-x-2" (references follow)'
    fixed = result_of(repair, m, "map")
    assert fixed["sessions"][0]["id"] == "planner-x-2"
    assert fixed["handoffs"][0]["from"] == "planner-x-2" and fixed["handoffs"][1]["to"] == "planner-x-2"
    assert not [i for i in validate_value(fixed, "map") if i.code in ("E_SCHEMA", "E_DUPLICATE_ID")]


@pytest.mark.parametrize("edit", [
    {"edit": "set", "at": "/a/2", "value": 3},
    {"edit": "remove", "at": "/a/2"},
    {"edit": "renameKey", "at": "/a/2", "to": "x"},
    {"edit": "set", "at": "/a/2/x", "value": 3},
    {"edit": "remove", "at": "/a/2/x"},
    {"edit": "set", "at": "/a/01", "value": 3},
    {"edit": "set", "at": "/a/\u00b2", "value": 3},  # a superscript two: str.isdigit says yes
    {"edit": "set", "at": "/a/-", "value": 3},
], ids=lambda e: f'{e["edit"]} {e["at"]}')
def test_an_edit_through_an_index_past_the_end_is_refused(edit):
    doc = {"a": [1, {"x": 2}]}
    result = apply_edits(doc, [edit])
    assert not result.ok and result.doc is None
    assert result.error.startswith(("nothing at ", "no key at ")) and edit["at"] in result.error
    assert doc == {"a": [1, {"x": 2}]}


def test_an_edit_at_the_last_index_applies():
    assert apply_edits({"a": [1, {"x": 2}]}, [{"edit": "set", "at": "/a/1/x", "value": 3}]).doc == {"a": [1, {"x": 3}]}
    assert apply_edits({"a": [1, 2]}, [{"edit": "remove", "at": "/a/1"}]).doc == {"a": [1]}
