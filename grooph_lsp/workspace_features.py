"""The requests the workspace answers (issue 17 items 1-4): `workspace/diagnostic`, `workspace/symbol`,
code lenses and their command, `workspace/willRenameFiles`, and maps linked to graphs in go to
definition, find references and hover (chained in front of features.py's handlers, which answer
everything else). Each handler: fetch from the workspace, ask the core, convert."""

from __future__ import annotations

import asyncio
import os
from typing import TYPE_CHECKING

from lsprotocol import types as lsp

from grooph_core.workspace.index import check_file
from grooph_core.workspace.links import graph_hover_markdown, rename_edits
from grooph_lsp.convert import to_lsp_code_lens, to_lsp_location, to_lsp_range, to_lsp_workspace_symbol, to_offset
from grooph_lsp.features import check_request_version
from grooph_lsp.workspace import Workspace, chain_after, path_uri, uri_path

if TYPE_CHECKING:
    from grooph_lsp.server import GroophServer

SHOW_LOCATIONS = "grooph.showLocations"
RENAME_FILTERS = lsp.FileOperationRegistrationOptions(filters=[
    lsp.FileOperationFilter(scheme="file", pattern=lsp.FileOperationPattern(glob="**/*.json", matches=lsp.FileOperationPatternKind.File)),
    lsp.FileOperationFilter(scheme="file", pattern=lsp.FileOperationPattern(glob="**", matches=lsp.FileOperationPatternKind.Folder)),
])


async def _link_at(ws: Workspace, uri: str, pos: lsp.Position):
    """(document, link, line index) for the session `graph` value under the cursor of an open map;
    its facts and the position's offset come from one analysis, waited for off the event loop."""
    doc = ws.ls.served(uri)
    if doc is None:
        return None
    check_request_version(doc)
    result = await ws.open_result(doc)
    facts = ws.facts_of(doc, result)
    if facts.kind != "map":
        return None
    lines = result.analysis.line_index
    offset = to_offset(lines, pos, ws.ls.encoding)
    for link in facts.links:
        if link.span[0] <= offset <= link.span[1]:
            return doc, link, lines
    return None


async def _graph_facts(ws: Workspace, path: str):
    """The facts of the graph at `path`: the open text's, the index's, or read now (outside the index)."""
    doc = ws.open_doc_at(path)
    if doc is not None:
        return await ws.facts_of_open(doc)
    entry = ws.index.get(path)
    if entry is not None and not ws.index.stale(path):
        return entry.facts
    checked = check_file(path, max_chars=ws.ls.settings.max_chars)
    return checked.facts if checked is not None and checked.facts.kind == "graph" else None


async def _on_graph_root(ws: Workspace, uri: str, pos: lsp.Position) -> str | None:
    """The path of an open graph when the cursor is on its own `id` (or outside every object)."""
    doc = ws.ls.served(uri)
    path = uri_path(uri)
    if doc is None or path is None:
        return None
    check_request_version(doc)
    analysis = (await ws.open_result(doc)).analysis
    if analysis.kind != "graph":
        return None
    where = analysis.parsed.source_map.pointer_at(to_offset(analysis.line_index, pos, ws.ls.encoding))
    return path if where is None or where[0] in ("", "/id", "/name") else None


async def _answer(handler, params):
    """The answer of a chained handler, sync or async (features.py's handlers are coroutines)."""
    result = handler(params)
    return await result if asyncio.iscoroutine(result) else result


