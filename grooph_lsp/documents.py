"""Open documents as the client holds them, and their analyses cached per version.

Text changes are applied here with the core's `LineIndex`, which breaks lines on \\n, \\r\\n and \\r
only, as LSP does (pygls's own document splits on U+2028 and form feeds too, so its positions drift
on such lines: DESIGN.md "Known pitfalls").
"""

from __future__ import annotations

from dataclasses import dataclass, field
from urllib.parse import unquote, urlparse

from grooph_core.ide.document import DocumentAnalysis
from grooph_core.ide.kinds import analyse
from grooph_core.rules.map import file_graph_resolver
from grooph_core.source.kinds import NeighbourKind, any_kind_from_name, claims_grooph, content_decides, neighbour_from_name
from grooph_core.source.line_index import LineIndex
from grooph_core.source.text import keeps_json_structure


def uri_name(uri: str) -> str:
    """The file name part of a URI (for deciding the kind by name)."""
    path = unquote(urlparse(uri).path) if "://" in uri or uri.startswith("file:") else uri
    return path.rsplit("/", 1)[-1]


@dataclass
class OpenDocument:
    uri: str
    text: str
    version: int
    language_id: str = ""  # as the client announced it; never decides what is served (served())
    _lines: LineIndex | None = field(default=None, repr=False)
    _claims: bool | None = field(default=None, repr=False)  # this text's claim (kinds.claims_grooph), once
    # the ranged changes that kept the JSON structure, from version `edits_from` on: (version after, Edit)
    edits: list = field(default_factory=list, repr=False)
    edits_from: int | None = field(default=None, repr=False)

    @property
    def lines(self) -> LineIndex:
        if self._lines is None:
            self._lines = LineIndex(self.text)
        return self._lines

    def set_text(self, text: str, lines: LineIndex | None = None) -> None:
        """A new text, with its line index when the caller has it (a ranged change carries it on). The
        log of edits starts again (`DocumentStore.change` keeps it for the changes it can describe)."""
        self.text = text
        self._lines = lines
        self._claims = None
        self.edits, self.edits_from = [], None

    def edits_after(self, version: int) -> tuple | None:
        """The edits from `version` to the current one, in order, when every change since was a ranged
        one that kept the JSON structure (`Edit`); else None."""
        if self.edits_from is None or version < self.edits_from:
            return None
        return tuple(e for v, e in self.edits if v > version)

    def use_lines(self, lines: LineIndex) -> None:
        """Take a line index of this very text (its analysis's) when none was built yet."""
        if self._lines is None and lines.text is self.text:
            self._lines = lines

    @property
    def name(self) -> str:
        return uri_name(self.uri)

    @property
    def neighbour(self) -> NeighbourKind | None:
        """The neighbouring format the file name says (workflow.md §1, board.md §1, episodes.md §1)."""
        return neighbour_from_name(self.name)

    def served(self) -> bool:
        """Ours by name (a graph, a map, a neighbouring format), or a text whose name leaves the kind to
        the content (`graph.json`, an untitled buffer) and whose top level claims to be a graph or a map.
        Never by the language id alone: an editor with one server entry for several modes announces
        `package.json` or `config.yaml` as `grooph` too (issue 21 item 4)."""
        if any_kind_from_name(self.name):
            return True
        if not content_decides(self.name):
            return False
        if self._claims is None:  # asked on every request: the core reads the text once per version
            self._claims = claims_grooph(self.text)
        return self._claims


