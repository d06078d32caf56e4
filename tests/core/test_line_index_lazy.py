"""LineIndex answers the same whether a position is counted without tables, measured on its line, or
looked up in the full tables (issue 8: positions are resolved lazily)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from grooph_core.source import line_index as li_mod
from grooph_core.source.line_index import LineIndex

texts = st.lists(st.sampled_from(list("ab \n\r{}\"é设😀\u2028\ud83d") + ["\r\n"]), max_size=60).map("".join)


def _table_only(text: str, offset: int, encoding: str):
    """The answer through the full line table and the whole-text width table."""
    li = LineIndex(text)
    li._starts  # build the line table first, so nothing is counted
    saved = li_mod._SHORT_LINE
    li_mod._SHORT_LINE = -1  # no line is short: the width table answers
    try:
        return li.position(offset, encoding)
    finally:
        li_mod._SHORT_LINE = saved


@settings(max_examples=300)
@given(texts, st.data())
def test_counted_measured_and_table_positions_agree(text, data):
    offsets = data.draw(st.lists(st.integers(min_value=-2, max_value=len(text) + 2), max_size=8))
    for encoding in ("utf-16", "utf-8", "utf-32"):
        lazy = LineIndex(text)
        for off in offsets:
            assert lazy.position(off, encoding) == _table_only(text, off, encoding), (text, off, encoding)


@settings(max_examples=300)
@given(texts, st.data())
def test_offsets_measured_on_the_line_agree_with_the_width_table(text, data):
    li = LineIndex(text)
    for encoding in ("utf-16", "utf-8"):
        for _ in range(4):
            line = data.draw(st.integers(min_value=-1, max_value=li.line_count))
            column = data.draw(st.integers(min_value=-1, max_value=20))
            measured = li.offset(line, column, encoding)
            saved = li_mod._SHORT_LINE
            li_mod._SHORT_LINE = -1
            try:
                assert measured == LineIndex(text).offset(line, column, encoding), (text, line, column, encoding)
            finally:
                li_mod._SHORT_LINE = saved


def test_a_few_positions_on_a_large_text_build_no_table():
    text = ('{\n  "a": "😀",\n' * 20000) + "}\n"
    li = LineIndex(text)
    last = text.rindex('"a"')
    assert li.position(last) == (text.count("\n", 0, last), 2)
    assert li.position(5) == (1, 3)
    assert li._built is None and not li._widths
    assert li.offset(3, 10) == li.line_start(3) + 9  # 😀 is two UTF-16 units: column 10 is after it
    assert li._built is not None and not li._widths
