"""The language server: one `create_server()` with the whole registration list; each handler fetches
the document's analysis, calls the core, and wraps the answer in lsprotocol types (DESIGN.md)."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from lsprotocol import types as lsp
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol
from pygls.protocol.language_server import lsp_method

from grooph_core import __version__
from grooph_core.analysis import Analysis
from grooph_lsp import features
from grooph_lsp.convert import to_lsp_diagnostic
from grooph_lsp.documents import DocumentStore, OpenDocument
from grooph_lsp.settings import Settings, merge

log = logging.getLogger("grooph_lsp")

FIX_ALL_KIND = "source.fixAll.grooph"


class GroophProtocol(LanguageServerProtocol):
    """Keeps the open texts in our own store (correct LSP line breaks); pygls's copy is not used, so
    it is not made either (it would hold every opened text, as first opened, until closed)."""

    @lsp_method(lsp.TEXT_DOCUMENT_DID_OPEN)
    def lsp_text_document__did_open(self, params: lsp.DidOpenTextDocumentParams):
        if (user_handler := self.fm.features.get(lsp.TEXT_DOCUMENT_DID_OPEN)) is not None:
            yield user_handler, (params,), None

    @lsp_method(lsp.TEXT_DOCUMENT_DID_CHANGE)
    def lsp_text_document__did_change(self, params: lsp.DidChangeTextDocumentParams):
        if (user_handler := self.fm.features.get(lsp.TEXT_DOCUMENT_DID_CHANGE)) is not None:
            yield user_handler, (params,), None


class GroophServer(LanguageServer):
    """A pygls server with the grooph state: open documents, settings, pending validations."""

    def __init__(self) -> None:
        super().__init__("grooph-lsp", __version__, protocol_cls=GroophProtocol)
        self.store = DocumentStore()
        self.settings = Settings()
        self.pull = False
        self.pending: dict[str, asyncio.Task] = {}
        self.published: dict[str, int] = {}

    # --- helpers used by the handlers -------------------------------------------------------
    @property
    def encoding(self) -> str:
        enc = self.workspace.position_encoding if self.protocol._workspace is not None else None
        return str(enc.value if hasattr(enc, "value") else enc or "utf-16")

    def served(self, uri: str) -> OpenDocument | None:
        """The open document for a grooph feature; the neighbouring formats get diagnostics only (so far)."""
        doc = self.store.get(uri)
        return doc if doc is not None and doc.served() and doc.neighbour is None else None

    def analysis(self, doc: OpenDocument) -> Analysis:
        return self.store.analysis(doc, export=self.settings.complete, max_chars=self.settings.max_chars)

    def diagnostics(self, doc: OpenDocument) -> list[lsp.Diagnostic]:
        a = self.analysis(doc)
        return [to_lsp_diagnostic(a, issue, doc.uri, self.encoding, n) for n, issue in enumerate(a.issues)]

    def publish(self, doc: OpenDocument) -> None:
        """Push diagnostics for the document's current version, never older than one already pushed."""
        if self.pull:
            return
        version = doc.version
        if self.published.get(doc.uri, -(2**31)) > version:
            return
        diags = self.diagnostics(doc) if doc.served() else []
        if self.store.get(doc.uri) is not doc or doc.version != version:
            return  # a newer version arrived meanwhile; it publishes for itself
        self.published[doc.uri] = version
        self.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(uri=doc.uri, diagnostics=diags, version=version))

    def schedule(self, doc: OpenDocument, delay_ms: int) -> None:
        """Validate after `delay_ms`; a newer change cancels the pending one (newest version wins)."""
        if self.pull:
            return
        old = self.pending.pop(doc.uri, None)
        if old is not None:
            old.cancel()
        if delay_ms <= 0:
            self.publish(doc)
            return
        self.pending[doc.uri] = asyncio.get_running_loop().create_task(self._later(doc, doc.version, delay_ms))

    async def _later(self, doc: OpenDocument, version: int, delay_ms: int) -> None:
        await asyncio.sleep(delay_ms / 1000)
        if self.store.get(doc.uri) is doc and doc.version == version:
            self.pending.pop(doc.uri, None)
            self.publish(doc)

    def revalidate_all(self) -> None:
        if self.pull:
            caps = self.client_capabilities.workspace
            if caps and caps.diagnostics and caps.diagnostics.refresh_support:
                self.workspace_diagnostic_refresh(None)
            return
        for doc in list(self.store.docs.values()):
            if doc.served():
                self.schedule(doc, 0)

    async def fetch_configuration(self) -> bool:
        """Ask the client for the `grooph` section; True when the settings changed."""
        caps = self.client_capabilities.workspace
        if not (caps and caps.configuration):
            return False
        try:
            result = await self.workspace_configuration_async(
                lsp.ConfigurationParams(items=[lsp.ConfigurationItem(section="grooph")])
            )
        except Exception as e:  # a client that fails the request keeps the settings we have
            log.warning("workspace/configuration failed: %s", e)
            return False
        before = self.settings
        if result:
            self.settings = merge(self.settings, {"grooph": result[0]} if isinstance(result[0], dict) else {})
        return self.settings != before


