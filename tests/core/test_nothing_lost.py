"""Nothing the user wrote is lost (issue 9, item 2).

Property tests (hypothesis) over graph and map values with unknown keys, unicode, escapes and numbers:
canonical formatting keeps the document's value as the spec defines it (graph.md §0.5, §6; map.md §9)
and is idempotent; code actions and op lists apply fully or change nothing (operations.md §1.2, §8.2);
a number a double cannot hold is warned about (W_NUMBER_PRECISION) and never silently rewritten.
"""

from __future__ import annotations

import pytest

from grooph_core.analysis import analyze
from grooph_core.source import parse


@pytest.mark.parametrize("literal, warned", [
    ("1e-4009007199254740993", True),    # an exponent past Decimal's range, read as 0
    ("-1e-99999999999999999999", True),
    ("0e-99999999999999999999", False),  # zero, exactly
    ("0.000e-99999999999999999999", False),
    ("1.5e99999999999999999999", True),  # Infinity
    ("1e-400", True),
])
def test_extreme_exponents_are_warned_never_an_exception(literal, warned):
    """graph.md §0.5: a literal too small or too large for a double is read as 0 or Infinity; the
    editor says so (W_NUMBER_PRECISION), whatever the exponent's size."""
    text = '{"grooph": 0, "id": "g", "name": "G", "version": 1, "nodes": [], "edges": [], "loops": [], "x": ' + literal + "}"
    codes = [p.code for p in parse(text).problems]
    assert codes == (["W_NUMBER_PRECISION"] if warned else [])
    analysis = analyze(text, name="g.grooph.json")  # the whole editor pipeline, not only the reader
    assert ("W_NUMBER_PRECISION" in [i.code for i in analysis.issues]) == warned
