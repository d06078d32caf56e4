"""pictures.md §1.1, §1.2, §1.5, §1.7: numbers, escaping, measuring, truncating, wrapping, packing."""

from grooph_core.picture.measure import truncate, width, wrap
from grooph_core.picture.svg import esc, fmt
from grooph_core.picture.tracks import pack


def test_width_check_values_of_section_1_5():
    assert abs(width("local", 9.5, "bold") - 25.705) < 0.001
    assert abs(width("Worker", 10, "bold") - 42.68) < 0.01


def test_width_of_other_characters_and_mono():
    # `→` is 1000/1000 em, CJK above U+2E80 is 1000, anything else unlisted 650 regular / 720 bold
    assert width("\u2192", 10) == 10 * 1.03
    assert width("\u4e2d", 10) == 10 * 1.03
    assert abs(width("\u00e9", 10) - 6.5 * 1.03) < 1e-9
    assert abs(width("\u00e9", 10, "bold") - 7.2 * 1.03) < 1e-9
    # mono counts UTF-16 units: an emoji is two
    assert width("ab", 10, "mono") == 2 * 10 * 0.62
    assert width("\U0001f600", 10, "mono") == 2 * 10 * 0.62


def test_fmt_rounds_halves_up_like_math_round():
    assert fmt(12.0) == "12"
    assert fmt(12.25) == "12.3"
    assert fmt(-0.25) == "-0.2"     # toward +infinity, not away from zero
    assert fmt(-0.04) == "0"        # -0 is written 0
    assert fmt(0.05) == "0.1"
    assert fmt(124.25) == "124.3"   # the worked example's h-menu start
    assert fmt(1e-7) == "0"


def test_escape_order_ampersand_first():
    assert esc('a & <b> "c"') == "a &amp; &lt;b&gt; &quot;c&quot;"
    assert esc("&lt;") == "&amp;lt;"
    assert esc("it's") == "it's"


def test_truncate_cuts_whole_code_points_and_trims_before_the_ellipsis():
    assert truncate("short", 100, 11) == "short"
    cut = truncate("a very long line of words", 60, 11)
    assert cut.endswith("\u2026") and width(cut, 11) <= 60
    assert not cut[:-1].endswith(" ")
    emoji = truncate("\U0001f600" * 20, 40, 11)
    assert emoji.endswith("\u2026") and all(c == "\U0001f600" for c in emoji[:-1])


def test_wrap_fills_greedily_and_puts_leftovers_on_the_last_line():
    caption = ("as of 2027-01-15 \u00b7 2 lanes \u00b7 3 sessions (6 counting families) \u00b7 1 person \u00b7 "
               "6 handoffs, 1 waiting on a person")
    assert wrap(caption, 376, 11, 2) == [
        "as of 2027-01-15 \u00b7 2 lanes \u00b7 3 sessions (6 counting families) \u00b7 1",
        "person \u00b7 6 handoffs, 1 waiting on a person",
    ]
    lines = wrap("one two three four five six seven eight", 60, 11, 2)
    assert len(lines) == 2 and lines[1].endswith("\u2026")
    assert wrap("   ", 100, 11, 3) == [""]
    assert wrap("averyveryverylongwordwithoutspaces", 50, 11, 3)[0].endswith("\u2026")


def test_wrap_width_may_depend_on_the_line():
    lines = wrap("aaa bbb ccc ddd", lambda i: 25 if i == 0 else 200, 11, 3)
    assert lines == ["aaa", "bbb ccc ddd"]


def test_pack_short_inside_long_and_touching_counts():
    tracks, n = pack([(0, 10), (2, 3), (10, 20), (30, 40)])
    # (2,3) is shortest and takes track 0; (0,10) goes round it; (10,20) does not touch (2,3)
    assert tracks == [1, 0, 0, 0] and n == 2
    tracks, n = pack([(0, 5), (6, 9)], gap=0)
    assert tracks == [0, 0] and n == 1
    tracks, n = pack([(0, 5), (6, 9)], gap=6)  # within the gap: the shorter keeps the inner track
    assert tracks == [1, 0] and n == 2
    tracks, n = pack([(5, 0), (0, 5)])  # direction does not matter; equal spans stack in input order
    assert tracks == [0, 1]
