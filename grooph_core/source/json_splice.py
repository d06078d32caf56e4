"""The reading of an edited JSON text from the clean reading of the text before it (issue 33, item 2).

As you type in a 1M graph or map, a keystroke changes one item of a top-level list (a node, an edge, a
session …), but a whole re-read costs about 15 ms of CPU and every check after it runs on new objects.
`spliced(prev, text)` re-reads only what the edit changed, with the same strict reader: the items of the
top-level array it lies in between the last item before it and the first item after it (one item, when
you type inside one), or the value of the root member it lies in. The new value is a new root dict and a
new list for the edited array with the items read again in place; every other top-level member and every
other item is the very same object as in `prev.value` (the checks and rules after the reader reuse their
findings on what is the same object, `is`). Its source map carries `prev`'s index of the top level with
the offsets after the edit moved (`SourceMap.edited`).

It answers only where that is the whole reading, and returns None everywhere else (the caller then
reads the whole text):

- the text before the edit read as valid JSON without a problem (`ok`, no duplicate key, no number a
  double cannot hold), its root an object, from the fast path (a lazy source map);
- the one replacement between the two texts (`text.edited_span`: their longest common prefix, then
  suffix) lies strictly inside the value of one root member (its first and last characters, the
  brackets of an array, left as they are): not in a key, between members or at the root's brackets;
- in an array: the items ending before the edit's start and those starting after its end (each at
  least one character away from it, so a number cannot run on into the edit) are kept; the new text
  between them reads, with the strict reader from its first item on, as items and commas exactly as
  JSON's grammar has them there (after an item a comma, no comma before the `]` or after the `[`, a
  comma before the next kept item), each item one value ending before the next;
- elsewhere (an object or a scalar): the new value read from the old value's start is one value
  ending exactly where the old one ended, moved by the edit's length;
- the reader noted no duplicate key and no lossy number in what it read again (`StrictReader.suspect`),
  and nothing read again nests deeper than the whole reading allows at its level (an item is at
  level 3: the root, the list, the item).

So `}, {` typed inside an item reads as two items, an item pasted or deleted whole as such; a quote
that lets a string run past the item, a comma or bracket that breaks the list, a key typed twice: the
text is read whole (and reports what it reports).

Why that is the whole reading: JSON's grammar is context-free and the text around what is read again
is unchanged, so a value (or a run of items with their commas) replaced by another gives a valid text
that reads as the old value with that one replaced; the whole reading's checks (duplicate keys, lossy
numbers, nesting depth) are each about one place, and every place outside passed them before.
"""

from __future__ import annotations

import re

from grooph_core.source.json_reader import MAX_CHARS, MAX_DEPTH, ParsedText, parse, strict_reader
from grooph_core.source.json_strict import exceeds_depth
from grooph_core.source.source_map import SourceMap
from grooph_core.source.text import edited_span


def spliced(prev: ParsedText, text: str, *, max_depth: int = MAX_DEPTH) -> ParsedText | None:
    """The reading of `text` made from `prev` (the clean reading of an earlier text) by re-reading only
    what an edit changed (see the module docstring), or None."""
    sm = prev.source_map
    if not prev.ok or prev.problems or type(prev.value) is not dict or type(sm) is not SourceMap:
        return None
    start, old_end, new_end = edited_span(prev.text, text)
    if start == old_end == new_end:
        return None  # the same text: nothing to splice (the caller has its reading)
    where = sm.edited_value(start, old_end)
    if where is None:
        return None
    i, name, between, a, b = where
    d = new_end - old_end
    reader = strict_reader()
    root = dict(prev.value)
    if between is None:  # the value of a root member
        value = _read(reader, text, a, max_depth - 1)  # (the root is level 1)
        if value is _NOT_ONE or value[1] != b + d:
            return None
        root[name] = value[0]
        return ParsedText(root, True, (), (), sm.edited(text, i, d), text)
    old_items = root[name]
    if type(old_items) is not list:
        return None  # (never: the map said an array)
    j1, j2 = between
    got = _read_items(reader, text, a, b + d, j1 > 0, j2 < len(old_items), max_depth - 2)
    if got is None:
        return None
    values, spans = got
    root[name] = old_items[:j1] + values + old_items[j2:]
    return ParsedText(root, True, (), (), sm.edited(text, i, d, (j1, j2, spans)), text)


_NOT_ONE = object()
_WS = re.compile(r"[ \t\n\r]*")


def _read(reader, text: str, at: int, levels: int):
    """(value, end) of the one value the strict reader reads at `at`, nesting at most `levels` deep and
    with nothing it notes (a duplicate key, a lossy number); else `_NOT_ONE`."""
    try:
        value, end = reader.scan(text, at)
    except (StopIteration, ValueError, RecursionError):
        return _NOT_ONE
    if reader.suspect or ((type(value) is dict or type(value) is list) and exceeds_depth(value, levels)):
        return _NOT_ONE
    return value, end


def _read_items(reader, text: str, a: int, b: int, after_item: bool, before_item: bool, levels: int):
    """The items written in text[a:b], a stretch of an array between an item (`after_item`) or its `[`
    and an item (`before_item`) or its `]`, with their spans: ([values], [spans]), or None when the
    stretch is not items and commas as JSON's grammar has them there."""
    ws = _WS.match
    values, spans = [], []
    last = "item" if after_item else "["
    at = ws(text, a).end()
    while at < b:
        if text[at] == ",":
            if last != "item":
                return None
            last = ","
            at = ws(text, at + 1).end()
            continue
        if last == "item":
            return None  # two items with no comma between
        got = _read(reader, text, at, levels)
        if got is _NOT_ONE:
            return None
        values.append(got[0])
        spans.append((at, got[1]))
        last = "item"
        at = ws(text, got[1]).end()
    if at != b:
        return None
    if before_item and last == "item" or not before_item and last == ",":
        return None  # an item next to the one after, or a comma before the `]`
    return values, spans


def reading(text: str, *, max_chars: int = MAX_CHARS, earlier: ParsedText | None = None) -> ParsedText:
    """The reading of `text`, made from `earlier` (the clean reading of an earlier version of it) where
    `spliced` can, else read whole (`json_reader.parse`): the same reading either way."""
    if earlier is not None and len(text) <= max_chars:
        if earlier.text == text:  # an edit undone (a reading is immutable: the same one serves)
            return earlier
        found = spliced(earlier, text)
        if found is not None:
            return found
    return parse(text, max_chars=max_chars)
