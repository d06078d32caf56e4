"""`rules/document_walk` (issue 33): the structural check, the unknown keys and the size walked per
top-level part give exactly the reference functions' issues (`schema_issues`, `unknown_key_issues`,
`doc_size_issues`: graph.md §4-§6.6, map.md §5, §6.9, §6.10), fresh and when parts are taken from the
previous walk; a part that is the very same object is not walked again."""

from __future__ import annotations

import copy
import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bench.generate import graph_document, map_document
from grooph_core.ide.grooph.analysis import analyze
from grooph_core.rules import document_walk
from grooph_core.rules.doc_size import LIMIT, document_size, doc_size_issues
from grooph_core.rules.document_walk import walk_document
from grooph_core.rules.unknown_keys import unknown_key_issues
from grooph_core.schema.check import schema_issues
from tests.conftest import fixture_files

KINDS = ("graph", "map")


def _kind_of(name: str) -> str:
    return "map" if name.endswith(".grooph-map.json") else "graph"


def _reference(value, kind):
    return schema_issues(value, kind), unknown_key_issues(value, kind), doc_size_issues(value, kind)


def _walked(walk):
    return walk.schema_issues(), walk.unknown_key_issues(), walk.size_issues()


def assert_same_as_reference(value, kind, walk=None):
    walk = walk if walk is not None else walk_document(value, kind)
    if not isinstance(value, dict):
        assert walk is None
        return
    ref = _reference(value, kind)
    got = _walked(walk)
    for name, r, g in zip(("E_SCHEMA", "W_UNKNOWN_KEY", "W_DOC_TOO_LARGE"), ref, got):
        assert [(i.message, i.at, i.pointers, i.on_key, i.facts) for i in g] == \
               [(i.message, i.at, i.pointers, i.on_key, i.facts) for i in r], name
        assert g == r, name
    if walk.size is not None:
        assert walk.size == document_size(value, kind)


def _fixture_values():
    out = []
    for path in fixture_files():
        try:
            out.append((path.name, json.loads(path.read_text("utf-8"))))
        except ValueError:
            continue
    return out


FIXTURES = _fixture_values()


def test_every_fixture_in_either_kind_gives_the_reference_issues():
    assert len(FIXTURES) > 50
    codes = set()
    for name, value in FIXTURES:
        for kind in KINDS:
            assert_same_as_reference(value, kind)
            if isinstance(value, dict):
                codes.update(i.code for part in _reference(value, kind) for i in part)
    assert {"E_SCHEMA", "W_UNKNOWN_KEY", "W_DOC_TOO_LARGE"} <= codes


@pytest.mark.parametrize("chars", [2_000, 24_000, 240_000])
@pytest.mark.parametrize("faults", [False, True])
def test_benchmark_documents_give_the_reference_issues(chars, faults):
    for make, kind in ((graph_document, "graph"), (map_document, "map")):
        value = json.loads(make(chars, faults=faults).text)
        assert_same_as_reference(value, kind)


def test_the_walks_findings_are_in_the_reference_order_when_keys_are_out_of_order():
    """Unknown keys in JavaScript key order (index-like keys first, §0.4), structural findings in
    declared order, whatever order the document writes its members in."""
    value = {"7": 1, "nodes": [{"kind": "step", "zz": 1, "id": 5, "2": 0}], "id": "g", "bogus": [], "grooph": 1,
             "1": {}, "edges": "no", "loops": [], "version": "1", "layout": {"x": {"q": 1}}}
    for kind in KINDS:
        assert_same_as_reference(value, kind)
    assert [i.pointers[0] for i in unknown_key_issues(value, "graph")][:2] == ["/1", "/7"]


# ---- Hypothesis: mutations of valid documents ----------------------------------------------------------

BASES = [(n, v) for n, v in FIXTURES if isinstance(v, dict) and not schema_issues(v, _kind_of(n))]

texts = (st.text(max_size=8) | st.sampled_from(["é", "😀", "\ud800", "a\udfffb", "\u2028", '"\\', "ouputs", "lifetme",
                                                 "kindd", "Id", "0", "12", "01"]))
