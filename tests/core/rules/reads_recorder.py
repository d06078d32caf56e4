"""Record what of a document each graph or map rule (and each part of their index) reads (issue 33 item 2).

The document's root and the items of its top-level lists are wrapped in mappings that log every field
asked for (a key read, a `get`, an `in`; iterating, sizing or comparing a whole item logs "*"); the index
is a subclass that logs which of its fields a rule asks for, each part standing for the reads it declares
(`INDEX_PARTS`, proven separately). What is logged has the form of `Rule.reads`: "" the root's members, per
list the fields of its items. `python -m tests.core.rules.reads_recorder` prints what each rule read over
the fixtures and many generated documents (how the declarations were first written).
"""

from __future__ import annotations

from contextlib import contextmanager
from typing import Iterator

from grooph_core.semantics.graph_index import INDEX_PARTS, GraphIndex, build_index
from grooph_core.semantics.map_index import MAP_INDEX_PARTS, MAP_INDEX_READS, MapIndex, map_index
from grooph_core.semantics.references import ID_LISTS

_SINK: list[set[tuple[str, str]]] = []


def _log(where: str, key: object) -> None:
    if _SINK:
        _SINK[-1].add((where, key if isinstance(key, str) else "*"))


@contextmanager
def recording() -> Iterator[set[tuple[str, str]]]:
    """What is read inside the block: a set of (list name or "" for the root, field)."""
    seen: set[tuple[str, str]] = set()
    _SINK.append(seen)
    try:
        yield seen
    finally:
        _SINK.pop()


class _Recorded(dict):
    """A dict that logs the fields read of it under `_where` (a list's name; "" the root)."""

    _where = ""
    _silent: frozenset = frozenset()  # keys read without a log (the root's item lists)

    def _one(self, key: object) -> None:
        if key not in self._silent:
            _log(self._where, key)

    def __getitem__(self, key):
        self._one(key)
        return super().__getitem__(key)

    def get(self, key, default=None):
        self._one(key)
        return super().get(key, default)

    def __contains__(self, key):
        self._one(key)
        return super().__contains__(key)

    def _all(self) -> None:
        _log(self._where, "*")

    __hash__ = None  # type: ignore[assignment]

    def copy(self):
        self._all()
        return dict(super().items())


def _whole(name: str):
    method = getattr(dict, name)

    def whole(self, *args):
        self._all()
        return method(self, *args)

    whole.__name__ = name
    return whole


# Reading an item as a whole (its keys, their order, its size, equality) reads every field.
for _name in ("__iter__", "keys", "items", "values", "__len__", "__eq__", "__ne__"):
    setattr(_Recorded, _name, _whole(_name))


def _item(value: object, where: str) -> object:
    if not isinstance(value, dict):
        return value
    out = _Recorded(value)
    out._where = where
    return out


def recorded_doc(doc: dict, kind: str) -> dict:
    """`doc` with its root and the items of its top-level lists logging what is read of them."""
    lists = frozenset(ID_LISTS[kind])
    root = _Recorded({k: ([_item(x, k) for x in v] if k in lists and isinstance(v, list) else v) for k, v in doc.items()})
    root._silent = lists
    return root


# -- the index --------------------------------------------------------------------------------------

_GRAPH_PART_OF = {f: part.reads for part in INDEX_PARTS for f in part.fields}
_MAP_PART_OF = {}
for _name, _last, _first in MAP_INDEX_PARTS:
    _MAP_PART_OF[_last] = {_name: MAP_INDEX_READS[_name]}
    if _first is not None:
        _MAP_PART_OF[_first] = {_name: MAP_INDEX_READS[_name]}


def _log_part(reads: dict) -> None:
    for where, fields in reads.items():
        for f in fields:
            _log(where, f)


class RecordedGraphIndex(GraphIndex):
    """A `GraphIndex` that logs, for each of its fields a rule asks for, the reads that part is built from
    (its methods and cached fields run on this instance, so what they ask for is logged too)."""

    def __getattribute__(self, name: str):
        reads = _GRAPH_PART_OF.get(name)
        if reads is not None:
            _log_part(reads)
        return object.__getattribute__(self, name)


