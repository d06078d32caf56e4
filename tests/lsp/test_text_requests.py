"""What the editor draws into the text, through the real server (issue 31 items 3, 5, 6): inlay hints (only
the range asked; the `grooph.inlayHints` setting), document links (a map's `graph` pointers, a workflow's
`prompt_file`, URLs) and semantic tokens (the legend, full, delta, range) on a graph, a map and a workflow,
half-typed text included."""

from __future__ import annotations

import json

import pytest_lsp
from lsprotocol import types as lsp
from pytest_lsp import ClientServerConfig, LanguageClient

from tests.conftest import FIXTURES
from tests.lsp.conftest import SERVER, change_text, diagnostics_for, open_text, push_capabilities, wait_for

GRAPH = (FIXTURES / "valid" / "review-loop.grooph.json").read_text("utf-8")
MAP = (FIXTURES / "maps" / "valid" / "graph-pointers.grooph-map.json").read_text("utf-8")
RELEASE_NOTES = (FIXTURES / "maps" / "valid" / "graphs" / "release-notes.grooph.json").read_text("utf-8")
WORKFLOW = (FIXTURES / "workflow" / "valid" / "spec-example.workflow.yaml").read_text("utf-8").replace(
    "    run: {role: reviewer, session: reviewer}",
    "    run: {role: reviewer, session: reviewer, prompt_file: prompts/review.md}\n"
    "    description: see https://example.com/review-guide.")


async def _started(lsp_client: LanguageClient, options: dict) -> LanguageClient:
    """A push-model client that keeps the server's answer to initialize (`init_result`)."""
    caps = push_capabilities()
    caps.workspace.inlay_hint = lsp.InlayHintWorkspaceClientCapabilities(refresh_support=True)
    caps.text_document.document_link = lsp.DocumentLinkClientCapabilities(tooltip_support=True)
    lsp_client.refreshed = []

    @lsp_client.feature(lsp.WORKSPACE_INLAY_HINT_REFRESH)
    def refresh(params):
        lsp_client.refreshed.append(params)
    lsp_client.init_result = await lsp_client.initialize_session(lsp.InitializeParams(
        capabilities=caps, initialization_options={"grooph": {"debounceMs": 0, **options}}))
    return lsp_client


@pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER))
async def client(lsp_client: LanguageClient):
    yield await _started(lsp_client, {})
    await lsp_client.shutdown_session()


@pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER))
async def hints_off(lsp_client: LanguageClient):
    yield await _started(lsp_client, {"inlayHints": False})
    await lsp_client.shutdown_session()


def _pos(text: str, offset: int) -> lsp.Position:
    return lsp.Position(line=text.count("\n", 0, offset), character=offset - (text.rfind("\n", 0, offset) + 1))


def _at(text: str, offset: int, hints) -> list[str]:
    """The labels of the hints placed at `offset`."""
    return [h.label for h in hints if h.position == _pos(text, offset)]


def _whole(text: str) -> lsp.Range:
    return lsp.Range(start=lsp.Position(line=0, character=0), end=_pos(text, len(text)))


async def _hints(client, uri, text, rng=None):
    return await client.text_document_inlay_hint_async(lsp.InlayHintParams(
        text_document=lsp.TextDocumentIdentifier(uri=uri), range=rng or _whole(text)))


def _decode(text: str, data: list[int], legend) -> list[tuple[str, str, set[str]]]:
    """(text, type, modifiers) of each token."""
    lines = text.split("\n")
    out, line, col = [], 0, 0
    for i in range(0, len(data), 5):
        dl, dc, length, typ, mods = data[i:i + 5]
        line, col = line + dl, (col + dc if dl == 0 else dc)
        out.append((lines[line][col:col + length], legend.token_types[typ],
                    {m for b, m in enumerate(legend.token_modifiers) if mods >> b & 1}))
    return out


async def _open(client, tmp_path, name, text, language_id="json"):
    uri = (tmp_path / name).as_uri()
    open_text(client, uri, text, language_id=language_id)
    await diagnostics_for(client, uri)
    return uri


