"""Limits through the real server (issue 9, item 3; README "grooph.maxDocumentSize").

A document over the size limit (`grooph.maxDocumentSize`, default 5,000,000 characters) or nested
deeper than 64 levels (the root is level 1) gets one clear E_DOC_LIMIT diagnostic and no deeper
analysis: every request answers at once with nothing (or a refusal that says why), nothing hangs, no
RecursionError or traceback reaches the log, and the server's memory stays within a small multiple
of the text.
"""

from __future__ import annotations

import json
import time

import pytest

from tests.conftest import FIXTURES
from tests.lsp.lsp_text import LspText
from tests.lsp.stdio_client import StdioServer, editor_capabilities

REVIEW = json.loads((FIXTURES / "valid" / "review-loop.grooph.json").read_text("utf-8"))
QUICK = 10.0  # seconds: far more than any answer here takes; a hang fails


def _start(tmp_path, options=None):
    server = StdioServer(tmp_path, log_file=tmp_path / "server.log", stderr_file=tmp_path / "server.stderr",
                         configuration={"grooph": options or {}}, env={"XDG_CACHE_HOME": str(tmp_path / "cache")})
    server.initialize(editor_capabilities(), {"grooph": {"debounceMs": 0, **(options or {})}})
    return server


def _diagnostics(server, uri, version, timeout=60.0):
    def newest():
        for n in reversed(server.notifications):
            p = n.message.get("params") or {}
            if n.message.get("method") == "textDocument/publishDiagnostics" and p.get("uri") == uri and p.get("version") == version:
                return [p["diagnostics"]]
        return None
    return server.wait_until(newest, timeout, f"diagnostics for v{version}")[0]


def _open(server, uri, text, version=1):
    server.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "grooph", "version": version, "text": text}})


def _change(server, uri, text, version):
    server.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version}, "contentChanges": [{"text": text}]})


def _nothing_deeper(server, uri, text, says: str):
    """Every feature answers at once: nothing, or a refusal naming the limit."""
    doc = {"uri": uri}
    model = LspText(text)
    pos = model.position(min(len(text), 40))
    whole = {"start": {"line": 0, "character": 0}, "end": model.position(len(text))}
    expect_empty = [
        ("textDocument/hover", {"textDocument": doc, "position": pos}),
        ("textDocument/documentSymbol", {"textDocument": doc}),
        ("textDocument/foldingRange", {"textDocument": doc}),
        ("textDocument/definition", {"textDocument": doc, "position": pos}),
        ("textDocument/codeAction", {"textDocument": doc, "range": whole, "context": {"diagnostics": []}}),
        ("textDocument/completion", {"textDocument": doc, "position": pos}),
        ("textDocument/formatting", {"textDocument": doc, "options": {"tabSize": 2, "insertSpaces": True}}),
    ]
    shown_before = len(server.notifications)
    for method, params in expect_empty:
        started = time.monotonic()
        answer = server.request(method, params, timeout=QUICK)
        assert time.monotonic() - started < QUICK
        assert "error" not in answer, (method, answer)
        result = answer["result"]
        assert not result or (isinstance(result, dict) and not result.get("items")), (method, result)
    messages = [n.message["params"]["message"] for n in server.notifications[shown_before:]
                if n.message.get("method") == "window/showMessage"]
    assert any(m.startswith("Not formatted: ") and says in m for m in messages), messages
    for command, args in (("grooph.preview", [uri]), ("grooph.applyOperations", [uri, [{"op": "setGraphName", "name": "H"}]])):
        answer = server.request("workspace/executeCommand", {"command": command, "arguments": args}, timeout=QUICK)
        reason = answer["error"]["message"] if "error" in answer else answer["result"]["error"]["message"]
        assert says in reason and "not valid JSON" not in reason, (command, reason)


def _no_traceback(tmp_path):
    for name in ("server.log", "server.stderr"):
        text = (tmp_path / name).read_text("utf-8", errors="replace")
        assert "Traceback" not in text and "RecursionError" not in text, text[-3000:]


