"""Each graph and map rule reads only what its `Rule.reads` declares, and each part of the shared index only
what `INDEX_PARTS` / `MAP_INDEX_READS` say (issue 33 item 2: a wrong declaration would keep stale findings).

Every rule runs on every fixture, the benchmark's documents and many generated ones, with the document's
root and its lists' items wrapped in mappings that log each field asked for (`reads_recorder.py`); a field
read and not declared fails. The wrapped document must give the same findings as the plain one (so the
wrapping changed nothing the rules do)."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings

from bench.generate import graph_document, map_document
from grooph_core.rules.graph import RULES as GRAPH_RULES
from grooph_core.rules.map import RULES as MAP_RULES
from grooph_core.schema.check import schema_issues
from grooph_core.semantics.graph_index import INDEX_PARTS, build_index
from grooph_core.semantics.map_index import MAP_INDEX_PARTS, MAP_INDEX_READS, MapIndex, _tables, map_index
from tests.core.rules import reads_recorder as rec
from tests.core.rules.test_graph_rules_property import DOC as GRAPH_DOCS
from tests.core.rules.test_map_rules import maps as MAP_DOCS

def _bench(kind: str) -> list[dict]:
    make = graph_document if kind == "graph" else map_document
    return [json.loads(make(n, faults=f).text) for n in (2_000, 24_000) for f in (False, True)]


def _within(seen: set[tuple[str, str]], declared: dict) -> set[tuple[str, str]]:
    return {(w, f) for w, f in seen if not ({"*", f} & set(declared.get(w, ())))}


def _check_rules(doc: dict, kind: str) -> None:
    plain = doc
    for rule, seen in rec.rule_reads(doc, kind):
        assert not rec.undeclared(rule, seen), (rule.codes[0], sorted(rec.undeclared(rule, seen)))
    # the wrapped document gives the very findings of the plain one
    rdoc = rec.recorded_doc(doc, kind)
    for rule in GRAPH_RULES if kind == "graph" else MAP_RULES:
        if kind == "graph":
            assert list(rule.run(rdoc, rec.recorded_graph_index(rdoc))) == list(rule.run(plain, build_index(plain)))
        else:
            answer = lambda pointer: "not-a-graph"  # noqa: E731
            assert list(rule.run(rec.recorded_map_index(rdoc), answer)) == list(rule.run(map_index(plain), answer))


def _check_index(doc: dict, kind: str) -> None:
    rdoc = rec.recorded_doc(doc, kind)
    if kind == "graph":
        for part in INDEX_PARTS:
            with rec.recording() as seen:
                part.build(rdoc)
            assert not _within(seen, part.reads), (part.fields, sorted(_within(seen, part.reads)))
        # build_index calls the parts directly: it builds what they build
        index = build_index(doc)
        assert {f: getattr(index, f) for part in INDEX_PARTS for f in part.fields} == \
            {f: v for part in INDEX_PARTS for f, v in zip(part.fields, part.build(doc))}
        # what is computed on first use is kept only while no part changes: it must read no more than they
        index = build_index(rdoc)
        every: dict[str, set] = {}
        for part in INDEX_PARTS:
            for w, fields in part.reads.items():
                every.setdefault(w, set()).update(fields)
        with rec.recording() as seen:
            index.entries, index.reached  # noqa: B018
        assert not _within(seen, every), sorted(_within(seen, every))
    else:
        old = map_index(doc)
        assert _tables(doc) == {f: getattr(old, f) for f in MapIndex.__dataclass_fields__ if f != "doc"}
        for name, _, _ in MAP_INDEX_PARTS:
            with rec.recording() as seen:
                _tables(rdoc, old, lambda reads, name=name: name in reads)  # builds this list's tables alone
            assert not _within(seen, {name: MAP_INDEX_READS[name]}), (name, sorted(seen))


@pytest.mark.parametrize("kind", ["graph", "map"])
def test_every_fixture_and_benchmark_document(kind):
    docs = [d for d in rec.fixture_docs(kind) + _bench(kind) if not schema_issues(d, kind)]
    assert len(docs) > 20
    for doc in docs:
        _check_rules(doc, kind)
        _check_index(doc, kind)


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(GRAPH_DOCS)
def test_generated_graphs(doc):
    _check_rules(doc, "graph")
    _check_index(doc, "graph")


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(MAP_DOCS)
def test_generated_maps(doc):
    _check_rules(doc, "map")
    _check_index(doc, "map")


def test_a_missing_declaration_is_caught():
    """The recorder sees a read the declaration leaves out (here: a node's `kind`, read by rule 5)."""
    from dataclasses import replace

    rule = next(r for r in GRAPH_RULES if r.codes == ("E_SECOND_LEAD",))
    short = replace(rule, reads={**rule.reads, "nodes": rule.reads["nodes"] - {"kind"}})
    doc = rec.fixture_docs("graph")[0]
    _, seen = next((r, s) for r, s in rec.rule_reads(doc, "graph") if r is rule)
    assert ("nodes", "kind") in rec.undeclared(short, seen)


def test_only_the_resolver_rule_is_undeclared():
    """Every rule declares its reads but map rule 9, which asks the resolver about other documents."""
    undeclared = [r.codes[0] for r in GRAPH_RULES + MAP_RULES if r.reads is None]
    assert undeclared == ["W_GRAPH_UNRESOLVED"]
