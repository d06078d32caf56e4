"""The reading of an edited YAML text from the reading of the text before it (issue 24).

As you type in a 1M workflow, a keystroke changes one entry of one block mapping (a status under
`statuses`), but a whole re-read costs over half a second of CPU. `spliced(prev, text)` re-reads only the
entry the edit lies in and puts it in place of the old one: its value, its source-map node, its scalars as
written; the members after it keep their nodes, seen through `shifted` (their spans moved by the edit's
length, without copying them). It answers only where that is the whole reading, and returns None
everywhere else (the caller then reads the whole text):

- the text before the edit read without a problem, and the entry alone reads without one;
- the edit lies within one entry of a block mapping that is the value of a top-level key: from the
  line start of its key up to the line start of the next entry's key (the last entry: up to the end of
  its value's line), and the edited entry still ends at a line break;
- the entry alone reads as one mapping of exactly one key at the entry's column, not a key any other
  entry has; neither copy of it holds `&` or `*` (an anchor or alias may tie it to the rest of the text)
  or a line break of a lone carriage return; nothing it holds ends in its trailing blank or comment
  lines (an empty value last in the entry, `key:`, is marked where the next token starts: in the whole
  text, the next entry), and the entry before it does not end in one either (it is marked at this
  entry's first token, which the edit may change); it has no line starting with `---` or `...` (the
  document's end in the whole text) and no block scalar that keeps its trailing line breaks (`|+`: it
  owns the blank lines after the entry, outside the piece of the last entry);
- the document still holds no more than `max_values` values (the reading counts them: `values`).

Why that is the whole reading: the lines after the entry are unchanged and start with a key at the
mapping's column (or a shallower line), which ends every block node the entry opened, so nothing the
entry holds can read differently in the whole text; and the whole text's first problem would be in the
entry (the rest read without one before).
"""

from __future__ import annotations

import re
from array import array
from bisect import bisect_right

from grooph_core.source.json_reader import ParsedText
from grooph_core.source.text import edited_span
from grooph_core.source.yaml_reader import MAX_VALUES, Scalar, YamlSourceMap, YNode, open_at_end, offsets_code

Span = tuple[int, int]

# `---` or `...` at a line's start ends the document in the whole text, not in the entry read alone
_DOCUMENT_MARK = re.compile(r"^(?:---|\.\.\.)(?=[ \t\r\n]|$)", re.M)
# a block scalar that keeps its trailing line breaks (`|+`, `>2+`) owns the blank lines after it
_KEEP_CHOMPING = re.compile(r"[|>][1-9]?\+")


class ShiftedSpans:
    """A node's member spans seen `d` characters later (the `Spans` interface)."""

    __slots__ = ("_spans", "_d")

    def __init__(self, spans, d: int) -> None:
        self._spans = spans
        self._d = d

    def __len__(self) -> int:
        return len(self._spans)

    def __getitem__(self, i: int) -> Span:
        a, b = self._spans[i]
        return a + self._d, b + self._d

    def __iter__(self):
        d = self._d
        return ((a + d, b + d) for a, b in self._spans)

    def starts(self) -> array:
        d = self._d
        return array("q", [a + d for a in self._spans.starts()])

    def __eq__(self, other: object) -> bool:
        return list(self) == list(other) if hasattr(other, "starts") else NotImplemented

    __hash__ = None  # type: ignore[assignment]


