"""The starting documents: `new_graph` (operations.md §6) and `new_map` (our addition for maps).

operations.md has no `new` for maps (maps have no op language, §0). `new_map` gives the smallest map
that passes map validation with no issue (map.md §2.2): the six required fields, empty lanes,
sessions and handoffs, version 1 as a new graph has.
"""

from __future__ import annotations

from grooph_core.ops.ids import slug


def new_graph(name: str, goal: str | None = None, target: str | None = None, id: str | None = None) -> dict:
    """§6: `grooph: 0`, id (given, else slug(name, "graph")), name, version 1, goal and target when
    given, empty nodes, edges and loops; keys in canonical order. Nothing is trimmed or checked."""
    doc: dict = {"grooph": 0, "id": id if id is not None else slug(name, "graph"), "name": name, "version": 1}
    if goal is not None:
        doc["goal"] = goal
    if target is not None:
        doc["target"] = {"harness": target}
    doc.update({"nodes": [], "edges": [], "loops": []})
    return doc


def new_map(name: str, id: str | None = None) -> dict:
    """The smallest valid, issue-free map: id (given, else slug(name, "map")), name, version 1, empty lists."""
    return {"groophMap": 0, "id": id if id is not None else slug(name, "map"), "name": name, "version": 1,
            "lanes": [], "sessions": [], "handoffs": []}
