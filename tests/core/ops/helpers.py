"""Shared documents and helpers for the operation tests (operations.md)."""

from __future__ import annotations

import copy

from grooph_core.ops import apply


def base_doc() -> dict:
    """A small review loop with unknown keys at several levels (graph.md §1.2: they must survive)."""
    return {
        "grooph": 0, "id": "review", "name": "Review", "version": 1, "x-root": {"keep": True},
        "nodes": [
            {"id": "builder", "kind": "agent", "name": "Builder", "role": "builder", "brief": "Build.",
             "outputs": ["out.txt"], "allow": ["edit-files"], "x-node": 1},
            {"id": "tests", "kind": "check", "name": "Tests",
             "check": {"kind": "tests", "run": "make test", "pass": "exit 0", "x-check": "c"}},
            {"id": "critic", "kind": "agent", "name": "Critic", "role": "critic", "brief": "Judge.",
             "outputs": ["review.md"], "allow": ["write-outputs"]},
            {"id": "done", "kind": "stop", "name": "Done"},
        ],
        "edges": [
            {"id": "e-builder-tests", "from": "builder", "to": "tests", "x-edge": [1, 2]},
            {"id": "e-tests-builder", "from": "tests", "to": "builder", "when": "fail"},
            {"id": "e-tests-critic", "from": "tests", "to": "critic", "when": "pass"},
            {"id": "handpicked", "from": "critic", "to": "done", "when": "pass"},
        ],
        "loops": [
            {"id": "fix", "name": "Fix", "members": ["builder", "tests"], "back": ["e-tests-builder"],
             "bar": {"name": "Green", "inspects": [{"kind": "file", "ref": "report.txt"}],
                     "acceptance": "All pass.", "answerKeyFrom": "tests", "x-bar": 0},
             "stops": [{"kind": "max-iterations", "n": 3, "then": "critic"},
                       {"kind": "budget", "measure": "dispatches", "limit": 9, "x-stop": "s"}],
             "x-loop": "l"},
        ],
        "policies": [
            {"id": "iso", "kind": "critic-isolation", "scope": "graph"},
            {"id": "p-node", "kind": "evidence-required", "scope": "node:critic"},
            {"id": "p-edge", "kind": "owner-per-artifact", "scope": "edge:e-tests-critic"},
            {"id": "p-loop", "kind": "concurrency-cap", "scope": "loop:fix"},
        ],
        "groups": [{"id": "work", "name": "Work", "members": ["builder", "tests"], "x-group": True}],
        "notes": [{"id": "n1", "run": "r1", "at": "node:critic", "text": "critic said ok"}],
        "layout": {"builder": {"x": 0, "y": 0, "w": 10}, "critic": {"x": 5, "y": 5}, "x-stale": {"x": 1, "y": 1}},
    }


def ok(doc: dict, ops: list) -> tuple[dict, list]:
    """Apply and assert success; the caller's document must be untouched (operations.md §1.2 item 3)."""
    before = copy.deepcopy(doc)
    result = apply(doc, ops)
    assert result.ok, result.error
    assert result.error is None
    assert doc == before, "apply modified its input"
    return result.doc, list(result.ids)


def refused(doc: dict, ops: list, index: int = 0):
    """Apply and assert the failure names `index`; returns the error. The input stays unchanged."""
    before = copy.deepcopy(doc)
    result = apply(doc, ops)
    assert not result.ok
    assert result.doc is None
    assert result.error is not None and result.error.index == index, result.error
    assert doc == before
    return result.error


def node(doc: dict, node_id: str) -> dict:
    return next(n for n in doc["nodes"] if n["id"] == node_id)


def edge(doc: dict, edge_id: str) -> dict:
    return next(e for e in doc["edges"] if e["id"] == edge_id)


def loop(doc: dict, loop_id: str) -> dict:
    return next(lp for lp in doc["loops"] if lp["id"] == loop_id)
