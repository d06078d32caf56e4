"""YAML text -> value + source map + syntax problems, with exact positions (spec/workflow.md §0, §1).

The YAML counterpart of `json_reader.parse`: `parse_yaml(text)` returns the same `ParsedText` (value, ok,
problems, source map) and never raises on any `str`. It reads YAML 1.2 through ruamel.yaml's composed
node tree (marks for every key and scalar): `on`, `off`, `yes`, `no` are strings; anchors and aliases are
resolved; a merge key `<<` is an ordinary key (the engine does not merge). The value is built from the
nodes here, not by ruamel's constructor, so a duplicated key is found (not silently overwritten) and
keys are the scalars' own text (`1:` is the key "1", as serde reads a string key).

Codes (registry in `issues.py`), each carrying its span as `Issue.span`:

| code | when | points at |
|---|---|---|
| `E_SYNTAX` | the parser's complaint | the parser's mark (one character where it names a wrong one, else empty) |
| `E_SYNTAX` | a second document (`---`) | the start of the second document |
| `W_DUPLICATE_KEY` | a key repeated in one mapping (the last copy is kept; a struct's copies are the engine's error, rules/serde_shape) | each copy's key, related: the first (or the kept) |
| `E_SYNTAX` | an alias inside its own anchor | the anchored node |

A list or a mapping used as a key is left out of the value and kept in `YNode.complex`: serde refuses it
where it reads the mapping (rules/serde_shape), and not inside a value it skips.
| `E_DOC_LIMIT` | too long, nested too deep, or aliases expanding past `max_values` values | empty span at 0, or the mark |

`YamlSourceMap` answers the same questions as `source_map.SourceMap` (`value_span`, `key_span`, `span`,
`pointer_at`, `enclosing_object`), with the spans of workflow.md §0: a scalar with its quotes, a key, a
flow collection bracket to bracket, a block collection from its first item to the end of its last.
"""

from __future__ import annotations

import re
from array import array
import sys
import warnings
from bisect import bisect_right
from dataclasses import dataclass, replace

from ruamel.yaml import YAML
from ruamel.yaml.docinfo import DocInfo, version
from ruamel.yaml.error import MarkedYAMLError, YAMLError
from ruamel.yaml.nodes import ScalarNode
from ruamel.yaml.reader import Reader

from grooph_core.issues import Facts, Issue, make
from grooph_core.source import yaml_engine_rules, yaml_libyaml
from grooph_core.source.json_reader import MAX_CHARS, MAX_DEPTH, ParsedText, collector_paused
from grooph_core.source.source_map import SourceMap
from grooph_core.source.serde_scalars import YAML_TAG, resolve_plain, resolve_tagged
from grooph_core.source.text import pointer_escape, pointer_split

# Aliases can make a small text stand for a huge value (a "billion laughs"); past this many values the
# document is not analysed.
MAX_VALUES = 1_000_000

Span = tuple[int, int]


@dataclass(frozen=True)
class YamlSyntax(Facts):
    """E_SYNTAX of the YAML parser's own complaint: its `marks` (the offsets of the context and the
    problem, or None), from which the tolerant reading finds the lines to leave out, and once it has,
    `cut`, the spans it blanked (their content is in doubt: the editor holds findings in them back)."""

    code = "E_SYNTAX"
    marks: tuple[int | None, ...]
    cut: tuple[Span, ...] = ()


def _marks(issue: Issue) -> tuple[int | None, ...] | None:
    """The parser's marks of a complaint, None for the reader's own problems (a second document…)."""
    return issue.facts.marks if isinstance(issue.facts, YamlSyntax) else None


def _fault_marks(issue: Issue) -> tuple[int | None, ...]:
    """The marks of a complaint in the order the recovery looks for the faulty line, the second being
    the problem's: the context first (the half-typed key, the unclosed bracket), except where the
    context is the block mapping a wrongly indented entry broke out of (its first key), not the entry, or
    the plain scalar a tab indenting the next line broke into (the tab's line is the fault)."""
    marks = _marks(issue)
    if issue.message.startswith(("expected <block end>", "found a tab character that violates indentation")):
        return (marks[1], marks[1])
    return marks

_INDEX = re.compile(r"(?:0|[1-9][0-9]*)\Z")
_TAG = YAML_TAG


@dataclass(frozen=True, slots=True)
class Scalar:
    """A scalar as written, for the engine's reading of it (serde_scalars): its `text` (a quoted one
    unquoted), whether it is `plain`, and its `tag` (resolved for an untagged one; `!x` as written)."""

    text: str
    plain: bool
    tag: str


class Spans:
    """A read-only view of a node's key or value spans, (start, end) tuples read out of the node's one
    flat array of offsets (`_Node.buf`: 4 bytes an offset instead of a tuple of two ints, about 110;
    issue 24). `first` is where member 0's span stands in it, `stride` the offsets a member takes."""

    __slots__ = ("_offsets", "_first", "_stride", "_n")

    def __init__(self, offsets: array, first: int, stride: int, n: int) -> None:
        self._offsets = offsets
        self._first = first
        self._stride = stride
        self._n = n

    def __len__(self) -> int:
        return self._n

    def __getitem__(self, i: int) -> Span:
        n = self._n
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError(i)
        at = self._first + self._stride * i
        return self._offsets[at], self._offsets[at + 1]

    def __iter__(self):
        a = self._first
        end = a + self._stride * self._n
        return zip(self._offsets[a:end:self._stride], self._offsets[a + 1:end:self._stride])

    def starts(self) -> array:
        a = self._first
        return self._offsets[a:a + self._stride * self._n:self._stride]

    def __eq__(self, other: object) -> bool:
        return list(self) == list(other) if hasattr(other, "starts") else NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Spans({list(self)})"


