"""Completion in a neighbouring document (issue 15 point 5), as far as it goes today: a board (JSON,
described by the board model) gets the graph completion's keys the object declares and lacks and the
field's words (`lane`, `verdict`, …). Workflow (YAML) and the episode record are not completed yet:
the text scanner is JSON's and the episode record is described by its schema, not the model."""

from __future__ import annotations

from grooph_core.completion import Completion, complete_at

COMPLETED_KINDS = frozenset({"board"})


def neighbour_complete_at(analysis, offset: int) -> list[Completion]:
    """Completions at `offset` of a neighbouring analysis ([] for a kind not completed yet)."""
    if analysis.kind not in COMPLETED_KINDS or analysis.value is None:
        return []
    return complete_at(analysis, offset)
