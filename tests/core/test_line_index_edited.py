"""`LineIndex.edited` (issue 13: the server carries one line index from version to version instead of
rebuilding it per keystroke) answers exactly as an index built from the new text."""

from __future__ import annotations

import random

from grooph_core.source.line_index import LineIndex

PIECES = ["a", "é", "😀", "\n", "\n\n", "xy\nz", "", "  ", "\r\n", "\r"]


def _assert_same(got: LineIndex, text: str) -> None:
    fresh = LineIndex(text)
    assert got.text == text
    assert got.line_count == fresh.line_count
    for line in range(fresh.line_count):
        assert got.line_start(line) == fresh.line_start(line)
    for off in range(0, len(text) + 1, max(1, len(text) // 40)):
        assert got.position(off) == fresh.position(off)


def test_random_edits_keep_the_same_answers():
    rng = random.Random(13)
    for _ in range(400):
        text = "".join(rng.choice(PIECES[:6]) for _ in range(rng.randint(0, 60)))
        lines = LineIndex(text)
        lines.line_count  # the table is built: the splice path is taken
        for _ in range(5):
            start = rng.randint(0, len(text))
            end = rng.randint(start, len(text))
            inserted = "".join(rng.choice(PIECES) for _ in range(rng.randint(0, 3)))
            new_text = text[:start] + inserted + text[end:]
            lines = lines.edited(start, end, inserted, new_text)
            _assert_same(lines, new_text)
            text = new_text
            if "\r" in text:
                break


def test_an_unbuilt_index_stays_lazy():
    lines = LineIndex("a\nb\n")
    new = lines.edited(1, 1, "x\n", "ax\n\nb\n")
    assert new._built is None
    _assert_same(new, "ax\n\nb\n")
