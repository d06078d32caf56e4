"""Turning a change of the document's value into small text edits that leave the rest of the text
byte for byte as the user wrote it (operations.md §8.2 "The text edit sent to the editor").

- `line_edits(old, new)`: the minimal line diff between two texts (formatting: only the lines that
  change are replaced, so format-on-save is quiet).
- `value_edits(text, source_map, old_value, new_value)`: edits that rewrite only the values, members
  and items that differ between the two values; everything else keeps its bytes. The result is
  verified by parsing; when it would not give exactly `new_value`, None is returned and the caller
  falls back to a whole-document rewrite (never a wrong edit).
"""

from __future__ import annotations

import difflib
import json
import re
from dataclasses import dataclass

from grooph_core.source.text import is_number, js_number, pointer_join


@dataclass(frozen=True)
class TextEdit:
    """Replace text[start:end] (character offsets) with `text`."""

    start: int
    end: int
    text: str


_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+$")


def split_lines(text: str) -> list[str]:
    """Lines with their endings; breaks on \\n, \\r\\n and \\r only (as LSP counts lines)."""
    return _LINE.findall(text)


def apply_edits(text: str, edits: list[TextEdit]) -> str:
    """Apply non-overlapping edits (any order) to a text."""
    out = []
    pos = 0
    for e in sorted(edits, key=lambda e: (e.start, e.end)):
        out.append(text[pos:e.start])
        out.append(e.text)
        pos = e.end
    out.append(text[pos:])
    return "".join(out)


def line_edits(old: str, new: str, *, max_lines: int = 20000) -> list[TextEdit]:
    """The minimal set of whole-line replacements turning `old` into `new`.

    Small differing regions get difflib's exact matcher; large ones are first cut at lines that occur
    exactly once in both texts, in order (patience diff: an object's `"id": …` line is such an
    anchor), so formatting a 1M-character document costs milliseconds instead of difflib's quadratic
    seconds. A region with no anchor larger than `max_lines` is replaced whole."""
    if old == new:
        return []
    a, b = split_lines(old), split_lines(new)
    starts = [0]
    for line in a:
        starts.append(starts[-1] + len(line))
    return [TextEdit(starts[i1], starts[i2], "".join(b[j1:j2])) for i1, i2, j1, j2 in _changed_regions(a, b, max_lines)]


# Below this product of region lengths difflib's exact matcher is cheap (it is quadratic in the
# number of repeated lines, and a JSON document repeats `},` and `],` thousands of times).
_DIFFLIB_AREA = 250_000


def _changed_regions(a: list[str], b: list[str], max_lines: int) -> list[tuple[int, int, int, int]]:
    """(a_start, a_end, b_start, b_end) of every region that differs, in order."""
    out: list[tuple[int, int, int, int]] = []
    todo = [(0, len(a), 0, len(b))]  # a stack, regions pushed in reverse so they pop in order
    while todo:
        alo, ahi, blo, bhi = todo.pop()
        while alo < ahi and blo < bhi and a[alo] == b[blo]:
            alo += 1
            blo += 1
        while ahi > alo and bhi > blo and a[ahi - 1] == b[bhi - 1]:
            ahi -= 1
            bhi -= 1
        if alo == ahi and blo == bhi:
            continue
        if alo == ahi or blo == bhi:
            out.append((alo, ahi, blo, bhi))
            continue
        if (ahi - alo) * (bhi - blo) <= _DIFFLIB_AREA:
            sm = difflib.SequenceMatcher(None, a[alo:ahi], b[blo:bhi], autojunk=False)
            out.extend((alo + i1, alo + i2, blo + j1, blo + j2)
                       for tag, i1, i2, j1, j2 in sm.get_opcodes() if tag != "equal")
            continue
        anchors = _unique_anchors(a, b, alo, ahi, blo, bhi)
        if not anchors:
            if (ahi - alo) > max_lines or (bhi - blo) > max_lines:
                out.append((alo, ahi, blo, bhi))
            else:
                sm = difflib.SequenceMatcher(None, a[alo:ahi], b[blo:bhi], autojunk=False)
                out.extend((alo + i1, alo + i2, blo + j1, blo + j2)
                           for tag, i1, i2, j1, j2 in sm.get_opcodes() if tag != "equal")
            continue
        gaps = []
        pi, pj = alo, blo
        for i, j in anchors:
            gaps.append((pi, i, pj, j))
            pi, pj = i + 1, j + 1
        gaps.append((pi, ahi, pj, bhi))
        todo.extend(reversed(gaps))
    return out


