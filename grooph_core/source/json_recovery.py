"""Tolerant JSON reading: syntax problems at exact spots, a best-effort value, a source map
(issue 3 items 2-3; graph.md §3.2 "editor diagnostics", §9 "Parsing").

Used when the strict fast path (`json_strict`) fails or notes something. It walks the text with an
explicit stack (no recursion, nesting bounded by `max_depth`). Wherever a container starts, it first
tries the C decoder on it: a sound subtree is taken whole at C speed and indexed lazily later, so
only the containers on the way to a fault are read token by token.

Recovery (the choices a user would expect, kept here in one place):
- objects keep the members whose value could be read, arrays keep every item slot (an unreadable
  item is `None`) so indices after a bad item stay the ones the user sees;
- a missing comma or colon is assumed where it is missing; a value missing after a key drops the
  member; a closer of the wrong kind closes the containers it skips (each reported as unclosed);
- inside an array, an object never closed ends where the next sibling object starts (a `{` where a
  key or a comma belongs) or at the array's `]`, as jsonc-parser recovers: the siblings after it are
  read as the user sees them, and the array itself is not in doubt (issue 13);
- a stray character (not a value, key or bracket) is reported and skipped: the object or array
  around it is not in doubt for it (one inside a value's slot still makes that value unreadable);
- an unterminated string ends at the end of its line (raw line breaks are never inside a JSON string);
- a value after the top-level value is read (to stay in step) and ignored;
- follow-on reports are suppressed where the first already explains them (no "missing comma"
  after an unterminated string, no "missing colon" after an unterminated key).

Spans of "missing ..." problems are empty and sit where the missing character belongs (after the
previous token), so a fix inserts there; everything else spans the offending characters.

`broken` lists the smallest values whose content the recovery cut or guessed (in the order found):
- a member/item whose value was guessed (`01`, an unterminated string, a bad escape, single quotes,
  an unquoted or unterminated key) or unreadable (`tru`, `NaN`, a stray character; the item is `None`
  in an array, the member is left out of an object), or whose value never came (`"a": }`): its
  pointer is listed even when the recovered object has no such member, so "missing field" findings
  about it can be recognised as echoes;
- a container whose member list was cut (never closed, or closed by a closer of the other kind) or
  guessed at (stray characters or colons, a value where a key belongs).
Not listed: faults that lose nothing (a missing or doubled comma, a missing colon before a value, a
trailing comma, comments, a BOM), duplicate keys and lossy numbers (warnings; the value is exact JSON),
and values after the top-level one (not part of the document). Values under a listed container that
are not listed themselves were read intact.

`open_at_end` lists the containers the text ends inside (outermost first): more members may follow in
them, so what they lack is not missing yet, and an array among them holds its items before the cut as
written (the one being typed is listed in `broken` itself; DESIGN.md "As you type", issue 21).
"""

from __future__ import annotations

import re

from grooph_core.source.json_strict import StrictReader, exceeds_depth, float_is_lossy, int_is_lossy, precision_message
from grooph_core.source.line_index import LineIndex
from grooph_core.source.source_map import Node
from grooph_core.source.text import pointer_escape

_WS = re.compile(r"[ \t\n\r]*")
_LINE_REST = re.compile(r"[^\r\n]*")
_BARE = re.compile(r"[A-Za-z0-9_$.+\-]+")
_JUNK = re.compile(r"""[^ \t\n\r\[\]{}:,"'A-Za-z0-9_$.+\-/]+""")
_STR_CHUNK = re.compile(r'[^"\\\x00-\x1f]*')
_ESCAPE = re.compile(r'\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4})')
_HEX = re.compile(r"[0-9a-fA-F]{0,4}")
_SQ_BODY = re.compile(r"[^'\r\n]*")
_JSON_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?\Z")
_LEADING_ZERO = re.compile(r"-?0[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?\Z")
_NOT_JSON_CONSTANTS = {"NaN", "-NaN", "+NaN", "Infinity", "-Infinity", "+Infinity"}
_scanstring = __import__("json").decoder.scanstring

# At most this many issues of one code are listed; the rest are counted in one last issue, so that
# a pathological text (a million commas) costs bounded memory.
MAX_ISSUES_PER_CODE = 200
# A key repeated many times: each copy's issue names at most this many other copies.
MAX_RELATED_COPIES = 10

