"""The semantic rules of the graph document (graph.md §3.3, §5, §7): codes, `at`, order, messages,
pointers and the typed facts repairs read from `Issue.facts` (operations.md §8.4)."""

from __future__ import annotations

import copy

import pytest

from grooph_core.rules.graph import RULE_ORDER, RULES, graph_rule_issues
from grooph_core.rules.graph.critics import CriticOnWritersModel
from grooph_core.source.text import pointer_split
from tests.core.rules.graph_examples import C, E1, END, EXAMPLES, GRIND, JUDGE, TEMPLATE, W, G, T

_MISSING = object()


def resolve(doc: object, pointer: str) -> object:
    """The value a JSON pointer names in the document, or _MISSING."""
    cur = doc
    for seg in pointer_split(pointer):
        if isinstance(cur, dict) and seg in cur:
            cur = cur[seg]
        elif isinstance(cur, list) and seg.isdigit() and int(seg) < len(cur):
            cur = cur[int(seg)]
        else:
            return _MISSING
    return cur


def run(doc: dict, export: bool = False):
    return graph_rule_issues(doc, export=export)


def codes_at(issues) -> list[tuple[str, list[str]]]:
    return [(i.code, list(i.at)) for i in issues]


def only(doc: dict, code: str, export: bool = False):
    """The issues of one code."""
    return [i for i in run(doc, export) if i.code == code]


def edge(id: str, f: str, t: str, **kw) -> dict:
    return {"id": id, "from": f, "to": t, **kw}


def agent(id: str, role, **kw) -> dict:
    n = {"id": id, "kind": "agent", "name": id.upper()}
    if "by" in kw:
        n["by"] = kw.pop("by")
    n["role"] = role
    n.update({"brief": "b", "outputs": ["o"], "allow": ["edit-files"]})
    n.update(kw)
    return n


# ---------------------------------------------------------------------------------------------------
# graph.md §7: every example, exactly


@pytest.mark.parametrize("name", list(EXAMPLES))
def test_spec_example_gives_exactly_the_listed_issues(name):
    doc, export, expected = EXAMPLES[name]
    assert codes_at(run(doc, export)) == expected


@pytest.mark.parametrize("name", [n for n, (_, export, _) in EXAMPLES.items() if export])
def test_export_examples_are_clean_without_the_export_flag(name):
    doc, _, _ = EXAMPLES[name]
    assert run(doc) == []


def test_person_lead_example_with_export_adds_three_codes():
    """§7 E_PERSON_LEAD: "Export adds E_NO_TARGET, E_NO_GOAL and E_PERSON_STEP_NOT_COMPILED"."""
    doc = EXAMPLES["E_PERSON_LEAD"][0]
    assert codes_at(run(doc, export=True)) == [
        ("E_PERSON_LEAD", ["boss"]), ("E_NO_TARGET", ["g"]), ("E_NO_GOAL", ["g"]), ("E_PERSON_STEP_NOT_COMPILED", ["boss"])]


# name -> the value each pointer of the first issue must resolve to (the smallest true target).
POINTER_TARGETS = {
    "E_DUPLICATE_ID": ["w"],  # /edges/0/id: the second copy
    "E_DANGLING_REF": ["ghost"],
    "E_GROUP_CYCLE": ["ga"],  # the member of gb that closes the ring
    "E_SECOND_LEAD": ["lead", "lead"],
    "E_PERSON_LEAD": ["person"],
    "E_CRITIC_NOT_ISOLATED": ["shared"],
    "E_OWNERSHIP_CONFLICT": ["src", "src"],
    "E_NO_GOAL": ["   "],
    "E_UNFILLED_SLOT": ["Fix {{area}}.", "Fix {{ area }} only."],
    "E_PERSON_STEP_NOT_COMPILED": ["person"],
    "W_ASPIRATION_AS_ACCEPTANCE": ["All tests pass."],
    "W_FANOUT_ON_COUPLED": [3],
    "W_OUTPUT_NOT_WRITABLE": ["w"],  # no allow: the node's id
    "W_PERSON_FIELDS_NOT_READ": ["high"],
    "W_GROUP_OVERLAP": ["w"],
    "E_CYCLE_NO_STOP": ["e2"],  # the self edge's id
    "E_IRREVERSIBLE_NO_GATE": ["e1"],
}


@pytest.mark.parametrize("name", list(POINTER_TARGETS))
def test_pointers_name_the_smallest_true_target(name):
    doc, export, _ = EXAMPLES[name]
    issue = run(doc, export)[0]
    assert [resolve(doc, p) for p in issue.pointers] == POINTER_TARGETS[name]


@pytest.mark.parametrize("name", list(EXAMPLES))
def test_every_pointer_and_related_pointer_resolves(name):
    doc, export, _ = EXAMPLES[name]
    for issue in run(doc, export):
        assert issue.pointers, issue.code
        for p in list(issue.pointers) + [r for r, _ in issue.related]:
            assert resolve(doc, p) is not _MISSING, (issue.code, p)


def test_the_registered_order_is_graph_md_3_3():
    """graph.md §3.3, rules 1-23 (rule 10, export flag only, expands to the five export codes in its
    order); the rest of the tests read `RULE_ORDER`."""
    assert len(RULES) == 23 and [r.export for r in RULES].index(True) == 9 and sum(r.export for r in RULES) == 1
    assert RULE_ORDER == (
        "E_DUPLICATE_ID", "E_DANGLING_REF", "E_LOOP_BACK_EDGE", "E_GROUP_CYCLE", "E_SECOND_LEAD", "E_PERSON_LEAD",
        "E_CYCLE_NO_STOP", "E_JUDGMENT_LOOP_NO_BAR", "E_STOP_NOT_INSPECTABLE", "E_NO_TARGET", "E_NO_GOAL",
        "E_IS_TEMPLATE", "E_UNFILLED_SLOT", "E_PERSON_STEP_NOT_COMPILED", "E_CRITIC_NOT_ISOLATED",
        "E_OWNERSHIP_CONFLICT", "E_IRREVERSIBLE_NO_GATE", "W_HOMOGENEOUS_CRITICS", "W_FANOUT_ON_COUPLED",
        "W_LONG_LOOP_NO_BUDGET", "W_ASPIRATION_AS_ACCEPTANCE", "W_ONLY_MAX_ITERATIONS", "W_UNREACHABLE_NODE",
        "W_NO_TERMINAL", "W_OUTPUT_NOT_WRITABLE", "W_PERSON_FIELDS_NOT_READ", "W_GROUP_OVERLAP",
    )


