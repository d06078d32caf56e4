"""Which documents the server serves (issue 21 item 4): told by the file name, or by the content of a
`.json` file of another name or an untitled buffer, never by the language id alone. Each client's own
language ids are sent, including the wrong ones an editor sends with one server entry for several modes
(eglot announces every buffer with the id of the first one it opened): `package.json`, `tsconfig.json`
and a plain `config.yaml` get no diagnostics and no feature, whatever the id; our own files are served
whatever the id."""

from __future__ import annotations

import json

import pytest
from lsprotocol import types as lsp

from tests.conftest import FIXTURES
from tests.lsp.conftest import change_text, diagnostics_for, open_text, wait_for

# The language ids each client was seen sending (editors/, docs/editors.md).
CLIENT_IDS = {
    # VS Code: the extension's languages, and VS Code's own for the files its selector takes by pattern
    # (a board, an episode record) or the user attaches (tsconfig.json is `jsonc` there).
    "vscode": ("grooph", "grooph-map", "grooph-workflow", "json", "jsonc", "yaml"),
    # Neovim: the buffer's 'filetype' (editors/nvim sets grooph, grooph-map, grooph-workflow, …).
    "neovim": ("grooph", "grooph-map", "grooph-workflow", "grooph-board", "grooph-episodes", "json", "yaml"),
    # eglot 1.9: the major mode's name without "-mode", one id per server (the first buffer's mode).
    "eglot": ("grooph", "grooph-workflow", "js", "json", "yaml", "js-json"),
}

NOT_OURS = {
    "package.json": '{\n  "name": "studio",\n  "version": "1.0.0",\n  "scripts": {"test": "jest"}\n}\n',
    "tsconfig.json": '{\n  // comments, as tsconfig allows\n  "compilerOptions": {"strict": true,},\n}\n',
    "config.yaml": "statuses: [a, b]\nname: not a workflow\n  broken: indentation\n",
}

# Our own documents, each with a fault whose code it must get.
OURS = {
    "g.grooph.json": FIXTURES / "invalid" / "E_DANGLING_REF" / "misspelled-node.grooph.json",
    "m.grooph-map.json": FIXTURES / "maps" / "invalid" / "E_DANGLING_REF" / "misspelt-end.grooph-map.json",
    "b.board.json": FIXTURES / "board" / "invalid" / "E_BOARD_DANGLING_DEPENDENCY" / "misspelt.board.json",
    "e.episodes.json": FIXTURES / "episodes" / "invalid" / "E_EPISODES_CURRENT_NOT_LISTED" / "misspelt.episodes.json",
}
WORKFLOW = (FIXTURES / "workflow" / "valid" / "spec-example.workflow.yaml").read_text("utf-8").replace(
    "target: review}", "target: reveiw}")

DOC = lsp.TextDocumentIdentifier


def _codes(path) -> set[str]:
    expect = json.loads(path.with_name(path.name.split(".")[0] + ".expect.json").read_text("utf-8"))
    return {i["code"] for i in expect["issues"]}


async def _no_feature(client, uri: str) -> None:
    """Every document request on an unserved document answers nothing."""
    at = lsp.Position(line=1, character=4)
    answers = {
        "formatting": await client.text_document_formatting_async(lsp.DocumentFormattingParams(
            text_document=DOC(uri=uri), options=lsp.FormattingOptions(tab_size=2, insert_spaces=True))),
        "symbols": await client.text_document_document_symbol_async(lsp.DocumentSymbolParams(text_document=DOC(uri=uri))),
        "hover": await client.text_document_hover_async(lsp.HoverParams(text_document=DOC(uri=uri), position=at)),
        "completion": await client.text_document_completion_async(lsp.CompletionParams(text_document=DOC(uri=uri), position=at)),
        "definition": await client.text_document_definition_async(lsp.DefinitionParams(text_document=DOC(uri=uri), position=at)),
        "folding": await client.text_document_folding_range_async(lsp.FoldingRangeParams(text_document=DOC(uri=uri))),
        "actions": await client.text_document_code_action_async(lsp.CodeActionParams(
            text_document=DOC(uri=uri), range=lsp.Range(start=at, end=at), context=lsp.CodeActionContext(diagnostics=[]))),
    }
    for what, answer in answers.items():
        assert not answer, (uri, what, answer)


@pytest.mark.parametrize("editor", list(CLIENT_IDS))
async def test_other_files_get_nothing_and_ours_are_served_whatever_the_id(client, tmp_path, editor):
    for language in CLIENT_IDS[editor]:
        folder = tmp_path / language
        folder.mkdir()
        others = [(folder / name).as_uri() for name in NOT_OURS]
        for uri, text in zip(others, NOT_OURS.values()):
            open_text(client, uri, text, language_id=language)
        for name, path in OURS.items():
            uri = (folder / name).as_uri()
            open_text(client, uri, path.read_text("utf-8"), language_id=language)
            codes = {d.code for d in await diagnostics_for(client, uri)}
            assert _codes(path) <= codes, (language, name, codes)
        uri = (folder / "review.workflow.yaml").as_uri()
        open_text(client, uri, WORKFLOW, language_id=language)
        assert "E_WF_UNKNOWN_STATUS" in {d.code for d in await diagnostics_for(client, uri)}, language
        # The served documents opened after the others were analysed and published: the others never were.
        for uri in others:
            assert uri not in client.diagnostics, (language, uri, client.diagnostics.get(uri))
            await _no_feature(client, uri)


@pytest.mark.parametrize("language", ["grooph", "grooph-map", "json", "js"])
async def test_an_untitled_buffer_is_served_once_its_content_claims_it(client, language):
    uri = f"untitled:Untitled-{language}"
    open_text(client, uri, "", language_id=language)
    await _no_feature(client, uri)
    graph = (FIXTURES / "invalid" / "E_DANGLING_REF" / "misspelled-node.grooph.json").read_text("utf-8")
    change_text(client, uri, 2, graph)
    diags = await wait_for(lambda: client.diagnostics.get(uri))
    assert "E_DANGLING_REF" in {d.code for d in diags}
    symbols = await client.text_document_document_symbol_async(lsp.DocumentSymbolParams(text_document=DOC(uri=uri)))
    assert symbols
    change_text(client, uri, 3, '{"name": "studio", "version": "1.0.0"}')  # no longer a claim: cleared
    await wait_for(lambda: len(client.diagnostics[uri]) == 0)
    await _no_feature(client, uri)


async def test_a_json_file_of_another_name_is_served_by_its_claim(client, tmp_path):
    uri = (tmp_path / "graph.json").as_uri()
    text = (FIXTURES / "invalid" / "E_DANGLING_REF" / "misspelled-node.grooph.json").read_text("utf-8")
    open_text(client, uri, text, language_id="grooph")
    assert "E_DANGLING_REF" in {d.code for d in await diagnostics_for(client, uri)}
    # the same claim in a YAML file, sent as `grooph`: a YAML file is never read as a graph
    yaml_uri = (tmp_path / "graph.yaml").as_uri()
    open_text(client, yaml_uri, text, language_id="grooph")
    untitled = "untitled:Untitled-yaml"
    open_text(client, untitled, WORKFLOW, language_id="grooph-workflow")  # a workflow is told by its name only
    other = (tmp_path / "h.grooph.json").as_uri()
    open_text(client, other, text, language_id="yaml")
    await diagnostics_for(client, other)
    assert yaml_uri not in client.diagnostics and untitled not in client.diagnostics
    await _no_feature(client, yaml_uri)
    await _no_feature(client, untitled)
