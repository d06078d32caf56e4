"""The extension's own command ids never collide with the commands the server lists (issue 12, item 1).

vscode-languageclient registers a VS Code command for every id in the server's
`executeCommandProvider.commands`; an extension that registers one of those ids itself makes the
second registration throw, and the client dies on start ("command 'grooph.applyOperations' already
exists"). The server's list is read from the running server's `initialize` answer, the extension's
from its package.json and from every `registerCommand(...)` in its source.
"""

from __future__ import annotations

import json
import re
import sys

import pytest_lsp
from lsprotocol import types as lsp
from pytest_lsp import ClientServerConfig, LanguageClient

from tests.conftest import ROOT
from tests.lsp.conftest import push_capabilities

EXTENSION = ROOT / "editors" / "vscode"
REGISTER = re.compile(r"registerCommand\(\s*")
LITERAL_ID = re.compile(r"""registerCommand\(\s*(["'])([^"']+)\1""")


def contributed_commands() -> set[str]:
    manifest = json.loads((EXTENSION / "package.json").read_text("utf-8"))
    return {c["command"] for c in manifest["contributes"]["commands"]}


def registered_commands() -> set[str]:
    """Every id the extension's TypeScript registers; an id that is not a string literal fails the
    test, since it could not be checked here."""
    ids: set[str] = set()
    for source in sorted((EXTENSION / "src").rglob("*.ts")):
        text = source.read_text("utf-8")
        calls = len(REGISTER.findall(text))
        found = [m.group(2) for m in LITERAL_ID.finditer(text)]
        assert calls == len(found), f"{source.relative_to(ROOT)}: a registerCommand id that is not a string literal"
        ids.update(found)
    return ids


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[sys.executable, "-m", "grooph_lsp"]))
async def server(lsp_client: LanguageClient):
    lsp_client.initialized = await lsp_client.initialize_session(lsp.InitializeParams(capabilities=push_capabilities()))
    yield lsp_client
    await lsp_client.shutdown_session()


async def test_extension_commands_do_not_collide_with_the_servers(server: LanguageClient):
    provider = server.initialized.capabilities.execute_command_provider
    server_commands = set(provider.commands if provider else [])
    assert "grooph.applyOperations" in server_commands, "the server's command list was not read"
    contributed = contributed_commands()
    registered = registered_commands()
    assert contributed & server_commands == set(), "package.json contributes a command the language client registers"
    assert registered & server_commands == set(), "extension.ts registers a command the language client registers"
    # Every command shown in the palette is one the extension registers, and the other way round.
    assert registered == contributed