class ShiftedNode:
    """A `YNode` of an earlier version seen `d` characters later: the members after an edit keep their
    nodes (what a 1M text's keystroke would otherwise copy: 31,000 nodes, about 120 ms)."""

    __slots__ = ("base", "d")

    def __init__(self, base, d: int) -> None:
        self.base = base
        self.d = d

    is_obj = property(lambda self: self.base.is_obj)
    start = property(lambda self: self.base.start + self.d)
    end = property(lambda self: self.base.end + self.d)
    names = property(lambda self: self.base.names)
    index = property(lambda self: self.base.index)
    built_index = property(lambda self: self.base.built_index)
    scalars = property(lambda self: self.base.scalars)
    kspans = property(lambda self: ShiftedSpans(self.base.kspans, self.d))
    vspans = property(lambda self: ShiftedSpans(self.base.vspans, self.d))
    kids = property(lambda self: [shifted(k, self.d) for k in self.base.kids])

    @property
    def spans(self) -> array:
        d = self.d
        spans = self.base.spans
        return array(spans.typecode, [x + d for x in spans])

    @property
    def items(self) -> tuple:
        d = self.d
        return tuple(moved(x, d) for x in self.base.items)

    @property
    def lost(self) -> list[tuple]:
        return [(n, v, shifted(k, self.d), s) for n, v, k, s in self.base.lost]

    @property
    def complex(self) -> list[tuple[Span, str]]:
        return [((a + self.d, b + self.d), kind) for (a, b), kind in self.base.complex]

    def count(self) -> int:
        return self.base.count()

    def key(self, i: int) -> str:
        return self.base.names[i]

    def find(self, name: str) -> int | None:
        return self.base.find(name)

    def kspan(self, i: int) -> Span:
        a, b = self.base.kspan(i)
        return a + self.d, b + self.d

    def vspan(self, i: int) -> Span:
        a, b = self.base.vspan(i)
        return a + self.d, b + self.d

    def kid(self, i: int):
        return shifted(self.base.kid(i), self.d)

    def scalar_at(self, i: int):
        return self.base.scalar_at(i)

    def starts(self) -> array:
        d = self.d
        starts = self.base.starts()
        return array(starts.typecode, [a + d for a in starts])


def moved(item, d: int):
    """A member of a node (`YNode.items`) seen `d` characters later: a child node shifted, a scalar as it is."""
    return item if item is None or type(item) is Scalar else shifted(item, d)


def shifted(node, d: int):
    """`node` seen `d` characters later (None stays None; a shifted node is shifted once, not twice)."""
    if node is None or d == 0:
        return node
    if type(node) is ShiftedNode:
        return ShiftedNode(node.base, node.d + d) if node.d + d else node.base
    return ShiftedNode(node, d)


def _line_start(text: str, i: int) -> int:
    return text.rfind("\n", 0, i) + 1


def _is_block(text: str, node) -> bool:
    return node is not None and node.is_obj and text[node.start:node.start + 1] not in ("{", "[")


