"""The rules of a task board (spec/board.md §3), in their order.

`structure_issues` is `E_BOARD_SCHEMA` (§2; strict mode stops when it finds any). `RULES` is the one
registration list: the errors, then the warnings, in the order of §3's table, each code in document order.
"""

from __future__ import annotations

from grooph_core.issues import Issue, whole_shape_codes
from grooph_core.model.compiled import root_type
from grooph_core.rules import serde_keys, serde_shape
from grooph_core.rules.board import lanes, tasks, times
from grooph_core.rules.board.semantics import BoardDoc, read_board
from grooph_core.rules.registration import Rule

SCHEMA_CODE = "E_BOARD_SCHEMA"


def structure_issues(value: object) -> list[Issue]:
    """E_BOARD_SCHEMA: what serde refuses when reading the JSON value into the model (§1–2)."""
    return serde_shape.shape_issues(value, root_type("board"), SCHEMA_CODE)


def reading(parsed, reuse: serde_shape.SerdeReading | None = None) -> serde_shape.SerdeReading:
    """The engine's reading of the text (workflow.md §0 "The engine's reader decides"): E_BOARD_SCHEMA issues and
    the value as the engine holds it, which the rules read."""
    return serde_shape.serde_read(parsed.value, root_type("board"), SCHEMA_CODE, parsed, reuse)


def unknown_keys(doc: BoardDoc) -> list[Issue]:
    """W_UNKNOWN_KEY: keys serde ignores (`residue` and `handoff.metadata` hold anything)."""
    return serde_keys.unknown_key_issues(doc.value, root_type("board"))


read = read_board

# Findings about the whole document (the registry's `Code.whole_shape`): while part of a broken text is
# left out, they would be echoes of the omission, so the editor does not say them.
WHOLE_SHAPE_CODES = whole_shape_codes("board")

RULES: tuple[Rule, ...] = (
    Rule(tasks.task_id_mismatch, ("E_BOARD_TASK_ID",)),
    Rule(tasks.dangling_dependencies, ("E_BOARD_DANGLING_DEPENDENCY",)),
    Rule(tasks.dependency_cycles, ("E_BOARD_DEPENDENCY_CYCLE",)),
    Rule(tasks.dangling_subtask_of, ("E_BOARD_DANGLING_SUBTASK_OF",)),
    Rule(tasks.duplicate_attempts, ("E_BOARD_DUPLICATE_ATTEMPT",)),
    Rule(lanes.unknown_lanes, ("W_BOARD_UNKNOWN_LANE",)),
    Rule(lanes.unknown_workspace_kinds, ("W_BOARD_UNKNOWN_WORKSPACE_KIND",)),
    Rule(times.timestamp_issues, ("W_BOARD_TIMESTAMP",)),
    Rule(lanes.ready_too_soon, ("W_BOARD_READY_TOO_SOON",)),
    Rule(lanes.done_undated, ("W_BOARD_DONE_UNDATED",)),
    Rule(unknown_keys, ("W_UNKNOWN_KEY",)),
)

__all__ = ["RULES", "WHOLE_SHAPE_CODES", "SCHEMA_CODE", "reading", "BoardDoc", "read", "structure_issues"]
