"""Mid-typing states (issue 13; graph.md §3.2 "editor diagnostics"): the tolerant analysis reports the
syntax error at its exact spot, still reports a real fault elsewhere, and says nothing about an object
that is intact in the text.

Each state is a valid fixture with one real fault added (an edge or handoff to an id nothing has), then
one keystroke-sized break. Before issue 13 an unclosed object swallowed its siblings: 18 false errors on
the review-loop graph, 9 on a 3-node graph, 4 "unknown session" on the tiny-shop map.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from grooph_core.ide.grooph.analysis import analyze
from grooph_core.ide.neighbours.analysis import analyze_neighbour
from grooph_core.source.kinds import NEIGHBOURS

FIXTURES = Path(__file__).parents[2] / "fixtures"
GRAPH_TEXT = (FIXTURES / "valid" / "review-loop.grooph.json").read_text(encoding="utf-8")
MAP_TEXT = (FIXTURES / "maps" / "valid" / "tiny-shop.grooph-map.json").read_text(encoding="utf-8")

# The real fault: one more edge, to a node that is nowhere (E_DANGLING_REF at /edges/6/to).
FAULT_EDGE = '    {\n      "id": "review-lost",\n      "from": "review",\n      "to": "nowhere"\n    }'
GRAPH = GRAPH_TEXT.replace('"to": "done",\n      "when": "pass"\n    }\n  ],',
                           '"to": "done",\n      "when": "pass"\n    },\n' + FAULT_EDGE + "\n  ],", 1)
FAULT_HANDOFF = ('    {\n      "id": "h-lost",\n      "from": "coder",\n      "to": "nobody",\n'
                 '      "carrier": {\n        "kind": "session-message"\n      }\n    }')
MAP = MAP_TEXT.replace('"repo": "acme/shop"\n      }\n    }\n  ]',
                       '"repo": "acme/shop"\n      }\n    },\n' + FAULT_HANDOFF + "\n  ]", 1)


def _node_close(text: str, anchor: str) -> int:
    """Offset of the `}` that closes the array item holding `anchor` (the fixtures are indented by two)."""
    return text.index("\n    }", text.index(anchor)) + 5


def _without(text: str, at: int, n: int = 1) -> str:
    return text[:at] + text[at + n:]


def _insert(text: str, at: int, what: str) -> str:
    return text[:at] + what + text[at:]


def _line(text: str, at: int) -> int:
    return text.count("\n", 0, at) + 1


def _item_start(text: str, anchor: str) -> int:
    return text.rindex("{", 0, text.index(anchor))


def _findings(text: str, name: str):
    a = analyze(text, name=name)
    syntax = [(i.message, a.span(i)) for i in a.issues if i.code == "E_SYNTAX"]
    other = [(i.code, i.pointers[0] if i.pointers else None) for i in a.issues if i.code != "E_SYNTAX"]
    return syntax, other


def test_the_bases_have_only_their_real_fault():
    assert _findings(GRAPH, "g.grooph.json") == ([], [("E_DANGLING_REF", "/edges/6/to")])
    assert _findings(MAP, "m.grooph-map.json") == ([], [("E_DANGLING_REF", "/handoffs/2/to")])


def _unclosed_node_in_the_middle():
    close = _node_close(GRAPH, '"id": "build"')
    text = _without(GRAPH, close)
    end = text.rindex("]", 0, close) + 1  # right after the node's last value (its "owns" list)
    start, nxt = _line(text, _item_start(text, '"id": "build"')), _line(text, _item_start(text, '"id": "tests"'))
    return text, [(f"unclosed object started at line {start} (the next item starts at line {nxt})", (end, end))]


def _node_typed_at_the_end():
    at = _node_close(GRAPH, '"id": "done"') + 1
    text = _insert(GRAPH, at, ',\n    {"id": "extra", "kind": "ag')
    open_at = text.index('"ag', at)
    end = text.index("\n", open_at)
    line = _line(text, open_at)
    return text, [("unterminated string", (open_at, end)),
                  (f"unclosed object started at line {line} (closed by ']' at line {line + 1})", (end, end))]


def _missing_comma_between_nodes():
    at = _node_close(GRAPH, '"id": "tests"') + 1
    assert GRAPH[at] == ","
    return _without(GRAPH, at), [("missing comma between array items", (at, at))]


def _missing_comma_between_members():
    at = GRAPH.index('"name": "Tests",') + len('"name": "Tests"')
    return _without(GRAPH, at), [("missing comma between object members", (at, at))]


def _open_string():
    at = GRAPH.index('"npm test -- search"')
    text = GRAPH[:at] + '"npm te' + GRAPH[at + len('"npm test -- search"'):]
    end = text.index("\n", at)
    return text, [("unterminated string", (at, end))]


def _stray_character():
    at = GRAPH.index('"check": {', GRAPH.index('"id": "tests"'))
    return _insert(GRAPH, at, "#"), [('unexpected character "#" (U+0023)', (at, at + 1))]


def _stray_character_in_a_value():
    at = GRAPH.index('"exit code 0"')
    text = GRAPH[:at] + "@" + GRAPH[at + len('"exit code 0"'):]
    return text, [('unexpected character "@" (U+0040)', (at, at + 1))]


def _unclosed_check_node():
    close = _node_close(GRAPH, '"id": "tests"')
    text = _without(GRAPH, close)
    end = text.rindex("}", 0, close) + 1  # after the node's "check" object
    start, nxt = _line(text, _item_start(text, '"id": "tests"')), _line(text, _item_start(text, '"id": "review"'))
    return text, [(f"unclosed object started at line {start} (the next item starts at line {nxt})", (end, end))]


def _id_being_retyped():
    """The id of a node is erased back to "bui" and its string not closed yet: the edges and loops
    naming "build" are in doubt (they may mean it), "nowhere" still names nothing."""
    at = GRAPH.index('"build"', GRAPH.index('"id": "plan"'))
    text = GRAPH[:at] + '"bui' + GRAPH[at + len('"build"'):]
    end = text.index("\n", at)
    return text, [("unterminated string", (at, end))]


GRAPH_STATES = {
    "id being retyped": _id_being_retyped,
    "unclosed node in the middle": _unclosed_node_in_the_middle,
    "unclosed check node": _unclosed_check_node,
    "node being typed at the end": _node_typed_at_the_end,
    "missing comma between nodes": _missing_comma_between_nodes,
    "missing comma between members": _missing_comma_between_members,
    "open string": _open_string,
    "stray character": _stray_character,
    "stray character in a value": _stray_character_in_a_value,
}


@pytest.mark.parametrize("state", list(GRAPH_STATES))
def test_graph_typing_state(state):
    text, expected_syntax = GRAPH_STATES[state]()
    syntax, other = _findings(text, "g.grooph.json")
    assert syntax == expected_syntax
    # the real fault elsewhere, and nothing about the nodes, edges and loops intact in the text
    assert other == [("E_DANGLING_REF", "/edges/6/to")]


def test_unclosed_map_session():
    close = _node_close(MAP, '"id": "planner"')
    text = _without(MAP, close)
    end = text.rindex('"', 0, close) + 1
    start, nxt = _line(text, _item_start(text, '"id": "planner"')), _line(text, _item_start(text, '"id": "coder"'))
    syntax, other = _findings(text, "m.grooph-map.json")
    assert syntax == [(f"unclosed object started at line {start} (the next item starts at line {nxt})", (end, end))]
    assert other == [("E_DANGLING_REF", "/handoffs/2/to")]


def test_a_session_being_typed_at_the_end_of_a_map():
    at = _node_close(MAP, '"id": "coder"') + 1
    text = _insert(MAP, at, ',\n    {"id": "reviewer", "lane": "desk",')
    syntax, other = _findings(text, "m.grooph-map.json")
    line = _line(text, text.index('"id": "reviewer"'))
    assert [m for m, _ in syntax] == [f"unclosed object started at line {line} (closed by ']' at line {line + 1})"]
    assert other == [("E_DANGLING_REF", "/handoffs/2/to")]


def test_a_node_in_doubt_still_counts_for_references_but_not_for_loop_kinds():
    """The check node's text is broken: it is left out of the rules, but its id still resolves (no
    dangling edges or members), and the loops over it are not judged (without the check, "fix-tests"
    would look like a judgment loop with no bar)."""
    text, _ = _unclosed_check_node()
    a = analyze(text, name="g.grooph.json")
    assert "/nodes/2" in a.pruned
    assert not [i for i in a.issues if i.code in ("E_JUDGMENT_LOOP_NO_BAR", "E_STOP_NOT_INSPECTABLE")]


def test_a_reference_to_an_id_nowhere_in_the_text_is_still_reported_beside_a_node_in_doubt():
    text, _ = _unclosed_node_in_the_middle()
    text = text.replace('"members": [\n        "build",\n        "tests"\n      ],',
                        '"members": [\n        "build",\n        "tests",\n        "ghost"\n      ],', 1)
    _, other = _findings(text, "g.grooph.json")
    assert ("E_DANGLING_REF", "/loops/0/members/2") in other


def test_a_new_file_is_calm():
    """The first `{` of a new file: one diagnostic naming every missing field, beside the syntax error;
    the command line keeps the reference listing (one issue per field, graph.md §4.2)."""
    a = analyze("{", name="new.grooph.json")
    assert [(i.code, i.message) for i in a.issues] == [
        ("E_SYNTAX", "unclosed object started at line 1"),
        ("E_SCHEMA", '/: missing required properties "grooph", "id", "name", "version", "nodes", "edges", "loops"'),
    ]
    assert a.issues[1].facts.fields == ("grooph", "id", "name", "version", "nodes", "edges", "loops")
    m = analyze("{}", name="new.grooph-map.json")
    assert [i.message for i in m.issues] == [
        '/: missing required properties "groophMap", "id", "name", "version", "lanes", "sessions", "handoffs"']
    strict = analyze("{}", name="new.grooph.json", tolerant=False)
    assert len(strict.issues) == 7 and strict.issues[0].message == '/grooph: missing required property "grooph"'


def test_one_issue_per_object_missing_fields():
    doc = {"grooph": 0, "id": "g", "name": "G", "version": 1, "edges": [], "loops": [],
           "nodes": [{"id": "a", "kind": "agent"}, {"id": "b", "kind": "stop", "name": "B"},
                     {"id": "c", "kind": "agent", "name": "C", "role": "builder", "brief": "b", "outputs": ["o"]}]}
    a = analyze(json.dumps(doc), name="g.grooph.json")
    assert [(i.pointers[0], i.message) for i in a.issues if i.code == "E_SCHEMA"] == [
        ("/nodes/0", '/nodes/0: missing required properties "name", "role", "brief", "outputs"'),
    ]


# ---- a text cut short (issue 21 item 3): the end of the text inside an unclosed container ------------
# What may still follow below the cut is not missing yet; the complete items before it are still checked.

# The graph base with its real fault in the first edge instead (E_DANGLING_REF at /edges/0/to).
FIRST_EDGE_FAULT = GRAPH_TEXT.replace('"from": "plan",\n      "to": "build"', '"from": "plan",\n      "to": "testz"', 1)


def _cut_after(text: str, anchor: str) -> str:
    """The text up to the end of `anchor` (its first occurrence)."""
    return text[: text.index(anchor) + len(anchor)]


# A fault in the first node (an unknown key, W_UNKNOWN_KEY at /nodes/0/colour), for the cuts in the nodes.
FIRST_NODE_FAULT = GRAPH.replace('"id": "plan",\n', '"id": "plan",\n      "colour": "red",\n', 1)


def _edges_at(text: str) -> int:
    return text.index('"edges": [')


GRAPH_CUTS = {
    # (the cut text, the findings beside the syntax errors)
    "inside the edges, after an edge": lambda: (
        FIRST_EDGE_FAULT[: FIRST_EDGE_FAULT.index("},", _edges_at(FIRST_EDGE_FAULT)) + 2],
        [("E_DANGLING_REF", "/edges/0/to")]),
    "inside the edges, inside an edge's key": lambda: (
        _cut_after(FIRST_EDGE_FAULT, '"id": "build-tests",\n      "fr'), [("E_DANGLING_REF", "/edges/0/to")]),
    "inside the edges, inside a string": lambda: (
        _cut_after(FIRST_EDGE_FAULT, '"id": "build-tests",\n      "from": "bui'), [("E_DANGLING_REF", "/edges/0/to")]),
    "inside the edges, inside an edge's evidence list": lambda: (
        _cut_after(FIRST_EDGE_FAULT, '"evidence": [\n        "the failing'), [("E_DANGLING_REF", "/edges/0/to")]),
    "inside a node": lambda: (_cut_after(FIRST_NODE_FAULT, '"id": "review",\n      "kind": "agent",\n      "na'),
                              [("W_UNKNOWN_KEY", "/nodes/0/colour")]),
    "inside the nodes, between two nodes": lambda: (
        FIRST_NODE_FAULT[: _node_close(FIRST_NODE_FAULT, '"id": "tests"') + 2], [("W_UNKNOWN_KEY", "/nodes/0/colour")]),
}


@pytest.mark.parametrize("state", list(GRAPH_CUTS))
def test_a_graph_cut_short_misses_nothing_that_may_follow_and_checks_what_is_complete(state):
    text, expected = GRAPH_CUTS[state]()
    a = analyze(text, name="g.grooph.json")
    syntax = [i for i in a.issues if i.code == "E_SYNTAX"]
    assert syntax and syntax[-1].message == "unclosed object started at line 1"
    assert [(i.code, i.pointers[0]) for i in a.issues if i.code != "E_SYNTAX"] == expected
    if expected[0][0] == "E_DANGLING_REF":
        assert 'unknown node "testz"' in next(i.message for i in a.issues if i.code == "E_DANGLING_REF")


def test_the_reference_the_issue_names_is_reported_and_loops_are_not_missing():
    """Issue 21: a paste that ends inside "edges" got `/loops: missing required property "loops"` and lost
    the E_DANGLING_REF on "testz" in the complete first edge."""
    text = FIRST_EDGE_FAULT[: FIRST_EDGE_FAULT.index("{", FIRST_EDGE_FAULT.index("},", _edges_at(FIRST_EDGE_FAULT))) + 30]
    a = analyze(text, name="g.grooph.json")
    assert not [i for i in a.issues if i.code == "E_SCHEMA"]
    assert [i.pointers[0] for i in a.issues if i.code == "E_DANGLING_REF"] == ["/edges/0/to"]
    # the command line still reads the text strictly: not JSON
    strict = analyze(text, name="g.grooph.json", tolerant=False)
    assert [i.code for i in strict.issues] == ["E_SCHEMA"] and "not valid JSON" in strict.issues[0].message


def test_a_closed_object_still_misses_its_fields_and_a_root_cut_short_misses_none():
    """Only an object the text ends inside may still get its fields: a node closed without its name is
    reported while the text is cut after it; the root, still open, lacks "edges" and "loops" silently."""
    text = _cut_after(GRAPH, '"nodes": [\n') + '    {"id": "a", "kind": "stop"},\n    {"id": "b", "ki'
    a = analyze(text, name="g.grooph.json")
    assert [(i.code, i.pointers[0], i.message) for i in a.issues if i.code != "E_SYNTAX"] == [
        ("E_SCHEMA", "/nodes/0", '/nodes/0/name: missing required property "name"')]


def test_a_reference_to_a_list_still_open_waits_for_its_items():
    """Edges written before the nodes, the text cut inside the nodes: the node an edge names may still
    come; an edge list closed before the cut names nothing that may follow in it."""
    head = '{"grooph": 0, "id": "g", "name": "G", "version": 1,\n'
    edges = ' "edges": [{"id": "e", "from": "a", "to": "later"}],\n'
    cut = head + edges + ' "nodes": [{"id": "a", "kind": "stop", "name": "A"},\n  {"id": "la'
    assert [i.code for i in analyze(cut, name="g.grooph.json").issues if i.code != "E_SYNTAX"] == []
    nodes_first = head + ' "nodes": [{"id": "a", "kind": "stop", "name": "A"}],\n' + edges.rstrip(",\n") + ',\n "loo'
    found = analyze(nodes_first, name="g.grooph.json").issues
    assert [(i.code, i.pointers[0]) for i in found if i.code != "E_SYNTAX"] == [("E_DANGLING_REF", "/edges/0/to")]


def test_a_map_cut_inside_its_handoffs_keeps_the_complete_handoffs_fault():
    """A handoff's end names a session or a person: with the people written (closed) before the cut,
    "nobody" names nothing; with no people yet, the people may still follow the handoffs."""
    end = MAP.index("\n    }", MAP.index('"id": "h-lost"')) + 6
    text = MAP[:end] + ',\n    {\n      "id": "h-next",\n      "from": "cod'
    with_people = text.replace('  "sessions": [', '  "people": [],\n  "sessions": [', 1)
    a = analyze(with_people, name="m.grooph-map.json")
    assert [(i.code, i.pointers[0]) for i in a.issues if i.code != "E_SYNTAX"] == [("E_DANGLING_REF", "/handoffs/2/to")]
    assert [i.code for i in analyze(text, name="m.grooph-map.json").issues if i.code != "E_SYNTAX"] == []
    inside = MAP[: MAP.index('"kind": "session-message"', MAP.index('"id": "h-lost"'))]
    b = analyze(inside, name="m.grooph-map.json")
    assert [i.code for i in b.issues if i.code != "E_SYNTAX"] == []  # the handoff being written is in doubt


# ---- a workflow as you type (issue 21 item 3): one broken entry of a block mapping stays that entry's ----

WORKFLOW_TEXT = (FIXTURES / "workflow" / "valid" / "spec-example.workflow.yaml").read_text(encoding="utf-8")
# The real fault: the initial transition's target misspelt (E_WF_UNKNOWN_STATUS at /initial/0/target).
WORKFLOW = WORKFLOW_TEXT.replace("initial:\n  - target: ready\n", "initial:\n  - target: redy\n", 1)
WORKFLOW_KIND = next(k for k in NEIGHBOURS if k.name == "workflow")

YAML_SLIPS = {
    "a tab indenting a status key": ("  review:\n", "\treview:\n"),
    "a tab indenting a field of a status": ("    stored_as: running\n", "\tstored_as: running\n"),
    "a tab after a status's spaces": ("    stored_as: running\n", "  \tstored_as: running\n"),
    "a status key dedented by a column": ("  review:\n", " review:\n"),
    "a status key indented by a column": ("  review:\n", "   review:\n"),
    "a field of a status dedented by a column": ("    stored_as: running\n", "   stored_as: running\n"),
    "a half-typed status key": ("  blocked: {stored_as: blocked}\n", "  bloc\n  blocked: {stored_as: blocked}\n"),
    "a half-typed key inside a status": ("    stored_as: running\n", "    stored_as: running\n    ru\n"),
    "an open flow mapping": ("run: {role: implementer, session: implementer}", "run: {role: implementer, session: impl"),
    "an open flow sequence": ("approve: [{by: [reviewer], target: done}]", "approve: [{by: [reviewer], target: done}"),
    "an open flow mapping as a status": ("  blocked: {stored_as: blocked}", "  blocked: {stored_as: blocked"),
}


def _workflow_findings(text: str):
    a = analyze_neighbour(text, WORKFLOW_KIND)
    return a, [(i.code, i.pointers[0] if i.pointers else None) for i in a.issues]


def test_the_workflow_base_has_only_its_real_fault():
    assert _workflow_findings(WORKFLOW)[1] == [("E_WF_UNKNOWN_STATUS", "/initial/0/target")]


@pytest.mark.parametrize("slip", list(YAML_SLIPS))
def test_a_yaml_slip_in_one_status_hides_no_fault_elsewhere(slip):
    old, new = YAML_SLIPS[slip]
    assert old in WORKFLOW
    a, found = _workflow_findings(WORKFLOW.replace(old, new, 1))
    assert found == [("E_SYNTAX", None), ("E_WF_UNKNOWN_STATUS", "/initial/0/target")]
    # the sibling statuses are still read (so nothing is said about the transitions that name them)
    assert {"ready", "building", "done"} <= set(a.value["statuses"])


@pytest.mark.parametrize("slip", ["a tab indenting a status key", "a status key dedented by a column"])
def test_the_status_a_slip_breaks_is_left_out_with_its_block_and_no_more(slip):
    old, new = YAML_SLIPS[slip]
    a, _ = _workflow_findings(WORKFLOW.replace(old, new, 1))
    statuses = a.value["statuses"]
    assert list(statuses) == ["ready", "building", "blocked", "done"]
    assert statuses["building"] == {  # the status above keeps what it had, and gains nothing of review's
        "stored_as": "running", "run": {"role": "implementer", "session": "implementer"},
        "on": {"handed_off": [{"target": "review"}],
               "failed": [{"guard": "card.failures < params.failure_limit", "target": "ready"}, {"target": "blocked"}]}}


def test_a_tab_on_the_first_status_leaves_out_that_status_alone():
    """Issue 30 item 7: the first status's line has no sibling above it to take its level from; its
    siblings below give it, and the real fault elsewhere is still reported beside the syntax error."""
    a, found = _workflow_findings(WORKFLOW.replace("  ready:\n", "\tready:\n", 1))
    assert found == [("E_SYNTAX", None), ("E_WF_UNKNOWN_STATUS", "/initial/0/target")]
    assert list(a.value["statuses"]) == ["building", "review", "blocked", "done"]
    assert a.value["statuses"]["building"]["stored_as"] == "running"


WORKFLOW_CUTS = {
    "after its statuses": lambda: WORKFLOW_TEXT[: WORKFLOW_TEXT.index("dispatch:")],
    "inside a status's block, mid-line": lambda: WORKFLOW_TEXT[: WORKFLOW_TEXT.index("  blocked:") + 5],
    "inside a status's block, mid-key": lambda: WORKFLOW_TEXT[: WORKFLOW_TEXT.index("    exit:") + 6],
    "inside the dispatch block": lambda: WORKFLOW_TEXT[: WORKFLOW_TEXT.index("  capacity:")],
}


@pytest.mark.parametrize("cut", list(WORKFLOW_CUTS))
def test_a_workflow_cut_short_misses_nothing_below_the_cut(cut):
    """Issue 21: a workflow cut after its statuses got `Workflow is missing the required field "dispatch"`;
    cut inside the statuses, the statuses below the cut were "no status blocked", "no status done"."""
    _, found = _workflow_findings(WORKFLOW_CUTS[cut]())
    assert [f for f in found if f[0] != "E_SYNTAX"] == []


@pytest.mark.parametrize("cut", list(WORKFLOW_CUTS))
def test_a_workflow_cut_short_still_reports_a_misspelt_name_beside_the_syntax_error(cut):
    """Issue 30 item 7: cut inside the statuses, "redy" may still be written below the cut, but it is a near
    miss of the status "ready" the text has: a misspelling, reported; the statuses named and not yet written
    (blocked, done) still wait."""
    text = WORKFLOW_CUTS[cut]().replace("initial:\n  - target: ready\n", "initial:\n  - target: redy\n", 1)
    _, found = _workflow_findings(text)
    assert [f for f in found if f[0] != "E_SYNTAX"] == [("E_WF_UNKNOWN_STATUS", "/initial/0/target")]


def test_a_finished_workflow_still_misses_what_it_lacks():
    """A YAML text ends inside its last block collection whether it is cut or finished: a field the
    workflow lists before one it has is missing for sure (here "initial", before "statuses" and
    "dispatch"); so is one after the last when the text's last line is at the top level."""
    no_initial = WORKFLOW_TEXT.replace("initial:\n  - target: ready\n", "", 1)
    assert _workflow_findings(no_initial)[1] == [("E_WF_SCHEMA", "")]
    top_level_last = WORKFLOW_TEXT[: WORKFLOW_TEXT.index("dispatch:")] + "description: moved last\n"
    top_level_last = top_level_last.replace("description: Build, then review.\n", "", 1)
    found = analyze_neighbour(top_level_last, WORKFLOW_KIND).issues
    assert [(i.code, i.message) for i in found] == [("E_WF_SCHEMA", 'Workflow is missing the required field "dispatch"')]


