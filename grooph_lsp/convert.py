"""The one place where lsprotocol objects are built: core values (offsets, spans, issues, outline
entries, completions, hovers, edits, fixes) become LSP types, and the server's requests, reports,
registrations and options are made here. Handlers translate and delegate; they build nothing."""

from __future__ import annotations

import json
from typing import Any

from lsprotocol import types as lsp

from grooph_core.ide.code_docs import page_uri
from grooph_core.ide.document import DocumentAnalysis
from grooph_core.ide.grooph.navigation import PlacedSymbol
from grooph_core.ide.text_edits import TextEdit
from grooph_core.ide.text_marks import TOKEN_MODIFIERS, TOKEN_TYPES
from grooph_core.issues import CODES, Issue
from grooph_core.source.line_index import LineIndex, lsp_range

# --- what the server registers (options of the methods in server.FEATURES) ------------------------
FIX_ALL = "source.fixAll.grooph"
COMPLETION_OPTIONS = lsp.CompletionOptions(trigger_characters=['"', ":"])
RENAME_OPTIONS = lsp.RenameOptions(prepare_provider=True)
CODE_ACTION_OPTIONS = lsp.CodeActionOptions(code_action_kinds=[lsp.CodeActionKind.QuickFix, FIX_ALL], resolve_provider=True)
# a map's W_GRAPH_UNRESOLVED follows its graphs: inter-file dependencies
DIAGNOSTIC_OPTIONS = lsp.DiagnosticOptions(identifier="grooph", inter_file_dependencies=True, workspace_diagnostics=False)
RENAME_FILTERS = lsp.FileOperationRegistrationOptions(filters=[
    lsp.FileOperationFilter(scheme="file", pattern=lsp.FileOperationPattern(glob="**/*.json", matches=lsp.FileOperationPatternKind.File)),
    lsp.FileOperationFilter(scheme="file", pattern=lsp.FileOperationPattern(glob="**", matches=lsp.FileOperationPatternKind.Folder)),
])


# --- positions and ranges -----------------------------------------------------------------------
def to_lsp_position(lines: LineIndex, offset: int, encoding: str) -> lsp.Position:
    line, col = lines.position(offset, encoding)
    return lsp.Position(line=line, character=col)


def to_lsp_range(lines: LineIndex, span: tuple[int, int], encoding: str) -> lsp.Range:
    """A span as an LSP range: the offsets placed by the core's `LineIndex` (the same conversion as
    `line_index.lsp_range`, built straight into lsprotocol types: going through the plain dict cost
    about 3x per range, measured, on a path that places every diagnostic)."""
    return lsp.Range(start=to_lsp_position(lines, span[0], encoding), end=to_lsp_position(lines, span[1], encoding))


def range_from_json(r: dict) -> lsp.Range:
    """A range in plain LSP shape (`{"start": {"line", "character"}, "end": …}`) as an lsprotocol range;
    TypeError/KeyError when it is not one."""
    return lsp.Range(start=lsp.Position(**r["start"]), end=lsp.Position(**r["end"]))


def location(uri: str, rng: lsp.Range) -> lsp.Location:
    return lsp.Location(uri=uri, range=rng)


def start_of(uri: str) -> lsp.Location:
    """The first character of a document (go to a file)."""
    return lsp.Location(uri=uri, range=lsp.Range(start=lsp.Position(0, 0), end=lsp.Position(0, 0)))


def to_offset(lines: LineIndex, pos: lsp.Position, encoding: str) -> int:
    return lines.offset(pos.line, pos.character, encoding)


def code_link(code: str) -> str:
    """The code's section of the documentation page shipped with the package."""
    return page_uri(code)


_DESCRIPTIONS: dict[str, lsp.CodeDescription] = {}


def code_description(code: str) -> lsp.CodeDescription:
    """The code's link as a diagnostic's `codeDescription`, one object per link (never changed once made:
    a 1M workflow's 1,293 diagnostics held one each; issue 33 item 3)."""
    href = code_link(code)
    d = _DESCRIPTIONS.get(href)
    if d is None:
        d = _DESCRIPTIONS[href] = lsp.CodeDescription(href=href)
    return d