# ---- inlay hints ----------------------------------------------------------------------------------------


async def test_graph_hints_name_the_node_and_a_loops_brakes(client, tmp_path):
    uri = await _open(client, tmp_path, "review.grooph.json", GRAPH)
    hints = await _hints(client, uri, GRAPH)
    to_tests = GRAPH.index('"to": "tests"') + len('"to": "tests"')
    assert _at(GRAPH, to_tests, hints) == ["Tests · check"]
    stops = GRAPH.index('"stops": [') + len('"stops": ')
    assert _at(GRAPH, stops, hints) == ["≤ 4 rounds · 12 dispatches"]
    assert all(h.label for h in hints)


async def test_only_the_range_asked_is_hinted(client, tmp_path):
    uri = await _open(client, tmp_path, "review.grooph.json", GRAPH)
    first_edge = GRAPH.index('"edges"')
    rng = lsp.Range(start=_pos(GRAPH, first_edge), end=_pos(GRAPH, first_edge + 120))
    hints = await _hints(client, uri, GRAPH, rng)
    every = await _hints(client, uri, GRAPH)
    assert 0 < len(hints) < len(every)
    assert all(rng.start.line <= h.position.line <= rng.end.line for h in hints)


async def test_map_handoff_end_says_the_sessions_name_and_lane(client, tmp_path):
    uri = await _open(client, tmp_path, "shop.grooph-map.json", MAP)
    hints = await _hints(client, uri, MAP)
    end = MAP.index('"to": "coder"') + len('"to": "coder"')
    assert _at(MAP, end, hints) == ["Coder · Desk"]


async def test_workflow_target_says_what_the_status_is(client, tmp_path):
    uri = await _open(client, tmp_path, "review.workflow.yaml", WORKFLOW, "yaml")
    hints = await _hints(client, uri, WORKFLOW)
    done = WORKFLOW.index("target: done") + len("target: done")
    assert _at(WORKFLOW, done, hints) == ["final"]
    building = WORKFLOW.index("target: building") + len("target: building")
    assert _at(WORKFLOW, building, hints) == ["stored as running · run by implementer · on handed_off, failed"]
    by = WORKFLOW.index("by: [reviewer]") + len("by: [reviewer")
    assert _at(WORKFLOW, by, hints) == ["= 'reviewer'"]


async def test_half_typed_graph_still_hints_what_reads(client, tmp_path):
    cut = GRAPH[:GRAPH.index('"to": "tests"') + len('"to": "tests"')] + ',\n      "when": "'
    uri = await _open(client, tmp_path, "review.grooph.json", cut)
    hints = await _hints(client, uri, cut)
    assert _at(cut, cut.index('"to": "tests"') + len('"to": "tests"'), hints) == ["Tests · check"]
    # a reference being typed names nothing yet: no hint, no error
    typing = cut[:cut.rindex('"to": "tests"')] + '"to": "te'
    change_text(client, uri, 2, typing)
    await diagnostics_for(client, uri)
    assert _at(typing, len(typing), await _hints(client, uri, typing)) == []


async def test_the_setting_turns_hints_off(hints_off, tmp_path):
    uri = await _open(hints_off, tmp_path, "review.grooph.json", GRAPH)
    assert not await _hints(hints_off, uri, GRAPH)
    hints_off.workspace_did_change_configuration(lsp.DidChangeConfigurationParams(
        settings={"grooph": {"inlayHints": True}}))
    await wait_for(lambda: hints_off.refreshed)  # the editor is asked to ask again
    assert await _hints(hints_off, uri, GRAPH)


# ---- document links -------------------------------------------------------------------------------------


async def _links(client, uri):
    return await client.text_document_document_link_async(lsp.DocumentLinkParams(
        text_document=lsp.TextDocumentIdentifier(uri=uri)))


