"""Where serde_json stops on a text that is not JSON, and in its words (workflow.md §0 "The engine's reader
decides"; board.md §1; issue 30: one fault, one diagnostic).

The engine reads a board (and an episode record) with serde_json, which stops at the first syntax fault and
says one thing: `expected `,` or `}` at line 5 column 9`. `first_fault` walks the text as serde_json's
parser does (its `parse_whitespace`, `next_key_seed`, `parse_object_colon`, `next_element_seed`, numbers,
strings and escapes, `end`) and gives the place of that first fault, as a character offset, and serde's
words (what JSON.parse reads whole, the C decoder takes at once). Only syntax: a value of the wrong type, a lone surrogate escape (`ide.neighbours.analysis.lone_surrogates`),
numbers out of range and nesting (`rules/serde_shape`) are read elsewhere. Iterative, linear in the text.

Serde's place is the character it stopped at: the one it peeked (a `:` missing before it) or the one it
read last (a bad escape's letter, a control character in a string); at the end of the text, the end.
A value serde skips unread (an unknown key's: `ignore_value`) has its own words for a comma before a closer:
"key must be a string" in an object (also at the end of the text there, "EOF while parsing an object"),
"expected value" in a list; `skipped(path)` says whether the container at `path` (its keys and indices) is
such a value.
"""

from __future__ import annotations

import json
import re

from grooph_core.source.json_strict import reject_constant

_WS = re.compile(r"[ \t\n\r]*")
_STRING_BODY = re.compile(r'[^"\\\x00-\x1f]*')
_DIGITS = re.compile(r"[0-9]*")
_HEX = "0123456789abcdefABCDEF"
_ESCAPES = '"\\/bfnrt'
_scan_once = json.JSONDecoder(parse_constant=reject_constant).scan_once
_TRY_WHOLE = 24  # levels of nesting down to which a container is first tried whole

EOF_VALUE = "EOF while parsing a value"
EOF_OBJECT = "EOF while parsing an object"
EOF_LIST = "EOF while parsing a list"
EOF_STRING = "EOF while parsing a string"


def first_fault(text: str, skipped=None) -> tuple[int, str] | None:
    """(offset, serde_json's words) of the first syntax fault in `text`, or None when serde_json's parser
    reads it through. The offset is `len(text)` when the text ends too soon. `skipped`: see the module."""
    return _Scan(text, skipped).run()


class _Fault(Exception):
    def __init__(self, offset: int, words: str):
        super().__init__(words)
        self.offset = offset
        self.words = words


