"""`Refused`: the one "cannot, and why" result of an editor request (rename, formatting, an action),
whose message the user sees (the server turns it into a refusal); `unreadable`, the formatters' one refusal
of a JSON text that does not read (ide/grooph/formatting.py, ide/neighbours/format.py)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Refused:
    """A request that cannot be honoured, with the message the user sees. `standing`: the answer holds for
    the document whatever its text (a workflow is never formatted), so an editor says it once, not at
    every format on save."""

    message: str
    standing: bool = False


def unreadable(analysis) -> Refused | None:
    """Why a JSON text is not formatted as it reads: not valid JSON (where and why), or a key written
    twice (one value would vanish); None when it reads."""
    parsed = analysis.parsed
    if not parsed.ok or parsed.value is None:
        first = next((p for p in parsed.problems if p.code in ("E_SYNTAX", "E_DOC_LIMIT")), None)
        where = ""
        if first is not None and first.span:
            line, col = analysis.line_index.position(first.span[0])
            where = f" (line {line + 1}, column {col + 1}: {first.message})"
        return Refused(f"Not formatted: the text is not valid JSON{where}. Nothing was changed.")
    for p in parsed.problems:
        if p.code == "W_DUPLICATE_KEY":
            return Refused(f"Not formatted: {p.message}. Formatting would drop one of the two values; remove one copy first.")
    return None
