"""A refusal is a proper LSP error (RequestFailed, -32803) with the reason, and the server's log stays
free of tracebacks for it (issue 9: "every request answered with a result or a proper LSP error")."""

from __future__ import annotations

import json

from tests.lsp.docs import CLEAN
from tests.lsp.stdio_client import StdioServer, editor_capabilities

REQUEST_FAILED = -32803


def test_refusals_are_request_failed_and_leave_no_traceback(tmp_path):
    log = tmp_path / "server.log"
    server = StdioServer(tmp_path, log_file=log, stderr_file=tmp_path / "stderr", log_level="INFO",
                         env={"XDG_CACHE_HOME": str(tmp_path / "cache")})
    try:
        server.initialize(editor_capabilities(), {"grooph": {"debounceMs": 0}})
        uri = (tmp_path / "g.grooph.json").as_uri()
        text = json.dumps(CLEAN, indent=2) + "\n"
        server.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "grooph", "version": 1, "text": text}})
        broken = (tmp_path / "b.grooph.json").as_uri()
        server.notify("textDocument/didOpen", {"textDocument": {"uri": broken, "languageId": "grooph", "version": 1, "text": '{"grooph": 0,,'}})

        on_a_brace = server.request("textDocument/prepareRename", {"textDocument": {"uri": uri}, "position": {"line": 0, "character": 0}})
        w = text.index('"id": "w"') + 7
        line = text.count("\n", 0, w)
        at_w = {"line": line, "character": w - (text.rfind("\n", 0, w) + 1)}
        bad_name = server.request("textDocument/rename", {"textDocument": {"uri": uri}, "position": at_w, "newName": "Bad Name"})
        preview = server.request("workspace/executeCommand", {"command": "grooph.preview", "arguments": [broken]})

        for answer, says in ((on_a_brace, "no id"), (bad_name, "Bad Name"), (preview, "not valid JSON")):
            assert "result" not in answer
            assert answer["error"]["code"] == REQUEST_FAILED, answer
            assert says in answer["error"]["message"]
        assert server.shutdown() == 0
    finally:
        if server.alive():
            server.proc.kill()
    logged = log.read_text(encoding="utf-8")
    assert "refused: There is no id at the cursor" in logged  # the reason is kept, as one INFO line
    assert "Traceback" not in logged and " ERROR " not in logged, logged[-3000:]