# --- diagnostics ----------------------------------------------------------------------------------
def to_lsp_diagnostic(analysis: DocumentAnalysis, issue: Issue, uri: str, encoding: str, index: int) -> lsp.Diagnostic:
    lines = analysis.line_index
    severity = lsp.DiagnosticSeverity.Error if issue.severity == "error" else lsp.DiagnosticSeverity.Warning
    related = None
    spans = issue.related_spans
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
    at = list(issue.at)
    return lsp.Diagnostic(
        range=to_lsp_range(lines, analysis.span(issue), encoding),
        message=message,
        severity=severity,
        code=issue.code,
        code_description=code_description(issue.code) if issue.code in CODES else None,
        source="grooph",
        related_information=related,
        # (`at` and `pointers` are mostly equal: one list then, as the wire never tells the two apart)
        data={"index": index, "code": issue.code, "at": at,
              "pointers": at if issue.pointers == issue.at else list(issue.pointers)},
    )


def diagnostics_of(analysis: DocumentAnalysis, uri: str, encoding: str, shown: list[lsp.Diagnostic] | None = None,
                   edits: tuple | None = None) -> list[lsp.Diagnostic]:
    """Every issue of an analysis as a diagnostic. Given `shown`, the diagnostics of an earlier version of
    a graph or map, and `edits`, the edits since (each keeping the JSON structure: `documents.Edit`), when
    the issues are the same list (code, severity, pointers, related places; the messages may differ, as a
    size in one does) an issue that no edit touches, nor its related places, keeps its ranges, moved by
    the edits: placing a pointer's issue in a new 1M text is the lazy source map's first scan, 10-25 ms
    (issue 33). Otherwise each is placed."""
    issues = analysis.issues
    if (shown is None or edits is None or not analysis.document_kind.ranges_follow_json_edits
            or len(shown) != len(issues) or not all(_same(d, i) for d, i in zip(shown, issues))):
        return [to_lsp_diagnostic(analysis, issue, uri, encoding, n) for n, issue in enumerate(issues)]
    out = []
    for n, (d, issue) in enumerate(zip(shown, issues)):
        moved = _moved(d, issue, edits)
        out.append(moved if moved is not None else to_lsp_diagnostic(analysis, issue, uri, encoding, n))
    return out


def _same(d: lsp.Diagnostic, issue: Issue) -> bool:
    """The diagnostic was made of an issue at the same places as this one, placed by its pointers (not by
    spans of its own)."""
    data = d.data or {}
    return (issue.span is None and not issue.related_spans and d.code == issue.code
            and (d.severity == lsp.DiagnosticSeverity.Error) == (issue.severity == "error")
            and data.get("pointers") == list(issue.pointers) and data.get("at") == list(issue.at)
            and len(d.related_information or ()) == len(issue.related))


def _moved(d: lsp.Diagnostic, issue: Issue, edits: tuple) -> lsp.Diagnostic | None:
    """The issue's diagnostic with the ranges of `d` moved by the edits, or None when an edit touches one."""
    ranges = [d.range] + [r.location.range for r in d.related_information or ()]
    spans = [((r.start.line, r.start.character), (r.end.line, r.end.character)) for r in ranges]
    for e in edits:
        if not all(b < e.start or a > e.end for a, b in spans):
            return None
        spans = [(e.moved(a), e.moved(b)) for a, b in spans]
    new = [lsp.Range(start=lsp.Position(line=a[0], character=a[1]), end=lsp.Position(line=b[0], character=b[1]))
           for a, b in spans]
    related = None if d.related_information is None else [
        lsp.DiagnosticRelatedInformation(location=lsp.Location(uri=r.location.uri, range=rng), message=note)
        for r, rng, (_, note) in zip(d.related_information, new[1:], issue.related)]
    return lsp.Diagnostic(range=new[0], message=issue.message, severity=d.severity, code=d.code,
                          code_description=d.code_description, source=d.source, related_information=related,
                          data=d.data)


def publish(uri: str, diagnostics: list[lsp.Diagnostic], version: int | None = None) -> lsp.PublishDiagnosticsParams:
    return lsp.PublishDiagnosticsParams(uri=uri, diagnostics=diagnostics, version=version)


