"""Handlers of the text document requests: each fetches the analysis, calls the core, converts
(`convert`); refusals are `errors.RequestRefused`. Registered in `server.FEATURES`.

Every handler that can fail on odd input returns an empty answer or a proper LSP error with a clear
message; the core does the deciding. A map's session `graph` links and a graph's own id (issue 17) are
answered by the workspace (`workspace_features`), asked first (definition, hover) or last (references).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from lsprotocol import types as lsp

from grooph_core.ide import completion as core_completion
from grooph_core.ide import hover as core_hover
from grooph_core.ide import refactor
from grooph_core.ide.formatting import format_edits
from grooph_core.ide.navigation import document_symbols, folding_lines, place_symbols
from grooph_core.ide.neighbour_completion import neighbour_complete_at
from grooph_core.ide.neighbour_hover import neighbour_hover_at
from grooph_core.ide.neighbour_outline import neighbour_symbols
from grooph_core.ide.refused import Refused
from grooph_core.ide import neighbour_names
from grooph_lsp import convert, workspace_features
from grooph_lsp.convert import to_offset
from grooph_lsp.errors import RequestRefused, check_request_version

if TYPE_CHECKING:
    from grooph_lsp.server import GroophServer


async def _doc_and_offset(ls: "GroophServer", uri: str, pos: lsp.Position):
    """The document, the analysis of its version as the request came, and the offset of `pos` in it
    (the analysis is waited for off the event loop; its own line index places everything)."""
    doc = ls.served(uri)
    if doc is None:
        return None, None, None
    check_request_version(doc)
    analysis = await ls.analysed(doc)
    return doc, analysis, to_offset(analysis.line_index, pos, ls.encoding)


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
        if not result.standing:
            ls.window_show_message(convert.warning(result.message))
        elif params.text_document.uri not in ls.told_standing:  # once a document (format on save)
            ls.told_standing.add(params.text_document.uri)
            ls.window_show_message(convert.info(result.message))
        return None
    return convert.to_lsp_edits(analysis.line_index, result, ls.encoding)


async def definition(ls: "GroophServer", params: lsp.DefinitionParams) -> list[lsp.Location] | None:
    linked = await workspace_features.linked_definition(ls.ws, params)  # a map's session `graph` value
    if linked is not None:
        return linked or None
    doc, analysis, offset, names = await _names_doc(ls, params.text_document.uri, params.position)
    if doc is None:
        return None
    spans = names.definition_at(analysis, offset)
    return convert.locations(doc.uri, analysis.line_index, spans, ls.encoding) or None


async def references(ls: "GroophServer", params: lsp.ReferenceParams) -> list[lsp.Location] | None:
    found = await _own_references(ls, params)
    linked = await workspace_features.linking_maps(ls.ws, params)  # on a graph's own id: the maps naming it
    return (list(found or []) + linked) or None


async def _own_references(ls: "GroophServer", params: lsp.ReferenceParams) -> list[lsp.Location] | None:
    doc, analysis, offset, names = await _names_doc(ls, params.text_document.uri, params.position)
    if doc is None:
        return None
    spans = await ls.off_loop(lambda: names.references_at(analysis, offset, include_declaration=params.context.include_declaration))
    return convert.locations(doc.uri, analysis.line_index, spans, ls.encoding) or None


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
    return convert.rename_placeholder(span, text, analysis.line_index, ls.encoding)


async def rename(ls: "GroophServer", params: lsp.RenameParams) -> lsp.WorkspaceEdit | None:
    doc, analysis, offset, names = await _names_doc(ls, params.text_document.uri, params.position)
    if doc is None:
        return None
    result = await ls.off_loop(names.rename_at, analysis, offset, params.new_name)
    if isinstance(result, Refused):
        raise RequestRefused(result.message)
    return convert.changes_edit({doc.uri: convert.to_lsp_edits(analysis.line_index, result, ls.encoding)})


async def symbols(ls: "GroophServer", params: lsp.DocumentSymbolParams) -> list[lsp.DocumentSymbol] | None:
    doc = ls.served(params.text_document.uri)
    if doc is None:
        analysis = await _neighbour_analysis(ls, params.text_document.uri)
        if analysis is None:
            return None
        return await ls.off_loop(lambda: _outline(ls, analysis, neighbour_symbols(analysis.value, analysis.kind)))
    analysis = await ls.analysed(doc)
    return await ls.off_loop(lambda: _outline(ls, analysis, document_symbols(analysis.value, analysis.kind)))


def _outline(ls: "GroophServer", analysis, found) -> list[lsp.DocumentSymbol]:
    return [convert.to_lsp_document_symbol(p, analysis.line_index, ls.encoding) for p in place_symbols(analysis, found)]


async def folding(ls: "GroophServer", params: lsp.FoldingRangeParams) -> list[lsp.FoldingRange] | None:
    doc = ls.served(params.text_document.uri)
    if doc is None:
        return None
    analysis = await ls.analysed(doc)
    folds = await ls.off_loop(folding_lines, analysis)
    return [convert.to_lsp_folding_range(first, last) for first, last in folds]


async def hover(ls: "GroophServer", params: lsp.HoverParams) -> lsp.Hover | None:
    linked = await workspace_features.linked_hover(ls.ws, params)  # a map's session `graph` value
    if linked is not None:
        return linked
    analysis, offset, neighbour = await _any_doc_and_offset(ls, params.text_document.uri, params.position)
    if analysis is None:
        return None
    result = await ls.off_loop(neighbour_hover_at, analysis, offset) if neighbour else core_hover.hover_at(analysis, offset)
    if result is None:
        return None
    return convert.to_lsp_hover(result.markdown, result.span, analysis.line_index, ls.encoding, ls.client_capabilities)


async def completion(ls: "GroophServer", params: lsp.CompletionParams) -> lsp.CompletionList | None:
    analysis, offset, neighbour = await _any_doc_and_offset(ls, params.text_document.uri, params.position)
    if analysis is None:
        return None
    found = (await ls.off_loop(neighbour_complete_at, analysis, offset) if neighbour
             else core_completion.complete_at(analysis, offset))
    return convert.to_lsp_completions(found, analysis.line_index, ls.encoding, ls.client_capabilities)
