"""What the code lenses say (issue 17 item 4): how many handoffs reach and leave a map's session (a loop's
brakes in words are `semantics.brake_words`, which the inlay hints say too)."""

from __future__ import annotations


def handoff_counts(handoffs: list, session_id: str) -> tuple[list[int], list[int]]:
    """The indices of the handoffs that reach (`to`) and leave (`from`) a session."""
    came = [j for j, h in enumerate(handoffs) if isinstance(h, dict) and h.get("to") == session_id]
    went = [j for j, h in enumerate(handoffs) if isinstance(h, dict) and h.get("from") == session_id]
    return came, went