def offsets_code(length: int) -> str:
    """The array type of a text's offsets: 4 bytes while they fit (every text the editor or the command
    line reads: 5M and 64 MiB characters at most)."""
    return "i" if length < 2**31 else "q"


_STR_TAG = YAML_TAG + "str"


# a mapping of more members than this keeps a dict from key to member; a smaller one is searched
_SEARCHED_UP_TO = 8


class _Node:
    """What every node of a reading answers (a mapping's or a sequence's spans, keys and members), read
    from `buf[at:]`: the node's start and end, then per member its key's start and end and its value's
    (a mapping), or its value's (a sequence). The nodes are `TableNode` (the reader's) and `YNode` (a
    node `yaml_splice` builds), with `is_obj`, `buf`, `at`, `names`, `_index`, `count`, `kid`, `scalar_at`.

    - `names`: the keys in text order (a tuple of strings; () for a sequence); a key written twice has a
      member per copy, and `find` gives its last copy (the one a map keeps, workflow.md §0);
    - per member its child collection (`kid`), or its scalar as written (`scalar_at`, a `Scalar`), or
      neither (a recursive alias);
    - `lost` and `complex` (earlier copies of a duplicated key, keys that are collections): () but on
      the rare node that has them.

    `spans`, `kspans`, `vspans`, `kids`, `scalars`, `items` and `index` are views of these, for the
    reader's callers."""

    __slots__ = ()

    _INDEXED = _SEARCHED_UP_TO

    @property
    def start(self) -> int:
        return self.buf[self.at]

    @property
    def end(self) -> int:
        return self.buf[self.at + 1]

    @property
    def spans(self) -> array:
        """The node's offsets (start, end, its members'), a copy."""
        at = self.at
        return self.buf[at:at + 2 + (4 if self.is_obj else 2) * self.count()]

    def key(self, i: int) -> str:
        """The key of a mapping's member `i` (a duplicated key has a member per copy)."""
        return self.names[i]

    def find(self, name: str) -> int | None:
        """The member of a mapping's key (its last copy), or None."""
        index = self._index
        if index is not None:
            return index.get(name)
        names = self.names
        return names.index(name) if name in names else None  # no duplicate here: it would have an index

    def kspan(self, i: int) -> Span:
        at = self.at + 2 + 4 * i
        buf = self.buf
        return buf[at], buf[at + 1]

    def vspan(self, i: int) -> Span:
        at = self.at + (4 + 4 * i if self.is_obj else 2 + 2 * i)
        buf = self.buf
        return buf[at], buf[at + 1]

    def starts(self) -> array:
        """The members' start offsets (their keys' in a mapping), for a bisection."""
        at, n = self.at + 2, self.count()
        return self.buf[at:at + 4 * n:4] if self.is_obj else self.buf[at:at + 2 * n:2]

    @property
    def kspans(self) -> Spans:
        return Spans(self.buf, self.at + 2, 4, self.count() if self.is_obj else 0)

    @property
    def vspans(self) -> Spans:
        n = self.count()
        return Spans(self.buf, self.at + 4, 4, n) if self.is_obj else Spans(self.buf, self.at + 2, 2, n)

    @property
    def kids(self) -> list:
        return [self.kid(i) for i in range(self.count())]

    @property
    def scalars(self) -> list:
        return [self.scalar_at(i) for i in range(self.count())]

    @property
    def index(self) -> dict[str, int]:
        return self._index if self._index is not None else _index_of(self.names)

    @property
    def built_index(self) -> dict[str, int] | None:
        """The key index when the node keeps one (a large mapping), else None: a node made from this one
        with the same names shares it (yaml_splice)."""
        return self._index


class _Table:
    """The collections of one reading, as flat tables rather than an object per collection (a 1M
    workflow has 31,000 collections and 130,000 members; issue 33 item 3): per node (numbered in the
    order they close) where its offsets stand in `buf`, its first member, its member count, its keys
    and whether it is a mapping; per member one number in `kids`: its child node (>= 0), or -1 - the
    place of its `Scalar` in `scalars` (each one once; `scalars[0]` is None: no scalar either). A
    collection of scalars only shares the member rows of an equal one read before (`{target: x}`,
    `[reviewer]` repeat). The rare node with a key index, lost copies or complex keys has it in a dict."""

    __slots__ = ("buf", "at", "first", "n", "names", "keys", "obj", "kids", "scalars", "index", "odd")

    def __init__(self, code: str) -> None:
        self.buf = array(code)  # every node's offsets
        self.at = array(code)
        self.first = array(code)
        self.n = array(code)
        self.names = array(code)  # per node its keys' place in `keys`
        self.keys: list[tuple] = [()]  # the reading's distinct tuples of keys (a list's: ())
        self.obj = bytearray()
        self.kids = array(code)
        self.scalars: list = [None]  # the reading's distinct scalars (a 1M workflow: 6,500 for 46,000 members)
        self.index: dict[int, dict[str, int]] = {}
        self.odd: dict[int, tuple[list, list]] = {}  # node -> (lost, complex)

    def fit(self) -> None:
        """Drop the room the tables grew into (a list or an array over-allocates as it grows)."""
        for name in ("buf", "at", "first", "n", "names", "keys", "kids", "scalars"):
            setattr(self, name, getattr(self, name)[:])


