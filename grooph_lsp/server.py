"""The language server: one `create_server()` with the whole registration list; each handler fetches
the document's analysis, calls the core, and wraps the answer in lsprotocol types (DESIGN.md)."""

from __future__ import annotations

import asyncio
import logging
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Callable, TypeVar

from lsprotocol import types as lsp
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol
from pygls.protocol.language_server import lsp_method

from grooph_core import __version__
from grooph_core.analysis import Analysis
from grooph_lsp import features
from grooph_lsp.convert import to_lsp_diagnostic
from grooph_lsp.documents import DocumentStore, OpenDocument, analyse_text
from grooph_lsp.scheduler import Result, Scheduler, Snapshot
from grooph_lsp.settings import Settings, merge

log = logging.getLogger("grooph_lsp")

FIX_ALL_KIND = "source.fixAll.grooph"
T = TypeVar("T")


class GroophProtocol(LanguageServerProtocol):
    """Keeps the open texts in our own store (correct LSP line breaks); pygls's copy is not used, so
    it is not made either (it would hold every opened text, as first opened, until closed)."""

    def _run_generator(self, future, *, gen, result_future):
        # pygls drops the inner handler's outcome when the request was cancelled meanwhile, so a refusal
        # raised by a cancelled command (a preview of a broken text) was logged as "Task exception was
        # never retrieved"; the outcome is retrieved here, and nothing is sent (the request was answered).
        if result_future.cancelled() and future is not None and future.done() and not future.cancelled():
            future.exception()
        return super()._run_generator(future, gen=gen, result_future=result_future)

    def _handle_request(self, msg_id, method_name, params):
        td = getattr(params, "text_document", None)
        uri = getattr(td, "uri", None)
        doc = self._server.store.get(uri) if isinstance(uri, str) and hasattr(self._server, "store") else None
        # the handler's task copies this context when it is created, here, before later messages run
        features.REQUEST_VERSION.set((uri, doc.version) if doc is not None else None)
        return super()._handle_request(msg_id, method_name, params)

    @lsp_method(lsp.TEXT_DOCUMENT_DID_OPEN)
    def lsp_text_document__did_open(self, params: lsp.DidOpenTextDocumentParams):
        if (user_handler := self.fm.features.get(lsp.TEXT_DOCUMENT_DID_OPEN)) is not None:
            yield user_handler, (params,), None

    @lsp_method(lsp.TEXT_DOCUMENT_DID_CHANGE)
    def lsp_text_document__did_change(self, params: lsp.DidChangeTextDocumentParams):
        if (user_handler := self.fm.features.get(lsp.TEXT_DOCUMENT_DID_CHANGE)) is not None:
            yield user_handler, (params,), None


