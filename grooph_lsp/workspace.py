"""The workspace in the server (issue 17 item 1): every grooph document under the workspace folders, and
every workflow, board and episode record (the neighbouring formats, issue 15, by their names), is
checked without being opened, and its problems reported: `workspace/diagnostic` for clients that pull,
published diagnostics otherwise, with `$/progress` while the first scan runs. Files created, changed or
deleted on disk are followed (`workspace/didChangeWatchedFiles`, registered dynamically); an open
editor's text always wins over the file. The core (`grooph_core.workspace`) finds, reads and checks;
this module schedules (in chunks, off the event loop) and converts.

The document lifecycle's handlers (lifecycle.py) call its hooks (`did_open`, `did_change`,
`did_close`, `settings_changed`, `initialized`) after their own work.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import os
from typing import TYPE_CHECKING

from lsprotocol import types as lsp
from pygls.uris import from_fs_path, to_fs_path

from grooph_core.rules.map.graph_pointers import file_graph_resolver, graph_answer_at
from grooph_core.ide.kinds import kind_of_file
from grooph_core.source.line_index import LineIndex
from grooph_core.workspace.discover import is_candidate_name, name_globs, walk
from grooph_core.workspace.facts import DocumentFacts, document_facts
from grooph_core.workspace.index import Checked, WorkspaceIndex, check_file, check_text, file_stamp
from grooph_lsp import convert
from grooph_lsp.convert import to_lsp_diagnostic

if TYPE_CHECKING:
    from grooph_lsp.server import GroophServer

log = logging.getLogger("grooph_lsp")

LINES_KEPT = 64  # line indexes of closed files kept for positions (symbols, references)
CHUNK = 16  # files checked per step off the loop; the loop answers requests between steps
WATCH_ID = "grooph-watched-files"
# Every name the scan looks at (`*.json`, and the neighbouring formats' other suffixes from kinds.py:
# `*.workflow.yaml`, `*.workflow.yml`), and the ignore files.
WATCHED_GLOBS = (*name_globs(), "**/.gitignore")
# Folders created or deleted are watched too (`convert.watched_files(folders=True)`): a file written
# into a folder made a moment before gets no event of its own from the client's watcher (VS Code 1.100
# seen missing it: the folder is watched only after the file is in), so a new folder is walked for
# documents. Create and delete only: edits send nothing.
# Settings whose change means every file must be checked again.
RECHECK_SETTINGS = ("workspace_diagnostics", "complete", "max_chars")


def uri_path(uri: str) -> str | None:
    """The local path of a `file:` URI, else None."""
    if not uri.startswith("file:"):
        return None
    path = to_fs_path(uri)
    return os.path.normpath(path) if path else None


def path_uri(path: str) -> str:
    return from_fs_path(path) or ("file://" + path)


class Workspace:
    """The server's view of the workspace: the index, the diagnostics of files not open, the scan."""

    def __init__(self, server: "GroophServer") -> None:
        self.ls = server
        self.index = WorkspaceIndex()
        self.reports: dict[str, tuple[str, list[lsp.Diagnostic]]] = {}  # uri -> (result id, diagnostics)
        self.serial = itertools.count(1)
        self.scan_task: asyncio.Task | None = None
        self.scans = 0
        self._scanned: asyncio.Event | None = None
        self._changed: asyncio.Event | None = None
        self.answers: dict[str, str] = {}  # graph path -> the last answer seen (unknown: maps are rechecked)
        self.pending_graph_checks: dict[str, asyncio.Task] = {}
        self.dep_generation: dict[str, int] = {}  # open map uri -> bumps when a graph it names changed
        # uri -> (document, analysis key, facts, that analysis's line index)
        self._open_facts: dict[str, tuple[Any, tuple, DocumentFacts, LineIndex]] = {}
        self._lines: dict[str, tuple[tuple, LineIndex]] = {}

    # --- state ------------------------------------------------------------------------------
    @property
    def enabled(self) -> bool:
        return self.ls.settings.workspace_diagnostics

    def scanned(self) -> asyncio.Event:
        if self._scanned is None:
            self._scanned = asyncio.Event()
        return self._scanned

    def changed(self) -> asyncio.Event:
        if self._changed is None:
            self._changed = asyncio.Event()
        return self._changed

    def bump(self) -> None:
        """Something a workspace report shows changed: release a waiting `workspace/diagnostic`."""
        ev = self.changed()
        ev.set()
        self._changed = asyncio.Event()

    def open_doc_at(self, path: str):
        """The served open document for a path, if the editor has it open."""
        for doc in list(self.ls.store.docs.values()):
            if uri_path(doc.uri) == path and doc.served():
                return doc
        return None

    def open_text(self, path: str) -> str | None:
        doc = self.open_doc_at(path)
        return doc.text if doc is not None else None

    def open_texts(self) -> dict[str, str]:
        """A snapshot of the open texts by path (handed to checks running off the loop)."""
        out = {}
        for doc in list(self.ls.store.docs.values()):
            p = uri_path(doc.uri)
            if p is not None:
                out[p] = doc.text
        return out

    def resolver_for(self, uri: str):
        """The graph resolver for an open map: map.md §6.8, open texts winning over files."""
        path = uri_path(uri)
        if not path:
            return None
        # The open texts as they are now, read once: the resolver runs in the analysis worker while
        # the loop takes new versions, and one analysis sees one state of the editor (no text read
        # half-way through a change, no graph seen at two versions).
        texts = {p: doc.text for doc in list(self.ls.store.docs.values())
                 if (p := uri_path(doc.uri)) is not None and doc.served()}
        return file_graph_resolver(path, texts.get)

    def facts_of(self, doc, result) -> DocumentFacts:
        """The facts of an open document from one of the scheduler's results for it (cached per result:
        the version, the settings and the files its analysis read, for this opening of the document)."""
        hit = self._open_facts.get(doc.uri)
        if hit is not None and hit[0] is doc and hit[1] == result.snapshot.key:
            return hit[2]
        facts = document_facts(uri_path(doc.uri) or doc.uri, result.analysis)
        if self.ls.store.get(doc.uri) is doc:  # a document closed meanwhile leaves nothing behind
            self._open_facts[doc.uri] = (doc, result.snapshot.key, facts, result.analysis.line_index)
        return facts

    async def open_result(self, doc):
        """The scheduler's result for an open document's current version, waited for off the event
        loop: the loop never analyses a document itself (issue 13)."""
        result = await self.ls.scheduler.result(doc)
        assert result.analysis is not None, "facts asked for a document that is not served"
        return result

    async def facts_of_open(self, doc) -> DocumentFacts:
        """The facts of an open document's current version (from the analysis diagnostics use)."""
        return self.facts_of(doc, await self.open_result(doc))

    async def overlay(self) -> dict[str, DocumentFacts]:
        """The open documents' facts by path: they win over the files' (issue 17: the editor wins).
        Each is read from the scheduler's analysis of the version open when it is asked for."""
        out: dict[str, DocumentFacts] = {}
        for doc in list(self.ls.store.docs.values()):
            if doc.served():  # graphs and maps, workflows, boards and episode records
                f = await self.facts_of_open(doc)
                if self.ls.store.get(doc.uri) is doc:  # still open once its analysis came
                    out[f.path] = f
        return out

    def lines_of(self, path: str) -> tuple[str, LineIndex] | None:
        """(uri, line index) of a document as the index or the editor holds it; for an open document,
        the line index of the version its facts were last read from (`overlay`), so the facts' spans
        are placed in the text they were found in, even when a newer version came meanwhile."""
        doc = self.open_doc_at(path)
        if doc is not None:
            hit = self._open_facts.get(doc.uri)
            return doc.uri, (hit[3] if hit is not None and hit[0] is doc else doc.lines)
        entry = self.index.get(path)
        if entry is None:
            return None
        key = entry.stamp
        hit = self._lines.pop(path, None)
        if hit is None or hit[0] != key:
            hit = (key, LineIndex(entry.text))
        self._lines[path] = hit  # most recent last; a few dozen kept (the texts are kept as bytes)
        while len(self._lines) > LINES_KEPT:
            self._lines.pop(next(iter(self._lines)))
        return path_uri(path), hit[1]

    # --- the first scan ---------------------------------------------------------------------
    def folders(self) -> list[str]:
        ws = self.ls.workspace
        paths = [uri_path(f.uri) for f in ws.folders.values()] if ws.folders else []
        if not paths and ws.root_uri:
            paths = [uri_path(ws.root_uri)]
        return [p for p in paths if p and os.path.isdir(p)]

    def start(self) -> None:
        """(Re)start the scan of every folder; a scan already running is cancelled first."""
        if self.scan_task is not None:
            self.scan_task.cancel()
        self.index = WorkspaceIndex(self.folders())
        self.scanned().clear()
        if not self.enabled:
            self.clear_reports()
            self.scanned().set()
            return
        self.scan_task = asyncio.get_running_loop().create_task(self.scan())

    def clear_reports(self) -> None:
        for uri in list(self.reports):
            self.drop_report(uri)
        self.bump()

    async def scan(self) -> None:
        self.scans += 1
        progress = await self._progress_begin(f"grooph-scan-{self.scans}")
        loop = asyncio.get_running_loop()
        try:
            paths = await loop.run_in_executor(None, self.index.discover)
            total = len(paths)
            for start in range(0, total, CHUNK):
                chunk = paths[start:start + CHUNK]
                self._progress(progress, f"Checking {start + 1} of {total} documents", start, total)
                texts = self.open_texts()
                results = await loop.run_in_executor(None, self._check_many, chunk, texts)
                for path, checked in zip(chunk, results):
                    self.take(path, checked, first=True)
                    await asyncio.sleep(0)  # a request that came in meanwhile is answered now
            for uri in [u for u in self.reports if uri_path(u) not in self.index.entries]:
                self.drop_report(uri)  # found by an earlier scan, gone or ignored now
            found = len(self.index.entries)
            with_problems = sum(1 for e in self.index.entries.values() if e.facts.errors or e.facts.warnings)
            self._progress_end(progress, f"Checked {found} grooph document{'s' if found != 1 else ''}, "
                                         f"{with_problems} with problems")
        except asyncio.CancelledError:
            self._progress_end(progress, "Cancelled")
            raise
        except Exception as e:  # a scan that fails must not take the server down
            log.exception("workspace scan failed")
            self._progress_end(progress, f"The workspace scan stopped: {e}")
        finally:
            self.scanned().set()
            self.bump()

    def _check_many(self, paths: list[str], texts: dict[str, str]) -> list[Checked | None]:
        """Off the loop: check files (their open texts are not used for their own diagnostics, only
        to resolve graphs)."""
        s = self.ls.settings
        out = []
        for p in paths:
            try:
                out.append(check_file(p, max_chars=s.max_chars, export=s.complete, open_text=texts.get))
            except Exception:  # never expected; one bad file must not stop the scan
                log.exception("checking %s failed", p)
                out.append(None)
        return out

    # --- reports ------------------------------------------------------------------------------
    def take(self, path: str, checked: Checked | None, *, first: bool = False) -> None:
        """A file checked: keep its facts and publish (or hold for pull) its diagnostics. At the first
        scan its graph answer is noted; later, `graphs_changed` compares against that note."""
        if checked is None:
            self.gone(path)
            return
        self.index.put(checked)
        if first and self.open_doc_at(path) is None:
            self.answers[path] = checked.graph_answer
        uri = path_uri(path)
        a = checked.analysis
        diags = [to_lsp_diagnostic(a, issue, uri, self.ls.encoding, n) for n, issue in enumerate(a.issues)]
        self.reports[uri] = (str(next(self.serial)), diags)
        if not self.ls.pull and self.open_doc_at(path) is None:
            self.ls.publish_diagnostics(convert.publish(uri, diags))
        self.bump()

    def drop_report(self, uri: str) -> None:
        if self.reports.pop(uri, None) is not None and not self.ls.pull:
            path = uri_path(uri)
            if path is None or self.open_doc_at(path) is None:
                self.ls.publish_diagnostics(convert.publish(uri, []))

    def gone(self, path: str) -> None:
        """A file deleted, ignored, or no longer a grooph document."""
        self.index.remove(path)
        self._lines.pop(path, None)
        self.drop_report(path_uri(path))
        self.bump()

    # --- progress -----------------------------------------------------------------------------
    async def _progress_begin(self, token: str) -> str | None:
        caps = self.ls.client_capabilities.window
        if not (caps and caps.work_done_progress):
            return None
        try:
            await self.ls.work_done_progress.create_async(token)
        except Exception as e:
            log.info("the client refused a progress token: %s", e)
            return None
        self.ls.work_done_progress.begin(token, convert.progress_begin("grooph: checking the workspace", "Finding grooph documents"))
        return token

    def _progress(self, token: str | None, message: str, done: int, total: int) -> None:
        if token is not None:
            pct = int(done * 100 / total) if total else 100
            self.ls.work_done_progress.report(token, convert.progress_report(message, pct))

    def _progress_end(self, token: str | None, message: str) -> None:
        if token is not None:
            self.ls.work_done_progress.end(token, convert.progress_end(message))

    # --- following the disk -------------------------------------------------------------------
    async def recheck(self, paths: list[str]) -> None:
        """Check these files again (off the loop) and publish what changed."""
        if not paths:
            return
        loop = asyncio.get_running_loop()
        results = await loop.run_in_executor(None, self._check_many, paths, self.open_texts())
        for path, checked in zip(paths, results):
            if checked is None or self.index.is_watched(path):
                self.take(path, checked)

    async def files_changed(self, changes: list[lsp.FileEvent]) -> None:
        """workspace/didChangeWatchedFiles: recheck created/changed files, forget deleted ones, and
        recheck the maps whose graphs came, went or changed."""
        if not self.enabled:
            return
        await self.scanned().wait()
        touched: list[str] = []
        recheck: list[str] = []
        for ch in list({(c.uri, c.type): c for c in changes}.values()):  # both watchers report a .json
            path = uri_path(ch.uri)
            if path is None:
                continue
            name = os.path.basename(path)
            if name == ".gitignore":
                self.start()  # what is ignored changed: find the documents again
                return
            if ch.type == lsp.FileChangeType.Deleted:  # a file, or a folder and all it held
                gone = [p for p in self.index.entries if p == path or p.startswith(path + os.sep)]
                for p in gone:
                    self.gone(p)
                touched.extend(gone)
                if is_candidate_name(name):
                    touched.append(path)
            elif ch.type == lsp.FileChangeType.Created and os.path.isdir(path):
                if self.index.is_watched(path):
                    tree = self.index.trees[self.index.folder_of(path)]
                    found = await self.ls.off_loop(lambda: list(walk(path, tree)))
                    found = [p for p in found if self.open_doc_at(p) is None]
                    recheck.extend(found)
                    touched.extend(found)
            elif is_candidate_name(name):
                touched.append(path)
                if self.index.is_watched(path) and self.open_doc_at(path) is None and os.path.isfile(path):
                    recheck.append(path)
        recheck = list(dict.fromkeys(recheck))
        touched = list(dict.fromkeys(touched))
        await self.recheck(recheck)
        await self.graphs_changed(touched)

    async def graphs_changed(self, paths: list[str]) -> None:
        """Graph files whose answer (found / not a graph) may have changed: the maps naming them are
        checked again, open or not, so W_GRAPH_UNRESOLVED appears and clears without reopening."""
        flipped = []
        for p in paths:
            # reading a large graph's text takes a while: off the event loop (issue 13)
            answer = await self.ls.off_loop(graph_answer_at, p, self.open_text)
            if self.answers.get(p) != answer:
                self.answers[p] = answer
                flipped.append(p)
        if not flipped:
            return
        maps = self.index.dependents(flipped, await self.overlay())
        closed = []
        refresh_open = False
        for m in maps:
            doc = self.open_doc_at(m)
            if doc is None:
                if self.index.get(m) is not None:
                    closed.append(m)
                continue
            self.ls.store.forget(doc.uri)
            self.dep_generation[doc.uri] = self.dep_generation.get(doc.uri, 0) + 1
            refresh_open = True
            if not self.ls.pull:
                self.ls.schedule(doc, 0)
        if refresh_open and self.ls.pull:
            caps = self.ls.client_capabilities.workspace
            if caps and caps.diagnostics and caps.diagnostics.refresh_support:
                self.ls.workspace_diagnostic_refresh(None)
        await self.recheck_from_index(closed)

    async def recheck_from_index(self, paths: list[str]) -> None:
        """Closed maps checked again from the text read at the scan (their graphs changed, not they)."""
        s = self.ls.settings
        texts = self.open_texts()
        loop = asyncio.get_running_loop()
        for p in paths:
            entry = self.index.get(p)
            if entry is None:
                continue
            if file_stamp(p) != entry.stamp:
                await self.recheck([p])
                continue
            checked = await loop.run_in_executor(None, lambda: check_text(
                p, entry.text, entry.stamp, max_chars=s.max_chars, export=s.complete, open_text=texts.get))
            self.take(p, checked)

    def graph_edited(self, uri: str) -> None:
        """An open graph's text changed: soon after, see whether maps naming it must be checked again."""
        path = uri_path(uri)
        named = kind_of_file(os.path.basename(path)) if path is not None else None
        if path is None or (named is not None and named.names_graphs):
            return
        old = self.pending_graph_checks.pop(path, None)
        if old is not None:
            old.cancel()

        async def later():
            await asyncio.sleep(0.3)
            self.pending_graph_checks.pop(path, None)
            await self.graphs_changed([path])

        self.pending_graph_checks[path] = asyncio.get_running_loop().create_task(later())

    # --- the document lifecycle (called from lifecycle.py's handlers) -------------------------
    async def initialized(self) -> None:
        await self.register_watchers()
        self.start()

    def did_open(self, params: lsp.DidOpenTextDocumentParams) -> None:
        self.graph_edited(params.text_document.uri)

    def did_change(self, params: lsp.DidChangeTextDocumentParams) -> None:
        self.graph_edited(params.text_document.uri)

    async def did_close(self, params: lsp.DidCloseTextDocumentParams) -> None:
        """Closed: the file on disk speaks again (the editor may have dropped unsaved changes)."""
        uri = params.text_document.uri
        self._open_facts.pop(uri, None)
        self.dep_generation.pop(uri, None)
        path = uri_path(uri)
        if path is None or not self.enabled:
            return
        await self.scanned().wait()
        if self.index.is_watched(path):
            await self.recheck([path])
        await self.graphs_changed([path])

    async def settings_changed(self, before) -> None:
        after = self.ls.settings
        if any(getattr(before, k) != getattr(after, k) for k in RECHECK_SETTINGS):
            self.start()

    async def register_watchers(self) -> None:
        caps = self.ls.client_capabilities.workspace
        dyn = caps.did_change_watched_files if caps else None
        if not (dyn and dyn.dynamic_registration):
            return
        try:
            await self.ls.client_register_capability_async(convert.registration(
                WATCH_ID, lsp.WORKSPACE_DID_CHANGE_WATCHED_FILES, convert.watched_files(WATCHED_GLOBS, folders=True)))
        except Exception as e:
            log.warning("could not register file watchers: %s", e)

    # --- workspace/diagnostic -----------------------------------------------------------------
    async def workspace_report(self, params: lsp.WorkspaceDiagnosticParams) -> lsp.WorkspaceDiagnosticReport:
        """Every closed document's report; unchanged ones by result id. When nothing changed since the
        client's last answer, the request waits (up to a minute) for a change, so a client that asks
        again at once does not spin."""
        await self.scanned().wait()
        previous = {p.uri: p.value for p in params.previous_result_ids}
        for _ in range(2):
            items = self._workspace_items(previous)
            if not previous or any(isinstance(i, lsp.WorkspaceFullDocumentDiagnosticReport) for i in items):
                return convert.workspace_report(items)
            try:
                await asyncio.wait_for(self.changed().wait(), timeout=60)
            except asyncio.TimeoutError:
                break
        return convert.workspace_report(self._workspace_items(previous))

    def _workspace_items(self, previous: dict[str, str]) -> list:
        items: list = []
        for uri, (rid, diags) in list(self.reports.items()):
            path = uri_path(uri)
            if path is not None and self.open_doc_at(path) is not None:
                continue  # the client pulls an open document's diagnostics itself
            items.append(convert.workspace_item(uri, None if previous.get(uri) == rid else diags, rid))
        for uri in previous:
            if uri not in self.reports:
                path = uri_path(uri)
                if path is None or self.open_doc_at(path) is None:
                    items.append(convert.workspace_item(uri, [], None))
        return items
