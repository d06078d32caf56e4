"""Diagnostics of the neighbouring formats through the real server (issue 15 point 5): a workflow, a board
and an episode record each get their codes at their exact ranges as you type; a half-typed YAML mapping
or JSON object gives one syntax diagnostic and does not cascade, while a fault elsewhere is still
reported. The graph features (formatting, symbols, actions) do not touch these documents: a board is
formatted in its own written form, never a graph's canonical one."""

from __future__ import annotations

import json

from lsprotocol import types as lsp

from tests.conftest import FIXTURES
from tests.lsp.conftest import change_text, diagnostics_for, open_text, wait_for
from tests.lsp.stdio_client import StdioServer, editor_capabilities

WORKFLOW = (FIXTURES / "workflow" / "valid" / "spec-example.workflow.yaml").read_text("utf-8")
BOARD = (FIXTURES / "board" / "valid" / "checkout.board.json").read_text("utf-8")
EPISODES = (FIXTURES / "episodes" / "valid" / "busy-store.episodes.json").read_text("utf-8")


def _at(text: str, needle: str) -> tuple[int, int]:
    pos = text.index(needle)
    line = text.count("\n", 0, pos)
    return line, len(text[text.rfind("\n", 0, pos) + 1:pos].encode("utf-16-le")) // 2


def _start(d: lsp.Diagnostic) -> tuple[int, int]:
    return d.range.start.line, d.range.start.character


async def _changed(client, uri: str, predicate):
    return await wait_for(lambda: predicate(client.diagnostics.get(uri, [])) and client.diagnostics[uri])


async def test_workflow_diagnostic_at_its_value_then_half_typed_mapping(client, tmp_path):
    uri = (tmp_path / "review.workflow.yaml").as_uri()
    text = WORKFLOW.replace("description: Build, then review.", "description: 🚀 build, then review").replace(
        "target: review}", "target: reveiw}")
    open_text(client, uri, text, language_id="yaml")
    diags = await diagnostics_for(client, uri)
    assert [d.code for d in diags] == ["E_WF_UNKNOWN_STATUS", "W_WF_UNREACHABLE_STATUS"]
    first = diags[0]
    assert _start(first) == _at(text, "reveiw}")
    assert (first.range.end.line, first.range.end.character) == (_at(text, "reveiw}")[0], _at(text, "reveiw}")[1] + 6)
    assert first.severity == lsp.DiagnosticSeverity.Error and first.source == "grooph"
    assert "did you mean review?" in first.message
    assert first.data["at"] == ["/statuses/building/on/handed_off/0/target"]
    assert "e_wf_unknown_status" in first.code_description.href
    assert diags[1].severity == lsp.DiagnosticSeverity.Warning and _start(diags[1]) == _at(text, "review:\n")

    # A key half typed in the review status: one syntax error, no cascade; the fault elsewhere stays (the
    # whole-shape warning waits while a line is in doubt: it might hold the way in).
    half = text.replace("    stored_as: review\n", "    stored_as: review\n    ru\n")
    change_text(client, uri, 2, half)
    diags = await _changed(client, uri, lambda ds: any(d.code == "E_SYNTAX" for d in ds))
    assert [d.code for d in diags] == ["E_SYNTAX", "E_WF_UNKNOWN_STATUS"]
    assert _start(diags[0]) == _at(half, "run: {role: reviewer")  # the parser's mark: the next key
    assert _start(diags[1]) == _at(half, "reveiw}")

    # An unclosed flow mapping: the transitions it held are in doubt, so no status is called unreachable.
    unclosed = WORKFLOW.replace("      handed_off: [{target: review}]", "      handed_off: [{target: rev")
    change_text(client, uri, 3, unclosed)
    diags = await _changed(client, uri, lambda ds: [d.code for d in ds] == ["E_SYNTAX"])
    assert diags[0].range.start.line == _at(unclosed, "      failed:")[0]

    change_text(client, uri, 4, WORKFLOW)
    await wait_for(lambda: uri in client.diagnostics and not client.diagnostics[uri])


async def test_workflow_duplicated_key_points_at_the_later_copy_with_the_first_related(client, tmp_path):
    uri = (tmp_path / "dup.workflow.yaml").as_uri()
    text = WORKFLOW.replace("  done: {stored_as: done}", "  done: {stored_as: done}\n  done: {}")
    open_text(client, uri, text, language_id="yaml")
    (d,) = await diagnostics_for(client, uri)
    # workflow.md §0 (issue 23): `statuses` is a map, the later copy wins: a warning, not a syntax error
    assert d.code == "W_DUPLICATE_KEY" and _start(d) == _at(text, "done: {}")
    (rel,) = d.related_information
    assert (rel.location.range.start.line, rel.location.range.start.character) == _at(text, "done: {stored_as")


