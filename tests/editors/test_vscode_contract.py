"""The VS Code extension and the real server agree on the wire (issue 7, item 1; server contract):
the arguments the extension's compiled code builds for `grooph.preview` and `grooph.applyOperations`
and the initializationOptions it sends are accepted by `grooph-lsp`, and the extension's readers make
the right thing of the server's answers (a picture; "applied N operations" with the new ids).

VS Code cannot run here, so the extension's own functions (editors/vscode/out/src/core/*.js, built by
`npm run compile`, which tests/editors/vscode_build.py runs once per session) are called under node and
their output is sent by pytest-lsp's client.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys

import pytest
import pytest_lsp
from lsprotocol import types as lsp
from pytest_lsp import ClientServerConfig, LanguageClient

from tests.editors.vscode_build import CORE, compiled
from tests.lsp.conftest import diagnostics_for, dumps, open_text, push_capabilities

NODE = shutil.which("node")

GRAPH = {
    "grooph": 0, "id": "g", "name": "G", "version": 1,
    "nodes": [
        {"id": "w", "kind": "agent", "name": "W", "role": "builder", "brief": "Do it.", "outputs": ["out.txt"], "allow": ["edit-files"]},
        {"id": "end", "kind": "stop", "name": "End"},
    ],
    "edges": [{"id": "e1", "from": "w", "to": "end"}],
    "loops": [],
}
OPS_TEXT = '[{"op": "addNode", "kind": "human-gate", "name": "Approve"}]'


pytestmark = pytest.mark.skipif(NODE is None, reason="node is needed to run the VS Code extension's code")


def node(script: str, payload: object) -> dict:
    """Runs `script` under node with the extension's core modules as `args` and `page`, `input` = payload."""
    why = compiled()
    if why:
        pytest.fail(why)
    prelude = (
        f"const args = require({json.dumps(str(CORE / 'commandArgs.js'))});"
        f"const page = require({json.dumps(str(CORE / 'previewHtml.js'))});"
        "const input = JSON.parse(require('fs').readFileSync(0, 'utf8'));"
    )
    proc = subprocess.run(
        [NODE, "-e", prelude + script], input=json.dumps(payload), capture_output=True, text=True, timeout=60
    )
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[sys.executable, "-m", "grooph_lsp"]))
async def editor(lsp_client: LanguageClient):
    """A client started with the initializationOptions the extension builds from its settings."""
    init = node(
        "process.stdout.write(JSON.stringify(args.serverSettingsSection((k) => input[k])));",
        {"complete": False, "debounceMs": 0, "preview.theme": "dark"},
    )
    assert init == {"complete": False, "debounceMs": 0, "preview": {"theme": "dark"}}
    await lsp_client.initialize_session(lsp.InitializeParams(capabilities=push_capabilities(), initialization_options=init))
    yield lsp_client
    await lsp_client.shutdown_session()


async def test_preview_arguments_and_answer(editor: LanguageClient, tmp_path):
    uri = (tmp_path / "g.grooph.json").as_uri()
    open_text(editor, uri, dumps(GRAPH), language_id="grooph")
    await diagnostics_for(editor, uri)
    built = node(
        "process.stdout.write(JSON.stringify(args.previewArguments(input.uri, null, "
        "args.effectiveTheme('auto', args.COLOR_THEME_KIND.Dark))));",
        {"uri": uri},
    )
    assert built == [uri, None, "dark"]
    result = await editor.workspace_execute_command_async(lsp.ExecuteCommandParams(command="grooph.preview", arguments=built))
    shown = node(
        "const c = page.previewContentFromResult(input); const u = page.previewUpdate(c, null, 'dark');"
        "process.stdout.write(JSON.stringify({kind: c.kind, image: u.image}));",
        result,
    )
    assert shown["kind"] == "picture"
    assert shown["image"].startswith("data:image/svg+xml;base64,")


async def test_apply_operations_arguments_and_answer(editor: LanguageClient, tmp_path):
    uri = (tmp_path / "g.grooph.json").as_uri()
    text = dumps(GRAPH)
    open_text(editor, uri, text, language_id="grooph")
    await diagnostics_for(editor, uri)
    applied: list[lsp.ApplyWorkspaceEditParams] = []

    @editor.feature(lsp.WORKSPACE_APPLY_EDIT)
    def on_apply(params: lsp.ApplyWorkspaceEditParams):
        applied.append(params)
        return lsp.ApplyWorkspaceEditResult(applied=True)

    built = node(
        "const p = args.parseOperations(input.text); if (!p.ok) throw new Error(p.message);"
        "process.stdout.write(JSON.stringify(args.applyOperationsArguments(input.uri, p.ops)));",
        {"uri": uri, "text": OPS_TEXT},
    )
    assert built == [uri, json.loads(OPS_TEXT)]
    result = await editor.workspace_execute_command_async(
        lsp.ExecuteCommandParams(command="grooph.applyOperations", arguments=built)
    )
    assert len(applied) == 1
    report = node("process.stdout.write(JSON.stringify(args.describeApplyResult(input, 1)));", result)
    assert report == {"level": "info", "message": "grooph: applied 1 operation. New ids: approve."}

    refused = await editor.workspace_execute_command_async(lsp.ExecuteCommandParams(
        command="grooph.applyOperations", arguments=[uri, [{"op": "removeNode", "id": "ghost"}]]))
    report = node("process.stdout.write(JSON.stringify(args.describeApplyResult(input, 1)));", refused)
    assert report["level"] == "error"
    assert report["message"].startswith("grooph: ops[0] removeNode: ") and "ghost" in report["message"]
    assert len(applied) == 1
