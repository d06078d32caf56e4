"""Request handlers beyond the document lifecycle: each fetches the analysis, calls the core, wraps.

Every handler that can fail on odd input returns an empty answer or a proper LSP error with a clear
message; the core does the deciding.
"""

from __future__ import annotations

import logging
from contextvars import ContextVar
from typing import TYPE_CHECKING, Any

from lsprotocol import types as lsp
from pygls.exceptions import JsonRpcException

from grooph_core import completion as core_completion
from grooph_core import hover as core_hover
from grooph_core.formatting import format_edits
from grooph_core.navigation import Symbol, document_symbols
from grooph_core.neighbour_completion import neighbour_complete_at
from grooph_core.neighbour_format import WORKFLOW_NOT_FORMATTED
from grooph_core.neighbour_hover import neighbour_hover_at
from grooph_core.neighbour_outline import neighbour_symbols
from grooph_core import refactor
from grooph_core.refactor import Refused
from grooph_core.semantics import neighbour_names
from grooph_core.text_edits import TextEdit
from grooph_lsp.convert import to_lsp_range, to_offset

if TYPE_CHECKING:
    from grooph_lsp.server import GroophServer

log = logging.getLogger("grooph_lsp")

REQUEST_FAILED = -32803

# The documents already told that a workflow is not formatted (once each: formatting on save would
# otherwise say it at every save).
_TOLD_UNFORMATTED: set[str] = set()

SYMBOL_KINDS = {
    "graph": lsp.SymbolKind.Module, "map": lsp.SymbolKind.Module, "list": lsp.SymbolKind.Array,
    "node": lsp.SymbolKind.Class, "edge": lsp.SymbolKind.Event, "loop": lsp.SymbolKind.Enum,
    "policy": lsp.SymbolKind.Interface, "group": lsp.SymbolKind.Namespace, "note": lsp.SymbolKind.String,
    "lane": lsp.SymbolKind.Namespace, "session": lsp.SymbolKind.Class, "person": lsp.SymbolKind.Object,
    "handoff": lsp.SymbolKind.Event,
    "status": lsp.SymbolKind.EnumMember, "event": lsp.SymbolKind.Event, "role": lsp.SymbolKind.Property,
    "run spec": lsp.SymbolKind.Function, "run state": lsp.SymbolKind.EnumMember, "cap": lsp.SymbolKind.Constant,
    "task": lsp.SymbolKind.Class, "episode": lsp.SymbolKind.Object,
}


class RequestRefused(JsonRpcException):
    """An LSP error the client shows to the user (RequestFailed, LSP 3.17). pygls reads the class's
    `CODE` (a `code` class attribute would be overwritten by the instance's, -32603 InternalError)."""

    CODE = REQUEST_FAILED

    def __init__(self, message: str) -> None:
        super().__init__(message)
        log.info("refused: %s", message)


class ContentModified(RequestRefused):
    """ContentModified (LSP 3.17): the request was about a version the document no longer has (a code
    action resolved after the text changed); the client asks again."""

    CODE = -32801


class QuietRefusals(logging.Filter):
    """pygls logs every exception a handler raises, traceback and all, at ERROR; a refusal is an
    answer to the user, not a fault of the server, so its record is dropped (issue 9: no traceback
    in the log for ordinary use)."""

    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info[1] if record.exc_info else None
        return not isinstance(exc, RequestRefused)


def lsp_edits(ls: "GroophServer", lines, edits: list[TextEdit]) -> list[lsp.TextEdit]:
    """Edits in LSP form, placed with the line index of the version they were made for."""
    return [lsp.TextEdit(range=to_lsp_range(lines, (e.start, e.end), ls.encoding), new_text=e.text) for e in edits]


def _markup(ls: "GroophServer", text: str, formats) -> lsp.MarkupContent:
    """Markdown when the client takes it, else plain text (LSP: the client lists what it renders)."""
    if formats is None or lsp.MarkupKind.Markdown in formats:
        return lsp.MarkupContent(kind=lsp.MarkupKind.Markdown, value=text)
    return lsp.MarkupContent(kind=lsp.MarkupKind.PlainText, value=_plain(text))


