"""Formatting, navigation, rename, symbols, hover and completion through a real client (issue 4)."""

from __future__ import annotations

import json

import pytest
from lsprotocol import types as lsp
from pygls.exceptions import JsonRpcException

from grooph_core.ide.text_edits import TextEdit, apply_edits
from grooph_core.issues import CODES
from grooph_core.schema.canonical import canonical_text
from tests.conftest import FIXTURES
from tests.lsp.conftest import diagnostics_for, dumps, open_text, push_capabilities, start
from tests.lsp.docs import DANGLING, STUDIO_MAP, graph

DOC = lsp.TextDocumentIdentifier


def _pos(text: str, needle: str, shift: int = 1, nth: int = 0) -> lsp.Position:
    i = -1
    for _ in range(nth + 1):
        i = text.index(needle, i + 1)
    i += shift
    line = text.count("\n", 0, i)
    col = i - (text.rfind("\n", 0, i) + 1)
    return lsp.Position(line=line, character=len(text[i - col:i].encode("utf-16-le")) // 2)


def _offset(text: str, pos: lsp.Position) -> int:
    lines = text.split("\n")
    return sum(len(l) + 1 for l in lines[: pos.line]) + pos.character


def _apply(text: str, edits) -> str:
    return apply_edits(text, [TextEdit(_offset(text, e.range.start), _offset(text, e.range.end), e.new_text) for e in edits])


async def test_format_gives_canonical_text_with_minimal_edits(client, tmp_path):
    doc = graph(nodes=[{"name": "W", "id": "w", "kind": "agent", "role": "builder", "outputs": ["o"], "brief": "b", "allow": ["edit-files"]},
                       {"id": "end", "kind": "stop", "name": "End"}])
    text = json.dumps(doc, indent=2) + "\n"
    uri = (tmp_path / "f.grooph.json").as_uri()
    open_text(client, uri, text)
    edits = await client.text_document_formatting_async(lsp.DocumentFormattingParams(
        text_document=DOC(uri=uri), options=lsp.FormattingOptions(tab_size=2, insert_spaces=True)))
    assert edits
    out = _apply(text, edits)
    assert out == canonical_text(doc, "graph")
    # only the first node's lines change: the edits do not replace the whole document
    assert all(e.range.start.line >= 5 and e.range.end.line <= 20 for e in edits)


async def test_format_of_a_text_without_a_final_newline_ends_past_its_last_line(client, tmp_path):
    """The edit that adds the final line break (graph.md §6.1) ends at the start of the line after the
    text: Neovim then knows it as the file's end of line ('endofline') and does not save `}\n\n`."""
    doc = graph()
    text = json.dumps(doc, separators=(",", ":"))  # as JSON.stringify writes it: one line, no newline
    uri = (tmp_path / "noeol.grooph.json").as_uri()
    open_text(client, uri, text)
    edits = await client.text_document_formatting_async(lsp.DocumentFormattingParams(
        text_document=DOC(uri=uri), options=lsp.FormattingOptions(tab_size=2, insert_spaces=True)))
    assert [(e.range.start, e.range.end) for e in edits] == [(lsp.Position(line=0, character=0), lsp.Position(line=1, character=0))]
    assert edits[0].new_text == canonical_text(doc, "graph")
    assert _apply(text, edits) == canonical_text(doc, "graph")  # a client clamps the end to the text's end


async def test_format_refuses_broken_json_and_keeps_the_text(client, tmp_path):
    uri = (tmp_path / "b.grooph.json").as_uri()
    open_text(client, uri, '{"grooph": 0, "id": "g",, }')
    edits = await client.text_document_formatting_async(lsp.DocumentFormattingParams(
        text_document=DOC(uri=uri), options=lsp.FormattingOptions(tab_size=2, insert_spaces=True)))
    assert not edits
    assert any("not valid JSON" in m.message for m in client.messages)


async def test_definition_references_and_rename(client, tmp_path):
    text = dumps(graph(edges=[{"id": "e-w-end", "from": "w", "to": "end"}],
                       loops=[], layout={"w": {"x": 1, "y": 2}}))
    uri = (tmp_path / "n.grooph.json").as_uri()
    open_text(client, uri, text)
    defs = await client.text_document_definition_async(lsp.DefinitionParams(text_document=DOC(uri=uri), position=_pos(text, '"from": "w"', 10)))
    assert defs[0].range.start == _pos(text, '"id": "w"', 7)
    refs = await client.text_document_references_async(lsp.ReferenceParams(
        text_document=DOC(uri=uri), position=_pos(text, '"id": "w"', 7), context=lsp.ReferenceContext(include_declaration=True)))
    assert len(refs) == 3  # the id, the edge's from, the layout key
    prep = await client.text_document_prepare_rename_async(lsp.PrepareRenameParams(text_document=DOC(uri=uri), position=_pos(text, '"id": "w"', 7)))
    assert prep.placeholder == "w"
    edit = await client.text_document_rename_async(lsp.RenameParams(text_document=DOC(uri=uri), position=_pos(text, '"id": "w"', 7), new_name="writer"))
    out = json.loads(_apply(text, edit.changes[uri]))
    assert out["nodes"][0]["id"] == "writer"
    assert out["edges"][0] == {"id": "e-writer-end", "from": "writer", "to": "end"}
    assert list(out["layout"]) == ["writer"]


async def test_rename_refusals_are_clear(client, tmp_path):
    text = dumps(graph())
    uri = (tmp_path / "r.grooph.json").as_uri()
    open_text(client, uri, text)
    for bad, words in (("Writer", "kebab-case"), ("end", "already used")):
        with pytest.raises(JsonRpcException) as err:
            await client.text_document_rename_async(lsp.RenameParams(text_document=DOC(uri=uri), position=_pos(text, '"id": "w"', 7), new_name=bad))
        assert words in str(err.value)
    with pytest.raises(JsonRpcException):
        await client.text_document_prepare_rename_async(lsp.PrepareRenameParams(text_document=DOC(uri=uri), position=_pos(text, '"name": "G"', 9)))


async def test_document_symbols_for_graph_and_map(client, tmp_path):
    text = dumps(DANGLING)
    uri = (tmp_path / "s.grooph.json").as_uri()
    open_text(client, uri, text)
    (root,) = await client.text_document_document_symbol_async(lsp.DocumentSymbolParams(text_document=DOC(uri=uri)))
    groups = {c.name: [g.name for g in c.children or []] for c in root.children}
    assert groups["nodes"] == ["w — W", "end — End"]
    assert groups["edges"] == ["e1", "e2"]
    muri = (tmp_path / "m.grooph-map.json").as_uri()
    open_text(client, muri, dumps(STUDIO_MAP))
    (mroot,) = await client.text_document_document_symbol_async(lsp.DocumentSymbolParams(text_document=DOC(uri=muri)))
    lanes = next(c for c in mroot.children if c.name == "lanes")
    assert [s.name for s in lanes.children[0].children] == ["planner — Planner", "coder — Coder"]
    folds = await client.text_document_folding_range_async(lsp.FoldingRangeParams(text_document=DOC(uri=muri)))
    assert folds


async def test_hover_on_key_reference_and_diagnostic(client, tmp_path):
    text = dumps(DANGLING)
    uri = (tmp_path / "h.grooph.json").as_uri()
    open_text(client, uri, text)
    await diagnostics_for(client, uri)
    h = await client.text_document_hover_async(lsp.HoverParams(text_document=DOC(uri=uri), position=_pos(text, '"isolation"' if '"isolation"' in text else '"brief"', 2)))
    assert "brief" in h.contents.value and "required" in h.contents.value
    h = await client.text_document_hover_async(lsp.HoverParams(text_document=DOC(uri=uri), position=_pos(text, '"from": "w"', 10)))
    assert "node" in h.contents.value and "W" in h.contents.value
    h = await client.text_document_hover_async(lsp.HoverParams(text_document=DOC(uri=uri), position=_pos(text, '"ghost"', 2)))
    assert "E_DANGLING_REF" in h.contents.value and "Repair" in h.contents.value


async def test_completion_of_keys_enums_and_ids(client, tmp_path):
    text = dumps(graph(edges=[{"id": "e1", "from": "w", "to": "end", "when": "always"}]))
    uri = (tmp_path / "c.grooph.json").as_uri()
    open_text(client, uri, text)
    # ids where a node reference is expected
    res = await client.text_document_completion_async(lsp.CompletionParams(text_document=DOC(uri=uri), position=_pos(text, '"to": "end"', 7)))
    labels = [i.label for i in res.items]
    assert labels == ["w", "end"]
    # enum values of `when`
    res = await client.text_document_completion_async(lsp.CompletionParams(text_document=DOC(uri=uri), position=_pos(text, '"when": "always"', 10)))
    assert {"always", "pass", "fail"} <= {i.label for i in res.items}
    # keys the edge does not have yet, typed after a new line in the edge object
    edited = text.replace('"when": "always"\n', '"when": "always",\n        "\n', 1)
    open_text(client, uri, edited, version=2)
    res = await client.text_document_completion_async(lsp.CompletionParams(
        text_document=DOC(uri=uri), position=_pos(edited, '"when": "always",\n        "', len('"when": "always",\n        "'))))
    labels = [i.label for i in res.items]
    assert "isolation" in labels and "label" in labels and "from" not in labels


async def test_format_keeps_crlf_and_is_quiet_on_canonical_crlf_text(client, tmp_path):
    doc = graph()
    canonical = canonical_text(doc, "graph").replace("\n", "\r\n")
    uri = (tmp_path / "crlf.grooph.json").as_uri()
    open_text(client, uri, canonical)
    edits = await client.text_document_formatting_async(lsp.DocumentFormattingParams(
        text_document=DOC(uri=uri), options=lsp.FormattingOptions(tab_size=2, insert_spaces=True)))
    assert not edits


async def test_hover_on_free_text_and_on_the_graph_id(client, tmp_path):
    text = dumps(graph(goal="Ship the release notes."))
    uri = (tmp_path / "h2.grooph.json").as_uri()
    open_text(client, uri, text)
    h = await client.text_document_hover_async(lsp.HoverParams(text_document=DOC(uri=uri), position=_pos(text, '"Ship the', 3)))
    assert h is not None and "goal" in h.contents.value
    h = await client.text_document_hover_async(lsp.HoverParams(text_document=DOC(uri=uri), position=_pos(text, '"id": "g"', 7)))
    assert "reference" not in h.contents.value


def _plain_text_capabilities() -> lsp.ClientCapabilities:
    """A client that renders no Markdown: plain text for hovers and for completion documentation."""
    caps = push_capabilities()
    caps.text_document.hover = lsp.HoverClientCapabilities(content_format=[lsp.MarkupKind.PlainText])
    caps.text_document.completion = lsp.CompletionClientCapabilities(
        completion_item=lsp.ClientCompletionItemOptions(documentation_format=[lsp.MarkupKind.PlainText]))
    return caps


async def test_a_client_without_markdown_reads_hovers_and_documentation_without_markup(raw_client, tmp_path):
    """LSP: the client lists the markup it renders; one that names only plain text gets the hover and
    the completion documentation without `**`, `*` or backticks, the words themselves all kept."""
    await start(raw_client, capabilities=_plain_text_capabilities())
    text = dumps(DANGLING)
    uri = (tmp_path / "plain.grooph.json").as_uri()
    open_text(raw_client, uri, text)
    h = await raw_client.text_document_hover_async(lsp.HoverParams(text_document=DOC(uri=uri), position=_pos(text, '"brief"', 2)))
    assert h.contents.kind == lsp.MarkupKind.PlainText
    assert h.contents.value == "brief — The agent's instructions.\n\nrequired · string"
    h = await raw_client.text_document_hover_async(lsp.HoverParams(text_document=DOC(uri=uri), position=_pos(text, '"ghost"', 2)))
    code = CODES["E_DANGLING_REF"]
    assert h.contents.kind == lsp.MarkupKind.PlainText
    assert h.contents.value == (f'No node has the id ghost.\n\n---\n\nE_DANGLING_REF — {code.title}\n\n'
                                f'edge "e2" ends at unknown node "ghost"\n\nRepair: {code.repair}  \nSpec: {code.spec}')

    workflow = (FIXTURES / "workflow" / "valid" / "spec-example.workflow.yaml").read_text("utf-8")
    marked = workflow.replace("        - target: blocked\n", "        - target: blocked\n        - |\n", 1)
    at = marked.index("|")
    text = marked[:at] + marked[at + 1:]
    uri = (tmp_path / "plain.workflow.yaml").as_uri()
    open_text(raw_client, uri, text, language_id="yaml")
    line = text.count("\n", 0, at)
    res = await raw_client.text_document_completion_async(lsp.CompletionParams(
        text_document=DOC(uri=uri), position=lsp.Position(line=line, character=at - text.rfind("\n", 0, at) - 1)))
    target = next(i for i in res.items if i.label == "target")
    assert target.documentation.kind == lsp.MarkupKind.PlainText
    assert "a status name, or {{expr}};" in target.documentation.value and "`" not in target.documentation.value
