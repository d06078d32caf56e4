"""What the repair builders read of one document value, computed on first use and kept (issue 13: the
code-action titles at 1M characters).

A `RepairMemo` belongs to one document value: the editor keeps one per analysis (one version of the
text, whose value is never modified), so nothing it holds is ever served for another version. The
graph builders receive a `LazyIndex` on it: the shared `GraphIndex` of graph.md §2.1 is only built
when a builder reads it (the E_DANGLING_REF repairs never do). Every answer is the one the builders
computed before: the same functions, on the same value, asked once.
"""

from __future__ import annotations

from collections import Counter

from grooph_core.ops.ids import ids_of
from grooph_core.semantics.graph_index import GraphIndex, build_index
from grooph_core.source.text import did_you_mean, nearest_words


class RepairMemo:
    """Lazily computed facts of one document value: its `GraphIndex`, the ids of a list (and how
    many objects carry each), and the did-you-mean / nearest-name answers of a reference.

    Safe to share between the request threads of one version: each entry is a pure function of the
    value, so two threads computing it at once store the same answer."""

    def __init__(self, doc: dict):
        self.doc = doc
        self._index: GraphIndex | None = None
        self._ids: dict[str, tuple[str, ...]] = {}
        self._counts: dict[str, Counter] = {}
        self._suggestions: dict[tuple, str | None] = {}
        self._nearest: dict[tuple, tuple[str, ...]] = {}

    @property
    def index(self) -> GraphIndex:
        index = self._index
        if index is None:
            index = self._index = build_index(self.doc)
        return index

    def ids(self, key: str) -> tuple[str, ...]:
        """`ids_of(doc, key)`: the string ids of one list, document order, duplicates kept."""
        found = self._ids.get(key)
        if found is None:
            found = self._ids[key] = tuple(ids_of(self.doc, key))
        return found

    def pool(self, keys: tuple[str, ...]) -> tuple[str, ...]:
        """The ids of several lists, one after the other (`ids_of(doc, a) + ids_of(doc, b)`)."""
        return self.ids(keys[0]) if len(keys) == 1 else tuple(x for k in keys for x in self.ids(k))

    def sole(self, key: str, obj_id: object) -> bool:
        """Exactly one object of the list carries the id (`graph_repairs.sole`)."""
        if not isinstance(obj_id, str):
            return False
        counts = self._counts.get(key)
        if counts is None:
            counts = self._counts[key] = Counter(self.ids(key))
        return counts[obj_id] == 1

    def did_you_mean(self, word: str, keys: tuple[str, ...]) -> str | None:
        """`did_you_mean(word, distinct ids of the lists)`."""
        k = (word, keys)
        if k not in self._suggestions:
            self._suggestions[k] = did_you_mean(word, list(dict.fromkeys(self.pool(keys))))
        return self._suggestions[k]

    def nearest(self, word: str, keys: tuple[str, ...], suggestion: str | None, k: int) -> list[str]:
        """`graph_repairs.nearest` over the ids of the lists: the suggestion first (when it is one of
        them), then up to `k` others by distance."""
        key = (word, keys, suggestion, k)
        found = self._nearest.get(key)
        if found is None:
            distinct = list(dict.fromkeys(c for c in self.pool(keys) if c != word))
            others = nearest_words(word, distinct, k, skip=suggestion)
            found = self._nearest[key] = tuple(([suggestion] if suggestion in distinct else []) + others)
        return list(found)


class LazyIndex:
    """A `GraphIndex` built on first use from its memo: attribute reads go to the real index."""

    def __init__(self, memo: RepairMemo):
        self.memo = memo

    def __getattr__(self, name: str):
        return getattr(self.memo.index, name)


def memo_of(index: object, doc: dict) -> RepairMemo:
    """The memo behind a builder's index argument, or a fresh one for `doc` (a builder called with a
    plain `GraphIndex`)."""
    return index.memo if isinstance(index, LazyIndex) and index.memo.doc is doc else RepairMemo(doc)
