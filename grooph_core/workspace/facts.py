"""What the workspace keeps about one document once it is analysed: its title, its error count, the
symbols `workspace/symbol` searches, the graph pointers of a map's sessions, and what the code lenses
say. Spans are character offsets in the document's text (the shell converts them). A neighbouring
document (a workflow, board or episode record) has its outline's symbols (ide/neighbours/outline.py) and no
links or lenses."""

from __future__ import annotations

from dataclasses import dataclass

import os

from grooph_core.ide.document import DocumentAnalysis
from grooph_core.ide.grooph.navigation import Symbol, document_symbols
from grooph_core.ide.neighbours.outline import neighbour_symbols
from grooph_core.rules.map.graph_pointers import graph_path
from grooph_core.source.kinds import NEIGHBOUR_KINDS, Kind
from grooph_core.source.text import is_number, js_number, value_at
from grooph_core.semantics.brake_words import loop_brakes_words
from grooph_core.workspace.lenses import handoff_counts

Span = tuple[int, int]
# The objects `workspace/symbol` finds (issue 17 item 3); the documents themselves too; of the
# neighbouring formats, a workflow's statuses and a board's tasks (the outline's kinds).
SEARCHED_KINDS = frozenset({"graph", "map", "node", "loop", "lane", "session", "handoff", "person", "status", "task"})


@dataclass(frozen=True)
class SymbolFact:
    """One searchable object: `ident` is its id, `name` its display name ('' when none)."""

    kind: str
    ident: str
    name: str
    span: Span  # the whole object
    selection: Span  # its id


@dataclass(frozen=True)
class GraphLink:
    """A map session's `graph` pointer: as written, where its value is, and the file it names (None
    when the pointer is not a path that is looked up, map.md §6.8)."""

    session: str
    pointer: str
    span: Span
    target: str | None


@dataclass(frozen=True)
class Lens:
    """A line of text above an object; `targets` are the spans its command reveals (in this document)."""

    span: Span
    title: str
    targets: tuple[Span, ...]


@dataclass(frozen=True)
class DocumentFacts:
    path: str
    kind: Kind
    ident: str
    name: str
    goal: str
    errors: int
    warnings: int
    symbols: tuple[SymbolFact, ...]
    links: tuple[GraphLink, ...]
    lenses: tuple[Lens, ...]
    version: str = ""  # a graph's `version` as written (graph.md §1.1): a map's `<graph-id>@<version>` names it

    @property
    def title(self) -> str:
        """The document's name, else its id; a neighbouring document (which has neither) its file name."""
        if self.kind in NEIGHBOUR_KINDS:
            return self.name or self.ident or os.path.basename(self.path)
        return self.name or self.ident


def _s(v: object) -> str:
    return v if isinstance(v, str) else ""


def _flatten(symbols: list[Symbol] | tuple[Symbol, ...]):
    for s in symbols:
        yield s
        yield from _flatten(s.children)


def _spans(analysis: DocumentAnalysis, sym_pointer: str, id_pointer: str | None, on_key: bool = False) -> tuple[Span, Span]:
    full = analysis.extent(sym_pointer) if sym_pointer else None
    full = full or (0, len(analysis.text))
    sel = analysis.pointer_span(id_pointer, key=on_key) if id_pointer else full
    if not (full[0] <= sel[0] and sel[1] <= full[1]):
        sel = full
    return full, sel