async def test_map_links_a_file_a_url_and_a_graph_by_id_and_version(client, tmp_path):
    (tmp_path / "graphs").mkdir()
    (tmp_path / "graphs" / "release-notes.grooph.json").write_text(RELEASE_NOTES, "utf-8")
    plan = json.loads(GRAPH)
    plan.update(id="plan", version=3)
    plan_uri = await _open(client, tmp_path, "elsewhere/plan.grooph.json", json.dumps(plan, indent=2))
    uri = await _open(client, tmp_path, "shop.grooph-map.json", MAP)
    links = {MAP.split("\n")[l.range.start.line][l.range.start.character:l.range.end.character]: l.target
             for l in await _links(client, uri)}
    assert links == {
        "https://example.com/plan.grooph.json": "https://example.com/plan.grooph.json",
        "plan@3": plan_uri,
        "graphs/release-notes.grooph.json": (tmp_path / "graphs" / "release-notes.grooph.json").as_uri(),
    }


async def test_a_missing_file_and_an_unknown_version_are_no_links(client, tmp_path):
    uri = await _open(client, tmp_path, "shop.grooph-map.json", MAP)
    assert [l.target for l in await _links(client, uri)] == ["https://example.com/plan.grooph.json"]


async def test_workflow_links_its_prompt_file_and_urls(client, tmp_path):
    (tmp_path / "prompts").mkdir()
    (tmp_path / "prompts" / "review.md").write_text("Review the change.\n", "utf-8")
    uri = await _open(client, tmp_path, "review.workflow.yaml", WORKFLOW, "yaml")
    links = await _links(client, uri)
    assert [l.target for l in links] == [(tmp_path / "prompts" / "review.md").as_uri(),
                                         "https://example.com/review-guide"]
    first = links[0].range
    assert WORKFLOW.split("\n")[first.start.line][first.start.character:first.end.character] == "prompts/review.md"


async def test_graph_links_urls_in_strings(client, tmp_path):
    text = GRAPH.replace('"Implement the search filter', '"See https://example.com/spec. Implement the search filter')
    uri = await _open(client, tmp_path, "review.grooph.json", text)
    assert [l.target for l in await _links(client, uri)] == ["https://example.com/spec"]


# ---- semantic tokens ------------------------------------------------------------------------------------


async def _full(client, uri):
    return await client.text_document_semantic_tokens_full_async(lsp.SemanticTokensParams(
        text_document=lsp.TextDocumentIdentifier(uri=uri)))


async def test_legend_is_registered_once_with_full_delta_and_range(client):
    provider = client.init_result.capabilities.semantic_tokens_provider
    assert provider.full.delta is True and provider.range is True
    assert {"function", "event", "macro", "namespace", "enumMember", "type"} <= set(provider.legend.token_types)
    assert list(provider.legend.token_modifiers) == ["declaration", "definition", "deprecated"]


async def test_graph_tokens_colour_ids_by_what_they_name(client, tmp_path):
    legend = client.init_result.capabilities.semantic_tokens_provider.legend
    text = GRAPH.replace('"to": "tests"', '"to": "testz"', 1)
    uri = await _open(client, tmp_path, "review.grooph.json", text)
    tokens = _decode(text, (await _full(client, uri)).data, legend)
    assert tokens[0] == ("feature-review-loop", "namespace", {"declaration", "definition"})
    assert ("tests", "function", {"declaration", "definition"}) in tokens
    assert ("build", "function", set()) in tokens
    assert ("testz", "function", {"deprecated"}) in tokens  # a reference to nothing
    assert any(t[1] == "macro" for t in tokens)  # the loop


async def test_map_and_workflow_tokens(client, tmp_path):
    legend = client.init_result.capabilities.semantic_tokens_provider.legend
    uri = await _open(client, tmp_path, "shop.grooph-map.json", MAP)
    tokens = _decode(MAP, (await _full(client, uri)).data, legend)
    assert ("desk", "class", {"declaration", "definition"}) in tokens and ("coder", "function", set()) in tokens
    text = WORKFLOW.replace("target: done", "target: dnoe")
    uri = await _open(client, tmp_path, "review.workflow.yaml", text, "yaml")
    tokens = _decode(text, (await _full(client, uri)).data, legend)
    assert ("review", "enumMember", {"declaration", "definition"}) in tokens
    assert ("reviewer", "type", set()) in tokens
    assert ("dnoe", "enumMember", {"deprecated"}) in tokens


