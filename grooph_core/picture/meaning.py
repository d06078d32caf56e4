"""What the pictures read from a document's meaning, taken from the shared semantics modules.

Map words (end names, carried-by text, "wakes itself", the shape line) come from
`grooph_core.rules.map` (map.md §3, §7, §8); graph facts (person steps, loop mode, back edges, worst-case
rounds, budgets) from `grooph_core.semantics.graph_index` and `grooph_core.semantics.graph_shape`. Only what those
do not provide is written here, each in one small named function:

- `graph_picture_shape_line`: the graph's shape line as the picture writes it, which counts people's
  steps (pictures.md §7.3, §13.4); `grooph shape` prints the plainer line of cli.md §3.2.
- `is_plan`: pictures.md §7.6, which decides a stop's action words.
- `name_or_id`: the display name of a lane, session, person, node or loop.
"""

from __future__ import annotations

from grooph_core.semantics.graph_index import KNOWN_HARNESSES, build_index, is_person_step, loop_mode
from grooph_core.semantics.graph_shape import graph_shape
from grooph_core.semantics.map_index import (
    MapIndex, carrier_kind, end_name, handoff_carried_by, is_family, map_index, session_count, wakes_itself,
)
from grooph_core.semantics.map_shape import map_shape, shape_line
from grooph_core.source.text import js_number

__all__ = [
    "MapIndex", "carrier_kind", "end_name", "handoff_carried_by", "is_family", "map_index", "session_count",
    "wakes_itself", "map_shape_line", "build_index", "loop_mode", "is_person_step", "graph_picture_shape_line",
    "is_plan", "name_or_id",
]


def name_or_id(obj: dict) -> str:
    """The object's `name`, or its id when the name is empty (map.md §2.3–§2.5, pictures.md §1.3)."""
    name = obj.get("name")
    return name if isinstance(name, str) and name != "" else str(obj.get("id", ""))


def map_shape_line(doc: dict, index: MapIndex | None = None) -> str:
    """map.md §8.2, for the picture's caption."""
    return shape_line(map_shape(doc, index))


def _count(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def graph_picture_shape_line(doc: dict) -> str:
    """pictures.md §7.3 (and §13.4): step counts that name people's steps, then checks, gates, loops,
    rounds and budgets as `grooph shape` counts them (cli.md §3.2)."""
    nodes = [n for n in (doc.get("nodes") or []) if isinstance(n, dict)] if isinstance(doc.get("nodes"), list) else []
    persons = sum(1 for n in nodes if is_person_step(n))
    agents = sum(1 for n in nodes if n.get("kind") == "agent" and not is_person_step(n))
    shape = graph_shape(doc)
    parts = []
    if persons == 0:
        parts.append(_count(agents, "agent", "agents"))
    else:
        parts.append(_count(persons, "person's step", "people's steps"))
        if agents > 0:
            parts.append(_count(agents, "agent's step", "agents' steps"))
    if shape["checks"]:
        parts.append(_count(shape["checks"], "check", "checks"))
    if shape["gates"]:
        parts.append(_count(shape["gates"], "gate", "gates"))
    if shape["loops"] == 0:
        parts.append("no loop")
    else:
        parts.append(_count(shape["loops"], "loop", "loops"))
        rounds = shape["worstCaseRounds"]
        parts.append("no round cap" if rounds is None
                     else f"up to {js_number(rounds)} " + ("round" if rounds == 1 else "rounds"))
    parts.extend(shape["budgets"])
    return " \u00b7 ".join(parts)


def is_plan(doc: dict) -> bool:
    """pictures.md §7.6: a plan has a person's step, or is not a template and names no harness grooph
    compiles for (graph.md §5 E_NO_TARGET's known harnesses)."""
    nodes = doc.get("nodes") if isinstance(doc.get("nodes"), list) else []
    if any(is_person_step(n) for n in nodes):
        return True
    target = doc.get("target")
    harness = target.get("harness") if isinstance(target, dict) else None
    return "template" not in doc and harness not in KNOWN_HARNESSES
