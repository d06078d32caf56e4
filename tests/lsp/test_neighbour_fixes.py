"""Quick fixes of a workflow through the real server (issue 15 point 5): a misspelt status gets
"Change to X" whose applied text has no diagnostic, and "Add status X" keeps the file's comments."""

from __future__ import annotations

from lsprotocol import types as lsp

from tests.conftest import FIXTURES
from tests.lsp.conftest import change_text, diagnostics_for, open_text, wait_for
from tests.lsp.test_neighbour_features import _apply, _pos

GOOD = (FIXTURES / "workflow" / "valid" / "spec-example.workflow.yaml").read_text("utf-8").replace(
    "statuses:\n", "statuses:  # where cards stand\n")
BAD = GOOD.replace("target: review}", "target: reveiw}", 1)


async def test_misspelt_status_change_and_add(client, tmp_path):
    assert BAD != GOOD
    uri = (tmp_path / "review.workflow.yaml").as_uri()
    open_text(client, uri, BAD, language_id="yaml")
    diags = await diagnostics_for(client, uri)
    (diag,) = [d for d in diags if d.code == "E_WF_UNKNOWN_STATUS"]
    actions = await client.text_document_code_action_async(lsp.CodeActionParams(
        text_document=lsp.TextDocumentIdentifier(uri=uri), range=diag.range,
        context=lsp.CodeActionContext(diagnostics=[diag])))
    by_title = {a.title: a for a in actions}
    assert set(by_title) == {"Change to review", "Add status reveiw"}
    change = by_title["Change to review"]
    assert change.kind == lsp.CodeActionKind.QuickFix and change.is_preferred
    (doc_edit,) = change.edit.document_changes
    fixed = _apply(BAD, doc_edit.edits)
    assert fixed == GOOD
    client.diagnostics.pop(uri, None)
    change_text(client, uri, 2, fixed)
    await wait_for(lambda: uri in client.diagnostics)  # the fixed version's diagnostics
    assert not client.diagnostics[uri]

    (added_edit,) = by_title["Add status reveiw"].edit.document_changes
    added = _apply(BAD, added_edit.edits)
    assert "statuses:  # where cards stand\n" in added
    assert "\n  reveiw: {}\n" in added
    # every other byte is the original's
    assert added.replace("  reveiw: {}\n", "", 1) == BAD


async def test_a_null_in_a_defaulted_list_is_removed_and_a_number_like_target_stands(client, tmp_path):
    """issue 23: the engine refuses `null` for a field with a default ("Remove the field" fixes it), and a
    target `0x10` naming a status `0x10` is read as that text: no diagnostic, nothing to fix."""
    text = GOOD.replace("dispatch:\n", "  0x10: {stored_as: done}\nlosses: null\ndispatch:\n").replace(
        "target: blocked", "target: 0x10")
    uri = (tmp_path / "nulls.workflow.yaml").as_uri()
    open_text(client, uri, text, language_id="yaml")
    diags = await diagnostics_for(client, uri)
    assert sorted(d.code for d in diags) == ["E_WF_SCHEMA", "W_WF_UNREACHABLE_STATUS"]  # blocked: nothing goes there
    (diag,) = [d for d in diags if d.code == "E_WF_SCHEMA"]
    assert text.splitlines()[diag.range.start.line] == "losses: null"
    actions = await client.text_document_code_action_async(lsp.CodeActionParams(
        text_document=lsp.TextDocumentIdentifier(uri=uri), range=diag.range,
        context=lsp.CodeActionContext(diagnostics=[diag])))
    (remove,) = [a for a in actions if a.title == "Remove the field"]
    (doc_edit,) = remove.edit.document_changes
    fixed = _apply(text, doc_edit.edits)
    assert fixed == text.replace("losses: null\n", "")
    client.diagnostics.pop(uri, None)
    change_text(client, uri, 2, fixed)
    await wait_for(lambda: uri in client.diagnostics)
    assert [d.code for d in client.diagnostics[uri]] == ["W_WF_UNREACHABLE_STATUS"]  # no E_WF_UNKNOWN_STATUS 0x10
