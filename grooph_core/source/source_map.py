"""JSON pointer -> key / value spans, and cursor offset -> pointer (issue 3; DESIGN.md "Positions").

Spans are (start, end) character offsets into the text (Python str indices); `line_index.LineIndex`
turns them into LSP positions. The map is a tree of `Node`s, one per container, built lazily:

- over text known to be valid JSON (the whole of a valid document, or a sound subtree of a broken
  one) a node indexes its members only when a request needs them, resuming where the last request
  stopped and skipping sibling values with the C decoder; nothing is built per token up front;
- containers the tolerant reader walked through (`json_recovery`) arrive fully indexed.

A key's span includes its quotes. With duplicate keys, a pointer names the copy whose value the
parsed value holds (the last readable one), as JSON.parse keeps it.
"""

from __future__ import annotations

import threading

import json
import re
from bisect import bisect_left, bisect_right

from grooph_core.source.text import pointer_escape, pointer_split

_WS = re.compile(r"[ \t\n\r]*")
_INDEX = re.compile(r"(?:0|[1-9][0-9]*)\Z")
_scanstring = json.decoder.scanstring
_skip_value = json.JSONDecoder().scan_once  # C scanner; used only over text known to be valid JSON

# Containers at this depth or shallower (root = 1) index the containers they skip over in the same
# pass: the first request then reads each byte once, item by item (values built only to be dropped
# at once, so no garbage piles up), and later requests into a list of nodes/edges need no scan.
_INDEX_CHILDREN_UP_TO_DEPTH = 1

Span = tuple[int, int]


class Node:
    """One object or array in the text: its span and an index of its members/items in text order.

    `end` is the end of the container's span (past its closing bracket, or past its last content when
    the text never closes it); `limit` is how far a cursor still counts as inside (the cut point for
    an unclosed container). `lazy` nodes sit over valid text and index themselves on demand.
    """

    __slots__ = (
        "is_obj", "start", "end", "limit", "closed", "lazy", "complete", "scan_pos",
        "names", "kspans", "vstarts", "vends", "kids", "estarts", "index", "depth",
    )

    def __init__(self, is_obj: bool, start: int, end: int | None = None, *, lazy: bool = False, depth: int = 1):
        self.is_obj = is_obj
        self.depth = depth
        self.start = start
        self.end = end
        self.limit = end
        self.closed = True
        self.lazy = lazy
        self.complete = not lazy
        self.scan_pos = start + 1
        self.names: list[str] = []
        self.kspans: list[Span | None] = []
        self.vstarts: list[int | None] = []
        self.vends: list[int | None] = []
        self.kids: list[Node | None] = []
        self.estarts: list[int] = []
        self.index: dict[str, int] = {}

    def add_key(self, name: str, kspan: Span) -> int:
        """Record an object member's key (its value comes later, or never in broken text)."""
        i = len(self.names)
        self.names.append(name)
        self.kspans.append(kspan)
        self.vstarts.append(None)
        self.vends.append(None)
        self.kids.append(None)
        self.estarts.append(kspan[0])
        if name not in self.index:
            self.index[name] = i
        return i

    def add_item(self, vstart: int, vend: int | None, kid: Node | None = None) -> int:
        """Record an array item."""
        i = len(self.vstarts)
        self.vstarts.append(vstart)
        self.vends.append(vend)
        self.kids.append(kid)
        self.estarts.append(vstart)
        return i

    def interior(self, offset: int) -> bool:
        """A cursor at `offset` is inside the brackets (after the opener, before the closer)."""
        if offset <= self.start:
            return False
        return offset < self.end if self.closed else offset <= self.limit


