"""The scheduler's promises (grooph_lsp/scheduler.py, issue 13), driven directly on an event loop.

The end-to-end tests (test_responsive.py, the fuzzed session) show them through a real client; these
pin the orderings that are hard to hit from outside, each one a way diagnostics were lost."""

from __future__ import annotations

import asyncio
import threading

from grooph_lsp.documents import OpenDocument
from grooph_lsp.scheduler import Result, Scheduler, Snapshot


def make(debounce_ms: float = 50.0):
    shown: list[tuple[int, bool]] = []

    def compute(snap: Snapshot):
        return None, [f"diagnostics of v{snap.version}"]

    def key(doc: OpenDocument) -> tuple:
        return (doc.version, len(doc.text))

    def on_result(result: Result, current: bool) -> None:  # as the server's publish: shows, then says so
        shown.append((result.snapshot.version, current))
        scheduler.shown(result.snapshot.uri, result.snapshot.version)

    scheduler = Scheduler(compute, key, on_result, lambda: debounce_ms)
    return scheduler, shown


async def settle(scheduler: Scheduler, seconds: float = 0.3) -> None:
    await asyncio.sleep(seconds)
    scheduler.executor.shutdown(wait=True)
    await asyncio.sleep(0.05)  # the finished futures' callbacks run on the loop


async def test_a_version_a_request_waits_for_during_the_wait_is_published_once():
    """A change arrives, then a request (the workspace reading an open graph's facts, a hover) asks for
    that version before the wait is over: it is analysed in the worker at once, shown, and the wait is
    over. The fuzzed session found the editor kept the previous version's diagnostics for good, when
    the loop computed such a version itself and the timer then found it cached and published nothing."""
    scheduler, shown = make()
    doc = OpenDocument("file:///g.grooph.json", '{"grooph": "1"}', 1)
    scheduler.now(doc)
    await asyncio.sleep(0.1)
    assert shown == [(1, True)]
    doc.version, doc.text = 2, '{"grooph": "1", }'
    scheduler.changed(doc)
    result = await scheduler.result(doc)
    assert result.snapshot.version == 2 and result.diagnostics == ["diagnostics of v2"]
    await settle(scheduler)
    assert shown[-1] == (2, True)
    assert [v for v, _ in shown].count(2) == 1  # and once: the wait was over, not run again


async def test_analysis_never_runs_on_the_event_loop():
    """Every analysis runs in the worker thread, whoever asks for it (issue 13: the loop answers
    hover and $/cancelRequest meanwhile)."""
    threads: list[str] = []

    def compute(snap: Snapshot):
        threads.append(threading.current_thread().name)
        return None, []

    scheduler = Scheduler(compute, lambda d: (d.version, len(d.text)), lambda r, c: None, lambda: 10.0)
    doc = OpenDocument("file:///g.grooph.json", "{}", 1)
    scheduler.now(doc)
    doc.version, doc.text = 2, "{ }"
    scheduler.changed(doc)
    await scheduler.result(doc)
    doc.version, doc.text = 3, "{  }"
    scheduler.changed(doc)
    await settle(scheduler)
    assert threads and all(t.startswith("grooph-analysis") for t in threads), threads


async def test_closing_a_document_does_not_cancel_a_request_waiting_for_its_analysis():
    """A request waiting for a version's analysis gets it even when the document is closed meanwhile
    (it would otherwise end as if the client had cancelled it)."""
    gate = threading.Event()

    def compute(snap: Snapshot):
        gate.wait(5)
        return None, [f"v{snap.version}"]

    scheduler = Scheduler(compute, lambda d: (d.version, len(d.text)), lambda r, c: None, lambda: 10.0)
    busy = OpenDocument("file:///busy.grooph.json", "{}", 1)
    scheduler.now(busy)  # occupies the worker, so the next job waits in the queue
    doc = OpenDocument("file:///g.grooph.json", "{}", 1)
    waiting = asyncio.ensure_future(scheduler.result(doc))
    await asyncio.sleep(0.05)
    scheduler.forget(doc.uri)
    gate.set()
    result = await asyncio.wait_for(waiting, 5)
    assert result.diagnostics == ["v1"]
    await settle(scheduler, 0.05)


async def test_a_result_superseded_while_it_ran_is_shown_and_the_newest_follows():
    scheduler, shown = make(debounce_ms=10)
    doc = OpenDocument("file:///g.grooph.json", "{}", 1)
    scheduler.now(doc)
    doc.version, doc.text = 2, "{ }"
    scheduler.changed(doc)
    await settle(scheduler)
    versions = [v for v, _ in shown]
    assert versions == sorted(versions) and versions[-1] == 2
    assert shown[-1] == (2, True)


async def test_no_version_older_than_one_shown_is_published():
    """v2's diagnostics reached the editor (pulled) while v1 was still being analysed: v1's result,
    when it lands, is not shown over them."""
    gate = threading.Event()
    shown: list[int] = []

    def compute(snap: Snapshot):
        gate.wait(5)
        return None, []

    scheduler = Scheduler(compute, lambda d: (d.version, len(d.text)), lambda r, c: shown.append(r.snapshot.version),
                          lambda: 0.0)
    doc = OpenDocument("file:///g.grooph.json", "{}", 1)
    scheduler.now(doc)
    doc.version, doc.text = 2, "{ }"
    scheduler.shown(doc.uri, 2)  # as a pull of v2 answered
    gate.set()
    await settle(scheduler)
    assert shown == []


