"""`Refused`: the one "cannot, and why" result of an editor request (rename, formatting, an action),
whose message the user sees (the server turns it into a refusal)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Refused:
    """A request that cannot be honoured, with the message the user sees."""

    message: str