async def test_board_diagnostics_and_a_half_typed_task(client, tmp_path):
    uri = (tmp_path / "checkout.board.json").as_uri()
    text = BOARD.replace('"child": "t-3"', '"child": "t-33"')
    open_text(client, uri, text)
    (d,) = await diagnostics_for(client, uri)
    assert d.code == "E_BOARD_DANGLING_DEPENDENCY" and _start(d) == _at(text, '"t-33"')
    assert "did you mean t-3?" in d.message
    half = text.replace('"title": "Write the migration",', '"title": "Write the migration", "la')
    change_text(client, uri, 2, half)
    diags = await _changed(client, uri, lambda ds: any(x.code == "E_SYNTAX" for x in ds))
    codes = [x.code for x in diags]
    assert codes[-1] == "E_BOARD_DANGLING_DEPENDENCY" and set(codes[:-1]) == {"E_SYNTAX"}
    assert "E_BOARD_SCHEMA" not in codes  # the task cut by the syntax error is not said to lack its lane


async def test_episode_record_diagnostics(client, tmp_path):
    uri = (tmp_path / "state.episodes.json").as_uri()
    record = json.loads(EPISODES)
    record["current"] = "s-0003"
    record["episodes"][0]["note"] = " "
    text = json.dumps(record, indent=2)
    open_text(client, uri, text)
    diags = await diagnostics_for(client, uri)
    assert [d.code for d in diags] == ["E_EPISODES_CURRENT_NOT_LISTED", "E_EPISODES_STANDING", "E_EPISODES_EMPTY_NOTE"]
    assert _start(diags[0]) == _at(text, '"s-0003"') and _start(diags[2]) == _at(text, '" "')


async def test_graph_features_leave_the_neighbouring_formats_alone(client, tmp_path):
    """Graph formatting and graph quick fixes leave a board alone (its formatting is its own written form,
    neighbour_format); its outline is its own (tasks by lane)."""
    uri = (tmp_path / "checkout.board.json").as_uri()
    open_text(client, uri, BOARD)
    assert list(await diagnostics_for(client, uri)) == []
    ident = lsp.TextDocumentIdentifier(uri=uri)
    edits = await client.text_document_formatting_async(lsp.DocumentFormattingParams(
        text_document=ident, options=lsp.FormattingOptions(tab_size=2, insert_spaces=True)))
    from grooph_core.ide.neighbours.format import record_text
    from tests.lsp.test_neighbour_features import _apply

    assert _apply(BOARD, edits) == record_text(json.loads(BOARD), "board", BOARD) != BOARD
    symbols = await client.text_document_document_symbol_async(lsp.DocumentSymbolParams(text_document=ident))
    lanes = {t.get("lane", "(no lane)") for t in json.loads(BOARD)["tasks"].values()} if isinstance(json.loads(BOARD).get("tasks"), dict) \
        else {t.get("lane", "(no lane)") for t in json.loads(BOARD)["tasks"]}
    assert symbols and {s.name for s in symbols} <= lanes | {"(no lane)"}
    actions = await client.text_document_code_action_async(lsp.CodeActionParams(
        text_document=ident, range=lsp.Range(start=lsp.Position(line=0, character=0), end=lsp.Position(line=0, character=0)),
        context=lsp.CodeActionContext(diagnostics=[])))
    assert not actions


def test_a_reused_anchor_in_a_broken_workflow_leaves_the_servers_stderr_clean(tmp_path):
    """The server reads a broken workflow with ruamel.yaml, which warns of a reused anchor
    (`ReusedAnchorWarning`); the warning never reaches the server's stderr (issue 25), and the user
    sees the syntax diagnostic."""
    server = StdioServer(tmp_path, log_file=tmp_path / "server.log", stderr_file=tmp_path / "server.stderr",
                         env={"XDG_CACHE_HOME": str(tmp_path / "cache"),
                              "PYTHONWARNINGS": ""})  # Python's default filters, as an editor starts it
    try:
        server.initialize(editor_capabilities(), {"grooph": {"debounceMs": 0}})
        uri = (tmp_path / "anchors.workflow.yaml").as_uri()
        server.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "yaml", "version": 1,
                                                                "text": "a: &x 1\nb: &x 2\nc: [1, 2"}})

        def published():
            for n in reversed(server.notifications):
                p = n.message.get("params") or {}
                if n.message.get("method") == "textDocument/publishDiagnostics" and p.get("uri") == uri:
                    return [p["diagnostics"]]
            return None
        [diagnostics] = server.wait_until(published, 60.0, "the workflow's diagnostics")
        assert "E_SYNTAX" in [d["code"] for d in diagnostics]
    finally:
        assert server.shutdown() == 0
    stderr = (tmp_path / "server.stderr").read_text("utf-8", errors="replace")
    assert "Warning" not in stderr and "found duplicate anchor" not in stderr, stderr