class TableNode(_Node):
    """The reader's node `k` of a reading's `_Table`: a view, made when asked for (two references)."""

    __slots__ = ("t", "k")

    def __init__(self, t: _Table, k: int) -> None:
        self.t = t
        self.k = k

    @property
    def is_obj(self) -> bool:
        return self.t.obj[self.k] == 1

    @property
    def buf(self) -> array:
        return self.t.buf

    @property
    def at(self) -> int:
        return self.t.at[self.k]

    @property
    def names(self) -> tuple:
        t = self.t
        return t.keys[t.names[self.k]]

    @property
    def _index(self) -> dict[str, int] | None:
        return self.t.index.get(self.k)

    @property
    def lost(self) -> list:
        """Earlier copies of a duplicated key: (name, value, node, scalar)."""
        odd = self.t.odd.get(self.k)
        return odd[0] if odd is not None else ()

    @property
    def complex(self) -> list:
        """Keys that are a list or a mapping: (span, "sequence" | "map")."""
        odd = self.t.odd.get(self.k)
        return odd[1] if odd is not None else ()

    def count(self) -> int:
        return self.t.n[self.k]

    def kid(self, i: int):
        t = self.t
        c = t.kids[t.first[self.k] + i]
        return None if c < 0 else TableNode(t, c)

    def scalar_at(self, i: int) -> Scalar | None:
        t = self.t
        c = t.kids[t.first[self.k] + i]
        return None if c >= 0 else t.scalars[-1 - c]

    @property
    def items(self) -> tuple:
        """Per member its child node, or its `Scalar`, or None."""
        t, m = self.t, self.t.first[self.k]
        scalars = t.scalars
        return tuple(scalars[-1 - c] if c < 0 else TableNode(t, c) for c in t.kids[m:m + t.n[self.k]])


class YNode(_Node):
    """A node with its own parts (`yaml_splice` builds them: a mapping whose member was re-read):
    `buf[at:]` its offsets, `items` per member its child node, its `Scalar`, or None."""

    __slots__ = ("is_obj", "buf", "at", "names", "items", "_index")
    lost: tuple | list = ()
    complex: tuple | list = ()

    def __init__(self, is_obj: bool, buf: array, at: int, names: tuple, items: tuple, index: dict | None = None):
        self.is_obj = is_obj
        self.buf = buf
        self.at = at
        self.names = names
        self.items = items
        self._index = index if index is not None or len(names) <= self._INDEXED else _index_of(names)

    def count(self) -> int:
        return len(self.items)

    def kid(self, i: int):
        x = self.items[i]
        return None if x is None or type(x) is Scalar else x

    def scalar_at(self, i: int) -> Scalar | None:
        x = self.items[i]
        return x if type(x) is Scalar else None


def _index_of(names) -> dict[str, int]:
    """key -> its last copy's member."""
    return {n: i for i, n in enumerate(names)}


class YamlSourceMap:
    """Resolves JSON pointers to spans and cursor offsets to pointers, for one YAML text."""

    def __init__(self, text: str, root_span: Span | None, root: YNode | None = None, values: int = 0):
        self.text = text
        self._root_span = root_span
        self._root = root
        self.values = values  # how many values the reading holds, aliases expanded (`max_values` bounds it)

    @property
    def root(self) -> YNode | None:
        """The node of the document's top-level collection (None for a scalar or no document)."""
        return self._root

    @property
    def root_span(self) -> Span | None:
        """The span of the document's value (None when the text has none)."""
        return self._root_span

    # -- pointers -> spans -------------------------------------------------------------------

    def value_span(self, pointer: str) -> Span | None:
        """The span of the value at `pointer` ("" is the root), or None when the text has none."""
        hit = self._find(pointer)
        if hit is None:
            return None
        node, i = hit
        return self._root_span if node is None else node.vspan(i)

    def key_span(self, pointer: str) -> Span | None:
        """The span of the key of the mapping member at `pointer`; None for the root, list items and
        pointers the text does not have."""
        hit = self._find(pointer)
        if hit is None or hit[0] is None or not hit[0].is_obj:
            return None
        return hit[0].kspan(hit[1])

    span = SourceMap.span  # its key when `on_key` (falling back to the value), else its value

    def first_key_span(self, pointer: str) -> Span | None:
        """The span of the first key of the mapping at `pointer`, or None when it has none."""
        node = self.node(pointer)
        if node is None or not node.is_obj or not node.names:
            return None
        return node.kspan(0)

    def scalar(self, pointer: str) -> Scalar | None:
        """How the scalar at a pointer was written (its text, style and tag), or None for a collection
        or a pointer the text does not have."""
        hit = self._find(pointer)
        if hit is None or hit[0] is None:
            return None
        return hit[0].scalar_at(hit[1])

    def node(self, pointer: str) -> YNode | None:
        """The node at a pointer (its key and value spans, its members), or None where the text has none."""
        if pointer == "":
            return self._root
        hit = self._find(pointer)
        return None if hit is None or hit[0] is None else hit[0].kid(hit[1])

    def _find(self, pointer: str):
        """(container, member index) of a pointer; (None, None) for the root; None if absent."""
        if self._root_span is None:
            return None
        if pointer == "":
            return None, None
        if not pointer.startswith("/"):
            return None
        node = self._root
        segments = pointer_split(pointer)
        for k, seg in enumerate(segments):
            if node is None:
                return None
            if node.is_obj:
                i = node.find(seg)
            else:
                i = int(seg) if _INDEX.match(seg) and int(seg) < node.count() else None
            if i is None:
                return None
            if k == len(segments) - 1:
                return node, i
            node = node.kid(i)
        return None

    # -- offsets -> pointers -----------------------------------------------------------------

    def pointer_at(self, offset: int) -> tuple[str, str]:
        """(pointer, part) of what the cursor is on: "key" on a mapping key, else "value" for the
        innermost value containing it (a cursor right at the end of a key or scalar still counts)."""
        node, pointer = self._root, ""
        while node is not None:
            i = self._member_at(node, offset)
            if i is None:
                break
            child = pointer + "/" + (pointer_escape(node.key(i)) if node.is_obj else str(i))
            if node.is_obj:
                ks = node.kspan(i)
                vs = node.vspan(i)
                if ks[0] <= offset <= ks[1] and not (offset == ks[1] and vs[0] <= offset < vs[1]):
                    return child, "key"
            vs = node.vspan(i)
            if vs[0] <= offset <= vs[1]:
                kid = node.kid(i)
                if kid is None:
                    return child, "value"
                node, pointer = kid, child
                continue
            break
        return pointer, "value"

    def enclosing_object(self, offset: int) -> str | None:
        """The pointer of the innermost mapping whose span contains the cursor, or None."""
        node, pointer = self._root, ""
        if node is None or not node.start <= offset <= node.end:
            return None
        found = pointer if node.is_obj else None
        while True:
            i = self._member_at(node, offset)
            if i is None:
                return found
            kid = node.kid(i)
            if kid is None or not kid.start <= offset <= kid.end:
                return found
            pointer += "/" + (pointer_escape(node.key(i)) if node.is_obj else str(i))
            node = kid
            if node.is_obj:
                found = pointer

    @staticmethod
    def _member_at(node: YNode, offset: int) -> int | None:
        i = bisect_right(node.starts(), offset) - 1
        return i if i >= 0 else None