def test_rules_concatenate_in_spec_order():
    """One document raising many codes: they come in the order of graph.md §3.3."""
    doc = G(goal="Fix {{area}}.",
            nodes=[agent("w", "builder", model={"tier": "strong"}),
                   agent("w", "critic", model={"tier": "strong"}),
                   agent("c", "critic", model={"tier": "strong"}),
                   agent("l1", "lead"), agent("l2", "lead", by="person", effort="low"),
                   agent("pub", "builder", irreversible=["publish"], allow=["read-files"]),
                   {"id": "m", "kind": "agent", "name": "M", "coupled": True, "role": "builder", "brief": "b", "outputs": ["o"],
                    "allow": ["edit-files"], "owns": ["x"]},
                   agent("n", "builder", owns=["x"]), T, END],
            edges=[edge("e1", "w", "c", isolation="shared"), edge("e2", "c", "pub"), edge("e3", "pub", "ghost"),
                   edge("e4", "n", "m", concurrency={"max": 2}), edge("e5", "m", "n"), edge("e6", "t", "w", when="fail"),
                   edge("e7", "w", "t")],
            loops=[{"id": "lb", "name": "B", "members": ["w"], "back": [], "stops": [{"kind": "max-iterations", "n": 9}]},
                   {"id": "lj", "name": "J", "members": ["w", "c"], "back": ["e6"], "mode": "judgment", "stops": [{"kind": "bar-passed"}],
                    "bar": {"name": "x", "inspects": [], "acceptance": " ", "aspiration": "Great."}}],
            groups=[{"id": "ga", "name": "A", "members": ["ga", "w"]}, {"id": "gb", "name": "B", "members": ["w"]}],
            policies=[{"id": "iso", "kind": "critic-isolation", "scope": "graph"}])
    got = [i.code for i in run(doc, export=True)]
    assert got == sorted(got, key=RULE_ORDER.index)
    assert {"E_DUPLICATE_ID", "E_DANGLING_REF", "E_LOOP_BACK_EDGE", "E_GROUP_CYCLE", "E_SECOND_LEAD", "E_PERSON_LEAD",
            "E_CYCLE_NO_STOP", "E_JUDGMENT_LOOP_NO_BAR", "E_STOP_NOT_INSPECTABLE", "E_NO_TARGET", "E_UNFILLED_SLOT",
            "E_PERSON_STEP_NOT_COMPILED", "E_CRITIC_NOT_ISOLATED", "E_OWNERSHIP_CONFLICT", "E_IRREVERSIBLE_NO_GATE",
            "W_HOMOGENEOUS_CRITICS", "W_FANOUT_ON_COUPLED", "W_LONG_LOOP_NO_BUDGET", "W_ASPIRATION_AS_ACCEPTANCE",
            "W_ONLY_MAX_ITERATIONS", "W_PERSON_FIELDS_NOT_READ", "W_GROUP_OVERLAP"} <= set(got)


def test_issue_severity_follows_the_code():
    for doc, export, _ in EXAMPLES.values():
        for i in run(doc, export):
            assert i.severity == ("error" if i.code.startswith("E_") else "warning")
            assert i.at, i.code
            assert "\n" not in i.message


# ---------------------------------------------------------------------------------------------------
# E_DUPLICATE_ID


def test_duplicate_id_lists_every_place_points_at_later_copies_and_relates_the_first():
    doc = G(id="w", nodes=[W, END, {**END}], edges=[edge("w", "w", "end")], loops=[],
            policies=[{"id": "end", "kind": "no-self-grading", "scope": "graph"}])
    issues = only(doc, "E_DUPLICATE_ID")
    assert codes_at(issues) == [("E_DUPLICATE_ID", ["w"]), ("E_DUPLICATE_ID", ["end"])]
    w, end = issues
    assert "3 times" in w.message and "the graph's own id, nodes[0], edges[0]" in w.message
    assert w.pointers == ("/nodes/0/id", "/edges/0/id") and w.related[0][0] == "/id"
    assert "nodes[1], nodes[2], policies[0]" in end.message  # graph.md §8.5: "policies", not "policys"
    assert end.pointers == ("/nodes/2/id", "/policies/0/id")
    assert end.facts.places == ("nodes[1]", "nodes[2]", "policies[0]")


def test_references_resolve_to_the_first_holder_of_a_duplicated_id():
    """graph.md §0: rules keep working; the second copy's kind does not count."""
    doc = G(nodes=[T, {**W, "id": "t"}, END],
            edges=[edge("e1", "t", "end", when="pass")], loops=[])
    assert codes_at(run(doc)) == [("E_DUPLICATE_ID", ["t"])]


# ---------------------------------------------------------------------------------------------------
# E_DANGLING_REF


def dangling_everywhere() -> dict:
    return G(nodes=[W, T, END],
             edges=[edge("e1", "w", "t"), edge("e2", "t", "w", when="fail"), edge("e3", "t", "end", when="pass"),
                    edge("e4", "ghost", "phantom")],
             loops=[{"id": "l", "name": "L", "members": ["w", "t", "tt", "tt"], "back": ["e2", "e9"],
                     "bar": {"name": "K", "inspects": [{"kind": "file", "ref": "k"}], "acceptance": "a", "answerKeyFrom": "oracle"},
                     "stops": [{"kind": "max-iterations", "n": 3}, {"kind": "budget", "measure": "usd", "limit": 2, "then": "nowhere"}]}],
             groups=[{"id": "ga", "name": "A", "members": ["w", "gz"]}],
             policies=[{"id": "p1", "kind": "critic-isolation", "scope": "node:cc"}, {"id": "p2", "kind": "evidence-required",
                                                                                     "scope": "loop:ll"},
                       {"id": "p3", "kind": "no-self-grading", "scope": "edge:e9"}, {"id": "p4", "kind": "no-self-grading",
                                                                                     "scope": "edge:e4"}])


def test_dangling_refs_in_spec_order_each_pointing_at_the_reference():
    doc = dangling_everywhere()
    issues = only(doc, "E_DANGLING_REF")
    assert [(list(i.at), i.pointers[0], resolve(doc, i.pointers[0])) for i in issues] == [
        (["e4"], "/edges/3/from", "ghost"),
        (["e4"], "/edges/3/to", "phantom"),
        (["l"], "/loops/0/members/2", "tt"),
        (["l"], "/loops/0/members/3", "tt"),  # no de-duplication
        (["l"], "/loops/0/back/1", "e9"),
        (["l"], "/loops/0/bar/answerKeyFrom", "oracle"),
        (["l"], "/loops/0/stops/1/then", "nowhere"),
        (["ga"], "/groups/0/members/1", "gz"),
        (["p1"], "/policies/0/scope", "node:cc"),
        (["p2"], "/policies/1/scope", "loop:ll"),
        (["p3"], "/policies/2/scope", "edge:e9"),
    ]
    msgs = [i.message for i in issues]
    assert 'edge "e4" starts at unknown node "ghost"' in msgs[0]
    assert 'edge "e4" ends at unknown node "phantom"' in msgs[1]
    assert 'lists member "tt"' in msgs[2]
    assert 'lists back edge "e9"' in msgs[4]
    assert 'takes its answer key from unknown node "oracle"' in msgs[5]
    assert 'stop 1 (budget) continues at unknown node "nowhere"' in msgs[6]
    assert 'group "ga" lists member "gz", which is neither a node nor a group' in msgs[7]
    assert 'is scoped to unknown node "cc"' in msgs[8] and "unknown loop" in msgs[9] and "unknown edge" in msgs[10]


