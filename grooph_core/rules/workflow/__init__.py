"""The rules of a board's workflow (spec/workflow.md §3), in their order.

`structure_issues` is `E_WF_SCHEMA` (§2, the structural check; strict mode stops when it finds any).
`RULES` is the one registration list: the visits of `Workflow::check()` in its own order (§3.1), then
the warnings in the order of §3.2's table, each in document order.
"""

from __future__ import annotations

from grooph_core.issues import Issue, whole_shape_codes
from grooph_core.model.compiled import root_type
from grooph_core.rules import serde_shape
from grooph_core.rules.registration import Rule
from grooph_core.rules.workflow import check, warnings
from grooph_core.rules.workflow.semantics import WorkflowDoc, read_workflow

SCHEMA_CODE = "E_WF_SCHEMA"


def structure_issues(value: object) -> list[Issue]:
    """E_WF_SCHEMA: what serde refuses when reading the YAML value into the model (§0, §2)."""
    return serde_shape.shape_issues(value, root_type("workflow"), SCHEMA_CODE)


def reading(parsed, reuse: serde_shape.SerdeReading | None = None) -> serde_shape.SerdeReading:
    """The engine's reading of the text (workflow.md §0 "The engine's reader decides"): E_WF_SCHEMA issues and
    the value as the engine holds it, which the rules read."""
    return serde_shape.serde_read(parsed.value, root_type("workflow"), SCHEMA_CODE, parsed, reuse)


read = read_workflow

# Findings about the whole document (the registry's `Code.whole_shape`): while part of a broken text is
# left out, they would be echoes of the omission, so the editor does not say them.
WHOLE_SHAPE_CODES = whole_shape_codes("workflow")

RULES: tuple[Rule, ...] = (
    Rule(check.check_issues, check.CHECK_CODES, by_position=False),  # in check()'s own order
    Rule(warnings.unknown_keys, ("W_UNKNOWN_KEY",)),
    Rule(warnings.resume_as_unknown, ("W_WF_RESUME_AS_UNKNOWN",)),
    Rule(warnings.unreachable_statuses, ("W_WF_UNREACHABLE_STATUS",)),
    Rule(warnings.unknown_params, ("W_WF_UNKNOWN_PARAM",)),
    Rule(warnings.unknown_recurring_role, ("W_WF_UNKNOWN_RECURRING_ROLE",)),
    Rule(warnings.unknown_by_roles, ("W_WF_UNKNOWN_BY_ROLE",)),
    Rule(warnings.start_unhandled, ("W_WF_START_UNHANDLED",)),
    Rule(warnings.stored_as_unknown, ("W_WF_STORED_AS_UNKNOWN",)),
)

__all__ = ["RULES", "WHOLE_SHAPE_CODES", "SCHEMA_CODE", "reading", "WorkflowDoc", "read", "structure_issues"]
