"""`W_DOC_TOO_LARGE`: the 24,000-character budget (graph.md §5, §6.6; map.md §6.10).

The size is the canonical text's length in UTF-16 code units, final newline included; a graph is
measured without its top-level `layout`, a map as it is. Exactly 24,000 passes.
"""

from __future__ import annotations

from typing import Any

from grooph_core.canonical import canonical_text
from grooph_core.issues import Issue, make
from grooph_core.text import utf16_len

LIMIT = 24_000


def document_size(value: Any, kind: str) -> int:
    """The measured size: UTF-16 length of the canonical text (a graph's without top-level `layout`)."""
    if kind != "map" and isinstance(value, dict) and "layout" in value:
        value = {k: v for k, v in value.items() if k != "layout"}
    text = canonical_text(value, kind)
    if text.isascii():
        return len(text)
    return utf16_len(text)


def doc_size_issues(value: Any, kind: str) -> list[Issue]:
    """One warning when the document is over the budget, `at` the document's id, pointer the root."""
    size = document_size(value, kind)
    if size <= LIMIT:
        return []
    doc_id = value.get("id") if isinstance(value, dict) else None
    at = (doc_id,) if isinstance(doc_id, str) else ()
    if kind == "map":
        # map.md §6.10: thousands separators, as Number.toLocaleString("en") writes them
        message = (
            f"the map is {size:,} characters in canonical form, over the {LIMIT:,} a model rewrites in one pass; "
            "draw families as one session with a count, or split the map"
        )
    else:
        # graph.md §5: the size in plain digits
        message = (
            f"the graph is {size} characters in canonical form (without its layout), over the {LIMIT:,}-character "
            "budget a model can rewrite in one pass; shorten the briefs (refer to files by path) or split the graph"
        )
    return [make("W_DOC_TOO_LARGE", message, at, ("",), size=size, limit=LIMIT)]