def test_over_the_default_size_limit_one_diagnostic_and_nothing_deeper(tmp_path):
    value = dict(REVIEW, description="x" * 5_000_000)
    text = json.dumps(value, indent=2)
    assert len(text) > 5_000_000
    server = _start(tmp_path)
    try:
        baseline = server.peak_memory_kb()
        uri = (tmp_path / "big.grooph.json").as_uri()
        _open(server, uri, text)
        [diag] = _diagnostics(server, uri, 1)
        assert diag["code"] == "E_DOC_LIMIT" and diag["severity"] == 1
        assert f"{len(text):,} characters" in diag["message"] and "5,000,000" in diag["message"]
        assert diag["range"] == {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}}
        _nothing_deeper(server, uri, text, "5,000,000")
        # back under the limit: the whole analysis again
        smaller = json.dumps(dict(REVIEW, description="x" * 4_000_000, zz=1), indent=2)
        _change(server, uri, smaller, 2)
        assert [d["code"] for d in _diagnostics(server, uri, 2)] == ["W_UNKNOWN_KEY", "W_DOC_TOO_LARGE"]
        # memory: the texts themselves (a few copies on the wire and in the store), not a tree of them
        assert server.peak_memory_kb() - baseline < 200_000
        assert server.shutdown() == 0
    finally:
        if server.alive():
            server.proc.kill()
    _no_traceback(tmp_path)


def test_the_size_limit_is_a_setting(tmp_path):
    server = _start(tmp_path, {"maxDocumentSize": 5_000})
    try:
        uri = (tmp_path / "g.grooph.json").as_uri()
        small = json.dumps(dict(REVIEW, description="", zz=1))
        text = json.dumps(dict(REVIEW, description="x" * (5_001 - len(small)), zz=1))
        assert len(small) <= 5_000 < len(text)
        _open(server, uri, text)
        [diag] = _diagnostics(server, uri, 1)
        assert diag["code"] == "E_DOC_LIMIT" and "5,000 " in diag["message"]
        _change(server, uri, small, 2)
        assert [d["code"] for d in _diagnostics(server, uri, 2)] == ["W_UNKNOWN_KEY"]
        _change(server, uri, text, 3)
        assert [d["code"] for d in _diagnostics(server, uri, 3)] == ["E_DOC_LIMIT"]
        server.configuration = {"grooph": {"maxDocumentSize": 10_000}}  # the user raises it
        server.notify("workspace/didChangeConfiguration", {"settings": {"grooph": {"maxDocumentSize": 10_000}}})
        server.wait_until(lambda: [n for n in server.notifications[-3:] if n.message.get("method") == "textDocument/publishDiagnostics"
                                   and [d["code"] for d in n.message["params"]["diagnostics"]] == ["W_UNKNOWN_KEY"]], 30, "re-validation")
        assert server.shutdown() == 0
    finally:
        if server.alive():
            server.proc.kill()
    _no_traceback(tmp_path)


HEAD = '{"grooph": 0, "id": "g", "name": "G", "version": 1, "nodes": [], "edges": [], "loops": [], "zz": '


@pytest.mark.parametrize("text, deep_at", [
    (HEAD + "[" * 64 + "]" * 64 + "}", len(HEAD) + 63),                  # 65 levels with the root, valid JSON
    ("[" * 200_000, 64),                                                   # unclosed, as if typed by a stuck key
    ('{"a":' * 100_000 + "1" + "}" * 100_000, 64 * 5),                    # valid JSON a decoder recurses on
    ("\n".join(["{"] + ['  "k": [' for _ in range(100)] + ["  1"]), None),  # on many lines: the line is named
], ids=["65-levels", "200k-unclosed", "100k-objects", "100-lines"])
def test_nested_deeper_than_the_limit_one_diagnostic_and_nothing_deeper(tmp_path, text, deep_at):
    server = _start(tmp_path)
    try:
        baseline = server.peak_memory_kb()
        uri = (tmp_path / "deep.grooph.json").as_uri()
        _open(server, uri, text)
        [diag] = _diagnostics(server, uri, 1)
        assert diag["code"] == "E_DOC_LIMIT" and "deeper than 64 levels" in diag["message"]
        model = LspText(text)
        start = model.offset(diag["range"]["start"])
        assert text[start] in "[{"
        if deep_at is not None:
            assert start == deep_at
        else:
            assert f"(line {diag['range']['start']['line'] + 1})" in diag["message"] and diag["range"]["start"]["line"] == 64
        _nothing_deeper(server, uri, text, "deeper than 64 levels")
        one_below = HEAD + "[" * 63 + "]" * 63 + "}"
        _change(server, uri, one_below, 2)
        assert [d["code"] for d in _diagnostics(server, uri, 2)] == ["W_UNKNOWN_KEY"]  # 64 levels: analysed
        assert server.peak_memory_kb() - baseline < 100_000
        assert server.shutdown() == 0
    finally:
        if server.alive():
            server.proc.kill()
    _no_traceback(tmp_path)
