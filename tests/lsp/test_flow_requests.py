"""The flow in the text through the real server (issue 31 items 1, 2, 4): document highlights (the
definition written, each use read), the call hierarchy (a graph's edges, a map's handoffs, a workflow's
transitions; a stale item answers no calls), selection ranges that follow the structure, on a graph, a
map, a workflow and a board, and on half-typed text (a sensible answer, never an error)."""

from __future__ import annotations

from lsprotocol import types as lsp

from tests.conftest import FIXTURES
from tests.lsp.test_neighbour_ide import _text
from tests.lsp.conftest import change_text, diagnostics_for, open_text, push_capabilities

GRAPH = (FIXTURES / "valid" / "review-loop.grooph.json").read_text("utf-8")
MAP = (FIXTURES / "maps" / "valid" / "tiny-shop.grooph-map.json").read_text("utf-8")
WORKFLOW = (FIXTURES / "workflow" / "valid" / "spec-example.workflow.yaml").read_text("utf-8")
BOARD = (FIXTURES / "board" / "valid" / "checkout.board.json").read_text("utf-8")


def _pos(text: str, offset: int) -> lsp.Position:
    line = text.count("\n", 0, offset)
    return lsp.Position(line=line, character=offset - (text.rfind("\n", 0, offset) + 1))


def _at(text: str, needle: str, into: int = 1) -> lsp.Position:
    """The position `into` characters into the first `needle`."""
    return _pos(text, text.index(needle) + into)


async def _open(client, tmp_path, name: str, text: str) -> str:
    uri = (tmp_path / name).as_uri()
    open_text(client, uri, text, language_id="yaml" if name.endswith(".yaml") else "json")
    await diagnostics_for(client, uri)
    return uri


async def _highlights(client, uri, pos):
    return await client.text_document_document_highlight_async(
        lsp.DocumentHighlightParams(text_document=lsp.TextDocumentIdentifier(uri=uri), position=pos))


async def _prepare(client, uri, pos):
    return await client.text_document_prepare_call_hierarchy_async(
        lsp.CallHierarchyPrepareParams(text_document=lsp.TextDocumentIdentifier(uri=uri), position=pos))


async def _incoming(client, item):
    return await client.call_hierarchy_incoming_calls_async(lsp.CallHierarchyIncomingCallsParams(item=item))


async def _outgoing(client, item):
    return await client.call_hierarchy_outgoing_calls_async(lsp.CallHierarchyOutgoingCallsParams(item=item))


async def _selection(client, uri, *positions):
    return await client.text_document_selection_range_async(
        lsp.SelectionRangeParams(text_document=lsp.TextDocumentIdentifier(uri=uri), positions=list(positions)))


def _empty(calls) -> bool:
    """An empty list of calls (not null, not an error)."""
    return calls is not None and len(calls) == 0


def _chain(text: str, sel: lsp.SelectionRange) -> list[str]:
    out = []
    while sel is not None:
        out.append(_text(text, sel.range))
        sel = sel.parent
    return out


async def test_capabilities_advertised(raw_client):
    result = await raw_client.initialize_session(lsp.InitializeParams(capabilities=push_capabilities()))
    caps = result.capabilities
    assert caps.document_highlight_provider and caps.call_hierarchy_provider and caps.selection_range_provider


# ---- document highlight ----------------------------------------------------------------------------------

async def test_highlight_graph_node(client, tmp_path):
    uri = await _open(client, tmp_path, "review.grooph.json", GRAPH)
    found = await _highlights(client, uri, _at(GRAPH, '"to": "tests"', 8))
    assert {_text(GRAPH, h.range) for h in found} == {"tests"}
    writes = [h for h in found if h.kind == lsp.DocumentHighlightKind.Write]
    assert len(writes) == 1 and writes[0].range.start == _at(GRAPH, '"id": "tests"', 7)
    # the definition, three edges' from/to, two loops' members (not the check's `"kind": "tests"`)
    assert len(found) == 6
    assert not await _highlights(client, uri, _at(GRAPH, '"goal"', 2))  # a key naming nothing


async def test_highlight_map_and_workflow_and_board(client, tmp_path):
    uri = await _open(client, tmp_path, "shop.grooph-map.json", MAP)
    found = await _highlights(client, uri, _at(MAP, '"from": "coder"', 10))
    assert {_text(MAP, h.range) for h in found} == {"coder"}
    assert sum(h.kind == lsp.DocumentHighlightKind.Write for h in found) == 1
    uri = await _open(client, tmp_path, "review.workflow.yaml", WORKFLOW)
    found = await _highlights(client, uri, _at(WORKFLOW, "target: building", 10))
    assert [(_text(WORKFLOW, h.range), h.kind) for h in found] == [
        ("building", lsp.DocumentHighlightKind.Write), ("building", lsp.DocumentHighlightKind.Read),
        ("building", lsp.DocumentHighlightKind.Read)]
    role = await _highlights(client, uri, _at(WORKFLOW, "by: [reviewer]", 6))  # a role
    assert {_text(WORKFLOW, h.range) for h in role} == {"reviewer"}
    assert [h.kind for h in role].count(lsp.DocumentHighlightKind.Write) == 1 and len(role) == 4
    uri = await _open(client, tmp_path, "checkout.board.json", BOARD)
    found = await _highlights(client, uri, _at(BOARD, '"t-1"', 2))
    assert {_text(BOARD, h.range) for h in found} == {"t-1"} and len(found) >= 2