def test_dangling_ref_data_tells_a_repair_what_must_be_named():
    issues = only(dangling_everywhere(), "E_DANGLING_REF")
    d = issues[6].facts
    assert (d.ref, d.id, d.must_name, d.holder_kind, d.holder, d.field, d.index) == (
        "nowhere", "nowhere", "node", "loop", "l", "then", 1)
    p = issues[8].facts
    assert (p.ref, p.id, p.must_name, p.field) == ("node:cc", "cc", "node", "scope")
    assert issues[7].facts.must_name == "node or group"


def test_dangling_ref_suggests_a_close_id():
    doc = G(nodes=[agent("drafter", "builder"), agent("reviewer", "critic", allow=["write-outputs"]), END],
            edges=[edge("e1", "drafter", "reviwer"), edge("e2", "reviewer", "end")], loops=[])
    [issue] = only(doc, "E_DANGLING_REF")
    assert issue.message == 'edge "e1" ends at unknown node "reviwer"; did you mean "reviewer"?'
    assert issue.facts.suggestion == "reviewer"


def test_dangling_ref_suggestion_follows_the_distance_limit():
    """graph.md §5.1: "ghost" (5 letters) allows distance 1, so "end" is not suggested."""
    [issue] = only(EXAMPLES["E_DANGLING_REF"][0], "E_DANGLING_REF")
    assert issue.message == 'edge "e2" ends at unknown node "ghost"'
    assert issue.facts.suggestion is None


def test_a_group_member_naming_a_group_or_a_node_is_not_dangling():
    doc = G(nodes=[W, END], edges=E1, loops=[], groups=[{"id": "ga", "name": "A", "members": ["gb", "w"]},
                                                       {"id": "gb", "name": "B", "members": ["end"]}])
    assert only(doc, "E_DANGLING_REF") == []


# ---------------------------------------------------------------------------------------------------
# E_LOOP_BACK_EDGE


def test_back_edge_with_an_end_outside_the_members():
    doc = GRIND([{"kind": "max-iterations", "n": 3}, {"kind": "budget", "measure": "dispatches", "limit": 9}], members=["w"])
    [issue] = only(doc, "E_LOOP_BACK_EDGE")
    assert issue.at == ("l", "e2") and issue.pointers == ("/loops/0/back/0",)
    assert resolve(doc, issue.pointers[0]) == "e2"
    assert "t → w" in issue.message and '"t" is not inside the members' in issue.message
    assert issue.facts.variant == "outside" and issue.facts.outside == ("t",)
    assert ("/loops/0/id", 'loop "l"') in issue.related


def test_back_edge_that_does_not_close_a_cycle_inside_the_members():
    doc = G(nodes=[W, T, agent("fix", "builder"), END],
            edges=[edge("e1", "w", "t"), edge("e2", "t", "fix", when="fail"), edge("e3", "fix", "w"),
                   edge("e4", "t", "end", when="pass")],
            loops=[{"id": "l", "name": "L", "members": ["w", "t"], "back": ["e1"], "mode": "grind",
                    "stops": [{"kind": "max-iterations", "n": 3}, {"kind": "budget", "measure": "dispatches", "limit": 9}]}])
    [issue] = only(doc, "E_LOOP_BACK_EDGE")
    assert issue.at == ("l", "e1") and issue.facts.variant == "no cycle"
    assert "w → t" in issue.message and "does not close a cycle" in issue.message


def test_self_loop_back_edge_closes_and_dangling_back_ids_are_left_to_dangling_ref():
    doc = G(nodes=[W, END], edges=[edge("e1", "w", "w"), edge("e2", "w", "end")],
            loops=[{"id": "l", "name": "L", "members": ["w"], "back": ["e1", "nope"], "mode": "grind",
                    "stops": [{"kind": "max-iterations", "n": 3}, {"kind": "budget", "measure": "dispatches", "limit": 9}]}])
    assert codes_at(run(doc)) == [("E_DANGLING_REF", ["l"])]


def test_closing_path_may_use_other_back_edges():
    """The search runs over all edges whose `to` is a member, back edges included."""
    doc = G(nodes=[W, T, C, END],
            edges=[edge("e1", "w", "t"), edge("e2", "t", "c"), edge("e3", "c", "w", when="fail"), edge("e4", "t", "w", when="fail"),
                   edge("e5", "c", "end", when="pass")],
            loops=[{"id": "l", "name": "L", "members": ["w", "t", "c"], "back": ["e3", "e4"], "mode": "grind",
                    "stops": [{"kind": "max-iterations", "n": 3}, {"kind": "budget", "measure": "dispatches", "limit": 9}]}])
    assert only(doc, "E_LOOP_BACK_EDGE") == []


def test_component_shortcut_agrees_with_the_search_on_big_loops():
    """With many back edges over many members the rule reads strongly connected components instead
    of searching per edge; both ways must give the same verdicts."""
    n = 30
    nodes = [agent(f"n{i}", "builder") for i in range(n)] + [END]
    edges = [edge(f"f{i}", f"n{i}", f"n{i + 1}") for i in range(n - 1)]
    edges += [edge("b1", f"n{n - 1}", "n0"), edge("b2", "n5", "n2"), edge("b3", "n3", "n20"), edge("out", f"n{n - 1}", "end")]
    loop = {"id": "l", "name": "L", "members": [f"n{i}" for i in range(n)], "back": ["b1", "b2", "b3"],
            "stops": [{"kind": "max-iterations", "n": 3}, {"kind": "budget", "measure": "dispatches", "limit": 9}]}
    doc = G(nodes=nodes, edges=edges, loops=[loop])
    # b3 (n3 -> n20) closes: n20 ... n29 -> n0 (via b1) ... n3.
    assert only(doc, "E_LOOP_BACK_EDGE") == []
    doc["edges"] = [e for e in edges if e["id"] != "b1"]
    doc["loops"][0]["back"] = ["b2", "b3", "b4", "b5"]
    doc["edges"] += [edge("b4", "n7", "n7"), edge("b5", "n8", "n6")]
    got = only(doc, "E_LOOP_BACK_EDGE")
    assert [i.at for i in got] == [("l", "b3")]  # nothing leads back from n20 to n3 any more


# ---------------------------------------------------------------------------------------------------
# E_GROUP_CYCLE


def test_group_listing_itself_and_two_rings_each_reported_once():
    doc = G(nodes=[W, END], edges=E1, loops=[],
            groups=[{"id": "ga", "name": "A", "members": ["gb"]}, {"id": "gb", "name": "B", "members": ["gc"]},
                    {"id": "gc", "name": "C", "members": ["ga", "gb", "w"]}, {"id": "gs", "name": "S", "members": ["gs"]}])
    issues = only(doc, "E_GROUP_CYCLE")
    assert codes_at(issues) == [("E_GROUP_CYCLE", ["ga", "gb", "gc"]), ("E_GROUP_CYCLE", ["gb", "gc"]),
                                ("E_GROUP_CYCLE", ["gs"])]
    assert issues[0].message.startswith("groups form a ring: ga → gb → gc → ga")
    assert issues[0].pointers == ("/groups/2/members/0",) and issues[1].pointers == ("/groups/2/members/1",)
    assert issues[2].message.startswith('group "gs" lists itself') and issues[2].pointers == ("/groups/3/members/0",)
    assert issues[0].facts.ring == ("ga", "gb", "gc")