def parse_yaml(text: str, *, max_chars: int = MAX_CHARS, max_depth: int = MAX_DEPTH,
               max_values: int = MAX_VALUES, recover: bool = False) -> ParsedText:
    """Read `text` as one YAML 1.2 document (see the module docstring). `ok` is False when any
    E_SYNTAX was found; the value is then what could be read (None when the parser gave up).

    With `recover` (the editor, as you type), text the parser refuses is read without the lines it
    complained about (blanked, so every offset stays): the first complaint is the one E_SYNTAX, and its
    `YamlSyntax.cut` lists the blanked spans, whose content is in doubt."""
    # What is built here is acyclic (values, nodes, source-map nodes; an alias shares a value, a
    # recursive one is refused), so the cycle collector has nothing to find; paused, it stops re-walking
    # the growing tree (half the time at 1M characters), as `json_reader.parse` does.
    with collector_paused():
        return _parse_yaml(text, max_chars, max_depth, max_values, recover)


def _parse_yaml(text: str, max_chars: int, max_depth: int, max_values: int, recover: bool) -> ParsedText:
    if len(text) > max_chars:
        issue = make("E_DOC_LIMIT", f"the document has {len(text):,} characters, more than the {max_chars:,} "
                     "the editor analyses", span=(0, 0))
        return ParsedText(None, False, (issue,), (), YamlSourceMap(text, None), text)
    problems: list[Issue] = []
    skips: list[Span] = []
    try:
        root = _read(text, max_depth, problems, skips)
    except _TooDeep as e:
        issue = make("E_DOC_LIMIT", f"the document nests deeper than {max_depth} levels; it is not analysed",
                     span=(e.offset, e.offset))
        return ParsedText(None, False, (issue,), (), YamlSourceMap(text, None), text)
    read = text
    if root is None and recover and problems and _marks(problems[0]) is not None:
        root, read, cut = _without_refused_lines(text, _fault_marks(problems[0]), max_depth, tuple(skips))
        if root is not None:
            problems = [replace(problems[0], facts=replace(problems[0].facts, cut=cut))]
    if root is None:
        ok = not problems
        span = None if problems else (len(text), len(text)) if not text.strip() else _empty_root(text)
        return ParsedText(None, ok, tuple(problems), ("",) if problems else (), YamlSourceMap(text, span), text)
    builder = _Builder(read, max_values)
    value, ynode, span = builder.build(root)
    problems += builder.problems
    if builder.too_many:
        issue = make("E_DOC_LIMIT", f"its aliases expand to more than {max_values:,} values; the document is not "
                     "analysed", span=(0, 0))
        return ParsedText(None, False, (issue,), (), YamlSourceMap(text, None), text)
    problems.sort(key=lambda p: p.span)
    ok = not any(p.code == "E_SYNTAX" for p in problems)
    return ParsedText(value, ok, tuple(problems), (), YamlSourceMap(text, span, ynode, builder.values), text,
                      open_at_end(read, ynode))


def open_at_end(text: str, root: YNode | None) -> tuple[str, ...]:
    """The block collections the text ends inside, outermost first (`ParsedText.open_at_end`): when its
    last member is a nested block collection, nothing but the end of the text closed it (no line came
    back to its parent's indentation), so more may follow in it and in each collection around it. A
    text whose last line stands at the top level, or ends in a closed flow collection, ends inside none."""
    chain: list[str] = []
    node, pointer = root, ""
    while node is not None and node.count() and text[node.start:node.start + 1] not in ("{", "["):
        kid = node.kid(node.count() - 1)
        if kid is None or text[kid.start:kid.start + 1] in ("{", "[") or not kid.count():
            break
        chain.append(pointer)
        pointer += "/" + (pointer_escape(node.names[-1]) if node.is_obj else str(node.count() - 1))
        node = kid
    if chain:
        chain.append(pointer)
    return tuple(chain)


_RECOVERY_ROUNDS = 12


def _line_span(text: str, i: int) -> Span:
    start = text.rfind("\n", 0, i) + 1
    end = i
    while end < len(text) and text[end] not in "\r\n":
        end += 1
    return (start, end)


