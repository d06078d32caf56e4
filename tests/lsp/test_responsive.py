"""A server that keeps up and answers while it works (issue 13), through the real server over stdio.

- with the settings a user has, each keystroke typed at a human pace gets its own diagnostics, and
  continuous typing gets a publish at least every 300 ms (grooph_lsp/scheduler.py);
- a burst of changes still publishes only the newest version, never an older one after it;
- a hover in another document, and `$/cancelRequest`, are answered while a 1M-character document is
  being analysed; a cancelled request does not cancel the analysis others wait for;
- code actions come as titles first and get their edit on `codeAction/resolve`, checked then
  (operations.md §8.2): a candidate the checks refuse gets no edit and a message saying why; an action
  of an older version is refused with ContentModified; fix-all under the cursor resolves the same way;
- pull diagnostics are computed off the event loop for the version the request came at.

Timings are not asserted except where the issue states a bound a user notices (the publish interval);
there the test allows for a shared machine's scheduling and says how much.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from bench.generate import graph_document
from grooph_core.ide.grooph import actions as core
from grooph_core.ide.grooph.analysis import analyze
from grooph_core.source.line_index import LineIndex
from tests.lsp.docs import CLEAN, DANGLING, END, W, graph
from tests.lsp.stdio_client import StdioServer, editor_capabilities

CONTENT_MODIFIED = -32801
REQUEST_CANCELLED = -32800
MAX_SILENCE_MS = 300      # issue 13: while someone types, a publish at least this often
SCHEDULING_GRACE_MS = 150  # what a shared 2-core machine may add to it (the bench measures it without)


def _dumps(value) -> str:
    return json.dumps(value, indent=2, ensure_ascii=False) + "\n"


def resolve_capabilities() -> dict:
    """An editor that resolves a code action's edit later and keeps its data (as VS Code)."""
    caps = editor_capabilities()
    caps["textDocument"]["codeAction"].update({"dataSupport": True, "resolveSupport": {"properties": ["edit"]}})
    return caps


@pytest.fixture
def start_server(tmp_path):
    servers: list[StdioServer] = []

    def start(options: dict | None = None, capabilities: dict | None = None) -> StdioServer:
        s = StdioServer(tmp_path, log_file=tmp_path / f"server{len(servers)}.log",
                        stderr_file=tmp_path / f"server{len(servers)}.stderr",
                        env={"XDG_CACHE_HOME": str(tmp_path / "cache"), "PYTHONPATH": str(Path.cwd())})
        servers.append(s)
        s.initialize(capabilities or editor_capabilities(), options)
        return s

    yield start
    for s in servers:
        assert s.shutdown() == 0
    for n in range(len(servers)):
        log = (tmp_path / f"server{n}.log").read_text("utf-8") if (tmp_path / f"server{n}.log").exists() else ""
        assert "Traceback" not in log and "ERROR" not in log, log[-3000:]


def _open(s: StdioServer, uri: str, text: str, version: int = 1) -> None:
    s.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "grooph", "version": version, "text": text}})


def _pos(text: str, offset: int) -> dict:
    line, col = LineIndex(text).position(offset)
    return {"line": line, "character": col}


def _type(s: StdioServer, uri: str, version: int, text: str, offset: int, typed: str) -> str:
    """Insert `typed` at `offset` as a ranged change; the new text."""
    at = _pos(text, offset)
    s.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version},
                                        "contentChanges": [{"range": {"start": at, "end": at}, "text": typed}]})
    return text[:offset] + typed + text[offset:]


def _publishes(s: StdioServer, uri: str) -> list:
    return [a for a in s.notifications if a.message.get("method") == "textDocument/publishDiagnostics"
            and a.message["params"]["uri"] == uri]


def _published(s: StdioServer, uri: str, version: int, timeout: float = 60):
    return s.wait_until(lambda: next((a for a in _publishes(s, uri) if a.message["params"].get("version") == version), None),
                        timeout, f"diagnostics of {uri} version {version}")


def _assert_versions_never_go_back(s: StdioServer, uri: str) -> None:
    versions = [a.message["params"].get("version") for a in _publishes(s, uri)]
    assert versions == sorted(versions), versions


# --- diagnostics that keep up ---------------------------------------------------------------------


def test_with_default_settings_each_keystroke_at_a_human_pace_gets_its_own_diagnostics(start_server, tmp_path):
    """The wait before validating follows the document's own analysis time (milliseconds for a small
    graph), not a fixed 150 ms: keys 100 ms apart are each validated (before issue 13, only the last)."""
    s = start_server(options={})
    uri = (tmp_path / "typing.grooph.json").as_uri()
    text = _dumps(DANGLING)
    _open(s, uri, text)
    _published(s, uri, 1)
    at = text.index('"ghost"') + 1
    for v in range(2, 8):
        text = _type(s, uri, v, text, at, "x")
        time.sleep(0.1)
    _published(s, uri, 7)
    assert [a.message["params"]["version"] for a in _publishes(s, uri)] == list(range(1, 8))
    last = _publishes(s, uri)[-1].message["params"]["diagnostics"]
    assert [d["code"] for d in last] == ["E_DANGLING_REF"] and "xxxxxxghost" in last[0]["message"]


