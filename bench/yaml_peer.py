"""The workflow's second peer (issue 24): Red Hat's yaml-language-server (what the VS Code YAML extension
runs), over stdio like our server, validating a `*.workflow.yaml` against our published
`grooph_core/schema/workflow.schema.json` (settings pulled with workspace/configuration; the schema store
is off, so it fetches nothing). The same keystrokes as `run.measure_neighbour_server`: open -> first
diagnostics, and typing or deleting one character in a text value -> the next diagnostics. Its
publishes carry no version, so a keystroke's answer is the first publish for the document after it
(the queue is emptied before each keystroke). Nothing here asserts a timing.
"""

from __future__ import annotations

import json
import queue
import shutil
import time
from pathlib import Path

from bench.lsp_client import LspServerProcess

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
SERVER = BENCH / "node_modules" / "yaml-language-server" / "bin" / "yaml-language-server"
SCHEMA = ROOT / "grooph_core" / "schema" / "workflow.schema.json"


def version() -> str | None:
    """The installed yaml-language-server's version (bench/package.json pins it), or None."""
    try:
        return json.loads((SERVER.parent.parent / "package.json").read_text("utf-8"))["version"]
    except (OSError, ValueError, KeyError):
        return None


def unavailable() -> str | None:
    """Why the peer cannot run here, or None when it can."""
    if shutil.which("node") is None:
        return "node is not installed"
    if not SERVER.is_file():
        return "bench/node_modules has no yaml-language-server: run `npm ci` in bench/ (or .ci/setup)"
    return None


def _drain(server: LspServerProcess) -> None:
    while True:
        try:
            server.notifications.get_nowait()
        except queue.Empty:
            return


def measure(text: str, edit_at: tuple[dict, dict], file: Path, repeats: int) -> dict:
    """Open and keystrokes (at `edit_at`: the LSP positions before and after the typed character)
    through yaml-language-server, or {"error": why} when it cannot run."""
    from bench.run import summary

    why = unavailable()
    if why is not None:
        return {"error": why}
    settings = {"validate": True, "schemaStore": {"enable": False}, "schemas": {SCHEMA.as_uri(): ["*.workflow.yaml"]}}
    uri = file.as_uri()
    out: dict = {"version": version()}
    with LspServerProcess(str(BENCH), command=["node", str(SERVER), "--stdio"], configuration={"yaml": settings}) as server:
        server.notify("workspace/didChangeConfiguration", {"settings": None})  # it pulls its settings then
        time.sleep(0.5)
        out["idle_hwm_kb"] = server.status("VmHWM")
        _drain(server)
        t = server.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "yaml", "version": 1,
                                                                    "text": text}})
        got = server.wait_diagnostics(uri, None)  # its publishes carry no version
        at, diagnostics = got.at, got.message["params"]["diagnostics"]
        out["open_ms"] = (at - t) * 1000
        out["diagnostics"] = len(diagnostics)
        start, after = edit_at
        samples, cpu_start, version_no = [], 0.0, 1
        for k in range(repeats + 2):
            if k == 2:
                cpu_start = server.cpu_seconds()
            version_no += 1
            change = ({"range": {"start": start, "end": start}, "text": "x"} if k % 2 == 0
                      else {"range": {"start": start, "end": after}, "text": ""})
            _drain(server)
            t = server.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version_no},
                                                         "contentChanges": [change]})
            at = server.wait_diagnostics(uri, None).at
            if k >= 2:
                samples.append((at - t) * 1000)
        out["round_trip"] = summary(samples)
        out["round_trip_server_cpu_ms"] = (server.cpu_seconds() - cpu_start) * 1000 / max(1, len(samples))
        out["peak_hwm_kb"] = server.status("VmHWM")
    return out
