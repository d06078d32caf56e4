"""E_SCHEMA, the structural check (graph.md §4, map.md §5): walk order, messages, `at`, pointers."""

from __future__ import annotations

import copy
import json

import pytest

from grooph_core.schema.check import nearest_id, not_json_issue, schema_issues

W = {"id": "w", "kind": "agent", "name": "W", "role": "builder", "brief": "Do it.", "outputs": ["out.txt"],
     "allow": ["edit-files"]}
END = {"id": "end", "kind": "stop", "name": "End"}


def graph(**fields):
    return {"grooph": 0, "id": "g", "name": "G", "version": 1, "nodes": [W, END],
            "edges": [{"id": "e1", "from": "w", "to": "end"}], "loops": [], **fields}


TINY_SHOP = {
    "groophMap": 0, "id": "tiny-shop", "name": "Tiny shop", "version": 1,
    "lanes": [{"id": "desk", "name": "Desk", "machine": "a desktop", "account": "team account"}],
    "sessions": [
        {"id": "planner", "name": "Planner", "lane": "desk", "harness": "claude-code", "role": "Splits the work"},
        {"id": "coder", "name": "Coder", "lane": "desk", "harness": "claude-code", "role": "Writes the change"},
    ],
    "handoffs": [
        {"id": "h-task", "from": "planner", "to": "coder", "carrier": {"kind": "session-message"}},
        {"id": "h-result", "from": "coder", "to": "planner", "carrier": {"kind": "pull-request", "repo": "acme/shop"}},
    ],
}


def messages(value, kind="graph"):
    return [i.message for i in schema_issues(value, kind)]


def test_clean_documents_have_no_issue():
    assert schema_issues(graph(), "graph") == []
    assert schema_issues(TINY_SHOP, "map") == []


def test_graph_md_7_example_gives_four_issues_in_order():
    """graph.md §7 E_SCHEMA: /id, /version, /nodes/0/outputs, /nodes/0/skills/0, nothing else."""
    doc = json.loads('{"grooph":0,"id":"Bad Id","name":"X","version":1.5,"edges":[],"loops":[],'
                     '"nodes":[{"id":"a","kind":"agent","name":"A","role":"builder","brief":"b","outputs":[],'
                     '"skills":["two words"]}]}')
    issues = schema_issues(doc, "graph")
    assert [i.code for i in issues] == ["E_SCHEMA"] * 4
    assert all(i.severity == "error" for i in issues)
    assert [i.message for i in issues] == [
        '/id: expected kebab-case id matching ^[a-z][a-z0-9-]*$, got "Bad Id"',
        "/version: expected integer, got 1.5",
        "/nodes/0/outputs: expected at least 1 item(s), got 0",
        '/nodes/0/skills/0: expected skill name matching ^[A-Za-z0-9._:/\\[\\]-]+$, got "two words"',
    ]
    assert [list(i.at) for i in issues] == [[], [], ["a"], ["a"]]
    assert [i.pointers for i in issues] == [("/id",), ("/version",), ("/nodes/0/outputs",), ("/nodes/0/skills/0",)]


def test_not_json_issue():
    issue = not_json_issue("Expecting value at line 1, column 13")
    assert issue.code == "E_SCHEMA" and issue.at == ()
    assert issue.message == "/: not valid JSON: Expecting value at line 1, column 13"
    assert issue.pointers == ("",)


def test_root_that_is_not_an_object():
    assert messages([]) == ["/: expected graph document, got array"]
    assert messages(None, "map") == ["/: expected operation map, got null"]
    assert messages("x", "map") == ["/: expected operation map, got string"]


def test_missing_fields_come_first_in_declared_order_then_present_fields():
    doc = {"version": "1", "id": "g", "grooph": 0}
    assert messages(doc) == [
        '/name: missing required property "name"',
        '/nodes: missing required property "nodes"',
        '/edges: missing required property "edges"',
        '/loops: missing required property "loops"',
        "/version: expected integer, got string",
    ]
    issue = schema_issues(doc, "graph")[0]
    assert issue.pointers == ("",) and issue.on_key is True and issue.facts.field == "name"


def test_missing_field_points_at_the_object_lacking_it():
    doc = graph(edges=[{"id": "e1", "from": "w"}])
    (issue,) = schema_issues(doc, "graph")
    assert issue.message == '/edges/0/to: missing required property "to"'
    assert issue.pointers == ("/edges/0",) and issue.on_key
    assert issue.at == ("e1",)


