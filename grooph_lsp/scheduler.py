"""When and where documents are analysed (issue 13, DESIGN.md "As you type").

- **Off the event loop.** Each analysis runs in one worker thread on an immutable snapshot of one
  version (its text, version, name); the loop keeps reading messages, answering hover, completion and
  `$/cancelRequest`, and taking newer versions meanwhile. A snapshot queued but not started when a
  newer version is wanted is dropped (unless a request waits for it); one already running finishes,
  and its result is published only if it is still the newest thing to show.
- **A wait only while changes come faster than the analysis.** A change that follows the one before by
  longer than this document's own analysis takes (measured per document, a moving average; before the
  first measure, guessed from its length) is validated after `MIN_WAIT_MS`, so the changes of one edit
  arrive together: nothing suggests another one is coming within an analysis, and waiting would only
  add to the keystroke's round trip (issue 33: a 1M keystroke in 50 ms). A change that follows the one
  before more quickly waits until the text has been quiet for as long as the analysis takes, at most
  `grooph.debounceMs` (`0`: no wait at all).
- **Publishes while someone types.** However quick the typing, an analysis starts early enough that
  diagnostics are published at least every `MAX_STALE_MS` (120 ms; issue 33: no gap over 150 ms while
  typing at 1M): a change that has waited that long minus twice the document's analysis time (one that
  may be running, and its own) starts one at once. When the analysis takes more than half of
  `MAX_STALE_MS`, that is at once for every change: analyses run back to back, each of the newest text
  when it starts, and diagnostics come about once per analysis (a gap of one to two analyses).
- **Newest version wins.** Diagnostics are never published for a version older than one already
  published. A result for a version that was superseded while it was analysed, but newer than what the
  editor shows, is published under its own version number (on a large document typed into
  continuously, every result is superseded by the time it is ready; waiting for a quiet moment is what
  made diagnostics go stale); it is not kept for requests, which need the document's current version.
"""

from __future__ import annotations

import asyncio
import logging
import sys
import time
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Callable

from grooph_core.ide.grooph.analysis import Analysis
from grooph_lsp.collector import IdlePasses

if TYPE_CHECKING:
    from grooph_lsp.documents import OpenDocument

log = logging.getLogger("grooph_lsp")

# The worker thread and the event loop share the GIL; Python hands it over every 5 ms by default, so
# each message read during a 1M analysis waited several such turns (hover about 55 ms, issue 13's
# bench). Handing it over every millisecond keeps the loop's turn short and costs the analysis a few
# per cent (measured: bench/run.py, column "hover busy").
SWITCH_INTERVAL_S = 0.001
MIN_WAIT_MS = 4.0            # a burst of notifications from one edit (multi-cursor, paste) is one version
MAX_STALE_MS = 120.0         # while someone types, a publish at least this often (when analyses take under half)
GUESS_MS_PER_CHAR = 1.2e-4   # the first wait before a document has been measured (about 120 ms at 1M)
COST_WEIGHT = 0.5            # weight of the newest measure in the per-document moving average


def one_malloc_arena() -> None:
    """Ask glibc to keep one malloc arena for every thread. By default each thread that allocates gets
    its own, and what the worker frees is not reused by the loop: a 1M-character document typed into
    peaked at about 147 MB instead of 110-120 (measured by hand, noisy). Elsewhere, nothing to do."""
    try:
        import ctypes

        ctypes.CDLL("libc.so.6").mallopt(-8, 1)  # M_ARENA_MAX = 1
    except (OSError, AttributeError):
        pass


_SETTINGS = slice(2, None)  # the settings part of an analysis key: (version, length, *settings)


@dataclass(frozen=True)
class Snapshot:
    """One version of a document, as it was when its analysis was asked for (never changes), and the
    newest analysis of the document with the same settings when it was asked for (`previous`: the
    analysis may reuse what the edits since left alone; issue 24), and the newest diagnostics with the
    edits since (`shown`, `edits`: their ranges may be kept; issue 33)."""

    uri: str
    version: int
    text: str
    name: str
    key: tuple
    previous: Analysis | None = field(default=None, compare=False, repr=False)
    # the diagnostics of the newest result with the same settings, and the edits from its text to this one
    # (`OpenDocument.edits_after`; None: not known), so that what an edit did not move keeps its range
    shown: list | None = field(default=None, compare=False, repr=False)
    edits: tuple | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class Result:
    """The analysis of a snapshot (None for a document that is not a grooph document), its
    diagnostics (already in LSP form), and how long both took."""

    snapshot: Snapshot
    analysis: Analysis | None
    diagnostics: list
    ms: float


