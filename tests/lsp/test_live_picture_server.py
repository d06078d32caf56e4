"""The live picture through a real client (issue 29 item 4; DESIGN.md "Preview"): `grooph.preview` serves
the document's page on the loopback and asks the client to open it externally (or says the address);
the page's socket gets each new picture of the buffer, keeps the fault of a text that does not read,
draws the map views, and a click asks the editor to reveal the id's definition; a request without the
token, with another token, another Host or another Origin gets 403; shutdown closes the port."""

from __future__ import annotations

import asyncio
import json
import tempfile
from pathlib import Path
from urllib.parse import urlsplit

import aiohttp
import pytest
import pytest_lsp
from lsprotocol import types as lsp
from pytest_lsp import ClientServerConfig, LanguageClient

from tests.conftest import FIXTURES
from tests.lsp.conftest import SERVER, change_text, diagnostics_for, open_text, push_capabilities, start, wait_for

GRAPH = (FIXTURES / "valid" / "review-loop.grooph.json").read_text("utf-8")
MAP = (FIXTURES / "maps" / "valid" / "bakery-ops.grooph-map.json").read_text("utf-8")


async def _preview(client, uri, *args):
    return await client.workspace_execute_command_async(lsp.ExecuteCommandParams(
        command="grooph.preview", arguments=[uri, *args]))


async def _opened(client, tmp_path, name="review.grooph.json", text=GRAPH):
    uri = (tmp_path / name).as_uri()
    open_text(client, uri, text)
    await diagnostics_for(client, uri)
    return uri


async def _get(url: str, headers: dict | None = None) -> tuple[int, str, dict]:
    async with aiohttp.ClientSession() as s, s.get(url, headers=headers or {}, allow_redirects=False) as r:
        return r.status, await r.text(), dict(r.headers)


async def _next(ws, kind: str, timeout: float = 20.0) -> dict:
    """The next message of that type on the page's socket (others are skipped)."""
    while True:
        msg = await asyncio.wait_for(ws.receive(), timeout)
        assert msg.type == aiohttp.WSMsgType.TEXT, msg
        data = json.loads(msg.data)
        if data["type"] == kind:
            return data


async def test_preview_opens_the_live_page_in_the_browser(client, tmp_path):
    uri = await _opened(client, tmp_path)
    result = await _preview(client, uri)
    url = result["url"]
    parts = urlsplit(url)
    assert parts.scheme == "http" and parts.hostname == "127.0.0.1" and parts.port
    token = parts.path.split("/")[1]
    assert len(token) >= 40  # secrets.token_urlsafe(32)
    shown = await wait_for(lambda: [d for d in client.shown_documents if d.uri == url])
    assert shown[0].external is True
    status, body, headers = await _get(url)
    assert status == 200 and headers["Content-Type"].startswith("text/html")
    csp = headers["Content-Security-Policy"]
    assert "default-src 'none'" in csp and "script-src 'nonce-" in csp and f"connect-src ws://127.0.0.1:{parts.port}" in csp
    assert "review.grooph.json" in body
    # one server for every document, a path of its own for each
    other = await _opened(client, tmp_path, "bakery.grooph-map.json", MAP)
    url2 = (await _preview(client, other, "wide"))["url"]
    assert urlsplit(url2).netloc == parts.netloc and urlsplit(url2).path != parts.path
    assert urlsplit(url2).query == "view=wide"


async def test_without_the_token_or_with_another_host_it_is_forbidden(client, tmp_path):
    uri = await _opened(client, tmp_path)
    url = (await _preview(client, uri))["url"]
    parts = urlsplit(url)
    token, doc = parts.path.split("/")[1:3]
    base = f"http://127.0.0.1:{parts.port}"
    assert (await _get(f"{base}/{doc}"))[0] == 403
    assert (await _get(f"{base}/"))[0] == 403
    assert (await _get(f"{base}/{token[:-1]}x/{doc}"))[0] == 403
    assert (await _get(f"{base}/{doc}/{token}"))[0] == 403
    assert (await _get(f"{base}/{token}{token}/{doc}"))[0] == 403
    for host in ("localhost:%d" % parts.port, "evil.example", f"evil.example:{parts.port}", "127.0.0.1"):
        assert (await _get(url, {"Host": host}))[0] == 403, host
    assert (await _get(url, {"Host": f"127.0.0.1:{parts.port}"}))[0] == 200
    # a page of another site cannot open the socket, even knowing the address
    async with aiohttp.ClientSession() as s:
        with pytest.raises(aiohttp.WSServerHandshakeError) as err:
            await s.ws_connect(url + "/ws", headers={"Origin": "http://evil.example"})
        assert err.value.status == 403
    status, body, _ = await _get(f"{base}/{token}/d99")
    assert status == 404 and "token" not in body.lower()


