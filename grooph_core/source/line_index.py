"""Character offsets <-> (line, column) for one version of a text (LSP positions, DESIGN.md "Positions").

Lines break on `\\n`, `\\r\\n` and `\\r` only, as LSP says; U+2028, U+2029, U+0085 and form feed are
ordinary characters (Python's `str.splitlines` and pygls's `TextDocument.lines` split on them; we do
not). Columns count UTF-16 code units by default (LSP's default), or UTF-8 bytes / UTF-32 code points
for clients that negotiate them. Offsets are Python `str` indices (code points).

Built lazily per text version: a few positions are counted at C speed without any table (issue 8:
a 1M-character document with a handful of issues no longer pays for a table of every line); past
that, one C-speed pass for line starts and a binary search per lookup. Columns on ordinary lines are
measured on the line itself; the per-encoding width tables (built on first use, listing only the
characters wider than one unit, grouped in runs) serve lines longer than 4,096 characters.
"""

from __future__ import annotations

import sys
import threading

import re
from array import array
from bisect import bisect_right
from itertools import accumulate
from typing import Literal

Encoding = Literal["utf-8", "utf-16", "utf-32"]

_LINE_BREAK = re.compile(r"\r\n?|\n")

# Runs of characters that take the same number of extra units (beyond one) in an encoding.
# A lone surrogate (possible in a Python str) is 1 UTF-16 unit and 3 UTF-8 bytes (surrogatepass).
_WIDE = {
    "utf-16": (re.compile("[\U00010000-\U0010ffff]+"), None),
    "utf-8": (re.compile("([\u0080-\u07ff]+)|([\u0800-\uffff]+)|([\U00010000-\U0010ffff]+)"), (1, 2, 3)),
}


class _Widths:
    """Runs of wide characters in one encoding: char start, length, extra units per char, and the
    running total of extra units before each run (so encoded offset = char offset + extra before)."""

    __slots__ = ("starts", "lengths", "extras", "before", "enc_starts")

    def __init__(self, text: str, encoding: str):
        pattern, extras_by_group = _WIDE[encoding]
        self.starts: list[int] = []
        self.lengths: list[int] = []
        self.extras: list[int] = []
        self.before: list[int] = []
        self.enc_starts: list[int] = []
        total = 0
        for m in pattern.finditer(text):
            start, end = m.span()
            extra = 1 if extras_by_group is None else extras_by_group[m.lastindex - 1]
            self.starts.append(start)
            self.lengths.append(end - start)
            self.extras.append(extra)
            self.before.append(total)
            self.enc_starts.append(start + total)
            total += (end - start) * extra

    def encoded(self, offset: int) -> int:
        """The encoded offset (in units) of a character offset."""
        i = bisect_right(self.starts, offset) - 1
        if i < 0:
            return offset
        inside = min(offset - self.starts[i], self.lengths[i])
        return offset + self.before[i] + inside * self.extras[i]

    def decoded(self, units: int) -> int:
        """The character offset of an encoded offset; a unit inside a character maps to its start."""
        i = bisect_right(self.enc_starts, units) - 1
        if i < 0:
            return units
        width = 1 + self.extras[i]
        run_units = self.lengths[i] * width
        into = units - self.enc_starts[i]
        if into < run_units:
            return self.starts[i] + into // width
        return units - self.before[i] - self.lengths[i] * self.extras[i]


def _line_starts(text: str) -> array:
    """Offsets where each line starts, as a compact array (8 bytes a line instead of a list's ~40:
    an open 1M-character document keeps one per version). Without `\r` in the text (the usual case)
    the lengths of the `\n`-separated pieces are summed at C speed (about 2.5x faster than a Python
    step per line on a 1M-character document); otherwise one regex pass handles `\r\n` and lone `\r`."""
    if "\r" not in text:
        starts = array("q", accumulate(map(_PLUS_ONE, map(len, text.split("\n"))), initial=0))
        starts.pop()  # the sum past the last piece is len(text) + 1, not a line start
        return starts
    starts = array("q", [0])
    starts.extend(m.end() for m in _LINE_BREAK.finditer(text))
    return starts


_PLUS_ONE = (1).__add__
_ONE_Q = (1).to_bytes(8, sys.byteorder)  # a 1 in one lane of an array("q"), as it is stored


