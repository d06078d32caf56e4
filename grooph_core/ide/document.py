"""What the editor needs of one version of a document, whatever its kind (`DocumentAnalysis`, the base of
`grooph.analysis.Analysis` and `neighbours.analysis.NeighbourAnalysis`), and the rules every kind shares:
where an issue is shown (`placed_span`), a member's extent, whether an object may still grow."""

from __future__ import annotations

from abc import ABC, abstractmethod

from grooph_core.ide.face import face_of
from grooph_core.issues import Issue
from grooph_core.source.json_reader import ParsedText
from grooph_core.source.line_index import LineIndex, index_in, lsp_range
from grooph_core.source.text import value_at


class DocumentAnalysis(ABC):
    """What the editor needs about one version of a document, whatever its kind: a graph or map
    (`Analysis`) or a neighbouring format (`ide.neighbours.analysis.NeighbourAnalysis`). The shell treats both
    alike; only how a JSON pointer is placed in the text (`pointer_span`) differs by kind."""

    text: str
    kind: str
    parsed: ParsedText
    issues: tuple[Issue, ...]
    _lines: list  # the one line index of this version, filled lazily (`line_index`, `use_lines`)

    @property
    def value(self) -> object:
        return self.parsed.value

    @property
    def document_kind(self):
        """The kind's face (`ide.face.DocumentKind`): what every request of this document is asked of."""
        return face_of(self.kind)

    @property
    def line_index(self) -> LineIndex:
        return index_in(self._lines, self.text)

    def use_lines(self, lines: LineIndex) -> LineIndex:
        """Share a line index already built for this very text (the open document's), unless this
        analysis has one; the index kept is returned."""
        return index_in(self._lines, self.text, lines)

    @property
    def reusable(self) -> bool:
        """True when the analysis of the next version can reuse this one (`DocumentKind.read`'s
        `previous`): only then does the editor keep it once the text has changed (issue 24)."""
        return False

    @abstractmethod
    def pointer_span(self, pointer: str, *, key: bool = False) -> tuple[int, int]:
        """The span a JSON pointer (its key, with `key`) is shown at, by the kind's rule."""

    def span(self, issue: Issue) -> tuple[int, int]:
        """The character span an issue points at (its own span, or its primary pointer's)."""
        return placed_span(issue, self.pointer_span)

    def issue_range(self, issue: Issue, encoding: str = "utf-16") -> dict:
        """The issue's range in plain LSP shape (`line_index.lsp_range`)."""
        return lsp_range(self.line_index, self.span(issue), encoding)  # type: ignore[arg-type]

    def extent(self, pointer: str) -> tuple[int, int] | None:
        """The whole member at a pointer (key to end of value): what an outline entry or a fold covers."""
        return member_extent(self.parsed, pointer)

    @property
    def over_limit(self) -> Issue | None:
        """The E_DOC_LIMIT issue when the text is too long or too deep to analyse (then nothing else
        was looked at, and actions say this rather than "not valid JSON")."""
        return next((p for p in self.parsed.problems if p.code == "E_DOC_LIMIT"), None)


def member_extent(parsed: ParsedText, pointer: str) -> tuple[int, int] | None:
    """The whole member at a pointer, from its key (when it has one) to the end of its value:
    what an outline entry or a fold covers."""
    sm = parsed.source_map
    vs = sm.value_span(pointer)
    if vs is None:
        return None
    ks = sm.key_span(pointer) if pointer else None
    return (ks[0] if ks else vs[0], vs[1])


def placed_span(issue: Issue, point) -> tuple[int, int]:
    """An issue's own span (a syntax problem's), else its primary pointer placed by `point` (the kind's
    rule), else the start of the text; the one rule for every kind."""
    if issue.span is not None:
        return issue.span
    if not issue.pointers:
        return (0, 0)
    return point(issue.pointers[0], key=issue.on_key)


def still_open(parsed: ParsedText, pointer: str) -> bool:
    """True when the text ends inside the object at `pointer` and the object has a member: fields it
    lacks may still follow below the cut (issue 21). A fresh `{` keeps its one listing of what to
    write (issue 13)."""
    if pointer not in parsed.open_at_end:
        return False
    holder = value_at(parsed.value, pointer)
    return isinstance(holder, dict) and bool(holder)
