"""Open documents as the client holds them, and their analyses cached per version.

Text changes are applied here with the core's `LineIndex`, which breaks lines on \\n, \\r\\n and \\r
only, as LSP does (pygls's own document splits on U+2028 and form feeds too, so its positions drift
on such lines: DESIGN.md "Known pitfalls").
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from urllib.parse import unquote, urlparse

from grooph_core.analysis import Analysis, analyze
from grooph_core.kinds import NeighbourKind, kind_from_name, neighbour_from_name
from grooph_core.line_index import LineIndex
from grooph_core.neighbours import analyze_neighbour

GROOPH_LANGUAGES = {"grooph", "grooph-map"}
_CLAIMS = re.compile(r'"groophMap"\s*:|"grooph"\s*:')


def uri_name(uri: str) -> str:
    """The file name part of a URI (for deciding the kind by name)."""
    path = unquote(urlparse(uri).path) if "://" in uri or uri.startswith("file:") else uri
    return path.rsplit("/", 1)[-1]


@dataclass
class OpenDocument:
    uri: str
    text: str
    version: int
    language_id: str = ""
    _lines: LineIndex | None = field(default=None, repr=False)

    @property
    def lines(self) -> LineIndex:
        if self._lines is None:
            self._lines = LineIndex(self.text)
        return self._lines

    def set_text(self, text: str) -> None:
        self.text = text
        self._lines = None

    @property
    def name(self) -> str:
        return uri_name(self.uri)

    @property
    def neighbour(self) -> NeighbourKind | None:
        """The neighbouring format the file name says (workflow.md §1, board.md §1, episodes.md §1)."""
        return neighbour_from_name(self.name)

    def served(self) -> bool:
        """A grooph document by name or language, a neighbouring format by name, or a JSON file whose
        top level claims to be a grooph document."""
        if kind_from_name(self.name) or self.neighbour or self.language_id in GROOPH_LANGUAGES:
            return True
        if not self.name.lower().endswith(".json") and self.language_id not in ("json", "jsonc"):
            return False
        if not _CLAIMS.search(self.text[:65536]):
            return False
        from grooph_core.source import parse

        value = parse(self.text).value
        return isinstance(value, dict) and ("grooph" in value or "groophMap" in value)


class DocumentStore:
    """The texts the client has open, and one cached analysis per (uri, version, options)."""

    def __init__(self) -> None:
        self.docs: dict[str, OpenDocument] = {}
        self._analysis: dict[str, tuple[tuple, Analysis]] = {}

    def open(self, uri: str, text: str, version: int, language_id: str = "") -> OpenDocument:
        doc = OpenDocument(uri, text, version, language_id)
        self.docs[uri] = doc
        self._analysis.pop(uri, None)
        return doc

    def close(self, uri: str) -> None:
        self.docs.pop(uri, None)
        self._analysis.pop(uri, None)

    def get(self, uri: str) -> OpenDocument | None:
        return self.docs.get(uri)

    def change(self, uri: str, version: int, changes: list, encoding: str) -> OpenDocument | None:
        """Apply content changes in order: whole-text ones, or ranged ones in the client's encoding."""
        doc = self.docs.get(uri)
        if doc is None:
            return None
        text = doc.text
        for ch in changes:
            rng = getattr(ch, "range", None)
            if rng is None:
                text = ch.text
                continue
            # The first change is in the current version's coordinates: its cached index serves.
            lines = doc.lines if text is doc.text else LineIndex(text)
            start = lines.offset(rng.start.line, rng.start.character, encoding)
            end = lines.offset(rng.end.line, rng.end.character, encoding)
            if end < start:
                start, end = end, start
            text = text[:start] + ch.text + text[end:]
        doc.set_text(text)
        doc.version = version
        # The old version's analysis can never be served again; letting it go now frees its text and
        # value before the new version is analysed (a lower memory peak on large documents).
        self._analysis.pop(uri, None)
        return doc

    def analysis(self, doc: OpenDocument, *, export: bool, max_chars: int) -> Analysis:
        """The analysis of this version of the document (computed once per version and options)."""
        key = (doc.version, len(doc.text), export, max_chars)
        hit = self._analysis.get(doc.uri)
        if hit is not None and hit[0] == key and hit[1].text is doc.text:
            return hit[1]
        if doc.neighbour is not None:
            result = analyze_neighbour(doc.text, doc.neighbour, max_chars=max_chars)
        else:
            result = analyze(doc.text, name=doc.name, export=export, resolver=_resolver_for(doc.uri), max_chars=max_chars)
        if not result._lines:  # one line index per version: the diagnostics and the next change share it
            result._lines.append(doc.lines)
        self._analysis[doc.uri] = (key, result)
        return result


def _resolver_for(uri: str):
    """A map's graph pointers are looked up beside the map on disk (local files only, never a URL)."""
    if not uri.startswith("file:"):
        return None
    path = unquote(urlparse(uri).path)
    try:
        from grooph_core.rules.map import file_graph_resolver
    except ImportError:
        return None
    return file_graph_resolver(path)