class SourceMap:
    """Resolves JSON pointers to spans and cursor offsets to pointers, for one text."""

    def __init__(self, text: str, root_span: Span | None, root_node: Node | None = None):
        self.text = text
        self._root_span = root_span
        self._root_node = root_node
        # Lazy nodes index themselves on demand, appending to several lists per member; one map is
        # read from several threads (analysis and request workers, the event loop), so every walk
        # over the nodes holds this lock (re-entrant: a walk indexes nested nodes).
        self._lock = threading.RLock()

    @classmethod
    def for_valid(cls, text: str) -> SourceMap:
        """The map of a text known to be valid JSON (nothing indexed until asked)."""
        start = _WS.match(text).end()
        end = len(text)
        while end > start and text[end - 1] in " \t\n\r":
            end -= 1
        return cls(text, (start, end))

    # -- an edit inside one value (json_splice) ----------------------------------------------

    def edited_value(self, start: int, end: int) -> tuple[int, str, tuple[int, int] | None, int, int] | None:
        """Where an edit replacing [start, end) of this map's text lies strictly inside one value (its
        first and last characters left as they are) of a root object: (i, name, items, a, b) for the
        value of member i (`name` its key). When that value is an array, `items` is (j1, j2): the edit
        lies after the end of item j1 - 1 and before the start of item j2 (at least a character away
        from each), and [a, b) is the text between them (from the `[` or to the `]` at the ends); else
        `items` is None and [a, b) is the value. None when the edit touches anything else (a key, the
        space between members, the root's brackets)."""
        with self._lock:
            root = self._root()
            if root is None or not root.is_obj or not root.lazy:
                return None
            i = self._entry_at(root, start)
            if i is None:
                return None
            vs, ve = root.vstarts[i], root.vends[i]
            if vs is None or ve is None or not (vs < start and end < ve):
                return None
            kid = self._kid(root, i)
            if kid is None or kid.is_obj:
                return i, root.names[i], None, vs, ve
            if not kid.complete:
                self._extend(kid)
            j1 = bisect_left(kid.vends, start)  # the items ending before the edit's start
            j2 = bisect_right(kid.vstarts, end)  # ... and those starting after its end: from j2 on
            a = kid.vends[j1 - 1] if j1 else vs + 1
            b = kid.vstarts[j2] if j2 < len(kid.vstarts) else ve - 1
            return i, root.names[i], (j1, j2), a, b

    def edited(self, text: str, i: int, d: int, items: tuple[int, int, list[Span]] | None = None) -> SourceMap:
        """The map of `text`: this map's text with an edit inside the value of root member i (see
        `edited_value`) that left a valid text `d` characters longer; `items` (j1, j2, spans): the array's
        items j1 .. j2 - 1 became items at `spans` (offsets in `text`). The root's index is carried:
        members and items before the edit keep their nodes (shared: both maps hold one lock, as a lazy
        node indexes itself), those after it are seen `d` later (their containers' nodes below the top
        level are dropped, made again on demand), the edited value's (or new items') nodes are made
        again on demand. Every answer is a fresh map's of `text`; nothing is rescanned."""
        with self._lock:
            root = self._root_node
            new_root = _moved(root, d, i + 1, keep_kids=True)
            new_root.vends[i] += d
            if items is None:
                new_root.kids[i] = None
            else:
                j1, j2, spans = items
                kid = _moved(root.kids[i], d, j2, keep_kids=False)
                starts = [a for a, _ in spans]
                kid.vstarts[j1:j2] = starts
                kid.estarts[j1:j2] = starts
                kid.vends[j1:j2] = [b for _, b in spans]
                kid.kids[j1:j2] = [None] * len(spans)
                new_root.kids[i] = kid
        start, end = self._root_span
        out = SourceMap(text, (start, end + d), new_root)
        out._lock = self._lock
        return out

    # -- pointers -> spans -------------------------------------------------------------------

    def value_span(self, pointer: str) -> Span | None:
        """The span of the value at `pointer` ("" is the root), or None when the text has none."""
        hit = self._find(pointer)
        if hit is None:
            return None
        node, i = hit
        if node is None:
            return self._root_span
        vs = node.vstarts[i]
        return None if vs is None else (vs, node.vends[i])

    def key_span(self, pointer: str) -> Span | None:
        """The span of the key (quotes included) of the object member at `pointer`; None for the
        root, array items and pointers the text does not have."""
        hit = self._find(pointer)
        if hit is None or hit[0] is None or not hit[0].is_obj:
            return None
        return hit[0].kspans[hit[1]]

    def span(self, pointer: str, on_key: bool = False) -> Span | None:
        """The span an issue about `pointer` points at: its key when `on_key` (falling back to the
        value for array items and the root), else its value."""
        if on_key:
            ks = self.key_span(pointer)
            if ks is not None:
                return ks
        return self.value_span(pointer)

    def _find(self, pointer: str):
        """(container node, member index) of a pointer; (None, None) for the root; None if absent."""
        with self._lock:
            return self._find_locked(pointer)

    def _find_locked(self, pointer: str):
        if self._root_span is None:
            return None
        if pointer == "":
            return None, None
        if not pointer.startswith("/"):
            return None
        segments = pointer_split(pointer)
        node = self._root()
        last = len(segments) - 1
        for k, seg in enumerate(segments):
            if node is None:
                return None
            i = self._member(node, seg)
            if i is None:
                return None
            if k == last:
                return node, i
            node = self._kid(node, i)
        return None

    def _member(self, node: Node, seg: str) -> int | None:
        if node.is_obj:
            i = node.index.get(seg)
            if i is None and not node.complete:
                self._extend(node, key=seg)
                i = node.index.get(seg)
            return i
        if not _INDEX.match(seg):
            return None
        idx = int(seg)
        if idx >= len(node.vstarts) and not node.complete:
            self._extend(node, count=idx + 1)
        return idx if idx < len(node.vstarts) else None

    def _root(self) -> Node | None:
        if self._root_node is None and self._root_span is not None:
            start, end = self._root_span
            if start < end and self.text[start] in "{[":
                self._root_node = Node(self.text[start] == "{", start, end, lazy=True, depth=1)
        return self._root_node

    def _kid(self, node: Node, i: int) -> Node | None:
        kid = node.kids[i]
        if kid is None:
            vs = node.vstarts[i]
            if vs is not None and self.text[vs] in "{[":
                kid = node.kids[i] = Node(self.text[vs] == "{", vs, node.vends[i], lazy=True, depth=node.depth + 1)
        return kid

    def _extend(self, node: Node, *, key: str | None = None, count: int = 0, offset: int = -1) -> None:
        """Index more members of a lazy node (over valid JSON text only): until the member `key` is
        indexed, or `count` members are, or a member ends past `offset`, or the node is complete."""
        text = self.text
        ws = _WS.match
        names, kspans, vstarts, vends, kids, estarts, index = (
            node.names, node.kspans, node.vstarts, node.vends, node.kids, node.estarts, node.index)
        is_obj = node.is_obj
        index_kids = node.depth <= _INDEX_CHILDREN_UP_TO_DEPTH
        i = node.scan_pos
        while True:
            i = ws(text, i).end()
            c = text[i]
            if c == "}" or c == "]":
                node.complete = True
                node.scan_pos = i + 1
                return
            if c == ",":
                i = ws(text, i + 1).end()
            k = len(vstarts)
            if is_obj:
                name, ke = _scanstring(text, i + 1)
                names.append(name)
                kspans.append((i, ke))
                estarts.append(i)
                if name not in index:
                    index[name] = k
                vs = ws(text, ws(text, ke).end() + 1).end()  # past the colon
            else:
                vs = i
                estarts.append(vs)
                name = None
            vstarts.append(vs)
            if index_kids and (text[vs] == "{" or text[vs] == "["):
                kid = Node(text[vs] == "{", vs, lazy=True, depth=node.depth + 1)
                self._extend(kid)
                ve = kid.end = kid.limit = kid.scan_pos
            else:
                kid = None
                ve = _skip_value(text, vs)[1]
            vends.append(ve)
            kids.append(kid)
            i = node.scan_pos = ve
            if (key is not None and name == key) or len(vstarts) == count or ve > offset >= 0:
                return

    # -- offsets -> pointers -----------------------------------------------------------------

    def _entry_at(self, node: Node, offset: int) -> int | None:
        """The last member starting at or before `offset` (indexing a lazy node as far as needed)."""
        if node.lazy and not node.complete and (not node.vends or node.vends[-1] <= offset):
            self._extend(node, offset=offset)
        i = bisect_right(node.estarts, offset) - 1
        return i if i >= 0 else None

    def _child_pointer(self, node: Node, base: str, i: int) -> str:
        return base + "/" + (pointer_escape(node.names[i]) if node.is_obj else str(i))

    def pointer_at(self, offset: int) -> tuple[str, str]:
        """(pointer, part) of what the cursor at `offset` is on: part "key" on an object key (quotes
        included), else "value" for the innermost value containing it. A cursor right after a key
        or a scalar (at its end) still counts as on it; between members, the container is answered;
        outside the root value, ("", "value")."""
        with self._lock:
            return self._pointer_at_locked(offset)

    def _pointer_at_locked(self, offset: int) -> tuple[str, str]:
        root = self._root()
        pointer = ""
        node = root
        while node is not None:
            i = self._entry_at(node, offset)
            if i is None:
                break
            child = self._child_pointer(node, pointer, i)
            ks = node.kspans[i] if node.is_obj else None
            if ks is not None and ks[0] <= offset < ks[1]:
                return child, "key"
            vs, ve = node.vstarts[i], node.vends[i]
            if vs is not None and ve is not None and vs <= offset < ve:
                kid = self._kid(node, i)
                if kid is None:
                    return child, "value"
                node, pointer = kid, child
                continue
            # a cursor right after a key or a scalar still counts as on it
            if ks is not None and offset == ks[1]:
                return child, "key"
            if vs is not None and offset == ve and self.text[vs] not in "{[":
                return child, "value"
            break
        return pointer, "value"

    def enclosing_object(self, offset: int) -> str | None:
        """The pointer of the innermost object whose brackets contain the cursor (for completion);
        in broken text an unclosed object contains everything up to where it was cut. None when no
        object contains the cursor."""
        with self._lock:
            return self._enclosing_object_locked(offset)

    def _enclosing_object_locked(self, offset: int) -> str | None:
        node = self._root()
        if node is None or not node.interior(offset):
            return None
        pointer = ""
        found = pointer if node.is_obj else None
        while True:
            i = self._entry_at(node, offset)
            if i is None:
                return found
            kid = self._kid(node, i)
            if kid is None or not kid.interior(offset):
                return found
            pointer = self._child_pointer(node, pointer, i)
            node = kid
            if node.is_obj:
                found = pointer


