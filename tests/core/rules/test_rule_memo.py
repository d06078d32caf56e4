"""The rules' memo (issue 33 item 2, `rules/rule_memo.py`): on random chains of edits to one item (or one root
member) at a time, built the way the editor's incremental reading builds a version (a new root, a new list,
a new item, everything else the same objects), the findings with the memo equal a fresh run's, step after
step: codes, messages, pointers, facts and order."""

from __future__ import annotations

import copy
import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bench.generate import graph_document, map_document
from grooph_core.ide.grooph.analysis import analyze
from grooph_core.rules.graph import RULES as GRAPH_RULES
from grooph_core.rules.graph import graph_rule_issues
from grooph_core.rules.map import RULES as MAP_RULES
from grooph_core.rules.map import map_rule_issues
from grooph_core.rules.rule_memo import RuleMemo, changes, same
from grooph_core.schema.check import schema_issues
from grooph_core.semantics.references import ID_LISTS
from grooph_core.source.text import pointer_split
from tests.core.rules.reads_recorder import fixture_docs
from tests.core.rules.test_graph_rules_property import DOC as GRAPH_DOCS
from tests.core.rules.test_map_rules import maps as MAP_DOCS

def _docs(kind: str) -> list[dict]:
    make = graph_document if kind == "graph" else map_document
    bench = [json.loads(make(n, faults=f).text) for n in (2_000, 10_000) for f in (False, True)]
    return [d for d in fixture_docs(kind) if not schema_issues(d, kind)] + bench


def _pool(doc: dict, kind: str) -> dict[str, list]:
    """Per field name, the values it has anywhere in the document's items (kinds, roles, ids, references …),
    plus ids and near-misses of ids, so that an edit makes references meet, dangle and collide."""
    pool: dict[str, list] = {}
    ids = []
    for name in ID_LISTS[kind]:
        for item in doc.get(name) or ():
            if isinstance(item, dict):
                for k, v in item.items():
                    pool.setdefault(k, []).append(v)
                if isinstance(item.get("id"), str):
                    ids.append(item["id"])
    ids += [i + "x" for i in ids[:5]] + ["", "ghost"]
    pool["*ids"] = ids
    for k, values in _MORE.items():
        pool.setdefault(k, []).extend(values)
    return pool


# Values the documents seldom hold, so that edits reach every rule (a person's step, a second lead, owners).
_MORE: dict[str, list] = {
    "by": ["person", "agent"], "role": ["lead", "critic", "builder", "judge", "planner", {"custom": "x"}],
    "owns": [["src"], ["docs", "src"], []], "merges": [["src"]], "coupled": [True, False], "approval": [True, False],
    "irreversible": [["publish"]], "effort": ["max"], "skills": [["pdf"]], "allow": [["web"], ["write-outputs"]],
    "deny": [["web"]], "model": [{"tier": "fast"}, {"tier": "strong", "pin": {"codex": "m"}}],
    "account": ["me", "you"], "harness": ["codex", "claude-code"], "isolation": ["fresh", "shared"],
    "carrier": [{"kind": "session-message"}, {"kind": "notification"}, {"kind": "branch", "repo": "r"}],
}
_FIELDS = ["kind", "role", "by", "coupled", "approval", "owns", "merges", "effort", "skills", "model", "account",
           "harness", "carrier", "lane", "isolation"]


def _new_value(rng: random.Random, field: str, old: object, pool: dict[str, list]) -> object:
    """Another value for `field` (one that differs from `old`, where one can be found)."""
    for _ in range(8):
        new = _candidate(rng, field, old, pool)
        if not same(new, old):
            return new
    return new


def _candidate(rng: random.Random, field: str, old: object, pool: dict[str, list]) -> object:
    ids = pool["*ids"]
    choice = rng.random()
    if isinstance(old, str) and choice < 0.4:
        return rng.choice(ids + ["", " "])  # an id or a reference: now another one
    if isinstance(old, str) and choice < 0.55:
        return old + rng.choice(["x", " ", "—", "{{slot}}"])  # a keystroke in a text
    if isinstance(old, list) and choice < 0.6:
        out = copy.deepcopy(old)
        if out and rng.random() < 0.4:
            del out[rng.randrange(len(out))]
        elif out and all(isinstance(x, str) for x in out) and rng.random() < 0.5:
            out[rng.randrange(len(out))] = rng.choice(ids)
        elif out:
            out.append(copy.deepcopy(rng.choice(out)) if not isinstance(out[0], str) else rng.choice(ids))
        return out
    if isinstance(old, dict) and old and choice < 0.5:
        out = copy.deepcopy(old)
        k = rng.choice(list(out))
        if rng.random() < 0.5:
            del out[k]
        else:
            out[k] = _candidate(rng, k, out[k], pool)
        return out
    if isinstance(old, bool) and choice < 0.7:
        return not old
    if isinstance(old, int) and not isinstance(old, bool) and choice < 0.7:
        return old + rng.choice([-1, 1, 5])
    others = pool.get(field) or [old]
    return copy.deepcopy(rng.choice(others))