async def test_the_page_redraws_from_the_buffer_keeps_the_fault_and_reveals_a_click(client, tmp_path):
    uri = await _opened(client, tmp_path)
    url = (await _preview(client, uri))["url"]
    origin = "http://" + urlsplit(url).netloc
    async with aiohttp.ClientSession() as s, s.ws_connect(url + "/ws", headers={"Origin": origin}) as ws:
        hello = await _next(ws, "hello")
        assert hello["views"] is False  # a graph has one picture
        first = await _next(ws, "picture")
        assert 'data-node="plan"' in first["svg"] and "var(--gp-ink)" in first["svg"]  # auto: the page picks
        assert first["theme"] == "auto"
        # typed, not saved: the picture follows the buffer
        doc = json.loads(GRAPH)
        doc["nodes"][0]["name"] = "Freshly typed"
        change_text(client, uri, 2, json.dumps(doc, indent=2) + "\n")
        typed = await _next(ws, "picture")
        assert "Freshly typed" in typed["svg"]
        # a text that does not read: the fault, and no new picture
        change_text(client, uri, 3, GRAPH[: len(GRAPH) // 2])
        fault = await _next(ws, "fault")
        assert "Cannot draw the picture" in fault["message"] and "not valid JSON" in fault["message"]
        change_text(client, uri, 4, GRAPH)
        back = await _next(ws, "picture")
        assert "Freshly typed" not in back["svg"] and 'data-node="plan"' in back["svg"]
        # a click on the node `review` asks the editor to show its definition
        client.shown_documents.clear()
        await ws.send_str(json.dumps({"type": "reveal", "mark": "node", "id": "review"}))
        shown = await wait_for(lambda: [d for d in client.shown_documents if d.uri == uri])
        sel = shown[0].selection
        line = GRAPH.splitlines()[sel.start.line]
        assert line[sel.start.character:sel.end.character] == "review" and '"id"' in line
        assert shown[0].take_focus is True
        # an edge and a loop too
        for mark, ident in (("edge", "review-done"), ("loop", "review-loop")):
            client.shown_documents.clear()
            await ws.send_str(json.dumps({"type": "reveal", "mark": mark, "id": ident}))
            shown = await wait_for(lambda: [d for d in client.shown_documents if d.uri == uri])
            sel = shown[0].selection
            assert GRAPH.splitlines()[sel.start.line][sel.start.character:sel.end.character] == ident
        await ws.send_str(json.dumps({"type": "reveal", "mark": "node", "id": "gone"}))
        note = await _next(ws, "note")
        assert '"gone"' in note["message"]
        # the theme setting reaches the page at once, and every picture after it
        client.workspace_did_change_configuration(lsp.DidChangeConfigurationParams(
            settings={"grooph": {"preview": {"theme": "dark"}}}))
        assert (await _next(ws, "theme"))["theme"] == "dark"
        change_text(client, uri, 5, GRAPH.replace('"Plan"', '"Plan it"'))
        assert (await _next(ws, "picture"))["theme"] == "dark"


async def test_a_map_page_draws_the_view_it_is_asked_for(client, tmp_path):
    uri = await _opened(client, tmp_path, "bakery.grooph-map.json", MAP)
    url = (await _preview(client, uri))["url"]
    async with aiohttp.ClientSession() as s, s.ws_connect(url + "/ws") as ws:
        assert (await _next(ws, "hello"))["views"] is True
        assert 'data-picture="map"' in (await _next(ws, "picture"))["svg"]
        await ws.send_str(json.dumps({"type": "view", "view": "sequence"}))
        seq = await _next(ws, "picture")
        assert 'data-picture="sequence"' in seq["svg"] and seq["view"] == "sequence"
        await ws.send_str(json.dumps({"type": "reveal", "mark": "handoff", "id": "h-pr"}))
        shown = await wait_for(lambda: [d for d in client.shown_documents if d.uri == uri])
        sel = shown[0].selection
        assert MAP.splitlines()[sel.start.line][sel.start.character:sel.end.character] == "h-pr"


@pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER))
async def quiet_client(lsp_client: LanguageClient):
    """A client that cannot show documents: the server says the address instead."""
    caps = push_capabilities()
    caps.window = None
    await start(lsp_client, capabilities=caps)
    yield lsp_client
    await lsp_client.shutdown_session()


