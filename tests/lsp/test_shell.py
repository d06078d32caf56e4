"""The protocol shell's own paths (issue 14 item 5), end to end over stdio: folds computed by the core
(`navigation.folding_lines`), revealFill placed with the current version's analysis, and the
capabilities the one registration list announces (server.FEATURES)."""

from __future__ import annotations

from lsprotocol import types as lsp

from tests.lsp.conftest import change_text, diagnostics_for, open_text, start

DOC = lsp.TextDocumentIdentifier

GRAPH = """{
  "grooph": 1,
  "id": "g",
  "name": "G",
  "version": 1,
  "nodes": [
    {
      "id": "a",
      "name": ""
    }
  ],
  "edges": [],
  "loops": []
}
"""


async def test_folds_are_the_outline_entries_written_over_several_lines(client, tmp_path):
    uri = (tmp_path / "f.grooph.json").as_uri()
    open_text(client, uri, GRAPH)
    folds = await client.text_document_folding_range_async(lsp.FoldingRangeParams(text_document=DOC(uri=uri)))
    # "nodes": [ … ] on lines 5-10 and its node on lines 6-9; the one-line lists and the root's id fold nothing
    assert [(f.start_line, f.end_line) for f in folds] == [(5, 10), (6, 9)]


async def test_reveal_fill_puts_the_cursor_inside_the_empty_value_of_the_current_version(client, tmp_path):
    uri = (tmp_path / "r.grooph.json").as_uri()
    open_text(client, uri, GRAPH)
    await diagnostics_for(client, uri)
    moved = GRAPH.replace('"name": "G",', '"name": "G",\n  "description": "two more lines",\n  "brief": "x",')
    change_text(client, uri, 2, moved)  # asked at once: the fill is placed in version 2, not version 1
    shown = await client.workspace_execute_command_async(lsp.ExecuteCommandParams(
        command="grooph.revealFill", arguments=[uri, "/nodes/0/name"]))
    assert shown is True
    line = moved.splitlines().index('      "name": ""')
    inside = lsp.Position(line=line, character=len('      "name": "'))
    assert client.shown_documents[-1].uri == uri
    assert client.shown_documents[-1].selection == lsp.Range(start=inside, end=inside)


async def test_reveal_fill_of_a_document_that_is_not_open_shows_nothing(client, tmp_path):
    shown = await client.workspace_execute_command_async(lsp.ExecuteCommandParams(
        command="grooph.revealFill", arguments=[(tmp_path / "gone.grooph.json").as_uri(), "/id"]))
    assert shown is False
    assert client.shown_documents == []


async def test_the_registration_list_announces_each_feature_once_with_its_options(raw_client):
    caps = lsp.ClientCapabilities(text_document=lsp.TextDocumentClientCapabilities(
        diagnostic=lsp.DiagnosticClientCapabilities(), rename=lsp.RenameClientCapabilities(prepare_support=True)))
    result = await raw_client.initialize_session(lsp.InitializeParams(capabilities=caps, initialization_options={}))
    sc = result.capabilities
    # a map's report follows the graphs it names, and closed files are reported too (workspace)
    assert sc.diagnostic_provider.identifier == "grooph"
    assert sc.diagnostic_provider.inter_file_dependencies is True
    assert sc.diagnostic_provider.workspace_diagnostics is True
    assert list(sc.completion_provider.trigger_characters) == ['"', ":"]
    assert sc.rename_provider.prepare_provider is True
    assert sc.code_action_provider.resolve_provider is True
    assert list(sc.code_action_provider.code_action_kinds) == [lsp.CodeActionKind.QuickFix, "source.fixAll.grooph"]
    assert sorted(sc.execute_command_provider.commands) == [
        "grooph.applyOperations", "grooph.preview", "grooph.revealFill", "grooph.showLocations"]
    assert sc.folding_range_provider and sc.code_lens_provider and sc.workspace_symbol_provider


async def test_a_request_after_initialize_uses_the_agreed_position_encoding(raw_client, tmp_path):
    """utf-32 agreed at initialize (lifecycle.initialize keeps it): a hover's range counts code points."""
    await start(raw_client, capabilities=lsp.ClientCapabilities(general=lsp.GeneralClientCapabilities(
        position_encodings=[lsp.PositionEncodingKind.Utf32])))
    uri = (tmp_path / "e.grooph.json").as_uri()
    one_line = '    {"id": "\U0001F600", "name": ""}'
    text = GRAPH.replace('    {\n      "id": "a",\n      "name": ""\n    }', one_line)
    assert one_line in text
    open_text(raw_client, uri, text)
    line = text.splitlines().index(one_line)
    key = len('    {"id": "\U0001F600", ')  # code points before the key "name"
    h = await raw_client.text_document_hover_async(lsp.HoverParams(
        text_document=DOC(uri=uri), position=lsp.Position(line=line, character=key + 2)))
    assert "name" in h.contents.value
    assert h.range == lsp.Range(start=lsp.Position(line=line, character=key), end=lsp.Position(line=line, character=key + 6))