def _without_refused_lines(text: str, marks: tuple, max_depth: int, skips: tuple[Span, ...] = ()):
    """(root, text read, blanked spans): a tab the parser refuses is read as a space; else blank the line
    the parser's context names (the half-typed key, the unclosed bracket's line), else the line of its
    mark, until the rest reads. (None, text, ()) when it does not within a few rounds.

    `skips` are lines libyaml said may be skipped to find the parser's complaint (`yaml_libyaml.Refused`):
    while every blanked line comes after them, a round reads the text without them, which stops at the
    next complaint near the blanked line instead of reading everything before it again; only once that
    reads is the whole text read (the tree is made from it, and it may complain further on)."""
    current, cut = text, []
    shorter = _Without(text, skips) if skips else None
    for _ in range(_RECOVERY_ROUNDS):
        at = marks[1]
        if (at is not None and at < len(current) and current[at] == "\t"
                and current[_line_span(current, at)[0]:at].strip(" \t")):
            todo = (at, at + 1)  # a tab after the line's content: read as a space
        else:
            spans = [_line_span(current, m) for m in marks if m is not None]
            todo = next((sp for sp in spans if sp not in cut and current[sp[0]:sp[1]].strip()), None)
            if todo is None:
                break
            todo = _entry(current, todo)
        cut.append(todo)
        current = _blank(current, todo)
        shorter = shorter and shorter.blanked(todo)
        problems: list[Issue] = []
        try:
            root = None if shorter is None else _read(shorter.text, max_depth, problems)
            if shorter is None or root is not None:
                problems = []
                root = _read(current, max_depth, problems)
            elif problems and _marks(problems[0]) is not None:  # the complaint, placed in the whole text
                problems = [replace(problems[0], facts=YamlSyntax(tuple(
                    None if m is None else shorter.place(m) for m in _marks(problems[0]))))]
        except _TooDeep:
            break
        if root is not None:
            return root, current, tuple(sorted(cut))
        if not problems or _marks(problems[0]) is None:
            break
        marks = _fault_marks(problems[0])
    return None, text, ()


_INDENT = re.compile(r"[ \t]*")
# A line that opens a block below it: `-`, or a key (after any `- `) with nothing after its colon but a
# block scalar's indicator or a comment.
_OPENS_BLOCK = re.compile(r"""(?:-[ \t]+)*(?:-|(?:[^\s\[\]{}#,"'][^\[\]{}#,]*|"[^"]*"|'[^']*'):(?:[ \t]+[|>][-+0-9]*)?)"""
                          r"[ \t]*(?:#.*)?\Z")


def _entry(text: str, line: Span) -> Span:
    """The entry of a block collection that a refused line starts, so that a slip is confined to it
    (issue 21): the line alone, or, when it opens a block (`review:`, `- `, `key: |`), the line with the
    lines below it deeper than the level it stands at, the deepest indentation of the lines above it
    that is shallower than its first line below, or when a line below is shallower still (the slip is its
    collection's first entry), that one's (a key dedented by a column or indented with a tab still takes
    its own block, and no more). The slip's siblings are read as written."""
    start, end = line
    if not _OPENS_BLOCK.match(text[start:end].strip(" \t")):
        return line
    below = _next_content_line(text, end)
    if below is None:
        return line
    child, own = _indent(text, below[0]), _indent(text, start)
    if child <= own and "\t" not in text[start:start + own]:
        return line  # nothing below it is deeper: an empty value
    level, prev = -1, start
    while prev > 0:  # the indentations of the entries the line stands in, nearest first
        above = _line_span(text, prev - 1)
        prev = above[0]
        if not text[above[0]:above[1]].strip() or text[above[0]:above[1]].lstrip(" ").startswith("#"):
            continue
        d = _indent(text, above[0])
        if "\t" in text[above[0]:above[0] + d]:
            continue
        if d < child:
            level = d
            break
    # the line above may be the collection's own key (the slip is its first entry): then the slip's
    # siblings stand below it, shallower than its first line below (a tab on the first status)
    siblings, nxt = child, below
    while nxt is not None and (d := _indent(text, nxt[0])) > level:
        siblings = min(siblings, d)
        nxt = _next_content_line(text, nxt[1])
    if siblings < child:
        level = siblings
    last, nxt = end, below
    while nxt is not None and _indent(text, nxt[0]) > level:
        last = nxt[1]
        nxt = _next_content_line(text, nxt[1])
    return (start, last)


def _indent(text: str, line_start: int) -> int:
    return _INDENT.match(text, line_start).end() - line_start


def _next_content_line(text: str, end: int) -> Span | None:
    """The next line after the one ending at `end` with content other than a comment, or None."""
    i = end
    while i < len(text):
        i = text.find("\n", i)
        if i < 0:
            return None
        sp = _line_span(text, i + 1)
        body = text[sp[0]:sp[1]].strip(" \t\r")
        if body and not body.startswith("#"):
            return sp
        i = sp[1]
    return None


def _blank(text: str, span: Span) -> str:
    return text[:span[0]] + " " * (span[1] - span[0]) + text[span[1]:]


class _Without:
    """A text without some of its whole lines (`cuts`, in order): `text` is the shorter text, and
    `place(i)` where its position `i` is in the whole one (a position at a cut goes after the cut)."""

    def __init__(self, whole: str, cuts: tuple[Span, ...]):
        pieces, self._starts, self._shifts, gone, last = [], [0], [0], 0, 0
        for a, b in cuts:
            pieces.append(whole[last:a])
            self._starts.append(a - gone)  # where the text after this cut starts in the shorter one
            gone += b - a
            self._shifts.append(gone)
            last = b
        pieces.append(whole[last:])
        self.text = "".join(pieces)
        self.after = last  # the end of the last cut: the whole and the shorter text agree from there on
        self._ends = {b for _, b in cuts}
        self.gone = gone

    def place(self, i: int) -> int:
        return i + self._shifts[bisect_right(self._starts, i) - 1]

    def blanked(self, span: Span) -> "_Without | None":
        """The same with `span` of the whole text blanked, or None when it is not after every cut or it
        is the line a cut ends at: the entry there (a key or `-` at its collection's column) is what keeps
        the text before the cut from reading on into what follows it (a plain scalar's next lines)."""
        if span[0] < self.after or span[0] in self._ends:
            return None
        self.text = _blank(self.text, (span[0] - self.gone, span[1] - self.gone))
        return self


