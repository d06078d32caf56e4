"""The board workflow kind (workflow.md): YAML, names (statuses, roles, run specifications), the "add
status" repair, a picture (issue 15 point 6), never formatted (its comments and layout are the user's)."""

from __future__ import annotations

from grooph_core.ide.kinds.neighbour import NeighbourFace
from grooph_core.ide.refused import Refused

# Why a workflow is never formatted (issue 15 point 5), by the editor or by `grooph fmt`.
NOT_FORMATTED_BECAUSE = ("YAML has no canonical form here, and rewriting the file would move its comments, quoting "
                         "and layout, which are yours")
WORKFLOW_NOT_FORMATTED = f"Workflows are not formatted: {NOT_FORMATTED_BECAUSE}. Nothing was changed."


class WorkflowKind(NeighbourFace):
    commands = frozenset({"validate", "image"})  # issue 15 point 6: a workflow has a picture
    adds_missing_statuses = True
    names_kanban_statuses = True

    def format(self, analysis):
        """Never (`NOT_FORMATTED_BECAUSE`)."""
        return Refused(WORKFLOW_NOT_FORMATTED, standing=True)

    def refusal_reason(self, command):
        return f" Workflows are not formatted: {NOT_FORMATTED_BECAUSE}." if command == "fmt" else ""

    def picture(self, analysis, *, view=None, theme="light"):
        from grooph_core.ide.actions import workflow_preview

        return workflow_preview(analysis, view, theme)

    def picture_target(self, analysis, mark, ident):
        from grooph_core.ide import neighbour_names

        return neighbour_names.marked_definition(analysis, mark, ident)


WORKFLOW = WorkflowKind("workflow")
