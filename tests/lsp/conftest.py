"""End-to-end fixtures: the real `grooph-lsp` over stdio, driven by pytest-lsp's client."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

import pytest_lsp
from lsprotocol import types as lsp
from pytest_lsp import ClientServerConfig, LanguageClient

SERVER = [sys.executable, "-m", "grooph_lsp"]


def push_capabilities(**general) -> lsp.ClientCapabilities:
    """A client that takes pushed diagnostics (no pull), answers workspace/configuration,
    shows documents and supports prepareRename."""
    return lsp.ClientCapabilities(
        workspace=lsp.WorkspaceClientCapabilities(
            configuration=True,
            did_change_configuration=lsp.DidChangeConfigurationClientCapabilities(dynamic_registration=False),
            apply_edit=True,
            workspace_edit=lsp.WorkspaceEditClientCapabilities(document_changes=True),
        ),
        text_document=lsp.TextDocumentClientCapabilities(
            publish_diagnostics=lsp.PublishDiagnosticsClientCapabilities(version_support=True, related_information=True),
            rename=lsp.RenameClientCapabilities(prepare_support=True),
            code_action=lsp.CodeActionClientCapabilities(
                code_action_literal_support=lsp.ClientCodeActionLiteralOptions(
                    code_action_kind=lsp.ClientCodeActionKindOptions(value_set=["quickfix", "source.fixAll"])
                ),
                is_preferred_support=True,
            ),
            hover=lsp.HoverClientCapabilities(content_format=[lsp.MarkupKind.Markdown]),
            document_symbol=lsp.DocumentSymbolClientCapabilities(hierarchical_document_symbol_support=True),
        ),
        window=lsp.WindowClientCapabilities(show_document=lsp.ShowDocumentClientCapabilities(support=True)),
        general=lsp.GeneralClientCapabilities(**general) if general else None,
    )


async def start(client: LanguageClient, *, options: dict | None = None, capabilities=None, configuration=None):
    if configuration is not None:
        client.set_configuration(configuration)
    await client.initialize_session(lsp.InitializeParams(
        capabilities=capabilities or push_capabilities(),
        initialization_options=options if options is not None else {"grooph": {"debounceMs": 0}},
    ))


@pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER))
async def client(lsp_client: LanguageClient):
    """A push-model client with debouncing off (most tests)."""
    await start(lsp_client)
    yield lsp_client
    await lsp_client.shutdown_session()


@pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER))
async def raw_client(lsp_client: LanguageClient):
    """A started but uninitialized client: the test initializes with its own options."""
    yield lsp_client
    await lsp_client.shutdown_session()


def open_text(client: LanguageClient, uri: str, text: str, version: int = 1, language_id: str = "json") -> None:
    client.text_document_did_open(lsp.DidOpenTextDocumentParams(
        text_document=lsp.TextDocumentItem(uri=uri, language_id=language_id, version=version, text=text)))


def change_text(client: LanguageClient, uri: str, version: int, text: str, rng: lsp.Range | None = None) -> None:
    change = (lsp.TextDocumentContentChangeWholeDocument(text=text) if rng is None
              else lsp.TextDocumentContentChangePartial(range=rng, text=text))
    client.text_document_did_change(lsp.DidChangeTextDocumentParams(
        text_document=lsp.VersionedTextDocumentIdentifier(uri=uri, version=version), content_changes=[change]))


async def wait_for(predicate, timeout: float = 10.0):
    """Poll until `predicate()` is truthy (the server answers asynchronously)."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if loop.time() > end:
            raise AssertionError("timed out waiting for the server")
        await asyncio.sleep(0.02)


async def diagnostics_for(client: LanguageClient, uri: str, timeout: float = 10.0):
    await wait_for(lambda: uri in client.diagnostics, timeout)
    return client.diagnostics[uri]


def dumps(value: object) -> str:
    return json.dumps(value, indent=2, ensure_ascii=False) + "\n"


def uri_for(tmp_path: Path, name: str) -> str:
    return (tmp_path / name).as_uri()
