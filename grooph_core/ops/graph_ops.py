"""Ops on the graph itself (operations.md §5.1): setGraphName, setGraphField, setTarget, setConstraint.

Each op takes the evolving document (mutated in place; `apply` works on a copy) and the op object,
and returns its entry of the ids reply (§1.3).
"""

from __future__ import annotations

import copy

from grooph_core.ops.errors import ABSENT
from grooph_core.ops.ids import follows_name, id_set, slug, unique
from grooph_core.ops.readers import arg, read_object, read_one_of, read_removable_string, read_string

GRAPH_FIELDS = ("name", "goal", "description", "adaptation", "lineage")
ADAPTATIONS = ("adaptive", "propose", "fixed")
CONSTRAINT_KEYS = ("budget", "time", "other")


def set_graph_name(doc: dict, op: dict) -> str | None:
    """Set `name`; an id that follows the old name is re-derived from the new one (§3.5)."""
    name = read_string(arg(op, "name"), "name")
    old_name = doc.get("name")
    old_id = doc.get("id")
    doc["name"] = name
    if follows_name(old_id, old_name):
        taken = set(id_set(doc)) - {old_id}
        doc["id"] = unique(slug(name, "graph"), taken)
    return doc.get("id") if isinstance(doc.get("id"), str) else None


def set_graph_field(doc: dict, op: dict) -> None:
    """Set or remove one of the graph fields; `name` set here leaves the id alone."""
    key = read_one_of(arg(op, "key"), "key", GRAPH_FIELDS)
    value = arg(op, "value")
    if value is ABSENT or value is None:
        doc.pop(key, None)
        return None
    if key == "adaptation":
        doc[key] = read_one_of(value, "value", ADAPTATIONS)
    elif key == "lineage":
        doc[key] = copy.deepcopy(read_object(value, "value"))
    else:
        doc[key] = read_string(value, "value")
    return None


def set_target(doc: dict, op: dict) -> None:
    """Set `target.harness` (other keys of `target` kept), or remove the whole `target`."""
    harness = read_removable_string(arg(op, "harness"), "harness")
    if harness is None:
        doc.pop("target", None)
        return None
    target = doc.get("target")
    if not isinstance(target, dict):
        target = {}
        doc["target"] = target
    target["harness"] = harness
    return None


def set_constraint(doc: dict, op: dict) -> None:
    """Set or remove one key of `constraints`; an emptied `constraints` is removed."""
    key = read_one_of(arg(op, "key"), "key", CONSTRAINT_KEYS)
    value = read_removable_string(arg(op, "value"), "value")
    constraints = doc.get("constraints")
    if not isinstance(constraints, dict):
        constraints = {}
    if value is None:
        constraints.pop(key, None)
    else:
        constraints[key] = value
    if constraints:
        doc["constraints"] = constraints
    else:
        doc.pop("constraints", None)
    return None
