"""Layout (operations.md §5.7): setPositions, and the position writing addNode shares with it."""

from __future__ import annotations

import math

from grooph_core.ops.readers import arg, read_node, read_object, read_position
from grooph_core.source.text import js_key_order


def round_half_up(v: int | float) -> int:
    """§5.7: r = floor(v); r + 1 when v − r ≥ 0.5 (halves toward +∞; not Python's round)."""
    if isinstance(v, int):
        return v
    r = math.floor(v)
    return r + 1 if v - r >= 0.5 else r


def write_position(layout: dict, node_id: str, x: int | float, y: int | float) -> None:
    """`layout[node_id]` keeps what it had (w, h, unknown keys) and gets rounded `x` and `y`."""
    box = layout.get(node_id)
    if not isinstance(box, dict):
        box = {}
        layout[node_id] = box
    box["x"] = round_half_up(x)
    box["y"] = round_half_up(y)


def set_positions(doc: dict, op: dict) -> None:
    """Write each position into `layout` (created when absent); the first bad entry refuses the op."""
    positions = read_object(arg(op, "positions"), "positions")
    entries = []
    for key in js_key_order(positions.keys()):
        node_id = read_node(key, "positions key", doc)
        x, y = read_position(positions[key], f"positions.{key}")
        entries.append((node_id, x, y))
    layout = doc.get("layout")
    if not isinstance(layout, dict):
        layout = {}
        doc["layout"] = layout
    for node_id, x, y in entries:
        write_position(layout, node_id, x, y)
    return None