def _neighbour_facts(path: str, analysis: DocumentAnalysis, value: dict, errors: int) -> DocumentFacts:
    """A workflow's statuses, a board's tasks (by their keys; a task's title as its name): the entries
    of the document outline that `workspace/symbol` searches (ide/neighbours/outline.py)."""
    symbols: list[SymbolFact] = []
    for sym in _flatten(neighbour_symbols(value, analysis.kind)):
        if sym.kind not in SEARCHED_KINDS:
            continue
        title = _s(_at(value, sym.pointer).get("title")) if sym.kind == "task" else ""
        full, sel = _spans(analysis, sym.pointer, sym.id_pointer, sym.on_key)
        symbols.append(SymbolFact(sym.kind, sym.name, title, full, sel))
    board = analysis.document_kind.identified_by_slug  # board.md §2: a board has a `slug` and a `name`; the others neither
    return DocumentFacts(
        path=path, kind=analysis.kind, ident=_s(value.get("slug")) if board else "",  # type: ignore[arg-type]
        name=_s(value.get("name")) if board else "", goal="", errors=errors,
        warnings=len(analysis.issues) - errors, symbols=tuple(symbols), links=(), lenses=(),
    )


def document_facts(path: str, analysis: DocumentAnalysis) -> DocumentFacts:
    """The facts of one analysed document (any text: broken parts simply contribute nothing)."""
    value = analysis.value if isinstance(analysis.value, dict) else {}
    if analysis.kind in NEIGHBOUR_KINDS:
        return _neighbour_facts(path, analysis, value, sum(1 for i in analysis.issues if i.severity == "error"))
    symbols: list[SymbolFact] = []
    for sym in _flatten(document_symbols(value, analysis.kind)):
        if sym.kind not in SEARCHED_KINDS:
            continue
        obj = _at(value, sym.pointer)
        full, sel = _spans(analysis, sym.pointer, sym.id_pointer)
        symbols.append(SymbolFact(sym.kind, _s(obj.get("id")), _s(obj.get("name")), full, sel))
    links: list[GraphLink] = []
    lenses: list[Lens] = []
    if analysis.document_kind.names_graphs:
        sessions = value.get("sessions") if isinstance(value.get("sessions"), list) else []
        handoffs = value.get("handoffs") if isinstance(value.get("handoffs"), list) else []
        for i, s in enumerate(sessions):
            if not isinstance(s, dict):
                continue
            if isinstance(s.get("graph"), str):
                span = analysis.pointer_span(f"/sessions/{i}/graph")
                links.append(GraphLink(_s(s.get("id")), s["graph"], span, graph_path(path, s["graph"])))
            sid = s.get("id")
            if isinstance(sid, str):
                came, went = handoff_counts(handoffs, sid)
                anchor = analysis.extent(f"/sessions/{i}") or (0, 0)
                # the session's handoffs; with none, the list where one would be added
                found = [analysis.extent(f"/handoffs/{j}") for j in sorted(set(came + went))]
                targets = tuple(t for t in found if t) or tuple(t for t in [analysis.extent("/handoffs")] if t)
                lenses.append(Lens(anchor, _handoffs_title(len(came), len(went)), targets))
    else:
        loops = value.get("loops") if isinstance(value.get("loops"), list) else []
        for i, lp in enumerate(loops):
            if not isinstance(lp, dict):
                continue
            anchor = analysis.extent(f"/loops/{i}") or (0, 0)
            stops = analysis.extent(f"/loops/{i}/stops") or analysis.extent(f"/loops/{i}")
            lenses.append(Lens(anchor, loop_brakes_words(lp), (stops,) if stops else ()))
    errors = sum(1 for i in analysis.issues if i.severity == "error")
    return DocumentFacts(
        path=path, kind=analysis.kind, ident=_s(value.get("id")), name=_s(value.get("name")),
        goal=_s(value.get("goal")), errors=errors, warnings=len(analysis.issues) - errors,
        symbols=tuple(symbols), links=tuple(links), lenses=tuple(lenses),
        version=js_number(value["version"]) if is_number(value.get("version")) else "",
    )


def _handoffs_title(came: int, went: int) -> str:
    """`2 handoffs in · 1 out`."""
    return f"{came} handoff{'' if came == 1 else 's'} in · {went} out"


def _at(value: dict, pointer: str) -> dict:
    obj = value_at(value, pointer) if pointer else value
    return obj if isinstance(obj, dict) else {}
