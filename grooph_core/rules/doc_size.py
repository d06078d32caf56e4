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


def left_out_of_size(kind: str) -> str | None:
    """The top-level member a document of `kind` is measured without (any other JSON reads as a graph)."""
    return _LEFT_OUT_OF_SIZE.get(kind, "layout")


def document_size(value: Any, kind: str) -> int:
    """The measured size: UTF-16 length of the canonical text (a graph's without top-level `layout`)."""
    left_out = left_out_of_size(kind)
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
    corrected from Python's spelling to ECMAScript's (graph.md §6.4); one final newline. The size is
    thus additive: a container's is its brackets, separators and members' sizes (`text_size`), which
    `rules/document_walk` sums per top-level item."""
    if type(value) is not dict and type(value) is not list:
        return None
    size = text_size(value, 0)
    return None if size is None else size + 1


def _not_json(x):
    raise TypeError(f"not JSON: {type(x).__name__}")


# The C encoder of `json.dumps(ensure_ascii=False, separators=(",", ": "), check_circular=False,
# allow_nan=False)`, built once (json.dumps builds one per call).
_compact_chunks = json.encoder.c_make_encoder(None, _not_json, json.encoder.encode_basestring, None, ": ", ",",
                                              False, False, False) if json.encoder.c_make_encoder else None


def _compact(x: Any) -> str:
    if _compact_chunks is not None:
        return "".join(_compact_chunks(x, 0))
    return json.dumps(x, ensure_ascii=False, separators=(",", ": "), check_circular=False, allow_nan=False)


def text_size(x: Any, depth: int) -> int | None:
    """The UTF-16 length of the canonical text of `x` standing at `depth` (0: the root), without the
    final newline; None when only writing it can tell (see `canonical_size`)."""
    t = type(x)
    if t is str and x.isascii() and x.isprintable() and '"' not in x and "\\" not in x:
        return len(x) + 2  # nothing escaped (a top-level member's id, name, version …: no encoder call)
    if t is int and -_MAX_SAFE < x < _MAX_SAFE:
        return len(int.__repr__(x))
    try:
        compact = _compact(x)
    except (ValueError, TypeError, RecursionError):
        return None
    size = len(compact)
    if not compact.isascii():
        try:
            size += len(compact.encode("utf-16-le")) // 2 - len(compact)
        except UnicodeEncodeError:  # a lone surrogate: the canonical form escapes it
            return None
    if t is not dict and t is not list:
        if t is int:
            if not -_MAX_SAFE < x < _MAX_SAFE:
                size += len(js_number(x)) - len(int.__repr__(x))
        elif t is float:
            size += len(canonical_number(x)) - len(float.__repr__(x))
        elif t is not str and t is not bool and x is not None:
            return None
        return size
    stack = [(x, depth)]
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
    return size_issues(value, kind, document_size(value, kind))


def size_issues(value: Any, kind: str, size: int) -> list[Issue]:
    """`doc_size_issues` of a document whose measured `size` is known."""
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