def test_continuous_typing_in_a_large_document_publishes_at_least_every_300_ms(start_server, tmp_path):
    """A key every 25 ms into a 240k-character graph, whose analysis takes longer than the gap between
    keys, so the text is never quiet: diagnostics still come while typing, newest version each time,
    and the last key's own diagnostics come when the typing stops."""
    s = start_server(options={})
    doc = graph_document(240_000, faults=True)
    uri = (tmp_path / doc.name).as_uri()
    text = doc.text
    _open(s, uri, text)
    _published(s, uri, 1)
    started = time.monotonic()
    version = 1
    while time.monotonic() - started < 2.5:
        version += 1
        text = _type(s, uri, version, text, doc.edit_at, "x")
        time.sleep(0.025)
    stopped = time.monotonic()
    last = _published(s, uri, version)
    during = [a.at for a in _publishes(s, uri) if started < a.at <= stopped]
    marks = [started, *during, stopped]
    silence_ms = max(b - a for a, b in zip(marks, marks[1:])) * 1000
    assert len(during) >= 5, f"{len(during)} publishes in 2.5 s of typing"
    assert silence_ms <= MAX_SILENCE_MS + SCHEDULING_GRACE_MS, f"{silence_ms:.0f} ms without a publish while typing"
    _assert_versions_never_go_back(s, uri)
    assert any("tset-" in d["message"] for d in last.message["params"]["diagnostics"])


def test_a_burst_of_changes_publishes_only_the_newest_version(start_server, tmp_path):
    s = start_server(options={})
    uri = (tmp_path / "burst.grooph.json").as_uri()
    _open(s, uri, _dumps(CLEAN))
    _published(s, uri, 1)
    for v in range(2, 8):  # one notification after another, as an editor sends the changes of one edit
        s.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": v},
                                            "contentChanges": [{"text": _dumps(DANGLING if v % 2 else CLEAN)}]})
    last = _published(s, uri, 7)
    time.sleep(0.5)
    versions = [a.message["params"]["version"] for a in _publishes(s, uri)]
    # the changes arrive together and wait together: usually only 7 follows 1; never an older after a newer
    assert versions[0] == 1 and versions[-1] == 7 and versions == sorted(set(versions)), versions
    assert [d["code"] for d in last.message["params"]["diagnostics"]] == ["E_DANGLING_REF"]


# --- answering while it works ---------------------------------------------------------------------


@pytest.fixture(scope="module")
def big_text() -> str:
    return graph_document(1_000_000, faults=True).text


# A space typed between the root's `{` and its first member: a keystroke the incremental reading (issue 33,
# source/json_splice.py) does not splice, so the 1M text is read and checked whole (a tenth of a second or
# more), which is what these tests need to answer requests during. Inside an item it would take milliseconds.
WHOLE_READ_AT = 1


def test_hover_in_another_document_is_answered_during_a_1m_analysis(start_server, tmp_path, big_text):
    s = start_server(options={})
    big, small = (tmp_path / "big.grooph.json").as_uri(), (tmp_path / "small.grooph.json").as_uri()
    small_text = _dumps(DANGLING)
    _open(s, big, big_text)
    _open(s, small, small_text)
    _published(s, big, 1)
    _published(s, small, 1)
    hover_at = {"textDocument": {"uri": small}, "position": _pos(small_text, small_text.index('"kind"') + 2)}
    before_count = 0
    for v in range(2, 5):
        big_text = _type(s, big, v, big_text, WHOLE_READ_AT, " ")
        s.notify("textDocument/didSave", {"textDocument": {"uri": big}})  # save: validate at once
        hover = s.send("textDocument/hover", hover_at)
        answer = s.wait(hover)
        assert "kind" in json.dumps(answer["result"]).lower()
        published = _published(s, big, v)
        before_count += hover.answers[0].seq < published.seq
    # the analysis takes a tenth of a second or more; a hover on a small document a few milliseconds
    assert before_count == 3, f"the hover waited for the large analysis {3 - before_count} times out of 3"


