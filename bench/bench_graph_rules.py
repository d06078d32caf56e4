"""Benchmark of the graph rules (graph.md §3.3 rules 1-23) on every keystroke (target: a 1M-character
graph in a few tens of ms for `graph_rule_issues`).

Run: `python -m bench.bench_graph_rules` from the repository root. Prints medians over repeats for
generated graph-like documents of about 24k, 240k and 1M characters, a 1M-character chain of review
loops (every loop, bar, stop, group and policy rule has work to do), a 1M document of many tiny loops,
and the slowest rules of the review-loop document.
"""

from __future__ import annotations

import json

from bench.bench_structure import median_ms, small_objects
from bench.graph_docs import graph_doc
from grooph_core.rules.graph import RULES, build_index, graph_rule_issues


def review_chain(target_chars: int) -> dict:
    """Slices of builder -> tests -> critic, each a loop with a bar, a cap and a budget, grouped, under a
    critic-isolation policy, ending at a stop node: a clean document on which every rule walks."""
    nodes, edges, loops, groups = [], [], [], []
    doc = {"grooph": 0, "id": "big", "name": "Big", "version": 1, "goal": "Ship it.", "target": {"harness": "claude-code"},
           "nodes": nodes, "edges": edges, "loops": loops,
           "policies": [{"id": "iso", "kind": "critic-isolation", "scope": "graph"}], "groups": groups}
    prev, r = None, 0
    while r % 20 or len(json.dumps(doc, indent=2)) < target_chars:
        b, t, c = f"build-{r}", f"test-{r}", f"review-{r}"
        nodes += [
            {"id": b, "kind": "agent", "name": f"Build {r}", "role": "builder", "model": {"tier": "strong"},
             "brief": "Implement the next slice of the feature described in spec.md; keep the diff small.",
             "outputs": [f"slice-{r}.diff"], "allow": ["read-files", "edit-files"], "owns": [f"src/part{r}"]},
            {"id": t, "kind": "check", "name": f"Tests {r}", "check": {"kind": "tests", "run": "make test", "pass": "exit 0"}},
            {"id": c, "kind": "agent", "name": f"Review {r}", "role": "critic", "model": {"tier": "frontier"},
             "brief": "Review the diff against spec.md.", "outputs": [f"review-{r}.md"], "allow": ["write-outputs"]},
        ]
        if prev:
            edges.append({"id": f"next-{r}", "from": prev, "to": b, "when": "pass"})
        edges += [{"id": f"to-test-{r}", "from": b, "to": t},
                  {"id": f"to-review-{r}", "from": t, "to": c, "when": "pass", "evidence": [f"slice-{r}.diff"]},
                  {"id": f"retry-{r}", "from": t, "to": b, "when": "fail"},
                  {"id": f"redo-{r}", "from": c, "to": b, "when": "fail"}]
        loops.append({"id": f"loop-{r}", "name": f"Slice {r}", "members": [b, t, c], "back": [f"retry-{r}", f"redo-{r}"],
                      "bar": {"name": "Spec met", "inspects": [{"kind": "file", "ref": "spec.md"}], "acceptance": "All pass."},
                      "stops": [{"kind": "bar-passed"}, {"kind": "max-iterations", "n": 4},
                                {"kind": "budget", "measure": "dispatches", "limit": 12}]})
        groups.append({"id": f"slice-{r}", "name": f"Slice {r}", "members": [b, t, c]})
        prev, r = c, r + 1
    nodes.append({"id": "done", "kind": "stop", "name": "Done"})
    edges.append({"id": "finish", "from": prev, "to": "done", "when": "pass"})
    return doc


def main() -> None:
    docs = [(f"graph_doc {n:,}", json.loads(graph_doc(n))) for n in (24_000, 240_000, 1_000_000)]
    docs += [("review chain 1M", review_chain(1_000_000)), ("tiny loops 1M", small_objects(1_000_000))]
    for label, doc in docs:
        chars = len(json.dumps(doc, indent=2, ensure_ascii=False))
        plain = median_ms(lambda: graph_rule_issues(doc), 7)
        export = median_ms(lambda: graph_rule_issues(doc, export=True), 7)
        n = len(graph_rule_issues(doc))
        print(f"{label:<20} {chars:>9,} chars  plain {plain:7.2f} ms  export {export:7.2f} ms  ({n} issues)")
    doc = docs[3][1]
    index = build_index(doc)
    timed = sorted(((median_ms(lambda r=r: r.run(doc, index), 5), r.run.__name__) for r in RULES), reverse=True)
    print("slowest rules on the review chain:", ", ".join(f"{name} {ms:.2f} ms" for ms, name in timed[:5]))


if __name__ == "__main__":
    main()
