"""Handlers of the text document requests: each fetches the analysis, calls the one method of the
document's kind that answers the request (`analysis.document_kind`, grooph_core/ide/kinds: never a
branch on which kind it is), converts (`convert`); refusals are `errors.RequestRefused`. Registered in
`server.FEATURES`.

Every handler that can fail on odd input returns an empty answer or a proper LSP error with a clear
message; the core does the deciding. A map's session `graph` links and a graph's own id (issue 17) are
answered by the workspace (`workspace_features`), asked first (definition, hover) or last (references).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from lsprotocol import types as lsp

from grooph_core.ide.grooph.navigation import place_symbols
from grooph_core.ide.refused import Refused
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


async def _light(ls: "GroophServer", analysis, fn, *args):
    """A light request (hover, completion) of the document's kind: on the event loop when the kind
    answers it there (`DocumentKind.answers_on_loop`), else in the request worker."""
    return fn(*args) if analysis.document_kind.answers_on_loop else await ls.off_loop(fn, *args)


async def formatting(ls: "GroophServer", params: lsp.DocumentFormattingParams) -> list[lsp.TextEdit] | None:
    doc = ls.served(params.text_document.uri)
    if doc is None:
        return None
    analysis = await ls.analysed(doc)
    result = await ls.off_loop(analysis.document_kind.format, analysis)
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
    doc, analysis, offset = await _doc_and_offset(ls, params.text_document.uri, params.position)
    if doc is None:
        return None
    spans = analysis.document_kind.definition(analysis, offset)
    if spans is None:
        return None
    return convert.locations(doc.uri, analysis.line_index, spans, ls.encoding) or None


async def references(ls: "GroophServer", params: lsp.ReferenceParams) -> list[lsp.Location] | None:
    found = await _own_references(ls, params)
    linked = await workspace_features.linking_maps(ls.ws, params)  # on a graph's own id: the maps naming it
    return (list(found or []) + linked) or None


async def _own_references(ls: "GroophServer", params: lsp.ReferenceParams) -> list[lsp.Location] | None:
    doc, analysis, offset = await _doc_and_offset(ls, params.text_document.uri, params.position)
    if doc is None:
        return None
    kind = analysis.document_kind
    spans = await ls.off_loop(lambda: kind.references(analysis, offset, include_declaration=params.context.include_declaration))
    if spans is None:
        return None
    return convert.locations(doc.uri, analysis.line_index, spans, ls.encoding) or None


async def prepare_rename(ls: "GroophServer", params: lsp.PrepareRenameParams) -> Any:
    doc, analysis, offset = await _doc_and_offset(ls, params.text_document.uri, params.position)
    if doc is None:
        return None
    kind = analysis.document_kind
    result = kind.prepare_rename(analysis, offset)
    if result is None:
        raise RequestRefused(kind.nothing_to_rename)
    if isinstance(result, Refused):
        raise RequestRefused(result.message)
    span, text = result
    return convert.rename_placeholder(span, text, analysis.line_index, ls.encoding)


async def rename(ls: "GroophServer", params: lsp.RenameParams) -> lsp.WorkspaceEdit | None:
    doc, analysis, offset = await _doc_and_offset(ls, params.text_document.uri, params.position)
    if doc is None:
        return None
    result = await ls.off_loop(analysis.document_kind.rename, analysis, offset, params.new_name)
    if isinstance(result, Refused):
        raise RequestRefused(result.message)
    return convert.changes_edit({doc.uri: convert.to_lsp_edits(analysis.line_index, result, ls.encoding)})


async def symbols(ls: "GroophServer", params: lsp.DocumentSymbolParams) -> list[lsp.DocumentSymbol] | None:
    doc = ls.served(params.text_document.uri)
    if doc is None:
        return None
    analysis = await ls.analysed(doc)
    return await ls.off_loop(lambda: _outline(ls, analysis, analysis.document_kind.outline(analysis)))


def _outline(ls: "GroophServer", analysis, found) -> list[lsp.DocumentSymbol] | None:
    if found is None:
        return None
    return [convert.to_lsp_document_symbol(p, analysis.line_index, ls.encoding) for p in place_symbols(analysis, found)]


async def folding(ls: "GroophServer", params: lsp.FoldingRangeParams) -> list[lsp.FoldingRange] | None:
    doc = ls.served(params.text_document.uri)
    if doc is None:
        return None
    analysis = await ls.analysed(doc)
    folds = await ls.off_loop(analysis.document_kind.folds, analysis)
    if folds is None:
        return None
    return [convert.to_lsp_folding_range(first, last) for first, last in folds]


async def hover(ls: "GroophServer", params: lsp.HoverParams) -> lsp.Hover | None:
    linked = await workspace_features.linked_hover(ls.ws, params)  # a map's session `graph` value
    if linked is not None:
        return linked
    doc, analysis, offset = await _doc_and_offset(ls, params.text_document.uri, params.position)
    if doc is None:
        return None
    result = await _light(ls, analysis, analysis.document_kind.hover, analysis, offset)
    if result is None:
        return None
    return convert.to_lsp_hover(result.markdown, result.span, analysis.line_index, ls.encoding, ls.client_capabilities)


async def completion(ls: "GroophServer", params: lsp.CompletionParams) -> lsp.CompletionList | None:
    doc, analysis, offset = await _doc_and_offset(ls, params.text_document.uri, params.position)
    if doc is None:
        return None
    found = await _light(ls, analysis, analysis.document_kind.complete, analysis, offset)
    if found is None:
        return None
    return convert.to_lsp_completions(found, offset, analysis.line_index, ls.encoding, ls.client_capabilities)


# ---- the flow in the text: highlights, call hierarchy, selection ranges (issue 31 items 1, 2, 4) -------
async def document_highlight(ls: "GroophServer", params: lsp.DocumentHighlightParams) -> list[lsp.DocumentHighlight] | None:
    doc, analysis, offset = await _doc_and_offset(ls, params.text_document.uri, params.position)
    if doc is None:
        return None
    found = await _light(ls, analysis, analysis.document_kind.highlights, analysis, offset)  # asked at every cursor move
    if found is None:
        return None
    return convert.to_lsp_highlights(found, analysis.line_index, ls.encoding)


async def prepare_call_hierarchy(ls: "GroophServer", params: lsp.CallHierarchyPrepareParams) -> list[lsp.CallHierarchyItem] | None:
    doc, analysis, offset = await _doc_and_offset(ls, params.text_document.uri, params.position)
    if doc is None:
        return None
    found = await ls.off_loop(analysis.document_kind.call_items, analysis, offset)
    if not found:
        return None
    return [convert.to_lsp_call_item(doc.uri, item, analysis.line_index, ls.encoding) for item in found]


async def _calls(ls: "GroophServer", item: lsp.CallHierarchyItem, incoming: bool):
    """The calls of an item in its document's newest analysis: an item that is not ours, of a document no
    longer open, or whose id the text no longer has, has none (never an error)."""
    key = convert.call_item_key(item)
    doc = ls.served(key[0]) if key is not None else None
    if doc is None:
        return None, None, []
    analysis = await ls.analysed(doc)
    face = analysis.document_kind
    found = await ls.off_loop(face.incoming_calls if incoming else face.outgoing_calls, analysis, key[1], key[2])
    return doc, analysis, found or []


async def incoming_calls(ls: "GroophServer", params: lsp.CallHierarchyIncomingCallsParams) -> list[lsp.CallHierarchyIncomingCall]:
    doc, analysis, calls = await _calls(ls, params.item, True)
    return convert.to_lsp_incoming_calls(doc.uri, calls, analysis.line_index, ls.encoding) if calls else []


async def outgoing_calls(ls: "GroophServer", params: lsp.CallHierarchyOutgoingCallsParams) -> list[lsp.CallHierarchyOutgoingCall]:
    doc, analysis, calls = await _calls(ls, params.item, False)
    return convert.to_lsp_outgoing_calls(doc.uri, calls, analysis.line_index, ls.encoding) if calls else []


async def selection_range(ls: "GroophServer", params: lsp.SelectionRangeParams) -> list[lsp.SelectionRange] | None:
    doc = ls.served(params.text_document.uri)
    if doc is None:
        return None
    check_request_version(doc)
    analysis = await ls.analysed(doc)
    lines = analysis.line_index
    offsets = [to_offset(lines, p, ls.encoding) for p in params.positions]
    chains = await ls.off_loop(analysis.document_kind.selection_ranges, analysis, offsets)
    if chains is None:
        return None
    return [convert.to_lsp_selection_range(chain, lines, ls.encoding) for chain in chains]