def create_server() -> GroophServer:
    """Build a server with every feature registered (a fresh one per test)."""
    server = GroophServer()

    @server.feature(lsp.INITIALIZE)
    def initialize(ls: GroophServer, params: lsp.InitializeParams) -> None:
        ls.settings = merge(Settings(), params.initialization_options)
        td = params.capabilities.text_document
        ls.pull = bool(td and td.diagnostic)

    @server.feature(lsp.INITIALIZED)
    async def initialized(ls: GroophServer, params: lsp.InitializedParams) -> None:
        caps = ls.client_capabilities.workspace
        if caps and caps.did_change_configuration and caps.did_change_configuration.dynamic_registration:
            try:
                await ls.client_register_capability_async(lsp.RegistrationParams(registrations=[
                    lsp.Registration(id="grooph-config", method=lsp.WORKSPACE_DID_CHANGE_CONFIGURATION)
                ]))
            except Exception as e:
                log.warning("could not register for configuration changes: %s", e)
        if await ls.fetch_configuration():
            ls.revalidate_all()

    @server.feature(lsp.WORKSPACE_DID_CHANGE_CONFIGURATION)
    async def did_change_configuration(ls: GroophServer, params: lsp.DidChangeConfigurationParams) -> None:
        settings = params.settings
        before = ls.settings
        if isinstance(settings, dict) and ("grooph" in settings or any(str(k).startswith("grooph.") for k in settings)):
            ls.settings = merge(ls.settings, settings)
        else:
            await ls.fetch_configuration()
        if ls.settings != before:
            ls.revalidate_all()

    @server.feature(lsp.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: GroophServer, params: lsp.DidOpenTextDocumentParams) -> None:
        td = params.text_document
        doc = ls.store.open(td.uri, td.text, td.version, td.language_id)
        ls.published.pop(td.uri, None)
        if doc.served():
            ls.schedule(doc, 0)

    @server.feature(lsp.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: GroophServer, params: lsp.DidChangeTextDocumentParams) -> None:
        td = params.text_document
        doc = ls.store.change(td.uri, td.version, list(params.content_changes), ls.encoding)
        if doc is not None:
            ls.schedule(doc, ls.settings.debounce_ms)

    @server.feature(lsp.TEXT_DOCUMENT_DID_SAVE)
    def did_save(ls: GroophServer, params: lsp.DidSaveTextDocumentParams) -> None:
        doc = ls.store.get(params.text_document.uri)
        if doc is not None:
            if params.text is not None and params.text != doc.text:
                doc.set_text(params.text)
            ls.schedule(doc, 0)

    @server.feature(lsp.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: GroophServer, params: lsp.DidCloseTextDocumentParams) -> None:
        uri = params.text_document.uri
        task = ls.pending.pop(uri, None)
        if task is not None:
            task.cancel()
        ls.store.close(uri)
        ls.published.pop(uri, None)
        if not ls.pull:
            ls.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(uri=uri, diagnostics=[]))

    @server.feature(lsp.TEXT_DOCUMENT_DIAGNOSTIC, lsp.DiagnosticOptions(identifier="grooph", inter_file_dependencies=False, workspace_diagnostics=False))
    def pull_diagnostics(ls: GroophServer, params: lsp.DocumentDiagnosticParams) -> Any:
        doc = ls.store.get(params.text_document.uri)
        if doc is None or not doc.served():
            return lsp.RelatedFullDocumentDiagnosticReport(items=[])
        result_id = f"{doc.uri}@{doc.version}@{ls.settings.complete}"
        if params.previous_result_id == result_id:
            return lsp.RelatedUnchangedDocumentDiagnosticReport(result_id=result_id)
        return lsp.RelatedFullDocumentDiagnosticReport(items=ls.diagnostics(doc), result_id=result_id)

    features.register(server)
    return server