def test_a_cancelled_request_is_answered_at_once_and_the_analysis_still_publishes(start_server, tmp_path, big_text):
    s = start_server(options={})
    big = (tmp_path / "big.grooph.json").as_uri()
    _open(s, big, big_text)
    _published(s, big, 1)
    big_text = _type(s, big, 2, big_text, WHOLE_READ_AT, " ")
    # a hover in the changed document waits for its analysis; cancel it while it waits
    hover = s.send("textDocument/hover", {"textDocument": {"uri": big}, "position": _pos(big_text, 40)})
    s.cancel(hover)
    answer = s.wait(hover)
    published = _published(s, big, 2)
    assert answer.get("error", {}).get("code") == REQUEST_CANCELLED, answer
    assert hover.answers[0].seq < published.seq  # answered before the analysis it was waiting for ended
    # the same position asked again is answered from that analysis
    again = s.request("textDocument/hover", {"textDocument": {"uri": big}, "position": _pos(big_text, 40)})
    assert "error" not in again


def test_pull_diagnostics_are_for_the_version_the_request_came_at(start_server, tmp_path):
    caps = editor_capabilities()
    caps["textDocument"]["diagnostic"] = {"dynamicRegistration": False}
    s = start_server(options={}, capabilities=caps)
    uri = (tmp_path / "pull.grooph.json").as_uri()
    _open(s, uri, _dumps(CLEAN))
    first = s.request("textDocument/diagnostic", {"textDocument": {"uri": uri}})["result"]
    assert first["items"] == [] and first["resultId"].split("@")[1] == "1"
    for v in range(2, 6):
        s.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": v},
                                            "contentChanges": [{"text": _dumps(DANGLING if v % 2 else CLEAN)}]})
    report = s.request("textDocument/diagnostic", {"textDocument": {"uri": uri}, "previousResultId": first["resultId"]})["result"]
    assert report["kind"] == "full" and report["resultId"].split("@")[1] == "5"
    assert [d["code"] for d in report["items"]] == ["E_DANGLING_REF"]
    assert _publishes(s, uri) == []  # nothing pushed to a pull client


# --- code actions: titles first, the edit on resolve ----------------------------------------------


def _diagnostic_at(s: StdioServer, uri: str, version: int, code: str) -> dict:
    return next(d for d in _published(s, uri, version).message["params"]["diagnostics"] if d["code"] == code)


def _code_actions(s: StdioServer, uri: str, diag: dict, only=None) -> list[dict]:
    context = {"diagnostics": [diag], **({"only": only} if only else {})}
    answer = s.request("textDocument/codeAction", {"textDocument": {"uri": uri}, "range": diag["range"], "context": context})
    assert "error" not in answer, answer
    return answer["result"]


def _apply(text: str, edit: dict) -> str:
    (change,) = edit["documentChanges"]
    lines = LineIndex(text)
    spans = [(lines.offset(e["range"]["start"]["line"], e["range"]["start"]["character"]),
              lines.offset(e["range"]["end"]["line"], e["range"]["end"]["character"]), e["newText"]) for e in change["edits"]]
    for start, end, new in sorted(spans, reverse=True):
        text = text[:start] + new + text[end:]
    return text


def test_quick_fixes_come_as_titles_and_resolve_to_a_checked_edit(start_server, tmp_path):
    s = start_server(capabilities=resolve_capabilities())
    doc = graph(nodes=[W, {"id": "builder", "kind": "agent", "name": "Builder", "role": "builder", "brief": "b",
                           "outputs": ["x"], "allow": ["edit-files"]}, END],
                edges=[{"id": "e1", "from": "w", "to": "builder"}, {"id": "e2", "from": "builder", "to": "ennd"}])
    text = _dumps(doc)
    uri = (tmp_path / "d.grooph.json").as_uri()
    _open(s, uri, text)
    diag = _diagnostic_at(s, uri, 1, "E_DANGLING_REF")
    actions = _code_actions(s, uri, diag, only=["quickfix"])
    assert actions and all("edit" not in a for a in actions), "titles first: the edit waits for resolve"
    best = actions[0]
    assert best["isPreferred"] and "end" in best["title"] and best["data"]["version"] == 1
    resolved = s.request("codeAction/resolve", best)["result"]
    assert resolved["title"] == best["title"]
    fixed = _apply(text, resolved["edit"])
    assert fixed == text.replace('"to": "ennd"', '"to": "end"')
    assert resolved["edit"]["documentChanges"][0]["textDocument"]["version"] == 1
    s.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 2}, "contentChanges": [{"text": fixed}]})
    assert _published(s, uri, 2).message["params"]["diagnostics"] == []


