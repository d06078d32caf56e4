"""Measuring, truncating and wrapping text without a browser (pictures.md §1.5).

One width estimate, made for about DejaVu Sans (the widest sans a picture is likely to meet), decides
every wrap and every cut, so a line said to fit does fit on a Mac, a phone and a bare Linux machine.
"""

from __future__ import annotations

from typing import Callable, Literal, Union

from grooph_core.source.text import JS_WHITESPACE, WHITESPACE_RUN, js_trim, utf16_len

Weight = Literal["regular", "bold", "mono"]

# pictures.md §1.5: advances in thousandths of an em for code points 32..126.
_REGULAR = (
    352, 394, 459, 818, 636, 1076, 727, 269, 454, 454, 636, 818, 364, 454, 364, 454,
    636, 636, 636, 636, 636, 636, 636, 636, 636, 636, 454, 454, 818, 818, 818, 556,
    1015, 684, 686, 722, 771, 667, 611, 778, 751, 421, 500, 693, 557, 843, 748, 787,
    667, 787, 722, 684, 616, 732, 684, 989, 685, 667, 685, 454, 454, 454, 818, 636,
    636, 601, 623, 521, 623, 596, 352, 623, 633, 274, 344, 592, 274, 973, 633, 607,
    623, 623, 427, 521, 394, 633, 592, 818, 592, 592, 525, 635, 454, 635, 818,
)
_BOLD = (
    342, 402, 587, 867, 711, 1272, 862, 332, 543, 543, 711, 867, 361, 480, 361, 689,
    711, 711, 711, 711, 711, 711, 711, 711, 711, 711, 402, 402, 867, 867, 867, 617,
    975, 776, 762, 724, 830, 683, 650, 811, 837, 546, 556, 771, 637, 948, 847, 850,
    733, 850, 782, 710, 682, 812, 764, 1128, 764, 737, 692, 543, 689, 543, 867, 711,
    711, 668, 699, 588, 699, 664, 422, 699, 712, 342, 403, 671, 342, 1058, 712, 687,
    699, 699, 497, 593, 456, 712, 650, 980, 669, 651, 597, 711, 543, 711, 867,
)
# The ten other characters with their own advances: (regular, bold).
_OTHER = {
    "\u00b7": (364, 361), "\u2192": (1000, 1000), "\u00d7": (818, 867), "\u2026": (1000, 1049),
    "\u2014": (1000, 1000), "\u2013": (636, 711), "\u2019": (269, 332), "\u2018": (269, 332),
    "\u201c": (459, 587), "\u201d": (459, 587),
}
assert len(_REGULAR) == 95 and len(_BOLD) == 95

ELLIPSIS = "\u2026"


def _advance(ch: str, bold: bool) -> int:
    cp = ord(ch)
    if 32 <= cp <= 126:
        return (_BOLD if bold else _REGULAR)[cp - 32]
    other = _OTHER.get(ch)
    if other is not None:
        return other[1 if bold else 0]
    if cp > 0x2E80:
        return 1000
    return 720 if bold else 650


def width(text: str, size: float, weight: Weight = "regular") -> float:
    """The estimated advance of `text` at `size` units (pictures.md §1.5)."""
    if weight == "mono":
        return utf16_len(text) * size * 0.62
    bold = weight == "bold"
    total = 0
    for ch in text:
        total += _advance(ch, bold)
    return total / 1000 * size * 1.03


def truncate(text: str, w: float, size: float, weight: Weight = "regular") -> str:
    """The text when it fits `w`, else cut (one code point at a time, §13.2) and ended with `…`."""
    if width(text, size, weight) <= w:
        return text
    s = text
    while len(s) > 1 and width(s + ELLIPSIS, size, weight) > w:
        s = s[:-1]
    return s.rstrip(JS_WHITESPACE) + ELLIPSIS


LineWidth = Union[float, Callable[[int], float]]


def wrap(text: str, w: LineWidth, size: float, max_lines: int, weight: Weight = "regular") -> list[str]:
    """Greedy word wrap to at most `max_lines` lines; leftovers join the last line, which is then cut.

    `w` is a width or a function of the line index (the first line of a family's name is shorter).
    Always at least one line (`[""]` for no words).
    """
    at = w if callable(w) else (lambda _i, _w=w: _w)
    trimmed = js_trim(text)
    words = WHITESPACE_RUN.split(trimmed) if trimmed else []
    lines: list[str] = []
    i = 0
    while i < len(words) and len(lines) < max_lines:
        line = words[i]
        i += 1
        limit = at(len(lines))
        while i < len(words):
            joined = line + " " + words[i]
            if width(joined, size, weight) > limit:
                break
            line = joined
            i += 1
        lines.append(line)
    if not lines:
        return [""]
    if i < len(words):
        lines[-1] = lines[-1] + " " + " ".join(words[i:])
    return [truncate(line, at(k), size, weight) for k, line in enumerate(lines)]