def _plain(text: str) -> str:
    return text.replace("**", "").replace("`", "").replace("*", "")


def _hover_formats(ls: "GroophServer"):
    td = ls.client_capabilities.text_document
    return td.hover.content_format if td and td.hover else None


def _completion_formats(ls: "GroophServer"):
    td = ls.client_capabilities.text_document
    item = td.completion.completion_item if td and td.completion else None
    return item.documentation_format if item else None


def _snippet_support(ls: "GroophServer") -> bool:
    td = ls.client_capabilities.text_document
    item = td.completion.completion_item if td and td.completion else None
    return bool(item and item.snippet_support)


async def _doc_and_offset(ls: "GroophServer", uri: str, pos: lsp.Position):
    """The document, the analysis of its version as the request came, and the offset of `pos` in it
    (the analysis is waited for off the event loop; its own line index places everything)."""
    doc = ls.served(uri)
    if doc is None:
        return None, None, None
    check_request_version(doc)
    analysis = await ls.analysed(doc)
    return doc, analysis, to_offset(analysis.line_index, pos, ls.encoding)


# The version of the request's document when the request arrived (set by server.GroophProtocol): a
# handler's task starts after the notifications read with it, so a didChange may have come first.
REQUEST_VERSION: ContextVar[tuple[str, int] | None] = ContextVar("grooph_request_version", default=None)


def check_request_version(doc) -> None:
    """A position is about the version the request came at: when a change was applied before the
    handler ran, the answer would be about another text (ContentModified, LSP 3.17)."""
    asked = REQUEST_VERSION.get()
    if asked is not None and asked[0] == doc.uri and asked[1] != doc.version:
        raise ContentModified("The document changed before this request was answered; ask again.")


async def _names_doc(ls: "GroophServer", uri: str, pos: lsp.Position):
    """The document, analysis, offset and names module (graph refactor or neighbour names) for a name
    request; the analysis is waited for off the event loop."""
    doc, analysis, offset = await _doc_and_offset(ls, uri, pos)
    if doc is not None:
        return doc, analysis, offset, refactor
    doc = ls.store.get(uri)
    if doc is None or doc.neighbour is None:
        return None, None, None, None
    analysis = (await ls.scheduler.result(doc)).analysis
    if analysis is None:
        return None, None, None, None
    return doc, analysis, to_offset(analysis.line_index, pos, ls.encoding), neighbour_names


async def _neighbour_analysis(ls: "GroophServer", uri: str):
    """The analysis of a neighbouring document's current version (None for any other document)."""
    doc = ls.store.get(uri)
    if doc is None or doc.neighbour is None:
        return None
    check_request_version(doc)
    return (await ls.scheduler.result(doc)).analysis


async def _any_doc_and_offset(ls: "GroophServer", uri: str, pos: lsp.Position):
    """(analysis, offset, is a neighbour) of a graph/map or a neighbouring document; (None, None, False)
    for any other document."""
    doc, analysis, offset = await _doc_and_offset(ls, uri, pos)
    if doc is not None:
        return analysis, offset, False
    analysis = await _neighbour_analysis(ls, uri)
    if analysis is None:
        return None, None, False
    return analysis, to_offset(analysis.line_index, pos, ls.encoding), True


def _symbol(ls: "GroophServer", analysis, sym: Symbol) -> lsp.DocumentSymbol:
    lines = analysis.line_index
    full = (analysis.extent(sym.pointer) if sym.pointer else None) or (0, len(analysis.text))
    sel = analysis.pointer_span(sym.id_pointer, key=sym.on_key) if sym.id_pointer else full
    if not (full[0] <= sel[0] and sel[1] <= full[1]):
        sel = full
    return lsp.DocumentSymbol(
        name=sym.name or "(unnamed)",
        detail=sym.detail,
        kind=SYMBOL_KINDS.get(sym.kind, lsp.SymbolKind.Object),
        range=to_lsp_range(lines, full, ls.encoding),
        selection_range=to_lsp_range(lines, sel, ls.encoding),
        children=[_symbol(ls, analysis, c) for c in sym.children],
    )


