"""Requests that race the document or the client, through the real server over stdio (pytest-lsp).

- A position request is about the version the document had when the request came (LSP 3.17
  "ContentModified"): when a newer change is applied before the answer is made, the answer would place
  the old position in the new text, so the request is answered ContentModified and the client asks
  again (grooph_lsp/features.py `check_request_version`, the request's version taken in
  `server.GroophProtocol._handle_request`).
- A command cancelled while it waits for an analysis is answered RequestCancelled; when it then ends
  in a refusal, that refusal is retrieved (`server.GroophProtocol._run_generator`): nothing like
  "Task exception was never retrieved" reaches the server's log.
- A request waiting for a document's analysis is answered even when the document is closed meanwhile
  (never RequestCancelled unless the client cancelled it).

The 1M-character graph makes the window deterministic: its analysis takes hundreds of milliseconds,
while the client's next message is read within a few.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from lsprotocol import types as lsp
from pygls.exceptions import JsonRpcException

from bench.generate import graph_document
from tests.lsp.conftest import change_text, open_text, uri_for, wait_for
from tests.lsp.stdio_client import StdioServer, editor_capabilities

CONTENT_MODIFIED = -32801
REQUEST_CANCELLED = -32800
REQUEST_FAILED = -32803


@pytest.fixture(scope="module")
def big_text() -> str:
    return graph_document(1_000_000).text


def _position(text: str, offset: int) -> lsp.Position:
    line = text.count("\n", 0, offset)
    return lsp.Position(line=line, character=offset - (text.rfind("\n", 0, offset) + 1))


def _edit_at(text: str, offset: int) -> lsp.Range:
    at = _position(text, offset)
    return lsp.Range(start=at, end=at)


async def test_a_position_request_overtaken_by_a_change_is_answered_content_modified(client, tmp_path, big_text):
    uri = uri_for(tmp_path, "big.grooph.json")
    open_text(client, uri, big_text, 1, "grooph")
    await wait_for(lambda: uri in client.diagnostics, 60)
    at = big_text.index('"id": "', len(big_text) // 2) + len('"id": "') + 1  # inside a node's id
    pos = _position(big_text, at)
    blank = big_text.rindex("\n", 0, at)  # a space typed at the end of an earlier line moves nothing at `pos`
    change_text(client, uri, 2, " ", _edit_at(big_text, blank))
    # asked at version 2; its answer waits for version 2's analysis (hundreds of ms at 1M), and the
    # change to version 3 is read meanwhile
    asked = client.protocol.send_request(lsp.TEXT_DOCUMENT_REFERENCES, lsp.ReferenceParams(  # sent now, before v3
        text_document=lsp.TextDocumentIdentifier(uri=uri), position=pos,
        context=lsp.ReferenceContext(include_declaration=True)))
    line2 = big_text[:blank] + " " + big_text[blank:]
    change_text(client, uri, 3, " ", _edit_at(line2, blank))
    with pytest.raises(JsonRpcException) as refused:
        await asyncio.wait_for(asyncio.wrap_future(asked), 60)
    assert refused.value.code == CONTENT_MODIFIED
    assert "changed" in str(refused.value)
    # asked again at the version it now has, it is answered: the node's id and the edges naming it
    found = await asyncio.wait_for(client.text_document_references_async(lsp.ReferenceParams(
        text_document=lsp.TextDocumentIdentifier(uri=uri), position=pos,
        context=lsp.ReferenceContext(include_declaration=True))), 60)
    assert found and len(found) >= 2 and all(loc.uri == uri for loc in found)


def test_a_cancelled_command_that_then_refuses_leaves_no_unretrieved_exception(tmp_path, big_text):
    """Through the raw stdio client: asyncio reports an unretrieved task exception when the task is
    collected, at the latest as the process exits, after pytest-lsp's client stopped reading the
    server's stderr; the server's own log file keeps it."""
    server = StdioServer(tmp_path, log_file=tmp_path / "server.log", stderr_file=tmp_path / "server.stderr",
                         env={"XDG_CACHE_HOME": str(tmp_path / "cache"), "PYTHONPATH": str(Path.cwd())})
    server.initialize(editor_capabilities(), {})
    uri = uri_for(tmp_path, "broken.grooph.json")
    broken = big_text.rstrip()[:-1]  # the closing brace is not typed yet: the preview will refuse
    server.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "grooph", "version": 1, "text": broken}})
    # the command waits for the 1M analysis; it is cancelled meanwhile
    preview = server.send("workspace/executeCommand", {"command": "grooph.preview", "arguments": [uri]})
    server.cancel(preview)
    assert server.wait(preview).get("error", {}).get("code") == REQUEST_CANCELLED
    # the same command, not cancelled, ends after that one (one analysis worker) and says why it refuses
    again = server.wait(server.send("workspace/executeCommand", {"command": "grooph.preview", "arguments": [uri]}))
    assert again["error"]["code"] == REQUEST_FAILED and "not valid JSON yet" in again["error"]["message"]
    assert server.shutdown() == 0
    log = (tmp_path / "server.log").read_text("utf-8") + (tmp_path / "server.stderr").read_text("utf-8")
    assert "never retrieved" not in log and "Traceback" not in log, log[-3000:]


async def test_closing_a_document_does_not_cancel_a_request_waiting_for_its_analysis(client, tmp_path, big_text):
    """The small document's analysis waits in the queue behind the 1M one's when it is closed: the
    request waiting for it is still answered (about the text it was asked about), not as cancelled,
    which the client never asked for (grooph_lsp/scheduler.py `forget`)."""
    big, small = uri_for(tmp_path, "big.grooph.json"), uri_for(tmp_path, "small.grooph.json")
    open_text(client, big, big_text, 1, "grooph")
    open_text(client, small, '{"grooph": 0, "id": "s", "name": "S", "nodes": [], "edges": []}\n', 1, "grooph")
    asked = client.protocol.send_request(lsp.TEXT_DOCUMENT_DOCUMENT_SYMBOL, lsp.DocumentSymbolParams(
        text_document=lsp.TextDocumentIdentifier(uri=small)))
    client.text_document_did_close(lsp.DidCloseTextDocumentParams(text_document=lsp.TextDocumentIdentifier(uri=small)))
    symbols = await asyncio.wait_for(asyncio.wrap_future(asked), 60)
    assert symbols and symbols[0].name == "s" and symbols[0].detail == "S"
