"""Hostile documents through the real server over stdio (issue 9, item 4; DESIGN.md "The server").

One editor session on a graph whose check `run`s `touch <tmp>/pwned` (and whose names are shell
tricks) and on a map whose sessions' `graph`s are URLs of a local listening socket: validating,
hovering, completion, symbols, code actions and fix-all, formatting, rename, every preview, the
ops command, saving. Afterwards:

- the file the command would make does not exist (nothing was run);
- the socket saw no connection (nothing was fetched);
- the only files written are the previews, in `$XDG_CACHE_HOME/grooph-lsp/previews/`: the documents'
  folder, the server's working folder and `$HOME` are byte for byte as before;
- the previews are well-formed SVG with the hostile names as text and no script.
"""

from __future__ import annotations

import hashlib
import json
import os
import select
import socket
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from tests.conftest import FIXTURES
from tests.lsp.lsp_text import LspText
from tests.lsp.stdio_client import StdioServer, editor_capabilities

HOSTILE_NAME = "</text><script>alert(1)</script> $(touch {marker}) `touch {marker}` \x1b\ud800"


def _snapshot(folder: Path) -> dict[str, str]:
    """Every file under `folder` with a digest of its bytes."""
    out = {}
    for root, _, files in os.walk(folder):
        for f in files:
            p = Path(root) / f
            out[str(p.relative_to(folder))] = hashlib.sha1(p.read_bytes()).hexdigest()
    return out


def _graph(marker: Path) -> dict:
    value = json.loads((FIXTURES / "valid" / "review-loop.grooph.json").read_text("utf-8"))
    for node in value["nodes"]:
        if node.get("kind") == "check":
            node["check"]["run"] = f"touch {marker}"
        node["name"] = HOSTILE_NAME.format(marker=marker)
    value["goal"] = f"$(touch {marker})"
    value["edges"].append({"id": "e-ghost", "from": value["nodes"][0]["id"], "to": "ghost"})  # a fault to fix
    return value


def _map(port: int) -> dict:
    value = json.loads((FIXTURES / "maps" / "valid" / "tiny-shop.grooph-map.json").read_text("utf-8"))
    urls = [f"http://127.0.0.1:{port}/x.grooph.json", f"HTTPS://127.0.0.1:{port}/y.json", f"//127.0.0.1:{port}/z.json"]
    for i, session in enumerate(value["sessions"]):
        session["graph"] = urls[i % len(urls)]
        session["name"] = "</text><script>alert(2)</script>"
    return value


@pytest.fixture
def listening():
    server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    server.bind(("127.0.0.1", 0))
    server.listen(8)
    server.setblocking(False)
    yield server
    server.close()


def _connections(server: socket.socket) -> int:
    n = 0
    wait = 0.5
    while select.select([server], [], [], wait)[0]:
        server.accept()[0].close()
        n += 1
        wait = 0.05
    return n


def _position(text: str, needle: str, shift: int = 1) -> dict:
    return LspText(text).position(text.index(needle) + shift)


