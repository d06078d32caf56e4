"""Name features of the neighbouring formats through the real server (issue 15 point 5, workflow.md §4,
board.md §4): definition, references and rename of a workflow status and a board task id; rename keeps
every other byte (comments included); a taken name and a place that is no name are refused."""

from __future__ import annotations

import pytest
from lsprotocol import types as lsp

from grooph_core.ide.text_edits import apply_edits
from tests.conftest import FIXTURES
from tests.lsp.conftest import diagnostics_for, open_text

WORKFLOW = (FIXTURES / "workflow" / "valid" / "spec-example.workflow.yaml").read_text("utf-8").replace(
    "statuses:\n", "statuses:  # where cards stand\n")
BOARD = (FIXTURES / "board" / "valid" / "checkout.board.json").read_text("utf-8")


def _pos(text: str, offset: int) -> lsp.Position:
    line = text.count("\n", 0, offset)
    return lsp.Position(line=line, character=offset - (text.rfind("\n", 0, offset) + 1))


def _offset(text: str, pos: lsp.Position) -> int:
    lines = text.split("\n")
    return sum(len(l) + 1 for l in lines[:pos.line]) + pos.character


def _apply(text: str, edits: list[lsp.TextEdit]) -> str:
    from grooph_core.ide.text_edits import TextEdit
    return apply_edits(text, [TextEdit(_offset(text, e.range.start), _offset(text, e.range.end), e.new_text)
                              for e in edits])


async def test_workflow_status_definition_references_rename(client, tmp_path):
    uri = (tmp_path / "review.workflow.yaml").as_uri()
    open_text(client, uri, WORKFLOW, language_id="yaml")
    assert not await diagnostics_for(client, uri)
    doc = lsp.TextDocumentIdentifier(uri=uri)
    at = _pos(WORKFLOW, WORKFLOW.index("target: review") + len("target: ") + 2)
    (loc,) = await client.text_document_definition_async(lsp.DefinitionParams(text_document=doc, position=at))
    assert loc.range.start == _pos(WORKFLOW, WORKFLOW.index("  review:") + 2)
    refs = await client.text_document_references_async(lsp.ReferenceParams(
        text_document=doc, position=at, context=lsp.ReferenceContext(include_declaration=True)))
    assert len(refs) == 2
    prep = await client.text_document_prepare_rename_async(lsp.PrepareRenameParams(text_document=doc, position=at))
    assert prep.placeholder == "review"
    edit = await client.text_document_rename_async(lsp.RenameParams(text_document=doc, position=at, new_name="check"))
    new = _apply(WORKFLOW, edit.changes[uri])
    assert new == WORKFLOW.replace("target: review}", "target: check}").replace("  review:", "  check:")
    with pytest.raises(Exception, match="already a status done"):
        await client.text_document_rename_async(lsp.RenameParams(text_document=doc, position=at, new_name="done"))
    with pytest.raises(Exception, match="no name"):
        await client.text_document_prepare_rename_async(lsp.PrepareRenameParams(
            text_document=doc, position=_pos(WORKFLOW, WORKFLOW.index("Build"))))


async def test_board_task_rename(client, tmp_path):
    uri = (tmp_path / "checkout.board.json").as_uri()
    open_text(client, uri, BOARD)
    await diagnostics_for(client, uri)
    doc = lsp.TextDocumentIdentifier(uri=uri)
    key = BOARD.index('"tasks"')
    first = BOARD.index('"', BOARD.index("{", key) + 1) + 1
    name = BOARD[first:BOARD.index('"', first)]
    edit = await client.text_document_rename_async(lsp.RenameParams(
        text_document=doc, position=_pos(BOARD, first + 1), new_name="renamed"))
    new = _apply(BOARD, edit.changes[uri])
    assert f'"{name}"' not in new and new.count('"renamed"') == BOARD.count(f'"{name}"')
