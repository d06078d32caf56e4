"""Quick-fix candidates checked in the background (issue 21: every action listed applies; operations.md §8.2).

Once the analysis of a document's current version has landed and the text has stayed as it is for as
long as that analysis took, the §8.2 checks of every candidate repair of every issue run in a thread
of their own, issue by issue, then the edits of the candidates that passed are made; both are kept with the analysis (`grooph_core.ide.grooph.actions.OfferChecks`), so
`codeAction/resolve` finds its edit made. A newer version, a change of settings, closing the document
or shutting down stops that work at the next candidate (each check validates the whole document once:
about 3 ms at 24k characters, 100 ms at 1M). `textDocument/codeAction` lists only candidates that
passed; when the issues it is about are not checked yet, they go to the front of the queue and the
request waits for them, at most `wait_ms` (within issue 21's budget). What is still unchecked then is
left out of that answer, never listed unchecked: a menu that says a fix exists must be right (the
client asks again as the cursor moves or the diagnostics change).
"""

from __future__ import annotations

import asyncio
import logging
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Callable

from grooph_core.ide.grooph import actions as core
from grooph_core.ops.repairs import Stopped

if TYPE_CHECKING:
    from grooph_lsp.documents import OpenDocument
    from grooph_lsp.scheduler import Result

log = logging.getLogger("grooph_lsp")

# How long a code-action request may wait for the checks of its issues: within issue 21's budget for
# the whole request (5 ms at 24k characters, 50 ms at 1M), in proportion to the document's length.
MIN_WAIT_MS, MAX_WAIT_MS = 3.0, 30.0
WAIT_MS_PER_CHAR = MAX_WAIT_MS / 1_000_000


def wait_ms(chars: int) -> float:
    """The longest wait for the checks of a document of `chars` characters (3 ms at 24k, 30 at 1M)."""
    return min(MAX_WAIT_MS, max(MIN_WAIT_MS, chars * WAIT_MS_PER_CHAR))


class _Job:
    """The checks of one result's issues, in order, the ones a request waits for first."""

    def __init__(self, result: "Result", export: bool, stale: Callable[[], bool]) -> None:
        self.result = result
        self.analysis = result.analysis
        self.export = export
        self.stale = stale
        self.stopped = threading.Event()
        self._lock = threading.Lock()
        self._queue = list(range(len(self.analysis.issues)))
        self._loop = asyncio.get_running_loop()
        self._waiters: list[tuple[frozenset[int], asyncio.Future]] = []
        self.finished = False
        self.timer: asyncio.TimerHandle | None = None  # the start, while it waits (`FixChecks.start`)

    def stop(self) -> bool:
        return self.stopped.is_set() or self.stale()

    def first(self, indices: list[int]) -> None:
        """Check these issues next (a request is waiting for them)."""
        with self._lock:
            wanted = [n for n in indices if n in self._queue]
            self._queue = wanted + [n for n in self._queue if n not in wanted]

    def _next(self) -> int | None:
        with self._lock:
            return self._queue.pop(0) if self._queue else None

    def run(self) -> None:
        """In the checks thread: every issue's verdict, until done or stopped."""
        issues = self.analysis.issues
        try:
            while (n := self._next()) is not None:
                if self.stop():
                    return
                try:
                    core.check_issue(self.analysis, issues[n], export=self.export, stop=self.stop)
                except Stopped:
                    return
                except Exception:  # a builder or check that fails leaves that issue without fixes
                    log.exception("checking the quick fixes of %s failed", issues[n].code)
                self._tell(self._progress)
            # then the edits of what passed, so that codeAction/resolve finds them made
            core.prepare_edits(self.analysis, export=self.export, stop=self.stop)
        except Stopped:
            return
        finally:
            self._tell(self._done)

    def _tell(self, callback: Callable[[], None]) -> None:
        """Run `callback` on the event loop (not at all once the loop is closed: the server exited)."""
        try:
            self._loop.call_soon_threadsafe(callback)
        except RuntimeError:
            pass

    def _done(self) -> None:
        """On the loop: wake every waiter, and let go of the analysis (a 1M one is tens of MB)."""
        self.finished = True
        self._progress()
        self.result = self.analysis = None

    def _progress(self) -> None:
        """On the loop: wake the requests whose issues are all checked (or that can wait no longer)."""
        checked = core.offer_checks(self.analysis, self.export).passing if self.analysis is not None else {}
        for wanted, future in list(self._waiters):
            if (self.finished or all(n in checked for n in wanted)) and not future.done():
                future.set_result(None)
        self._waiters = [(w, f) for w, f in self._waiters if not f.done()]

    def when_checked(self, indices: list[int]) -> asyncio.Future:
        future = self._loop.create_future()
        self._waiters.append((frozenset(indices), future))
        self._progress()
        return future


class FixChecks:
    """The background checks of every open document (one thread; one job per document, the newest)."""

    def __init__(self, is_current: Callable[["OpenDocument", "Result"], bool]) -> None:
        self._is_current = is_current
        self.executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="grooph-checks")
        self._jobs: dict[str, _Job] = {}

    def start(self, doc: "OpenDocument", result: "Result", export: bool) -> None:
        """Check the candidates of this (current) result's issues, replacing the document's older job."""
        self.forget(doc.uri)
        analysis = result.analysis
        if analysis is None or not analysis.issues or not hasattr(analysis, "memo"):
            return  # a neighbouring document: its fixes are checked in the request (neighbour_repairs)
        job = _Job(result, export, lambda: not self._is_current(doc, result))
        self._jobs[doc.uri] = job
        # after a quiet moment as long as the analysis took: a key typed meanwhile stops the job before
        # it ever runs, so the next analysis does not share the interpreter with a check (1M: ~100 ms)
        job.timer = asyncio.get_running_loop().call_later(result.ms / 1000, self._submit, job)

    def _submit(self, job: _Job) -> None:
        if job.timer is not None:
            job.timer.cancel()
            job.timer = None
            if not job.stop():
                self.executor.submit(job.run)
            else:
                job._done()

    def forget(self, uri: str) -> None:
        """Stop the document's job (closed, or a newer result replaces it)."""
        job = self._jobs.pop(uri, None)
        if job is not None:
            job.stopped.set()
            if job.timer is not None:  # it never started
                job.timer.cancel()
                job.timer = None
                job._done()

    async def settle(self, doc: "OpenDocument", result: "Result", issues: list, export: bool) -> None:
        """Wait, at most `wait_ms`, until these issues of this result are checked (first in the queue)."""
        job = self._jobs.get(doc.uri)
        if job is None or job.result is not result or job.export != export or job.finished:
            self.start(doc, result, export)
            job = self._jobs.get(doc.uri)
            if job is None:
                return
        index_of = {id(i): n for n, i in enumerate(result.analysis.issues)}
        wanted = [index_of[id(i)] for i in issues if id(i) in index_of]
        job.first(wanted)
        self._submit(job)  # a request is waiting: no quiet moment
        try:
            await asyncio.wait_for(asyncio.shield(job.when_checked(wanted)), wait_ms(len(result.analysis.text)) / 1000)
        except asyncio.TimeoutError:
            pass