class GroophServer(LanguageServer):
    """A pygls server with the grooph state: open documents, settings, and the scheduler that analyses
    them off the event loop (grooph_lsp/scheduler.py)."""

    def __init__(self) -> None:
        super().__init__("grooph-lsp", __version__, protocol_cls=GroophProtocol)
        self.store = DocumentStore()
        self.settings = Settings()
        self.pull = False
        self.scheduler = Scheduler(self._compute, self._analysis_key, self._publish_result,
                                   lambda: self.settings.debounce_ms)
        # Requests' own long work (formatting, code actions, rename …) runs here, beside the analyses.
        self.request_worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="grooph-requests")

    # --- helpers used by the handlers -------------------------------------------------------
    @property
    def encoding(self) -> str:
        enc = self.workspace.position_encoding if self.protocol._workspace is not None else None
        return str(enc.value if hasattr(enc, "value") else enc or "utf-16")

    def served(self, uri: str) -> OpenDocument | None:
        """The open document for a grooph feature; the neighbouring formats get diagnostics only (so far)."""
        doc = self.store.get(uri)
        return doc if doc is not None and doc.served() and doc.neighbour is None else None

    def _analysis_key(self, doc: OpenDocument) -> tuple:
        return (doc.version, len(doc.text), self.settings.complete, self.settings.max_chars,
                self.store.generation.get(doc.uri, 0))

    def _compute(self, snap: Snapshot) -> tuple[Analysis | None, list[lsp.Diagnostic]]:
        """Analyse a snapshot and build its diagnostics (runs in the scheduler's worker thread); a
        document that is not a grooph one gets none."""
        if not OpenDocument(snap.uri, snap.text, snap.version, snap.language_id).served():
            return None, []
        _, _, export, max_chars, _ = snap.key
        a = analyse_text(snap.uri, snap.name, snap.text, export=export, max_chars=max_chars,
                         resolver=self.store.resolver_for(snap.uri))
        enc = self.encoding
        return a, [to_lsp_diagnostic(a, issue, snap.uri, enc, n) for n, issue in enumerate(a.issues)]

    async def analysed(self, doc: OpenDocument) -> Analysis:
        """The current version's analysis, waited for off the event loop (a served document)."""
        a = (await self.scheduler.result(doc)).analysis
        assert a is not None, "analysis asked for a document that is not served"
        return a

    async def off_loop(self, fn: Callable[..., T], *args: Any) -> T:
        """`fn(*args)` in the request worker thread: the event loop keeps answering meanwhile."""
        return await asyncio.get_running_loop().run_in_executor(self.request_worker, fn, *args)

    def _publish_result(self, result: Result, current: bool) -> None:
        """Push a result's diagnostics under its own version: it is the newest analysed (scheduler)."""
        snap = result.snapshot
        doc = self.store.get(snap.uri)
        if self.pull or doc is None or getattr(self.protocol, "_shutdown", False):
            return  # after shutdown the client reads nothing more (and stdout may be closed)
        if current and doc._lines is None and result.analysis is not None:
            doc._lines = result.analysis.line_index  # the next change's offsets need this version's lines
        diags = result.diagnostics
        self.scheduler.shown(snap.uri, snap.version)
        self.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(uri=snap.uri, diagnostics=diags, version=snap.version))

    def schedule(self, doc: OpenDocument, delay_ms: int | None = None) -> None:
        """Validate the document: at once (`delay_ms` 0), or after the scheduler's wait for a change."""
        if self.pull:
            return
        if delay_ms == 0:
            self.scheduler.now(doc)
        else:
            self.scheduler.changed(doc)

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
        ls.scheduler.forget(td.uri)
        doc = ls.store.open(td.uri, td.text, td.version, td.language_id)
        if doc.served():
            ls.schedule(doc, 0)

    @server.feature(lsp.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: GroophServer, params: lsp.DidChangeTextDocumentParams) -> None:
        td = params.text_document
        doc = ls.store.change(td.uri, td.version, list(params.content_changes), ls.encoding)
        if doc is not None:
            ls.schedule(doc)

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
        ls.scheduler.forget(uri)
        ls.store.close(uri)
        if not ls.pull:
            ls.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(uri=uri, diagnostics=[]))

    @server.feature(lsp.TEXT_DOCUMENT_DIAGNOSTIC, lsp.DiagnosticOptions(identifier="grooph", inter_file_dependencies=False, workspace_diagnostics=False))
    async def pull_diagnostics(ls: GroophServer, params: lsp.DocumentDiagnosticParams) -> Any:
        """The version current when the request came, analysed off the event loop."""
        doc = ls.store.get(params.text_document.uri)
        if doc is None or not doc.served():
            return lsp.RelatedFullDocumentDiagnosticReport(items=[])
        result_id = f"{doc.uri}@{doc.version}@{ls.settings.complete}"
        if params.previous_result_id == result_id:
            return lsp.RelatedUnchangedDocumentDiagnosticReport(result_id=result_id)
        result = await ls.scheduler.result(doc)
        ls.scheduler.shown(doc.uri, result.snapshot.version)
        return lsp.RelatedFullDocumentDiagnosticReport(items=result.diagnostics, result_id=result_id)

    features.register(server)
    from grooph_lsp import workspace_features  # last: it chains in front of the handlers above

    workspace_features.register(server)
    return server
