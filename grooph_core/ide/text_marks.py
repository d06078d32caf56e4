"""What the editor draws into the text (issue 31 items 3, 5, 6), shared by every kind: inlay hints
(`InlayHint`), document links (`DocumentLink`, URLs), semantic tokens (`Token` and the one legend), and
`parts_in_range`, the top-level parts of a document a range touches (a screenful is answered from the
parts it shows, never from a walk of the whole document). Each family fills them in its package."""

from __future__ import annotations

import os
import re
from bisect import bisect_left
from dataclasses import dataclass

from grooph_core.source.text import pointer_escape

# ---- inlay hints ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class InlayHint:
    """A few words shown at `offset`: after a reference (`before` False: padded on its left), or
    before a value (`before` True: padded on its right)."""

    offset: int
    label: str
    tooltip: str = ""
    before: bool = False


# ---- document links ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class DocumentLink:
    """A span of text that opens something: `target` a local file's path or an http(s) URL; or, with
    `graph_ref` (id, version), a graph the workspace must find (map.md §4.4 `<graph-id>@<version>`)."""

    start: int
    end: int
    target: str | None
    tooltip: str = ""
    graph_ref: tuple[str, str] | None = None


# Only web addresses are links: another scheme (file:, javascript:, a custom handler) may do something
# on a click that the reader of a JSON value does not expect. The server never fetches any of them.
URL = re.compile(r"https?://[^\s\"'<>\\`{}|^]+", re.ASCII)
_TRAILING = ".,;:!?)]"


def url_links(text: str, start: int = 0, end: int | None = None) -> list[DocumentLink]:
    """Every http(s) URL written in the text (between `start` and `end`), without trailing
    punctuation."""
    out = []
    for m in URL.finditer(text, start, len(text) if end is None else end):
        url = m.group().rstrip(_TRAILING)
        if len(url) > len("https://"):
            out.append(DocumentLink(m.start(), m.start() + len(url), url, "open in a browser"))
    return out


def local_file(base_file: str | None, written: str) -> str | None:
    """The existing file `written` names, relative to the folder of `base_file` (or absolute); None
    when there is no such file: a link to nothing would open an empty editor, and the rules already
    say the file is missing."""
    if not written or base_file is None or "\0" in written:
        return None
    path = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(base_file)), written))
    return path if os.path.isfile(path) else None


# ---- semantic tokens -----------------------------------------------------------------------------------

# The legend, registered once in the server's capabilities: standard LSP token types, one per kind of
# name, distinct within each document kind (docs/editors.md "Semantic tokens" has the table).
TOKEN_OF = {
    "graph": "namespace", "map": "namespace",
    "node": "function", "edge": "event", "loop": "macro", "group": "struct", "policy": "decorator",
    "note": "comment",
    "lane": "class", "session": "function", "person": "parameter", "handoff": "event",
    "status": "enumMember", "run state": "enumMember", "role": "type", "run specification": "interface",
    "task": "variable",
}
TOKEN_TYPES: tuple[str, ...] = tuple(dict.fromkeys(TOKEN_OF.values()))
# `declaration`/`definition` on the place that defines a name; `deprecated` on a reference to nothing:
# every editor renders it (strikethrough in VS Code and Neovim), which no custom modifier would be.
TOKEN_MODIFIERS: tuple[str, ...] = ("declaration", "definition", "deprecated")
DEFINES = 0b011
UNRESOLVED = 0b100


@dataclass(frozen=True, order=True)
class Token:
    """One coloured name: its span (on one line), its type's index in `TOKEN_TYPES`, its modifier bits."""

    start: int
    end: int
    type: int
    modifiers: int = 0


def token(start: int, end: int, names: str, *, defines: bool = False, unresolved: bool = False) -> Token:
    """The token of a span naming a `names` (a kind of name of `TOKEN_OF`)."""
    return Token(start, end, TOKEN_TYPES.index(TOKEN_OF[names]),
                 (DEFINES if defines else 0) | (UNRESOLVED if unresolved else 0))


# ---- parts of a document in a range --------------------------------------------------------------------


def overlaps(span: tuple[int, int] | None, start: int, end: int) -> bool:
    return span is not None and span[0] <= end and span[1] >= start


def parts_in_range(analysis, start: int, end: int) -> list[tuple[str, int | None]]:
    """The top-level parts of the document the range [start, end] touches, in text order: (key, None)
    for a member, (key, index) for each item of a top-level list (found by bisection, so a screenful of
    a long list costs its own items). The whole text when `end` is None is every part."""
    value = analysis.value
    if not isinstance(value, dict):
        return []
    out: list[tuple[str, int | None]] = []
    sm = analysis.parsed.source_map
    for key, v in value.items():
        pointer = "/" + pointer_escape(key)
        span = analysis.extent(pointer)
        if not overlaps(span, start, end):
            continue
        if not isinstance(v, list) or not v:
            out.append((key, None))
            continue

        class _Ends:  # item i's end, read on demand for the bisection
            def __len__(self):
                return len(v)

            def __getitem__(self, i):
                s = sm.value_span(f"{pointer}/{i}")
                return -1 if s is None else s[1]

        first = bisect_left(_Ends(), start)
        for i in range(first, len(v)):
            s = sm.value_span(f"{pointer}/{i}")
            if s is None:
                continue
            if s[0] > end:
                break
            out.append((key, i))
    return out


def pruned_value(analysis, start: int, end: int) -> dict:
    """The document's value with only what the range [start, end] touches: top-level members outside it
    left out, a top-level list's items outside it None (its indices, hence pointers, kept), and of a
    top-level mapping (a workflow's statuses, a board's tasks) only the entries it touches. A kind whose
    names are read by walking the whole value walks this instead for a screenful."""
    value = analysis.value
    if not isinstance(value, dict):
        return {}
    out: dict = {}
    items: dict[str, set[int]] = {}
    for key, i in parts_in_range(analysis, start, end):
        if i is not None:
            items.setdefault(key, set()).add(i)
            continue
        v = value[key]
        out[key] = _entries_in_range(analysis, "/" + pointer_escape(key), v, start, end) if isinstance(v, dict) else v
    for key, kept in items.items():
        out[key] = [item if i in kept else None for i, item in enumerate(value[key])]
    return {k: out[k] for k in value if k in out}  # the document's own order


def _entries_in_range(analysis, pointer: str, mapping: dict, start: int, end: int) -> dict:
    """The entries of a mapping whose extent the range touches, found by bisection over its keys (in text
    order)."""
    names = list(mapping)

    class _Ends:
        def __len__(self):
            return len(names)

        def __getitem__(self, i):
            s = analysis.extent(pointer + "/" + pointer_escape(names[i]))
            return -1 if s is None else s[1]

    out = {}
    for name in names[bisect_left(_Ends(), start):]:
        s = analysis.extent(pointer + "/" + pointer_escape(name))
        if s is not None and s[0] > end:
            break
        out[name] = mapping[name]
    return out