def test_null_in_a_declared_place_is_an_error_not_absent():
    assert messages(graph(goal=None)) == ["/goal: expected string, got null"]
    assert messages(graph(policies=None)) == ["/policies: expected array of Policy, got null"]


def test_unknown_keys_and_semantic_facts_are_not_schema_errors():
    doc = graph(extra=1, loops=[{"id": "l", "name": "L", "members": [], "back": [], "stops": [],
                                 "bar": {"name": "B", "inspects": [], "acceptance": "ok"}}],
                edges=[{"id": "e1", "from": "ghost", "to": "ghost", "lable": "x"}])
    doc["nodes"] = [dict(W, by="person", irreversible=["x"], zzz=1), dict(END, id="w")]
    assert schema_issues(doc, "graph") == []


def test_fields_of_another_kind_are_not_schema_errors():
    node = {"id": "t", "kind": "check", "name": "T", "check": {"kind": "tests", "pass": "exit 0"},
            "irreversible": 5, "by": "nobody"}
    assert schema_issues(graph(nodes=[node]), "graph") == []


class TestDiscriminatedUnions:
    def test_bad_kind_is_one_issue_at_kind_and_nothing_inside(self):
        node = {"id": "x", "kind": "worker", "name": 5, "outputs": []}
        (issue,) = schema_issues(graph(nodes=[node]), "graph")
        assert issue.message == ('/nodes/0/kind: expected kind to be one of agent | human-gate | check | merge | stop, '
                                 'got "worker"')
        assert issue.pointers == ("/nodes/0/kind",) and not issue.on_key
        assert issue.at == ("x",)

    def test_absent_kind_says_nothing(self):
        (issue,) = schema_issues(graph(nodes=[{"id": "x", "name": "X"}]), "graph")
        assert issue.message.endswith("got nothing")
        assert issue.message.startswith("/nodes/0/kind: ")
        assert issue.pointers == ("/nodes/0",) and issue.on_key

    def test_non_string_kind_is_written_as_compact_json(self):
        stops = [{"kind": ["max-iterations"], "n": 3}]
        loop = {"id": "l", "name": "L", "members": ["w"], "back": [], "stops": stops}
        (issue,) = schema_issues(graph(loops=[loop]), "graph")
        assert issue.message == ('/loops/0/stops/0/kind: expected kind to be one of human | budget | bar-passed | '
                                 'diminishing-returns | evidence-invalid | max-iterations, got ["max-iterations"]')

    def test_constructor_is_just_an_unknown_kind(self):
        """graph.md §8.3: `constructor` as a kind is simply an unknown kind."""
        (issue,) = schema_issues(graph(nodes=[{"id": "x", "kind": "constructor", "name": "X"}]), "graph")
        assert '"constructor"' in issue.message

    def test_node_that_is_not_an_object(self):
        assert messages(graph(nodes=[5])) == [
            "/nodes/0: expected node with kind one of agent | human-gate | check | merge | stop, got number"]

    def test_chosen_branch_is_checked_as_an_object(self):
        node = {"id": "t", "kind": "check", "name": "T", "check": {"kind": "unit", "threshold": "high"}}
        assert messages(graph(nodes=[node])) == [
            '/nodes/0/check/pass: missing required property "pass"',
            '/nodes/0/check/kind: expected one of command | tests | diff | metric | evidence, got "unit"',
            "/nodes/0/check/threshold: expected number, got string",
        ]


class TestAlternatives:
    def test_role_custom_with_a_bad_value_is_reported_once_at_role(self):
        node = dict(W, role={"custom": 5})
        assert messages(graph(nodes=[node, END])) == [
            "/nodes/0/role: expected one of lead | planner | builder | critic | tester | researcher | red-team | "
            'judge | synthesizer | {custom: string}, got {"custom":5}']

    def test_accepted_alternatives(self):
        assert schema_issues(graph(nodes=[dict(W, role={"custom": "publisher", "x": 1}), END]), "graph") == []
        edges = [{"id": "e1", "from": "w", "to": "end", "when": {"verdict": "approve"}}]
        assert schema_issues(graph(edges=edges), "graph") == []

    def test_when_and_policy_kind_and_params(self):
        doc = graph(edges=[{"id": "e1", "from": "w", "to": "end", "when": "sometimes"}],
                    policies=[{"id": "p", "kind": {"custom": 1}, "scope": "graph",
                               "params": {"a": "x", "b": 2.5, "c": False, "d": None}}])
        assert messages(doc) == [
            '/edges/0/when: expected one of always | pass | fail | {verdict: string}, got "sometimes"',
            "/policies/0/kind: expected one of critic-isolation | no-self-grading | owner-per-artifact | "
            'concurrency-cap | no-live-graph-rewrite | evidence-required | {custom: string}, got {"custom":1}',
            "/policies/0/params/d: expected string | number | boolean, got null",
        ]