scalars = (st.none() | st.booleans() | st.integers(min_value=-(2**60), max_value=2**60)
           | st.floats(allow_nan=False, allow_infinity=False) | texts
           | st.sampled_from([0.5, -0.0, 1e21, 2**53 + 1, "step", "judge", "ceiling"]))
json_values = st.recursive(
    scalars, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(texts, inner, max_size=3), max_leaves=12)


def _places(value, out, depth=0):
    """Every (container, key) in a value, parents before children."""
    if isinstance(value, dict):
        for k in list(value):
            out.append((value, k))
            _places(value[k], out, depth + 1)
    elif isinstance(value, list):
        for i in range(len(value)):
            out.append((value, i))
            _places(value[i], out, depth + 1)
    return out


def _nested(depth: int, leaf):
    for i in range(depth):
        leaf = [leaf] if i % 2 else {"a": leaf}
    return leaf


@st.composite
def mutated(draw):
    name, base = draw(st.sampled_from(BASES))
    value = copy.deepcopy(base)
    kind = _kind_of(name)
    for _ in range(draw(st.integers(1, 4))):
        places = _places(value, [])
        if not places:
            break
        holder, key = places[draw(st.integers(0, len(places) - 1))]
        op = draw(st.sampled_from(["set", "del", "add", "near", "nest", "dup"]))
        if op == "set":  # a wrong type (or a right one)
            holder[key] = draw(json_values)
        elif op == "del":  # a missing field or item
            del holder[key]
        elif op == "add" and isinstance(holder, dict):  # an extra key
            holder[draw(texts)] = draw(json_values)
        elif op == "near" and isinstance(holder, dict) and isinstance(key, str) and key:  # a near miss
            holder[draw(st.sampled_from([key[:-1], key + "s", key.upper(), key[1:] + key[0]])) or "x"] = holder.pop(key)
        elif op == "nest":
            holder[key] = _nested(draw(st.integers(1, 60)), holder[key])
        elif op == "dup" and isinstance(holder, list):
            holder.append(holder[key])
    if draw(st.booleans()) and isinstance(value.get("description", ""), str):
        # a size right at the budget: 24,000 - 1, 24,000 or 24,000 + 1
        value["description"] = value.get("description", "")
        target = LIMIT + draw(st.sampled_from([-1, 0, 1]))
        grow = target - document_size(value, kind)
        if grow >= 0:
            value["description"] += "a" * grow
        elif -grow <= len(value["description"]):
            value["description"] = value["description"][:grow]
    return kind, value


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(mutated())
def test_mutated_documents_give_the_reference_issues(drawn):
    kind, value = drawn
    for k in (kind, "map" if kind == "graph" else "graph"):
        assert_same_as_reference(value, k)


@pytest.mark.parametrize("delta", [-1, 0, 1])
def test_sizes_at_the_budget(delta):
    for name, base in BASES[:6]:
        kind = _kind_of(name)
        value = dict(base, description="é😀")
        value["description"] += "a" * (LIMIT + delta - document_size(value, kind))
        walk = walk_document(value, kind)
        assert walk.size == LIMIT + delta
        assert [i.code for i in walk.size_issues()] == (["W_DOC_TOO_LARGE"] if delta > 0 else [])
        assert_same_as_reference(value, kind, walk)


# ---- reuse: a new value sharing all but one part with the previous one (as the incremental reading) ----


def _lists(value, kind):
    return [m.name for m in document_walk._ROOTS[kind].members if m.items is not None and isinstance(value.get(m.name), list)]