@dataclass
class _Job:
    doc: "OpenDocument"          # the open document it was made for (a reopened uri is another one)
    snapshot: Snapshot
    work: Future                 # the worker's future: cancelling it drops the job only while queued
    future: asyncio.Future       # the same, awaitable on the loop
    waiters: int = 0             # requests waiting for it: a queued job they wait for is never dropped


class Scheduler:
    """Per document: the newest result, the job in flight, the pending wait, and the measured cost.

    `compute(snapshot) -> (analysis, diagnostics)` does the work, always in the worker thread (the loop
    only waits for results, never analyses); `key(doc)` says which version and settings an analysis
    depends on, as `(version, length, *settings)` (an analysis is handed on as `previous` only to one of
    the same settings: `_SETTINGS`);
    `on_result(result, current)` is called on the loop for every result that is the newest so far
    (`current` when the document still has that version)."""

    def __init__(self, compute: Callable[[Snapshot], tuple[Analysis | None, list]], key: Callable[["OpenDocument"], tuple],
                 on_result: Callable[[Result, bool], None], debounce_ms: Callable[[], float]) -> None:
        self._compute = compute
        self._key = key
        self._on_result = on_result
        self._debounce_ms = debounce_ms
        self.executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="grooph-analysis")
        if sys.getswitchinterval() > SWITCH_INTERVAL_S:
            sys.setswitchinterval(SWITCH_INTERVAL_S)
        one_malloc_arena()
        self.passes = IdlePasses()
        self._docs: dict[str, "OpenDocument"] = {}
        self._results: dict[str, Result] = {}
        self._newest: dict[str, Result] = {}  # the newest result of each document, current or not: its base
        self._jobs: dict[str, _Job] = {}
        self._timers: dict[str, asyncio.TimerHandle] = {}
        self._dirty_since: dict[str, float] = {}
        self._last_change: dict[str, float] = {}  # when each document's last change came (loop time)
        self._after_run: dict[str, float] = {}  # when to validate changes that came while its analysis ran
        self._shown_base: dict[str, tuple] = {}  # (version, settings, diagnostics) of the newest result
        self._cost_ms: dict[str, float] = {}
        self._newest_shown: dict[str, int] = {}

    # --- what the server asks --------------------------------------------------------------------

    def snapshot(self, doc: "OpenDocument") -> Snapshot:
        key = self._key(doc)
        newest = self._newest.get(doc.uri)
        previous = newest.analysis if newest is not None and newest.snapshot.key[_SETTINGS] == key[_SETTINGS] else None
        shown, edits = None, None
        base = self._shown_base.get(doc.uri)
        if base is not None and base[1] == key[_SETTINGS]:
            edits = doc.edits_after(base[0])
            shown = base[2] if edits is not None else None
        return Snapshot(doc.uri, doc.version, doc.text, doc.name, key, previous, shown, edits)

    def cost_ms(self, doc: "OpenDocument") -> float:
        """This document's analysis time: measured (moving average), else guessed from its length."""
        measured = self._cost_ms.get(doc.uri)
        return measured if measured is not None else len(doc.text) * GUESS_MS_PER_CHAR

    def wait_ms(self, doc: "OpenDocument", after_ms: float | None = None) -> float:
        """How long the text must be quiet before it is validated, for a change `after_ms` after the one
        before (None: the first): `MIN_WAIT_MS` when that is longer than the analysis takes, else the
        analysis time; never over `grooph.debounceMs` (`0` means no wait)."""
        cap = self._debounce_ms()
        if cap <= 0:
            return 0.0
        cost = self.cost_ms(doc)
        if after_ms is None or after_ms > cost:
            return min(cap, MIN_WAIT_MS)
        return min(cap, max(MIN_WAIT_MS, cost))

    def current(self, doc: "OpenDocument") -> Result | None:
        """The result for the document's current version and settings, when there is one."""
        r = self._results.get(doc.uri)
        if r is not None and r.snapshot.key == self._key(doc) and r.snapshot.text is doc.text:
            return r
        return None

    def changed(self, doc: "OpenDocument") -> None:
        """A new version arrived: validate it after the wait, or sooner if diagnostics got stale."""
        now = asyncio.get_running_loop().time()
        before = self._last_change.get(doc.uri)
        self._last_change[doc.uri] = now
        self._results.pop(doc.uri, None)  # the old version's analysis can never be served again
        self._wait(doc, now, None if before is None else (now - before) * 1000)

    def _wait(self, doc: "OpenDocument", now: float, after_ms: float | None) -> None:
        """Arm the document's timer: after the wait for a change `after_ms` after the one before, or at
        the latest when the diagnostics shown would get older than `MAX_STALE_MS`."""
        self.passes.busy()
        self._docs[doc.uri] = doc
        since = self._dirty_since.setdefault(doc.uri, now)
        wait = self.wait_ms(doc, after_ms)
        job = self._jobs.get(doc.uri)
        if wait <= 0 and not (job is not None and job.work.running()):
            self.now(doc)
            return
        latest = since + (MAX_STALE_MS - 2 * self.cost_ms(doc)) / 1000
        when = max(now, min(now + wait / 1000, latest))
        if job is not None and job.work.running():
            # this document's analysis runs: the next one is armed when it ends (`_follow`). A timer now
            # would queue one behind it on every key, each a turn of the loop (and the interpreter)
            # taken from the running analysis: a 1M analysis took twice as long while typing.
            self._disarm(doc.uri)
            self._after_run[doc.uri] = when
            return
        self._arm(doc, when)

    def now(self, doc: "OpenDocument") -> None:
        """Validate the current version at once (open, save, settings changed)."""
        self._docs[doc.uri] = doc
        self._disarm(doc.uri)
        self.ensure(doc)

    def ensure(self, doc: "OpenDocument") -> asyncio.Future:
        """A future of the current version's result: the cached one, the job in flight for it, or a
        new job (which drops a queued job for an older version)."""
        loop = asyncio.get_running_loop()
        self._docs[doc.uri] = doc
        hit = self.current(doc)
        if hit is not None:
            done = loop.create_future()
            done.set_result(hit)
            return done
        job = self._jobs.get(doc.uri)
        if job is not None and job.snapshot.key == self._key(doc) and job.snapshot.text is doc.text:
            return job.future
        if job is not None and not job.waiters:
            job.work.cancel()  # only takes effect while it waits in the queue; a running one finishes
        self._disarm(doc.uri)
        self._dirty_since.pop(doc.uri, None)  # this snapshot covers every change so far
        self._after_run.pop(doc.uri, None)
        snap = self.snapshot(doc)
        self.passes.busy()
        work = self.executor.submit(self._run, snap)
        future = asyncio.wrap_future(work, loop=loop)
        job = _Job(doc, snap, work, future)
        self._jobs[doc.uri] = job
        future.add_done_callback(lambda f, j=job: self._finished(j, f))
        log.debug("analysis of %s v%s queued (estimate %.0f ms)", doc.uri, doc.version, self.cost_ms(doc))
        return future

    async def result(self, doc: "OpenDocument") -> Result:
        """The current version's result, waited for without holding the loop. A cancelled request
        does not cancel the analysis (other requests and the publish share it)."""
        future = self.ensure(doc)
        job = self._jobs.get(doc.uri)
        if job is not None and job.future is future:
            job.waiters += 1
        return await asyncio.shield(future)

    def forget(self, uri: str) -> None:
        """The document was closed: drop its pending work and results."""
        self._disarm(uri)
        job = self._jobs.pop(uri, None)
        if job is not None and not job.waiters:
            job.work.cancel()  # a request waiting for it gets its answer (about the closed text), not a cancel
        for d in (self._docs, self._results, self._newest, self._dirty_since, self._last_change, self._after_run,
                  self._shown_base, self._cost_ms, self._newest_shown):
            d.pop(uri, None)

    def shown(self, uri: str, version: int) -> None:
        """Diagnostics of `version` reached the editor (by push or pull)."""
        if version > self._newest_shown.get(uri, -(2**31)):
            self._newest_shown[uri] = version

    def newest_shown(self, uri: str) -> int | None:
        return self._newest_shown.get(uri)

    # --- inside ----------------------------------------------------------------------------------

    def _run(self, snap: Snapshot) -> Result:
        started = time.perf_counter()
        analysis, diagnostics = self._compute(snap)
        # the result does not keep the analysis it was made from (two versions' analyses alive at once)
        return Result(replace(snap, previous=None, shown=None, edits=None), analysis, diagnostics,
                      (time.perf_counter() - started) * 1000)

    def _finished(self, job: _Job, future: asyncio.Future) -> None:
        uri = job.snapshot.uri
        if self._jobs.get(uri) is job:
            del self._jobs[uri]
        try:
            if future.cancelled():
                return
            doc = self._docs.get(uri)
            exc = future.exception()
            if exc is not None:
                log.error("analysis of %s version %s failed: %r", uri, job.snapshot.version, exc)
                self._newest.pop(uri, None)  # the next analysis starts from nothing, not from the same base
            elif doc is job.doc:  # else closed (or closed and opened again) meanwhile
                self._land(doc, future.result())
            if doc is job.doc:
                self._follow(doc)
        finally:
            if not self._jobs and not self._timers:
                self.passes.idle()  # nothing waits or runs: the collector's full pass may come (collector.py)

    def _land(self, doc: "OpenDocument", result: Result) -> None:
        """A result is ready: measure it, keep it when it is current, and show it when it is the newest.
        A current result covers every change so far, so the pending wait is over: otherwise the timer
        would find it cached and publish nothing, and the editor would keep an older version's
        diagnostics (the fuzzed session found that once, when the loop could still analyse)."""
        uri = doc.uri
        old = self._cost_ms.get(uri)
        self._cost_ms[uri] = result.ms if old is None else COST_WEIGHT * result.ms + (1 - COST_WEIGHT) * old
        is_current = result.snapshot.key == self._key(doc) and result.snapshot.text is doc.text
        log.debug("analysis of %s v%s took %.0f ms (%s)", uri, result.snapshot.version, result.ms,
                  "current" if is_current else f"document at v{doc.version}")
        base = self._shown_base.get(uri)
        if base is None or result.snapshot.version >= base[0]:
            self._shown_base[uri] = (result.snapshot.version, result.snapshot.key[_SETTINGS], result.diagnostics)
        newest = self._newest.get(uri)
        if newest is None or result.snapshot.version >= newest.snapshot.version:
            if result.analysis is not None and result.analysis.reusable:
                self._newest[uri] = result  # the one analysis held besides a current one: the next one's base
            else:  # (one that gives the next nothing, e.g. of a text with no clean reading yet: dropped)
                self._newest.pop(uri, None)
        if is_current:
            self._results[uri] = result
            self._disarm(uri)
            self._dirty_since.pop(uri, None)
            self._after_run.pop(uri, None)
        if result.snapshot.version >= self._newest_shown.get(uri, -(2**31)):
            self._on_result(result, is_current)

    def _follow(self, doc: "OpenDocument") -> None:
        """An analysis of the document ended: changes that came while it ran are validated when their
        wait is over (at once when it is), as if no analysis had run."""
        uri = doc.uri
        when = self._after_run.pop(uri, None)
        if uri not in self._dirty_since or uri in self._timers or uri in self._jobs:
            return
        now = asyncio.get_running_loop().time()
        if when is None:  # a change whose timer ran out meanwhile: take it now (as one that came quickly)
            self._wait(doc, now, 0.0)
        else:
            self._arm(doc, max(now, when))

    def _arm(self, doc: "OpenDocument", when: float) -> None:
        self._disarm(doc.uri)
        loop = asyncio.get_running_loop()
        self._timers[doc.uri] = loop.call_at(when, self._due, doc.uri)

    def _disarm(self, uri: str) -> None:
        timer = self._timers.pop(uri, None)
        if timer is not None:
            timer.cancel()

    def _due(self, uri: str) -> None:
        self._timers.pop(uri, None)
        doc = self._docs.get(uri)
        if doc is not None:
            self.ensure(doc)

