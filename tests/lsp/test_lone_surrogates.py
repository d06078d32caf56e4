"""A lone surrogate through the real server (issue 30; docs/bad-input.md "Lone surrogate"): a board whose
field key holds `\\ud800` gets serde_json's refusal at the escape; hover, completion and code actions on it
answer, and a raw lone surrogate in the editor's text (which the protocol's JSON carries) is read too."""

from __future__ import annotations

from lsprotocol import types as lsp

from tests.conftest import FIXTURES
from tests.lsp.conftest import change_text, diagnostics_for, open_text, wait_for

BOARD = (FIXTURES / "board" / "valid" / "checkout.board.json").read_text("utf-8")


def _position(text: str, offset: int) -> lsp.Position:
    line = text.count("\n", 0, offset)
    start = text.rfind("\n", 0, offset) + 1
    return lsp.Position(line=line, character=len(text[start:offset].encode("utf-16-le", "surrogatepass")) // 2)


async def test_a_surrogate_key_is_refused_at_its_escape_and_every_request_answers(client, tmp_path):
    uri = (tmp_path / "checkout.board.json").as_uri()
    text = BOARD.replace('"body": "After', '"b\\ud800ody": "After', 1)
    open_text(client, uri, text)
    diags = await diagnostics_for(client, uri)
    assert [d.code for d in diags] == ["E_SYNTAX", "W_UNKNOWN_KEY"]
    at = text.index("\\ud800")
    assert diags[0].range.start == _position(text, at) and diags[0].range.end == _position(text, at + 6)
    assert "unexpected end of hex escape" in diags[0].message
    assert diags[1].data["at"] == ["/tasks/t-3/b\ud800ody"]  # the key as read, carried in the protocol's JSON

    ident = lsp.TextDocumentIdentifier(uri=uri)
    hover = await client.text_document_hover_async(lsp.HoverParams(text_document=ident, position=_position(text, at + 2)))
    assert hover is None or hover.contents
    inside = text.index('"lane": "todo"')
    found = await client.text_document_completion_async(lsp.CompletionParams(text_document=ident, position=_position(text, inside)))
    assert found is not None and found.items
    actions = await client.text_document_code_action_async(lsp.CodeActionParams(
        text_document=ident, range=diags[1].range, context=lsp.CodeActionContext(diagnostics=list(diags))))
    assert actions is None or all(a.title for a in actions)

    # the same key with the surrogate itself in the text (an editor's buffer can hold it; saved, it is
    # written as U+FFFD): no escape to refuse; the key is unknown
    raw = BOARD.replace('"body": "After', '"b\ud800ody": "After', 1)
    change_text(client, uri, 2, raw)
    diags = await wait_for(lambda: [d.code for d in client.diagnostics.get(uri, [])] == ["W_UNKNOWN_KEY"]
                           and client.diagnostics[uri])
    assert "b\ud800ody" in diags[0].message
    hover = await client.text_document_hover_async(lsp.HoverParams(text_document=ident, position=_position(raw, raw.index("\ud800"))))
    assert hover is None or hover.contents