def test_long_group_ring_does_not_recurse():
    n = 5000
    groups = [{"id": f"g{i}", "name": "G", "members": [f"g{(i + 1) % n}"]} for i in range(n)]
    doc = G(nodes=[W, END], edges=E1, loops=[], groups=groups)
    [issue] = only(doc, "E_GROUP_CYCLE")
    assert len(issue.at) == n and issue.at[0] == "g0"


def test_dense_group_tangle_ends():
    """A complete tangle of groups has factorially many simple paths; the walk is bounded."""
    ids = [f"g{i}" for i in range(12)]
    groups = [{"id": g, "name": g, "members": [x for x in ids if x != g]} for g in ids]
    doc = G(nodes=[W, END], edges=E1, loops=[], groups=groups)
    issues = only(doc, "E_GROUP_CYCLE")
    assert issues and issues[0].at == ("g0", "g1")


# ---------------------------------------------------------------------------------------------------
# Leads


def test_second_lead_counts_persons_and_points_at_roles():
    doc = G(nodes=[agent("a", "lead"), agent("b", "builder"), agent("c", "lead", by="person"), agent("d", "lead"), END],
            edges=[edge("e1", "a", "b"), edge("e2", "b", "end")], loops=[])
    second = only(doc, "E_SECOND_LEAD")
    assert codes_at(second) == [("E_SECOND_LEAD", ["a", "c", "d"])]
    assert "3 lead nodes" in second[0].message and '"a", "c", "d"' in second[0].message
    assert second[0].pointers == ("/nodes/0/role", "/nodes/2/role", "/nodes/3/role")
    [person] = only(doc, "E_PERSON_LEAD")
    assert person.at == ("c",) and person.pointers == ("/nodes/2/by",)


def test_custom_role_named_lead_is_not_a_lead():
    doc = G(nodes=[agent("a", "lead"), agent("b", {"custom": "lead"}), END], edges=[edge("e1", "a", "b"), edge("e2", "b", "end")],
            loops=[])
    assert only(doc, "E_SECOND_LEAD") == []


# ---------------------------------------------------------------------------------------------------
# E_CYCLE_NO_STOP


def test_cycle_covered_only_by_a_loop_with_a_stop():
    assert only(GRIND([{"kind": "max-iterations", "n": 3}]), "E_CYCLE_NO_STOP") == []
    issues = only(GRIND([]), "E_CYCLE_NO_STOP")
    assert codes_at(issues) == [("E_CYCLE_NO_STOP", ["w", "t"])]
    assert issues[0].pointers == ("/edges/0/id", "/edges/1/id") and issues[0].facts.edges == ("e1", "e2")
    assert "w → t" in issues[0].message


def test_cycles_sharing_a_node_are_one_component_and_components_sort_by_node_order():
    nodes = [agent(i, "builder") for i in ("s", "x", "a", "b", "y", "c")] + [END]
    edges = [edge("e0", "s", "a"), edge("e1", "a", "b"), edge("e2", "b", "a"), edge("e3", "b", "c"), edge("e4", "c", "b"),
             edge("e5", "c", "end"), edge("e6", "s", "x"), edge("e7", "x", "y"), edge("e8", "y", "x"), edge("e9", "c", "a")]
    got = only(G(nodes=nodes, edges=edges, loops=[]), "E_CYCLE_NO_STOP")
    assert codes_at(got) == [("E_CYCLE_NO_STOP", ["x", "y"]), ("E_CYCLE_NO_STOP", ["a", "b", "c"])]


def test_edges_touching_unknown_ids_never_form_cycles():
    doc = G(nodes=[W, END], edges=[edge("e1", "w", "ghost"), edge("e2", "ghost", "w"), edge("e3", "w", "end")], loops=[])
    assert only(doc, "E_CYCLE_NO_STOP") == []


def test_long_chain_cycle_does_not_recurse():
    n = 20000
    nodes = [agent(f"n{i}", "builder") for i in range(n)]
    edges = [edge(f"e{i}", f"n{i}", f"n{(i + 1) % n}") for i in range(n)]
    [issue] = only(G(nodes=nodes, edges=edges, loops=[]), "E_CYCLE_NO_STOP")
    assert len(issue.at) == n and issue.at[:2] == ("n0", "n1")


# ---------------------------------------------------------------------------------------------------
# E_JUDGMENT_LOOP_NO_BAR, E_STOP_NOT_INSPECTABLE


def test_judgment_variants_and_what_counts_as_inspectable():
    no_bar = only(JUDGE([{"kind": "max-iterations", "n": 3}]), "E_JUDGMENT_LOOP_NO_BAR")[0]
    assert no_bar.facts.variant == "no bar" and "has no bar" in no_bar.message and no_bar.pointers == ("/loops/0/id",)
    key_bar = {"name": "K", "inspects": [{"kind": "answer-key", "ref": "answers.json"}], "acceptance": "Matches."}
    nothing = only(JUDGE([{"kind": "max-iterations", "n": 3}], bar=key_bar), "E_JUDGMENT_LOOP_NO_BAR")[0]
    assert nothing.facts.variant == "nothing inspectable" and nothing.pointers == ("/loops/0/bar/inspects",)
    assert "file, url, metric, checklist or artifact" in nothing.message
    with_source = JUDGE([{"kind": "max-iterations", "n": 3}], bar={**key_bar, "answerKeyFrom": "w"})
    assert only(with_source, "E_JUDGMENT_LOOP_NO_BAR") == []
    assert only(JUDGE([{"kind": "max-iterations", "n": 3}], mode="grind"), "E_JUDGMENT_LOOP_NO_BAR") == []


def test_back_edge_from_an_unknown_node_makes_the_loop_judgment():
    doc = GRIND([{"kind": "max-iterations", "n": 3}])
    doc["edges"][1]["from"] = "ghost"
    doc["loops"][0]["members"].append("ghost")
    assert "E_JUDGMENT_LOOP_NO_BAR" in [i.code for i in run(doc)]


def test_stop_not_inspectable_ignores_mode_and_needs_only_bar_passed_stops():
    assert codes_at(run(JUDGE([{"kind": "bar-passed"}]))) == [
        ("E_JUDGMENT_LOOP_NO_BAR", ["l"]), ("E_STOP_NOT_INSPECTABLE", ["l"]), ("W_LONG_LOOP_NO_BUDGET", ["l"])]
    inspectable = {"name": "Green", "inspects": [{"kind": "url", "ref": "https://ci.example/run"}], "acceptance": "Green."}
    assert only(GRIND([{"kind": "bar-passed"}], bar=inspectable), "E_STOP_NOT_INSPECTABLE") == []
    assert only(GRIND([{"kind": "bar-passed"}, {"kind": "human"}]), "E_STOP_NOT_INSPECTABLE") == []


# ---------------------------------------------------------------------------------------------------
# Export-only codes (graph.md §3.4)