def _shifted(starts: array, delta: int) -> array:
    """`starts` with `delta` added to each, at C speed: the table read as one integer (native order) plus
    `delta` in every 64-bit lane (no lane carries: the starts and their sums are in [0, 2**63)). A
    keystroke in a 1M-character document shifts some 20,000 line starts: 0.7 ms instead of 2.2."""
    size = len(starts) * 8
    whole = int.from_bytes(starts.tobytes(), sys.byteorder)
    lanes = int.from_bytes(_ONE_Q * len(starts), sys.byteorder)
    whole = whole + lanes * delta if delta >= 0 else whole - lanes * -delta
    out = array("q")
    out.frombytes(whole.to_bytes(size, sys.byteorder))
    return out

# Positions answered by counting before the line-start table is built (a diagnostics list is short).
_COUNTED_LOOKUPS = 32
# Lines up to this many characters are measured directly instead of through a whole-text width table.
_SHORT_LINE = 4096


def _units(segment: str, encoding: str) -> int:
    """Length of a piece of one line in `encoding` units (a lone surrogate: 1 UTF-16 unit, 3 bytes)."""
    if segment.isascii():
        return len(segment)
    if encoding == "utf-16":
        return len(segment.encode("utf-16-le", "surrogatepass")) // 2
    if encoding == "utf-8":
        return len(segment.encode("utf-8", "surrogatepass"))
    raise ValueError(f"unknown position encoding {encoding!r} (utf-8, utf-16 or utf-32)")


def _chars_within(line: str, column: int, encoding: str) -> int:
    """How many characters of `line` lie before `column` units; a column inside a character gives
    that character's start, one past the end gives the line's length."""
    if line.isascii():
        return min(column, len(line))
    if encoding not in _WIDE:
        raise ValueError(f"unknown position encoding {encoding!r} (utf-8, utf-16 or utf-32)")
    units = 0
    for i, ch in enumerate(line):
        o = ord(ch)
        if encoding == "utf-16":
            w = 2 if o > 0xFFFF else 1
        else:
            w = 1 if o < 0x80 else 2 if o < 0x800 else 3 if o < 0x10000 else 4
        units += w
        if units > column:
            return i
    return len(line)


