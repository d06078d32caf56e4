"""The shape of a graph: counts, worst-case rounds, budgets and the two lines (cli.md §3.2)."""

from __future__ import annotations

import json
from pathlib import Path

from grooph_core.semantics.graph_shape import graph_shape, graph_shape_line, tier_line, worst_case_rounds

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"


def _agent(id, tier=None):
    n = {"id": id, "kind": "agent", "name": id, "role": "builder", "brief": "b", "outputs": ["o"]}
    if tier:
        n["model"] = {"tier": tier}
    return n


def _loop(id, members, *stops, name=""):
    return {"id": id, "name": name, "members": members, "back": [], "stops": list(stops)}


def _doc(nodes=(), edges=(), loops=()):
    return {"grooph": 0, "id": "g", "name": "G", "version": 1, "nodes": list(nodes), "edges": list(edges),
            "loops": list(loops)}


def test_release_notes_example_of_operations_7_4():
    doc = json.loads((FIXTURES / "maps/valid/graphs/release-notes.grooph.json").read_text("utf-8"))
    shape = graph_shape(doc)
    assert shape == {"agents": 2, "checks": 1, "gates": 1, "loops": 1,
                     "tiers": {"frontier": 0, "strong": 1, "fast": 1, "unset": 0},
                     "worstCaseRounds": 3, "budgets": ["12 dispatches"]}
    assert list(shape) == ["agents", "checks", "gates", "loops", "tiers", "worstCaseRounds", "budgets"]
    assert graph_shape_line(shape) == "2 agents · 1 check · 1 gate · 1 loop · up to 3 rounds · 12 dispatches"
    assert tier_line(shape) == "1 strong · 1 fast"


def test_cli_example_line():
    shape = {"agents": 2, "checks": 0, "gates": 1, "loops": 1, "tiers": {}, "worstCaseRounds": 4,
             "budgets": ["10 dispatches"]}
    assert graph_shape_line(shape) == "2 agents · 1 gate · 1 loop · up to 4 rounds · 10 dispatches"


def test_no_loop_and_singulars():
    doc = _doc([_agent("a")])
    shape = graph_shape(doc)
    assert graph_shape_line(shape) == "1 agent · no loop"
    assert shape["worstCaseRounds"] == 0
    assert tier_line(shape) == "1 session default"
    assert graph_shape_line(graph_shape(_doc())) == "0 agents · no loop"


def test_gates_count_human_gates_and_approval_edges_only_when_true():
    doc = _doc([_agent("a"), {"id": "g", "kind": "human-gate", "name": "G", "prompt": "ok?"}],
               [{"id": "e1", "from": "a", "to": "g", "approval": True}, {"id": "e2", "from": "g", "to": "a", "approval": False}])
    assert graph_shape(doc)["gates"] == 2


def test_a_loop_without_a_cap_means_no_round_cap():
    doc = _doc([_agent("a")], loops=[_loop("l", ["a"], {"kind": "budget", "measure": "usd", "limit": 2.5})])
    shape = graph_shape(doc)
    assert shape["worstCaseRounds"] is None
    assert graph_shape_line(shape) == "1 agent · 1 loop · no round cap · $2.5"


def test_nested_loops_multiply_by_the_enclosing_caps():
    inner = _loop("inner", ["a"], {"kind": "max-iterations", "n": 4}, {"kind": "max-iterations", "n": 3})
    outer = _loop("outer", ["a", "b"], {"kind": "max-iterations", "n": 2})
    same = _loop("same", ["a", "b"], {"kind": "max-iterations", "n": 5})  # equal sets do not enclose
    assert worst_case_rounds([inner, outer]) == 3 * 2 + 2
    assert worst_case_rounds([inner, outer, same]) == 3 * 2 * 5 + 2 + 5


def test_budgets_are_prefixed_when_several_loops_have_one():
    l1 = _loop("l1", ["a"], {"kind": "max-iterations", "n": 1}, {"kind": "budget", "measure": "minutes", "limit": 30},
               name="Draft")
    l2 = _loop("l2", ["b"], {"kind": "budget", "measure": "usd", "limit": 10},
               {"kind": "budget", "measure": "tokens", "limit": 1e6})
    shape = graph_shape(_doc([_agent("a", "frontier"), _agent("b", "fast")], loops=[l1, l2]))
    assert shape["budgets"] == ["Draft: 30 minutes", "l2: $10", "l2: 1000000 tokens"]
    assert graph_shape_line(shape) == \
        "2 agents · 2 loops · no round cap · Draft: 30 minutes · l2: $10 · l2: 1000000 tokens"
    assert tier_line(shape) == "1 frontier · 1 fast"
