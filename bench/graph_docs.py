"""Generated graph-like documents of a chosen size, for benchmarks of the parser (bench/).

Realistic shape: nodes with briefs, outputs, allow lists and models; edges with evidence; loops;
a layout with numbers; some non-ASCII text. Pretty-printed as an editor user would have it.
"""

from __future__ import annotations

import json


def graph_doc(target_chars: int, *, indent: int | None = 2) -> str:
    """A valid graph document of about `target_chars` characters."""
    n = 1
    while True:
        text = _render(n, indent)
        if len(text) >= target_chars:
            return text
        n = max(n + 1, int(n * target_chars / len(text)) if len(text) else n * 2)


def _render(n: int, indent: int | None) -> str:
    nodes, edges, layout = [], [], {}
    for i in range(n):
        nodes.append({
            "id": f"step-{i}", "kind": "agent", "name": f"Step {i} — résumé 设计 ✓",
            "role": "critic" if i % 5 == 4 else "builder",
            "model": {"tier": ["frontier", "strong", "fast"][i % 3]},
            "brief": f"Do part {i} of the work carefully; keep the tests green and write notes. 🚀",
            "inputs": [f"in-{i}.md"], "outputs": [f"out-{i}.md", f"log-{i}.txt"],
            "allow": ["read-files", "edit-files", "write-outputs"],
        })
        if i:
            edges.append({"id": f"e{i}", "from": f"step-{i - 1}", "to": f"step-{i}",
                          "when": "pass" if i % 3 else "always", "evidence": [f"out-{i - 1}.md"]})
        layout[f"step-{i}"] = {"x": i * 120.5, "y": (i % 7) * 80, "w": 100, "h": 40}
    nodes.append({"id": "end", "kind": "stop", "name": "End"})
    edges.append({"id": "e-end", "from": f"step-{n - 1}", "to": "end"})
    doc = {"grooph": 0, "id": "bench", "name": "Bench", "version": 1, "goal": "Measure the parser.",
           "nodes": nodes, "edges": edges,
           "loops": [{"id": "l", "name": "L", "members": ["step-0", "step-1"], "back": [],
                      "stops": [{"kind": "max-iterations", "n": 3}]}],
           "layout": layout}
    return json.dumps(doc, indent=indent, ensure_ascii=False)
