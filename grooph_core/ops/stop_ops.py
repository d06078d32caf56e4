"""Ops on a loop's stops (operations.md §5.5): addStop, setStop, removeStop, moveStop.

On a duplicated loop id the index is checked against the first loop; loops where it is out of range
are left unchanged (Clarifications).
"""

from __future__ import annotations

import copy

from grooph_core.ops.errors import OpRefused, render
from grooph_core.ops.patches import merge_dropping_nulls
from grooph_core.ops.readers import (all_with_id, arg, read_loop, read_object, read_one_of,
                                     read_optional_patch, read_stop_index)
from grooph_core.source.text import is_number

from grooph_core.model.graph import STOP_KINDS
# §5.5 / §9 item 1: the bounded defaults of a new stop (a budget is 12 dispatches).
STOP_DEFAULTS: dict[str, dict] = {
    "human": {},
    "budget": {"measure": "dispatches", "limit": 12},
    "bar-passed": {},
    "diminishing-returns": {"rounds": 2},
    "evidence-invalid": {"rounds": 2},
    "max-iterations": {"n": 4},
}


def _stops(loop: dict) -> list:
    if not isinstance(loop.get("stops"), list):
        loop["stops"] = []
    return loop["stops"]


def add_stop(doc: dict, op: dict) -> None:
    """Append `kind`, its defaults, then the non-null keys of `set` (nulls are dropped)."""
    loop_id = read_loop(arg(op, "loop"), "loop", doc)
    kind = read_one_of(arg(op, "kind"), "kind", STOP_KINDS)
    patch = read_optional_patch(arg(op, "set"), "set", ("kind",))
    for loop in all_with_id(doc, "loops", loop_id):
        stop = {"kind": kind, **STOP_DEFAULTS[kind]}
        if patch is not None:
            merge_dropping_nulls(stop, patch)
        _stops(loop).append(stop)
    return None


def set_stop(doc: dict, op: dict) -> None:
    """Replace the stop at the index with the object given, whole (no defaults merged in)."""
    loop_id = read_loop(arg(op, "loop"), "loop", doc)
    index = read_stop_index(arg(op, "index"), "index", doc, loop_id)
    stop = read_object(arg(op, "stop"), "stop")
    kind = arg(stop, "kind")
    if not (isinstance(kind, str) and kind in STOP_KINDS):
        raise OpRefused(f'"stop.kind" must be one of {" | ".join(STOP_KINDS)}, got {render(kind)}')
    for loop in all_with_id(doc, "loops", loop_id):
        stops = _stops(loop)
        if index < len(stops):
            stops[index] = copy.deepcopy(stop)
    return None


def remove_stop(doc: dict, op: dict) -> None:
    loop_id = read_loop(arg(op, "loop"), "loop", doc)
    index = read_stop_index(arg(op, "index"), "index", doc, loop_id)
    for loop in all_with_id(doc, "loops", loop_id):
        stops = _stops(loop)
        if index < len(stops):
            del stops[index]
    return None


def move_stop(doc: dict, op: dict) -> None:
    """Swap with the neighbour before (−1) or after (1); past either end nothing changes."""
    loop_id = read_loop(arg(op, "loop"), "loop", doc)
    index = read_stop_index(arg(op, "index"), "index", doc, loop_id)
    delta = arg(op, "delta")
    if not (is_number(delta) and delta in (-1, 1)):
        raise OpRefused(f'"delta" must be -1 (earlier) or 1 (later), got {render(delta)}')
    other = index + int(delta)
    for loop in all_with_id(doc, "loops", loop_id):
        stops = _stops(loop)
        if 0 <= other < len(stops) and index < len(stops):
            stops[index], stops[other] = stops[other], stops[index]
    return None
