"""One face per kind through the real server (issue 22): the handlers ask the document's kind, so what a
kind offers or does not offer shows in the answers. A workflow's quick fixes come with their edits even
to a client that resolves edits later (its fixes are cheap: `resolves_fixes_later` is the grooph kinds'),
a kind without folds or operations answers "none" or refuses with the message a document that is not a
grooph one gets, and a graph beside it keeps its folds and titles-first actions."""

from __future__ import annotations

import json

import pytest
import pytest_lsp
from lsprotocol import types as lsp
from pygls.exceptions import JsonRpcException
from pytest_lsp import ClientServerConfig, LanguageClient

from tests.conftest import FIXTURES
from tests.lsp.conftest import SERVER, diagnostics_for, open_text, push_capabilities, start
from tests.lsp.docs import END, W, graph

WORKFLOW = (FIXTURES / "workflow" / "valid" / "spec-example.workflow.yaml").read_text("utf-8")
MISSPELT = WORKFLOW.replace("target: review}", "target: reveiw}", 1)


@pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER))
async def resolving_client(lsp_client: LanguageClient):
    """A client that resolves a code action's edit later and keeps its data (as VS Code)."""
    caps = push_capabilities()
    caps.text_document.code_action.data_support = True
    caps.text_document.code_action.resolve_support = lsp.ClientCodeActionResolveOptions(properties=["edit"])
    await start(lsp_client, capabilities=caps)
    yield lsp_client
    await lsp_client.shutdown_session()


async def _actions(client, uri, diag):
    return await client.text_document_code_action_async(lsp.CodeActionParams(
        text_document=lsp.TextDocumentIdentifier(uri=uri), range=diag.range,
        context=lsp.CodeActionContext(diagnostics=[diag])))


async def test_a_workflows_fixes_come_with_their_edits_and_a_graphs_as_titles(resolving_client, tmp_path):
    assert MISSPELT != WORKFLOW
    wf = (tmp_path / "review.workflow.yaml").as_uri()
    open_text(resolving_client, wf, MISSPELT, language_id="yaml")
    (diag,) = [d for d in await diagnostics_for(resolving_client, wf) if d.code == "E_WF_UNKNOWN_STATUS"]
    actions = await _actions(resolving_client, wf, diag)
    assert {a.title for a in actions} == {"Change to review", "Add status reveiw"}
    assert all(a.edit is not None and a.data is None for a in actions)

    g = (tmp_path / "d.grooph.json").as_uri()
    doc = graph(nodes=[W, END], edges=[{"id": "e1", "from": "w", "to": "ennd"}])
    open_text(resolving_client, g, json.dumps(doc, indent=2) + "\n")
    (dangling,) = [d for d in await diagnostics_for(resolving_client, g) if d.code == "E_DANGLING_REF"]
    offered = await _actions(resolving_client, g, dangling)
    assert offered and all(a.edit is None and a.data is not None for a in offered), "a graph's: titles first"


async def test_what_a_kind_does_not_offer_is_none_or_a_refusal(client, tmp_path):
    wf = (tmp_path / "review.workflow.yaml").as_uri()
    open_text(client, wf, WORKFLOW, language_id="yaml")
    await diagnostics_for(client, wf)
    folds = await client.text_document_folding_range_async(lsp.FoldingRangeParams(
        text_document=lsp.TextDocumentIdentifier(uri=wf)))
    assert folds is None
    with pytest.raises(JsonRpcException, match="is not an open grooph document"):
        await client.workspace_execute_command_async(lsp.ExecuteCommandParams(
            command="grooph.applyOperations", arguments=[wf, [{"op": "setGraphName", "name": "x"}]]))
    assert WORKFLOW == (FIXTURES / "workflow" / "valid" / "spec-example.workflow.yaml").read_text("utf-8")

    g = (tmp_path / "d.grooph.json").as_uri()
    open_text(client, g, json.dumps(graph(nodes=[W, END], edges=[{"id": "e1", "from": "w", "to": "end"}]), indent=2) + "\n")
    await diagnostics_for(client, g)
    graph_folds = await client.text_document_folding_range_async(lsp.FoldingRangeParams(
        text_document=lsp.TextDocumentIdentifier(uri=g)))
    assert graph_folds and all(f.end_line > f.start_line for f in graph_folds)