def test_a_workflow_cut_inside_its_statuses_still_reports_a_fault_above_the_cut_where_names_are_closed():
    """Cut in the dispatch block, a misspelt initial target names a status the closed statuses do not have."""
    text = WORKFLOW[: WORKFLOW.index("  capacity:") + 5]
    assert _workflow_findings(text)[1] == [("E_SYNTAX", None), ("E_WF_UNKNOWN_STATUS", "/initial/0/target")]


# ---- a board cut short (issue 21 item 3) ----------------------------------------------------------

BOARD_KIND = next(k for k in NEIGHBOURS if k.name == "board")
# The real fault: the first task's lane misspelt (W_BOARD_UNKNOWN_LANE, W_BOARD_DONE_UNDATED on /tasks/t-1/lane).
BOARD = (FIXTURES / "board" / "valid" / "checkout.board.json").read_text(encoding="utf-8").replace(
    '"lane": "done"', '"lane": "dnoe"', 1)


@pytest.mark.parametrize("anchor", ['"t-2": {\n      "id": "t-2",\n', '"dependencies": [\n    {\n',
                                    '"parent": "t-1",\n      "child":', '"parent": "t-2",\n      "child": "t-'])
def test_a_board_cut_inside_its_tasks_or_dependencies_keeps_the_complete_tasks_findings(anchor):
    """No missing field of the task or dependency being written, no dangling dependency on a task that
    may follow; the first task, complete, keeps its findings."""
    a = analyze_neighbour(_cut_after(BOARD, anchor), BOARD_KIND)
    assert [(i.code, i.pointers[0]) for i in a.issues if i.code != "E_SYNTAX"] == [
        ("W_BOARD_UNKNOWN_LANE", "/tasks/t-1/lane"), ("W_BOARD_DONE_UNDATED", "/tasks/t-1/lane")]