def test_export_codes_only_with_the_flag_and_template_suppresses_two():
    person = {"id": "p", "kind": "agent", "name": "P", "by": "person", "role": "builder", "brief": "Do {{x}}.", "outputs": ["o"]}
    doc = G(nodes=[person, END], edges=[edge("e1", "p", "end")], loops=[], template=TEMPLATE)
    assert run(doc) == []
    assert codes_at(run(doc, export=True)) == [("E_NO_TARGET", ["g"]), ("E_NO_GOAL", ["g"]), ("E_IS_TEMPLATE", ["g"])]
    del doc["template"]
    assert codes_at(run(doc, export=True)) == [("E_NO_TARGET", ["g"]), ("E_NO_GOAL", ["g"]), ("E_UNFILLED_SLOT", ["p"]),
                                               ("E_PERSON_STEP_NOT_COMPILED", ["p"])]


def test_no_target_variants_and_pointers():
    base = dict(goal="Go.", nodes=[W, END], edges=E1, loops=[])
    missing = only(G(**base), "E_NO_TARGET", export=True)[0]
    assert missing.facts.variant == "missing" and missing.pointers == ("",)
    blank = only(G(**base, target={"harness": " \u3000"}), "E_NO_TARGET", export=True)[0]
    assert blank.facts.variant == "missing" and blank.pointers == ("/target/harness",)
    for harness in ("Claude-Code", "codex ", "gemini"):
        unknown = only(G(**base, target={"harness": harness}), "E_NO_TARGET", export=True)[0]
        assert unknown.facts.variant == "unknown" and f'"{harness}"' in unknown.message
        assert "no compiler" in unknown.message and "plan" in unknown.message
    for harness in ("claude-code", "codex"):
        assert only(G(**base, target={"harness": harness}), "E_NO_TARGET", export=True) == []


def test_no_goal_points_at_the_root_when_absent():
    doc = G(target={"harness": "codex"}, nodes=[W, END], edges=E1, loops=[])
    assert only(doc, "E_NO_GOAL", export=True)[0].pointers == ("",)
    doc["goal"] = "\u00a0\n"  # ECMAScript whitespace only
    assert only(doc, "E_NO_GOAL", export=True)[0].pointers == ("/goal",)


def test_unfilled_slots_by_key_with_holders_in_discovery_order():
    doc = GRIND([{"kind": "bar-passed"}, {"kind": "max-iterations", "n": 3}],
                bar={"name": "Fast", "inspects": [{"kind": "metric", "ref": "bench.json"}], "acceptance": "{{metric}} under 5 ms."})
    doc.update(goal="Fix {{area}}.", target={"harness": "codex"}, zeta={"deep": ["{{area}}", {"k": "{{{{odd}}"}]})
    doc["nodes"][0]["brief"] = "Work on {{area}} with {{ tool }}; keep {{not a slot}} and {{}} as they are."
    doc["edges"][0]["label"] = "{{tool}}"
    doc["policies"] = [{"id": "style", "kind": {"custom": "style"}, "scope": "graph", "params": {"{{key}}": "{{area}}"}}]
    doc["groups"] = [{"id": "ga", "name": "{{team}}", "members": ["w"]}]
    doc["notes"] = [{"id": "n1", "run": "r", "at": "graph", "text": "{{never}}"}]
    doc["layout"] = {"w": {"x": 0, "y": 0}}
    doc["template_like"] = None
    issues = only(doc, "E_UNFILLED_SLOT", export=True)
    assert [(i.facts.key, list(i.at)) for i in issues] == [
        ("area", ["g", "w", "style"]), ("odd", ["g"]), ("tool", ["w", "e1"]), ("metric", ["l"]), ("team", ["ga"])]
    area = issues[0]
    assert area.pointers == ("/goal", "/zeta/deep/0", "/nodes/0/brief", "/policies/0/params/{{key}}")
    assert all("{{area}}" in resolve(doc, p).replace(" ", "") for p in area.pointers)
    assert "{{tool}}" in issues[2].message and '"w", "e1"' in issues[2].message  # key written without inner spaces


def test_person_steps_listed_in_one_issue_with_plural_phrasing():
    doc = G(goal="Go.", target={"harness": "codex"},
            nodes=[agent("a", "builder", by="person"), agent("b", "critic", by="person"), END],
            edges=[edge("e1", "a", "b"), edge("e2", "b", "end")], loops=[])
    [issue] = only(doc, "E_PERSON_STEP_NOT_COMPILED", export=True)
    assert issue.at == ("a", "b") and issue.pointers == ("/nodes/0/by", "/nodes/1/by")
    assert 'steps "a", "b" are performed by a person' in issue.message and "plan" in issue.message


# ---------------------------------------------------------------------------------------------------
# E_CRITIC_NOT_ISOLATED


def isolation_doc(e1: dict, policies: list, critic: dict | None = None) -> dict:
    return G(nodes=[W, critic or C, END], edges=[e1, edge("e2", "c", "end", when="pass")], loops=[], policies=policies)


GRAPH_ISO = [{"id": "iso", "kind": "critic-isolation", "scope": "graph"}]


def test_no_evidence_variant_names_the_writer_and_points_at_the_edge():
    issue = only(isolation_doc(edge("e1", "w", "c"), GRAPH_ISO), "E_CRITIC_NOT_ISOLATED")[0]
    assert issue.at == ("e1", "w", "c") and issue.facts.variant == "no evidence" and issue.facts.writer == "w"
    assert issue.pointers == ("/edges/0/id",)
    assert '"iso"' in issue.message and '"w"' in issue.message and '"c"' in issue.message
    empty = only(isolation_doc(edge("e1", "w", "c", evidence=[]), GRAPH_ISO), "E_CRITIC_NOT_ISOLATED")[0]
    assert empty.pointers == ("/edges/0/evidence",)
    assert only(isolation_doc(edge("e1", "w", "c", evidence=["diff"]), GRAPH_ISO), "E_CRITIC_NOT_ISOLATED") == []


def test_shared_variant_even_with_evidence_and_from_a_non_writer():
    doc = G(nodes=[T, C, END], edges=[edge("e1", "t", "c", isolation="shared", evidence=["x"]), edge("e2", "c", "end")],
            loops=[], policies=GRAPH_ISO)
    assert codes_at(only(doc, "E_CRITIC_NOT_ISOLATED")) == [("E_CRITIC_NOT_ISOLATED", ["e1", "c"])]
    doc["edges"][0]["isolation"] = "fresh"
    assert only(doc, "E_CRITIC_NOT_ISOLATED") == []  # from a check: no writer, so no "no evidence"


def test_isolation_skips_person_critics_custom_roles_and_other_policies():
    assert only(isolation_doc(edge("e1", "w", "c"), [{"id": "x", "kind": "no-self-grading", "scope": "graph"}]),
                "E_CRITIC_NOT_ISOLATED") == []
    assert only(isolation_doc(edge("e1", "w", "c"), GRAPH_ISO, {**C, "by": "person"}), "E_CRITIC_NOT_ISOLATED") == []
    assert only(isolation_doc(edge("e1", "w", "c"), GRAPH_ISO, {**C, "role": {"custom": "critic"}}), "E_CRITIC_NOT_ISOLATED") == []
    person_writer = G(nodes=[{**W, "by": "person"}, C, END], edges=[edge("e1", "w", "c"), edge("e2", "c", "end")], loops=[],
                      policies=GRAPH_ISO)
    assert [i.at for i in only(person_writer, "E_CRITIC_NOT_ISOLATED")] == [("e1", "w", "c")]  # persons included


