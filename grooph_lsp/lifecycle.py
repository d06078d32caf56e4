"""Handlers of the session and the document lifecycle: initialize, configuration, open / change / save /
close, and pulled diagnostics. Each does the open documents' work and then calls the workspace's hook
(`workspace.Workspace`) explicitly; registered in `server.FEATURES`."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from lsprotocol import types as lsp

from grooph_lsp import convert
from grooph_lsp.settings import Settings, merge

if TYPE_CHECKING:
    from grooph_lsp.server import GroophServer

log = logging.getLogger("grooph_lsp")


def initialize(ls: "GroophServer", params: lsp.InitializeParams) -> None:
    ls.settings = merge(Settings(), params.initialization_options)
    td = params.capabilities.text_document
    ls.pull = bool(td and td.diagnostic)
    ls.position_encoding = _encoding_name(ls.workspace.position_encoding)


def _encoding_name(enc: Any) -> str:
    """The position encoding pygls agreed with the client ("utf-16" when it says none)."""
    return str(enc.value if hasattr(enc, "value") else enc or "utf-16")


async def initialized(ls: "GroophServer", params: lsp.InitializedParams) -> None:
    caps = ls.client_capabilities.workspace
    if caps and caps.did_change_configuration and caps.did_change_configuration.dynamic_registration:
        try:
            await ls.client_register_capability_async(
                convert.registration("grooph-config", lsp.WORKSPACE_DID_CHANGE_CONFIGURATION))
        except Exception as e:
            log.warning("could not register for configuration changes: %s", e)
    if await ls.fetch_configuration():
        ls.revalidate_all()
    await ls.ws.initialized()


async def shutdown(ls: "GroophServer", params: Any = None) -> None:
    """Close the live picture's port and its pages' sockets (live_picture.py), when it was started."""
    if ls.live_if_started is not None:
        await ls.live_if_started.close()


async def did_change_configuration(ls: "GroophServer", params: lsp.DidChangeConfigurationParams) -> None:
    settings = params.settings
    before = ls.settings
    if isinstance(settings, dict) and ("grooph" in settings or any(str(k).startswith("grooph.") for k in settings)):
        ls.settings = merge(ls.settings, settings)
    else:
        await ls.fetch_configuration()
    if ls.settings != before:
        ls.revalidate_all()
    if ls.settings.inlay_hints != before.inlay_hints:
        ls.refresh_inlay_hints()
    if ls.live_if_started is not None and ls.settings.preview_theme != before.preview_theme:
        ls.live_if_started.theme_changed()
    await ls.ws.settings_changed(before)


def did_open(ls: "GroophServer", params: lsp.DidOpenTextDocumentParams) -> None:
    td = params.text_document
    ls.scheduler.forget(td.uri)
    doc = ls.store.open(td.uri, td.text, td.version, td.language_id)
    if doc.served():
        ls.schedule(doc, 0)
    ls.ws.did_open(params)


def did_change(ls: "GroophServer", params: lsp.DidChangeTextDocumentParams) -> None:
    td = params.text_document
    doc = ls.store.change(td.uri, td.version, list(params.content_changes), ls.encoding)
    if doc is not None:
        ls.schedule(doc)
    ls.ws.did_change(params)


def did_save(ls: "GroophServer", params: lsp.DidSaveTextDocumentParams) -> None:
    doc = ls.store.get(params.text_document.uri)
    if doc is not None:
        if params.text is not None and params.text != doc.text:
            doc.set_text(params.text)
        ls.schedule(doc, 0)
    ls.ws.did_change(params)


async def did_close(ls: "GroophServer", params: lsp.DidCloseTextDocumentParams) -> None:
    uri = params.text_document.uri
    ls.scheduler.forget(uri)
    ls.fix_checks.forget(uri)
    ls.token_results.pop(uri, None)
    ls.store.close(uri)
    if ls.live_if_started is not None:
        ls.live_if_started.closed(uri)
    if not ls.pull:
        ls.publish_diagnostics(convert.publish(uri, []))
    await ls.ws.did_close(params)


async def pull_diagnostics(ls: "GroophServer", params: lsp.DocumentDiagnosticParams) -> Any:
    """The version current when the request came, analysed off the event loop. An open map's report
    changes when a graph it names does: the result id says so too (`#g` and the count of such changes)."""
    suffix = f"#g{ls.ws.dep_generation.get(params.text_document.uri, 0)}"
    prev = params.previous_result_id
    prev = prev[: -len(suffix)] if prev and prev.endswith(suffix) else None
    doc = ls.store.get(params.text_document.uri)
    if doc is None or not doc.served():
        return convert.document_report([])
    result_id = f"{doc.uri}@{doc.version}@{ls.settings.complete}"
    if prev == result_id:
        return convert.unchanged_report(result_id + suffix)
    result = await ls.scheduler.result(doc)
    ls.scheduler.shown(doc.uri, result.snapshot.version)
    return convert.document_report(result.diagnostics, result_id + suffix)
