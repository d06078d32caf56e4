"""The operation language (operations.md §1–§7) and the repairs (§8).

`apply(doc, ops)` changes a graph document all or nothing; `new_graph` / `new_map` make starting
documents; `repairs` turns issues into concrete operation lists (or document edits).
"""

from grooph_core.ops.apply import ApplyResult, OpError, apply
from grooph_core.ops.new import new_graph, new_map
from grooph_core.ops.table import OP_NAMES

__all__ = ["ApplyResult", "OpError", "apply", "new_graph", "new_map", "OP_NAMES"]
