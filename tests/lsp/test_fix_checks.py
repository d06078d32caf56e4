"""The quick fixes' background checks (grooph_lsp/fix_checks.py, issue 21; operations.md §8.2), driven
in process through the code-action handler: a request that finds no current check job for its document
starts one and waits for its issues (issue 30 item 8). The end-to-end tests (test_fix_offers.py,
test_responsive.py) cannot reach that state from outside: a published analysis always has its job."""

from __future__ import annotations

import asyncio
import json
import time

from lsprotocol import types as lsp

from grooph_lsp import actions, fix_checks
from grooph_lsp.server import GroophServer
from tests.lsp.docs import DANGLING

URI = "untitled:d.grooph.json"  # no folder: nothing read from disk


def _resolving_server() -> GroophServer:
    """A server whose client resolves edits later (as VS Code) and pulls its diagnostics (no stdout)."""
    s = GroophServer()
    s.protocol.client_capabilities = lsp.ClientCapabilities(text_document=lsp.TextDocumentClientCapabilities(
        code_action=lsp.CodeActionClientCapabilities(
            data_support=True, resolve_support=lsp.ClientCodeActionResolveOptions(properties=["edit"]))))
    s.pull = True
    return s


def _stop(s: GroophServer) -> None:
    for pool in (s.scheduler.executor, s.request_worker, s.fix_checks.executor):
        pool.shutdown(wait=True)


def _slow_checks(monkeypatch, seconds: float) -> None:
    """Each issue's §8.2 check takes `seconds` more (a large document's, on a busy machine)."""
    real_check = fix_checks.core.check_issue

    def slow_check(*args, **kwargs):
        time.sleep(seconds)
        return real_check(*args, **kwargs)

    monkeypatch.setattr(fix_checks.core, "check_issue", slow_check)


async def _first_answer(s: GroophServer):
    """A document with a dangling edge, analysed, its background job gone before it ran (as when a
    newer result replaced it); then the quick fixes a request over the whole text gets."""
    s.store.open(URI, json.dumps(DANGLING, indent=2) + "\n", 1)
    analysis = await s.analysed(s.served(URI))  # landed: its background job waits for a quiet moment ...
    s.fix_checks.forget(URI)  # ... and is gone before it ran
    (dangling,) = [i for i in analysis.issues if i.code == "E_DANGLING_REF"]
    assert analysis.document_kind.unchecked_fixes(analysis, [dangling]), "nothing checked yet"
    whole = lsp.Range(start=lsp.Position(line=0, character=0), end=lsp.Position(line=10_000, character=0))
    answer = await actions.code_action(s, lsp.CodeActionParams(
        text_document=lsp.TextDocumentIdentifier(uri=URI), range=whole,
        context=lsp.CodeActionContext(diagnostics=[], only=[lsp.CodeActionKind.QuickFix])))
    return analysis, dangling, answer


async def test_the_first_answer_lists_the_fixes_when_no_check_job_ran(monkeypatch):
    # the wait's budget (3 ms here) is what bench/fix_offers.py measures; on a shared machine a check may
    # take longer, so here the request may wait as long as the checks take, and each takes 0.2 s: an
    # answer that does not wait for them lists nothing
    monkeypatch.setattr(fix_checks, "wait_ms", lambda chars: 60_000.0)
    _slow_checks(monkeypatch, 0.2)
    s = _resolving_server()
    try:
        analysis, dangling, answer = await _first_answer(s)
        checked = await s.off_loop(lambda: analysis.document_kind.quick_fixes(analysis, [dangling]))
        assert checked, "a dangling edge has fixes that pass the checks"
        assert [a.title for a in answer] == [f.title for f in checked]
        assert all(a.edit is None and a.data["issue"] == analysis.issues.index(dangling) for a in answer)
    finally:
        s.fix_checks.forget(URI)
        await asyncio.to_thread(_stop, s)


async def test_the_request_waits_no_longer_than_its_budget(monkeypatch):
    """Checks slower than the budget (3 ms for a small document): the answer comes without them, listing
    nothing unchecked (the client asks again as the cursor moves), and the checks go on in the background."""
    _slow_checks(monkeypatch, 2.0)
    s = _resolving_server()
    try:
        analysis, dangling, answer = await _first_answer(s)
        assert answer == []
        await asyncio.to_thread(s.fix_checks.executor.submit(lambda: None).result)  # the started job ran
        assert not analysis.document_kind.unchecked_fixes(analysis, [dangling])
    finally:
        s.fix_checks.forget(URI)
        await asyncio.to_thread(_stop, s)