class _Scan:
    def __init__(self, text: str, skipped):
        self.text = text
        self.n = len(text)
        self.i = 0
        self.skipped = skipped
        self.path: list[str] = []  # the key or index of each open container's current member or item

    def run(self) -> tuple[int, str] | None:
        try:
            self.value()
            self.i = _WS.match(self.text, self.i).end()
            if self.i < self.n:
                raise _Fault(self.i, "trailing characters")
        except _Fault as f:
            return f.offset, f.words
        return None

    def peek(self) -> str | None:
        self.i = _WS.match(self.text, self.i).end()
        return self.text[self.i] if self.i < self.n else None

    def value(self) -> None:
        """One value and everything in it, with an explicit stack of the open containers (any depth)."""
        stack: list[str] = []  # "{" or "[" of each open container
        path = self.path
        want_value = True  # a value comes next (at the top, after `:`, after `[` or a list's `,`)
        while True:
            if want_value:
                c = self.peek()
                if c is None:
                    raise _Fault(self.n, EOF_VALUE)
                want_value = False
                if c == "{" or c == "[":
                    if len(stack) < _TRY_WHOLE:  # a sound container is taken whole by the C decoder (JSON.parse's
                        try:                     # syntax is serde's); deep down, a failed try would cost each level
                            self.i = _scan_once(self.text, self.i)[1]
                            continue
                        except (ValueError, RecursionError, StopIteration):
                            pass
                    self.i += 1
                    stack.append(c)
                    path.append("" if c == "{" else "0")
                    first = self.peek()
                    if first is None:
                        raise _Fault(self.n, EOF_OBJECT if c == "{" else EOF_LIST)
                    if first == ("}" if c == "{" else "]"):
                        self.i += 1
                        stack.pop()
                        path.pop()
                    else:
                        if c == "{":
                            self.key_and_colon()
                        want_value = True
                    continue
                self.scalar(c)
                continue
            if not stack:
                return
            closer = "}" if stack[-1] == "{" else "]"
            c = self.peek()
            if c is None:
                raise _Fault(self.n, EOF_OBJECT if closer == "}" else EOF_LIST)
            if c == closer:
                self.i += 1
                stack.pop()
                path.pop()
                continue
            if c != ",":
                raise _Fault(self.i, f"expected `,` or `{closer}`")
            self.i += 1
            c = self.peek()
            if (c == closer or (c is None and closer == "}")) and self.skipped is not None and self.skipped(path[:-1]):
                raise _Fault(self.i, "key must be a string" if c is not None else EOF_OBJECT) if closer == "}" \
                    else _Fault(self.i, "expected value")
            if c == closer:
                raise _Fault(self.i, "trailing comma")
            if closer == "}":
                self.key_and_colon()
            else:
                path[-1] = str(int(path[-1]) + 1)
            want_value = True

    def key_and_colon(self) -> None:
        """A member's key and its colon (its value comes next)."""
        c = self.peek()
        if c is None:
            raise _Fault(self.n, EOF_VALUE)
        if c != '"':
            raise _Fault(self.i, "key must be a string")
        start = self.i
        self.string()
        self.path[-1] = self.text[start + 1:self.i - 1]  # as written (escapes and all): enough to name a field
        c = self.peek()
        if c is None:
            raise _Fault(self.n, EOF_OBJECT)
        if c != ":":
            raise _Fault(self.i, "expected `:`")
        self.i += 1

    def scalar(self, c: str) -> None:
        """A string, a number or a word, starting with `c`."""
        if c == '"':
            self.string()
        elif c in "-0123456789":
            self.number()
        elif c in "ntf":
            self.ident({"n": "null", "t": "true", "f": "false"}[c])
        else:
            raise _Fault(self.i, "expected value")

    def ident(self, word: str) -> None:
        """`null`, `true`, `false`: each letter read, the first wrong one is where serde stops."""
        text = self.text
        for k, ch in enumerate(word):
            j = self.i + k
            if j >= self.n:
                raise _Fault(self.n, EOF_VALUE)
            if text[j] != ch:
                raise _Fault(j, "expected ident")
        self.i += len(word)

    def number(self) -> None:
        text, n = self.text, self.n
        i = self.i
        if text[i] == "-":
            i += 1
            if i >= n:
                raise _Fault(n, EOF_VALUE)
        if text[i] == "0":
            i += 1
            if i < n and text[i].isascii() and text[i].isdigit():
                raise _Fault(i, "invalid number")
        elif "1" <= text[i] <= "9":
            i = _DIGITS.match(text, i + 1).end()
        else:
            raise _Fault(i, "invalid number")
        if i < n and text[i] == ".":
            j = _DIGITS.match(text, i + 1).end()
            if j == i + 1:
                raise _Fault(j, "invalid number") if j < n else _Fault(n, EOF_VALUE)
            i = j
        if i < n and text[i] in "eE":
            i += 1
            if i < n and text[i] in "+-":
                i += 1
            if i >= n:
                raise _Fault(n, EOF_VALUE)
            j = _DIGITS.match(text, i).end()
            if j == i:
                raise _Fault(i, "invalid number")
            i = j
        self.i = i

    def string(self) -> None:
        """A string from its opening quote (at `self.i`) past its closing one."""
        text, n = self.text, self.n
        i = self.i + 1
        while True:
            i = _STRING_BODY.match(text, i).end()
            if i >= n:
                raise _Fault(n, EOF_STRING)
            c = text[i]
            if c == '"':
                self.i = i + 1
                return
            if c != "\\":
                raise _Fault(i, "control character (\\u0000-\\u001F) found while parsing a string")
            i += 1
            if i >= n:
                raise _Fault(n, EOF_STRING)
            e = text[i]
            if e == "u":
                if i + 5 > n:
                    raise _Fault(n, EOF_STRING)
                for k in range(i + 1, i + 5):
                    if text[k] not in _HEX:
                        raise _Fault(k, "invalid escape")
                i += 5
            elif e in _ESCAPES:
                i += 1
            else:
                raise _Fault(i, "invalid escape")