# The wire form of published diagnostics, written out by hand (what pygls's converter makes of them,
# byte for byte: its field order, None left out, `json.dumps`'s default separators). Through the
# converter, a 1M-character workflow's 1,293 diagnostics became one tree of ~15,000 dicts alive at once
# on the event loop; those allocations started the cycle collector's gen1/gen2 passes, which walk the
# whole analysis just made (~270 ms per pass at 1M, most of the loop's time per keystroke, issue 24).
# Here each diagnostic goes straight to text: the loop allocates no containers for it.
_quote = json.encoder.encode_basestring_ascii  # json.dumps of a str (ensure_ascii, its default)


def _range_text(r: lsp.Range) -> str:
    s, e = r.start, r.end
    return (f'{{"start": {{"line": {int(s.line)}, "character": {int(s.character)}}}, '
            f'"end": {{"line": {int(e.line)}, "character": {int(e.character)}}}}}')


def diagnostic_text(d: lsp.Diagnostic) -> str:
    """A diagnostic's JSON as the protocol's converter unstructures it (camelCase keys, its field
    order, None fields left out) and `json.dumps` writes it."""
    out = [f'{{"range": {_range_text(d.range)}, "message": {_quote(d.message)}']
    if d.severity is not None:
        out.append(f', "severity": {int(d.severity)}')
    if d.code is not None:
        out.append(f', "code": {_quote(d.code) if isinstance(d.code, str) else int(d.code)}')
    if d.code_description is not None:
        out.append(f', "codeDescription": {{"href": {_quote(d.code_description.href)}}}')
    if d.source is not None:
        out.append(f', "source": {_quote(d.source)}')
    if d.tags is not None:
        out.append(f', "tags": [{", ".join(str(int(t)) for t in d.tags)}]')
    if d.related_information is not None:
        related = ", ".join(
            f'{{"location": {{"uri": {_quote(r.location.uri)}, "range": {_range_text(r.location.range)}}}, '
            f'"message": {_quote(r.message)}}}' for r in d.related_information)
        out.append(f', "relatedInformation": [{related}]')
    if d.data is not None:
        out.append(f', "data": {json.dumps(d.data)}')
    out.append("}")
    return "".join(out)


def publish_json(params: lsp.PublishDiagnosticsParams) -> str:
    """The JSON text of publishDiagnostics params (`diagnostic_text` each)."""
    items = ", ".join([diagnostic_text(d) for d in params.diagnostics])
    version = "" if params.version is None else f', "version": {int(params.version)}'
    return f'{{"uri": {_quote(params.uri)}, "diagnostics": [{items}]{version}}}'


def document_report(items: list[lsp.Diagnostic], result_id: str | None = None) -> lsp.RelatedFullDocumentDiagnosticReport:
    return lsp.RelatedFullDocumentDiagnosticReport(items=items, result_id=result_id)


def unchanged_report(result_id: str) -> lsp.RelatedUnchangedDocumentDiagnosticReport:
    return lsp.RelatedUnchangedDocumentDiagnosticReport(result_id=result_id)


def workspace_item(uri: str, items: list[lsp.Diagnostic] | None, result_id: str | None):
    """One closed document in a workspace report: its diagnostics (`items` None: unchanged since
    `result_id`, which the client holds)."""
    if items is None:
        return lsp.WorkspaceUnchangedDocumentDiagnosticReport(uri=uri, result_id=result_id, version=None)  # type: ignore[arg-type]
    return lsp.WorkspaceFullDocumentDiagnosticReport(uri=uri, items=items, result_id=result_id, version=None)


def workspace_report(items: list) -> lsp.WorkspaceDiagnosticReport:
    return lsp.WorkspaceDiagnosticReport(items=items)


# --- places, symbols, folds ----------------------------------------------------------------------
# Outline entries and workspace symbols by kind (graph, map and neighbouring kinds; navigation.Symbol.kind).
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


def to_lsp_location(uri: str, lines: LineIndex, span: tuple[int, int], encoding: str) -> lsp.Location:
    return lsp.Location(uri=uri, range=to_lsp_range(lines, span, encoding))


def to_lsp_workspace_symbol(symbol, container: str, uri: str, lines: LineIndex, encoding: str) -> lsp.SymbolInformation:
    """A workspace symbol (core `SymbolFact`): `id — name`, located at the object's id."""
    label = symbol.ident if not symbol.name or symbol.name == symbol.ident else f"{symbol.ident} — {symbol.name}"
    return lsp.SymbolInformation(
        name=label or "(no id)", kind=SYMBOL_KINDS.get(symbol.kind, lsp.SymbolKind.Object),
        location=to_lsp_location(uri, lines, symbol.selection, encoding), container_name=container or None,
    )


