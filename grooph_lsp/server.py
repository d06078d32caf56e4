"""The language server: `GroophServer` (open documents, settings, the scheduler, the workspace) and the
one registration list (`FEATURES`, `COMMANDS`) that `create_server()` registers. Each handler
(lifecycle.py, features.py, actions.py, workspace_features.py) fetches the document's analysis, calls
the core, and converts the answer with convert.py (DESIGN.md)."""

from __future__ import annotations

import asyncio
import inspect
import json
import logging
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Callable, TypeVar

from lsprotocol import types as lsp
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol
from pygls.protocol.language_server import lsp_method

from grooph_core import __version__
from grooph_core.ide.document import DocumentAnalysis
from grooph_core.source.json_reader import collector_paused
from grooph_lsp import actions, convert, features, lifecycle, workspace_features
from grooph_lsp.collector import set_aside
from grooph_lsp.documents import DocumentStore, OpenDocument, analyse_text
from grooph_lsp.errors import REQUEST_VERSION, quiet_refusals
from grooph_lsp.fix_checks import FixChecks
from grooph_lsp.scheduler import Result, Scheduler, Snapshot
from grooph_lsp.settings import Settings, merge
from grooph_lsp.workspace import Workspace

log = logging.getLogger("grooph_lsp")

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
        REQUEST_VERSION.set((uri, doc.version) if doc is not None else None)
        return super()._handle_request(msg_id, method_name, params)

    def notify_json(self, method: str, params_json: str) -> None:
        """Send a notification whose params are JSON text already (convert.publish_json), framed and
        written as pygls's `_send_data` does: the same bytes as `notify` with the params' object."""
        if self.writer is None:
            log.error("Unable to send data, no available transport!")
            return
        body = f'{{"params": {params_json}, "method": {json.dumps(method)}, "jsonrpc": "{self.VERSION}"}}'
        log.debug("Sending notification: '%s' (%d characters)", method, len(body))
        try:
            data = body.encode(self.CHARSET)
            if self._include_headers:
                header = (f"Content-Length: {len(data)}\r\n"
                          f"Content-Type: {self.CONTENT_TYPE}; charset={self.CHARSET}\r\n\r\n")
                data = header.encode(self.CHARSET) + data
            res = self.writer.write(data)
            if inspect.isawaitable(res):
                asyncio.ensure_future(res)
        except BrokenPipeError:
            log.exception("Error sending data. BrokenPipeError", exc_info=True)
            raise
        except Exception:
            log.exception("Error sending data", exc_info=True)

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
        self.position_encoding = "utf-16"  # as agreed at initialize (lifecycle.initialize)
        self.scheduler = Scheduler(self._compute, self._analysis_key, self._publish_result,
                                   lambda: self.settings.debounce_ms)
        # Requests' own long work (formatting, code actions, rename …) runs here, beside the analyses.
        self.request_worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="grooph-requests")
        # The §8.2 checks of each current version's quick fixes, in a thread of their own (fix_checks.py).
        self.fix_checks = FixChecks(lambda doc, result: self.scheduler.current(doc) is result
                                    and not getattr(self.protocol, "_shutdown", False))
        self.told_standing: set[str] = set()  # documents already told a standing refusal (`Refused.standing`)
        # The workspace: files not open, links between maps and graphs (workspace.py); a map's graphs
        # are looked up in it, open texts winning over files.
        self.ws = Workspace(self)
        self.store.resolver_for = self.ws.resolver_for
        # each open document's last semantic tokens (result id, data), which a delta request is answered from
        self.token_results: dict[str, tuple[str, list[int]]] = {}
        self._live = None  # the live picture's pages (live_picture.py), made on the first preview

    @property
    def live(self):
        """The live picture (aiohttp is imported only when a preview is first asked for)."""
        if self._live is None:
            from grooph_lsp.live_picture import LivePicture

            self._live = LivePicture(self)
        return self._live

    @property
    def live_if_started(self):
        """The live picture when a preview started it, else None."""
        return self._live

    @property
    def shows_documents(self) -> bool:
        """The client answers `window/showDocument`."""
        caps = self.client_capabilities.window
        return bool(caps and caps.show_document and caps.show_document.support)

    def watched(self, uri: str) -> bool:
        """A live picture of the document is open (its changes are analysed even for a pulling client)."""
        return self._live is not None and self._live.watches(uri)

    # --- helpers used by the handlers -------------------------------------------------------
    @property
    def encoding(self) -> str:
        return self.position_encoding

    def served(self, uri: str) -> OpenDocument | None:
        """The open document, when the server serves it (any kind: what its kind offers is its kind's)."""
        doc = self.store.get(uri)
        return doc if doc is not None and doc.served() else None

    def _analysis_key(self, doc: OpenDocument) -> tuple:
        """(version, length, *the settings an analysis depends on): the scheduler's key (scheduler._SETTINGS)."""
        return (doc.version, len(doc.text), self.settings.complete, self.settings.max_chars,
                self.store.generation.get(doc.uri, 0))

    def _compute(self, snap: Snapshot) -> tuple[DocumentAnalysis | None, list[lsp.Diagnostic]]:
        """Analyse a snapshot and build its diagnostics (runs in the scheduler's worker thread); a
        document that is not a grooph one gets none."""
        if not OpenDocument(snap.uri, snap.text, snap.version).served():
            return None, []
        _, _, export, max_chars, _ = snap.key
        with collector_paused():  # the analysis and its diagnostics are acyclic (source.collector_paused)
            resolver = self.store.resolver_for(snap.uri)
            try:
                a = analyse_text(snap.uri, snap.name, snap.text, export=export, max_chars=max_chars,
                                 resolver=resolver, previous=snap.previous)
            except Exception:
                if snap.previous is None:
                    raise
                # a fault in what reuses the previous analysis must not cost the document its diagnostics
                log.exception("analysis of %s v%s from the previous one failed; analysing afresh", snap.uri, snap.version)
                a = analyse_text(snap.uri, snap.name, snap.text, export=export, max_chars=max_chars,
                                 resolver=resolver)
            enc = self.encoding
            diagnostics = convert.diagnostics_of(a, snap.uri, enc, snap.shown, snap.edits)
            set_aside()  # no young collector pass walks what this made (collector.py)
            return a, diagnostics

    async def analysed(self, doc: OpenDocument) -> DocumentAnalysis:
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
        if doc is None or getattr(self.protocol, "_shutdown", False):
            return  # after shutdown the client reads nothing more (and stdout may be closed)
        if not self.pull:
            if current and result.analysis is not None:
                doc.use_lines(result.analysis.line_index)  # the next change's offsets need this version's lines
            self.scheduler.shown(snap.uri, snap.version)
            self.publish_diagnostics(convert.publish(snap.uri, result.diagnostics, snap.version))
        # after the publish: the new checks replace the previous version's, and what only those held (a
        # 1M analysis's objects: 1-3 ms to free) is freed here, which must not delay the diagnostics
        if current:
            self.fix_checks.start(doc, result, export=snap.key[2])
            if self._live is not None and result.analysis is not None:
                self._live.published(snap.uri, result.analysis)

    def publish_diagnostics(self, params: lsp.PublishDiagnosticsParams) -> None:
        """`textDocument/publishDiagnostics`, its params written to JSON by convert.publish_json rather
        than pygls's converter (same bytes; no tree of dicts on the loop: see there)."""
        self.protocol.notify_json(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS, convert.publish_json(params))

    def schedule(self, doc: OpenDocument, delay_ms: int | None = None) -> None:
        """Validate the document: at once (`delay_ms` 0), or after the scheduler's wait for a change."""
        if self.pull and not self.watched(doc.uri):
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

    def refresh_inlay_hints(self) -> None:
        """Ask the client to ask again for inlay hints (the `grooph.inlayHints` setting changed)."""
        caps = self.client_capabilities.workspace
        if caps and caps.inlay_hint and caps.inlay_hint.refresh_support:
            self.workspace_inlay_hint_refresh(None)

    async def fetch_configuration(self) -> bool:
        """Ask the client for the `grooph` section; True when the settings changed."""
        caps = self.client_capabilities.workspace
        if not (caps and caps.configuration):
            return False
        try:
            result = await self.workspace_configuration_async(convert.configuration_request("grooph"))
        except Exception as e:  # a client that fails the request keeps the settings we have
            log.warning("workspace/configuration failed: %s", e)
            return False
        before = self.settings
        if result:
            self.settings = merge(self.settings, {"grooph": result[0]} if isinstance(result[0], dict) else {})
        return self.settings != before