def test_a_candidate_the_checks_refuse_is_not_listed_and_gets_no_edit_and_a_message(start_server, tmp_path):
    """Only candidates that pass §8.2 are listed (issue 21). Some re-pointings of a misspelt edge
    would close a cycle with no stop: they are not in the menu, and an action naming one (a menu of
    another server, a client replaying an old answer) is refused on resolve, saying why."""
    doc = graph_document(24_000, faults=True)
    a = analyze(doc.text, name=doc.name)
    issue = next(i for i in a.issues if i.code == "E_DANGLING_REF"
                 and a.span(i)[0] <= doc.dangling[0] < a.span(i)[1] + 1)
    offered = [f.title for f in core.fix_offers(a, [issue])]
    checked = [f.title for f in core.quick_fixes(a, [issue])]
    refused = [t for t in offered if t not in checked]
    assert refused and checked, (offered, checked)  # the document must have both kinds for this test

    s = start_server(capabilities=resolve_capabilities())
    uri = (tmp_path / doc.name).as_uri()
    _open(s, uri, doc.text)
    diag = next(d for d in _published(s, uri, 1).message["params"]["diagnostics"]
                if d["code"] == "E_DANGLING_REF" and d["data"]["index"] == a.issues.index(issue))
    for _ in range(100):  # asked again as the cursor moves, until the background checks are done
        actions = _code_actions(s, uri, diag, only=["quickfix"])
        assert set(x["title"] for x in actions) <= set(checked), "only what passes §8.2 is listed"
        if [x["title"] for x in actions] == checked:
            break
        time.sleep(0.1)
    assert [x["title"] for x in actions] == checked
    by_title = {x["title"]: x for x in actions}
    ok = s.request("codeAction/resolve", by_title[checked[0]])["result"]
    assert "edit" in ok and json.loads(_apply(doc.text, ok["edit"]))  # a real edit, valid JSON after it
    shown_before = len([n for n in s.notifications if n.message.get("method") == "window/showMessage"])
    forged = {**actions[0], "title": refused[0], "data": {**actions[0]["data"], "title": refused[0]}}
    withheld = s.request("codeAction/resolve", forged)["result"]
    assert "edit" not in withheld or withheld["edit"] is None
    message = s.wait_until(lambda: [n for n in s.notifications if n.message.get("method") == "window/showMessage"][shown_before:],
                           10, "the message saying why the fix was withheld")[0].message["params"]["message"]
    assert refused[0] in message and "Nothing was changed" in message


def test_resolving_an_action_of_an_older_version_is_refused_as_content_modified(start_server, tmp_path):
    s = start_server(capabilities=resolve_capabilities())
    uri = (tmp_path / "d.grooph.json").as_uri()
    text = _dumps(DANGLING)
    _open(s, uri, text)
    diag = _diagnostic_at(s, uri, 1, "E_DANGLING_REF")
    actions = _code_actions(s, uri, diag, only=["quickfix"])
    assert actions
    _type(s, uri, 2, text, text.index('"ghost"') + 1, "x")
    answer = s.request("codeAction/resolve", actions[0])
    assert answer.get("error", {}).get("code") == CONTENT_MODIFIED, answer
    assert "changed" in answer["error"]["message"]


def test_fix_all_under_the_cursor_is_offered_with_a_safe_fix_and_resolves(start_server, tmp_path):
    pub = {"id": "pub", "kind": "agent", "name": "Pub", "role": "builder", "brief": "Publish.", "outputs": ["release"],
           "allow": ["write-outputs"], "irreversible": ["publish"]}
    coupled = {"id": "m", "kind": "agent", "name": "M", "coupled": True, "role": "builder", "brief": "b", "outputs": ["o"],
               "allow": ["edit-files"]}
    doc = graph(nodes=[W, pub, coupled, END], edges=[
        {"id": "e1", "from": "w", "to": "pub"}, {"id": "e2", "from": "pub", "to": "m", "concurrency": {"max": 3}},
        {"id": "e3", "from": "m", "to": "end"}])
    text = _dumps(doc)
    a = analyze(text, name="fa.grooph.json")
    safe = [i for i in a.issues if any(f.repair_class == "safe" for f in core.fix_offers(a, [i]))]
    assert safe, [i.code for i in a.issues]
    s = start_server(capabilities=resolve_capabilities())
    uri = (tmp_path / "fa.grooph.json").as_uri()
    _open(s, uri, text)
    diags = _published(s, uri, 1).message["params"]["diagnostics"]
    diag = next(d for d in diags if d["data"]["index"] == a.issues.index(safe[0]))
    actions = _code_actions(s, uri, diag)  # no `only`: what an editor asks as the cursor moves
    fix_all = [x for x in actions if x["kind"] == "source.fixAll.grooph"]
    assert len(fix_all) == 1 and "edit" not in fix_all[0]
    resolved = s.request("codeAction/resolve", fix_all[0])["result"]
    expected = core.fix_all(a)
    assert resolved["title"] == expected.title
    fixed = _apply(text, resolved["edit"])
    after = analyze(fixed, name="fa.grooph.json")
    assert len(after.issues) < len(a.issues)
    assert {i.code for i in after.issues} <= {i.code for i in a.issues}
