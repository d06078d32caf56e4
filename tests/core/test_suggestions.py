"""The one "did you mean" (graph.md §5.1): one distance (`text.osa_distance`, bit-parallel), one search
(`text.IdSuggester`; `did_you_mean` is it without a budget), one budget (`text.SUGGESTION_BUDGET`).

The oracle here is the textbook dynamic programme for the optimal-string-alignment distance, written
from the spec's words, independent of the code under test.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from grooph_core.source.text import (
    SUGGESTION_BUDGET,
    IdSuggester,
    SuggestionBudget,
    did_you_mean,
    osa_distance,
    osa_within,
    utf16_len,
)


def osa_reference(a: str, b: str) -> int:
    """Insertions, deletions, substitutions and swaps of two adjacent characters, each costing 1; no
    substring edited twice (graph.md §5.1)."""
    d = [[0] * (len(b) + 1) for _ in range(len(a) + 1)]
    for i in range(len(a) + 1):
        d[i][0] = i
    for j in range(len(b) + 1):
        d[0][j] = j
    for i in range(1, len(a) + 1):
        for j in range(1, len(b) + 1):
            d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] != b[j - 1]))
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
    return d[len(a)][len(b)]


def suggestion_reference(word: str, candidates: list[str]) -> str | None:
    limit = max(1, min(3, utf16_len(word) // 3))
    scored = [(osa_reference(word.lower(), c.lower()), n) for n, c in enumerate(candidates)]
    within = [s for s in scored if s[0] <= limit]
    return candidates[min(within)[1]] if within else None


words = st.text(alphabet=st.sampled_from(list("abcAB-1é😀")), max_size=14)
long_words = st.text(alphabet=st.sampled_from(list("ab")), min_size=60, max_size=90)


@settings(max_examples=600, deadline=None)
@given(words, words)
def test_the_distance_is_the_spec_distance(a, b):
    d = osa_reference(a, b)
    assert osa_distance(a, b) == d == osa_distance(b, a)
    for limit in range(4):
        assert osa_within(a, b, limit) == min(d, limit + 1)


@settings(max_examples=100, deadline=None)
@given(long_words, long_words)
def test_the_distance_of_words_longer_than_a_machine_word(a, b):
    assert osa_distance(a, b) == osa_reference(a, b)


def test_known_distances():
    assert osa_distance("", "") == 0 and osa_distance("", "abc") == 3 and osa_distance("abc", "") == 3
    assert osa_distance("ab", "ba") == 1  # one swap
    assert osa_distance("ca", "abc") == 3  # no substring edited twice (the unrestricted distance is 2)
    assert osa_distance("lable", "label") == 1


@settings(max_examples=600, deadline=None)
@given(words, st.lists(words, max_size=10))
def test_did_you_mean_is_the_spec_suggestion(word, candidates):
    expected = suggestion_reference(word, candidates)
    assert did_you_mean(word, candidates) == expected
    suggest = IdSuggester(candidates, SuggestionBudget())
    assert suggest(word) == expected and suggest.searched(word)
    assert suggest(word) == expected  # the cached answer


def test_one_budget_shared_by_the_suggesters_of_a_validation():
    """Past the budget every later word of any suggester sharing it gets no suggestion, and says its
    search was cut short; a word answered before keeps its answer."""
    ids = [f"node-{i}" for i in range(1000)]
    budget = SuggestionBudget(2500)
    nodes, edges = IdSuggester(ids, budget), IdSuggester(ids, budget)
    assert nodes("node-0x") == "node-0" and nodes.searched("node-0x")  # found at the first candidate
    assert nodes("zzzzzzzz") is None and nodes.searched("zzzzzzzz")  # all 1000 compared: nothing close
    assert edges("yyyyyyyy") is None and edges.searched("yyyyyyyy")  # 1000 more
    assert edges("node-999x") is None and not edges.searched("node-999x")  # the last 500 were not reached
    assert nodes("node-998x") is None and not nodes.searched("node-998x")  # the budget is shared
    assert nodes("node-0x") == "node-0"
    assert SuggestionBudget().left == SUGGESTION_BUDGET