# ---- call hierarchy ------------------------------------------------------------------------------------

async def test_call_hierarchy_graph(client, tmp_path):
    uri = await _open(client, tmp_path, "review.grooph.json", GRAPH)
    (item,) = await _prepare(client, uri, _at(GRAPH, '"to": "build"', 8))
    assert item.name == "build" and item.detail == "Build · agent · builder"
    assert _text(GRAPH, item.selection_range) == "build" and _text(GRAPH, item.range).startswith('{\n      "id": "build"')
    assert item.data == {"uri": uri, "id": "build", "kind": "node"}
    incoming = {c.from_.name: c for c in await _incoming(client, item)}
    assert list(incoming) == ["plan", "tests", "review"]
    assert incoming["tests"].from_.detail.startswith("when fail · back edge of fix-tests · tests-failed")
    assert incoming["plan"].from_.detail == "always · plan-build — Plan · agent · planner"
    (rng,) = incoming["review"].from_ranges  # the edge review-failed's `from`
    assert _text(GRAPH, rng) == "review" and rng.start.line == _at(GRAPH, '"id": "review-failed"').line + 1
    outgoing = await _outgoing(client, item)
    assert [(c.to.name, c.to.detail) for c in outgoing] == [("tests", "always · build-tests — Tests · check")]
    (tests,) = await _prepare(client, uri, _at(GRAPH, '"id": "tests"', 8))
    assert [c.to.name for c in await _outgoing(client, tests)] == ["build", "review"]
    assert not await _prepare(client, uri, _at(GRAPH, '"goal"', 2))


async def test_call_hierarchy_map(client, tmp_path):
    uri = await _open(client, tmp_path, "shop.grooph-map.json", MAP)
    (item,) = await _prepare(client, uri, _at(MAP, '"to": "coder"', 8))
    assert item.name == "coder" and item.kind == lsp.SymbolKind.Class and item.data["kind"] == "session"
    (inc,) = await _incoming(client, item)
    assert inc.from_.name == "planner" and inc.from_.detail.startswith("session message · h-task")
    assert [_text(MAP, r) for r in inc.from_ranges] == ["planner"]
    (out,) = await _outgoing(client, item)
    assert out.to.name == "planner" and out.to.detail.startswith("pull request on acme/shop · h-result")


async def test_call_hierarchy_workflow(client, tmp_path):
    uri = await _open(client, tmp_path, "review.workflow.yaml", WORKFLOW)
    (ready,) = await _prepare(client, uri, _at(WORKFLOW, "target: ready", 9))
    assert ready.name == "ready" and ready.kind == lsp.SymbolKind.EnumMember
    assert _text(WORKFLOW, ready.selection_range) == "ready" and _text(WORKFLOW, ready.range).startswith("ready:\n")
    incoming = await _incoming(client, ready)
    assert [(c.from_.name, c.from_.detail.split(" — ")[0]) for c in incoming] == [
        ("initial", "entry"), ("building", "on failed · if card.failures < params.failure_limit")]
    assert incoming[0].from_.kind == lsp.SymbolKind.Event
    assert [_text(WORKFLOW, r) for r in incoming[1].from_ranges] == ["ready"]
    (building,) = await _prepare(client, uri, _at(WORKFLOW, "  building:", 3))
    assert [(c.to.name, c.to.detail.split(" — ")[0]) for c in await _outgoing(client, building)] == [
        ("review", "on handed_off"), ("ready", "on failed · if card.failures < params.failure_limit"),
        ("blocked", "on failed")]
    (initial,) = await _prepare(client, uri, _at(WORKFLOW, "initial:", 2))
    assert initial.name == "initial" and [c.to.name for c in await _outgoing(client, initial)] == ["ready"]
    assert _empty(await _incoming(client, initial))


