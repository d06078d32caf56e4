"""Small documents the end-to-end tests edit (built from graph.md §7's reusable pieces)."""

from __future__ import annotations

W = {"id": "w", "kind": "agent", "name": "W", "role": "builder", "brief": "Do it.", "outputs": ["out.txt"], "allow": ["edit-files"]}
END = {"id": "end", "kind": "stop", "name": "End"}
HEAD = {"grooph": 0, "id": "g", "name": "G", "version": 1}


def graph(nodes=None, edges=None, loops=None, **extra) -> dict:
    doc = dict(HEAD)
    doc.update(extra)
    doc["nodes"] = nodes if nodes is not None else [W, END]
    doc["edges"] = edges if edges is not None else [{"id": "e1", "from": "w", "to": "end"}]
    doc["loops"] = loops if loops is not None else []
    return doc


CLEAN = graph()
DANGLING = graph(edges=[{"id": "e1", "from": "w", "to": "end"}, {"id": "e2", "from": "w", "to": "ghost"}])

STUDIO_MAP = {
    "groophMap": 0, "id": "studio", "name": "Studio", "version": 1,
    "lanes": [{"id": "laptop", "name": "Laptop", "machine": "a laptop", "account": "maya"}],
    "people": [{"id": "maya", "name": "Maya"}],
    "sessions": [
        {"id": "planner", "name": "Planner", "lane": "laptop", "harness": "claude-code", "role": "plans the work"},
        {"id": "coder", "name": "Coder", "lane": "laptop", "harness": "claude-code", "role": "writes the code"},
    ],
    "handoffs": [
        {"id": "h-plan", "from": "planner", "to": "coder", "carrier": {"kind": "session-message"}},
        {"id": "h-back", "from": "coder", "to": "planner"},
    ],
}
