"""Numbers, escaping, the frame and the primitive elements of every picture (pictures.md §1.1–§1.3, §1.6).

Attribute order is part of the format: it keeps pictures byte-identical run to run and is what tests
parse. Colours are palette names (§1.4); the `Pen` writes them in its theme's form.
"""

from __future__ import annotations

import math
import re

from grooph_core.picture.measure import Weight, width
from grooph_core.picture.theme import FONT, MONO_FONT, Theme
from grooph_core.source.text import js_number


def fmt(x: float) -> str:
    """pictures.md §1.1: round to one decimal as ECMAScript `Math.round(x*10)/10` (halves up), `-0` as 0."""
    if not math.isfinite(x):
        # Never written by a correct layout; fail loudly rather than emit NaN into a picture.
        raise ValueError(f"a picture coordinate is not a finite number: {x!r}")
    r = math.floor(x * 10 + 0.5) / 10
    if r == 0:
        return "0"
    if 1e-4 <= abs(r) < 1e15:
        # In this range Python's repr is ECMAScript's shortest form too (no exponent); only `.0` differs.
        s = repr(r)
        return s[:-2] if s.endswith(".0") else s
    return js_number(r)


# Characters XML 1.0 does not allow anywhere, not even as a character reference (§2.2 "Char"): C0
# controls but tab, LF and CR; lone surrogates (a Python str can hold them); U+FFFE and U+FFFF.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def xml_chars(s: str) -> str:
    """Our reading where pictures.md §1.2 and §8 are silent (issue 9): a character that XML cannot
    hold at all (a NUL, an ESC, a lone surrogate a JSON escape can make) becomes U+FFFD, so a picture
    stays a well-formed SVG that any viewer opens and that can be written as UTF-8."""
    return _NOT_XML.sub("\ufffd", s) if not s.isascii() or _NOT_XML.search(s) else s


def esc(s: str) -> str:
    """pictures.md §1.2: `&`, `<`, `>`, `"` escaped, ampersand first; nothing else (but `xml_chars`)."""
    return xml_chars(s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;"))


def frame(kind: str, w: float, h: float, title: str, theme: Theme, body: str) -> str:
    """pictures.md §1.3: root, title, (auto) style block, background, body, one final newline."""
    W, H = fmt(w), fmt(h)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="grooph-picture" data-picture="{kind}" '
        f'viewBox="0 0 {W} {H}" width="{W}" height="{H}" role="img" font-family="{FONT}">'
        f"<title>{esc(title)}</title>{theme.style_block()}"
        f'<rect x="0" y="0" width="{W}" height="{H}" style="fill:{theme("bg")}"/>{body}</svg>\n'
    )


class Pen:
    """Writes the primitive elements of §1.6 with colours in one theme."""

    def __init__(self, theme: Theme):
        self.c = theme

    def text(self, x: float, y: float, size: float, s: str, colour: str, *, bold: bool = False,
             mono: bool = False, anchor: str | None = None) -> str:
        """A text line; `y` is the baseline; the text is escaped."""
        out = f'<text x="{fmt(x)}" y="{fmt(y)}" font-size="{fmt(size)}"'
        if mono:
            out += f' font-family="{MONO_FONT}"'
        if bold:
            out += ' font-weight="700"'
        if anchor in ("middle", "end"):
            out += f' text-anchor="{anchor}"'
        return out + f' style="fill:{self.c(colour)}">{esc(s)}</text>'

    def rect(self, x: float, y: float, w: float, h: float, *, fill: str | None = None,
             stroke: str | None = None, stroke_width: float = 1, rx: float = 0, dash: str | None = None,
             mark: str | None = None) -> str:
        """A rectangle; `mark` is `card` or `row` (written `data-card=""` / `data-row=""`)."""
        out = "<rect"
        if mark:
            out += f' data-{mark}=""'
        out += f' x="{fmt(x)}" y="{fmt(y)}" width="{fmt(w)}" height="{fmt(h)}"'
        if rx:
            out += f' rx="{fmt(rx)}"'
        if stroke:
            out += f' stroke-width="{fmt(stroke_width)}"'
        if dash:
            out += f' stroke-dasharray="{dash}"'
        out += f' style="fill:{self.c(fill) if fill else "none"}'
        if stroke:
            out += f";stroke:{self.c(stroke)}"
        return out + '"/>'

    def pill(self, x: float, y: float, size: float, s: str, *, fill: str, ink: str,
             stroke: str | None = None, stroke_width: float = 1, bold: bool = True) -> str:
        """Text in a rounded box, left edge at x, baseline at y (§1.6)."""
        w = pill_width(s, size, bold)
        h = 1.55 * size
        return (self.rect(x, y - 1.08 * size, w, h, fill=fill, stroke=stroke, stroke_width=stroke_width, rx=h / 2)
                + self.text(x + w / 2, y, size, s, ink, bold=bold, anchor="middle"))

    def circle(self, cx: float, cy: float, r: float, *, fill: str | None = None, stroke: str | None = None,
               stroke_width: float | None = None, dash: str | None = None, mark: str | None = None,
               raw_r: str | None = None) -> str:
        """A circle; a filled dot, or a ring when it has a stroke."""
        out = "<circle"
        if mark:
            out += f' data-{mark}=""'
        out += f' cx="{fmt(cx)}" cy="{fmt(cy)}" r="{raw_r or fmt(r)}"'
        if stroke and fill is None:
            out += ' fill="none"'
        if stroke_width is not None:
            out += f' stroke-width="{fmt(stroke_width)}"'
        if dash:
            out += f' stroke-dasharray="{dash}"'
        style = []
        if fill is not None:
            style.append(f"fill:{self.c(fill)}")
        if stroke:
            style.append(f"stroke:{self.c(stroke)}")
        return out + f' style="{";".join(style)}"/>'

    def line(self, d: str, colour: str, stroke_width: float, dash: str | None = None) -> str:
        """An open stroked path (`fill="none"`, round caps), in a carrier's or an edge's style."""
        out = f'<path d="{d}" fill="none" stroke-width="{fmt(stroke_width)}" stroke-linecap="round"'
        if dash:
            out += f' stroke-dasharray="{dash}"'
        return out + f' style="stroke:{self.c(colour)}"/>'

    def shape(self, d: str, fill: str) -> str:
        """A filled path (an arrowhead)."""
        return f'<path d="{d}" style="fill:{self.c(fill)}"/>'


def pill_width(s: str, size: float, bold: bool = True) -> float:
    """A pill's width: the text's width plus 0.55·size of padding each side (§1.6)."""
    weight: Weight = "bold" if bold else "regular"
    return width(s, size, weight) + 2 * 0.55 * size


def pt(x: float, y: float) -> str:
    """A point in path data: `x,y`."""
    return f"{fmt(x)},{fmt(y)}"
