"""One registered rule of a neighbouring format (workflow.md, board.md, episodes.md): a plain function
`document -> issues`, and whether the pipeline orders its issues by their position in the text (the
spec's "all of one code, in document order") or keeps the rule's own order (`Workflow::check()`'s)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Iterable

from grooph_core.issues import Issue


@dataclass(frozen=True)
class Rule:
    run: Callable[[Any], Iterable[Issue]]
    by_position: bool = True