async def test_a_client_without_show_document_is_told_the_address(quiet_client, tmp_path):
    uri = await _opened(quiet_client, tmp_path)
    url = (await _preview(quiet_client, uri))["url"]
    said = await wait_for(lambda: [m for m in quiet_client.messages if url in m.message])
    assert said[0].type == lsp.MessageType.Info and not quiet_client.shown_documents


@pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER))
async def ending_client(lsp_client: LanguageClient):
    await start(lsp_client)
    yield lsp_client


async def test_shutdown_closes_the_port_and_the_pages(ending_client, tmp_path):
    client = ending_client
    uri = await _opened(client, tmp_path)
    url = (await _preview(client, uri))["url"]
    async with aiohttp.ClientSession() as s:
        ws = await s.ws_connect(url + "/ws")
        await _next(ws, "picture")
        await client.shutdown_async(None)  # shutdown alone, the process still running
        closed = await asyncio.wait_for(ws.receive(), 10)
        assert closed.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED, aiohttp.WSMsgType.CLOSING)
        await ws.close()
    with pytest.raises(aiohttp.ClientConnectionError):
        await _get(url)
    assert client._server.returncode is None  # the port closed at shutdown, not because the process ended
    client.exit(None)
    await client._server.wait()


async def test_without_arguments_the_document_last_typed_in_is_shown(client, tmp_path):
    """Helix's `:lsp-workspace-command grooph.preview` sends no arguments: the page of the document
    last opened or changed that has a picture (a board has none) is opened."""
    graph = await _opened(client, tmp_path)
    board = await _opened(client, tmp_path, "checkout.board.json",
                          (FIXTURES / "board" / "valid" / "checkout.board.json").read_text("utf-8"))
    by_uri = (await _preview(client, graph))["url"]
    answer = await client.workspace_execute_command_async(lsp.ExecuteCommandParams(command="grooph.preview"))
    assert answer["url"] == by_uri and board  # the board, opened last, has no picture
    await _opened(client, tmp_path, "bakery.grooph-map.json", MAP)
    answer = await client.workspace_execute_command_async(lsp.ExecuteCommandParams(command="grooph.preview", arguments=[]))
    assert answer["url"] != by_uri and 'data-picture="map"' in answer["svg"]
    change_text(client, graph, 2, GRAPH.replace('"Plan"', '"Planned"'))
    answer = await client.workspace_execute_command_async(lsp.ExecuteCommandParams(command="grooph.preview", arguments=[]))
    assert answer["url"] == by_uri and "Planned" in answer["svg"]  # the graph was changed after the map was opened


async def test_the_page_names_the_document_escaped(client, tmp_path):
    """The page's title is the file name, escaped: a name cannot add markup or a script to the page."""
    uri = (tmp_path / "x").as_uri().rsplit("/", 1)[0] + "/%3Cscript%3E%25MARKS%25%26.grooph.json"
    open_text(client, uri, GRAPH)
    await diagnostics_for(client, uri)
    url = (await _preview(client, uri))["url"]
    status, body, _ = await _get(url)
    assert status == 200 and "<title>&lt;script&gt;%MARKS%&amp;.grooph.json · grooph</title>" in body
    assert body.count("<script") == 1  # the page's own, with its nonce


_LOG = Path(tempfile.mkdtemp(prefix="grooph-live-log-")) / "server.log"


@pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER + ["--log-file", str(_LOG)]))
async def logging_client(lsp_client: LanguageClient):
    """A server writing its log at the default level (INFO; pygls logs every message it sends there)."""
    await start(lsp_client)
    yield lsp_client
    await lsp_client.shutdown_session()


async def test_the_token_is_never_written_to_the_servers_log(logging_client, tmp_path):
    """The log file (`--log-file`, VS Code's `grooph.server.logFile`) may be read by others: the page's
    token, which the showDocument request and the command's answer carry, is withheld in it."""
    client = logging_client
    log_file = _LOG
    uri = await _opened(client, tmp_path)
    url = (await _preview(client, uri))["url"]
    token = urlsplit(url).path.split("/")[1]
    await wait_for(lambda: [d for d in client.shown_documents if d.uri == url])
    await wait_for(lambda: "Sending data" in log_file.read_text("utf-8"))
    text = log_file.read_text("utf-8")
    assert "127.0.0.1" in text and token not in text
