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


# The one error a repair may leave on an object it creates, as the next step its title announces:
# a cycle made a loop whose back edge leaves an agent is a judgment loop, and its bar is the person's
# (operations.md §8.4 E_CYCLE_NO_STOP and E_JUDGMENT_LOOP_NO_BAR; ops/graph_repairs.cycle_no_stop).
FOLLOW_UPS = {"E_CYCLE_NO_STOP": "E_JUDGMENT_LOOP_NO_BAR"}


def applies_cleanly(before, issue, after) -> str | None:
    """Issue 21's "offered => applies" verdict for a quick fix of `issue`, seen from the analyses of the
    text before and after its edit (operations.md §8.2 items 3 and 4): None when the issue is gone (no
    issue with its code, `at` and pointers) and no new error came (none of a code more often than
    before, none about ids the document had that was not there before; `FOLLOW_UPS` excepted), else
    what went wrong."""
    from collections import Counter

    gone = not any((i.code, tuple(i.at), tuple(i.pointers)) == (issue.code, tuple(issue.at), tuple(issue.pointers))
                   for i in after.issues)
    if not gone:
        return f"{issue.code} {list(issue.at)} is still there"
    known = set(_ids(before.value))
    errors_before = [i for i in before.issues if i.severity == "error"]
    errors_after = [i for i in after.issues if i.severity == "error"
                    and not (i.code == FOLLOW_UPS.get(issue.code) and i.at and not set(i.at) & known)]
    counted_before = Counter(i.code for i in errors_before)
    for code, n in Counter(i.code for i in errors_after).items():
        if n > counted_before.get(code, 0):
            return f"{n - counted_before.get(code, 0)} more {code}"
    placed_before = {(i.code, tuple(i.at)) for i in errors_before}
    for i in errors_after:
        if set(i.at) <= known and (i.code, tuple(i.at)) not in placed_before:
            return f"a new {i.code} {list(i.at)}: {i.message}"
    return None


def _ids(value) -> list[str]:
    """Every string `id` of the objects of a document value (any depth)."""
    found: list[str] = []
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, dict):
            if isinstance(v.get("id"), str):
                found.append(v["id"])
            stack.extend(v.values())
        elif isinstance(v, list):
            stack.extend(v)
    return found
