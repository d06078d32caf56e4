"""Strict JSON reading as `JSON.parse` reads (graph.md §0.5, §9 "Parsing"), at C speed.

Python's `json` accepts `NaN`/`Infinity` and silently keeps the last of two duplicate keys; the
editor must reject the first and report the second (both copies). `StrictReader` wraps the C decoder
with hooks that only *note* a duplicate key or a number that a double cannot hold exactly, so a
valid document is read without building a Python object per token; when a note is raised, the
tolerant reader (`json_recovery`) finds the exact places.
"""

from __future__ import annotations

import json
import math
from decimal import Decimal, InvalidOperation

from grooph_core.source.text import js_number

_TWO_53 = 2**53
_MIN_NORMAL = 2.2250738585072014e-308


def reject_constant(name: str):
    """`parse_constant` hook: NaN, Infinity and -Infinity are not JSON (graph.md §0.5)."""
    raise ValueError(f"{name} is not JSON")


def int_is_lossy(value: int) -> bool:
    """True when the integer, read as a double and written back as ECMAScript writes numbers
    (graph.md §6.4), is a different number (e.g. 12345678901234567890, or 2**60 written 1152921504606847000)."""
    if -_TWO_53 <= value <= _TWO_53:
        return False
    try:
        return Decimal(js_number(value)) != value
    except InvalidOperation:  # "Infinity": beyond the double range
        return True


def float_is_lossy(literal: str, value: float) -> bool:
    """True when the double of a number literal with a fraction or exponent, written back as
    ECMAScript writes it, is a different number from the literal (`1e400`, `1e-400`, 17+ digits)."""
    if not math.isfinite(value):
        return True
    # At most 15 significant digits in the normal range always survive the round trip.
    if len(literal) <= 15 and abs(value) >= _MIN_NORMAL:
        return False
    if value == 0:
        # Zero is exact only when every digit is 0; no Decimal here, because an exponent beyond
        # Decimal's range (`1e-4009007199254740993`, typed by anyone) raises InvalidOperation.
        mantissa = literal.partition("e")[0].partition("E")[0]
        return any(c in "123456789" for c in mantissa)
    try:
        return Decimal(literal) != Decimal(js_number(value))
    except InvalidOperation:  # an exponent out of Decimal's range; a finite non-zero double differs
        return True


def precision_message(literal: str, value: int | float) -> str:
    """The W_NUMBER_PRECISION message for a literal whose double differs from what was written."""
    written = js_number(value)
    if written in ("Infinity", "-Infinity"):
        return f"the number {literal} is too large for a double; it reads as {written}"
    if written == "0":
        return f"the number {literal} is too small for a double; it reads as 0"
    return f"the number {literal} cannot be held exactly by a double; it reads as {written}"


class StrictReader:
    """The C JSON decoder with JSON.parse's rules: constants rejected, duplicate keys and lossy
    numbers noted in `suspect` (the value is still built, last duplicate winning at the first
    key's position, as JSON.parse does)."""

    def __init__(self) -> None:
        note = [False]
        self._note = note

        def pairs(p):
            d = dict(p)
            if len(d) != len(p):
                note[0] = True
            return d

        def parse_int(s):
            v = int(s)
            if len(s) > 15 and int_is_lossy(v):
                note[0] = True
            return v

        def parse_float(s):
            v = float(s)
            if float_is_lossy(s, v):
                note[0] = True
            return v

        self.decoder = json.JSONDecoder(
            object_pairs_hook=pairs, parse_int=parse_int, parse_float=parse_float, parse_constant=reject_constant
        )
        self._scan_once = self.decoder.scan_once

    @property
    def suspect(self) -> bool:
        """A duplicate key or a lossy number was seen since the last read."""
        return self._note[0]

    def loads(self, text: str):
        """The value of a whole text (raises ValueError/RecursionError as json.loads does)."""
        self._note[0] = False
        return self.decoder.decode(text)

    def scan(self, text: str, start: int):
        """(value, end) of the one JSON value starting at `start` (raises StopIteration when none
        starts there, ValueError when it is broken, RecursionError when too deep)."""
        self._note[0] = False
        return self._scan_once(text, start)


_PLAIN = json.JSONDecoder(parse_constant=reject_constant)


def loads(text: str):
    """The value of a whole text as JSON.parse reads it, without the notes of `StrictReader` (the
    command line's strict reading, which accepts duplicate keys and lossy numbers as JSON.parse
    does): about twice as fast. Raises ValueError/RecursionError as json.loads does."""
    return _PLAIN.decode(text)


def exceeds_depth(value: object, limit: int) -> bool:
    """True when containers nest more than `limit` levels (the root container is level 1).

    Walks containers level by level without recursion; strings and numbers are only type-checked.
    """
    level = [value] if type(value) is dict or type(value) is list else []
    depth = 0
    while level:
        depth += 1
        if depth > limit:
            return True
        nxt: list = []
        for x in level:
            for y in (x.values() if type(x) is dict else x):
                if type(y) is dict or type(y) is list:
                    nxt.append(y)
        level = nxt
    return False
