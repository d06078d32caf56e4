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

    @property
    def lines(self) -> LineIndex:
        if self._lines is None:
            self._lines = LineIndex(self.text)
        return self._lines

    def set_text(self, text: str, lines: LineIndex | None = None) -> None:
        """A new text, with its line index when the caller has it (a ranged change carries it on)."""
        self.text = text
        self._lines = lines
        self._claims = None

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
        for ch in changes:
            rng = getattr(ch, "range", None)
            if rng is None:
                text, lines = ch.text, None
                continue
            # Each change is in the coordinates of the text left by the one before; the index is
            # carried from version to version (LineIndex.edited), not rebuilt per keystroke.
            lines = lines or LineIndex(text)
            start = lines.offset(rng.start.line, rng.start.character, encoding)
            end = lines.offset(rng.end.line, rng.end.character, encoding)
            if end < start:
                start, end = end, start
            new_text = "".join((text[:start], ch.text, text[end:]))  # one copy of the whole fewer than `+`
            lines = lines.edited(start, end, ch.text, new_text)
            text = new_text
        doc.set_text(text, lines)
        doc.version = version
        self._touch(uri)
        return doc


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