# Token kinds: the six structural characters stand for themselves.
_VALUE_KINDS = frozenset(("{", "[", "str", "bare", "sq"))

# Frame states.
_A_START, _A_AFTER_VALUE, _A_AFTER_COMMA = 0, 1, 2
_O_START, _O_AFTER_KEY, _O_AFTER_COLON, _O_AFTER_VALUE, _O_AFTER_COMMA = 3, 4, 5, 6, 7


class TooDeep(Exception):
    """Nesting beyond the limit at `offset` (the opening bracket)."""

    def __init__(self, offset: int):
        super().__init__(offset)
        self.offset = offset


class _Frame:
    __slots__ = (
        "is_obj", "node", "value", "pointer", "state", "prev_end", "prev_open", "comma",
        "key", "entry", "key_open", "parent_entry", "dups", "marked",
    )

    def __init__(self, is_obj, node, value, pointer, parent_entry):
        self.is_obj = is_obj
        self.node = node
        self.value = value
        self.pointer = pointer  # None: a value read only to stay in step (not part of the document)
        self.state = _O_START if is_obj else _A_START
        self.prev_end = node.start + 1  # where a missing comma/colon/closer belongs
        self.prev_open = False  # the previous token was an unterminated string
        self.comma = -1
        self.key = None
        self.entry = None
        self.key_open = False
        self.parent_entry = parent_entry
        self.dups = False
        self.marked = False


class Recovery:
    """The result of a tolerant read (see the module docstring)."""

    __slots__ = ("value", "root_span", "root_node", "issues", "broken", "open_at_end")

    def __init__(self, value, root_span, root_node, issues, broken, open_at_end=()):
        self.value = value
        self.root_span = root_span
        self.root_node = root_node
        # (code, start, end, message, pointer or None, related spans [(start, end, note)])
        self.issues = issues
        self.broken = broken
        self.open_at_end = open_at_end


def recover(text: str, max_depth: int, *, try_root: bool = True) -> Recovery:
    """Read `text` tolerantly. Raises TooDeep when containers nest beyond `max_depth`.

    `try_root`: first try the C decoder on the root container too (worth it when the fault is known
    to lie outside it: extra data after it, a byte-order mark before it).
    """
    return _Reader(text, max_depth, try_root).run()


def _quote(s: str, limit: int = 40) -> str:
    if len(s) > limit:
        s = s[: limit - 1] + "…"
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _char_name(c: str) -> str:
    if c.isprintable() and not c.isspace():
        return f'"{c}" (U+{ord(c):04X})'
    return f"U+{ord(c):04X}"