def _edit(rng: random.Random, value: dict, kind: str, pool: list) -> tuple[dict, int, int]:
    """A new root and one new list (or member) with one item replaced, inserted or removed; every other
    member and item the very same object. Returns the value, how many new parts it has and how many of
    them are list items."""
    new = dict(value)
    lists = [k for k in _lists(value, kind) if value[k]]
    op = rng.choice(["replace", "replace", "insert", "remove", "member", "unknown"])
    members = [k for k in value if k in document_walk._ROOTS[kind].by_name and k not in _lists(value, kind)
               and isinstance(value[k], (str, dict, list))]
    if op == "member" and members:
        key = rng.choice(members)
        new[key] = copy.deepcopy(value[key])  # a new object (a string gets one more character)
        if isinstance(new[key], str):
            new[key] += rng.choice(["y", "é", "😀", "\ud800"])
        return new, 1, 0
    if op in ("unknown", "member"):
        new["extra-" + str(rng.randrange(3))] = rng.choice([1, {"a": 1}, "zz"])
        return new, 0, 0  # an unknown root key is no part of a declared member
    key = rng.choice(lists)
    items = list(value[key])
    i = rng.randrange(len(items))
    if op == "remove":
        del items[i]
        new[key] = items
        return new, 0, 0
    item = copy.deepcopy(rng.choice(pool) if op == "insert" else items[i])
    if isinstance(item, dict):
        change = rng.choice(["typo", "drop", "wrong", "kind", "none", "text"])
        field = rng.choice(sorted(item) or ["id"])
        if change == "typo":
            item[field + "x"] = item.pop(field, 1)
        elif change == "drop":
            item.pop(field, None)
        elif change == "wrong":
            item[field] = rng.choice([3, None, [], {"k": 1}, "s", 1.5])
        elif change == "kind":
            item["kind"] = rng.choice(["step", "judge", "bogus", 7])
        elif change == "text":
            item[field] = "é😀" * rng.randrange(1, 2000)
    if op == "insert":
        items.insert(i, item)
    else:
        items[i] = item
    new[key] = items
    return new, 1, 1


@pytest.mark.parametrize("seed", range(6))
def test_a_walk_from_the_previous_one_equals_a_fresh_walk_and_walks_only_what_is_new(seed, monkeypatch):
    rng = random.Random(seed)
    make, kind = (graph_document, "graph") if seed % 2 == 0 else (map_document, "map")
    value = json.loads(make(rng.choice([2_000, 24_000]), faults=bool(seed % 3)).text)
    pool = [x for k in _lists(value, kind) for x in value[k]]
    walked_items: list = []
    real = document_walk.text_size
    monkeypatch.setattr(document_walk, "text_size", lambda x, d: (d == 2 and walked_items.append(x)) or real(x, d))
    walk = walk_document(value, kind)
    parts = sum(len(value[k]) for k in _lists(value, kind))
    assert walk.walked == parts + sum(1 for k in value if k in document_walk._ROOTS[kind].by_name and k not in _lists(value, kind))
    for step in range(40):
        before = {id(x) for k in _lists(value, kind) for x in value[k]}
        value, new_parts, new_items = _edit(rng, value, kind, pool)
        walked_items.clear()
        walk = walk_document(value, kind, previous=walk)
        assert walk.walked == new_parts, step
        assert len(walked_items) == new_items  # the items walked are the new ones (and only those)
        assert not any(id(x) in before for x in walked_items)  # an item kept as it was is not walked again
        fresh = walk_document(value, kind)
        assert _walked(walk) == _walked(fresh), step
        assert walk.size == fresh.size
        assert_same_as_reference(value, kind, walk)


def test_a_previous_walk_of_the_other_kind_is_not_taken():
    value = json.loads(graph_document(2_000, faults=True).text)
    as_map = walk_document(value, "map")
    walk = walk_document(value, "graph", previous=as_map)
    assert walk.walked == walk_document(value, "graph").walked
    assert_same_as_reference(value, "graph", walk)


def test_the_editors_analysis_keeps_its_walk_and_takes_the_previous_one():
    text = graph_document(2_000, faults=True).text
    first = analyze(text, name="a.grooph.json")
    assert first.walk is not None and first.walk.value is first.value
    again = analyze(text, name="a.grooph.json", previous=first)
    assert again.issues == analyze(text, name="a.grooph.json").issues
    assert again.walk is not None
    # a value sharing every item with the previous analysis's: nothing is walked again
    shared = walk_document(dict(first.value), first.kind, previous=first.walk)
    assert shared.walked == 0
    assert _walked(shared) == _walked(first.walk)


@settings(max_examples=300)
@given(json_values)
def test_the_size_of_any_value_at_any_depth_is_its_share_of_the_canonical_text(x):
    """`text_size(x, 1)` is what `x` adds as a member's value (a scalar too: ids, names, numbers)."""
    from grooph_core.rules.doc_size import canonical_size, text_size

    with_x, without = canonical_size({"a": x, "b": 0}), canonical_size({"b": 0})
    size = text_size(x, 1)
    if with_x is not None:
        assert size == with_x - without - len('"a": ,\n  ')
    else:
        assert size is None


