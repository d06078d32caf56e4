"""Ops on policies (operations.md §5.6): addPolicy, removePolicy."""

from __future__ import annotations

import copy
import re

from grooph_core.ops.errors import OpRefused, render
from grooph_core.ops.ids import id_set, items, policy_kind_name, slug, unique
from grooph_core.ops.readers import ABSENT, arg, read_object, read_optional_new_id, read_policy, read_string

SCOPE_PATTERN = re.compile(r"graph|loop:[a-z][a-z0-9-]*|node:[a-z][a-z0-9-]*|edge:[a-z][a-z0-9-]*")


def read_policy_kind(v: object) -> object:
    """A non-empty string, or an object with a string `custom` (only `custom` is kept)."""
    if isinstance(v, str) and v != "":
        return v
    if isinstance(v, dict) and isinstance(v.get("custom"), str):
        return {"custom": v["custom"]}
    raise OpRefused(f'"kind" must be a policy kind such as critic-isolation, or {{"custom": "..."}}, got {render(v)}')


def add_policy(doc: dict, op: dict) -> str:
    """Append `{id, kind, scope}` plus `params`; the scope's target is not checked."""
    kind = read_policy_kind(arg(op, "kind"))
    scope = read_string(arg(op, "scope"), "scope")
    if SCOPE_PATTERN.fullmatch(scope) is None:
        raise OpRefused(f'"scope" must be graph, loop:<id>, node:<id> or edge:<id>, got {render(scope)}')
    params = arg(op, "params")
    params = read_object(params, "params") if params is not ABSENT else None
    policy_id = read_optional_new_id(arg(op, "id"), "id", doc)
    if policy_id is None:
        policy_id = unique("p-" + slug(policy_kind_name(kind), "policy"), id_set(doc))
    policy: dict = {"id": policy_id, "kind": kind, "scope": scope}
    if params is not None:
        policy["params"] = copy.deepcopy(params)
    if not isinstance(doc.get("policies"), list):
        doc["policies"] = []
    doc["policies"].append(policy)
    return policy_id


def remove_policy(doc: dict, op: dict) -> None:
    """Remove the policy; an emptied `policies` key is removed (unlike the removal cascades)."""
    policy_id = read_policy(arg(op, "id"), "id", doc)
    left = [p for p in items(doc, "policies") if not (isinstance(p, dict) and p.get("id") == policy_id)]
    if left:
        doc["policies"] = left
    else:
        doc.pop("policies", None)
    return None