def _moved(node: Node, d: int, first: int, *, keep_kids: bool, whole: bool = False) -> Node:
    """A copy of a node after an edit that changed the text's length by `d`: its members from `first` on
    lie after the edit and move by `d`, as does the node's end (and its start too when `whole`: the
    node lies after the edit). Members before `first` keep their offsets and nodes; the nodes of those
    moved are moved copies when `keep_kids` (one level: their own kids are dropped), else dropped."""
    n = Node.__new__(Node)
    n.is_obj, n.depth, n.closed, n.lazy, n.complete = node.is_obj, node.depth, node.closed, node.lazy, node.complete
    n.start = node.start + d if whole else node.start
    n.end = None if node.end is None else node.end + d
    n.limit = None if node.limit is None else node.limit + d
    n.scan_pos = node.scan_pos + d  # past the edit (the member it lies in is indexed)
    n.names = node.names[:]
    n.index = dict(node.index)
    n.kspans = node.kspans[:first] + [(a + d, b + d) for a, b in node.kspans[first:]]
    n.vstarts = node.vstarts[:first] + [x + d for x in node.vstarts[first:]]
    n.vends = node.vends[:first] + [x + d for x in node.vends[first:]]
    n.estarts = node.estarts[:first] + [x + d for x in node.estarts[first:]]
    after = node.kids[first:]
    if keep_kids:
        n.kids = node.kids[:first] + [None if k is None else _moved(k, d, 0, keep_kids=False, whole=True) for k in after]
    else:
        n.kids = node.kids[:first] + [None] * len(after)
    return n
