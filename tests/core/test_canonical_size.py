"""`canonical_size` (issue 8): the W_DOC_TOO_LARGE size computed without writing the canonical text
is exactly the UTF-16 length of `canonical_text` (graph.md §5/§6.6, map.md §6.10)."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from grooph_core.rules.doc_size import canonical_size, document_size
from grooph_core.schema.canonical import canonical_text
from grooph_core.source.text import utf16_len
from tests.conftest import fixture_files

scalars = (st.none() | st.booleans() | st.integers(min_value=-(2**70), max_value=2**70)
           | st.floats(allow_nan=False, allow_infinity=False) | st.text()
           | st.sampled_from([0.5, -0.0, 1e16, 1e21, 1e-7, 2**60, 1.0, 123456789.125, "é😀\u2028\"\\\n"]))
json_values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=30,
)


@settings(max_examples=400)
@given(json_values)
def test_size_equals_the_length_of_the_canonical_text(value):
    for kind in ("graph", "map"):
        size = canonical_size(value)
        if size is not None:
            assert size == utf16_len(canonical_text(value, kind))


def test_every_fixture_measures_as_its_canonical_text():
    files = fixture_files()
    assert files
    for path in files:
        try:
            value = json.loads(path.read_text("utf-8"))
        except ValueError:
            continue
        kind = "map" if path.name.endswith(".grooph-map.json") else "graph"
        measured = dict(value) if isinstance(value, dict) else value
        if kind == "graph" and isinstance(measured, dict):
            measured.pop("layout", None)
        assert document_size(value, kind) == utf16_len(canonical_text(measured, kind)), path.name


def test_lone_surrogates_and_scalar_roots_fall_back_to_writing_the_text():
    assert canonical_size({"a": "\ud800"}) is None
    assert canonical_size(1.5) is None
    assert document_size({"a": "\ud800"}, "map") == utf16_len(canonical_text({"a": "\ud800"}, "map"))