class DocumentStore:
    """The texts the client has open (their analyses are the scheduler's: grooph_lsp/scheduler.py)."""

    def __init__(self) -> None:
        self.docs: dict[str, OpenDocument] = {}
        self.resolver_for = _resolver_for  # uri -> graph resolver; the workspace lays open texts over files
        self.generation: dict[str, int] = {}  # uri -> count of changes outside its text (a map's graph file)
        self.touched: list[str] = []  # open uris, the one last opened or changed last (a command without a uri)

    def forget(self, uri: str) -> None:
        """An input outside the text changed (a map's graph file): the analysis of this version is stale."""
        self.generation[uri] = self.generation.get(uri, 0) + 1

    def open(self, uri: str, text: str, version: int, language_id: str = "") -> OpenDocument:
        doc = OpenDocument(uri, text, version, language_id)
        self.docs[uri] = doc
        self._touch(uri)
        return doc

    def close(self, uri: str) -> None:
        self.docs.pop(uri, None)
        if uri in self.touched:
            self.touched.remove(uri)

    def _touch(self, uri: str) -> None:
        if not self.touched or self.touched[-1] != uri:
            if uri in self.touched:
                self.touched.remove(uri)
            self.touched.append(uri)

    def get(self, uri: str) -> OpenDocument | None:
        return self.docs.get(uri)

    def change(self, uri: str, version: int, changes: list, encoding: str) -> OpenDocument | None:
        """Apply content changes in order: whole-text ones, or ranged ones in the client's encoding."""
        doc = self.docs.get(uri)
        if doc is None:
            return None
        text = doc.text
        lines: LineIndex | None = doc.lines
        edits: list | None = []
        before = doc.version
        for ch in changes:
            rng = getattr(ch, "range", None)
            if rng is None:
                text, lines, edits = ch.text, None, None
                continue
            # Each change is in the coordinates of the text left by the one before; the index is
            # carried from version to version (LineIndex.edited), not rebuilt per keystroke.
            lines = lines or LineIndex(text)
            start = lines.offset(rng.start.line, rng.start.character, encoding)
            end = lines.offset(rng.end.line, rng.end.character, encoding)
            if end < start:
                start, end = end, start
            if edits is not None:  # its places as the text has them (a range past a line's end is clamped)
                edit = Edit.of(lines.position(start, encoding), lines.position(end, encoding), text[start:end],
                               ch.text, encoding)
                edits = None if edit is None else edits + [edit]
            new_text = "".join((text[:start], ch.text, text[end:]))  # one copy of the whole fewer than `+`
            lines = lines.edited(start, end, ch.text, new_text)
            text = new_text
        log, since = doc.edits, doc.edits_from
        doc.set_text(text, lines)
        if edits is not None:  # the log goes on (the first version it describes: the one before this change)
            log = log + [(version, e) for e in edits]
            since = before if since is None else since
            if len(log) > MAX_EDITS:  # the oldest half goes: versions before it are no longer described
                since, log = log[len(log) // 2 - 1][0], log[len(log) // 2:]
            doc.edits, doc.edits_from = log, since
        doc.version = version
        self._touch(uri)
        return doc


MAX_EDITS = 64            # edits kept per document (an analysis is rarely more than a few keys behind)


@dataclass(frozen=True)
class Edit:
    """One ranged change that kept the JSON structure (neither the text it replaced nor the text it put
    in has a bracket, brace, comma, colon, quote, backslash or carriage return), in LSP positions of
    the client's encoding: a member's pointer names the same member before and after it. `lines` is
    the count of line breaks put in; `last` the width of what was put in after its last one."""

    start: tuple[int, int]
    end: tuple[int, int]
    lines: int
    last: int

    @staticmethod
    def of(start: tuple[int, int], end: tuple[int, int], removed: str, inserted: str, encoding: str) -> "Edit | None":
        if not keeps_json_structure(removed, inserted):
            return None
        tail = inserted[inserted.rfind("\n") + 1:]
        width = (len(tail) if encoding == "utf-32" or tail.isascii()
                 else len(tail.encode("utf-16-le", "surrogatepass")) // 2 if encoding == "utf-16"
                 else len(tail.encode("utf-8", "surrogatepass")))
        return Edit(start, end, inserted.count("\n"), width)

    def moved(self, pos: tuple[int, int]) -> tuple[int, int] | None:
        """Where a position before or after this edit is once it is made; None when it is at or inside it."""
        if pos < self.start:
            return pos
        if pos <= self.end:
            return None
        line, col = pos
        if line > self.end[0]:
            return line + self.lines - (self.end[0] - self.start[0]), col
        base = self.start[1] if self.lines == 0 else 0
        return self.start[0] + self.lines, base + self.last + col - self.end[1]


def analyse_text(uri: str, name: str, text: str, *, export: bool, max_chars: int,
                 resolver=None, previous: DocumentAnalysis | None = None) -> DocumentAnalysis:
    """The analysis of one version's text (a function of its arguments and the files a map names: safe
    in a worker thread). `resolver` looks up a map's graphs; by default, beside the map on disk. A
    document is read by the kind its name says (`ide.kinds.analyse`); `previous`, an earlier version's
    analysis with the same settings, is reused where the kind can (the issues are the same either way)."""
    if resolver is None:
        resolver = _resolver_for(uri)
    return analyse(text, name=name, export=export, resolver=resolver, max_chars=max_chars, previous=previous)


def _resolver_for(uri: str):
    """A map's graph pointers are looked up beside the map on disk (local files only, never a URL)."""
    if not uri.startswith("file:"):
        return None
    path = unquote(urlparse(uri).path)
    return file_graph_resolver(path)
