"""The derived notions of graph.md §2, as the rules and teammates (pictures, repairs) use them."""

from __future__ import annotations

from grooph_core.semantics.graph_index import (
    build_index,
    entry_nodes,
    find_slots,
    flattened_members,
    group_holds,
    groups_held_by,
    groups_listed_by,
    has_inspectable_bar,
    inspectable_entries,
    is_critic_family,
    is_lead,
    is_person_step,
    is_writer_family,
    loop_mode,
    model_key,
    named_harness,
    nearest_writers,
    policy_covers_edge,
    reached_from,
    render_model_key,
    stop_exits,
    strongly_connected_components,
)
from tests.core.rules.graph_examples import C, END, GRIND, JUDGE, T, W, G


def edge(id, f, t, **kw):
    return {"id": id, "from": f, "to": t, **kw}


def test_index_first_holder_wins_and_incoming_ignores_node_existence():
    """§2.1."""
    doc = G(nodes=[W, {**T, "id": "w"}, END], edges=[edge("e1", "w", "end"), edge("e2", "ghost", "nowhere"), edge("e1", "end", "w")],
            loops=[])
    idx = build_index(doc)
    assert idx.node("w")["kind"] == "agent" and idx.node_pos == {"w": 0, "end": 2}
    assert idx.edge("e1")["from"] == "w"
    assert idx.incoming["nowhere"] == [1] and idx.outgoing["ghost"] == [1]
    assert idx.incoming["w"] == [2] and idx.outgoing["w"] == [0]
    assert idx.node_order("end") == 2 and idx.node_order("ghost") == 0
    assert idx.sort_by_node_order(["end", "ghost", "w"]) == ["ghost", "w", "end"]


def test_role_families_person_steps_and_the_lead():
    """§2.2."""
    a = {"kind": "agent"}
    assert all(is_critic_family({**a, "role": r}) for r in ("critic", "judge", "red-team"))
    assert not is_critic_family({**a, "role": {"custom": "critic"}})
    assert all(is_writer_family({**a, "role": r}) for r in ("builder", "synthesizer", "planner"))
    assert is_writer_family({**a, "role": {"custom": "x"}, "owns": ["f"]})
    assert not is_writer_family({**a, "role": {"custom": "x"}, "owns": []})
    assert not is_writer_family({**a, "role": "tester", "owns": ["f"]})
    assert is_writer_family({**a, "role": "builder", "by": "person"})  # families ignore `by`
    assert is_person_step({**a, "role": "builder", "by": "person"}) and not is_person_step({"kind": "human-gate"})
    assert is_lead({**a, "role": "lead", "by": "person"}) and not is_lead({**a, "role": {"custom": "lead"}})
    assert not is_critic_family({"kind": "check", "role": "critic"})


def test_loop_mode_is_inferred_from_where_back_edges_start():
    """§2.4."""
    grind = GRIND([])
    assert loop_mode(grind["loops"][0], build_index(grind)) == "grind"
    judge = JUDGE([])
    assert loop_mode(judge["loops"][0], build_index(judge)) == "judgment"
    judge["loops"][0]["mode"] = "grind"
    assert loop_mode(judge["loops"][0], build_index(judge)) == "grind"
    dangling = GRIND([], back=["nope"])
    assert loop_mode(dangling["loops"][0], build_index(dangling)) == "grind"  # no resolved back edge


def test_inspectable_entries_need_an_existing_answer_key_source():
    """§2.5."""
    doc = JUDGE([], bar={"name": "B", "inspects": [{"kind": "answer-key", "ref": "k"}, {"kind": "artifact", "ref": "a"}],
                         "acceptance": "a", "answerKeyFrom": "ghost"})
    idx = build_index(doc)
    loop = doc["loops"][0]
    assert inspectable_entries(loop, idx) == [1]
    loop["bar"]["answerKeyFrom"] = "c"
    assert inspectable_entries(loop, idx) == [0, 1]
    loop["bar"]["inspects"] = []
    assert not has_inspectable_bar(loop, idx)
    assert not has_inspectable_bar(GRIND([])["loops"][0], idx)


def test_stop_exits_skip_members():
    """§2.6."""
    loop = {"members": ["w", "t"], "stops": [{"kind": "human", "then": "w"}, {"kind": "max-iterations", "n": 2, "then": "x"},
                                             {"kind": "bar-passed"}, {"kind": "budget", "measure": "usd", "limit": 1, "then": "x"}]}
    assert stop_exits(loop) == ["x", "x"]


def test_entry_nodes_and_reach():
    """§2.7, §2.8: back edges do not make a way in; stop exits do; reaching follows both."""
    doc = GRIND([{"kind": "max-iterations", "n": 3, "then": "halt"}])
    doc["nodes"].append({"id": "halt", "kind": "stop", "name": "H"})
    doc["nodes"].append({**W, "id": "lonely"})
    idx = build_index(doc)
    assert entry_nodes(idx) == ["w", "lonely"]
    assert idx.reached == {"w", "t", "end", "halt", "lonely"}
    assert reached_from(idx, ["t", "ghost"]) == {"t", "w", "end", "halt"}
    assert reached_from(idx, ["ghost"]) == set()