class TestNumbers:
    @pytest.mark.parametrize("value", [0, 0.0, -0.0])
    def test_grooph_zero_in_any_spelling(self, value):
        assert schema_issues(graph(grooph=value), "graph") == []

    @pytest.mark.parametrize("value,found", [(False, "false"), ("0", '"0"'), (None, "null"), (1, "1")])
    def test_grooph_literal(self, value, found):
        assert messages(graph(grooph=value)) == [f"/grooph: expected the literal 0, got {found}"]

    def test_integer_checks_report_only_the_first_problem(self):
        assert messages(graph(version=-1.5)) == ["/version: expected integer, got -1.5"]
        assert messages(graph(version=-1)) == ["/version: expected integer >= 0, got -1"]
        assert messages(graph(version=True)) == ["/version: expected integer, got boolean"]
        assert messages(graph(version=float("inf"))) == ["/version: expected integer, got Infinity"]
        assert schema_issues(graph(version=3.0), "graph") == []
        assert schema_issues(graph(version=12345678901234567890), "graph") == []

    def test_number_minimum_and_fractions(self):
        loop = {"id": "l", "name": "L", "members": ["w"], "back": [],
                "stops": [{"kind": "budget", "measure": "usd", "limit": 0.5},
                          {"kind": "budget", "measure": "usd", "limit": -0.25},
                          {"kind": "max-iterations", "n": 0},
                          {"kind": "human", "every": 1e400}]}
        assert messages(graph(loops=[loop])) == [
            "/loops/0/stops/1/limit: expected number >= 0, got -0.25",
            "/loops/0/stops/2/n: expected integer >= 1, got 0",
            "/loops/0/stops/3/every: expected integer, got Infinity",
        ]

    def test_numbers_in_messages_are_written_as_ecmascript_does(self):
        assert messages(graph(version=1e-7)) == ["/version: expected integer, got 1e-7"]
        assert messages(graph(version=0.000001 + 1e21)) == []  # 1e21 is an integer double


class TestStrings:
    def test_capability_empty_then_one_line(self):
        node = dict(W, allow=["", "a\u2028b", 5, "custom thing"])
        assert messages(graph(nodes=[node, END])) == [
            "/nodes/0/allow/0: expected capability (non-empty string), got string",
            '/nodes/0/allow/1: expected capability matching ^[^\\u0000-\\u001f\\u007f-\\u009f\\u2028\\u2029]*$, '
            'got "a\u2028b"',
            "/nodes/0/allow/2: expected capability (non-empty string), got number",
        ]

    def test_harness_whitespace_passes_empty_fails(self):
        assert schema_issues(graph(target={"harness": "   "}), "graph") == []
        assert messages(graph(target={"harness": ""})) == [
            "/target/harness: expected harness id (non-empty string), got string"]

    def test_patterns_match_the_whole_string_without_a_trailing_newline(self):
        """map.md §2.1: Python's `$` would accept "g\\n"; ECMAScript's does not."""
        assert messages(graph(id="g\n")) == ['/id: expected kebab-case id matching ^[a-z][a-z0-9-]*$, got "g\\n"']

    def test_date_digits_are_ascii_only(self):
        doc = dict(TINY_SHOP, asOf="2026-01-0\u0661")
        assert messages(doc, "map") == ['/asOf: expected date as YYYY-MM-DD matching ^\\d{4}-\\d{2}-\\d{2}$, '
                                        'got "2026-01-0\u0661"']
        assert schema_issues(dict(TINY_SHOP, asOf="2026-13-45"), "map") == []

    def test_scope_note_location_and_source_patterns(self):
        doc = graph(policies=[{"id": "p", "kind": "critic-isolation", "scope": "lane:x"}],
                    groups=[{"id": "b", "name": "B", "members": [], "from": "tpl@01"}],
                    notes=[{"id": "n", "run": "r", "at": "group:b", "outcome": ""}])
        assert messages(doc) == [
            '/policies/0/scope: expected scope (graph | loop:<id> | node:<id> | edge:<id>) matching '
            '^(graph|loop:[a-z][a-z0-9-]*|node:[a-z][a-z0-9-]*|edge:[a-z][a-z0-9-]*)$, got "lane:x"',
            '/groups/0/from: expected <template id>@<version> matching ^[a-z][a-z0-9-]*@[1-9][0-9]*$, got "tpl@01"',
            '/notes/0/at: expected location (graph | node:<id> | edge:<id> | loop:<id>) matching '
            '^(graph|node:[a-z][a-z0-9-]*|edge:[a-z][a-z0-9-]*|loop:[a-z][a-z0-9-]*)$, got "group:b"',
            '/notes/0/outcome: expected string of at least 1 character(s), got ""',
        ]

    def test_one_line_group_description(self):
        doc = graph(groups=[{"id": "b", "name": "B", "members": [], "description": "two\u0085lines"}])
        (issue,) = schema_issues(doc, "graph")
        assert issue.message.startswith("/groups/0/description: expected one line of text matching ")