def _empty_root(text: str) -> Span:
    n = len(text) - len(text.lstrip())
    return (n, n)


class _TooDeep(Exception):
    def __init__(self, offset: int):
        self.offset = offset


def _read(text: str, max_depth: int, problems: list[Issue], skips: list | None = None):
    """The node tree of the first document: libyaml's where it answers (about 30 times faster), else
    ruamel.yaml's, which gives every complaint and limit its message and mark. Where libyaml complains,
    ruamel reads the text without the lines libyaml says it may skip (`yaml_libyaml.Refused`; a broken
    text costs then about what a valid one does, not a pure-Python read up to the complaint), and the
    whole text only when that finds no complaint of its own (ruamel reads some texts libyaml refuses).
    The skipped lines are added to `skips` then."""
    fast = yaml_libyaml.compose(text, max_depth, core_tag)
    if isinstance(fast, yaml_libyaml.Refused):
        found = _complaint_without(text, fast.cuts, max_depth) if fast.cuts else None
        if found is not None:
            problems.append(found)
            if skips is not None:
                skips.extend(fast.cuts)
            return None
        fast = None
    if fast is None:
        return _compose(text, max_depth, problems)
    root, second = fast
    if second is not None:
        problems.append(_second_document(text, second))
    return root


def _complaint_without(text: str, cuts: tuple[Span, ...], max_depth: int) -> Issue | None:
    """ruamel's complaint about `text`, found on the text without `cuts` (whole lines), its marks put
    back into `text`; None when that reading raises none (or only a limit), and the whole text decides."""
    if Reader.NON_PRINTABLE.search(text) is not None:  # the reader looks at the whole text first
        return None
    shorter = _Without(text, cuts)
    problems: list[Issue] = []
    try:
        root = _compose(shorter.text, max_depth, problems, about=text, place=shorter.place)
    except _TooDeep:
        return None
    if root is not None or not problems or _marks(problems[0]) is None:
        return None
    return problems[0]


def core_tag(value: str) -> str:
    """The core-schema tag name of an untagged plain scalar, as serde_yaml 0.9 resolves it (serde_scalars)."""
    return resolve_plain(value)[0]


def _second_document(text: str, at: int) -> Issue:
    return make("E_SYNTAX", "a second YAML document starts here; a workflow file holds one document",
                span=(at, _line_end(text, at)))


def _compose(text: str, max_depth: int, problems: list[Issue], *, about: str | None = None, place=None):
    """ruamel.yaml's node tree of the first document; parser complaints and a second document become
    E_SYNTAX issues (about the text `about`, at the positions `place(i)`, when `text` is a shortened
    copy of it). The composer recurses per level (the composer bounds the depth at `max_depth`); when
    the frames that takes do not fit the recursion limit (the command line's 512 levels), the limit is
    raised for the composition and put back after it."""
    yaml = YAML(typ="safe", pure=True)
    yaml_engine_rules.install(yaml)  # tabs, later byte-order marks and empty keys as the engine reads them
    yaml.max_depth = max_depth
    yaml.doc_infos.append(DocInfo(requested_version=version(yaml.version)))  # as YAML.compose_all does
    old = sys.getrecursionlimit()
    need = _stack_depth() + 3 * max_depth + 100
    if need > old:
        sys.setrecursionlimit(need)
    try:
        return _compose_with(yaml, text, problems, about or text, place)
    finally:
        if need > old:
            sys.setrecursionlimit(old)


def _stack_depth() -> int:
    f, n = sys._getframe(), 0
    while f is not None:
        f, n = f.f_back, n + 1
    return n


def _compose_with(yaml: YAML, text: str, problems: list[Issue], about: str, place):
    root = None
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            constructor, parser = yaml.get_constructor_parser(text)
            composer = constructor.composer
            composer.compose_scalar_node = lambda anchor: _compose_scalar(composer, anchor)
            try:
                if composer.check_node():
                    root = composer.get_node()
                    if composer.check_node():
                        problems.append(_second_document(text, parser.peek_event().start_mark.index))
            finally:
                parser.dispose()
    except MarkedYAMLError as e:
        if "maximum depth" in str(e.problem or ""):
            raise _TooDeep(e.problem_mark.index if e.problem_mark else 0) from None
        problems.append(_syntax_issue(about, e, place))
        return None
    except YAMLError as e:  # the reader: a character YAML does not allow
        pos = getattr(e, "position", None)
        at = pos if isinstance(pos, int) and 0 <= pos <= len(text) else 0
        name = getattr(e, "character", None)
        what = f"the character U+{ord(name):04X} is not allowed in YAML" if isinstance(name, str) and name else str(e)
        problems.append(make("E_SYNTAX", what, span=(at, min(at + 1, len(text)))))
        return None
    except RecursionError:
        raise _TooDeep(0) from None
    except Exception as e:  # the parser failed in a way it does not report as a YAML error
        problems.append(make("E_SYNTAX", f"the YAML cannot be read: {type(e).__name__}: {e}", span=(0, 0)))
        return None
    return root


def _compose_scalar(composer, anchor) -> ScalarNode:
    """ruamel's scalar composition with the YAML 1.2 core schema for untagged plain scalars (quoted ones
    are strings; an explicit tag is kept)."""
    event = composer.parser.get_event()
    tag = event.ctag
    if tag is None or str(tag) == "!":
        plain = event.style is None and event.implicit[0]
        tag = _TAG + (core_tag(event.value) if plain else "str")
    node = ScalarNode(str(tag), event.value, event.start_mark, event.end_mark, style=event.style, anchor=anchor)
    if anchor is not None:
        composer.anchors[anchor] = node
    return node