class RecordedMapIndex(MapIndex):
    """A `MapIndex` that logs, for each id table a rule asks for, the reads it is built from."""

    def __getattribute__(self, name: str):
        reads = _MAP_PART_OF.get(name)
        if reads is not None:
            _log_part(reads)
        return object.__getattribute__(self, name)


def recorded_graph_index(rdoc: dict) -> GraphIndex:
    """A fresh recording index of a recorded document (nothing cached: each rule's reads are its own)."""
    plain = build_index(rdoc)
    return RecordedGraphIndex(**{f: object.__getattribute__(plain, f) for f in GraphIndex.__dataclass_fields__})


def recorded_map_index(rdoc: dict) -> MapIndex:
    plain = map_index(rdoc)
    return RecordedMapIndex(**{f: getattr(plain, f) for f in MapIndex.__dataclass_fields__})


def rule_reads(doc: dict, kind: str, *, export: bool = True) -> list[tuple[object, set[tuple[str, str]]]]:
    """(rule, what it read) for every declared rule of `kind` run on `doc`."""
    from grooph_core.rules.graph import RULES as GRAPH_RULES
    from grooph_core.rules.map import RULES as MAP_RULES

    rdoc = recorded_doc(doc, kind)
    out = []
    for rule in GRAPH_RULES if kind == "graph" else MAP_RULES:
        if rule.export and not export:
            continue
        index = recorded_graph_index(rdoc) if kind == "graph" else recorded_map_index(rdoc)  # built unrecorded
        with recording() as seen:
            if kind == "graph":
                list(rule.run(rdoc, index))
            else:
                list(rule.run(index, lambda pointer: "not-a-graph"))
        out.append((rule, seen))
    return out


def undeclared(rule, seen: set[tuple[str, str]]) -> set[tuple[str, str]]:
    """What `rule` read that its `reads` does not name (everything, for a rule without `reads`)."""
    declared = rule.reads
    if declared is None:
        return set()
    return {(w, f) for w, f in seen if not ({"*", f} & set(declared.get(w, ())))}


def fixture_docs(kind: str) -> list[dict]:
    """The documents of the kind's fixtures that read as JSON objects (valid and invalid ones)."""
    import json
    from pathlib import Path

    root = Path(__file__).parents[3] / "fixtures"
    root, pattern = (root, "*.grooph.json") if kind == "graph" else (root / "maps", "*.grooph-map.json")
    out = []
    for p in sorted(root.rglob(pattern)):
        try:
            v = json.loads(p.read_text("utf-8"))
        except ValueError:
            continue
        if isinstance(v, dict):
            out.append(v)
    return out


def _corpus(kind: str, n: int) -> Iterator[dict]:
    from hypothesis import HealthCheck, given, settings

    yield from fixture_docs(kind)
    docs: list[dict] = []
    if kind == "graph":
        from tests.core.rules.test_graph_rules_property import DOC as strategy
    else:
        from tests.core.rules.test_map_rules import maps as strategy

    @settings(max_examples=n, deadline=None, database=None, suppress_health_check=list(HealthCheck))
    @given(strategy)
    def collect(d):
        docs.append(d)

    collect()
    yield from docs


def main() -> None:
    """Print, per rule, what it read over the fixtures and generated documents."""
    from grooph_core.schema.check import schema_issues

    for kind in ("graph", "map"):
        union: dict[str, set] = {}
        for doc in _corpus(kind, 3000):
            if schema_issues(doc, kind):
                continue
            for rule, seen in rule_reads(doc, kind):
                union.setdefault(rule.codes[0], set()).update(seen)
        for code, seen in union.items():
            by: dict[str, list] = {}
            for w, f in sorted(seen):
                by.setdefault(w or "root", []).append(f)
            print(kind, code, {k: tuple(v) for k, v in by.items()})


if __name__ == "__main__":
    main()
