"""The one model of references (graph.md §1.11, map.md §2.8, operations.md §5.8), compiled from the
model's markers: the places it finds are exactly the spec's, and a rename rewrites exactly those."""

from __future__ import annotations

from grooph_core.semantics.references import REFERABLE, ID_LISTS, occurrences, rewrite_id

GRAPH = {
    "grooph": 0, "id": "g",
    "nodes": [{"id": "a", "kind": "agent"}, {"id": "b", "kind": "stop"}],
    "edges": [{"id": "a-b", "from": "a", "to": "b"}],
    "loops": [{"id": "l", "members": ["a"], "back": ["a-b"], "bar": {"answerKeyFrom": "a"},
               "stops": [{"kind": "budget", "then": "b"}]}],
    "policies": [{"id": "p", "scope": "node:a"}, {"id": "q", "scope": "graph"}],
    "groups": [{"id": "grp", "members": ["a", "grp2"]}],
    "notes": [{"id": "n", "at": "node:a"}],
    "layout": {"a": {"x": 0, "y": 0}},
}


def test_graph_places_are_those_of_graph_md_1_11_in_collection_order():
    got = [(o.pointer, o.target, o.definition) for o in occurrences(GRAPH, "graph")]
    assert got == [
        ("/id", "graph", True),
        ("/nodes/0/id", "node", True), ("/nodes/1/id", "node", True),
        ("/edges/0/id", "edge", True), ("/edges/0/from", "node", False), ("/edges/0/to", "node", False),
        ("/loops/0/id", "loop", True), ("/loops/0/members/0", "node", False), ("/loops/0/back/0", "edge", False),
        ("/loops/0/bar/answerKeyFrom", "node", False), ("/loops/0/stops/0/then", "node", False),
        ("/groups/0/id", "group", True), ("/groups/0/members/0", "node|group", False),
        ("/groups/0/members/1", "node|group", False),
        ("/policies/0/id", "policy", True), ("/policies/0/scope", "node", False), ("/policies/1/id", "policy", True),
        ("/notes/0/id", "note", True),
        ("/layout/a", "node", False),
    ]
    assert list(ID_LISTS["graph"]) == ["nodes", "edges", "loops", "groups", "policies", "notes"]
    assert REFERABLE["graph"] == {"node", "edge", "loop", "group"}


def test_map_places_are_those_of_map_md_2_8():
    doc = {"groophMap": 0, "id": "m", "lanes": [{"id": "l"}], "people": [{"id": "p"}],
           "sessions": [{"id": "s", "lane": "l"}], "handoffs": [{"id": "h", "from": "s", "to": "p"}]}
    got = [(o.pointer, o.target, o.definition) for o in occurrences(doc, "map")]
    assert got == [("/id", "map", True), ("/lanes/0/id", "lane", True), ("/people/0/id", "person", True),
                   ("/sessions/0/id", "session", True), ("/sessions/0/lane", "lane", False),
                   ("/handoffs/0/id", "handoff", True), ("/handoffs/0/from", "session|person", False),
                   ("/handoffs/0/to", "session|person", False)]
    assert REFERABLE["map"] == {"lane", "session", "person"}


def test_rewrite_keeps_notes_and_layout_order():
    import copy

    doc = copy.deepcopy(GRAPH)
    doc["layout"] = {"z": {}, "a": {"x": 1}, "y": {}}
    rewrite_id(doc, "graph", "a", "x", keep=frozenset({"graph", "note"}))
    assert doc["nodes"][0]["id"] == "x" and doc["edges"][0]["from"] == "x"
    assert doc["policies"][0]["scope"] == "node:x" and doc["loops"][0]["bar"]["answerKeyFrom"] == "x"
    assert doc["notes"][0]["at"] == "node:a"  # a note's place is free text, never rewritten
    assert list(doc["layout"]) == ["z", "x", "y"]