def _line_end(text: str, i: int) -> int:
    j = i
    while j < len(text) and text[j] not in "\r\n":
        j += 1
    return j if j > i else min(i + 1, len(text))


def _syntax_issue(text: str, e: MarkedYAMLError, place=None) -> Issue:
    """The parser's complaint at its mark: one character when it names a wrong one, else empty.
    `place` maps the parser's positions into `text` (when it read a shortened copy)."""
    def index(mark) -> int | None:
        return None if mark is None else mark.index if place is None else place(mark.index)

    mark = e.problem_mark or e.context_mark
    at = min(max(index(mark) if mark else 0, 0), len(text))
    problem = (e.problem or "not valid YAML").strip()
    message = problem + (f" ({e.context})" if e.context else "")
    end = at
    if at < len(text) and text[at] not in "\r\n":
        if problem.startswith("found undefined alias"):
            m = re.match(r"\*[^\s,\[\]{}]*", text[at:])
            end = at + (len(m.group(0)) if m else 1)
        elif "found character" in problem or "not allowed here" in problem or "but found" in problem:
            end = at + 1
    marks = (index(e.context_mark), index(e.problem_mark))
    return make("E_SYNTAX", message, span=(at, end), facts=YamlSyntax(marks))


class _Builder:
    """Builds the value and the source-map tree from ruamel nodes, without recursion. An aliased node
    is built once and shared (values are never mutated)."""

    def __init__(self, text: str, max_values: int):
        self.text = text
        self.max_values = max_values
        self.values = 0  # the document's values, once built (aliases expanded)
        self.problems: list[Issue] = []
        self.too_many = False
        self.copies: dict[int, dict[str, list[Span]]] = {}  # node -> key -> its copies' key spans
        # (text, plain, tag) -> (its Scalar, its value): equal scalars are one object, and so are their
        # texts (keys, status names, tags repeat: a 1M workflow's 100,000 scalars are 20,000)
        self.written: dict[tuple, tuple] = {}
        # a collection of scalars only, by its keys and scalars (each one object, above) -> (its first
        # member row, its value): equal ones share them (`{role: reviewer, session: reviewer}`,
        # `[reviewer]` repeat; values are never mutated, as an alias shares its value); and a mapping's
        # keys, one tuple
        self.leaves: dict[tuple, tuple] = {}
        self.names: dict[tuple, int] = {(): 0}  # a mapping's keys -> their place in the table's `keys`
        self.t = _Table(offsets_code(len(text)))  # the reading's nodes
        self.codes: dict[int, int] = {}  # id of a Scalar -> its number in the table's `kids`

    def scalar_span(self, node: ScalarNode) -> Span:
        s, e = node.start_mark.index, node.end_mark.index
        if node.style in ("|", ">"):
            e = s + len(self.text[s:e].rstrip())
        return (s, e)

    def build(self, root):
        done: dict[int, tuple] = {}  # id(node) -> (value, ynode | None, span, size)
        on_path: set[int] = set()
        stack: list[tuple[object, bool]] = [(root, False)]
        while stack:
            node, closing = stack.pop()
            key = id(node)
            if not closing:
                if key in done:
                    continue
                if key in on_path:  # an alias inside its own anchor
                    s = node.start_mark.index
                    self.problems.append(make("E_SYNTAX", "an alias refers to the node that contains it (a "
                                              "recursive anchor)", span=(s, _line_end(self.text, s))))
                    done[key] = (None, None, (s, s), 1, None)
                    continue
                if node.id == "scalar":
                    k = (node.value, node.style is None, str(node.tag))
                    hit = self.written.get(k)
                    if hit is None:
                        text, plain, tag = k
                        hit = self.written[k] = (Scalar(text, plain, tag), _scalar_value(tag, text))
                    done[key] = (hit[1], None, self.scalar_span(node), 1, hit[0])
                    continue
                on_path.add(key)
                stack.append((node, True))
                if node.id == "mapping":
                    kids = [n for pair in node.value for n in pair]
                else:
                    kids = list(node.value)
                for kid in reversed(kids):
                    if id(kid) not in done:
                        stack.append((kid, False))
                continue
            on_path.discard(key)
            done[key] = self.close(node, done)
            if done[key][3] > self.max_values:
                self.too_many = True
                return None, None, None
        value, k, span, self.values, _ = done[id(root)]
        self.t.fit()
        ynode = None if k is None else TableNode(self.t, k)
        if self.copies and ynode is not None:
            self.problems += self.duplicate_keys(ynode)
        return value, ynode, span

    def duplicate_keys(self, root: TableNode) -> list[Issue]:
        """W_DUPLICATE_KEY at every copy of a key written twice in one mapping (workflow.md §0), the later
        one kept; the pipeline turns those of a struct into its `_SCHEMA` "duplicate field" error."""
        out: list[Issue] = []
        seen: set[int] = set()
        stack: list[tuple[TableNode, str]] = [(root, "")]
        while stack:
            node, pointer = stack.pop()
            if node.k in seen:  # an aliased mapping: its copies are said once
                continue
            seen.add(node.k)
            for name, spans in self.copies.get(node.k, {}).items():
                out += _duplicate_key_issues(self.text, name, spans, pointer + "/" + pointer_escape(name))
            for i in range(node.count()):
                kid = node.kid(i)
                if kid is not None:
                    stack.append((kid, pointer + "/" + (pointer_escape(node.names[i]) if node.is_obj else str(i))))
        return out

    def code(self, s: Scalar | None) -> int:
        """A member's number in the table's `kids` for its `Scalar` (or None): -1 - its place in `scalars`."""
        if s is None:
            return -1
        c = self.codes.get(id(s))
        if c is None:
            c = self.codes[id(s)] = -1 - len(self.t.scalars)
            self.t.scalars.append(s)
        return c

    def node(self, is_obj: bool, offsets: list, names: list, kids: list, value, lost=(),
             complex_keys=()) -> tuple[int, object]:
        """(its number, its value) of a new row of the table (`kids`: per member its number, `code`); a
        collection of scalars only takes the member rows and the value of an equal one read before
        (`leaves`)."""
        t = self.t
        first = -1
        names_at = self.names.get(names_t := tuple(names))
        if names_at is None:
            names_at = self.names[names_t] = len(t.keys)
            t.keys.append(names_t)
        if not lost and not complex_keys and all(c < -1 for c in kids):
            key = (is_obj, names_at, *kids)
            hit = self.leaves.get(key)
            if hit is None:
                self.leaves[key] = (len(t.kids), value)
            else:
                first, value = hit
        if first < 0:
            first = len(t.kids)
            t.kids.extend(kids)
        k = len(t.at)
        t.at.append(len(t.buf))
        t.buf.extend(offsets)
        t.first.append(first)
        t.n.append(len(kids))
        t.names.append(names_at)
        t.obj.append(1 if is_obj else 0)
        if lost or (is_obj and len(names) > _SEARCHED_UP_TO):
            t.index[k] = _index_of(names)  # (the last copy of a key written twice)
        if lost or complex_keys:
            t.odd[k] = (lost, complex_keys)
        return k, value

    def close(self, node, done) -> tuple:
        flow = bool(node.flow_style)
        start = node.start_mark.index
        is_obj = node.id == "mapping"
        offsets = [start, start]  # the node's start and end, then its members' (_Node)
        kids: list[int] = []  # per member its child node, or its Scalar's number (`code`)
        code = self.code
        size = 1
        last_end = start
        t = self.t
        if is_obj:
            value: object = {}
            names: list[str] = []
            index: dict[str, int] = {}
            copies: dict[str, list[Span]] = {}
            lost: list[tuple] = []
            complex_keys: list[tuple[Span, str]] = []
            for knode, vnode in node.value:
                kdone = done.get(id(knode))
                ks = kdone[2] if kdone is not None else self.scalar_span(knode)
                v, kid, vs, n, written = done[id(vnode)]
                last_end = max(last_end, ks[1], vs[1])
                if knode.id != "scalar":
                    complex_keys.append((ks, "map" if knode.id == "mapping" else "sequence"))
                    continue
                name = kdone[4].text if kdone is not None and kdone[4] is not None else knode.value
                j = index.get(name)
                if j is not None:  # the later copy wins (a map); a struct refuses it (rules/serde_shape)
                    copies.setdefault(name, [(offsets[2 + 4 * j], offsets[3 + 4 * j])]).append(ks)
                    c = kids[j]
                    lost.append((name, value.pop(name), None if c < 0 else TableNode(t, c),  # type: ignore[attr-defined]
                                 None if c >= 0 else t.scalars[-1 - c]))
                index[name] = len(names)
                names.append(name)
                offsets += (ks[0], ks[1], vs[0], vs[1])
                kids.append(code(written) if kid is None else kid)
                value[name] = v  # type: ignore[index]
                size += n
            end = node.end_mark.index if flow and node.end_mark is not None else last_end
            offsets[1] = end
            k, value = self.node(True, offsets, names, kids, value, lost, complex_keys)
            if copies:
                self.copies[k] = copies
        else:
            value = []
            for vnode in node.value:
                v, kid, vs, n, written = done[id(vnode)]
                last_end = max(last_end, vs[1])
                offsets += vs
                kids.append(code(written) if kid is None else kid)
                value.append(v)  # type: ignore[union-attr]
                size += n
            end = node.end_mark.index if flow and node.end_mark is not None else last_end
            offsets[1] = end
            # (a copy is exactly as long as the list: one grown by appends keeps room for 4 at least)
            k, value = self.node(False, offsets, (), kids, value.copy())
        return value, k, (start, end), size, None


