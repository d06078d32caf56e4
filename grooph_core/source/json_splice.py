"""The reading of an edited JSON text from the clean reading of the text before it (issue 33, item 2).

As you type in a 1M graph or map, a keystroke changes one item of a top-level list (a node, an edge, a
session …), but a whole re-read costs about 15 ms of CPU and every check after it runs on new objects.
`spliced(prev, text)` re-reads only the value the edit lies in, with the same strict reader, and puts it
in place of the old one: a new root dict, a new list for the edited list with the new item in place, and
every other top-level member and every other item the very same object as in `prev.value` (the rules
and checks after the reader reuse their findings on what is the same object, `is`). Its source map
carries `prev`'s index of the top level with the offsets after the edit moved (`SourceMap.edited`).

It answers only where that is the whole reading, and returns None everywhere else (the caller then
reads the whole text):

- the text before the edit read as valid JSON without a problem (`ok`, no duplicate key, no number a
  double cannot hold), its root an object, from the fast path (a lazy source map);
- the one replacement between the two texts (`text.edited_span`: their longest common prefix, then
  suffix) lies strictly inside one value: an item of an array that is a root member's value, else a
  root member's value, its first and last characters left as they are (so `}, {` typed inside an item
  that closes it and opens another, a quote that lets a string run past the item's end, a comma or a
  bracket at an edge changed: the value read from its start does not end where the old one did, and
  the text is read whole);
- the new value, read by the strict reader from the same start in the new text, is one value ending
  exactly where the old one ended moved by the edit's length; the reader noted no duplicate key and no
  lossy number in it (`StrictReader.suspect`); it nests no deeper than the whole reading allows at its
  level (an item is at level 3: the root, the list, the item).

Why that is the whole reading: JSON's grammar is context-free and the text around the value is
unchanged, so a value replaced by another value gives a valid text that reads as the old value with
that one replaced; the whole reading's checks (duplicate keys, lossy numbers, nesting depth) are each
about one place, and every place outside the value passed them before.
"""

from __future__ import annotations

from grooph_core.source.json_reader import MAX_CHARS, MAX_DEPTH, ParsedText, parse, strict_reader
from grooph_core.source.json_strict import exceeds_depth
from grooph_core.source.source_map import SourceMap
from grooph_core.source.text import edited_span


def spliced(prev: ParsedText, text: str, *, max_depth: int = MAX_DEPTH) -> ParsedText | None:
    """The reading of `text` made from `prev` (the clean reading of an earlier text) by re-reading the
    one value an edit lies in (see the module docstring), or None."""
    sm = prev.source_map
    if not prev.ok or prev.problems or type(prev.value) is not dict or type(sm) is not SourceMap:
        return None
    start, old_end, new_end = edited_span(prev.text, text)
    if start == old_end == new_end:
        return None  # the same text: nothing to splice (the caller has its reading)
    where = sm.edited_value(start, old_end)
    if where is None:
        return None
    i, name, j, a, b = where
    d = new_end - old_end
    reader = strict_reader()
    try:
        value, end = reader.scan(text, a)
    except (StopIteration, ValueError, RecursionError):
        return None
    if reader.suspect or end != b + d:
        return None
    level = 2 if j is None else 3  # the root is level 1
    if (type(value) is dict or type(value) is list) and exceeds_depth(value, max_depth - level + 1):
        return None
    root = dict(prev.value)
    if j is None:
        root[name] = value
    else:
        items = root[name]
        if type(items) is not list:
            return None  # (never: the map said an array)
        items = items[:]
        items[j] = value
        root[name] = items
    return ParsedText(root, True, (), (), sm.edited(text, i, j, d), text)



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