def to_lsp_code_lens(lens, uri: str, lines: LineIndex, encoding: str, command: str) -> lsp.CodeLens:
    """A core `Lens`: its text; when it has places to show, a command revealing them (uri, ranges)."""
    rng = to_lsp_range(lines, (lens.span[0], lens.span[0]), encoding)
    cmd = None
    if lens.targets:
        args = [uri, [lsp_range(lines, t, encoding) for t in lens.targets]]  # plain JSON: the command's arguments
        cmd = lsp.Command(title=lens.title, command=command, arguments=args)
    return lsp.CodeLens(range=rng, command=cmd)


def to_lsp_document_symbol(placed: PlacedSymbol, lines: LineIndex, encoding: str) -> lsp.DocumentSymbol:
    """An outline entry placed in the text (`navigation.place_symbols`), children included."""
    sym = placed.symbol
    return lsp.DocumentSymbol(
        name=sym.name or "(unnamed)",
        detail=sym.detail,
        kind=SYMBOL_KINDS.get(sym.kind, lsp.SymbolKind.Object),
        range=to_lsp_range(lines, placed.span, encoding),
        selection_range=to_lsp_range(lines, placed.selection, encoding),
        children=[to_lsp_document_symbol(c, lines, encoding) for c in placed.children],
    )


def to_lsp_folding_range(first: int, last: int) -> lsp.FoldingRange:
    """A fold over 0-based lines (`navigation.folding_lines`)."""
    return lsp.FoldingRange(start_line=first, end_line=last)


def locations(uri: str, lines: LineIndex, spans, encoding: str) -> list[lsp.Location]:
    return [to_lsp_location(uri, lines, s, encoding) for s in spans]


# --- hover and completion ------------------------------------------------------------------------
def markup(text: str, formats) -> lsp.MarkupContent:
    """Markdown when the client takes it, else plain text (LSP: the client lists what it renders)."""
    if formats is None or lsp.MarkupKind.Markdown in formats:
        return lsp.MarkupContent(kind=lsp.MarkupKind.Markdown, value=text)
    return lsp.MarkupContent(kind=lsp.MarkupKind.PlainText, value=plain(text))


def plain(text: str) -> str:
    return text.replace("**", "").replace("`", "").replace("*", "")


def hover_formats(capabilities: lsp.ClientCapabilities):
    td = capabilities.text_document
    return td.hover.content_format if td and td.hover else None


def completion_formats(capabilities: lsp.ClientCapabilities):
    td = capabilities.text_document
    item = td.completion.completion_item if td and td.completion else None
    return item.documentation_format if item else None


def snippet_support(capabilities: lsp.ClientCapabilities) -> bool:
    td = capabilities.text_document
    item = td.completion.completion_item if td and td.completion else None
    return bool(item and item.snippet_support)


def to_lsp_hover(markdown: str, span: tuple[int, int], lines: LineIndex, encoding: str,
                 capabilities: lsp.ClientCapabilities) -> lsp.Hover:
    """A core hover (its Markdown and the span it is about), in the markup the client renders."""
    return lsp.Hover(contents=markup(markdown, hover_formats(capabilities)), range=to_lsp_range(lines, span, encoding))


COMPLETION_KINDS = {
    "key": lsp.CompletionItemKind.Property,
    "value": lsp.CompletionItemKind.EnumMember,
    "id": lsp.CompletionItemKind.Reference,
}


def insert_replace_support(capabilities: lsp.ClientCapabilities) -> bool:
    td = capabilities.text_document
    item = td.completion.completion_item if td and td.completion else None
    return bool(item and item.insert_replace_support)


