"""How an op reports a refusal (operations.md §0, §1.1): the failure exception, `render` and `suggest`.

An op that cannot be applied raises `OpRefused(message)`; `apply` turns it into the failure triple
`{index, op, message}`. Messages carry the spec's facts (argument name, offending value, suggestion).
"""

from __future__ import annotations

from grooph_core.source.text import compact_json, did_you_mean

ABSENT = object()  # an argument that is not in the op object (render: "nothing")


class OpRefused(Exception):
    """The op at hand cannot be applied; `message` is the one-line reason (operations.md §2)."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


def render(v: object) -> str:
    """operations.md §0 render(v): `nothing` when absent, `a list` for an array, else compact JSON."""
    if v is ABSENT:
        return "nothing"
    if isinstance(v, list):
        return "a list"
    return compact_json(v)


def suggest(word: object, candidates) -> str:
    """The `; did you mean "C"?` suffix (graph.md §5.1 search), or "" when nothing is close."""
    if not isinstance(word, str):
        return ""
    found = did_you_mean(word, [c for c in candidates if isinstance(c, str)])
    return f'; did you mean "{found}"?' if found is not None else ""


def quoted_list(names) -> str:
    """Names in double quotes joined by ", " (operations.md §2.1 item 4)."""
    return ", ".join(f'"{n}"' for n in names)
