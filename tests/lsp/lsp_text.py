"""A document as an LSP client holds it, written independently of the server's `LineIndex`.

LSP (3.17, "Text Documents"): lines end at `\\n`, `\\r\\n` or `\\r` only (U+2028, U+0085, form feed are
ordinary characters); columns count UTF-16 code units; a column past the line's end is not a place
in the line; a position between the two halves of a surrogate pair is not a place in the text.
The fuzzed session judges every range the server sends against this model of the text.
"""

from __future__ import annotations

import re

_BREAK = re.compile(r"\r\n|\r|\n")


def utf16_len(s: str) -> int:
    """UTF-16 code units of a str (a lone surrogate is one unit)."""
    return len(s.encode("utf-16-le", "surrogatepass")) // 2


def _is_high(ch: str) -> bool:
    return "\ud800" <= ch <= "\udbff"


def _is_low(ch: str) -> bool:
    return "\udc00" <= ch <= "\udfff"


class LspText:
    """One version of a document: line starts by LSP's rules; offsets are Python str indices."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.starts = [0]
        self.ends = []
        for m in _BREAK.finditer(text):
            self.ends.append(m.start())
            self.starts.append(m.end())
        self.ends.append(len(text))

    @property
    def line_count(self) -> int:
        return len(self.starts)

    def line(self, n: int) -> str:
        return self.text[self.starts[n]:self.ends[n]]

    def problem(self, pos: object) -> str | None:
        """Why `pos` is not a place in this text, or None when it is one."""
        if not (isinstance(pos, dict) and isinstance(pos.get("line"), int) and isinstance(pos.get("character"), int)):
            return f"not a position: {pos!r}"
        line, col = pos["line"], pos["character"]
        if line < 0 or col < 0:
            return f"negative position {line}:{col}"
        if line >= self.line_count:
            return f"line {line} is past the last line ({self.line_count - 1})"
        text = self.line(line)
        width = utf16_len(text)
        if col > width:
            return f"column {col} is past the end of line {line} ({width} UTF-16 units)"
        units = text.encode("utf-16-le", "surrogatepass")
        if 0 < col < width:
            before = units[2 * col - 2:2 * col].decode("utf-16-le", "surrogatepass")
            after = units[2 * col:2 * col + 2].decode("utf-16-le", "surrogatepass")
            if _is_high(before) and _is_low(after):
                return f"column {col} of line {line} splits a surrogate pair"
        return None

    def past_the_end(self, pos: object) -> bool:
        """`pos` is the start of the line after the last one, which an edit's end may name: the LSP's
        "end position denoting the start of the next line", here the end of a text without a final line
        break (Neovim then reads the edit as ending the file, not as adding a line)."""
        return isinstance(pos, dict) and pos.get("line") == self.line_count and pos.get("character") == 0

    def range_problem(self, rng: object, *, edit: bool = False) -> str | None:
        """Why `rng` is not a range inside this text (start and end places, start <= end), or None. An
        `edit` range may end at the start of the line after the last (`past_the_end`)."""
        if not (isinstance(rng, dict) and "start" in rng and "end" in rng):
            return f"not a range: {rng!r}"
        for side in ("start", "end"):
            if edit and side == "end" and self.past_the_end(rng[side]):
                continue
            p = self.problem(rng[side])
            if p is not None:
                return f"{side}: {p}"
        s, e = rng["start"], rng["end"]
        if (s["line"], s["character"]) > (e["line"], e["character"]):
            return f"start {s['line']}:{s['character']} is after end {e['line']}:{e['character']}"
        return None

    def position(self, offset: int) -> dict:
        """The LSP position of a str offset (which must not fall between `\\r` and `\\n`)."""
        lo, hi = 0, len(self.starts) - 1
        while lo < hi:  # the last line start <= offset
            mid = (lo + hi + 1) // 2
            if self.starts[mid] <= offset:
                lo = mid
            else:
                hi = mid - 1
        col = utf16_len(self.text[self.starts[lo]:min(offset, self.ends[lo])])
        return {"line": lo, "character": col}

    def offset(self, pos: dict) -> int:
        """The str offset of a valid LSP position (the start of the line after the last: the text's end)."""
        if self.past_the_end(pos):
            return len(self.text)
        start = self.starts[pos["line"]]
        text = self.line(pos["line"])
        col = pos["character"]
        if utf16_len(text) == len(text):  # no character outside the BMP on this line
            return start + col
        units = 0
        for i, ch in enumerate(text):
            if units >= col:
                return start + i
            units += 2 if ord(ch) > 0xFFFF else 1
        return start + len(text)

    def between_cr_lf(self, offset: int) -> bool:
        """An offset inside a `\\r\\n` pair has no LSP position."""
        return 0 < offset < len(self.text) and self.text[offset - 1] == "\r" and self.text[offset] == "\n"