def register(server: "GroophServer") -> Workspace:
    """Register the workspace's features on a server whose other features are registered already."""
    ws = Workspace(server)
    server.store.resolver_for = ws.resolver_for
    features = server.protocol.fm.features

    # --- lifecycle ---------------------------------------------------------------------------
    async def after_initialized(params) -> None:
        await ws.register_watchers()
        ws.start()

    chain_after(server, lsp.INITIALIZED, after_initialized)
    chain_after(server, lsp.TEXT_DOCUMENT_DID_OPEN, ws.did_open)
    chain_after(server, lsp.TEXT_DOCUMENT_DID_CHANGE, ws.did_change)
    chain_after(server, lsp.TEXT_DOCUMENT_DID_SAVE, ws.did_change)
    chain_after(server, lsp.TEXT_DOCUMENT_DID_CLOSE, ws.did_close)

    config_original = features[lsp.WORKSPACE_DID_CHANGE_CONFIGURATION]

    async def did_change_configuration(params):
        before = server.settings
        await _answer(config_original, params)
        await ws.settings_changed(before)

    features[lsp.WORKSPACE_DID_CHANGE_CONFIGURATION] = did_change_configuration

    @server.feature(lsp.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    async def did_change_watched_files(ls: "GroophServer", params: lsp.DidChangeWatchedFilesParams) -> None:
        await ws.files_changed(list(params.changes))

    @server.feature(lsp.WORKSPACE_DID_CHANGE_WORKSPACE_FOLDERS)
    def did_change_folders(ls: "GroophServer", params: lsp.DidChangeWorkspaceFoldersParams) -> None:
        ws.start()

    # --- diagnostics -------------------------------------------------------------------------
    @server.feature(lsp.WORKSPACE_DIAGNOSTIC)
    async def workspace_diagnostic(ls: "GroophServer", params: lsp.WorkspaceDiagnosticParams):
        return await ws.workspace_report(params)

    pull_original = features[lsp.TEXT_DOCUMENT_DIAGNOSTIC]

    async def pull_diagnostics(params: lsp.DocumentDiagnosticParams):
        """An open map's report changes when a graph it names does: the result id says so too."""
        suffix = f"#g{ws.dep_generation.get(params.text_document.uri, 0)}"
        prev = params.previous_result_id
        params.previous_result_id = prev[: -len(suffix)] if prev and prev.endswith(suffix) else None
        report = await _answer(pull_original, params)
        if getattr(report, "result_id", None):
            report.result_id += suffix
        return report

    features[lsp.TEXT_DOCUMENT_DIAGNOSTIC] = pull_diagnostics
    options = server.protocol.fm.feature_options.get(lsp.TEXT_DOCUMENT_DIAGNOSTIC)
    if options is not None:
        options.inter_file_dependencies = True  # a map's W_GRAPH_UNRESOLVED follows its graphs

    # --- maps linked to graphs ---------------------------------------------------------------
    definition_original = features[lsp.TEXT_DOCUMENT_DEFINITION]

    async def definition(params: lsp.DefinitionParams):
        found = await _link_at(ws, params.text_document.uri, params.position)
        if found is None or found[1].target is None:
            return await _answer(definition_original, params)
        target = found[1].target
        if ws.open_doc_at(target) is None and not os.path.isfile(target):
            return None
        return [lsp.Location(uri=path_uri(target), range=lsp.Range(start=lsp.Position(0, 0), end=lsp.Position(0, 0)))]

    features[lsp.TEXT_DOCUMENT_DEFINITION] = definition

    references_original = features[lsp.TEXT_DOCUMENT_REFERENCES]

    async def references(params: lsp.ReferenceParams):
        graph = await _on_graph_root(ws, params.text_document.uri, params.position)  # first: the version asked about
        result = await _answer(references_original, params)
        if graph is None:
            return result
        out = list(result or [])
        for facts, link in ws.index.links_to(graph, await ws.overlay()):
            held = ws.lines_of(facts.path)
            if held is not None:
                out.append(to_lsp_location(held[0], held[1], link.span, server.encoding))
        return out or None

    features[lsp.TEXT_DOCUMENT_REFERENCES] = references

    hover_original = features[lsp.TEXT_DOCUMENT_HOVER]

    async def hover(params: lsp.HoverParams):
        found = await _link_at(ws, params.text_document.uri, params.position)
        if found is None:
            return await _answer(hover_original, params)
        doc, link, lines = found
        graph = await _graph_facts(ws, link.target) if link.target else None
        from grooph_lsp.features import _hover_formats, _markup  # the client's markup choice, decided once

        return lsp.Hover(contents=_markup(server, graph_hover_markdown(link, graph), _hover_formats(server)),
                         range=to_lsp_range(lines, link.span, server.encoding))

    features[lsp.TEXT_DOCUMENT_HOVER] = hover

    @server.feature(lsp.WORKSPACE_WILL_RENAME_FILES, RENAME_FILTERS)
    async def will_rename_files(ls: "GroophServer", params: lsp.RenameFilesParams) -> lsp.WorkspaceEdit | None:
        renames = [(a, b) for a, b in ((uri_path(f.old_uri), uri_path(f.new_uri)) for f in params.files) if a and b]
        if not renames:
            return None
        changes: dict[str, list[lsp.TextEdit]] = {}
        for edit in rename_edits(list(ws.index.all_facts(await ws.overlay())), renames):
            held = ws.lines_of(edit.path)
            if held is None:
                continue
            uri, lines = held
            changes.setdefault(uri, []).append(lsp.TextEdit(range=to_lsp_range(lines, edit.span, ls.encoding), new_text=edit.text))
        return lsp.WorkspaceEdit(changes=changes) if changes else None

    # --- workspace symbols and lenses --------------------------------------------------------
    @server.feature(lsp.WORKSPACE_SYMBOL)
    async def workspace_symbol(ls: "GroophServer", params: lsp.WorkspaceSymbolParams) -> list[lsp.SymbolInformation]:
        out = []
        for facts, sym in ws.index.search(params.query, await ws.overlay()):
            held = ws.lines_of(facts.path)
            if held is not None:
                out.append(to_lsp_workspace_symbol(sym, facts.title, held[0], held[1], ls.encoding))
        return out

    @server.feature(lsp.TEXT_DOCUMENT_CODE_LENS)
    async def code_lens(ls: "GroophServer", params: lsp.CodeLensParams) -> list[lsp.CodeLens] | None:
        doc = ls.served(params.text_document.uri)
        if doc is None:
            return None
        result = await ws.open_result(doc)
        facts = ws.facts_of(doc, result)
        lines = result.analysis.line_index
        return [to_lsp_code_lens(lens, doc.uri, lines, ls.encoding, SHOW_LOCATIONS) for lens in facts.lenses]

    @server.command(SHOW_LOCATIONS)
    def show_locations(ls, *args):
        """A lens's places: shown in the editor (window/showDocument, the first selected) and returned."""
        uri, ranges = (list(args) + [None, None])[:2]
        if not isinstance(uri, str) or not isinstance(ranges, list):
            from grooph_lsp.features import RequestRefused

            raise RequestRefused(f"{SHOW_LOCATIONS} needs [uri, [range, ...]].")
        locations = []
        for r in ranges:
            try:
                rng = lsp.Range(start=lsp.Position(**r["start"]), end=lsp.Position(**r["end"]))
            except (TypeError, KeyError):
                continue
            locations.append(lsp.Location(uri=uri, range=rng))
        caps = ls.client_capabilities.window
        if locations and caps and caps.show_document and caps.show_document.support:
            ls.window_show_document(lsp.ShowDocumentParams(uri=uri, take_focus=True, selection=locations[0].range))
        return locations

    return ws
