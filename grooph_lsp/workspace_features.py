"""The requests the workspace answers (issue 17 items 1-4): `workspace/diagnostic`, `workspace/symbol`,
code lenses and their command, `workspace/willRenameFiles`, the watched files and folders; and maps
linked to graphs in go to definition, find references and hover, which features.py's handlers ask here
(`linked_definition`, `linking_maps`, `linked_hover`). Each handler: fetch from the workspace, ask the
core, convert. Registered in `server.FEATURES`."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from lsprotocol import types as lsp

from grooph_core.ide.kinds import kind_named
from grooph_core.workspace.index import check_file
from grooph_core.workspace.links import graph_hover_markdown, rename_edits
from grooph_lsp import convert
from grooph_lsp.convert import to_lsp_code_lens, to_lsp_location, to_lsp_workspace_symbol, to_offset
from grooph_lsp.errors import RequestRefused, check_request_version
from grooph_lsp.workspace import Workspace, path_uri, uri_path

if TYPE_CHECKING:
    from grooph_lsp.server import GroophServer

SHOW_LOCATIONS = "grooph.showLocations"


async def _link_at(ws: Workspace, uri: str, pos: lsp.Position):
    """(document, link, line index) for the session `graph` value under the cursor of an open map;
    its facts and the position's offset come from one analysis, waited for off the event loop."""
    doc = ws.ls.served(uri)
    if doc is None:
        return None
    check_request_version(doc)
    result = await ws.open_result(doc)
    if not result.analysis.document_kind.names_graphs:  # only a map's sessions name graphs
        return None
    facts = ws.facts_of(doc, result)
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
    return checked.facts if checked is not None and kind_named(checked.facts.kind).named_by_maps else None


async def _on_graph_root(ws: Workspace, uri: str, pos: lsp.Position) -> str | None:
    """The path of an open graph when the cursor is on its own `id` (or outside every object)."""
    doc = ws.ls.served(uri)
    path = uri_path(uri)
    if doc is None or path is None:
        return None
    check_request_version(doc)
    analysis = (await ws.open_result(doc)).analysis
    if not analysis.document_kind.named_by_maps:
        return None
    where = analysis.parsed.source_map.pointer_at(to_offset(analysis.line_index, pos, ws.ls.encoding))
    return path if where is None or where[0] in ("", "/id", "/name") else None


# --- maps linked to graphs: asked by features.py's handlers ---------------------------------------
async def linked_definition(ws: Workspace, params: lsp.DefinitionParams) -> list[lsp.Location] | None:
    """On a map's session `graph` value that names a file: that file ([] when it is neither open nor on
    disk); None anywhere else (the document's own definition answers)."""
    found = await _link_at(ws, params.text_document.uri, params.position)
    if found is None or found[1].target is None:
        return None
    target = found[1].target
    if ws.open_doc_at(target) is None and not os.path.isfile(target):
        return []
    return [convert.start_of(path_uri(target))]


async def linking_maps(ws: Workspace, params: lsp.ReferenceParams) -> list[lsp.Location]:
    """On an open graph's own id: the session `graph` values of the maps that name it (open texts win)."""
    graph = await _on_graph_root(ws, params.text_document.uri, params.position)
    if graph is None:
        return []
    out = []
    for facts, link in ws.index.links_to(graph, await ws.overlay()):
        held = ws.lines_of(facts.path)
        if held is not None:
            out.append(to_lsp_location(held[0], held[1], link.span, ws.ls.encoding))
    return out


async def linked_hover(ws: Workspace, params: lsp.HoverParams) -> lsp.Hover | None:
    """On a map's session `graph` value: the graph it names (or why it names none); None elsewhere."""
    found = await _link_at(ws, params.text_document.uri, params.position)
    if found is None:
        return None
    doc, link, lines = found
    graph = await _graph_facts(ws, link.target) if link.target else None
    return convert.to_lsp_hover(graph_hover_markdown(link, graph), link.span, lines, ws.ls.encoding,
                                ws.ls.client_capabilities)


# --- the workspace's own requests ------------------------------------------------------------------
async def did_change_watched_files(ls: "GroophServer", params: lsp.DidChangeWatchedFilesParams) -> None:
    await ls.ws.files_changed(list(params.changes))


def did_change_folders(ls: "GroophServer", params: lsp.DidChangeWorkspaceFoldersParams) -> None:
    ls.ws.start()


async def workspace_diagnostic(ls: "GroophServer", params: lsp.WorkspaceDiagnosticParams):
    return await ls.ws.workspace_report(params)


async def will_rename_files(ls: "GroophServer", params: lsp.RenameFilesParams) -> lsp.WorkspaceEdit | None:
    ws = ls.ws
    renames = [(a, b) for a, b in ((uri_path(f.old_uri), uri_path(f.new_uri)) for f in params.files) if a and b]
    if not renames:
        return None
    changes: dict[str, list[lsp.TextEdit]] = {}
    for edit in rename_edits(list(ws.index.all_facts(await ws.overlay())), renames):
        held = ws.lines_of(edit.path)
        if held is None:
            continue
        uri, lines = held
        changes.setdefault(uri, []).append(convert.text_edit(edit.span, edit.text, lines, ls.encoding))
    return convert.changes_edit(changes) if changes else None


async def workspace_symbol(ls: "GroophServer", params: lsp.WorkspaceSymbolParams) -> list[lsp.SymbolInformation]:
    ws = ls.ws
    out = []
    for facts, sym in ws.index.search(params.query, await ws.overlay()):
        held = ws.lines_of(facts.path)
        if held is not None:
            out.append(to_lsp_workspace_symbol(sym, facts.title, held[0], held[1], ls.encoding))
    return out


async def code_lens(ls: "GroophServer", params: lsp.CodeLensParams) -> list[lsp.CodeLens] | None:
    doc = ls.served(params.text_document.uri)
    if doc is None:
        return None
    result = await ls.ws.open_result(doc)
    facts = ls.ws.facts_of(doc, result)
    lines = result.analysis.line_index
    return [to_lsp_code_lens(lens, doc.uri, lines, ls.encoding, SHOW_LOCATIONS) for lens in facts.lenses]


def show_locations(ls, *args):  # no annotation: pygls reads a command's type hints at run time
    """A lens's places: shown in the editor (window/showDocument, the first selected) and returned."""
    uri, ranges = (list(args) + [None, None])[:2]
    if not isinstance(uri, str) or not isinstance(ranges, list):
        raise RequestRefused(f"{SHOW_LOCATIONS} needs [uri, [range, ...]].")
    locations = []
    for r in ranges:
        try:
            rng = convert.range_from_json(r)
        except (TypeError, KeyError):
            continue
        locations.append(convert.location(uri, rng))
    caps = ls.client_capabilities.window
    if locations and caps and caps.show_document and caps.show_document.support:
        ls.window_show_document(convert.show_document(uri, take_focus=True, selection=locations[0].range))
    return locations


async def graphs_by_version(ws: Workspace) -> dict[tuple[str, str], str]:
    """(graph id, version) → the path of the workspace's graph of that id and version (map.md §4.4
    `<graph-id>@<version>`; an open text's facts win over its file's; the first found wins)."""
    out: dict[tuple[str, str], str] = {}
    for facts in ws.index.all_facts(await ws.overlay()):
        if kind_named(facts.kind).named_by_maps and facts.ident and facts.version:
            out.setdefault((facts.ident, facts.version), facts.path)
    return out