class TestRecords:
    def test_layout_keys_in_javascript_order_key_issue_before_value(self):
        doc = graph(layout={"end": {"x": 0, "y": 0}, "Two Words": {"x": "1", "y": 0}, "7": {"x": 1}})
        issues = schema_issues(doc, "graph")
        assert [i.message for i in issues] == [
            '/layout/7: expected node id matching ^[a-z][a-z0-9-]*$ as key, got "7"',
            '/layout/7/y: missing required property "y"',
            '/layout/Two Words: expected node id matching ^[a-z][a-z0-9-]*$ as key, got "Two Words"',
            "/layout/Two Words/x: expected number, got string",
        ]
        assert issues[0].on_key and issues[0].pointers == ("/layout/7",)
        assert all(i.at == () for i in issues)

    def test_slot_keys_use_the_ecmascript_whitespace_set(self):
        """graph.md §0.1: U+001C is not ECMAScript whitespace (Python's \\s says it is); U+FEFF is."""
        ok = graph(groups=[{"id": "b", "name": "B", "members": [], "with": {"a\u001cb": "x"}}])
        assert schema_issues(ok, "graph") == []
        bad = graph(groups=[{"id": "b", "name": "B", "members": [], "with": {"a\ufeffb": "x", "{k}": 1}}])
        assert [i.message.split(":")[0] for i in schema_issues(bad, "graph")] == [
            "/groups/0/with/a\ufeffb", "/groups/0/with/{k}", "/groups/0/with/{k}"]

    def test_record_key_pointer_is_escaped(self):
        doc = graph(nodes=[dict(W, model={"tier": "fast", "pin": {"a/b~c": "x y"}}), END])
        (issue,) = schema_issues(doc, "graph")
        assert issue.pointers == ("/nodes/0/model/pin/a~1b~0c",)
        assert issue.message.startswith("/nodes/0/model/pin/a~1b~0c: expected model name")

    def test_pin_keys_are_free(self):
        doc = graph(nodes=[dict(W, model={"tier": "fast", "pin": {"Any Harness!": "gpt-5"}}), END])
        assert schema_issues(doc, "graph") == []


class TestAt:
    """graph.md §4.4, map.md §5.2."""

    def test_root_id_is_never_used(self):
        assert schema_issues(graph(version=-1), "graph")[0].at == ()

    def test_malformed_string_id_is_still_named(self):
        doc = dict(TINY_SHOP, lanes=[dict(TINY_SHOP["lanes"][0], id="Desk")])
        (issue,) = schema_issues(doc, "map")
        assert issue.message == '/lanes/0/id: expected kebab-case id matching ^[a-z][a-z0-9-]*$, got "Desk"'
        assert issue.at == ("Desk",)

    def test_node_with_a_non_string_id_yields_nothing(self):
        doc = graph(nodes=[dict(W, id=5, brief=1), END])
        assert [i.at for i in schema_issues(doc, "graph")] == [(), ()]

    def test_deepest_object_with_a_string_id_wins(self):
        assert nearest_id({"a": [{"id": "x", "b": {"id": "y", "c": 1}}]}, ["a", "0", "b", "c"]) == ("y",)
        assert nearest_id({"a": [{"id": "x", "b": [1]}]}, ["a", "0", "b", "0"]) == ("x",)
        assert nearest_id({"id": "root", "a": 1}, ["a"]) == ()
        assert nearest_id({"a": {"id": 3}}, ["a", "missing"]) == ()