def _edit(rng: random.Random, doc: dict, kind: str, pool: dict[str, list], near: list[str] = ()) -> dict:
    """One edit, as the incremental reading shares: a new root; one item (or one root member) changed in a
    new list, every other member and item the very same object. Half the time at a place a finding names
    (`near`: pointers), so that edits make and unmake findings of every rule."""
    new = dict(doc)
    lists = [k for k in ID_LISTS[kind] if isinstance(doc.get(k), list) and doc[k]]
    segs = pointer_split(rng.choice(near)) if near and rng.random() < 0.5 else []
    if len(segs) >= 3 and segs[0] in lists and segs[1].isdigit() and int(segs[1]) < len(doc[segs[0]]):
        name, i, field = segs[0], int(segs[1]), segs[2]
        item = copy.deepcopy(doc[name][i])
        if isinstance(item, dict):
            if field == "id" or rng.random() < 0.8:
                item[field] = _new_value(rng, field, item.get(field), pool)
            else:
                item.pop(field, None)
        new[name] = list(doc[name])
        new[name][i] = item
        return new
    if not lists or rng.random() < 0.15:
        field = rng.choice([k for k in doc if k not in ID_LISTS[kind]] or ["id"])
        if field == "target" and isinstance(doc[field], dict):
            new[field] = dict(doc[field], harness=rng.choice(["codex", "claude-code", " ", "x"]))
        else:
            new[field] = _new_value(rng, field, doc.get(field), pool)
        return new
    name = rng.choice(lists)
    i = rng.randrange(len(doc[name]))
    item = copy.deepcopy(doc[name][i])  # the edited item is read again: nothing of it is shared
    if isinstance(item, dict) and item:
        field = rng.choice(list(item) * 3 + _FIELDS)
        if rng.random() < 0.08 and field in item and field not in ("id",):
            del item[field]
        else:
            item[field] = _new_value(rng, field, item.get(field), pool)
    new[name] = list(doc[name])
    new[name][i] = item
    return new


def _rules(kind: str):
    if kind == "graph":
        return lambda doc, memo=None, export=False: graph_rule_issues(doc, export=export, memo=memo)
    return lambda doc, memo=None, export=False: map_rule_issues(doc, resolver=lambda p: "not-a-graph", memo=memo)


def _check_chain(kind: str, doc: dict, seed: int, steps: int, export: bool) -> int:
    """Edits `steps` times, comparing the memo's findings with a fresh run's; returns how many rules kept."""
    rng = random.Random(seed)
    run = _rules(kind)
    pool = _pool(doc, kind)
    memo = RuleMemo()
    want = run(copy.deepcopy(doc), None, export)
    assert run(doc, memo, export) == want
    every, kept = memo.ran, 0  # a fresh run runs every rule
    for step in range(steps):
        before = memo
        new = _edit(rng, doc, kind, pool, [p for i in want for p in list(i.pointers) + [r for r, _ in i.related]])
        memo = RuleMemo(before)
        got = run(new, memo, export)
        want = run(copy.deepcopy(new), None, export)
        assert got == want, (kind, seed, step)
        kept += every - memo.ran
        doc = new
    return kept


@pytest.mark.parametrize("kind", ["graph", "map"])
def test_chains_of_edits_equal_fresh_runs(kind):
    kept = 0
    for n, doc in enumerate(_docs(kind)):
        for export in ((False, True) if kind == "graph" else (False,)):
            kept += _check_chain(kind, doc, seed=n * 7 + export, steps=40, export=export)
    assert kept > 100  # the memo did keep findings (the test is not comparing fresh runs with fresh runs)


def test_findings_kept_are_the_same_objects():
    """An edit to a node's name re-runs no rule: every finding is the previous version's object."""
    doc = json.loads(graph_document(24_000, faults=True).text)
    memo = RuleMemo()
    first = graph_rule_issues(doc, memo=memo)
    i = len(doc["nodes"]) // 2
    new = dict(doc, nodes=list(doc["nodes"]))
    new["nodes"][i] = dict(doc["nodes"][i], name="Renamed")
    after = RuleMemo(memo)
    second = graph_rule_issues(new, memo=after)
    assert second == first and all(a is b for a, b in zip(first, second)) and first
    assert after.before is None  # versions do not chain


def test_changes():
    a = {"id": "g", "nodes": [{"id": "a", "kind": "agent"}, {"id": "b"}], "edges": []}
    b = dict(a, nodes=[a["nodes"][0], {"id": "b", "name": "B"}])
    assert changes(a, b, ID_LISTS["graph"]).lists == {"nodes": frozenset({"name", "*"})}
    assert changes(a, dict(a, nodes=a["nodes"] + [{"id": "c"}]), ID_LISTS["graph"]) is None  # a list grew
    assert changes(a, {"nodes": a["nodes"], "id": "g", "edges": []}, ID_LISTS["graph"]) is None  # keys moved
    assert changes(a, dict(a, id="h"), ID_LISTS["graph"]).root == {"id"}
    c = dict(a, nodes=[{"kind": "agent", "id": "a"}, a["nodes"][1]])  # the same fields in another order
    assert changes(a, c, ID_LISTS["graph"]).lists == {"nodes": frozenset({"*"})}
    assert not same(1, True) and not same(1, 1.0) and not same(0.0, -0.0) and same({"a": [1, {"b": 2.5}]}, {"a": [1, {"b": 2.5}]})
    assert not same({"a": 1, "b": 2}, {"b": 2, "a": 1})


