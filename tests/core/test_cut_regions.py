"""Tolerant analysis of text with many cut regions (issue 9, found by the long fuzzed session).

A pasted or half-deleted block can leave thousands of cut regions and thousands of structural findings;
deciding which findings echo a cut must follow each pointer's depth, not regions × findings (a
122,000-character text took 10 s). The prefix lookup must mean exactly "the region or inside it".
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from grooph_core.ide.grooph.analysis import _inside_any, analyze

segments = st.sampled_from(["a", "b", "", "0", "12", "a~1b", "~0", "nodes"])
pointers = st.lists(segments, max_size=5).map(lambda s: "".join("/" + x for x in s))


@settings(max_examples=500, deadline=None)
@given(pointers, st.sets(pointers, max_size=6))
def test_inside_a_region_means_the_region_or_below_it(pointer, regions):
    regions.discard("")
    expected = any(pointer == r or pointer.startswith(r + "/") for r in regions)
    assert _inside_any(pointer, regions) == expected


def test_thousands_of_cut_values_have_no_echoes():
    """3,000 stop nodes whose `outcome` is a half-typed literal: every value is a cut region, and the
    structural finding on each (an outcome that is not one of the values) is an echo of the cut, so
    none is reported; the syntax faults are."""
    node = '{"id": "n%d", "kind": "stop", "name": "N", "outcome": tru}'
    text = ('{"grooph": 0, "id": "g", "name": "G", "version": 1, "nodes": ['
            + ", ".join(node % i for i in range(3000)) + '], "edges": [], "loops": []}')
    analysis = analyze(text, name="g.grooph.json")
    assert len(analysis.parsed.broken) >= 3000
    assert [i for i in analysis.issues if i.code == "E_SYNTAX"]
    assert not [i for i in analysis.issues if i.code == "E_SCHEMA" and i.pointers[0].endswith("/outcome")]
