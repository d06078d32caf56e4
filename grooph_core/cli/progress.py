"""A progress line on the terminal (`Checking 40 of 212 documents`), on stderr and only when stderr is
a terminal: never in a pipe, a file or a CI log. Output lines written meanwhile clear it first, so it
never mixes with them; it is redrawn at most ten times a second and erased at the end."""

from __future__ import annotations

import os
import sys
import time
from typing import TextIO

CLEAR = "\r\x1b[2K"  # back to the line's start, erase the line
REDRAW_EVERY = 0.1  # seconds


def wanted(stream: TextIO) -> bool:
    """A progress line helps only a person watching a terminal that understands `\\r` and erasing."""
    try:
        return stream.isatty() and os.environ.get("TERM") != "dumb"
    except (AttributeError, ValueError):
        return False


class Progress:
    """Counts done out of `total`; `write` prints an output line past the progress line."""

    def __init__(self, total: int, *, stream: TextIO | None = None, what: str = "documents"):
        self.total = total
        self.what = what
        self.stream = stream if stream is not None else sys.stderr
        self.on = total > 1 and wanted(self.stream)
        self.shown = False
        self.last = float("-inf")

    def update(self, done: int) -> None:
        if not self.on:
            return
        now = time.monotonic()
        if now - self.last < REDRAW_EVERY:
            return
        self.last = now
        self.stream.write(f"{CLEAR}Checking {done} of {self.total} {self.what}")
        self.stream.flush()
        self.shown = True

    def clear(self) -> None:
        if self.shown:
            self.stream.write(CLEAR)
            self.stream.flush()
            self.shown = False

    def write(self, out: TextIO, text: str) -> None:
        """Write output text (whole lines) to `out` with the progress line out of its way."""
        self.clear()
        out.write(text)
        if self.on and out is not self.stream:
            out.flush()  # stdout and stderr may share the terminal: keep the order a person sees