def to_lsp_completions(found, offset: int, lines: LineIndex, encoding: str,
                       capabilities: lsp.ClientCapabilities) -> lsp.CompletionList:
    """Core completions at the cursor `offset`, in their order (`sort_text`), as the client can take
    them: a snippet when it supports snippets and the completion has one, documentation in its markup;
    an `InsertReplaceEdit` when it announced `insertReplaceSupport`, else a `TextEdit` whose text never
    repeats what stands after the cursor (`Completion.client_edit`: clients that insert at the cursor
    instead of applying the range get valid text too)."""
    items = []
    formats = completion_formats(capabilities)
    snippets = snippet_support(capabilities)
    ranges = insert_replace_support(capabilities)
    for n, c in enumerate(found):
        edit = c.client_edit(lines.text, offset, ranges=ranges)
        new_text = edit.snippet if snippets and edit.snippet else edit.text
        replace = to_lsp_range(lines, edit.span, encoding)
        items.append(lsp.CompletionItem(
            label=c.label,
            kind=COMPLETION_KINDS.get(c.kind, lsp.CompletionItemKind.Value),
            detail=c.detail or None,
            documentation=(markup(c.documentation, formats) if formats else plain(c.documentation)) if c.documentation else None,
            sort_text=f"{n:04d}",
            filter_text=edit.filter_text or None,
            text_edit=lsp.InsertReplaceEdit(new_text=new_text, replace=replace,
                                            insert=to_lsp_range(lines, (edit.span[0], edit.insert_end), encoding))
            if ranges else lsp.TextEdit(range=replace, new_text=new_text),
            insert_text_format=lsp.InsertTextFormat.Snippet if snippets and edit.snippet else None,
            additional_text_edits=[lsp.TextEdit(range=to_lsp_range(lines, (c.comma_at, c.comma_at), encoding), new_text=",")]
            if c.comma_at is not None else None,
        ))
    return lsp.CompletionList(is_incomplete=False, items=items)


def rename_placeholder(span: tuple[int, int], text: str, lines: LineIndex, encoding: str) -> lsp.PrepareRenamePlaceholder:
    return lsp.PrepareRenamePlaceholder(range=to_lsp_range(lines, span, encoding), placeholder=text)


# --- edits -----------------------------------------------------------------------------------------
def to_lsp_edits(lines: LineIndex, edits: "list[TextEdit] | tuple[TextEdit, ...]", encoding: str) -> list[lsp.TextEdit]:
    """Core edits (`TextEdit`: offsets and text) placed with the line index of the version they were made for.

    An edit that gives a text without a final line break its last one (formatting a file written
    without it) ends at the start of the line after the text, not at the end of its last line: the
    same text in LSP, and the way Neovim knows the line break is the file's final one (its
    'endofline'), not an empty line more (the file would be saved ending `}\n\n`)."""
    out = [lsp.TextEdit(range=to_lsp_range(lines, (e.start, e.end), encoding), new_text=e.text) for e in edits]
    text = lines.text
    if text and text[-1] not in "\r\n":
        for e, edit in zip(edits, out):
            if e.end == len(text) and e.text.endswith(("\n", "\r")):
                edit.range.end = lsp.Position(line=edit.range.end.line + 1, character=0)
    return out


def text_edit(span: tuple[int, int], text: str, lines: LineIndex, encoding: str) -> lsp.TextEdit:
    return lsp.TextEdit(range=to_lsp_range(lines, span, encoding), new_text=text)


def changes_edit(changes: dict[str, list[lsp.TextEdit]]) -> lsp.WorkspaceEdit:
    """Edits by document URI, not tied to a version (rename, files renamed)."""
    return lsp.WorkspaceEdit(changes=changes)


def versioned_edit(uri: str, version: int, lines: LineIndex, edits, encoding: str) -> lsp.WorkspaceEdit:
    """Edits of one version of a document, placed with that version's line index."""
    return lsp.WorkspaceEdit(document_changes=[lsp.TextDocumentEdit(
        text_document=lsp.OptionalVersionedTextDocumentIdentifier(uri=uri, version=version),
        edits=to_lsp_edits(lines, list(edits), encoding),
    )])


# --- code actions and commands -------------------------------------------------------------------
def command(title: str, name: str, arguments: list) -> lsp.Command:
    return lsp.Command(title=title, command=name, arguments=arguments)


def code_action(title: str, kind: str, *, diagnostic: lsp.Diagnostic | None = None, preferred: bool = False,
                edit: lsp.WorkspaceEdit | None = None, data: dict | None = None,
                run: lsp.Command | None = None) -> lsp.CodeAction:
    """A quick fix (about `diagnostic`) or a source action; with its edit, or its `data` to resolve it later."""
    return lsp.CodeAction(title=title, kind=kind, diagnostics=[diagnostic] if diagnostic is not None else None,
                          is_preferred=preferred or None, edit=edit, data=data, command=run)