# -- through the analysis ---------------------------------------------------------------------------


@pytest.mark.parametrize("make,kind,name", [(graph_document, "graph", "g.grooph.json"),
                                            (map_document, "map", "m.grooph-map.json")])
def test_analyze_with_previous_equals_a_fresh_analysis(make, kind, name):
    """Typing at the benchmark's place (a name) and into ids and references: `analyze(text, previous=)`
    gives a fresh analysis's issues, both from a reading that shares nothing and from one that shares
    what the incremental reading shares (faked here: the reading of the previous version is reused)."""
    d = make(24_000, faults=True)
    texts = [d.text]
    for ch in "abc":
        texts.append(texts[-1][:d.edit_at] + ch + texts[-1][d.edit_at:])
    value = json.loads(d.text)
    lst = "edges" if kind == "graph" else "handoffs"
    mid = value[lst][len(value[lst]) // 2]
    at = texts[-1].index(f'"id": "{mid["id"]}"') + len('"id": "')
    texts.append(texts[-1][:at] + "z" + texts[-1][at:])  # an id: now dangling for whoever names it
    to = texts[-1].index('"to": "', at) + len('"to": "')
    texts.append(texts[-1][:to] + "q" + texts[-1][to:])  # a reference
    texts.append(texts[-1][:to] + texts[-1][to + 1:])  # and back

    fresh = [analyze(t, name=name).issues for t in texts]
    prev = None
    for t, want in zip(texts, fresh):
        a = analyze(t, name=name, previous=prev)
        assert a.issues == want
        prev = a

    # The incremental reading (json_splice) shares every item the edit left alone with the version before.
    prev = None
    ran = []
    for t, want in zip(texts, fresh):
        a = analyze(t, name=name, previous=prev)
        assert a.issues == want
        ran.append(a.rule_memo.ran)
        prev = a
    undeclared = sum(r.reads is None for r in (GRAPH_RULES if kind == "graph" else MAP_RULES))
    assert ran[1:4] == [undeclared] * 3  # a keystroke in a name re-runs no rule (but the resolver's)
    assert all(undeclared < r < ran[0] for r in ran[4:])  # one in an id or a reference, some


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(GRAPH_DOCS, st.integers(0, 2**32), st.booleans())
def test_chains_on_generated_graphs(doc, seed, export):
    """Small documents whose ids collide, dangle and repeat, with every kind of node, stop and scope."""
    _check_chain("graph", doc, seed, steps=12, export=export)


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(MAP_DOCS, st.integers(0, 2**32))
def test_chains_on_generated_maps(doc, seed):
    _check_chain("map", doc, seed, steps=12, export=False)


def test_a_broken_text_between_keeps_the_last_clean_memo():
    """Clean, broken (a half-typed string), clean again: the last clean analysis's memo is handed on through
    the broken one, so the rules of the clean text after it keep what that edit left alone."""
    d = graph_document(24_000, faults=True)
    texts = [d.text, d.text[:d.edit_at] + '"' + d.text[d.edit_at:], d.text[:d.edit_at] + "x" + d.text[d.edit_at:]]
    first = analyze(texts[0], name="g.grooph.json")
    broken = analyze(texts[1], name="g.grooph.json", previous=first)
    assert broken.rule_memo is first.rule_memo and broken.issues != first.issues
    again = analyze(texts[2], name="g.grooph.json", previous=broken)
    assert again.rule_memo.ran == 0 and again.issues == analyze(texts[2], name="g.grooph.json").issues


def test_a_member_no_rule_reads_is_not_compared():
    """A graph's layout (read by no rule but the export's): an edit in it keeps every finding, and with the
    export flag the export rule runs again."""
    doc = json.loads(graph_document(24_000, faults=True).text)
    for export in (False, True):
        memo = RuleMemo()
        graph_rule_issues(doc, export=export, memo=memo)
        new = dict(doc, layout=copy.deepcopy(doc["layout"]))
        new["layout"][next(iter(new["layout"]))]["x"] = 1.5
        after = RuleMemo(memo)
        assert graph_rule_issues(new, export=export, memo=after) == graph_rule_issues(new, export=export)
        assert after.ran == (1 if export else 0)
    assert changes(doc, new, ID_LISTS["graph"], frozenset({"id"})).root == frozenset()
    assert changes(doc, new, ID_LISTS["graph"]).root == {"layout"}
