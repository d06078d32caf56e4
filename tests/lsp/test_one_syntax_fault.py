"""One fault, one diagnostic through the real server (issue 30): a `"` typed into a board's key line gives
one E_SYNTAX where the engine's JSON reader stops, not one per token after it, and the rest of the board is
still checked (a dangling dependency elsewhere stays reported); the same for an episode record."""

from __future__ import annotations

from tests.conftest import FIXTURES
from tests.lsp.conftest import change_text, diagnostics_for, open_text, wait_for

BOARD = (FIXTURES / "board" / "valid" / "checkout.board.json").read_text("utf-8")
EPISODES = (FIXTURES / "episodes" / "valid" / "busy-store.episodes.json").read_text("utf-8")


async def test_a_quote_typed_in_a_board_key_gives_one_syntax_error(client, tmp_path):
    uri = (tmp_path / "checkout.board.json").as_uri()
    text = BOARD.replace('"child": "t-3"', '"child": "t-33"')
    open_text(client, uri, text)
    (d,) = await diagnostics_for(client, uri)
    assert d.code == "E_BOARD_DANGLING_DEPENDENCY"
    typed = text.replace('"title": "Implement the state machine"', '""title": "Implement the state machine"')
    change_text(client, uri, 2, typed)
    diags = await wait_for(lambda: any(x.code == "E_SYNTAX" for x in client.diagnostics.get(uri, []))
                           and client.diagnostics[uri])
    syntax = [x for x in diags if x.code == "E_SYNTAX"]
    assert len(syntax) == 1 and "expected `:`" in syntax[0].message
    at = typed.index('""title"') + 2  # serde_json stops at the `t` where the colon after the key `""` belongs
    line = typed.count("\n", 0, at)
    assert (syntax[0].range.start.line, syntax[0].range.start.character) == (line, at - typed.rfind("\n", 0, at) - 1)
    assert [x.code for x in diags][-1] == "E_BOARD_DANGLING_DEPENDENCY"


async def test_a_bracket_typed_in_an_episode_record_gives_one_syntax_error(client, tmp_path):
    uri = (tmp_path / "busy.episodes.json").as_uri()
    open_text(client, uri, EPISODES)
    assert list(await diagnostics_for(client, uri)) == []
    i = EPISODES.index('"', EPISODES.index("\n", EPISODES.index("\n") + 1))  # the third line's first key
    typed = EPISODES[:i] + "[" + EPISODES[i:]
    change_text(client, uri, 2, typed)
    diags = await wait_for(lambda: any(x.code == "E_SYNTAX" for x in client.diagnostics.get(uri, []))
                           and client.diagnostics[uri])
    assert [x.code for x in diags].count("E_SYNTAX") == 1
