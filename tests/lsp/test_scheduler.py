"""The scheduler's promises (grooph_lsp/scheduler.py, issue 13), driven directly on an event loop.

The end-to-end tests (test_responsive.py, the fuzzed session) show them through a real client; these
pin the orderings that are hard to hit from outside, each one a way diagnostics were lost."""

from __future__ import annotations

import asyncio

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


async def test_a_version_computed_for_a_waiting_caller_is_still_published():
    """A change arrives, then a caller that cannot await (the workspace reading an open graph's facts)
    computes that version on the spot, before the wait is over. That version is the newest: it is
    shown. The fuzzed session found the editor kept the previous version's diagnostics for good,
    because the timer found the result cached and published nothing."""
    scheduler, shown = make()
    doc = OpenDocument("file:///g.grooph.json", '{"grooph": "1"}', 1)
    scheduler.now(doc)
    await asyncio.sleep(0.1)
    assert shown == [(1, True)]
    doc.version, doc.text = 2, '{"grooph": "1", }'
    scheduler.changed(doc)
    scheduler.compute_here(doc)
    await settle(scheduler)
    assert shown[-1] == (2, True)
    assert [v for v, _ in shown].count(2) == 1  # and once: the wait was over, not run again


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
    scheduler, shown = make(debounce_ms=0)
    doc = OpenDocument("file:///g.grooph.json", "{}", 1)
    scheduler.now(doc)
    doc.version, doc.text = 2, "{ }"
    scheduler.compute_here(doc)  # v2 shown before v1's worker result lands
    await settle(scheduler)
    assert [v for v, _ in shown] == [2]