def _folds(analysis) -> list[lsp.FoldingRange]:
    """A fold for every outline entry written over more than one line."""
    lines = analysis.line_index
    out: list[lsp.FoldingRange] = []

    def walk(sym: Symbol) -> None:
        span = analysis.extent(sym.pointer) if sym.pointer else None
        if span is not None:
            s, e = span
            (sl, _), (el, _) = lines.position(s), lines.position(e)
            if el > sl:
                out.append(lsp.FoldingRange(start_line=sl, end_line=el))
        for c in sym.children:
            walk(c)

    for s in document_symbols(analysis.value, analysis.kind):
        walk(s)
    return out


def register(server: "GroophServer") -> None:
    """Register every request feature on the server."""
    rpc_log = logging.getLogger("pygls.protocol.json_rpc")
    if not any(isinstance(f, QuietRefusals) for f in rpc_log.filters):
        rpc_log.addFilter(QuietRefusals())

    @server.feature(lsp.TEXT_DOCUMENT_FORMATTING)
    async def formatting(ls: "GroophServer", params: lsp.DocumentFormattingParams) -> list[lsp.TextEdit] | None:
        doc = ls.served(params.text_document.uri)
        if doc is not None:
            analysis = await ls.analysed(doc)
        else:
            analysis = await _neighbour_analysis(ls, params.text_document.uri)
            if analysis is None:
                return None
        result = await ls.off_loop(format_edits, analysis)
        if isinstance(result, Refused):
            told = result.message == WORKFLOW_NOT_FORMATTED  # said once a document (formatting on save)
            if not (told and params.text_document.uri in _TOLD_UNFORMATTED):
                _TOLD_UNFORMATTED.update([params.text_document.uri] if told else [])
                ls.window_show_message(lsp.ShowMessageParams(
                    type=lsp.MessageType.Info if told else lsp.MessageType.Warning, message=result.message))
            return None
        return lsp_edits(ls, analysis.line_index, result)

    @server.feature(lsp.TEXT_DOCUMENT_DEFINITION)
    async def definition(ls: "GroophServer", params: lsp.DefinitionParams) -> list[lsp.Location] | None:
        doc, analysis, offset, names = await _names_doc(ls, params.text_document.uri, params.position)
        if doc is None:
            return None
        spans = names.definition_at(analysis, offset)
        return [lsp.Location(uri=doc.uri, range=to_lsp_range(analysis.line_index, s, ls.encoding)) for s in spans] or None

    @server.feature(lsp.TEXT_DOCUMENT_REFERENCES)
    async def references(ls: "GroophServer", params: lsp.ReferenceParams) -> list[lsp.Location] | None:
        doc, analysis, offset, names = await _names_doc(ls, params.text_document.uri, params.position)
        if doc is None:
            return None
        spans = await ls.off_loop(lambda: names.references_at(analysis, offset, include_declaration=params.context.include_declaration))
        return [lsp.Location(uri=doc.uri, range=to_lsp_range(analysis.line_index, s, ls.encoding)) for s in spans] or None

    @server.feature(lsp.TEXT_DOCUMENT_PREPARE_RENAME)
    async def prepare_rename(ls: "GroophServer", params: lsp.PrepareRenameParams) -> Any:
        doc, analysis, offset, names = await _names_doc(ls, params.text_document.uri, params.position)
        if doc is None:
            return None
        result = names.prepare_rename_at(analysis, offset)
        if result is None:
            raise RequestRefused("There is no id at the cursor to rename." if names is refactor else "There is no name at the cursor to rename.")
        if isinstance(result, Refused):
            raise RequestRefused(result.message)
        span, text = result
        return lsp.PrepareRenamePlaceholder(range=to_lsp_range(analysis.line_index, span, ls.encoding), placeholder=text)

    @server.feature(lsp.TEXT_DOCUMENT_RENAME, lsp.RenameOptions(prepare_provider=True))
    async def rename(ls: "GroophServer", params: lsp.RenameParams) -> lsp.WorkspaceEdit | None:
        doc, analysis, offset, names = await _names_doc(ls, params.text_document.uri, params.position)
        if doc is None:
            return None
        result = await ls.off_loop(names.rename_at, analysis, offset, params.new_name)
        if isinstance(result, Refused):
            raise RequestRefused(result.message)
        return lsp.WorkspaceEdit(changes={doc.uri: lsp_edits(ls, analysis.line_index, result)})

    @server.feature(lsp.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
    async def symbols(ls: "GroophServer", params: lsp.DocumentSymbolParams) -> list[lsp.DocumentSymbol] | None:
        doc = ls.served(params.text_document.uri)
        if doc is None:
            analysis = await _neighbour_analysis(ls, params.text_document.uri)
            if analysis is None:
                return None
            return await ls.off_loop(lambda: [_symbol(ls, analysis, s) for s in neighbour_symbols(analysis.value, analysis.kind)])
        analysis = await ls.analysed(doc)
        return await ls.off_loop(lambda: [_symbol(ls, analysis, s) for s in document_symbols(analysis.value, analysis.kind)])

    @server.feature(lsp.TEXT_DOCUMENT_FOLDING_RANGE)
    async def folding(ls: "GroophServer", params: lsp.FoldingRangeParams) -> list[lsp.FoldingRange] | None:
        doc = ls.served(params.text_document.uri)
        if doc is None:
            return None
        analysis = await ls.analysed(doc)
        return await ls.off_loop(_folds, analysis)

    @server.feature(lsp.TEXT_DOCUMENT_HOVER)
    async def hover(ls: "GroophServer", params: lsp.HoverParams) -> lsp.Hover | None:
        analysis, offset, neighbour = await _any_doc_and_offset(ls, params.text_document.uri, params.position)
        if analysis is None:
            return None
        result = await ls.off_loop(neighbour_hover_at, analysis, offset) if neighbour else core_hover.hover_at(analysis, offset)
        if result is None:
            return None
        return lsp.Hover(
            contents=_markup(ls, result.markdown, _hover_formats(ls)),
            range=to_lsp_range(analysis.line_index, result.span, ls.encoding),
        )

    @server.feature(lsp.TEXT_DOCUMENT_COMPLETION, lsp.CompletionOptions(trigger_characters=['"', ":"]))
    async def completion(ls: "GroophServer", params: lsp.CompletionParams) -> lsp.CompletionList | None:
        analysis, offset, neighbour = await _any_doc_and_offset(ls, params.text_document.uri, params.position)
        if analysis is None:
            return None
        found = (await ls.off_loop(neighbour_complete_at, analysis, offset) if neighbour
                 else core_completion.complete_at(analysis, offset))
        lines = analysis.line_index
        items = []
        formats = _completion_formats(ls)
        snippets = _snippet_support(ls)
        for n, c in enumerate(found):
            items.append(lsp.CompletionItem(
                label=c.label,
                kind=_COMPLETION_KINDS.get(c.kind, lsp.CompletionItemKind.Value),
                detail=c.detail or None,
                documentation=(_markup(ls, c.documentation, formats) if formats else _plain(c.documentation)) if c.documentation else None,
                sort_text=f"{n:04d}",
                filter_text=c.filter_text or None,
                text_edit=lsp.TextEdit(range=to_lsp_range(lines, c.span, ls.encoding),
                                       new_text=c.snippet if snippets and c.snippet else c.insert_text),
                insert_text_format=lsp.InsertTextFormat.Snippet if snippets and c.snippet else None,
                additional_text_edits=[lsp.TextEdit(range=to_lsp_range(lines, (c.comma_at, c.comma_at), ls.encoding), new_text=",")]
                if c.comma_at is not None else None,
            ))
        return lsp.CompletionList(is_incomplete=False, items=items)

    from grooph_lsp import actions

    actions.register(server)


_COMPLETION_KINDS = {
    "key": lsp.CompletionItemKind.Property,
    "value": lsp.CompletionItemKind.EnumMember,
    "id": lsp.CompletionItemKind.Reference,
}
