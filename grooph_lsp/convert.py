"""The one place where core values become LSP types: offsets → positions, issues → diagnostics."""

from __future__ import annotations

from lsprotocol import types as lsp

from grooph_core.analysis import Analysis
from grooph_core.code_docs import page_uri
from grooph_core.issues import CODES, Issue
from grooph_core.line_index import LineIndex



def to_lsp_position(lines: LineIndex, offset: int, encoding: str) -> lsp.Position:
    line, col = lines.position(offset, encoding)
    return lsp.Position(line=line, character=col)


def to_lsp_range(lines: LineIndex, span: tuple[int, int], encoding: str) -> lsp.Range:
    return lsp.Range(start=to_lsp_position(lines, span[0], encoding), end=to_lsp_position(lines, span[1], encoding))


def to_offset(lines: LineIndex, pos: lsp.Position, encoding: str) -> int:
    return lines.offset(pos.line, pos.character, encoding)


def code_link(code: str) -> str:
    """The code's section of the documentation page shipped with the package."""
    return page_uri(code)


def to_lsp_diagnostic(analysis: Analysis, issue: Issue, uri: str, encoding: str, index: int) -> lsp.Diagnostic:
    lines = analysis.line_index
    severity = lsp.DiagnosticSeverity.Error if issue.severity == "error" else lsp.DiagnosticSeverity.Warning
    related = None
    spans = issue.data.get("related_spans") if issue.data else None
    if spans:  # copies of a duplicated key share one pointer: the parser gives their spans
        related = [
            lsp.DiagnosticRelatedInformation(
                location=lsp.Location(uri=uri, range=to_lsp_range(lines, (s, e), encoding)), message=note)
            for s, e, note in spans
        ]
    elif issue.related:
        related = [
            lsp.DiagnosticRelatedInformation(
                location=lsp.Location(uri=uri, range=to_lsp_range(lines, analysis.pointer_span(p), encoding)),
                message=note,
            )
            for p, note in issue.related
        ]
    message = issue.message  # `at` travels in `data`; the message already names the objects
    return lsp.Diagnostic(
        range=to_lsp_range(lines, analysis.span(issue), encoding),
        message=message,
        severity=severity,
        code=issue.code,
        code_description=lsp.CodeDescription(href=code_link(issue.code)) if issue.code in CODES else None,
        source="grooph",
        related_information=related,
        data={"index": index, "code": issue.code, "at": list(issue.at), "pointers": list(issue.pointers)},
    )


def to_lsp_location(uri: str, lines: LineIndex, span: tuple[int, int], encoding: str) -> lsp.Location:
    return lsp.Location(uri=uri, range=to_lsp_range(lines, span, encoding))


WORKSPACE_SYMBOL_KINDS = {
    "graph": lsp.SymbolKind.Module, "map": lsp.SymbolKind.Module, "node": lsp.SymbolKind.Class,
    "loop": lsp.SymbolKind.Enum, "lane": lsp.SymbolKind.Namespace, "session": lsp.SymbolKind.Class,
    "person": lsp.SymbolKind.Object, "handoff": lsp.SymbolKind.Event,
}


def to_lsp_workspace_symbol(symbol, container: str, uri: str, lines: LineIndex, encoding: str) -> lsp.SymbolInformation:
    """A workspace symbol (core `SymbolFact`): `id — name`, located at the object's id."""
    label = symbol.ident if not symbol.name or symbol.name == symbol.ident else f"{symbol.ident} — {symbol.name}"
    return lsp.SymbolInformation(
        name=label or "(no id)", kind=WORKSPACE_SYMBOL_KINDS.get(symbol.kind, lsp.SymbolKind.Object),
        location=to_lsp_location(uri, lines, symbol.selection, encoding), container_name=container or None,
    )


def to_lsp_code_lens(lens, uri: str, lines: LineIndex, encoding: str, command: str) -> lsp.CodeLens:
    """A core `Lens`: its text; when it has places to show, a command revealing them (uri, ranges)."""
    rng = to_lsp_range(lines, (lens.span[0], lens.span[0]), encoding)
    cmd = None
    if lens.targets:
        ranges = [to_lsp_range(lines, t, encoding) for t in lens.targets]
        args = [uri, [{"start": {"line": r.start.line, "character": r.start.character},
                       "end": {"line": r.end.line, "character": r.end.character}} for r in ranges]]
        cmd = lsp.Command(title=lens.title, command=command, arguments=args)
    return lsp.CodeLens(range=rng, command=cmd)