@pytest.mark.parametrize("scope,covered", [("edge:e1", True), ("edge:e2", False), ("node:w", True), ("node:c", True),
                                           ("node:end", False), ("loop:l", True), ("loop:other", False)])
def test_policy_scopes_cover_edges(scope, covered):
    doc = isolation_doc(edge("e1", "w", "c"), [{"id": "a", "kind": "no-self-grading", "scope": "graph"},
                                              {"id": "iso", "kind": "critic-isolation", "scope": scope}])
    doc["loops"] = [{"id": "l", "name": "L", "members": ["c"], "back": ["e9"], "stops": [{"kind": "human"}]},
                    {"id": "other", "name": "O", "members": ["w"], "back": ["e9"], "stops": [{"kind": "human"}]}]
    got = only(doc, "E_CRITIC_NOT_ISOLATED")
    assert bool(got) == covered
    if got:
        assert got[0].facts.policy == "iso"


# ---------------------------------------------------------------------------------------------------
# E_OWNERSHIP_CONFLICT


def test_ownership_counts_writers_and_persons_but_not_other_roles_and_respects_merges():
    doc = G(nodes=[agent("a", "builder", owns=["src", "docs", "src"]), agent("b", "synthesizer", by="person", owns=["docs", "src"]),
                   agent("r", {"custom": "refactorer"}, owns=["src"]), agent("x", "researcher", owns=["src"]),
                   agent("q", "lead", owns=["src"]), {"id": "m", "kind": "merge", "name": "M", "merges": ["docs"]}, END],
            edges=[edge("e1", "a", "end")], loops=[])
    [issue] = only(doc, "E_OWNERSHIP_CONFLICT")
    assert issue.at == ("a", "b", "r") and issue.facts.artifact == "src"
    assert issue.pointers == ("/nodes/0/owns/0", "/nodes/0/owns/2", "/nodes/1/owns/1", "/nodes/2/owns/0")
    assert '"src"' in issue.message and '"a", "b", "r"' in issue.message and "merge" in issue.message


# ---------------------------------------------------------------------------------------------------
# E_IRREVERSIBLE_NO_GATE


PUB = agent("pub", "builder", irreversible=["publish", "spend"])
GATE = {"id": "gate", "kind": "human-gate", "name": "Ship?", "prompt": "Ship it?"}
MAX3_BUDGET = [{"kind": "max-iterations", "n": 3}, {"kind": "budget", "measure": "dispatches", "limit": 9}]


def test_gated_ways_in_raise_nothing():
    approved = G(nodes=[W, PUB, END], edges=[edge("e1", "w", "pub", approval=True), edge("e2", "pub", "end")], loops=[])
    assert only(approved, "E_IRREVERSIBLE_NO_GATE") == []
    gated = G(nodes=[W, GATE, PUB, END], edges=[edge("e1", "w", "gate"), edge("e2", "gate", "pub"), edge("e3", "pub", "end")],
              loops=[])
    assert only(gated, "E_IRREVERSIBLE_NO_GATE") == []
    person = G(nodes=[W, {**PUB, "by": "person"}, END], edges=[edge("e1", "w", "pub"), edge("e2", "pub", "end")], loops=[])
    assert only(person, "E_IRREVERSIBLE_NO_GATE") == []


def test_a_person_before_the_step_is_not_a_gate():
    doc = G(nodes=[{**W, "by": "person"}, PUB, END], edges=[edge("e1", "w", "pub"), edge("e2", "pub", "end")], loops=[])
    assert [i.at for i in only(doc, "E_IRREVERSIBLE_NO_GATE")] == [("pub", "e1")]


def test_open_ways_list_open_edges_then_loops_of_open_stops():
    doc = G(nodes=[W, T, GATE, PUB, END],
            edges=[edge("e1", "w", "t"), edge("e2", "t", "w", when="fail"), edge("e3", "t", "gate", when="pass"),
                   edge("e4", "gate", "pub"), edge("e5", "w", "pub"), edge("e6", "pub", "end")],
            loops=[{"id": "l", "name": "L", "members": ["w", "t"], "back": ["e2"],
                    "stops": [{"kind": "max-iterations", "n": 3, "then": "pub"}, {"kind": "human", "then": "pub"},
                              {"kind": "budget", "measure": "usd", "limit": 5, "then": "pub"}]}])
    [issue] = only(doc, "E_IRREVERSIBLE_NO_GATE")
    assert issue.at == ("pub", "e5", "l") and issue.facts.variant == "open ways"
    assert issue.pointers == ("/edges/4/id", "/loops/0/stops/0/then", "/loops/0/stops/2/then")
    assert "publish, spend" in issue.message and 'edge "e5"' in issue.message
    assert 'loop "l" stop 0 (max-iterations), which continues there' in issue.message
    assert 'loop "l" stop 2 (budget)' in issue.message and "stop 1" not in issue.message
    assert issue.facts.open_edges == ("e5",) and [s.stop for s in issue.facts.open_stops] == [0, 2]


def test_starts_here_when_only_its_own_loop_leads_back():
    doc = G(nodes=[PUB, T, END], edges=[edge("e1", "pub", "t"), edge("e2", "t", "pub", when="fail", approval=True),
                                        edge("e3", "t", "end", when="pass")],
            loops=[{"id": "l", "name": "L", "members": ["pub", "t"], "back": ["e2"], "stops": MAX3_BUDGET}])
    [issue] = only(doc, "E_IRREVERSIBLE_NO_GATE")
    assert issue.at == ("pub", "e2") and issue.facts.variant == "starts here"  # even an approved back edge
    assert "the run starts at it" in issue.message and '"e2"' in issue.message
    assert issue.pointers[0] == "/nodes/0/irreversible"


def test_starts_here_by_a_stop_of_its_own_loop():
    doc = G(nodes=[PUB, T, END], edges=[edge("e1", "pub", "t"), edge("e2", "t", "end", when="pass")],
            loops=[{"id": "l", "name": "L", "members": ["pub", "t"], "back": [], "stops": [{"kind": "human", "then": "pub"}]}])
    [issue] = only(doc, "E_IRREVERSIBLE_NO_GATE")
    assert issue.at == ("pub",) and issue.facts.variant == "starts here"
    assert "a stop of its own loop" in issue.message


def test_nothing_leads_to_it():
    doc = G(nodes=[W, PUB, END], edges=[edge("e1", "w", "end"), edge("e2", "pub", "end")], loops=[])
    [issue] = only(doc, "E_IRREVERSIBLE_NO_GATE")
    assert issue.at == ("pub",) and issue.facts.variant == "nothing leads to it" and "nothing leads to it" in issue.message


# ---------------------------------------------------------------------------------------------------
# W_HOMOGENEOUS_CRITICS


