"""`W_DOC_TOO_LARGE`: the 24,000-character budget (graph.md §5, §6.6; map.md §6.10).

The size is the canonical text's length in UTF-16 code units, final newline included; a graph is
measured without its top-level `layout`, a map as it is. Exactly 24,000 passes.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from grooph_core.issues import Facts, Issue, make
from grooph_core.schema.canonical import number_text as canonical_number
from grooph_core.schema.canonical import canonical_text
from grooph_core.source.text import js_number, utf16_len

LIMIT = 24_000
# graph.md §6.6: a graph is measured without its top-level `layout`; map.md §6.10: a map as it is.
_LEFT_OUT_OF_SIZE = {"graph": "layout", "map": None}


def document_size(value: Any, kind: str) -> int:
    """The measured size: UTF-16 length of the canonical text (a graph's without top-level `layout`)."""
    left_out = _LEFT_OUT_OF_SIZE.get(kind, "layout")  # any other JSON is read as a graph (map.md §1)
    if left_out is not None and isinstance(value, dict) and left_out in value:
        value = {k: v for k, v in value.items() if k != left_out}
    size = canonical_size(value)
    if size is not None:
        return size
    text = canonical_text(value, kind)
    if text.isascii():
        return len(text)
    return utf16_len(text)


_MAX_SAFE = 2**53


def canonical_size(value: Any) -> int | None:
    """The UTF-16 length of `canonical_text(value, kind)` without writing it (this rule runs on every
    keystroke), or None when only writing it can tell (a lone surrogate, a value that is not JSON).

    The canonical layout (graph.md §6.1, map.md §9) depends on the value alone, not on its key order:
    the compact text with `","` and `": "` written by the C encoder (the same string escaping as the
    canonical writer) plus, for each non-empty container at depth d, a line break and 2(d+1) spaces
    before each of its n members and a line break and 2d spaces before its closer; numbers are
    corrected from Python's spelling to ECMAScript's (graph.md §6.4); one final newline."""
    if type(value) is not dict and type(value) is not list:
        return None
    try:
        compact = json.dumps(value, ensure_ascii=False, separators=(",", ": "), check_circular=False, allow_nan=False)
    except (ValueError, TypeError, RecursionError):
        return None
    size = len(compact) + 1
    if not compact.isascii():
        try:
            size += len(compact.encode("utf-16-le")) // 2 - len(compact)
        except UnicodeEncodeError:  # a lone surrogate: the canonical form escapes it
            return None
    stack = [(value, 0)]
    pop, push = stack.pop, stack.append
    while stack:
        x, d = pop()
        n = len(x)
        if not n:
            continue
        size += n * (2 * d + 3) + 2 * d + 1
        for v in (x.values() if type(x) is dict else x):
            t = type(v)
            if t is str or t is bool or v is None:
                continue
            if t is dict or t is list:
                push((v, d + 1))
            elif t is int:
                if not -_MAX_SAFE < v < _MAX_SAFE:
                    size += len(js_number(v)) - len(int.__repr__(v))
            elif t is float:
                size += len(canonical_number(v)) - len(float.__repr__(v))
            else:
                return None
    return size


@dataclass(frozen=True)
class DocTooLarge(Facts):
    """W_DOC_TOO_LARGE: the canonical `size` and the `limit` it is over."""

    code = "W_DOC_TOO_LARGE"
    size: int
    limit: int


def doc_size_issues(value: Any, kind: str) -> list[Issue]:
    """One warning when the document is over the budget, `at` the document's id, pointer the root."""
    size = document_size(value, kind)
    if size <= LIMIT:
        return []
    doc_id = value.get("id") if isinstance(value, dict) else None
    at = (doc_id,) if isinstance(doc_id, str) else ()
    message = _TOO_LARGE.get(kind, _graph_too_large)(size)
    return [make("W_DOC_TOO_LARGE", message, at, ("",), facts=DocTooLarge(size, LIMIT))]


def _graph_too_large(size: int) -> str:
    """graph.md §5: the size in plain digits."""
    return (f"the graph is {size} characters in canonical form (without its layout), over the {LIMIT:,}-character "
            "budget a model can rewrite in one pass; shorten the briefs (refer to files by path) or split the graph")


def _map_too_large(size: int) -> str:
    """map.md §6.10: thousands separators, as Number.toLocaleString("en") writes them."""
    return (f"the map is {size:,} characters in canonical form, over the {LIMIT:,} a model rewrites in one pass; "
            "draw families as one session with a count, or split the map")


_TOO_LARGE = {"graph": _graph_too_large, "map": _map_too_large}
