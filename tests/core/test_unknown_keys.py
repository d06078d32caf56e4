"""W_UNKNOWN_KEY (graph.md §5, §5.1, §7; map.md §6.9, §10.10): what is walked, order, `at`, suggestions."""

from __future__ import annotations

import json

from grooph_core.rules.unknown_keys import unknown_key_issues

W = {"id": "w", "kind": "agent", "name": "W", "role": "builder", "brief": "Do it.", "outputs": ["out.txt"],
     "allow": ["edit-files"]}
END = {"id": "end", "kind": "stop", "name": "End"}


def graph(**fields):
    """A clean graph; the given fields come in the order given, the defaults after them."""
    doc = {"grooph": 0, "id": "g", "name": "G", "version": 1, **fields}
    doc.setdefault("nodes", [W, END])
    doc.setdefault("edges", [{"id": "e1", "from": "w", "to": "end"}])
    doc.setdefault("loops", [])
    return doc


def tiny_shop(**fields):
    return {"groophMap": 0, "id": "tiny-shop", "name": "Tiny shop", "version": 1,
            "lanes": [{"id": "desk", "name": "Desk", "machine": "a desktop", "account": "team account"}],
            "sessions": [{"id": "planner", "name": "Planner", "lane": "desk", "harness": "claude-code", "role": "Plans"},
                         {"id": "coder", "name": "Coder", "lane": "desk", "harness": "claude-code", "role": "Codes"}],
            "handoffs": [{"id": "h-task", "from": "planner", "to": "coder", "carrier": {"kind": "session-message"}}],
            **fields}


def paths(value, kind="graph"):
    return [i.pointers[0] for i in unknown_key_issues(value, kind)]


def test_clean_documents():
    assert unknown_key_issues(graph(), "graph") == []
    assert unknown_key_issues(tiny_shop(), "map") == []


def test_graph_md_7_example():
    doc = graph(edges=[{"id": "e1", "from": "w", "to": "end", "lable": "go"}])
    (issue,) = unknown_key_issues(doc, "graph")
    assert issue.code == "W_UNKNOWN_KEY" and issue.severity == "warning"
    assert issue.at == ("e1",)
    assert issue.pointers == ("/edges/0/lable",) and issue.on_key
    assert issue.message == '/edges/0/lable: unknown key "lable"; did you mean "label"? The key is kept but ignored'
    assert issue.facts.key == "lable" and issue.facts.suggestion == "label"
    assert issue.facts.holder == "/edges/0" and issue.facts.suggestion_present is False


def test_map_md_10_10_example():
    doc = tiny_shop()
    doc["sessions"][1]["lifetme"] = "per-task"
    (issue,) = unknown_key_issues(doc, "map")
    assert issue.at == ("coder",)
    assert issue.message.startswith('/sessions/1/lifetme: unknown key "lifetme"; did you mean "lifetime"?')


def test_no_suggestion_when_nothing_is_close():
    (issue,) = unknown_key_issues(graph(colour="blue"), "graph")
    assert issue.message == '/colour: unknown key "colour"; the key is kept but ignored'
    assert issue.facts.suggestion is None


def test_suggestion_present_tells_a_rename_would_clash():
    doc = graph(edges=[{"id": "e1", "from": "w", "to": "end", "label": "a", "lable": "b"}])
    (issue,) = unknown_key_issues(doc, "graph")
    assert issue.facts.suggestion == "label" and issue.facts.suggestion_present is True


def test_fields_are_declared_per_node_kind():
    """graph.md §1.3: `irreversible` on a check or `by` on a human gate is an unknown key there."""
    nodes = [W, {"id": "t", "kind": "check", "name": "T", "check": {"kind": "tests", "pass": "ok"}, "irreversible": []},
             {"id": "h", "kind": "human-gate", "name": "H", "prompt": "?", "by": "person"}, END]
    assert paths(graph(nodes=nodes)) == ["/nodes/1/irreversible", "/nodes/2/by"]


