"""Document symbols of the neighbouring formats through the real server (issue 15 point 5): a workflow's
statuses with their events, a board's tasks by lane, an episode record's rows by standing; ranges in
the client's coordinates, the selection on the name."""

from __future__ import annotations

from lsprotocol import types as lsp

from tests.conftest import FIXTURES
from tests.lsp.conftest import diagnostics_for, open_text

WORKFLOW = (FIXTURES / "workflow" / "valid" / "spec-example.workflow.yaml").read_text("utf-8")
BOARD = (FIXTURES / "board" / "valid" / "checkout.board.json").read_text("utf-8")
EPISODES = (FIXTURES / "episodes" / "valid" / "busy-store.episodes.json").read_text("utf-8")


def _text(text: str, r: lsp.Range) -> str:
    lines = text.split("\n")
    if r.start.line == r.end.line:
        return lines[r.start.line][r.start.character:r.end.character]
    return "\n".join([lines[r.start.line][r.start.character:], *lines[r.start.line + 1:r.end.line],
                      lines[r.end.line][:r.end.character]])


async def _symbols(client, uri):
    return await client.text_document_document_symbol_async(
        lsp.DocumentSymbolParams(text_document=lsp.TextDocumentIdentifier(uri=uri)))


async def test_workflow_outline(client, tmp_path):
    uri = (tmp_path / "review.workflow.yaml").as_uri()
    open_text(client, uri, WORKFLOW, language_id="yaml")
    assert not await diagnostics_for(client, uri)
    syms = {s.name: s for s in await _symbols(client, uri)}
    assert list(syms) == ["statuses", "roles", "caps"]
    review = next(s for s in syms["statuses"].children if s.name == "review")
    assert review.kind == lsp.SymbolKind.EnumMember
    assert _text(WORKFLOW, review.selection_range) == "review"
    assert _text(WORKFLOW, review.range).startswith("review:\n    stored_as: review")
    assert [(e.name, e.kind) for e in review.children] == [("approve", lsp.SymbolKind.Event),
                                                          ("request_changes", lsp.SymbolKind.Event)]
    (cap,) = syms["caps"].children
    assert _text(WORKFLOW, cap.selection_range) == "two at a time"


async def test_board_and_episodes_outline(client, tmp_path):
    uri = (tmp_path / "checkout.board.json").as_uri()
    open_text(client, uri, BOARD)
    await diagnostics_for(client, uri)
    lanes = await _symbols(client, uri)
    assert {c.name: g.name for g in lanes for c in g.children} == {"t-1": "done", "t-2": "running", "t-3": "todo",
                                                                   "t-4": "archived"}
    t2 = next(c for g in lanes for c in g.children if c.name == "t-2")
    assert t2.kind == lsp.SymbolKind.Class and t2.detail == "Implement the state machine"
    assert _text(BOARD, t2.range).startswith('"t-2": {') and _text(BOARD, t2.selection_range) == '"t-2"'
    uri = (tmp_path / "busy-store.episodes.json").as_uri()
    open_text(client, uri, EPISODES)
    await diagnostics_for(client, uri)
    groups = await _symbols(client, uri)
    assert [(g.name, [c.name for c in g.children]) for g in groups] == [("current", ["s-0002"]), ("open", ["s-0001"])]
    assert _text(EPISODES, groups[0].children[0].selection_range) == '"s-0002"'


def _pos(text: str, offset: int) -> lsp.Position:
    line = text.count("\n", 0, offset)
    return lsp.Position(line=line, character=offset - (text.rfind("\n", 0, offset) + 1))


async def test_hover_on_key_and_name(client, tmp_path):
    uri = (tmp_path / "review.workflow.yaml").as_uri()
    open_text(client, uri, WORKFLOW, language_id="yaml")
    await diagnostics_for(client, uri)
    doc = lsp.TextDocumentIdentifier(uri=uri)
    h = await client.text_document_hover_async(lsp.HoverParams(text_document=doc, position=_pos(WORKFLOW, WORKFLOW.index("scope") + 1)))
    assert "Where one count is kept" in h.contents.value and _text(WORKFLOW, h.range) == "scope"
    h = await client.text_document_hover_async(lsp.HoverParams(
        text_document=doc, position=_pos(WORKFLOW, WORKFLOW.index("target: review") + 10)))
    assert h.contents.value.startswith("**status** `review` — defined on line") and _text(WORKFLOW, h.range) == "review"


async def test_board_completion_of_lane(client, tmp_path):
    at = BOARD.index('"lane": "done"') + len('"lane": "')
    text = BOARD[:at] + BOARD[at + len("done"):]
    uri = (tmp_path / "checkout.board.json").as_uri()
    open_text(client, uri, text)
    await diagnostics_for(client, uri)
    result = await client.text_document_completion_async(lsp.CompletionParams(
        text_document=lsp.TextDocumentIdentifier(uri=uri), position=_pos(text, at)))
    labels = [i.label for i in result.items]
    assert "running" in labels and "archived" in labels
    running = next(i for i in result.items if i.label == "running")
    assert running.kind == lsp.CompletionItemKind.EnumMember and running.text_edit.new_text.strip('"') == "running"
