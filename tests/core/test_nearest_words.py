"""`text.nearest_words` (the "other targets" of a misspelt reference's quick fixes, operations.md
`E_DANGLING_REF`) gives exactly what sorting every candidate by `osa_distance` gives: same words,
same order (ties by candidate order), the skipped word left out."""

from __future__ import annotations

import random

from grooph_core.source.text import nearest_words, osa_distance


def _plain(word: str, candidates: list[str], k: int, skip: str | None) -> list[str]:
    ranked = sorted(range(len(candidates)), key=lambda i: (osa_distance(word.lower(), candidates[i].lower()), i))
    return [candidates[i] for i in ranked if candidates[i] != skip][:k]


def test_matches_the_plain_sort_on_random_ids():
    rng = random.Random(13)
    alphabet = "abcdeT-1é"
    for _ in range(3000):
        pool = list(dict.fromkeys("".join(rng.choice(alphabet) for _ in range(rng.randint(0, 9)))
                                  for _ in range(rng.randint(0, 30))))
        word = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 9)))
        skip = rng.choice(pool) if pool and rng.random() < 0.5 else None
        k = rng.randint(0, 5)
        assert nearest_words(word, pool, k, skip=skip) == _plain(word, pool, k, skip), (word, pool, k, skip)


def test_ties_keep_document_order_and_case_is_ignored():
    assert nearest_words("test-2", ["test-0", "TEST-2", "test-1", "tset-2"], 2) == ["TEST-2", "test-0"]