def _broken_texts(seed: int):
    """Benchmark documents cut short, with a character typed or a line deleted: the tolerant path."""
    rng = random.Random(seed)
    for make in (graph_document, map_document):
        for faults in (False, True):
            doc = make(rng.choice([2_000, 24_000]), faults=faults)
            text = doc.text
            for _ in range(8):
                at = rng.randrange(len(text))
                edit = rng.choice(["cut", "type", "drop-line"])
                if edit == "cut":
                    yield doc.name, text[:at]
                elif edit == "type":
                    yield doc.name, text[:at] + rng.choice(['"', "{", ",", "x", "]", ": 1"]) + text[at:]
                else:
                    end = text.find("\n", at)
                    yield doc.name, text[:at] + (text[end:] if end != -1 else "")


@pytest.mark.parametrize("seed", range(3))
def test_the_editors_analysis_equals_the_reference_path_on_broken_texts(seed, monkeypatch):
    """analyze() with the walk (and with the previous analysis's walk) gives the issues it gives with the
    reference functions (`schema_issues`, `unknown_key_issues`, `doc_size_issues`), tolerant path included."""
    from grooph_core.ide.grooph import analysis

    cases = list(_broken_texts(seed))
    walked = []
    previous = None
    for name, text in cases:
        a = analysis.analyze(text, name=name, previous=previous)
        walked.append(a.issues)
        previous = a
    monkeypatch.setattr(analysis, "walk_document", lambda *args: None)
    for (name, text), got in zip(cases, walked):
        assert got == analysis.analyze(text, name=name).issues, (name, len(text))


@pytest.mark.parametrize("make, kind", [(graph_document, "graph"), (map_document, "map")])
def test_a_long_list_with_items_swapped_or_replaced_in_place(make, kind):
    """A list of its old length where few places hold other objects (a keystroke in one item, two items
    swapped): the swapped items are not walked again, a replaced one is, and the findings stay in order."""
    rng = random.Random(7)
    value = json.loads(make(240_000, faults=True).text)
    walk = walk_document(value, kind)
    lists = [k for k in _lists(value, kind) if len(value[k]) >= 16]
    assert lists
    for step in range(30):
        key = rng.choice(lists)
        items = list(value[key])
        i, j = rng.sample(range(len(items)), 2)
        op = rng.choice(["swap", "replace", "replace-two", "typo"])
        if op == "swap":
            items[i], items[j] = items[j], items[i]
            new = 0
        else:
            for at in ((i, j) if op == "replace-two" else (i,)):
                item = copy.deepcopy(items[at])
                if isinstance(item, dict):
                    if op == "typo":
                        item["idd"] = item.pop("id", "x")
                    else:
                        item["id"] = rng.choice(["renamed", 5, None])
                items[at] = item
            new = 2 if op == "replace-two" else 1
        value = dict(value, **{key: items})
        walk = walk_document(value, kind, previous=walk)
        assert walk.walked == new, (step, op)
        fresh = walk_document(value, kind)
        assert _walked(walk) == _walked(fresh) and walk.size == fresh.size, (step, op)
    assert_same_as_reference(value, kind, walk)


@pytest.mark.parametrize("make", [graph_document, map_document])
def test_a_keystroke_in_one_item_walks_that_item_alone(make):
    """Through the editor's analysis and the incremental reading (json_splice): a character typed into an
    item's id walks one part; a broken text in between keeps the last clean walk."""
    doc = make(24_000, faults=True)
    text = doc.text
    first = analyze(text, name=doc.name)
    at = text.find('"id": "', len(text) // 2) + len('"id": "')
    typed = text[:at] + "x" + text[at:]
    second = analyze(typed, name=doc.name, previous=first)
    assert second.walk.walked == 1
    assert second.issues == analyze(typed, name=doc.name).issues
    broken = analyze(text[:at] + '"' + text[at:], name=doc.name, previous=second)
    fixed = analyze(typed[:at] + "y" + typed[at:], name=doc.name, previous=broken)
    assert fixed.walk.walked == 1
    assert fixed.issues == analyze(typed[:at] + "y" + typed[at:], name=doc.name).issues