def test_policy_scope_coverage():
    """§2.9: loop:X covers edges into a member, from outside too."""
    doc = GRIND([])
    idx = build_index(doc)
    e1, e3 = doc["edges"][0], doc["edges"][2]
    assert policy_covers_edge({"scope": "graph"}, e3, idx)
    assert policy_covers_edge({"scope": "loop:l"}, e1, idx) and not policy_covers_edge({"scope": "loop:l"}, e3, idx)
    assert policy_covers_edge({"scope": "node:end"}, e3, idx) and policy_covers_edge({"scope": "node:t"}, e3, idx)
    assert policy_covers_edge({"scope": "edge:e3"}, e3, idx) and not policy_covers_edge({"scope": "edge:e1"}, e3, idx)
    assert not policy_covers_edge({"scope": "loop:nope"}, e1, idx)


def test_nearest_writers_walk():
    """§2.10: upstream over non-back edges; a writer stops the walk; unknown ids are walked through."""
    nodes = [{**W, "id": "a"}, {**W, "id": "b"}, T, C, END]
    edges = [edge("e1", "a", "b"), edge("e2", "b", "t"), edge("e3", "t", "c"), edge("e4", "ghost", "c"), edge("e5", "zz", "ghost"),
             edge("back", "c", "c")]
    doc = G(nodes=nodes, edges=edges, loops=[{"id": "l", "name": "L", "members": ["c"], "back": ["back"], "stops": []}])
    assert nearest_writers(build_index(doc), "c") == ["b"]


def test_model_keys():
    """§2.10."""
    n = {"model": {"tier": "strong", "pin": {"codex": "x", "claude-code": "y", "\U0001f600": "z", "\ue000": "w"}}}
    assert model_key(n, "codex") == ("pin", "codex", "x")
    assert model_key(n, "other") == ("tier", "strong", ())
    # no harness: every pin, sorted by UTF-16 code units (the emoji's high surrogate D83D sorts before E000)
    assert [h for h, _ in model_key(n, None)[2]] == ["claude-code", "codex", "\U0001f600", "\ue000"]
    assert render_model_key(model_key({}, None)) == "the session default"
    assert render_model_key(model_key({"model": {"tier": "fast", "pin": {"codex": "m"}}}, None)) == "tier fast, pin codex: m"
    assert render_model_key(model_key(n, "codex")) == "pin codex: x"
    assert named_harness({"target": {"harness": " codex"}}) == " codex"
    assert named_harness({"target": {"harness": "\u3000"}}) is None and named_harness({}) is None


def test_group_containment_and_flattening_survive_rings():
    """§2.11."""
    doc = G(nodes=[W, END], edges=[], loops=[],
            groups=[{"id": "a", "name": "A", "members": ["b", "w", "b"]}, {"id": "b", "name": "B", "members": ["c", "x"]},
                    {"id": "c", "name": "C", "members": ["a", "end"]}])
    idx = build_index(doc)
    a = doc["groups"][0]
    assert groups_listed_by(idx, a) == ["b", "b"]
    assert groups_held_by(idx, a) == {"a", "b", "c"} and group_holds(idx, doc["groups"][1], "a")
    # b expands to c (a is not expanded again, end kept), then x; w; the second b is already expanded
    assert flattened_members(idx, a) == ["end", "x", "w"]


def test_slot_search_order_and_holders():
    """§2.12: graph text first (key order, integer-like keys first), then nodes, edges, loops, policies,
    groups; notes, layout and template never; keys never."""
    doc = G(goal="{{b}}", **{"7": "{{a}}"}, nodes=[{**W, "brief": "{{ c }} {{b}}"}], edges=[edge("e1", "w", "w", label="{{c}}")],
            loops=[], notes=[{"id": "n", "run": "r", "at": "graph", "text": "{{n}}"}], layout={"w": {"x": 0, "y": 0}},
            template={"kind": "graph", "title": "{{t}}", "summary": "", "whenToUse": "", "profile": {}})
    doc["{{key}}"] = "plain"
    got = [(s.key, s.holders, s.pointers) for s in find_slots(doc)]
    assert got == [("a", ("g",), ("/7",)), ("b", ("g", "w"), ("/goal", "/nodes/0/brief")),
                   ("c", ("w", "e1"), ("/nodes/0/brief", "/edges/0/label"))]


def test_slot_pattern_edge_cases():
    doc = G(goal="{{a b}} {{}} {{x}}} {{{y}} {{\tz\u3000}} {{ü}}", nodes=[], edges=[], loops=[])
    assert [s.key for s in find_slots(doc)] == ["x", "y", "z", "ü"]


def test_scc_is_iterative_and_finds_components():
    succ = {"a": ["b"], "b": ["a", "c"], "c": ["c"], "d": []}
    comps = sorted(sorted(c) for c in strongly_connected_components(["a", "b", "c", "d"], succ))
    assert comps == [["a", "b"], ["c"], ["d"]]
    n = 50000
    ring = {str(i): [str((i + 1) % n)] for i in range(n)}
    [comp] = strongly_connected_components([str(i) for i in range(n)], ring)
    assert len(comp) == n
