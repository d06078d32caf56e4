"""`apply(document, ops)` (operations.md §1): ops in order on a copy, all or nothing.

The caller's document is never modified. The first op that cannot be applied stops the list and the
result is the failure triple alone; no partial document is returned.
"""

from __future__ import annotations

from dataclasses import dataclass

from grooph_core.ops.errors import OpRefused, quoted_list, render, suggest
from grooph_core.ops.table import BY_NAME, OP_NAMES, OpSpec
from grooph_core.source.json_copy import copy_json
from grooph_core.source.text import js_key_order


@dataclass(frozen=True)
class OpError:
    """The failure triple of §1.1: the 0-based index, the op name as sent (or "?"), the reason."""

    index: int
    op: str
    message: str

    def line(self) -> str:
        """§1.1 text form: `ops[<index>] <op>: <message>`."""
        return f"ops[{self.index}] {self.op}: {self.message}"

    def to_json(self) -> dict:
        return {"index": self.index, "op": self.op, "message": self.message}


@dataclass(frozen=True)
class ApplyResult:
    """Success: `ok`, the new `doc` and the `ids` reply (§1.3). Failure: `ok` False and `error`."""

    ok: bool
    doc: dict | None
    ids: tuple[str | None, ...] = ()
    error: OpError | None = None


def _op_name(entry: object) -> str:
    if isinstance(entry, dict) and isinstance(entry.get("op"), str):
        return entry["op"]
    return "?"


def resolve_op(entry: object) -> OpSpec:
    """§2.1 steps 1–4: the entry is an object, names one of the 26 ops, and has only its arguments."""
    if not isinstance(entry, dict):
        raise OpRefused('each op must be a JSON object such as {"op": "addNode", ...}, got ' + render(entry))
    name = entry.get("op")
    if not isinstance(name, str):
        raise OpRefused('the "op" key is missing; it names the operation, one of: ' + ", ".join(OP_NAMES))
    spec = BY_NAME.get(name)
    if spec is None:
        raise OpRefused(f'no op named "{name}"' + suggest(name, OP_NAMES))
    for key in js_key_order(entry.keys()):
        if key != "op" and key not in spec.args:
            raise OpRefused(f'"{key}" is not an argument of {name}' + suggest(key, spec.args)
                            + f"; {name} takes {quoted_list(spec.args)}")
    return spec


def apply(doc: dict, ops: list) -> ApplyResult:
    """Apply the ops in order to a copy of `doc`; the result or the first failure (§1.2)."""
    if not isinstance(ops, list):
        return ApplyResult(False, None, (), OpError(-1, "", "the ops must be a JSON list"))
    if not isinstance(doc, dict):
        if not ops:
            return ApplyResult(True, copy_json(doc), ())
        return ApplyResult(False, None, (), OpError(0, _op_name(ops[0]), "the document is not a JSON object"))
    work = copy_json(doc)
    ids: list[str | None] = []
    for index, entry in enumerate(ops):
        try:
            spec = resolve_op(entry)
            ids.append(spec.run(work, entry))
        except OpRefused as refused:
            return ApplyResult(False, None, (), OpError(index, _op_name(entry), refused.message))
    return ApplyResult(True, work, tuple(ids))