class LineIndex:
    """Offset <-> (line, column) conversion for one text; 0-based lines and columns.

    Nothing is built up front. The first few `position` calls (the diagnostics of a document with a
    few issues) count line breaks from the nearest offset already counted, at C speed, and measure
    only the line they are on; the table of line starts is built when a caller needs more (many
    positions, `offset`, line numbers), and a per-encoding width table only for lines too long to
    measure one at a time. The answers are the same either way."""

    def __init__(self, text: str):
        self.text = text
        self._built: array | None = None
        self._widths: dict[str, _Widths] = {}
        self._counted: list[tuple[int, int]] = []  # (offset, line) pairs found by counting, sorted
        self._has_cr: bool | None = None

    @property
    def _starts(self) -> array:
        if self._built is None:
            self._built = _line_starts(self.text)
        return self._built

    @property
    def line_count(self) -> int:
        """Number of lines (a text ending with a line break has an empty last line)."""
        return len(self._starts)

    def line_start(self, line: int) -> int:
        """Offset of the first character of `line` (clamped to the text's lines)."""
        starts = self._starts
        line = min(max(line, 0), len(starts) - 1)
        return starts[line]

    def line_end(self, line: int) -> int:
        """Offset just past the last character of `line`, before its line break."""
        starts = self._starts
        line = min(max(line, 0), len(starts) - 1)
        if line + 1 >= len(starts):
            return len(self.text)
        nxt = starts[line + 1]
        return nxt - 2 if self.text[nxt - 2 : nxt] == "\r\n" else nxt - 1

    def line_of(self, offset: int) -> int:
        """The 0-based line an offset lies on (offsets are clamped to the text)."""
        offset = min(max(offset, 0), len(self.text))
        return bisect_right(self._starts, offset) - 1

    def position(self, offset: int, encoding: Encoding = "utf-16") -> tuple[int, int]:
        """(line, column) of a character offset; column in units of `encoding`."""
        offset = min(max(offset, 0), len(self.text))
        if self._built is None and len(self._counted) < _COUNTED_LOOKUPS and self._no_cr():
            line, start = self._count_to(offset)
        else:
            starts = self._starts
            line = bisect_right(starts, offset) - 1
            start = starts[line]
        if encoding == "utf-32":
            return line, offset - start
        if offset - start <= _SHORT_LINE:
            return line, _units(self.text[start:offset], encoding)
        w = self._table(encoding)
        return line, w.encoded(offset) - w.encoded(start)

    def offset(self, line: int, column: int, encoding: Encoding = "utf-16") -> int:
        """Character offset of (line, column); never raises.

        A line past the end gives the end of the text, a negative line the start; a column past the
        line's end gives the line's end (before its break); a column inside a character (the second
        half of a surrogate pair, the middle of a UTF-8 sequence) gives that character's start.
        """
        if line < 0:
            return 0
        if line >= len(self._starts):
            return len(self.text)
        start = self._starts[line]
        end = self.line_end(line)
        column = max(column, 0)
        if encoding == "utf-32":
            return min(start + column, end)
        if end - start <= _SHORT_LINE:
            return start + _chars_within(self.text[start:end], column, encoding)
        w = self._table(encoding)
        base = w.encoded(start)
        if base + column >= w.encoded(end):
            return end
        return w.decoded(base + column)

    def range(self, start: int, end: int, encoding: Encoding = "utf-16") -> tuple[int, int, int, int]:
        """(start line, start column, end line, end column) of a span of offsets."""
        a = self.position(start, encoding)
        b = self.position(end, encoding)
        return a[0], a[1], b[0], b[1]

    def edited(self, start: int, end: int, inserted: str, new_text: str) -> "LineIndex":
        """The index of `new_text`, which is this text with [start, end) replaced by `inserted`.
        When this index's line table was built and neither text has a `\r`, the new table is this
        one with the edited lines spliced and the rest shifted (a keystroke in a 1M-character
        document: about 1 ms instead of re-reading the whole text); otherwise it is built lazily."""
        new = LineIndex(new_text)
        if self._built is None or not self._no_cr() or "\r" in inserted:
            return new
        starts = self._built
        keep = bisect_right(starts, start)     # lines starting at or before the edit are untouched
        after = bisect_right(starts, end)      # lines starting past the edit move by `delta`
        delta = len(inserted) - (end - start)
        table = starts[:keep]
        pos = inserted.find("\n")
        while pos >= 0:
            table.append(start + pos + 1)
            pos = inserted.find("\n", pos + 1)
        tail = starts[after:]
        table.extend(_shifted(tail, delta) if delta else tail)
        new._built = table
        new._has_cr = False
        return new

    def _no_cr(self) -> bool:
        if self._has_cr is None:
            self._has_cr = "\r" in self.text
        return not self._has_cr

    def _count_to(self, offset: int) -> tuple[int, int]:
        """(line, line start) of an offset by counting \n from the nearest offset counted before."""
        text = self.text
        counted = self._counted
        k = bisect_right(counted, (offset, len(text) + 1)) - 1
        base, line = counted[k] if k >= 0 else (0, 0)
        line += text.count("\n", base, offset)
        # copy, then assign once: an index shared by threads (the loop, the analysis and request
        # workers) never has its sorted list changed under a reader; a lost entry is only recounted
        self._counted = counted[: k + 1] + [(offset, line)] + counted[k + 1 :]
        return line, text.rfind("\n", 0, offset) + 1

    def _table(self, encoding: str) -> _Widths:
        w = self._widths.get(encoding)
        if w is None:
            if encoding not in _WIDE:
                raise ValueError(f"unknown position encoding {encoding!r} (utf-8, utf-16 or utf-32)")
            w = self._widths.setdefault(encoding, _Widths(self.text, encoding))  # first one made wins
        return w


_CELL_LOCK = threading.Lock()


def index_in(cell: list, text: str, given: LineIndex | None = None) -> LineIndex:
    """The one line index kept in `cell` (an analysis's slot, filled lazily): `given` or a new index of
    `text` when the cell is empty. Under a lock, so threads asking at once all get the same index
    (building one outside the lock is cheap: nothing is counted until asked)."""
    if cell:
        return cell[0]
    new = given if given is not None else LineIndex(text)
    with _CELL_LOCK:
        if not cell:
            cell.append(new)
        return cell[0]


def lsp_range(lines: LineIndex, span: tuple[int, int], encoding: Encoding = "utf-16") -> dict:
    """A character span as an LSP range in plain data, `{"start": {"line", "character"}, "end": …}`
    (0-based lines, columns in `encoding`): the one span-to-range conversion, used by the command
    line's reports (the JSON `range`, `--locations`, GitHub and SARIF) and by the server's types."""
    sl, sc, el, ec = lines.range(span[0], span[1], encoding)
    return {"start": {"line": sl, "character": sc}, "end": {"line": el, "character": ec}}