def critic_doc(writer_model, critic_model, target=None, extra_nodes=(), extra_edges=()):
    w = agent("w", "builder", **({"model": writer_model} if writer_model else {}))
    c = agent("c", "critic", **({"model": critic_model} if critic_model else {}))
    doc = G(nodes=[w, c, *extra_nodes, END], edges=[edge("e1", "w", "c"), edge("e2", "c", "end"), *extra_edges], loops=[])
    if target:
        doc["target"] = {"harness": target}
    return doc


@pytest.mark.parametrize("wm,cm,target,flagged,key", [
    ({"tier": "strong"}, {"tier": "strong"}, None, True, "tier strong"),
    (None, None, None, True, "the session default"),
    ({"tier": "strong"}, {"tier": "frontier"}, None, False, None),
    ({"tier": "strong", "pin": {"codex": "gpt-x"}}, {"tier": "strong", "pin": {"codex": "gpt-x"}}, None, True,
     "tier strong, pin codex: gpt-x"),
    ({"tier": "strong", "pin": {"codex": "gpt-x"}}, {"tier": "strong"}, None, False, None),  # no harness: pins must match
    ({"tier": "strong", "pin": {"codex": "gpt-x"}}, {"tier": "strong"}, "claude-code", True, "tier strong"),  # other harness
    ({"tier": "fast", "pin": {"claude-code": "opus"}}, {"tier": "frontier", "pin": {"claude-code": "opus"}}, "claude-code", True,
     "pin claude-code: opus"),
    ({"tier": "strong", "pin": {"claude-code": "opus"}}, {"tier": "strong"}, "claude-code", False, None),
    ({"tier": "strong"}, {"tier": "strong"}, "  ", True, "tier strong"),  # blank harness is "none"
])
def test_model_keys_decide_homogeneity(wm, cm, target, flagged, key):
    issues = only(critic_doc(wm, cm, target), "W_HOMOGENEOUS_CRITICS")
    assert bool(issues) == flagged
    if flagged:
        assert issues[0].at == ("w", "c") and f"({key})" in issues[0].message
        assert issues[0].facts.critics == (CriticOnWritersModel(critic="c", writers=("w",), key=key),)


def test_one_warning_for_all_flagged_critics_with_sorted_at():
    s = {"tier": "strong"}
    nodes = [agent("c1", "critic", model=s), agent("w1", "builder", model=s), agent("c2", "judge", model=s),
             agent("w2", "planner", model=s), agent("c3", "red-team"), END]
    edges = [edge("a", "w1", "c1"), edge("b", "w2", "c2"), edge("c", "w1", "c3"), edge("d", "c1", "end")]
    [issue] = only(G(nodes=nodes, edges=edges, loops=[]), "W_HOMOGENEOUS_CRITICS")
    assert issue.at == ("c1", "w1", "c2", "w2")
    assert issue.message.index('critic "c1"') < issue.message.index('critic "c2"')
    assert issue.pointers == ("/nodes/0/model", "/nodes/2/model")
    assert "another tier or pin" in issue.message


def test_nearest_writer_walk_stops_at_writers_passes_gates_and_skips_back_edges():
    s = {"tier": "strong"}
    # w0 (frontier) -> w (strong) -> gate -> c (strong): w is nearest, w0 is hidden behind it.
    doc = G(nodes=[agent("w0", "builder", model={"tier": "frontier"}), agent("w", "builder", model=s), GATE,
                   agent("c", "critic", model=s), agent("late", "builder", model={"tier": "fast"}), END],
            edges=[edge("e0", "w0", "w"), edge("e1", "w", "gate"), edge("e2", "gate", "c"), edge("e3", "c", "late"),
                   edge("back", "late", "c"), edge("e4", "c", "end")],
            loops=[{"id": "l", "name": "L", "members": ["c", "late"], "back": ["back"], "mode": "grind", "stops": MAX3_BUDGET}])
    assert [i.at for i in only(doc, "W_HOMOGENEOUS_CRITICS")] == [("w", "c")]


def test_one_writer_on_another_model_excuses_and_persons_stop_the_walk_but_are_not_compared():
    s = {"tier": "strong"}
    doc = G(nodes=[agent("a", "builder", model=s), agent("b", "builder", model={"tier": "fast"}), agent("c", "critic", model=s), END],
            edges=[edge("e1", "a", "c"), edge("e2", "b", "c"), edge("e3", "c", "end")], loops=[])
    assert only(doc, "W_HOMOGENEOUS_CRITICS") == []
    doc["nodes"][1]["by"] = "person"
    assert [i.at for i in only(doc, "W_HOMOGENEOUS_CRITICS")] == [("a", "c")]
    # a person standing between writer and critic hides the writer: nothing left to compare
    doc = G(nodes=[agent("a", "builder", model=s), agent("p", "builder", by="person"), agent("c", "critic", model=s), END],
            edges=[edge("e1", "a", "p"), edge("e2", "p", "c"), edge("e3", "c", "end")], loops=[])
    assert only(doc, "W_HOMOGENEOUS_CRITICS") == []


# ---------------------------------------------------------------------------------------------------
# W_FANOUT_ON_COUPLED


def test_fanout_node_then_group_variants_then_shared_artifacts():
    doc = G(nodes=[agent("p", "planner"), agent("m", "builder", coupled=True, owns=["db"]), agent("n", "builder", coupled=True, owns=["db"]),
                   agent("k", "builder", owns=["db"]), END],
            edges=[edge("e1", "p", "m", concurrency={"max": 4}), edge("e2", "p", "n", concurrency={"max": 1}),
                   edge("e3", "m", "end"), edge("e4", "p", "ghost", concurrency={"max": 2})],
            loops=[],
            groups=[{"id": "outer", "name": "O", "members": ["inner"], "coupled": True}, {"id": "inner", "name": "I", "members": ["m", "ghost"]},
                    {"id": "loose", "name": "L", "members": ["m"]}, {"id": "ring", "name": "R", "members": ["ring", "m"], "coupled": True}])
    issues = only(doc, "W_FANOUT_ON_COUPLED")
    assert codes_at(issues) == [("W_FANOUT_ON_COUPLED", ["e1", "m"]), ("W_FANOUT_ON_COUPLED", ["e1", "m", "outer"]),
                                ("W_FANOUT_ON_COUPLED", ["e1", "m", "ring"]), ("W_FANOUT_ON_COUPLED", ["e4", "ghost", "outer"]),
                                ("W_FANOUT_ON_COUPLED", ["m", "n"])]
    assert issues[0].pointers == ("/edges/0/concurrency/max",) and "up to 4" in issues[0].message
    assert [i.facts.variant for i in issues] == ["node", "group", "group", "group", "shared artifact"]
    assert issues[-1].pointers == ("/nodes/1/owns/0", "/nodes/2/owns/0")


# ---------------------------------------------------------------------------------------------------
# Loop warnings