class TestMapMessages:
    """map.md §5.1 recommended wording (matching the reference)."""

    def test_session_without_role(self):
        doc = copy.deepcopy(TINY_SHOP)
        del doc["sessions"][1]["role"]
        (issue,) = schema_issues(doc, "map")
        assert issue.message == '/sessions/1/role: missing required property "role"'
        assert issue.at == ("coder",)

    def test_the_reference_examples(self):
        doc = copy.deepcopy(TINY_SHOP)
        doc["version"] = 1.5
        doc["sessions"][0]["count"] = 0
        doc["sessions"][0]["harness"] = ""
        doc["lanes"][0]["place"] = "remote"
        doc["handoffs"].append({"id": "h-3", "from": "coder", "to": "planner", "carrier": {"kind": "email"}})
        assert messages(doc, "map") == [
            "/version: expected integer, got 1.5",
            '/lanes/0/place: expected one of local | cloud, got "remote"',
            "/sessions/0/harness: expected harness id (non-empty string), got string",
            "/sessions/0/count: expected integer >= 1, got 0",
            "/handoffs/2/carrier/kind: expected kind to be one of branch | pull-request | session-message | "
            'scheduled-message | review-page | person | notification | other, got "email"',
        ]

    def test_strings_with_a_minimum_length(self):
        doc = copy.deepcopy(TINY_SHOP)
        doc["lanes"][0]["machine"] = ""
        doc["lanes"][0]["account"] = " "
        doc["sessions"][0]["graph"] = 3
        assert messages(doc, "map") == [
            '/lanes/0/machine: expected string of at least 1 character(s), got ""',
            "/sessions/0/graph: expected string, got number",
        ]

    def test_carrier_kind_missing_and_carrier_not_an_object(self):
        doc = copy.deepcopy(TINY_SHOP)
        doc["handoffs"][0]["carrier"] = {"repo": "x"}
        doc["handoffs"][1]["carrier"] = "branch"
        issues = schema_issues(doc, "map")
        assert [i.message for i in issues] == [
            "/handoffs/0/carrier/kind: expected kind to be one of branch | pull-request | session-message | "
            "scheduled-message | review-page | person | notification | other, got nothing",
            "/handoffs/1/carrier: expected carrier with kind one of branch | pull-request | session-message | "
            "scheduled-message | review-page | person | notification | other, got string",
        ]
        assert [i.at for i in issues] == [("h-task",), ("h-result",)]

    def test_a_missing_carrier_is_not_a_schema_error(self):
        doc = copy.deepcopy(TINY_SHOP)
        del doc["handoffs"][0]["carrier"]
        assert schema_issues(doc, "map") == []

    def test_a_graph_is_not_a_map(self):
        assert messages(graph(), "map")[:2] == ['/groophMap: missing required property "groophMap"',
                                              '/lanes: missing required property "lanes"']


def test_data_for_repairs():
    issue = schema_issues(graph(edges=[{"id": "e1", "from": "w", "to": "end", "isolation": "privte"}]), "graph")[0]
    assert issue.facts.problem == "enum" and issue.facts.allowed == ("fresh", "shared")
    assert issue.facts.path == "/edges/0/isolation"


def test_found_value_is_cut_to_one_readable_line():
    node = dict(W, role={"custom": 5, "notes": "x" * 500})
    (issue,) = schema_issues(graph(nodes=[node, END]), "graph")
    found = issue.message.split(", got ", 1)[1]
    assert found.startswith('{"custom":5,"notes":"xxx') and found.endswith("…") and len(found) == 121


def test_deeply_nested_values_are_no_problem():
    """json.loads accepts nesting close to the interpreter's limit; the check must not overflow."""
    deep = json.loads("[" * 900 + "]" * 900)
    (issue,) = schema_issues(graph(nodes=[dict(W, role=deep), END]), "graph")
    assert issue.message.endswith("[[[[…")