def test_every_declared_inline_object_is_walked():
    doc = graph(
        target={"harness": "codex", "x": 1}, constraints={"budget": "low", "x": 1}, lineage={"from": "a@1", "x": 1},
        template={"kind": "graph", "title": "T", "summary": "S", "whenToUse": "U", "x": 1,
                  "profile": {"cost": "low", "speed": "fast", "rigor": "high", "x": 1},
                  "slots": [{"key": "k", "ask": "a", "example": "e", "x": 1}],
                  "credits": [{"name": "n", "url": "u", "note": "n", "x": 1}]},
        nodes=[dict(W, role={"custom": "maker", "x": 1}, model={"tier": "fast", "x": 1, "pin": {"x": "y"}}),
               {"id": "t", "kind": "check", "name": "T", "check": {"kind": "tests", "pass": "ok", "x": 1}}, END],
        edges=[{"id": "e1", "from": "w", "to": "end", "when": {"verdict": "ok", "x": 1},
                "concurrency": {"max": 1, "x": 1}, "retry": {"max": 0, "x": 1}}],
        loops=[{"id": "l", "name": "L", "members": [], "back": [], "x": 1,
                "bar": {"name": "B", "acceptance": "a", "x": 1, "inspects": [{"kind": "file", "ref": "r", "x": 1}]},
                "stops": [{"kind": "budget", "measure": "usd", "limit": 1, "x": 1}]}],
        policies=[{"id": "p", "kind": {"custom": "c", "x": 1}, "scope": "graph", "params": {"x": 1}, "y": 1}],
        groups=[{"id": "gr", "name": "G", "members": [], "with": {"x": "1"}, "y": 1}],
        notes=[{"id": "n", "run": "r", "at": "graph", "x": 1, "cost": {"measure": "usd", "amount": 1, "x": 1},
                "proposal": {"summary": "s", "x": 1, "patch": {"x": 1}},
                "amendment": {"summary": "s", "reason": "r", "x": 1, "patch": {"x": {"y": 1}}}}],
        layout={"w": {"x": 1, "y": 2, "q": 3}},
    )
    assert paths(doc) == [
        "/target/x", "/constraints/x", "/lineage/x",
        "/template/x", "/template/profile/x", "/template/slots/0/x", "/template/credits/0/x",
        "/nodes/0/role/x", "/nodes/0/model/x", "/nodes/1/check/x",
        "/edges/0/when/x", "/edges/0/concurrency/x", "/edges/0/retry/x",
        "/loops/0/x", "/loops/0/bar/x", "/loops/0/bar/inspects/0/x", "/loops/0/stops/0/x",
        "/policies/0/kind/x", "/policies/0/y", "/groups/0/y",
        "/notes/0/x", "/notes/0/cost/x", "/notes/0/proposal/x", "/notes/0/amendment/x",
        "/layout/w/q",
    ]


def test_records_patches_and_unknown_values_are_not_walked():
    doc = graph(extra={"deep": {"anything": 1}}, layout={"not-a-node": {"x": 0, "y": 0}},
                notes=[{"id": "n", "run": "r", "at": "graph", "proposal": {"summary": "s", "patch": {"z": 1}}}])
    assert paths(doc) == ["/extra"]


def test_order_follows_the_document_with_integer_like_keys_first():
    doc = json.loads('{"zeta":1,"grooph":0,"id":"g","name":"G","version":1,"nodes":[],"edges":[],"loops":[],'
                     '"alpha":2,"10":3,"9":4,"007":5}')
    assert paths(doc) == ["/9", "/10", "/zeta", "/alpha", "/007"]


def test_proto_is_an_ordinary_key():
    """graph.md §8.3: `__proto__` is reported like any unknown key."""
    assert paths(json.loads('{"__proto__":{"id":"x"},"grooph":0,"id":"g","name":"G","version":1,'
                            '"nodes":[],"edges":[],"loops":[]}')) == ["/__proto__"]


def test_pointer_escapes_the_key():
    assert paths(graph(**{"a/b": 1, "c~d": 2})) == ["/a~1b", "/c~0d"]


class TestAt:
    def test_graph_uses_the_holders_nearest_id_else_the_graph_id(self):
        doc = graph(extra={"id": "inner"}, target={"harness": "codex", "x": 1}, layout={"w": {"x": 1, "y": 1, "q": 1}})
        doc["nodes"] = [dict(W, role={"custom": "c", "y": 1}), END]
        issues = unknown_key_issues(doc, "graph")
        assert [(i.pointers[0], i.at) for i in issues] == [
            ("/extra", ("g",)), ("/target/x", ("g",)), ("/layout/w/q", ("g",)), ("/nodes/0/role/y", ("w",))]

    def test_map_uses_the_full_path_and_may_stay_empty(self):
        """map.md §6.9: a root key has no `at` unless its own value has a string id."""
        doc = tiny_shop(extra={"id": "inner"}, other=1)
        doc["handoffs"][0]["carrier"]["repo"] = "x"
        doc["lanes"][0]["zone"] = {"id": "z"}
        issues = unknown_key_issues(doc, "map")
        assert [(i.pointers[0], i.at) for i in issues] == [
            ("/lanes/0/zone", ("z",)), ("/handoffs/0/carrier/repo", ("h-task",)), ("/extra", ("inner",)), ("/other", ()),
        ]


def test_carrier_declares_only_its_kinds_fields():
    doc = tiny_shop()
    doc["handoffs"][0]["carrier"] = {"kind": "branch", "repo": "r", "ref": "main", "where": "x", "who": "y"}
    assert paths(doc, "map") == ["/handoffs/0/carrier/where", "/handoffs/0/carrier/who"]


def test_suggestions_come_from_the_holders_declared_fields_in_canonical_order():
    doc = tiny_shop()
    doc["lanes"][0]["acount"] = "x"
    doc["people"] = [{"id": "maya", "name": "Maya", "rol": "x"}]
    assert [i.facts.suggestion for i in unknown_key_issues(doc, "map")] == ["account", "role"]