# --- messages to the client ----------------------------------------------------------------------
def warning(message: str) -> lsp.ShowMessageParams:
    return lsp.ShowMessageParams(type=lsp.MessageType.Warning, message=message)


def info(message: str) -> lsp.ShowMessageParams:
    return lsp.ShowMessageParams(type=lsp.MessageType.Info, message=message)


def show_document(uri: str, *, take_focus: bool, selection: lsp.Range | None = None,
                  external: bool | None = None) -> lsp.ShowDocumentParams:
    return lsp.ShowDocumentParams(uri=uri, external=external, take_focus=take_focus, selection=selection)


def apply_edit(edit: lsp.WorkspaceEdit, label: str) -> lsp.ApplyWorkspaceEditParams:
    return lsp.ApplyWorkspaceEditParams(edit=edit, label=label)


def configuration_request(section: str) -> lsp.ConfigurationParams:
    return lsp.ConfigurationParams(items=[lsp.ConfigurationItem(section=section)])


def registration(ident: str, method: str, options: Any = None) -> lsp.RegistrationParams:
    return lsp.RegistrationParams(registrations=[lsp.Registration(id=ident, method=method, register_options=options)])


def watched_files(globs, *, folders: bool = False) -> lsp.DidChangeWatchedFilesRegistrationOptions:
    """Watchers for these globs; with `folders`, also every path created or deleted (VS Code reports a
    folder made with files in it as the folder alone: its files get no event of their own)."""
    watchers = [lsp.FileSystemWatcher(glob_pattern=g) for g in globs]
    if folders:
        watchers.append(lsp.FileSystemWatcher(glob_pattern="**/*", kind=lsp.WatchKind.Create | lsp.WatchKind.Delete))
    return lsp.DidChangeWatchedFilesRegistrationOptions(watchers=watchers)


def progress_begin(title: str, message: str) -> lsp.WorkDoneProgressBegin:
    return lsp.WorkDoneProgressBegin(title=title, message=message, percentage=0, cancellable=False)


def progress_report(message: str, percentage: int) -> lsp.WorkDoneProgressReport:
    return lsp.WorkDoneProgressReport(message=message, percentage=percentage)


def progress_end(message: str) -> lsp.WorkDoneProgressEnd:
    return lsp.WorkDoneProgressEnd(message=message)


# --- the flow in the text: highlights, call hierarchy, selection ranges (issue 31 items 1, 2, 4) -------
def to_lsp_highlights(found, lines: LineIndex, encoding: str) -> list[lsp.DocumentHighlight]:
    """`flow.Highlight`s: a definition is written (Write), a use read (Read)."""
    return [lsp.DocumentHighlight(range=to_lsp_range(lines, h.span, encoding),
                                  kind=lsp.DocumentHighlightKind.Write if h.write else lsp.DocumentHighlightKind.Read)
            for h in found]


# What each kind of flow item is shown as (VS Code's icons by symbol kind).
FLOW_SYMBOL_KINDS = {
    "node": lsp.SymbolKind.Function, "session": lsp.SymbolKind.Class, "person": lsp.SymbolKind.Interface,
    "status": lsp.SymbolKind.EnumMember, "run state": lsp.SymbolKind.EnumMember, "entry": lsp.SymbolKind.Event,
}


def to_lsp_call_item(uri: str, item, lines: LineIndex, encoding: str, detail: str | None = None) -> lsp.CallHierarchyItem:
    """A `flow.FlowItem` as a call hierarchy item; its `data` (uri, id, kind) finds it again in the
    incoming and outgoing requests."""
    return lsp.CallHierarchyItem(
        name=item.name, kind=FLOW_SYMBOL_KINDS.get(item.kind, lsp.SymbolKind.Object), uri=uri,
        range=to_lsp_range(lines, item.span, encoding), selection_range=to_lsp_range(lines, item.selection, encoding),
        detail=item.detail if detail is None else detail, data={"uri": uri, "id": item.id, "kind": item.kind})


def _call_detail(call) -> str:
    """A call's item described by the link first (the edge's `when`, the carrier, the event and guard),
    then by what the item is."""
    return " — ".join(x for x in (call.detail, call.item.detail) if x)


