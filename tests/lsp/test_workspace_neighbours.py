"""The workspace (issue 17 items 1 and 3) covers the neighbouring formats (issue 15): a workflow, board or
episode record nobody opened is checked (push and pull), followed on disk (created, changed, deleted),
`.gitignore` respected, an open editor's text winning; `workspace/symbol` finds a workflow's statuses
and a board's tasks, open or not. The expected codes and ranges are the fixtures' (workflow.md §3,
board.md §3, episodes.md §3)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest_lsp
from lsprotocol import types as lsp
from pytest_lsp import ClientServerConfig, LanguageClient

from tests.lsp.conftest import SERVER, change_text, open_text, wait_for
from tests.lsp.test_workspace import codes, scan_ended, start_in

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
UNKNOWN_STATUS = FIXTURES / "workflow" / "invalid" / "E_WF_UNKNOWN_STATUS" / "every-card-transition.workflow.yaml"
GOOD_FLOW = FIXTURES / "workflow" / "valid" / "spec-example.workflow.yaml"
BOARD = FIXTURES / "board" / "valid" / "checkout.board.json"
TWICE = FIXTURES / "episodes" / "invalid" / "E_EPISODES_DUPLICATE" / "twice.episodes.json"

# a workflow whose one fault is an unknown status (E_WF_UNKNOWN_STATUS at /initial/0/target)
BROKEN_FLOW = ("initial:\n  - target: nowhere\nstatuses:\n  ready:\n    stored_as: ready\n"
               "    on: {go: [{target: ready}]}\ndispatch: {tick: 30, start: go}\n")


@pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER))
async def lsp_raw(lsp_client: LanguageClient):
    yield lsp_client
    await lsp_client.shutdown_session()


def expected(fixture: Path) -> list[tuple[str, tuple[int, int, int, int]]]:
    """The fixture's expected issues: (code, range), sorted."""
    expect = json.loads(fixture.with_name(fixture.name.split(".")[0] + ".expect.json").read_text("utf-8"))
    return sorted((i["code"], tuple(i["range"])) for i in expect["issues"])


def found(diags) -> list[tuple[str, tuple[int, int, int, int]]]:
    return sorted((str(d.code), (d.range.start.line, d.range.start.character, d.range.end.line, d.range.end.character))
                  for d in diags)


def make_workspace(root: Path) -> dict[str, Path]:
    files = {
        "flow": root / "flows" / "cards.workflow.yaml",
        "good": root / "flows" / "good.workflow.yml",
        "board": root / "boards" / "checkout.board.json",
        "episodes": root / "record" / "twice.episodes.json",
    }
    for key, src in {"flow": UNKNOWN_STATUS, "good": GOOD_FLOW, "board": BOARD, "episodes": TWICE}.items():
        files[key].parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(src, files[key])
    (root / ".gitignore").write_text("build/\n", encoding="utf-8")
    ignored = root / "build" / "skip.workflow.yaml"
    ignored.parent.mkdir()
    ignored.write_text(BROKEN_FLOW, encoding="utf-8")
    (root / "other.yaml").write_text(BROKEN_FLOW, encoding="utf-8")  # a workflow by content only: not scanned
    return files


def event(path: Path, kind: lsp.FileChangeType) -> lsp.DidChangeWatchedFilesParams:
    return lsp.DidChangeWatchedFilesParams(changes=[lsp.FileEvent(uri=path.as_uri(), type=kind)])