# The registration list: every LSP method and command the server answers, each registered once, with
# its options (convert.py). A handler that the workspace also needs calls it itself.
FEATURES: list[tuple[str, Callable[..., Any], Any]] = [
    (lsp.INITIALIZE, lifecycle.initialize, None),
    (lsp.INITIALIZED, lifecycle.initialized, None),
    (lsp.SHUTDOWN, lifecycle.shutdown, None),
    (lsp.WORKSPACE_DID_CHANGE_CONFIGURATION, lifecycle.did_change_configuration, None),
    (lsp.TEXT_DOCUMENT_DID_OPEN, lifecycle.did_open, None),
    (lsp.TEXT_DOCUMENT_DID_CHANGE, lifecycle.did_change, None),
    (lsp.TEXT_DOCUMENT_DID_SAVE, lifecycle.did_save, None),
    (lsp.TEXT_DOCUMENT_DID_CLOSE, lifecycle.did_close, None),
    (lsp.TEXT_DOCUMENT_DIAGNOSTIC, lifecycle.pull_diagnostics, convert.DIAGNOSTIC_OPTIONS),
    (lsp.TEXT_DOCUMENT_FORMATTING, features.formatting, None),
    (lsp.TEXT_DOCUMENT_DEFINITION, features.definition, None),
    (lsp.TEXT_DOCUMENT_REFERENCES, features.references, None),
    (lsp.TEXT_DOCUMENT_PREPARE_RENAME, features.prepare_rename, None),
    (lsp.TEXT_DOCUMENT_RENAME, features.rename, convert.RENAME_OPTIONS),
    (lsp.TEXT_DOCUMENT_DOCUMENT_SYMBOL, features.symbols, None),
    (lsp.TEXT_DOCUMENT_FOLDING_RANGE, features.folding, None),
    (lsp.TEXT_DOCUMENT_HOVER, features.hover, None),
    (lsp.TEXT_DOCUMENT_COMPLETION, features.completion, convert.COMPLETION_OPTIONS),
    (lsp.TEXT_DOCUMENT_CODE_ACTION, actions.code_action, convert.CODE_ACTION_OPTIONS),
    (lsp.CODE_ACTION_RESOLVE, actions.resolve_code_action, None),
    (lsp.TEXT_DOCUMENT_CODE_LENS, workspace_features.code_lens, None),
    (lsp.WORKSPACE_DID_CHANGE_WATCHED_FILES, workspace_features.did_change_watched_files, None),
    (lsp.WORKSPACE_DID_CHANGE_WORKSPACE_FOLDERS, workspace_features.did_change_folders, None),
    (lsp.WORKSPACE_DIAGNOSTIC, workspace_features.workspace_diagnostic, None),
    (lsp.WORKSPACE_WILL_RENAME_FILES, workspace_features.will_rename_files, convert.RENAME_FILTERS),
    (lsp.WORKSPACE_SYMBOL, workspace_features.workspace_symbol, None),
    # the flow in the text (issue 31 items 1, 2, 4)
    (lsp.TEXT_DOCUMENT_DOCUMENT_HIGHLIGHT, features.document_highlight, None),
    (lsp.TEXT_DOCUMENT_PREPARE_CALL_HIERARCHY, features.prepare_call_hierarchy, None),
    (lsp.CALL_HIERARCHY_INCOMING_CALLS, features.incoming_calls, None),
    (lsp.CALL_HIERARCHY_OUTGOING_CALLS, features.outgoing_calls, None),
    (lsp.TEXT_DOCUMENT_SELECTION_RANGE, features.selection_range, None),
    # what the editor draws into the text (issue 31 items 3, 5, 6); the legend registered once, on `full`
    (lsp.TEXT_DOCUMENT_INLAY_HINT, features.inlay_hints, None),
    (lsp.TEXT_DOCUMENT_DOCUMENT_LINK, features.document_links, None),
    (lsp.TEXT_DOCUMENT_SEMANTIC_TOKENS_FULL, features.semantic_tokens_full, convert.SEMANTIC_TOKENS_LEGEND),
    (lsp.TEXT_DOCUMENT_SEMANTIC_TOKENS_FULL_DELTA, features.semantic_tokens_delta, None),
    (lsp.TEXT_DOCUMENT_SEMANTIC_TOKENS_RANGE, features.semantic_tokens_range, None),
]
COMMANDS: list[tuple[str, Callable[..., Any]]] = [
    (actions.PREVIEW, actions.preview),
    (actions.APPLY_OPS, actions.apply_operations),
    (actions.REVEAL_FILL, actions.reveal_fill),
    (workspace_features.SHOW_LOCATIONS, workspace_features.show_locations),
]


def create_server() -> GroophServer:
    """Build a server with every feature of the registration list (a fresh one per test)."""
    quiet_refusals()
    server = GroophServer()
    for method, handler, options in FEATURES:
        server.feature(method, options)(handler)
    for name, handler in COMMANDS:
        server.command(name)(handler)
    return server
