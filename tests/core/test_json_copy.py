"""`copy_json` (issue 8): a deep copy of parsed JSON that operations may mutate freely."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from grooph_core.source.json_copy import copy_json

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner, max_size=4),
    max_leaves=25,
)


def _containers(v):
    if isinstance(v, dict):
        yield v
        for x in v.values():
            yield from _containers(x)
    elif isinstance(v, list):
        yield v
        for x in v:
            yield from _containers(x)


@given(json_values)
def test_copy_is_equal_with_the_same_types_and_key_order_and_shares_no_container(value):
    copied = copy_json(value)
    assert json.dumps(copied) == json.dumps(value)  # same values, same types (true is not 1), same key order
    originals = {id(c) for c in _containers(value)}
    assert not any(id(c) in originals for c in _containers(copied))


def test_mutating_the_copy_leaves_the_document_as_it_was():
    doc = json.loads('{"nodes": [{"id": "a", "outputs": ["x"]}], "layout": {"a": {"x": 1.5}}}')
    work = copy_json(doc)
    work["nodes"][0]["outputs"].append("y")
    work["layout"]["a"]["x"] = 2
    assert doc == {"nodes": [{"id": "a", "outputs": ["x"]}], "layout": {"a": {"x": 1.5}}}


def test_values_that_are_not_json_are_still_copied_deeply():
    inner = {"k": [1]}
    value = {"t": (inner,)}  # a tuple never comes from json.loads; deepcopy handles it
    copied = copy_json(value)
    assert copied == value and copied["t"][0] is not inner