def test_long_loop_budget_and_caps():
    assert codes_at(only(GRIND([{"kind": "max-iterations", "n": 5}]), "W_LONG_LOOP_NO_BUDGET")) == []
    assert only(GRIND([{"kind": "budget", "measure": "turns", "limit": 40}]), "W_LONG_LOOP_NO_BUDGET") == []
    [w] = only(GRIND([{"kind": "max-iterations", "n": 9}, {"kind": "max-iterations", "n": 6}]), "W_LONG_LOOP_NO_BUDGET")
    assert "6 rounds" in w.message and w.facts.smallest_cap == 6 and w.pointers == ("/loops/0/stops",)
    [none] = only(GRIND([{"kind": "human"}]), "W_LONG_LOOP_NO_BUDGET")
    assert "no max-iterations stop" in none.message and none.facts.smallest_cap is None


def test_aspiration_variants():
    bar = {"name": "B", "inspects": [{"kind": "file", "ref": "r"}], "acceptance": "Ready to ship.", "aspiration": "  READY to\tship. "}
    [same] = only(GRIND([{"kind": "bar-passed"}, {"kind": "max-iterations", "n": 3}], bar=bar), "W_ASPIRATION_AS_ACCEPTANCE")
    assert same.facts.variant == "same" and same.pointers == ("/loops/0/bar/acceptance",)
    blank = GRIND([{"kind": "max-iterations", "n": 3}], bar={**bar, "acceptance": "\u2028"})
    assert only(blank, "W_ASPIRATION_AS_ACCEPTANCE")[0].facts.variant == "blank acceptance"
    assert only(GRIND([{"kind": "max-iterations", "n": 3}], bar={**bar, "aspiration": " "}), "W_ASPIRATION_AS_ACCEPTANCE") == []
    assert only(GRIND([{"kind": "max-iterations", "n": 3}], bar={**bar, "aspiration": "Delight."}), "W_ASPIRATION_AS_ACCEPTANCE") == []


def test_only_max_iterations_needs_a_non_empty_list_of_caps():
    assert only(GRIND([]), "W_ONLY_MAX_ITERATIONS") == []
    assert only(GRIND([{"kind": "max-iterations", "n": 2}, {"kind": "human"}]), "W_ONLY_MAX_ITERATIONS") == []
    [w] = only(GRIND([{"kind": "max-iterations", "n": 2}, {"kind": "max-iterations", "n": 3}]), "W_ONLY_MAX_ITERATIONS")
    assert w.facts.mode == "grind" and "bar-passed, budget or human" in w.message


# ---------------------------------------------------------------------------------------------------
# Reach


def test_unreachable_lists_the_entries_and_no_terminal_variants():
    doc = EXAMPLES["W_UNREACHABLE_NODE"][0]
    [u] = only(doc, "W_UNREACHABLE_NODE")
    assert '("w")' in u.message and u.pointers == ("/nodes/1/id",) and u.facts.entries == ("w",)
    none = only(EXAMPLES["W_UNREACHABLE_NODE (no entry)"][0], "W_UNREACHABLE_NODE")[0]
    assert "no entry node" in none.message
    [t] = only(EXAMPLES["W_UNREACHABLE_NODE (no entry)"][0], "W_NO_TERMINAL")
    assert t.facts.variant == "unreachable" and t.pointers == ("/nodes",)
    assert only(EXAMPLES["W_NO_TERMINAL"][0], "W_NO_TERMINAL")[0].facts.variant == "no stop node"


def test_no_terminal_skipped_for_empty_graphs_and_fragments():
    assert run(G(nodes=[], edges=[], loops=[])) == []
    frag = G(nodes=[W], edges=[], loops=[], template={**TEMPLATE, "kind": "fragment"})
    assert only(frag, "W_NO_TERMINAL") == []
    assert only(G(nodes=[W], edges=[], loops=[], template=TEMPLATE), "W_NO_TERMINAL") != []


def test_stop_exits_are_ways_in_and_ways_on():
    """A stop's `then` reaches its target (§2.8) and keeps it from being an entry (§2.7)."""
    doc = GRIND([{"kind": "max-iterations", "n": 3, "then": "halt"}, {"kind": "budget", "measure": "usd", "limit": 1}])
    doc["nodes"].append({"id": "halt", "kind": "stop", "name": "Halt", "outcome": "halt"})
    assert run(doc) == []


# ---------------------------------------------------------------------------------------------------
# Agent fields


def test_output_not_writable_exemptions_and_pointer():
    doc = G(nodes=[agent("lead", "lead", allow=[]), agent("p", "builder", by="person", allow=[]),
                   agent("r", "researcher", allow=["read-files"], deny=["edit-files"]), agent("ok", "tester", allow=["write-outputs"]),
                   {"id": "bare", "kind": "agent", "name": "B", "role": "judge", "brief": "b", "outputs": ["o"]}, END],
            edges=[], loops=[])
    issues = only(doc, "W_OUTPUT_NOT_WRITABLE")
    assert [(i.at, i.pointers) for i in issues] == [(("r",), ("/nodes/2/allow",)), (("bare",), ("/nodes/4/id",))]
    assert "write-outputs" in issues[0].message


def test_person_fields_listed_in_spec_order_as_keys():
    p = agent("p", "builder", by="person", skills=["pdf"], deny=["web"], allow=["read-files"], effort="low", model={"tier": "fast"})
    [issue] = only(G(nodes=[p, END], edges=[edge("e1", "p", "end")], loops=[]), "W_PERSON_FIELDS_NOT_READ")
    assert issue.facts.fields == ("model", "effort", "skills", "allow", "deny") and issue.on_key
    assert "model, effort, skills, allow, deny" in issue.message and "they are ignored" in issue.message
    assert issue.pointers == ("/nodes/0/model", "/nodes/0/effort", "/nodes/0/skills", "/nodes/0/allow", "/nodes/0/deny")


# ---------------------------------------------------------------------------------------------------
# W_GROUP_OVERLAP


def test_nesting_is_not_overlap_and_three_innermost_holders():
    groups = [{"id": "outer", "name": "O", "members": ["inner", "w"]}, {"id": "inner", "name": "I", "members": ["w", "w"]},
              {"id": "side", "name": "S", "members": ["w", "end"]}, {"id": "third", "name": "T", "members": ["w"]},
              {"id": "self", "name": "Self", "members": ["self"]}]
    doc = G(nodes=[W, END], edges=E1, loops=[], groups=groups)
    [issue] = only(doc, "W_GROUP_OVERLAP")
    assert issue.at == ("w", "inner", "side", "third")
    assert 'node "w" is in groups "inner", "side" and "third"' in issue.message and 'in "inner"' in issue.message
    assert issue.pointers == ("/groups/2/members/0", "/groups/3/members/0")
    assert issue.related[0][0] == "/groups/1/members/0"


def test_a_group_held_by_two_groups_is_named_a_group():
    groups = [{"id": "ga", "name": "A", "members": ["gx"]}, {"id": "gb", "name": "B", "members": ["gx"]},
              {"id": "gx", "name": "X", "members": ["w"]}]
    [issue] = only(G(nodes=[W, END], edges=E1, loops=[], groups=groups), "W_GROUP_OVERLAP")
    assert issue.at == ("gx", "ga", "gb") and issue.message.startswith('group "gx"')


def test_rules_never_modify_the_document():
    for doc, export, _ in EXAMPLES.values():
        before = copy.deepcopy(doc)
        run(doc, export)
        assert doc == before
