"""Quick fixes, fix-all, `grooph.applyOperations` and `grooph.preview` through a real client (issues 5, 6)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from lsprotocol import types as lsp
from lsprotocol.converters import get_converter
from pygls.exceptions import JsonRpcException

from grooph_core.ide.text_edits import TextEdit, apply_edits
from tests.lsp.conftest import change_text, diagnostics_for, dumps, open_text, wait_for
from tests.lsp.docs import CLEAN, DANGLING, STUDIO_MAP, W, END, graph

DOC = lsp.TextDocumentIdentifier
WIRE = get_converter()


def _offset(text: str, pos: lsp.Position) -> int:
    lines = text.split("\n")
    return sum(len(l) + 1 for l in lines[: pos.line]) + pos.character


def _apply_workspace_edit(text: str, edit: lsp.WorkspaceEdit) -> str:
    (change,) = edit.document_changes
    return apply_edits(text, [TextEdit(_offset(text, e.range.start), _offset(text, e.range.end), e.new_text) for e in change.edits])


async def _actions(client, uri, diag, only=None):
    return await client.text_document_code_action_async(lsp.CodeActionParams(
        text_document=DOC(uri=uri), range=diag.range,
        context=lsp.CodeActionContext(diagnostics=[diag], only=only)))


async def test_quick_fix_repoints_a_dangling_edge_and_the_diagnostic_goes(client, tmp_path):
    doc = graph(nodes=[W, {"id": "builder", "kind": "agent", "name": "Builder", "role": "builder", "brief": "b", "outputs": ["x"], "allow": ["edit-files"]}, END],
                edges=[{"id": "e1", "from": "w", "to": "builder"}, {"id": "e2", "from": "builder", "to": "ennd"}])
    text = dumps(doc)
    uri = (tmp_path / "d.grooph.json").as_uri()
    open_text(client, uri, text)
    (diag,) = await diagnostics_for(client, uri)
    assert diag.code == "E_DANGLING_REF"
    actions = await _actions(client, uri, diag)
    assert actions, "a dangling edge has quick fixes"
    best = actions[0]
    assert best.is_preferred and best.kind == lsp.CodeActionKind.QuickFix
    assert "end" in best.title and "e2" in best.title
    assert best.diagnostics and best.diagnostics[0].code == "E_DANGLING_REF"
    fixed = _apply_workspace_edit(text, best.edit)
    # only the faulty value changed: every other line is byte for byte the same
    assert fixed == text.replace('"to": "ennd"', '"to": "end"')
    client.diagnostics.pop(uri)
    change_text(client, uri, 2, fixed)
    assert list(await diagnostics_for(client, uri)) == []


async def test_quick_fix_gives_a_broken_handoff_a_carrier(client, tmp_path):
    text = dumps(STUDIO_MAP)
    uri = (tmp_path / "studio.grooph-map.json").as_uri()
    open_text(client, uri, text)
    diags = await diagnostics_for(client, uri)
    diag = next(d for d in diags if d.code == "E_HANDOFF_NO_CARRIER")
    actions = await _actions(client, uri, diag)
    titles = [a.title for a in actions]
    assert any("session message" in t for t in titles), titles
    chosen = next(a for a in actions if "session message" in a.title)
    fixed = _apply_workspace_edit(text, chosen.edit)
    assert json.loads(fixed)["handoffs"][1]["carrier"] == {"kind": "session-message"}
    client.diagnostics.pop(uri)
    change_text(client, uri, 2, fixed)
    diags = await diagnostics_for(client, uri)
    assert "E_HANDOFF_NO_CARRIER" not in [d.code for d in diags]


async def test_fix_all_applies_every_safe_repair(client, tmp_path):
    pub = {"id": "pub", "kind": "agent", "name": "Pub", "role": "builder", "brief": "Publish.", "outputs": ["release"],
           "allow": ["write-outputs"], "irreversible": ["publish"]}
    coupled = {"id": "m", "kind": "agent", "name": "M", "coupled": True, "role": "builder", "brief": "b", "outputs": ["o"], "allow": ["edit-files"]}
    doc = graph(nodes=[W, pub, coupled, END], edges=[
        {"id": "e1", "from": "w", "to": "pub"}, {"id": "e2", "from": "pub", "to": "m", "concurrency": {"max": 3}},
        {"id": "e3", "from": "m", "to": "end"}])
    text = dumps(doc)
    uri = (tmp_path / "all.grooph.json").as_uri()
    open_text(client, uri, text)
    before = await diagnostics_for(client, uri)
    assert sorted(d.code for d in before) == ["E_IRREVERSIBLE_NO_GATE", "W_FANOUT_ON_COUPLED"]
    actions = await client.text_document_code_action_async(lsp.CodeActionParams(
        text_document=DOC(uri=uri), range=lsp.Range(start=lsp.Position(line=0, character=0), end=lsp.Position(line=0, character=0)),
        context=lsp.CodeActionContext(diagnostics=[], only=["source.fixAll"])))
    assert [a.kind for a in actions] == ["source.fixAll.grooph"]
    fixed = _apply_workspace_edit(text, actions[0].edit)
    client.diagnostics.pop(uri)
    change_text(client, uri, 2, fixed)
    assert list(await diagnostics_for(client, uri)) == []
    out = json.loads(fixed)
    assert out["edges"][0]["approval"] is True and out["edges"][1]["concurrency"] == {"max": 1}


async def test_apply_operations_command_edits_the_document(client, tmp_path):
    text = dumps(CLEAN)
    uri = (tmp_path / "ops.grooph.json").as_uri()
    open_text(client, uri, text)
    applied: list[lsp.ApplyWorkspaceEditParams] = []

    @client.feature(lsp.WORKSPACE_APPLY_EDIT)
    def on_apply(params: lsp.ApplyWorkspaceEditParams):
        applied.append(params)
        return lsp.ApplyWorkspaceEditResult(applied=True)

    result = await client.workspace_execute_command_async(lsp.ExecuteCommandParams(
        command="grooph.applyOperations", arguments=[uri, [{"op": "addNode", "kind": "human-gate", "name": "Approve"}]]))
    assert result["ok"] is True and result["ids"] == ["approve"]
    (params,) = applied
    out = json.loads(_apply_workspace_edit(text, params.edit))
    assert out["nodes"][-1]["id"] == "approve"
    bad = await client.workspace_execute_command_async(lsp.ExecuteCommandParams(
        command="grooph.applyOperations", arguments=[uri, [{"op": "removeNode", "id": "ghost"}]]))
    assert bad["ok"] is False and bad["error"]["index"] == 0 and "ghost" in bad["error"]["message"]
    assert len(applied) == 1  # a refused list changes nothing


async def test_preview_returns_svg_and_writes_only_to_the_cache(client, tmp_path, monkeypatch):
    text = dumps(STUDIO_MAP)
    uri = (tmp_path / "studio.grooph-map.json").as_uri()
    open_text(client, uri, text)
    result = await client.workspace_execute_command_async(lsp.ExecuteCommandParams(
        command="grooph.preview", arguments=[uri, None, "dark"]))
    assert result["svg"].startswith("<svg") and "Planner" in result["svg"]
    path = Path(result["path"])
    assert path.exists() and tmp_path not in path.parents
    # the client is asked to open the live page (issue 29 item 4; tests/lsp/test_live_picture_server.py)
    assert client.shown_documents and client.shown_documents[-1].uri == result["url"]
    assert client.shown_documents[-1].external is True and result["url"].startswith("http://127.0.0.1:")
    assert sorted(p.name for p in tmp_path.iterdir()) == []  # nothing beside the user's files


async def test_preview_refuses_a_document_it_cannot_draw(client, tmp_path):
    uri = (tmp_path / "bad.grooph.json").as_uri()
    open_text(client, uri, '{"grooph": 0, "id": "g", "name": "G", "version": 1.5, "nodes": [], "edges": [], "loops": []}')
    with pytest.raises(JsonRpcException) as err:
        await client.workspace_execute_command_async(lsp.ExecuteCommandParams(command="grooph.preview", arguments=[uri]))
    assert "/version" in str(err.value)


async def test_actions_are_not_repeated_and_one_is_preferred_per_diagnostic(client, tmp_path):
    from tests.conftest import FIXTURES

    text = (FIXTURES / "invalid" / "W_FANOUT_ON_COUPLED" / "coupled-node-in-coupled-group.grooph.json").read_text()
    uri = (tmp_path / "f.grooph.json").as_uri()
    open_text(client, uri, text)
    diags = await diagnostics_for(client, uri)
    whole = lsp.Range(start=lsp.Position(line=0, character=0), end=lsp.Position(line=len(text.splitlines()), character=0))
    actions = await client.text_document_code_action_async(lsp.CodeActionParams(
        text_document=DOC(uri=uri), range=whole, context=lsp.CodeActionContext(diagnostics=[], only=["quickfix"])))
    titles = [a.title for a in actions]
    assert titles and len(titles) == len(set(titles))
    for d in diags:
        named = await _actions(client, uri, d, only=["quickfix"])
        assert sum(1 for a in named if a.is_preferred) <= 1


async def test_resolving_an_action_that_is_not_ours_hands_it_back_unchanged(client, tmp_path):
    """`codeAction/resolve` of an action without our data (one another extension's provider made, with
    neither data nor an edit, or with data of its own, or with its edit already) returns it as it came:
    never an internal error (issue 30 item 8)."""
    uri = (tmp_path / "d.grooph.json").as_uri()
    open_text(client, uri, dumps(DANGLING))
    await diagnostics_for(client, uri)
    edit = lsp.WorkspaceEdit(changes={uri: [lsp.TextEdit(range=lsp.Range(start=lsp.Position(line=0, character=0),
                                                                         end=lsp.Position(line=0, character=0)),
                                                         new_text="")]})
    for action in (lsp.CodeAction(title="Sort imports", kind=lsp.CodeActionKind.Source),
                   lsp.CodeAction(title="Explain", kind=lsp.CodeActionKind.QuickFix, data={"provider": "another"}),
                   lsp.CodeAction(title="Tidy", kind=lsp.CodeActionKind.QuickFix, edit=edit),
                   lsp.CodeAction(title="Tidy", edit=edit, data={"uri": uri, "version": 1, "issue": 0})):
        resolved = await client.code_action_resolve_async(action)
        assert WIRE.unstructure(resolved) == WIRE.unstructure(action)