async def test_never_opened_neighbours_are_checked_and_followed_on_disk(lsp_raw, tmp_path):
    files = make_workspace(tmp_path)
    registrations = await start_in(lsp_raw, tmp_path)
    await wait_for(lambda: scan_ended(lsp_raw))
    d = lsp_raw.diagnostics
    assert found(d[files["flow"].as_uri()]) == expected(UNKNOWN_STATUS)
    assert found(d[files["episodes"].as_uri()]) == expected(TWICE)
    assert list(d[files["good"].as_uri()]) == [] and list(d[files["board"].as_uri()]) == []
    unknown = [x for x in d[files["flow"].as_uri()] if x.code == "E_WF_UNKNOWN_STATUS"]
    assert unknown[0].message == "no status urgent"  # workflow.md §3.1: "no status X (did you mean Y)"
    assert not [u for u in d if "build" in u or "other.yaml" in u]  # .gitignore; a YAML of another name
    end = [v for vs in lsp_raw.progress_reports.values() for v in vs if isinstance(v, lsp.WorkDoneProgressEnd)]
    assert "Checked 4 grooph documents, 2 with problems" in end[-1].message
    watch = [r for r in registrations if r.method == lsp.WORKSPACE_DID_CHANGE_WATCHED_FILES]
    globs = {w["globPattern"] for w in watch[0].register_options["watchers"]}
    assert {"**/*.json", "**/*.workflow.yaml", "**/*.workflow.yml"} <= globs

    # created on disk
    new = tmp_path / "flows" / "new.workflow.yaml"
    new.write_text(BROKEN_FLOW, encoding="utf-8")
    lsp_raw.workspace_did_change_watched_files(event(new, lsp.FileChangeType.Created))
    await wait_for(lambda: codes(d.get(new.as_uri(), [])) == ["E_WF_UNKNOWN_STATUS"])
    (diag,) = d[new.as_uri()]
    assert "nowhere" in diag.message and diag.range.start == lsp.Position(line=1, character=12)
    # changed on disk: fixed
    new.write_text(BROKEN_FLOW.replace("nowhere", "ready"), encoding="utf-8")
    lsp_raw.workspace_did_change_watched_files(event(new, lsp.FileChangeType.Changed))
    await wait_for(lambda: new.as_uri() in d and list(d[new.as_uri()]) == [])
    # a board changed on disk into one with a dependency cycle
    cycle = FIXTURES / "board" / "invalid" / "E_BOARD_DEPENDENCY_CYCLE" / "two-groups.board.json"
    shutil.copyfile(cycle, files["board"])
    lsp_raw.workspace_did_change_watched_files(event(files["board"], lsp.FileChangeType.Changed))
    await wait_for(lambda: found(d[files["board"].as_uri()]) == expected(cycle))
    # deleted: its diagnostics are cleared
    files["flow"].unlink()
    lsp_raw.workspace_did_change_watched_files(event(files["flow"], lsp.FileChangeType.Deleted))
    await wait_for(lambda: list(d[files["flow"].as_uri()]) == [])
    # a file written into the ignored folder is not reported (one written beside it, in the same
    # notification, is: the notification was handled)
    late, marker = tmp_path / "build" / "late.workflow.yaml", tmp_path / "marker.workflow.yaml"
    for p in (late, marker):
        p.write_text(BROKEN_FLOW, encoding="utf-8")
    lsp_raw.workspace_did_change_watched_files(lsp.DidChangeWatchedFilesParams(changes=[
        lsp.FileEvent(uri=p.as_uri(), type=lsp.FileChangeType.Created) for p in (late, marker)]))
    await wait_for(lambda: codes(d.get(marker.as_uri(), [])) == ["E_WF_UNKNOWN_STATUS"])
    assert not [u for u in d if "build" in u]


async def test_an_open_workflow_text_wins_over_its_file(lsp_raw, tmp_path):
    files = make_workspace(tmp_path)
    await start_in(lsp_raw, tmp_path)
    await wait_for(lambda: scan_ended(lsp_raw))
    good = files["good"]
    uri = good.as_uri()
    assert list(lsp_raw.diagnostics[uri]) == []
    open_text(lsp_raw, uri, BROKEN_FLOW, language_id="yaml")  # broken in the editor, not saved
    await wait_for(lambda: codes(lsp_raw.diagnostics[uri]) == ["E_WF_UNKNOWN_STATUS"])
    # the file changes on disk meanwhile: the editor's text still speaks for it
    good.write_text(GOOD_FLOW.read_text("utf-8") + "unknown_key: 1\n", encoding="utf-8")
    marker = tmp_path / "flows" / "marker.workflow.yaml"  # checked with it, in the same notification
    marker.write_text(BROKEN_FLOW, encoding="utf-8")
    lsp_raw.workspace_did_change_watched_files(lsp.DidChangeWatchedFilesParams(changes=[
        lsp.FileEvent(uri=good.as_uri(), type=lsp.FileChangeType.Changed),
        lsp.FileEvent(uri=marker.as_uri(), type=lsp.FileChangeType.Created)]))
    await wait_for(lambda: marker.as_uri() in lsp_raw.diagnostics)
    assert codes(lsp_raw.diagnostics[uri]) == ["E_WF_UNKNOWN_STATUS"]
    # closed without saving: the file on disk speaks again
    lsp_raw.text_document_did_close(lsp.DidCloseTextDocumentParams(text_document=lsp.TextDocumentIdentifier(uri=uri)))
    await wait_for(lambda: codes(lsp_raw.diagnostics[uri]) == ["W_UNKNOWN_KEY"])


