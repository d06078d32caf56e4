"""Handlers of the text document requests: each fetches the analysis, calls the one method of the
document's kind that answers the request (`analysis.document_kind`, grooph_core/ide/kinds: never a
branch on which kind it is), converts (`convert`); refusals are `errors.RequestRefused`. Registered in
`server.FEATURES`.

Every handler that can fail on odd input returns an empty answer or a proper LSP error with a clear
message; the core does the deciding. A map's session `graph` links and a graph's own id (issue 17) are
answered by the workspace (`workspace_features`), asked first (definition, hover) or last (references).
"""

from __future__ import annotations

import itertools
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


# --- what the editor draws into the text (issue 31 items 3, 5, 6): inlay hints, links, semantic tokens ------
async def _doc_and_range(ls: "GroophServer", uri: str, rng: lsp.Range | None):
    """The document, its analysis and the offsets of `rng` (the whole text when None)."""
    doc = ls.served(uri)
    if doc is None:
        return None, None, None
    check_request_version(doc)
    analysis = await ls.analysed(doc)
    if rng is None:
        return doc, analysis, (0, len(analysis.text))
    lines = analysis.line_index
    return doc, analysis, (to_offset(lines, rng.start, ls.encoding), to_offset(lines, rng.end, ls.encoding))


_SCREENFUL = 20_000  # characters: more than a screen shows


async def inlay_hints(ls: "GroophServer", params: lsp.InlayHintParams) -> list[lsp.InlayHint] | None:
    if not ls.settings.inlay_hints:
        return None
    doc, analysis, span = await _doc_and_range(ls, params.text_document.uri, params.range)
    if doc is None:
        return None
    hint = analysis.document_kind.inlay_hints
    # a screenful is light (on the loop where the kind answers there); a whole long text is asked off it
    hints = (await _light(ls, analysis, hint, analysis, *span) if span[1] - span[0] <= _SCREENFUL
             else await ls.off_loop(hint, analysis, *span))
    return None if hints is None else convert.to_lsp_inlay_hints(hints, analysis.line_index, ls.encoding)


async def document_links(ls: "GroophServer", params: lsp.DocumentLinkParams) -> list[lsp.DocumentLink] | None:
    """Links of the text; a map's `<graph-id>@<version>` opens the workspace's graph of that id and version
    (an open text's or a file's), and is no link when the workspace has none."""
    doc, analysis, _ = await _doc_and_range(ls, params.text_document.uri, None)
    if doc is None:
        return None
    found = await ls.off_loop(analysis.document_kind.document_links, analysis, workspace_features.uri_path(doc.uri))
    if found is None:
        return None
    graphs = await workspace_features.graphs_by_version(ls.ws) if any(f.graph_ref for f in found) else {}
    out, tooltips = [], convert.link_tooltips(ls.client_capabilities)
    for link in found:
        target = link.target
        if link.graph_ref is not None:
            path = graphs.get(link.graph_ref)
            target = None if path is None else workspace_features.path_uri(path)
        elif target is not None and not target.startswith(("http://", "https://")):
            target = workspace_features.path_uri(target)
        if target is not None:
            out.append(convert.to_lsp_document_link((link.start, link.end), target, tooltips and link.tooltip,
                                                    analysis.line_index, ls.encoding))
    return out


async def _tokens(ls: "GroophServer", uri: str, rng: lsp.Range | None):
    """(document, the tokens' LSP data) of the range, or (None, None) when not offered."""
    doc, analysis, span = await _doc_and_range(ls, uri, rng)
    if doc is None:
        return None, None
    kind = analysis.document_kind
    found = await ls.off_loop(lambda: kind.semantic_tokens(analysis, span[0], span[1] if rng is not None else None))
    if found is None:
        return doc, None
    return doc, await ls.off_loop(convert.token_data, found, analysis.line_index, ls.encoding)


_TOKEN_RESULTS = itertools.count(1)  # result ids, never one twice in a session


def _keep_tokens(ls: "GroophServer", doc, data: list[int]) -> str:
    """Keep a document's full tokens for the next delta request; their result id."""
    result_id = f"{doc.version}.{next(_TOKEN_RESULTS)}"
    ls.token_results[doc.uri] = (result_id, data)
    return result_id


async def semantic_tokens_full(ls: "GroophServer", params: lsp.SemanticTokensParams) -> lsp.SemanticTokens | None:
    doc, data = await _tokens(ls, params.text_document.uri, None)
    if data is None:
        return None
    return convert.semantic_tokens(data, _keep_tokens(ls, doc, data))


async def semantic_tokens_delta(ls: "GroophServer", params: lsp.SemanticTokensDeltaParams):
    """The edits from the tokens the client holds (`previous_result_id`) to the current ones; all of
    them when the server no longer holds that result."""
    doc, data = await _tokens(ls, params.text_document.uri, None)
    if data is None:
        return None
    held = ls.token_results.get(doc.uri)
    result_id = _keep_tokens(ls, doc, data)
    if held is None or held[0] != params.previous_result_id:
        return convert.semantic_tokens(data, result_id)
    return convert.semantic_tokens_delta(held[1], data, result_id)


async def semantic_tokens_range(ls: "GroophServer", params: lsp.SemanticTokensRangeParams) -> lsp.SemanticTokens | None:
    _, data = await _tokens(ls, params.text_document.uri, params.range)
    return None if data is None else convert.semantic_tokens(data)