async def test_delta_answers_the_edit_and_range_its_part(client, tmp_path):
    legend = client.init_result.capabilities.semantic_tokens_provider.legend
    uri = await _open(client, tmp_path, "review.grooph.json", GRAPH)
    first = await _full(client, uri)
    text = GRAPH.replace('"to": "tests"', '"to": "testz"', 1)
    change_text(client, uri, 2, text)
    await diagnostics_for(client, uri)
    delta = await client.text_document_semantic_tokens_full_delta_async(lsp.SemanticTokensDeltaParams(
        text_document=lsp.TextDocumentIdentifier(uri=uri), previous_result_id=first.result_id))
    assert isinstance(delta, lsp.SemanticTokensDelta) and len(delta.edits) == 1
    (edit,) = delta.edits
    data = first.data[:edit.start] + edit.data + first.data[edit.start + edit.delete_count:]
    assert data == (await _full(client, uri)).data
    assert len(edit.data) < len(first.data)
    assert ("testz", "function", {"deprecated"}) in _decode(text, data, legend)
    stale = await client.text_document_semantic_tokens_full_delta_async(lsp.SemanticTokensDeltaParams(
        text_document=lsp.TextDocumentIdentifier(uri=uri), previous_result_id="not-held"))
    assert isinstance(stale, lsp.SemanticTokens) and stale.data == data
    edges = text.index('"edges"')
    rng = lsp.Range(start=_pos(text, edges), end=_pos(text, edges + 200))
    part = await client.text_document_semantic_tokens_range_async(lsp.SemanticTokensRangeParams(
        text_document=lsp.TextDocumentIdentifier(uri=uri), range=rng))
    in_range = _decode(text, part.data, legend)
    assert in_range and len(in_range) < len(_decode(text, data, legend))


async def test_half_typed_workflow_and_broken_json_answer(client, tmp_path):
    cut = WORKFLOW[:WORKFLOW.index("  blocked:")] + "  blocked: {stored_as: "
    uri = await _open(client, tmp_path, "review.workflow.yaml", cut, "yaml")
    assert (await _full(client, uri)).data
    assert await _hints(client, uri, cut) is not None
    broken = GRAPH[:GRAPH.index('"loops"')] + '"loops": [{"id": '
    uri = await _open(client, tmp_path, "review.grooph.json", broken)
    legend = client.init_result.capabilities.semantic_tokens_provider.legend
    assert ("tests", "function", set()) in _decode(broken, (await _full(client, uri)).data, legend)


async def test_a_long_graph_is_hinted_whole_and_by_screenful(client, tmp_path):
    """A client asking for the whole of a long text (Neovim asks for the buffer) gets every hint (computed
    off the event loop); a screenful gets its own."""
    nodes = [{"id": f"n{i}", "kind": "agent", "name": f"N{i}", "role": "builder"} for i in range(300)]
    edges = [{"id": f"n{i}-n{i + 1}", "from": f"n{i}", "to": f"n{i + 1}"} for i in range(299)]
    text = json.dumps({"grooph": 0, "id": "g", "name": "G", "version": 1, "nodes": nodes, "edges": edges,
                       "loops": []}, indent=2)
    assert len(text) > 20_000
    uri = await _open(client, tmp_path, "long.grooph.json", text)
    every = await _hints(client, uri, text)
    assert len(every) == 2 * 299
    at = text.index('"from": "n200"')
    screen = await _hints(client, uri, text, lsp.Range(start=_pos(text, at), end=_pos(text, at + 40)))
    assert [h.label for h in screen] == ["N200 · agent", "N201 · agent"]