def _line_col(text: str, i: int) -> str:
    line = text.count("\n", 0, i) + 1
    return f"line {line}, column {i - (text.rfind(chr(10), 0, i) + 1) + 1}"


def _duplicate_key_issues(text: str, name: str, spans: list[Span], pointer: str) -> list[Issue]:
    """One W_DUPLICATE_KEY per copy, as the JSON reader says them: the last copy is the one kept."""
    kept = spans[-1]
    out = []
    for ks in spans:
        if ks is kept:
            first = spans[0]
            message = f'duplicate key "{name}": this value replaces the one at {_line_col(text, first[0])}'
            related = ((first[0], first[1], "the first copy"),)
        else:
            message = f'duplicate key "{name}": this value is lost, the copy at {_line_col(text, kept[0])} replaces it'
            related = ((kept[0], kept[1], "the copy kept"),)
        out.append(make("W_DUPLICATE_KEY", message, pointers=(pointer,), on_key=True,
                        related=tuple((pointer, note) for _, _, note in related), span=ks, related_spans=related))
    return out


def _scalar_value(tag: str, text: str) -> object:
    """A scalar's value as the engine resolves it where it reads a JSON value (serde_scalars): by its core
    tag (an untagged plain one resolved); the text for a string, a custom tag, or a text its core tag
    does not read (the structural check refuses those where a value is read)."""
    if not tag.startswith(_TAG):
        return text
    found = resolve_tagged(tag, text)
    return text if found is None else found[1]
