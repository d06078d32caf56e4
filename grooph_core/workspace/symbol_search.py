"""`workspace/symbol` matching (issue 17 item 3): a query matches an id or a name when its characters
appear in it in order (case ignored); matches are ranked exact, then prefix, then substring, then
by how tightly and how early the characters fall, word starts (after `-`, `_`, space, `.`) counting
as tight. Plain functions over plain strings."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TypeVar

T = TypeVar("T")
_BOUNDARY = "-_ ./:"


def subsequence_score(query: str, text: str) -> float | None:
    """How well `query` matches `text` (higher is better), or None when it does not match at all."""
    if not query:
        return 0.0
    q, t = query.lower(), text.lower()
    if q == t:
        return 1000.0
    if t.startswith(q):
        return 800.0 - len(t) / 100
    at = t.find(q)
    if at >= 0:
        boundary = at == 0 or t[at - 1] in _BOUNDARY
        return (700.0 if boundary else 600.0) - at - len(t) / 100
    # Greedy subsequence, preferring word starts: walk the text once.
    score = 0.0
    ti = 0
    last = -2
    for ch in q:
        found = -1
        # a later word start beats the next plain occurrence
        j = t.find(ch, ti)
        if j < 0:
            return None
        k = j
        while k >= 0 and not (k == 0 or t[k - 1] in _BOUNDARY) and k != last + 1:
            k = t.find(ch, k + 1)
        found = k if k >= 0 else j
        if found == last + 1:
            score += 8
        elif found == 0 or t[found - 1] in _BOUNDARY:
            score += 6
        else:
            score += 1 - min(found - ti, 20) / 40
        last = found
        ti = found + 1
    return 100.0 + score * 10 / len(q) - len(t) / 100


def best_score(query: str, texts: Iterable[str]) -> float | None:
    scores = [s for s in (subsequence_score(query, x) for x in texts if x) if s is not None]
    return max(scores) if scores else None


def ranked(query: str, items: Iterable[T], texts_of, limit: int = 200) -> list[T]:
    """The items whose texts (`texts_of(item)`: id, name) match `query`, best first, at most `limit`;
    ties keep the given order."""
    scored = []
    for n, item in enumerate(items):
        s = best_score(query.strip(), texts_of(item))
        if s is not None:
            scored.append((-s, n, item))
    scored.sort(key=lambda x: (x[0], x[1]))
    return [item for _, _, item in scored[:limit]]