def _unique_anchors(a: list[str], b: list[str], alo: int, ahi: int, blo: int, bhi: int) -> list[tuple[int, int]]:
    """Pairs (i, j) of lines occurring exactly once in a[alo:ahi] and once in b[blo:bhi], equal, and
    in the same order in both (the longest such chain: patience sorting)."""
    from bisect import bisect_left

    count_a: dict[str, int] = {}
    for i in range(alo, ahi):
        line = a[i]
        count_a[line] = count_a.get(line, 0) + 1
    where_b: dict[str, int] = {}
    count_b: dict[str, int] = {}
    for j in range(blo, bhi):
        line = b[j]
        if count_a.get(line) == 1:
            count_b[line] = count_b.get(line, 0) + 1
            where_b[line] = j
    pairs = [(i, where_b[a[i]]) for i in range(alo, ahi) if count_b.get(a[i]) == 1 and count_a[a[i]] == 1]
    # Longest increasing subsequence of the b positions (pairs are already in a's order).
    tails: list[int] = []  # tails[k] = smallest b position ending a chain of length k + 1
    tail_at: list[int] = []  # index into pairs of that chain's end
    back: list[int] = [-1] * len(pairs)
    for n, (_, j) in enumerate(pairs):
        k = bisect_left(tails, j)
        if k == len(tails):
            tails.append(j)
            tail_at.append(n)
        else:
            tails[k] = j
            tail_at[k] = n
        back[n] = tail_at[k - 1] if k else -1
    chain = []
    n = tail_at[-1] if tail_at else -1
    while n >= 0:
        chain.append(pairs[n])
        n = back[n]
    chain.reverse()
    return chain


def same(a: object, b: object) -> bool:
    """Equality of JSON values that does not confuse true with 1 (Python's == does).

    Decided at C speed where it can be (a quick fix compares two whole documents): values that are
    not `==` are never the same, and values whose sorted-key JSON texts are identical always are;
    only `==` values written differently (`1` and `1.0`, `true` and `1`) take the careful walk."""
    if a is b:
        return True
    if a != b:
        return False
    if type(a) is dict or type(a) is list:
        try:
            if _dumps_sorted(a) == _dumps_sorted(b):
                return True
        except (TypeError, ValueError):
            pass
    return _same(a, b)


_dumps_sorted = json.JSONEncoder(sort_keys=True, check_circular=False, ensure_ascii=True).encode