async def test_the_full_collector_pass_waits_until_nothing_is_analysed(monkeypatch):
    """The collector's full pass (grooph_lsp/collector.py, issue 24) runs once the scheduler has been idle
    for IDLE_S after a result, never while a change waits or an analysis runs, and once per idle spell."""
    import gc

    from grooph_lsp import collector

    passes: list[float] = []
    monkeypatch.setattr(collector, "IDLE_S", 0.15)
    monkeypatch.setattr(collector.gc, "collect", lambda *a: passes.append(asyncio.get_running_loop().time()))
    scheduler, shown = make(debounce_ms=30.0)
    doc = OpenDocument("file:///w.workflow.yaml", "a: 1\n", 1)
    scheduler.now(doc)
    await asyncio.sleep(0.05)
    assert shown == [(1, True)] and passes == []
    for version in (2, 3, 4):  # typing: each change within IDLE_S of the last result puts the pass off
        doc.version, doc.text = version, f"a: {version}\n"
        scheduler.changed(doc)
        await asyncio.sleep(0.1)
        assert passes == []
    await asyncio.sleep(0.3)
    assert len(passes) == 1  # idle now: one pass, not one per result
    await asyncio.sleep(0.3)
    assert len(passes) == 1
    assert gc.isenabled()
    await settle(scheduler)


async def test_each_analysis_is_handed_the_documents_newest_one():
    """A snapshot carries the document's newest analysis with the same settings (issue 24: a workflow's
    keystroke re-reads only the status it is in), whether or not that one is still current; another
    setting, or the document closed and opened again, starts from nothing."""
    seen: list[tuple[int, object]] = []
    setting = ["a"]

    class Made:  # an analysis the next one can reuse (a workflow's), or not (a graph's: "g" in the text)
        def __init__(self, version: int, reusable: bool) -> None:
            self.version, self.reusable = version, reusable

        def __eq__(self, other) -> bool:
            return other == f"analysis of v{self.version}"

    def compute(snap: Snapshot):
        seen.append((snap.version, snap.previous))
        return Made(snap.version, "g" not in snap.text), []

    scheduler = Scheduler(compute, lambda d: (d.version, len(d.text), setting[0]), lambda r, c: None, lambda: 10.0)
    doc = OpenDocument("file:///w.workflow.yaml", "a: 1\n", 1)
    scheduler.now(doc)
    await asyncio.sleep(0.05)
    doc.version, doc.text = 2, "a: 2\n"
    scheduler.changed(doc)
    await scheduler.result(doc)
    setting[0] = "b"
    doc.version, doc.text = 3, "a: 3\n"
    scheduler.now(doc)
    await scheduler.result(doc)
    scheduler.forget(doc.uri)
    doc = OpenDocument("file:///w.workflow.yaml", "a: 4\n", 4)
    scheduler.now(doc)
    await scheduler.result(doc)
    for version, text in ((5, "g: 5\n"), (6, "g: 6\n")):  # not reusable: not kept once the text changed
        doc.version, doc.text = version, text
        scheduler.now(doc)
        await scheduler.result(doc)
    await settle(scheduler)
    assert [(v, p) for v, p in seen] == [(1, None), (2, "analysis of v1"), (3, None), (4, None), (5, "analysis of v4"),
                                         (6, None)]


async def test_after_a_failed_analysis_the_next_one_starts_from_nothing():
    """An analysis that raised (logged) leaves no base behind: the next version is analysed afresh, not
    handed the analysis the failed one was given (issue 24: a fault in reusing it would repeat for good)."""
    seen: list[tuple[int, object]] = []

    class Made:
        reusable = True

        def __init__(self, version: int) -> None:
            self.version = version

    def compute(snap: Snapshot):
        seen.append((snap.version, getattr(snap.previous, "version", None)))
        if snap.version == 2:
            raise RuntimeError("a fault while reusing the previous analysis")
        return Made(snap.version), []

    scheduler = Scheduler(compute, lambda d: (d.version, len(d.text)), lambda r, c: None, lambda: 10.0)
    doc = OpenDocument("file:///w.workflow.yaml", "a: 1\n", 1)
    for version in (1, 2, 3):
        doc.version, doc.text = version, f"a: {version}\n"
        scheduler.now(doc)
        await asyncio.sleep(0.05)
    await settle(scheduler)
    assert seen == [(1, None), (2, 1), (3, None)]


def test_the_server_analyses_afresh_when_reusing_the_previous_analysis_fails(monkeypatch):
    """`GroophServer._compute`: a fault in the incremental path costs the version nothing: it is analysed
    from its text alone (and the fault logged)."""
    from grooph_lsp import server as server_module
    from grooph_lsp.server import GroophServer

    real = server_module.analyse_text

    def analyse_text(*args, previous=None, **kw):
        if previous is not None:
            raise RuntimeError("a fault while reusing the previous analysis")
        return real(*args, **kw)

    monkeypatch.setattr(server_module, "analyse_text", analyse_text)
    s = GroophServer()
    text = "initial: [{target: nowhere}]\nstatuses:\n  ready: {}\n"
    key = (1, len(text), s.settings.complete, s.settings.max_chars, 0)
    first, _ = s._compute(Snapshot("untitled:w.workflow.yaml", 1, text, "w.workflow.yaml", key))
    again, diagnostics = s._compute(Snapshot("untitled:w.workflow.yaml", 2, text, "w.workflow.yaml", key, first))
    assert [d.code for d in diagnostics] == [i.code for i in first.issues] and "E_WF_UNKNOWN_STATUS" in [d.code for d in diagnostics]