def test_an_editing_session_runs_nothing_fetches_nothing_and_writes_only_previews(tmp_path, listening):
    docs, cwd, home, cache = (tmp_path / d for d in ("docs", "cwd", "home", "cache"))
    for d in (docs, cwd, home, cache):
        d.mkdir()
    marker = tmp_path / "pwned"
    graph_path, map_path = docs / "review.grooph.json", docs / "shop.grooph-map.json"
    graph_text = json.dumps(_graph(marker), indent=2, ensure_ascii=False) + "\n"
    graph_path.write_text(graph_text, encoding="utf-8", errors="surrogatepass")
    map_text = json.dumps(_map(listening.getsockname()[1]), indent=2) + "\n"
    map_path.write_text(map_text, encoding="utf-8")
    before = {d: _snapshot(d) for d in (docs, cwd, home)}

    server = StdioServer(cwd, log_file=tmp_path / "server.log", stderr_file=tmp_path / "server.stderr",
                         env={"XDG_CACHE_HOME": str(cache), "HOME": str(home)})
    previews = []
    try:
        server.initialize(editor_capabilities(), {"grooph": {"debounceMs": 0, "complete": True}}, root=docs)
        for path, text, language in ((graph_path, graph_text, "grooph"), (map_path, map_text, "grooph-map")):
            uri = path.as_uri()
            server.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": language, "version": 1, "text": text}})
            doc = {"uri": uri}
            whole = {"start": {"line": 0, "character": 0}, "end": LspText(text).position(len(text))}
            hostile = _position(text, "touch " if "touch " in text else "127.0.0.1")  # the command, the URL
            requests = [
                ("textDocument/hover", {"textDocument": doc, "position": hostile}),
                ("textDocument/completion", {"textDocument": doc, "position": hostile}),
                ("textDocument/documentSymbol", {"textDocument": doc}),
                ("textDocument/foldingRange", {"textDocument": doc}),
                ("textDocument/codeAction", {"textDocument": doc, "range": whole, "context": {"diagnostics": []}}),
                ("textDocument/formatting", {"textDocument": doc, "options": {"tabSize": 2, "insertSpaces": True}}),
                ("textDocument/definition", {"textDocument": doc, "position": _position(text, '"id": "', 8)}),
                ("textDocument/rename", {"textDocument": doc, "position": _position(text, '"id": "', 8), "newName": "renamed"}),
            ]
            for view in (None, "wide", "sequence"):
                for theme in ("light", "dark", "auto"):
                    requests.append(("workspace/executeCommand", {"command": "grooph.preview", "arguments": [uri, view, theme]}))
            requests.append(("workspace/executeCommand", {"command": "grooph.applyOperations", "arguments": [uri, [
                {"op": "addNode", "kind": "check", "name": "Again", "set": {"check": {"kind": "command", "run": f"touch {marker}"}}}]]}))
            for method, params in requests:
                p = server.send(method, params)
                while not p.answers:  # answer workspace/applyEdit as an editor that declines it
                    try:
                        server.wait_until(lambda: p.answers or not server.server_requests.empty(), 60, method)
                    except AssertionError:
                        raise AssertionError(f"no answer to {method} {params.get('arguments', '')}")
                    while not server.server_requests.empty():
                        req = server.server_requests.get_nowait().message
                        server.respond(req["id"], {"applied": False, "failureReason": "declined by the test"})
                answer = p.answers[0].message
                assert "error" not in answer or answer["error"]["code"] == -32803, (method, answer)
                result = answer.get("result")
                if params.get("command") == "grooph.preview" and result:
                    previews.append(result)
            server.notify("textDocument/didSave", {"textDocument": doc, "text": text})
        published = server.wait_until(lambda: [n for n in server.notifications
                                               if n.message.get("method") == "textDocument/publishDiagnostics"], 30, "diagnostics")
        assert any(n.message["params"]["diagnostics"] for n in published)  # it did validate
        assert server.shutdown() == 0
    finally:
        if server.alive():
            server.proc.kill()

    assert not marker.exists(), "a command named in the document was run"
    assert _connections(listening) == 0, "a URL named in the document was fetched"
    assert {d: _snapshot(d) for d in (docs, cwd, home)} == before, "a file was written outside the preview cache"
    written = _snapshot(cache)
    assert len(previews) >= 6 and written
    folder = cache / "grooph-lsp" / "previews"
    assert {str(Path(r["path"]).parent) for r in previews} == {str(folder)}
    assert all(str(Path(k).parent) == str(folder.relative_to(cache)) and k.endswith(".svg") for k in written)
    for r in previews:
        on_disk = Path(r["path"]).read_text("utf-8")
        assert on_disk == r["svg"]
        root = ET.fromstring(on_disk.encode("utf-8"))
        assert not [el for el in root.iter() if el.tag.rsplit("}", 1)[-1].lower() == "script"]
        assert any("</text><scri" in t for t in root.itertext())  # the name is there, as text (maybe cut: "…")
    log = (tmp_path / "server.log").read_text("utf-8")
    assert "Traceback" not in log, log[-3000:]


@pytest.mark.parametrize("name", [
    "a%00b.grooph.json",                 # a NUL in the name
    "x" * 300 + ".grooph.json",         # longer than a file name may be
    "..%5C..%5C..%5Cevil.grooph.json",   # backslashes: folders on Windows
    "%E2%80%AEgnp.grooph.json",          # a right-to-left override
    ".grooph.json",                      # no name at all
], ids=["nul", "too-long", "backslashes", "rtl-override", "no-name"])
def test_a_preview_of_any_document_name_lands_in_the_cache(tmp_path, name):
    """The preview's file name comes from the document's URI: whatever it holds, the file is written
    inside the cache folder under a safe name, or the request is refused; never an internal error."""
    cache = tmp_path / "cache"
    server = StdioServer(tmp_path, log_file=tmp_path / "server.log", stderr_file=tmp_path / "server.stderr",
                         env={"XDG_CACHE_HOME": str(cache), "HOME": str(tmp_path)})
    try:
        server.initialize(editor_capabilities(), {"grooph": {"debounceMs": 0}})
        uri = f"file://{tmp_path}/{name}"
        text = (FIXTURES / "valid" / "review-loop.grooph.json").read_text("utf-8")
        server.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "grooph", "version": 1, "text": text}})
        answer = server.request("workspace/executeCommand", {"command": "grooph.preview", "arguments": [uri, None, "light"]})
        assert server.shutdown() == 0
    finally:
        if server.alive():
            server.proc.kill()
    assert "error" not in answer, answer
    path = Path(answer["result"]["path"])
    assert path.parent == cache / "grooph-lsp" / "previews" and path.is_file()
    assert len(path.name.encode("utf-8")) <= 255 and path.name.isprintable() and "\u202e" not in path.name
    assert [p for p in tmp_path.rglob("*") if p.is_file() and p.suffix == ".svg"] == [path]