async def test_stale_item_answers_no_calls(client, tmp_path):
    uri = await _open(client, tmp_path, "review.grooph.json", GRAPH)
    (item,) = await _prepare(client, uri, _at(GRAPH, '"id": "review"', 8))
    renamed = GRAPH.replace('"review"', '"critique"')
    change_text(client, uri, 2, renamed)
    await diagnostics_for(client, uri)
    assert _empty(await _incoming(client, item)) and _empty(await _outgoing(client, item))
    closed = lsp.CallHierarchyItem(name="x", kind=lsp.SymbolKind.Function, uri=uri, range=item.range,
                                   selection_range=item.selection_range, data={"nonsense": 1})
    assert _empty(await _incoming(client, closed))
    gone = lsp.CallHierarchyItem(name="x", kind=lsp.SymbolKind.Function, uri=(tmp_path / "no.grooph.json").as_uri(),
                                 range=item.range, selection_range=item.selection_range,
                                 data={"uri": (tmp_path / "no.grooph.json").as_uri(), "id": "x", "kind": "node"})
    assert _empty(await _outgoing(client, gone))


# ---- selection ranges ------------------------------------------------------------------------------------

async def test_selection_ranges_json(client, tmp_path):
    uri = await _open(client, tmp_path, "review.grooph.json", GRAPH)
    (sel,) = await _selection(client, uri, _at(GRAPH, '"to": "tests"', 8))
    chain = _chain(GRAPH, sel)
    assert chain[:3] == ["tests", '"tests"', '"to": "tests"']
    assert chain[3].startswith('{\n      "id": "build-tests"') and chain[3].endswith("}")
    assert chain[4].startswith("[") and chain[5].startswith('"edges": [')
    assert chain[-1] == GRAPH
    uri = await _open(client, tmp_path, "shop.grooph-map.json", MAP)
    a, b = await _selection(client, uri, _at(MAP, '"carrier"', 2), _at(MAP, '"id"', 1))
    chain = _chain(MAP, a)
    assert chain[:2] == ["carrier", '"carrier"'] and chain[2].startswith('"carrier": {') and chain[2].endswith("}")
    assert _chain(MAP, b)[:3] == ["id", '"id"', '"id": "tiny-shop"'] and _chain(MAP, b)[-1] == MAP


async def test_selection_ranges_yaml(client, tmp_path):
    uri = await _open(client, tmp_path, "review.workflow.yaml", WORKFLOW)
    flow, block = await _selection(client, uri, _at(WORKFLOW, "target: review", 9),
                                   _at(WORKFLOW, "guard: card", 9))
    assert _chain(WORKFLOW, flow)[:5] == ["review", "target: review", "{target: review}", "[{target: review}]",
                                         "handed_off: [{target: review}]"]
    chain = _chain(WORKFLOW, block)
    assert chain[0] == "card.failures < params.failure_limit"
    assert chain[1] == "guard: card.failures < params.failure_limit"
    assert chain[2] == "guard: card.failures < params.failure_limit\n          target: ready"
    assert any(c.startswith("building:\n") for c in chain) and chain[-1] == WORKFLOW


# ---- half-typed text -------------------------------------------------------------------------------------

async def test_half_typed_texts(client, tmp_path):
    """A graph cut in an edge, a map cut in a handoff, a workflow with a half-written transition: every
    request answers (no error), and what can be read is answered."""
    cut = GRAPH[: GRAPH.index('"id": "tests-review"')] + '"id": "t-r", "from": "tests", "to": "rev'
    uri = await _open(client, tmp_path, "cut.grooph.json", cut)
    found = await _highlights(client, uri, _at(cut, '"to": "tests"', 8))
    assert {_text(cut, h.range) for h in found} == {"tests"}
    (item,) = await _prepare(client, uri, _at(cut, '"id": "build"', 8))
    assert [c.from_.name for c in await _incoming(client, item)] == ["plan", "tests"]
    (sel,) = await _selection(client, uri, _pos(cut, len(cut) - 1))
    assert _chain(cut, sel)[-1] == cut
    assert await _prepare(client, uri, _pos(cut, len(cut) - 1)) is None  # in the cut `to`: names no node yet
    cut_map = MAP[: MAP.index('"h-result"') + 4]
    uri = await _open(client, tmp_path, "cut.grooph-map.json", cut_map)
    (end,) = await _prepare(client, uri, _at(cut_map, '"from": "planner"', 10))
    assert [c.to.name for c in await _outgoing(client, end)] == ["coder"]
    (sel,) = await _selection(client, uri, _pos(cut_map, len(cut_map)))
    assert _chain(cut_map, sel)[-1] == cut_map
    typed = WORKFLOW.replace("      start: [{target: building}]", "      start: [{target: buil")
    uri = await _open(client, tmp_path, "typed.workflow.yaml", typed)
    assert list(await _highlights(client, uri, _at(typed, "target: buil", 9))) == []  # the cut line is left out
    (blocked,) = await _prepare(client, uri, _at(typed, "target: blocked", 9))
    assert [c.from_.name for c in await _incoming(client, blocked)] == ["building"]
    (sel,) = await _selection(client, uri, _at(typed, "target: buil", 9))
    assert _chain(typed, sel)[-1] == typed