def _same(a: object, b: object) -> bool:
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b
    if is_number(a) and is_number(b):
        return a == b
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return len(a) == len(b) and all(k in b and _same(v, b[k]) for k, v in a.items())
    if isinstance(a, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    return a == b


def render(value: object, indent: str, newline: str = "\n", step: str = "  ") -> str:
    """JSON text of a value laid out like canonical text (2-space steps), starting at `indent`."""
    if isinstance(value, dict):
        if not value:
            return "{}"
        inner = indent + step
        parts = [f"{inner}{json.dumps(k, ensure_ascii=False)}: {render(v, inner, newline, step)}" for k, v in value.items()]
        return "{" + newline + ("," + newline).join(parts) + newline + indent + "}"
    if isinstance(value, list):
        if not value:
            return "[]"
        inner = indent + step
        parts = [inner + render(v, inner, newline, step) for v in value]
        return "[" + newline + ("," + newline).join(parts) + newline + indent + "]"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if value is None:
        return "null"
    if is_number(value):
        return js_number(value)
    return json.dumps(value, ensure_ascii=False)


class _Builder:
    def __init__(self, text: str, source_map):
        self.text = text
        self.sm = source_map
        self.edits: list[TextEdit] = []
        self.newline = "\r\n" if "\r\n" in text else "\n"
        self.step = self._guess_step()

    def _guess_step(self) -> str:
        m = re.search(r"\n([ \t]+)\S", self.text)
        return m.group(1) if m else "  "

    def indent_at(self, offset: int) -> str:
        line_start = max(self.text.rfind("\n", 0, offset), self.text.rfind("\r", 0, offset)) + 1
        m = re.match(r"[ \t]*", self.text[line_start:offset])
        return m.group(0) if m else ""

    def span(self, pointer: str) -> tuple[int, int]:
        s = self.sm.value_span(pointer)
        if s is None:
            raise _Unmappable(pointer)
        return s

    def replace_value(self, pointer: str, new: object) -> None:
        s, e = self.span(pointer)
        self.edits.append(TextEdit(s, e, render(new, self.indent_at(s), self.newline, self.step)))

    def diff(self, pointer: str, old: object, new: object) -> None:
        if same(old, new):
            return
        if isinstance(old, dict) and isinstance(new, dict) and old and new:
            self._diff_object(pointer, old, new)
        elif isinstance(old, list) and isinstance(new, list) and old and new:
            self._diff_array(pointer, old, new)
        else:
            self.replace_value(pointer, new)

    # Objects ---------------------------------------------------------------------------------
    def _member_spans(self, pointer: str, keys: list[str]) -> list[tuple[int, int]]:
        out = []
        for k in keys:
            p = pointer_join(pointer, k)
            ks = self.sm.key_span(p)
            vs = self.sm.value_span(p)
            if ks is None or vs is None:
                raise _Unmappable(p)
            out.append((ks[0], vs[1]))
        return out

    def _diff_object(self, pointer: str, old: dict, new: dict) -> None:
        old_keys = list(old)
        removed = [k for k in old_keys if k not in new]
        added = [k for k in new if k not in old]
        if removed and len(removed) == len(added) and all(same(old[r], new[a]) for r, a in zip(removed, added)):
            for r, a in zip(removed, added):  # renamed keys (a layout key following renameId)
                ks = self.sm.key_span(pointer_join(pointer, r))
                if ks is None:
                    raise _Unmappable(pointer)
                self.edits.append(TextEdit(ks[0], ks[1], json.dumps(a, ensure_ascii=False)))
            removed, added = [], []
        for k in old_keys:
            if k in new and not (k in removed):
                self.diff(pointer_join(pointer, k), old[k], new[k])
        if removed and len(removed) == len(old_keys) and not [k for k in new if k in old]:
            self.replace_value(pointer, new)
            return
        self._remove_entries(self._member_spans(pointer, old_keys), [old_keys.index(k) for k in removed])
        if added:
            spans = self._member_spans(pointer, old_keys)
            kept = [spans[i] for i, k in enumerate(old_keys) if k not in removed]
            anchor = kept[-1] if kept else None
            if anchor is None:
                self.replace_value(pointer, new)
                return
            ind = self.indent_at(anchor[0])
            text = "".join(
                f",{self.newline}{ind}{json.dumps(k, ensure_ascii=False)}: {render(new[k], ind, self.newline, self.step)}" for k in added
            )
            self.edits.append(TextEdit(anchor[1], anchor[1], text))

    def _remove_entries(self, spans: list[tuple[int, int]], doomed: list[int]) -> None:
        """Delete entries (members or items) with the separators that belong to them."""
        if not doomed:
            return
        doomed_set = set(doomed)
        n = len(spans)
        i = 0
        while i < n:
            if i not in doomed_set:
                i += 1
                continue
            j = i
            while j + 1 < n and (j + 1) in doomed_set:
                j += 1
            if j + 1 < n:  # a kept entry follows: delete up to its start
                self.edits.append(TextEdit(spans[i][0], spans[j + 1][0], ""))
            elif i > 0:  # the run ends the container: delete from the previous entry's end
                self.edits.append(TextEdit(spans[i - 1][1], spans[j][1], ""))
            else:
                raise _Unmappable("")  # emptied container: the caller replaces it whole
            i = j + 1

    # Arrays ----------------------------------------------------------------------------------
    def _diff_array(self, pointer: str, old: list, new: list) -> None:
        if len(old) == len(new):
            for i, (a, b) in enumerate(zip(old, new)):
                self.diff(f"{pointer}/{i}", a, b)
            return
        spans = [self.span(f"{pointer}/{i}") for i in range(len(old))]
        if len(new) < len(old):
            keep = _subsequence(old, new)
            if keep is not None:
                doomed = [i for i in range(len(old)) if i not in keep]
                self._remove_entries(spans, doomed)
                return
        elif all(same(a, b) for a, b in zip(old, new)):
            ind = self.indent_at(spans[-1][0])
            multiline = "\n" in self.text[spans[0][0]: spans[-1][1]] or len(old) == 1 and self._container_multiline(pointer)
            sep = f",{self.newline}{ind}" if multiline else ", "
            text = "".join(sep + render(v, ind, self.newline, self.step) for v in new[len(old):])
            self.edits.append(TextEdit(spans[-1][1], spans[-1][1], text))
            return
        self.replace_value(pointer, new)

    def _container_multiline(self, pointer: str) -> bool:
        s, e = self.span(pointer)
        return "\n" in self.text[s:e] or "\r" in self.text[s:e]


def _subsequence(old: list, new: list) -> set[int] | None:
    """Indices of `old` that, kept in order, give `new` (greedy), or None."""
    keep: set[int] = set()
    j = 0
    for i, item in enumerate(old):
        if j < len(new) and same(item, new[j]):
            keep.add(i)
            j += 1
    return keep if j == len(new) else None


class _Unmappable(Exception):
    pass


def value_edits(text: str, source_map, old_value: object, new_value: object) -> list[TextEdit] | None:
    """Edits that change only what differs between the values; None when they cannot be made safely."""
    b = _Builder(text, source_map)
    try:
        b.diff("", old_value, new_value)
    except _Unmappable:
        return None
    edits = b.edits
    if not _non_overlapping(edits):
        return None
    try:
        result = json.loads(apply_edits(text, edits))
    except ValueError:
        return None
    return edits if same(result, new_value) else None


def _non_overlapping(edits: list[TextEdit]) -> bool:
    last = -1
    for e in sorted(edits, key=lambda e: (e.start, e.end)):
        if e.start < last:
            return False
        last = e.end
    return True


def uses_crlf(text: str) -> bool:
    """The document's own line ending is CRLF (its first line break is one)."""
    i = text.find("\n")
    return i > 0 and text[i - 1] == "\r"
