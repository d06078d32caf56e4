"""LineIndex: offsets <-> LSP positions (issue 3 item 1; DESIGN.md "Positions").

Lines break on \\n, \\r\\n and \\r only; columns are UTF-16 code units by default, or UTF-8 bytes /
UTF-32 code points when the client negotiates them.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from grooph_core.source.line_index import LineIndex


def test_line_breaks_are_lf_crlf_and_cr_only():
    text = "a\nb\r\nc\rd\u2028e\u2029f\x0cg\x85h"
    li = LineIndex(text)
    assert li.line_count == 4
    assert li.position(text.index("b")) == (1, 0)
    assert li.position(text.index("c")) == (2, 0)
    assert li.position(text.index("d")) == (3, 0)
    # U+2028, U+2029, form feed and NEL are ordinary characters on line 3
    assert li.position(text.index("h")) == (3, 8)
    assert li.offset(3, 8) == text.index("h")


def test_crlf_counts_as_one_break_and_line_end_excludes_it():
    text = "ab\r\ncd\r\n"
    li = LineIndex(text)
    assert li.line_count == 3
    assert li.line_end(0) == 2
    assert li.position(4) == (1, 0)
    assert li.offset(0, 99) == 2  # clamped before the \r\n
    assert li.offset(2, 0) == len(text)


def test_utf16_columns_count_surrogate_pairs_as_two():
    text = '😀设"x"'
    li = LineIndex(text)
    x = text.index('"x"')
    assert li.position(x) == (0, 3)  # 😀 is 2 UTF-16 units, 设 is 1
    assert li.position(x, "utf-8") == (0, 7)  # 4 + 3 bytes
    assert li.position(x, "utf-32") == (0, 2)
    assert li.offset(0, 3) == x
    assert li.offset(0, 7, "utf-8") == x
    assert li.offset(0, 2, "utf-32") == x


def test_a_column_inside_a_character_maps_to_its_start():
    text = "😀a"
    li = LineIndex(text)
    assert li.offset(0, 1) == 0  # second half of the surrogate pair
    assert li.offset(0, 2, "utf-8") == 0  # inside the 4-byte sequence
    assert li.offset(0, 4, "utf-8") == 1


def test_offset_never_raises_and_clamps():
    li = LineIndex("ab\ncd")
    assert li.offset(-1, 5) == 0
    assert li.offset(7, 0) == 5
    assert li.offset(0, -3) == 0
    assert li.offset(1, 100) == 5
    assert li.position(-10) == (0, 0)
    assert li.position(999) == (1, 2)


def test_empty_text_has_one_line():
    li = LineIndex("")
    assert li.line_count == 1
    assert li.position(0) == (0, 0)
    assert li.offset(0, 0) == 0


def test_lone_surrogate_in_a_python_string_is_one_utf16_unit_and_three_utf8_bytes():
    text = "\ud800x"
    li = LineIndex(text)
    assert li.position(1) == (0, 1)
    assert li.position(1, "utf-8") == (0, 3)


def _reference(text: str, offset: int, encoding: str) -> tuple[int, int]:
    """Position by brute force: split on the three breaks, measure the prefix of the line."""
    line, start, i = 0, 0, 0
    while i < offset:
        if text[i] == "\r" and i + 1 < len(text) and text[i + 1] == "\n":
            if i + 1 < offset:
                line, start, i = line + 1, i + 2, i + 2
                continue
            i += 1
            continue
        if text[i] in "\r\n":
            line, start = line + 1, i + 1
        i += 1
    prefix = text[start:offset]
    if encoding == "utf-32":
        return line, len(prefix)
    if encoding == "utf-16":
        return line, len(prefix.encode("utf-16-le", "surrogatepass")) // 2
    return line, len(prefix.encode("utf-8", "surrogatepass"))


_ALPHABET = st.sampled_from(["a", "\n", "\r", "\r\n", "é", "设", "😀", "\u2028", "\x0c", "\ud800", "\x85", "\t"])


@settings(max_examples=300, deadline=None)
@given(st.lists(_ALPHABET, max_size=40).map("".join), st.sampled_from(["utf-8", "utf-16", "utf-32"]))
def test_positions_match_a_brute_force_reference_and_round_trip(text, encoding):
    li = LineIndex(text)
    for offset in range(len(text) + 1):
        pos = li.position(offset, encoding)
        assert pos == _reference(text, offset, encoding)
        between_cr_lf = 0 < offset < len(text) and text[offset - 1] == "\r" and text[offset] == "\n"
        if not between_cr_lf:
            assert li.offset(*pos, encoding) == offset