def to_lsp_incoming_calls(uri: str, calls, lines: LineIndex, encoding: str) -> list[lsp.CallHierarchyIncomingCall]:
    return [lsp.CallHierarchyIncomingCall(from_=to_lsp_call_item(uri, c.item, lines, encoding, _call_detail(c)),
                                          from_ranges=[to_lsp_range(lines, s, encoding) for s in c.spans])
            for c in calls]


def to_lsp_outgoing_calls(uri: str, calls, lines: LineIndex, encoding: str) -> list[lsp.CallHierarchyOutgoingCall]:
    return [lsp.CallHierarchyOutgoingCall(to=to_lsp_call_item(uri, c.item, lines, encoding, _call_detail(c)),
                                          from_ranges=[to_lsp_range(lines, s, encoding) for s in c.spans])
            for c in calls]


def call_item_key(item: lsp.CallHierarchyItem) -> tuple[str, str, str] | None:
    """(uri, kind, id) from an item's `data` as `to_lsp_call_item` made it; None for anything else."""
    data = item.data
    if isinstance(data, dict) and all(isinstance(data.get(k), str) for k in ("uri", "id", "kind")):
        return data["uri"], data["kind"], data["id"]
    return None


def to_lsp_selection_range(chain: list[tuple[int, int]], lines: LineIndex, encoding: str) -> lsp.SelectionRange:
    """Spans innermost first (each inside the next) as the nested `SelectionRange` of one position."""
    parent = None
    for span in reversed(chain):
        parent = lsp.SelectionRange(range=to_lsp_range(lines, span, encoding), parent=parent)
    assert parent is not None, "a selection chain ends with the whole text"
    return parent


# --- what the editor draws into the text (issue 31 items 3, 5, 6; grooph_core/ide/text_marks.py) ---------
SEMANTIC_TOKENS_LEGEND = lsp.SemanticTokensLegend(token_types=list(TOKEN_TYPES), token_modifiers=list(TOKEN_MODIFIERS))


def to_lsp_inlay_hints(hints, lines: LineIndex, encoding: str) -> list[lsp.InlayHint]:
    return [lsp.InlayHint(position=to_lsp_position(lines, h.offset, encoding), label=h.label,
                          tooltip=h.tooltip or None, padding_left=not h.before or None, padding_right=h.before or None)
            for h in hints]


def link_tooltips(capabilities: lsp.ClientCapabilities) -> bool:
    """The client shows a document link's tooltip (LSP sends one only then)."""
    td = capabilities.text_document
    return bool(td and td.document_link and td.document_link.tooltip_support)


def to_lsp_document_link(span: tuple[int, int], target: str, tooltip: str | None, lines: LineIndex,
                         encoding: str) -> lsp.DocumentLink:
    return lsp.DocumentLink(range=to_lsp_range(lines, span, encoding), target=target, tooltip=tooltip or None)


def token_data(tokens, lines: LineIndex, encoding: str) -> list[int]:
    """Tokens (in text order, each on one line) as LSP's relative integers: Δline, Δstart, length,
    type, modifiers."""
    data: list[int] = []
    last_line = last_col = 0
    for t in tokens:
        line, col = lines.position(t.start, encoding)
        _, end_col = lines.position(t.end, encoding)
        data += (line - last_line, col - last_col if line == last_line else col, end_col - col, t.type, t.modifiers)
        last_line, last_col = line, col
    return data


def semantic_tokens(data: list[int], result_id: str | None = None) -> lsp.SemanticTokens:
    return lsp.SemanticTokens(data=data, result_id=result_id)


def semantic_tokens_delta(before: list[int], after: list[int], result_id: str) -> lsp.SemanticTokensDelta:
    """One edit turning `before` into `after`: what lies between their common head and tail, cut at
    whole tokens (five integers each)."""
    n = min(len(before), len(after))
    head = 0
    while head < n and before[head] == after[head]:
        head += 1
    head -= head % 5
    tail = 0
    while tail < n - head and before[-1 - tail] == after[-1 - tail]:
        tail += 1
    tail -= tail % 5
    if head == len(before) == len(after):
        return lsp.SemanticTokensDelta(edits=[], result_id=result_id)
    return lsp.SemanticTokensDelta(result_id=result_id, edits=[lsp.SemanticTokensEdit(
        start=head, delete_count=len(before) - head - tail, data=after[head:len(after) - tail])])