def spliced(prev: ParsedText, text: str, read_piece, max_values: int = MAX_VALUES) -> ParsedText | None:
    """The reading of `text` made from `prev` (the reading of an earlier text) by re-reading one entry
    (see the module docstring), or None. `read_piece(piece)` reads a text alone (the reader itself, so
    both read alike): (ParsedText of it) with its offsets from the piece's start."""

    old = prev.text
    if offsets_code(len(text)) != offsets_code(len(old)):
        return None  # (never: the offsets of every text the editor reads fit 4 bytes)
    root = getattr(prev.source_map, "root", None)
    if prev.problems or not prev.ok or type(prev.value) is not dict or root is None or not _is_block(old, root):
        return None
    if root.lost or root.complex:
        return None
    p, old_end, new_end = edited_span(old, text)
    if p == old_end == new_end:
        return None  # the same text: nothing to splice (the caller has its reading)
    i = _member(root, p)
    if i is None:
        return None
    group = root.kid(i)
    if not _is_block(old, group) or group.lost or group.complex or len(group.names) < 2:
        return None
    j = _member(group, p)
    if j is None:
        return None
    key_at = group.kspan(j)[0]
    a = _line_start(old, key_at)
    column = key_at - a
    if old[a:key_at].strip(" ") or p < a:
        return None
    last = j + 1 == len(group.names)
    if last:
        end_at = old.find("\n", group.vspan(j)[1])
        if end_at < 0:
            return None
        b = end_at + 1
    else:
        next_at = group.kspan(j + 1)[0]
        b = _line_start(old, next_at)
        if old[b:next_at].strip(" "):
            return None
    if old_end > b or b <= a:
        return None
    if j > 0 and group.vspan(j - 1)[1] >= a:
        return None  # the entry before ends in an empty value, marked at this entry's first token
    d = new_end - old_end
    b_new = b + d
    if text[b_new - 1:b_new] != "\n":
        return None
    piece, was = text[a:b_new], old[a:b]
    if "&" in piece or "*" in piece or "&" in was or "*" in was:
        return None
    if piece.count("\r") != piece.count("\r\n") or was.count("\r") != was.count("\r\n"):
        return None  # a line break of a lone CR (the lines here are found by their LF)
    if _DOCUMENT_MARK.search(piece) or _KEEP_CHOMPING.search(piece):
        return None
    got = read_piece(piece)
    if got is None or got.problems or not got.ok or type(got.value) is not dict or len(got.value) != 1:
        return None
    proot = got.source_map.root
    if proot is None or not proot.is_obj or len(proot.names) != 1 or proot.lost or proot.complex:
        return None
    if proot.end > len(piece.rstrip()):
        return None  # an empty value last in the entry: its mark is where the next token starts, outside it
    name = proot.names[0]
    ks = proot.kspan(0)
    if ks[0] - _line_start(piece, ks[0]) != column:
        return None
    renamed = name != group.names[j]
    if renamed and group.find(name) is not None:
        return None

    # the mapping of entries, with entry j read anew and those after it moved by d
    ks, vs = proot.kspan(0), proot.vspan(0)
    names = group.names if not renamed else (*group.names[:j], name, *group.names[j + 1:])
    items = group.items
    items = (*items[:j], moved(proot.items[0], a), *(moved(x, d) for x in items[j + 1:]))
    spans = _spans_with(group.spans, j, (ks[0] + a, ks[1] + a, vs[0] + a, vs[1] + a), d)
    spans[0] = spans[2]  # a block mapping starts at its first key
    end = spans[-1] if last else group.end + d
    spans[1] = max(end, spans[-3])
    g = YNode(True, spans, 0, names, items, None if renamed else group.built_index)

    rspans = _spans_with(root.spans, i, (*root.kspan(i), g.start, g.end), d)
    rspans[1] = root.end + d if i + 1 < len(root.names) else max(g.end, rspans[-3])
    r = YNode(True, rspans, 0, root.names, (*root.items[:i], g, *(moved(x, d) for x in root.items[i + 1:])),
              root.built_index)

    gname = root.names[i]
    entries = prev.value[gname]
    if type(entries) is not dict:
        return None
    (piece_value,) = got.value.values()
    values = prev.source_map.values - _values_in(entries[group.names[j]]) + got.source_map.values - 1
    if values > max_values:
        return None  # the whole reading says the document is too large (E_DOC_LIMIT)
    if renamed:
        old_name = group.names[j]
        entries = {(name if k == old_name else k): (piece_value if k == old_name else v) for k, v in entries.items()}
    else:
        entries = dict(entries)
        entries[name] = piece_value
    value = dict(prev.value)
    value[gname] = entries
    span = prev.source_map.root_span
    root_span = (span[0], r.end) if span is not None else None  # a block mapping's span is its members'
    return ParsedText(value, True, (), (), YamlSourceMap(text, root_span, r, values), text, open_at_end(text, r))


def _values_in(v) -> int:
    """How many values `v` holds, itself included, as the reader counts them (a mapping's keys are not)."""
    n, stack = 0, [v]
    while stack:
        x = stack.pop()
        n += 1
        if type(x) is dict:
            stack.extend(x.values())
        elif type(x) is list:
            stack.extend(x)
    return n


def _member(node, offset: int) -> int | None:
    k = bisect_right(node.starts(), offset) - 1
    return k if k >= 0 else None


def _spans_with(spans: array, j: int, at_j: tuple, d: int) -> array:
    """A mapping's `YNode.spans` with member `j`'s four offsets replaced by `at_j` and the members' after
    it moved by `d` (its own start and end are left as they were)."""
    at = 2 + 4 * j
    code = spans.typecode
    return spans[:at] + array(code, at_j) + array(code, [x + d for x in spans[at + 4:]])