class _Reader:
    def __init__(self, text: str, max_depth: int, try_root: bool):
        self.text = text
        self.n = len(text)
        self.max_depth = max_depth
        self.try_root = try_root
        self.pos = 0
        self.peeked = None
        self.stack: list[_Frame] = []
        self.issues: list[list] = []
        self._counts: dict[str, int] = {}
        self._untold: dict[str, list] = {}  # code -> [count, first untold issue]
        self.broken: list[str] = []
        self._broken_set: set[str] = set()
        self.open_at_end: list[str] = []
        self.quiet = False
        self.strict = StrictReader()
        self._lines: LineIndex | None = None
        self._line_asks = 0
        self._counted: list[tuple[int, int]] = []
        self._has_cr = "\r" in text
        self.root_set = False
        self.root = None
        self.root_span = None
        self.root_node = None
        self.extra_issue = None
        self.saw_token = False

    # -- reporting ---------------------------------------------------------------------------

    def add(self, issue: list) -> None:
        """List an issue, or count it once its code has MAX_ISSUES_PER_CODE listed."""
        code = issue[0]
        n = self._counts.get(code, 0)
        if n < MAX_ISSUES_PER_CODE:
            self._counts[code] = n + 1
            self.issues.append(issue)
        elif code in self._untold:
            self._untold[code][0] += 1
        else:
            self._untold[code] = [1, issue]

    def problem(self, start: int, end: int, message: str) -> None:
        if not self.quiet:
            self.add(["E_SYNTAX", start, end, message, None, ()])

    def tell_untold(self) -> None:
        """One last issue per capped code: how many more there are, at the first one not listed."""
        for code, (count, first) in self._untold.items():
            what = {"E_SYNTAX": "syntax errors", "W_DUPLICATE_KEY": "duplicate-key warnings",
                    "W_NUMBER_PRECISION": "number-precision warnings"}.get(code, "issues")
            first[3] = f"{count} more {what} are not listed; the first is here: {first[3]}"
            self.issues.append(first)

    def line(self, offset: int) -> int:
        """1-based line of an offset, for messages (the first few by counting breaks, which is
        cheaper than indexing every line of a large text; an index once many are asked)."""
        if self._lines is None:
            self._line_asks += 1
            if self._line_asks <= 8:
                # count breaks from the nearest offset already counted (0 -> line 1)
                base, line = max((k for k in self._counted if k[0] <= offset), default=(0, 1))
                t = self.text
                line += t.count("\n", base, offset)
                if self._has_cr:
                    line += t.count("\r", base, offset) - t.count("\r\n", base, offset)
                    if offset > base and t[offset - 1] == "\r" and t[offset : offset + 1] == "\n":
                        line -= 1  # between \r and \n: that break is not complete yet
                self._counted.append((offset, line))
                return line
            self._lines = LineIndex(self.text)
        return self._lines.line_of(offset) + 1

    def line_start(self, line: int) -> int:
        """Offset where 1-based `line` starts."""
        if self._lines is None:
            self._lines = LineIndex(self.text)
        return self._lines.line_start(line - 1)

    def mark(self, pointer: str | None) -> None:
        if pointer is not None and not self.quiet and pointer not in self._broken_set:
            self._broken_set.add(pointer)
            self.broken.append(pointer)

    def mark_frame(self, f: _Frame) -> None:
        if not f.marked:
            f.marked = True
            self.mark(f.pointer)

    def member_pointer(self, f: _Frame) -> str | None:
        if f.pointer is None:
            return None
        if f.is_obj:
            return None if f.entry is None else f.pointer + "/" + pointer_escape(f.key)
        return f.pointer + "/" + str(len(f.value))

    def slot_pointer(self, f: _Frame | None) -> str | None:
        """Pointer of the value about to be read in `f` (None outside the document)."""
        if f is None:
            return None if self.root_set else ""
        return self.member_pointer(f)

    # -- lexing ------------------------------------------------------------------------------

    def next(self):
        t = self.peeked
        if t is not None:
            self.peeked = None
            return t
        return self.lex()

    def peek(self):
        if self.peeked is None:
            self.peeked = self.lex()
        return self.peeked

    def lex(self):
        """The next token (kind, start, end, payload); comments are reported and skipped."""
        text, n = self.text, self.n
        i = self.pos
        while True:
            i = _WS.match(text, i).end()
            if i >= n:
                self.pos = n
                return ("eof", n, n, None)
            c = text[i]
            if c == "/" and i + 1 < n and text[i + 1] in "/*":
                if text[i + 1] == "/":
                    j = _LINE_REST.match(text, i).end()
                    self.problem(i, j, "comments are not allowed in JSON")
                else:
                    j = text.find("*/", i + 2)
                    if j < 0:
                        j = n
                        self.problem(i, j, "comments are not allowed in JSON (and this one is never closed)")
                    else:
                        j += 2
                        self.problem(i, j, "comments are not allowed in JSON")
                i = j
                continue
            break
        self.saw_token = True
        if c in "{}[]:,":
            self.pos = i + 1
            return (c, i, i + 1, None)
        if c == '"':
            return self.lex_string(i)
        m = _BARE.match(text, i)
        if m:
            self.pos = m.end()
            return ("bare", i, m.end(), None)
        if c == "'":
            j = _SQ_BODY.match(text, i + 1).end()
            content = text[i + 1 : j]
            if j < n and text[j] == "'":
                j += 1
            self.pos = j
            return ("sq", i, j, content)
        m = _JUNK.match(text, i)
        j = m.end() if m and m.end() > i else i + 1
        self.pos = j
        return ("junk", i, j, None)

    def lex_string(self, start: int):
        """A double-quoted string. Payload: (value, terminated, guessed)."""
        text = self.text
        try:
            value, end = _scanstring(text, start + 1, True)
        except ValueError:
            pass
        else:
            self.pos = end
            return ("str", start, end, (value, True, False))
        # Something is wrong inside: walk it, repairing as we go, then decode the repaired body.
        n = self.n
        parts: list[str] = []
        guessed = False
        terminated = False
        i = start + 1
        while True:
            j = _STR_CHUNK.match(text, i).end()
            parts.append(text[i:j])
            i = j
            if i >= n:
                break
            c = text[i]
            if c == '"':
                i += 1
                terminated = True
                break
            if c == "\\":
                m = _ESCAPE.match(text, i)
                if m:
                    parts.append(m.group())
                    i = m.end()
                    continue
                guessed = True
                nxt = text[i + 1] if i + 1 < n else ""
                if nxt == "u":
                    h = _HEX.match(text, i + 2).end()
                    self.problem(i, h, f'invalid escape "{text[i:h]}" (\\u needs four hex digits)')
                    parts.append(text[i + 1 : h])
                    i = h
                elif nxt == "" or nxt < " ":
                    self.problem(i, i + 1, 'invalid escape "\\" (a backslash must be followed by an escape letter)')
                    i += 1
                else:
                    self.problem(i, i + 2, f'invalid escape "{text[i:i + 2]}"')
                    parts.append(nxt)
                    i += 2
                continue
            if c == "\n" or c == "\r":
                break
            self.problem(i, i + 1, f"control character U+{ord(c):04X} must be escaped in a string")
            parts.append(f"\\u{ord(c):04x}")
            i += 1
        if not terminated:
            self.problem(start, i, "unterminated string")
        value = _scanstring('"' + "".join(parts) + '"', 1, True)[0]
        self.pos = i
        return ("str", start, i, (value, terminated, guessed or not terminated))

    # -- values ------------------------------------------------------------------------------

    def scalar(self, tok, pointer):
        """(value, readable, guessed) of a scalar token; reports what is wrong with it."""
        kind, s, e, payload = tok
        if kind == "str":
            value, terminated, guessed = payload
            return value, True, guessed
        if kind == "sq":
            self.problem(s, e, "strings must be in double quotes, not single quotes")
            return payload, True, True
        word = self.text[s:e]
        if word == "true":
            return True, True, False
        if word == "false":
            return False, True, False
        if word == "null":
            return None, True, False
        m = _JSON_NUMBER.match(word)
        if m:
            if m.group(1) or m.group(2):
                v = float(word)
                lossy = float_is_lossy(word, v)
            else:
                try:
                    v = int(word)
                except ValueError:  # more digits than Python converts; far beyond a double anyway
                    v = float(word)
                    lossy = True
                else:
                    lossy = len(word) > 15 and int_is_lossy(v)
            if lossy and pointer is not None and not self.quiet:
                self.add(["W_NUMBER_PRECISION", s, e, precision_message(word, v), pointer, ()])
            return v, True, False
        if word in _NOT_JSON_CONSTANTS:
            self.problem(s, e, f"{word} is not JSON")
            return None, False, True
        m = _LEADING_ZERO.match(word)
        if m:
            self.problem(s, e, f"numbers cannot have leading zeros ({_quote(word)})")
            return (float(word) if m.group(1) or m.group(2) else int(word)), True, True
        if word[0] in "-+.0123456789":
            self.problem(s, e, f"invalid number {_quote(word)}")
            return None, False, True
        low = word.lower()
        if low in ("true", "false", "null") or low.startswith(("tru", "fals", "nul")):
            hint = low if low in ("true", "false", "null") else ("true" if low.startswith("tru") else "false" if low.startswith("fals") else "null")
            self.problem(s, e, f"invalid literal {_quote(word)} (did you mean {hint}?)")
        else:
            self.problem(s, e, f"invalid literal {_quote(word)}")
        return None, False, True

    def value(self, f: _Frame | None, tok) -> None:
        """Read the value starting with `tok` into frame `f` (None: the top level)."""
        kind, s = tok[0], tok[1]
        if kind == "{" or kind == "[":
            if f is not None or self.root_set or self.try_root:
                got = self.attempt(s)
                if got is not None:
                    self.pos = got[1]
                    self.put(f, got[0], s, got[1], True, False)
                    return
            self.open(f, tok)
            return
        if kind == "junk":
            self.problem(s, tok[2], f"unexpected character {_char_name(self.text[s])}")
            self.put(f, None, s, tok[2], False, True)
            return
        v, readable, guessed = self.scalar(tok, self.slot_pointer(f))
        self.put(f, v, s, tok[2], readable, guessed)
        if f is not None:
            f.prev_open = kind == "str" and not tok[3][1]

    def attempt(self, start: int):
        """(value, end) of a sound container at `start` read by the C decoder, or None when it has
        a fault, a duplicate key, a lossy number, or nests too deep."""
        try:
            v, end = self.strict.scan(self.text, start)
        except (ValueError, RecursionError, StopIteration):
            return None
        if self.strict.suspect or exceeds_depth(v, self.max_depth - len(self.stack)):
            return None
        return v, end

    def put(self, f: _Frame | None, v, s: int, e: int, readable: bool, guessed: bool) -> None:
        """Deliver a value read whole (a scalar, or a container taken by the C decoder)."""
        if f is None:
            self.top_value(v, s, e, None, readable, guessed)
            return
        node = f.node
        if f.is_obj:
            i = f.entry
            if i is not None:
                node.vstarts[i] = s
                node.vends[i] = e
                if readable:
                    f.value[f.key] = v
                    node.index[f.key] = i
                if guessed or not readable:
                    self.mark(self.member_pointer(f))
        else:
            if guessed or not readable:
                self.mark(self.member_pointer(f))
            f.value.append(v if readable else None)
            node.add_item(s, e)
        f.prev_end = e
        f.prev_open = False

    def top_value(self, v, s: int, e: int, node: Node | None, readable: bool, guessed: bool) -> None:
        if not self.root_set:
            self.root_set = True
            self.root = v if readable else None
            self.root_span = (s, e)
            self.root_node = node
            if guessed or not readable:
                self.mark("")
        elif self.extra_issue is not None and self.quiet:
            self.extra_issue[2] = max(self.extra_issue[2], e)
        self.quiet = False

    def open(self, f: _Frame | None, tok) -> None:
        """Start reading a container token by token."""
        depth = len(self.stack) + 1
        s = tok[1]
        if depth > self.max_depth:
            raise TooDeep(s)
        is_obj = tok[0] == "{"
        value: dict | list = {} if is_obj else []
        node = Node(is_obj, s, depth=depth)
        parent_entry = None
        if f is None:
            pointer = None if self.root_set else ""
            if not self.root_set:
                self.root = value
                self.root_node = node
        elif f.is_obj:
            i = f.entry
            pointer = self.member_pointer(f)
            if i is not None:
                f.node.vstarts[i] = s
                f.node.kids[i] = node
                f.value[f.key] = value
                f.node.index[f.key] = i
                parent_entry = i
        else:
            pointer = self.member_pointer(f)
            f.value.append(value)
            parent_entry = f.node.add_item(s, None, node)
        self.stack.append(_Frame(is_obj, node, value, pointer, parent_entry))

    def close(self, end: int, closed: bool, limit: int) -> None:
        """Finish the innermost container: `end` past its closer (or its last content), `limit` the
        cut point when it was never closed."""
        f = self.stack.pop()
        node = f.node
        node.end = end
        node.closed = closed
        node.limit = limit
        if not closed:
            self.mark_frame(f)
        if f.dups:
            self.report_duplicates(f)
        parent = self.stack[-1] if self.stack else None
        if parent is None:
            self.top_value(f.value, node.start, end, node, True, False)
            return
        if f.parent_entry is not None:
            parent.node.vends[f.parent_entry] = end
        parent.prev_end = end
        parent.prev_open = False

    def report_duplicates(self, f: _Frame) -> None:
        if f.pointer is None or self.quiet:
            return
        node = f.node
        copies: dict[str, list[int]] = {}
        for i, name in enumerate(node.names):
            copies.setdefault(name, []).append(i)
        for name, idxs in copies.items():
            if len(idxs) < 2:
                continue
            pointer = f.pointer + "/" + pointer_escape(name)
            # The copy whose value JSON.parse keeps: the last one whose value could be read.
            kept = max((k for k in idxs if node.vstarts[k] is not None), default=idxs[-1])
            for j, i in enumerate(idxs):
                ks = node.kspans[i]
                if self._counts.get("W_DUPLICATE_KEY", 0) >= MAX_ISSUES_PER_CODE:
                    self.add(["W_DUPLICATE_KEY", ks[0], ks[1], f"duplicate key {_quote(name)}", pointer, ()])
                    continue
                # the kept copy first, then the nearest others, at most MAX_RELATED_COPIES
                near = idxs[max(0, j - MAX_RELATED_COPIES // 2) : j + MAX_RELATED_COPIES // 2 + 1]
                others = sorted({kept, *near} - {i})[:MAX_RELATED_COPIES]
                related = tuple(
                    (node.kspans[k][0], node.kspans[k][1], f"other copy of key {_quote(name)}") for k in others
                )
                if i == kept:
                    where = ", ".join(self.where(node.kspans[k][0]) for k in others)
                    what = "the one" if len(idxs) == 2 else "the copies"
                    message = f"duplicate key {_quote(name)}: this value replaces {what} at {where}"
                else:
                    message = (f"duplicate key {_quote(name)}: this value is lost, "
                               f"the copy at {self.where(node.kspans[kept][0])} replaces it")
                self.add(["W_DUPLICATE_KEY", ks[0], ks[1], message, pointer, related])

    def where(self, offset: int) -> str:
        """'line L, column C' (1-based, columns in characters) for messages."""
        line = self.line(offset)
        return f"line {line}, column {offset - self.line_start(line) + 1}"

    # -- the walk ----------------------------------------------------------------------------

    def run(self) -> Recovery:
        text = self.text
        if text.startswith("\ufeff"):
            self.problem(0, 1, "byte-order mark (U+FEFF) at the start is not JSON")
            self.pos = 1
        stack = self.stack
        tok = None
        while True:
            if tok is None:
                tok = self.next()
            kind = tok[0]
            f = stack[-1] if stack else None
            if f is None:
                if kind == "eof":
                    break
                self.top_level(tok)
            elif kind == "eof":
                self.unclosed_all()
                break
            elif f.is_obj:
                redo = self.in_object(f, tok)
                if redo:
                    continue
            else:
                redo = self.in_array(f, tok)
                if redo:
                    continue
            tok = None
        if not self.root_set and not self.saw_token:
            self.problem(0, self.n, "the document is empty")
        self.tell_untold()
        return Recovery(self.root if self.root_set else None, self.root_span, self.root_node, self.issues, self.broken,
                        tuple(reversed(self.open_at_end)))

    def top_level(self, tok) -> None:
        kind, s, e = tok[0], tok[1], tok[2]
        if kind in _VALUE_KINDS:
            if self.root_set:
                if self.extra_issue is None:
                    self.extra_issue = ["E_SYNTAX", s, e, "more than one top-level value", None, ()]
                    self.add(self.extra_issue)
                self.quiet = True
            self.value(None, tok)
        elif kind == "}" or kind == "]":
            self.problem(s, e, f"unexpected closing bracket '{kind}'")
        elif kind == "junk":
            self.problem(s, e, f"unexpected character {_char_name(self.text[s])}")
        else:
            where = "after the top-level value" if self.root_set else "before any value"
            self.problem(s, e, f"unexpected '{kind}' {where}")

    def unclosed(self, f: _Frame) -> str:
        what = "object" if f.is_obj else "array"
        return f"unclosed {what} started at line {self.line(f.node.start)}"

    def unclosed_all(self) -> None:
        """End of text with containers open: each is reported where its closer belongs, and listed in
        `open_at_end` (more may follow in it)."""
        while self.stack:
            f = self.stack[-1]
            if f.pointer is not None and not self.quiet:
                self.open_at_end.append(f.pointer)
            if f.is_obj and f.entry is not None and f.state in (_O_AFTER_KEY, _O_AFTER_COLON):
                self.mark(self.member_pointer(f))  # a key whose value never came
            self.problem(f.prev_end, f.prev_end, self.unclosed(f))
            self.close(f.prev_end, False, self.n)

    def wrong_closer(self, tok) -> None:
        """A closer that does not match the innermost container."""
        kind, s, e = tok[0], tok[1], tok[2]
        want_obj = kind == "}"
        for depth in range(len(self.stack) - 1, -1, -1):
            if self.stack[depth].is_obj == want_obj:
                break
        else:
            self.problem(s, e, f"unexpected closing bracket '{kind}'")
            self.mark_frame(self.stack[-1])
            return
        cut_arrays = False
        while len(self.stack) - 1 > depth:
            f = self.stack[-1]
            cut_arrays = cut_arrays or not f.is_obj
            self.problem(f.prev_end, f.prev_end, self.unclosed(f) + f" (closed by '{kind}' at line {self.line(s)})")
            self.close(f.prev_end, False, s)
        f = self.stack[-1]
        if f.is_obj or cut_arrays:
            # an array's `]` after cut objects is the array's own closer (jsonc-parser's reading): its
            # items are as the user sees them; any other cut leaves what this container held a guess
            self.mark_frame(f)
        self.close_frame(f, tok)

    def enclosing_array(self) -> int:
        """Stack depth of the array the innermost objects sit in (through objects only), or -1."""
        stack = self.stack
        depth = len(stack) - 1
        while depth >= 0 and stack[depth].is_obj:
            depth -= 1
        return depth

    def sibling_starts(self, tok) -> bool:
        """A `{` where a key or a comma belongs in an object that sits (through objects only) in an
        array: the objects up to that array were never closed and the `{` starts the array's next
        item (jsonc-parser's recovery). Closes them, each reported as unclosed; False when no array
        encloses the object that way."""
        stack = self.stack
        depth = self.enclosing_array()
        if depth < 0:
            return False
        while len(stack) - 1 > depth:
            f = stack[-1]
            # after `"a": 1,` the closer belongs right after the 1: the comma then separates the items
            end = f.prev_end
            if f.state == _O_AFTER_COMMA and f.comma >= 0:
                end = f.comma
                while end > 0 and self.text[end - 1] in " \t\r\n":
                    end -= 1
            self.problem(end, end, self.unclosed(f) + f" (the next item starts at line {self.line(tok[1])})")
            self.close(end, False, tok[1])
        stack[-1].prev_open = True  # the missing comma is part of the same fault: not reported again
        return True

    def close_frame(self, f: _Frame, tok) -> None:
        self.close(tok[2], True, tok[2])

    def missing_value(self, f: _Frame) -> None:
        """The current key has no value: report it (unless its key was unterminated) and drop it."""
        if f.entry is None:  # no key either: already reported as a missing key
            return
        if not f.key_open:
            self.problem(f.prev_end, f.prev_end, f"missing value for key {_quote(f.key)}")
        self.mark(self.member_pointer(f))

    def in_object(self, f: _Frame, tok) -> bool:
        """Handle one token inside an object; True means: handle the same token again."""
        kind, s, e = tok[0], tok[1], tok[2]
        state = f.state
        if state == _O_START or state == _O_AFTER_COMMA:
            if kind == "str" or kind == "bare" or kind == "sq":
                guessed = True
                if kind == "str":
                    key, terminated, _ = tok[3]
                    f.key_open = not terminated
                    guessed = not terminated
                elif kind == "sq":
                    key = tok[3]
                    f.key_open = False
                    self.problem(s, e, "keys must be in double quotes, not single quotes")
                else:
                    key = self.text[s:e]
                    f.key_open = False
                    self.problem(s, e, f"keys must be strings in double quotes (found {_quote(key)})")
                if key in f.node.index:
                    f.dups = True
                f.key = key
                f.entry = f.node.add_key(key, (s, e))
                if guessed:
                    self.mark(self.member_pointer(f))
                f.prev_end = e
                f.state = _O_AFTER_KEY
            elif kind == "}":
                if state == _O_AFTER_COMMA:
                    self.problem(f.comma, f.comma + 1, "trailing comma (JSON allows no comma before '}')")
                self.close_frame(f, tok)
            elif kind == ",":
                self.problem(s, e, "missing key before this comma")
                f.comma = s
                f.prev_end = e
                f.state = _O_AFTER_COMMA
            elif kind == ":":
                self.problem(s, e, "missing key before this colon")
                self.mark_frame(f)
                f.key, f.entry, f.key_open = None, None, False
                f.prev_end = e
                f.state = _O_AFTER_COLON
            elif kind == "{" and self.sibling_starts(tok):
                return True
            elif kind == "{" or kind == "[":
                self.problem(s, e, "expected a key in double quotes")
                self.mark_frame(f)
                f.key, f.entry, f.key_open = None, None, False
                f.state = _O_AFTER_VALUE
                self.value(f, tok)
            elif kind == "]":
                self.wrong_closer(tok)
            else:  # junk: skipped
                self.problem(s, e, f"unexpected character {_char_name(self.text[s])}")
        elif state == _O_AFTER_KEY:
            if kind == ":":
                f.prev_end = e
                f.state = _O_AFTER_COLON
            elif (kind == "{" and (f.key_open or "\n" in self.text[f.prev_end:s])
                  and self.enclosing_array() >= 0):
                # a key being typed (`"na` or `"name"` at the end of its line), then the next item
                self.missing_value(f)
                self.sibling_starts(tok)
                return True
            elif kind == "str" or kind == "bare" or kind == "sq" or kind == "{" or kind == "[" or kind == "junk":
                if kind in ("str", "bare", "sq") and self.peek()[0] == ":":
                    # `"a" "b": 1`: the key before lacks its colon and value; this is the next key.
                    if not f.key_open:
                        self.problem(f.prev_end, f.prev_end, f"missing colon after key {_quote(f.key)}")
                    self.mark(self.member_pointer(f))
                    f.state = _O_START
                    return True
                if not f.key_open:
                    self.problem(f.prev_end, f.prev_end, f"missing colon after key {_quote(f.key)}")
                f.state = _O_AFTER_COLON
                return True
            elif kind == ",":
                self.missing_value(f)
                f.comma = s
                f.prev_end = e
                f.state = _O_AFTER_COMMA
            elif kind == "}":
                self.missing_value(f)
                self.close_frame(f, tok)
            else:  # "]"
                self.missing_value(f)
                self.wrong_closer(tok)
        elif state == _O_AFTER_COLON:
            if kind in _VALUE_KINDS or kind == "junk":
                if kind == "str" and self.peek()[0] == ":":
                    # `"a": \n "b": 1`: the value of "a" is missing; this is the next key.
                    self.missing_value(f)
                    f.state = _O_START
                    return True
                f.state = _O_AFTER_VALUE
                self.value(f, tok)
            elif kind == ",":
                self.missing_value(f)
                f.comma = s
                f.prev_end = e
                f.state = _O_AFTER_COMMA
            elif kind == "}":
                self.missing_value(f)
                self.close_frame(f, tok)
            elif kind == ":":
                self.problem(s, e, "unexpected colon")
                self.mark_frame(f)
            else:  # "]"
                self.missing_value(f)
                self.wrong_closer(tok)
        else:  # _O_AFTER_VALUE
            if kind == ",":
                f.comma = s
                f.prev_end = e
                f.prev_open = False
                f.state = _O_AFTER_COMMA
            elif kind == "}":
                self.close_frame(f, tok)
            elif kind == "{" and self.sibling_starts(tok):
                return True
            elif kind in _VALUE_KINDS:
                if not f.prev_open:
                    self.problem(f.prev_end, f.prev_end, "missing comma between object members")
                f.prev_open = False
                f.state = _O_START
                return True
            elif kind == ":":
                self.problem(s, e, "unexpected colon")
                self.mark_frame(f)
            elif kind == "]":
                self.wrong_closer(tok)
            else:  # junk: skipped
                self.problem(s, e, f"unexpected character {_char_name(self.text[s])}")
        return False

    def in_array(self, f: _Frame, tok) -> bool:
        """Handle one token inside an array; True means: handle the same token again."""
        kind, s, e = tok[0], tok[1], tok[2]
        state = f.state
        if state == _A_START or state == _A_AFTER_COMMA:
            if kind in _VALUE_KINDS or kind == "junk":
                f.state = _A_AFTER_VALUE
                self.value(f, tok)
            elif kind == "]":
                if state == _A_AFTER_COMMA:
                    self.problem(f.comma, f.comma + 1, "trailing comma (JSON allows no comma before ']')")
                self.close_frame(f, tok)
            elif kind == ",":
                self.problem(s, e, "missing array item before this comma")
                f.comma = s
                f.prev_end = e
                f.state = _A_AFTER_COMMA
            elif kind == ":":
                self.problem(s, e, "unexpected colon")
                self.mark_frame(f)
            else:  # "}"
                self.wrong_closer(tok)
        else:  # _A_AFTER_VALUE
            if kind == ",":
                f.comma = s
                f.prev_end = e
                f.prev_open = False
                f.state = _A_AFTER_COMMA
            elif kind == "]":
                self.close_frame(f, tok)
            elif kind in _VALUE_KINDS:
                if not f.prev_open:
                    self.problem(f.prev_end, f.prev_end, "missing comma between array items")
                f.prev_open = False
                f.state = _A_START
                return True
            elif kind == ":":
                self.problem(s, e, "unexpected colon")
                self.mark_frame(f)
            elif kind == "}":
                self.wrong_closer(tok)
            else:  # junk after an item: skipped
                self.problem(s, e, f"unexpected character {_char_name(self.text[s])}")
        return False