async def test_pull_client_gets_the_neighbours_workspace_reports(lsp_raw, tmp_path):
    files = make_workspace(tmp_path)
    await start_in(lsp_raw, tmp_path, pull=True)
    report = await lsp_raw.workspace_diagnostic_async(lsp.WorkspaceDiagnosticParams(previous_result_ids=[]))
    by_uri = {i.uri: i for i in report.items}
    assert set(by_uri) == {p.as_uri() for p in files.values()}
    assert found(by_uri[files["flow"].as_uri()].items) == expected(UNKNOWN_STATUS)
    assert found(by_uri[files["episodes"].as_uri()].items) == expected(TWICE)
    assert list(by_uri[files["board"].as_uri()].items) == []
    assert lsp_raw.diagnostics == {}
    # the workflow is fixed on disk: the next answer has it in full, the rest unchanged
    previous = [lsp.PreviousResultId(uri=i.uri, value=i.result_id) for i in report.items]
    shutil.copyfile(GOOD_FLOW, files["flow"])
    lsp_raw.workspace_did_change_watched_files(event(files["flow"], lsp.FileChangeType.Changed))
    again = await lsp_raw.workspace_diagnostic_async(lsp.WorkspaceDiagnosticParams(previous_result_ids=previous))
    full = [i for i in again.items if i.kind == "full"]
    assert [(i.uri, list(i.items)) for i in full] == [(files["flow"].as_uri(), [])]


async def test_workspace_symbols_find_statuses_and_tasks(lsp_raw, tmp_path):
    files = make_workspace(tmp_path)
    await start_in(lsp_raw, tmp_path)
    await wait_for(lambda: scan_ended(lsp_raw))
    building = await lsp_raw.workspace_symbol_async(lsp.WorkspaceSymbolParams(query="building"))
    flow_text = files["good"].read_text("utf-8")
    (status,) = [s for s in building if s.location.uri == files["good"].as_uri()]
    assert status.name == "building" and status.kind == lsp.SymbolKind.EnumMember
    assert status.container_name == "good.workflow.yml"
    line = flow_text[: flow_text.index("  building:")].count("\n")
    assert status.location.range == lsp.Range(start=lsp.Position(line=line, character=2),
                                               end=lsp.Position(line=line, character=10))
    # a task by its title, or by its id
    (task,) = await lsp_raw.workspace_symbol_async(lsp.WorkspaceSymbolParams(query="payment states"))
    assert task.name == "t-1 — Design the payment states" and task.kind == lsp.SymbolKind.Class
    assert task.location.uri == files["board"].as_uri() and task.container_name == "Checkout rewrite"
    board_text = files["board"].read_text("utf-8")
    line = board_text[: board_text.index('"t-1": {')].count("\n")
    assert task.location.range.start == lsp.Position(line=line, character=4)
    by_id = await lsp_raw.workspace_symbol_async(lsp.WorkspaceSymbolParams(query="t-3"))
    assert by_id[0].name == "t-3 — Write the migration"
    # open, renamed in the editor and not saved: the editor's names are found, the file's are not
    uri = files["good"].as_uri()
    open_text(lsp_raw, uri, flow_text, language_id="yaml")
    change_text(lsp_raw, uri, 2, flow_text.replace("  building:", "  constructing:"))
    await wait_for(lambda: uri in lsp_raw.diagnostics)

    async def names(query: str) -> set[str]:
        return {s.name for s in await lsp_raw.workspace_symbol_async(lsp.WorkspaceSymbolParams(query=query))
                if s.location.uri == uri}

    await wait_for_async(lambda: names("constructing"), {"constructing"})
    assert await names("building") == set()


async def wait_for_async(ask, want, timeout: float = 10.0) -> None:
    """Ask again until the answer is `want` (the open text is analysed asynchronously)."""
    import asyncio

    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while True:
        got = await ask()
        if got == want:
            return
        assert loop.time() < end, f"still {got!r}, not {want!r}"
        await asyncio.sleep(0.05)
