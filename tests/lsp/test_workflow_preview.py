"""`grooph.preview` on a board workflow through a real client (issue 15 point 6): the picture of the text as
the editor holds it, written to the cache only; a broken workflow is refused with a clear message; a board
still has no preview."""

from __future__ import annotations

from pathlib import Path

import pytest
from lsprotocol import types as lsp
from pygls.exceptions import JsonRpcException

from tests.conftest import FIXTURES
from tests.lsp.conftest import diagnostics_for, open_text

WORKFLOW = (FIXTURES / "workflow" / "valid" / "spec-example.workflow.yaml").read_text("utf-8")


async def _preview(client, uri, *args):
    return await client.workspace_execute_command_async(lsp.ExecuteCommandParams(
        command="grooph.preview", arguments=[uri, *args]))


async def test_preview_draws_the_workflow_as_the_editor_holds_it(client, tmp_path):
    uri = (tmp_path / "review.workflow.yaml").as_uri()
    open_text(client, uri, WORKFLOW.replace("  done: {stored_as: done}", "  shipped: {stored_as: done}")
              .replace("target: done}", "target: shipped}"), language_id="yaml")
    await diagnostics_for(client, uri)
    result = await _preview(client, uri, None, "dark")
    svg = result["svg"]
    assert svg.startswith("<svg") and 'data-picture="workflow"' in svg and 'data-status="shipped"' in svg
    assert "#111514" in svg  # the dark background
    path = Path(result["path"])
    assert path.read_text("utf-8") == svg and tmp_path not in path.parents
    assert sorted(p.name for p in tmp_path.iterdir()) == []


async def test_preview_refuses_a_broken_workflow_and_a_board(client, tmp_path):
    uri = (tmp_path / "bad.workflow.yaml").as_uri()
    open_text(client, uri, WORKFLOW.replace("initial:\n  - target: ready", "initial: 3"), language_id="yaml")
    await diagnostics_for(client, uri)
    with pytest.raises(JsonRpcException) as err:
        await _preview(client, uri)
    assert "E_WF_SCHEMA" in str(err.value) and "line 4" in str(err.value)
    board = (tmp_path / "checkout.board.json").as_uri()
    open_text(client, board, (FIXTURES / "board" / "valid" / "checkout.board.json").read_text("utf-8"))
    await diagnostics_for(client, board)
    with pytest.raises(JsonRpcException) as err:
        await _preview(client, board)
    assert "checkout.board.json is a task board, which has no picture" in str(err.value)  # not "not open"
