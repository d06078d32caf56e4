"""Completion and formatting of the neighbouring formats through the real server (issue 15 point 5):
a workflow's keys and names on half-typed YAML, an episode record's words and `current`, a board's task
ids; a board and an episode record formatted in the seed's written form, a workflow refused (once) with
the reason."""

from __future__ import annotations

import json

from lsprotocol import types as lsp

from grooph_core.model.episodes import standings
from grooph_core.source.yaml_reader import parse_yaml
from tests.conftest import FIXTURES
from tests.lsp.conftest import diagnostics_for, open_text
from tests.lsp.test_neighbour_features import _apply as _apply_edits
from tests.lsp.test_neighbour_features import _pos

WORKFLOW = (FIXTURES / "workflow" / "valid" / "spec-example.workflow.yaml").read_text("utf-8")
BOARD = (FIXTURES / "board" / "valid" / "checkout.board.json").read_text("utf-8")
EPISODES = (FIXTURES / "episodes" / "valid" / "busy-store.episodes.json").read_text("utf-8")


def _apply(text: str, edits) -> str:
    return _apply_edits(text, sorted(edits, key=lambda e: (e.range.start.line, e.range.start.character)))


async def _complete(client, tmp_path, name: str, marked: str, language_id: str = "json"):
    at = marked.index("|")
    text = marked[:at] + marked[at + 1:]
    uri = (tmp_path / name).as_uri()
    open_text(client, uri, text, language_id=language_id)
    await diagnostics_for(client, uri)
    result = await client.text_document_completion_async(lsp.CompletionParams(
        text_document=lsp.TextDocumentIdentifier(uri=uri), position=_pos(text, at)))
    return text, result.items


def _choose(text: str, item: lsp.CompletionItem) -> str:
    return _apply(text, [item.text_edit, *(item.additional_text_edits or [])])


async def test_workflow_target_offers_the_statuses(client, tmp_path):
    marked = WORKFLOW.replace("handed_off: [{target: review}]", "handed_off: [{target: rev|}]")
    text, items = await _complete(client, tmp_path, "review.workflow.yaml", marked, "yaml")
    assert [i.label for i in items] == ["ready", "building", "review", "blocked", "done"]
    review = next(i for i in items if i.label == "review")
    assert review.kind == lsp.CompletionItemKind.Reference and review.detail == "status"
    assert parse_yaml(_choose(text, review)).value == parse_yaml(WORKFLOW).value


async def test_workflow_keys_on_a_half_typed_line(client, tmp_path):
    marked = WORKFLOW.replace("    stored_as: running\n", "    stored_as: running\n    run:\n      |\n")
    text, items = await _complete(client, tmp_path, "half.workflow.yaml", marked, "yaml")
    assert [i.label for i in items][:2] == ["role", "session"]
    role = items[0]
    assert role.kind == lsp.CompletionItemKind.Property and role.detail == "required · string"
    assert role.documentation.startswith("The role whose lane")  # plain text: the client names no format
    after = _choose(text, role)
    assert "    run:\n      role: \n" in after
    # a `- ` item of a transition list, and an enum word inside a flow mapping
    marked = WORKFLOW.replace("        - target: blocked", "        - target: blocked\n        - |")
    _, items = await _complete(client, tmp_path, "item.workflow.yaml", marked, "yaml")
    assert {"guard", "target", "by"} <= {i.label for i in items}
    marked = WORKFLOW.replace("scope: board", "scope: |")
    text, items = await _complete(client, tmp_path, "cap.workflow.yaml", marked, "yaml")
    assert [i.label for i in items] == ["global", "board", "machine", "profile"]
    assert parse_yaml(_choose(text, items[1])).value == parse_yaml(WORKFLOW).value


CAPACITY = "    - {name: two at a time, scope: board, counts: runs, max: 2}\n"


async def test_a_key_completed_in_a_flow_mapping_before_a_key_is_followed_by_one_comma_and_space(client, tmp_path):
    """A key chosen in a YAML flow mapping where another key follows: the line reads as typed by hand,
    `key: value, next: …` (one comma, one space), and the document reads with both keys (issue 30 item 8)."""
    cases = [("    - {| name: x}\n", "scope", "    - {scope: global, name: x}\n"),
             ("    - {name: x, | scope: board}\n", "counts", "    - {name: x, counts: runs, scope: board}\n"),
             ("    - {name: x,| scope: board}\n", "counts", "    - {name: x, counts: runs, scope: board}\n")]
    for n, (line, label, expected) in enumerate(cases):
        marked = WORKFLOW.replace(CAPACITY, line)
        text, items = await _complete(client, tmp_path, f"flow{n}.workflow.yaml", marked, "yaml")
        after = _choose(text, next(i for i in items if i.label == label))
        assert after == text.replace(line.replace("|", ""), expected), line
        assert label in parse_yaml(after).value["dispatch"]["capacity"][0]
    # a status named by a target and not defined yet, before the one written
    marked = "initial: [{target: ready}, {target: review}]\nstatuses: {| ready: {}}\ndispatch: {tick: 30, start: start}\n"
    text, items = await _complete(client, tmp_path, "names.workflow.yaml", marked, "yaml")
    (review,) = items
    assert _choose(text, review) == text.replace("{ ready: {}}", "{review: {}, ready: {}}")


async def test_workflow_key_completion_as_a_snippet(raw_client, tmp_path):
    from tests.lsp.conftest import push_capabilities, start

    caps = push_capabilities()
    caps.text_document.completion = lsp.CompletionClientCapabilities(
        completion_item=lsp.ClientCompletionItemOptions(snippet_support=True))
    await start(raw_client, capabilities=caps)
    marked = WORKFLOW.replace("  blocked: {stored_as: blocked}", "  blocked:\n    |")
    _, items = await _complete(raw_client, tmp_path, "snip.workflow.yaml", marked, "yaml")
    on = next(i for i in items if i.label == "on")
    assert on.insert_text_format == lsp.InsertTextFormat.Snippet and on.text_edit.new_text == "on: {$1}"


async def test_episode_record_standing_and_current(client, tmp_path):
    marked = EPISODES.replace('"standing": "open"', '"standing": "|"', 1)
    text, items = await _complete(client, tmp_path, "state.episodes.json", marked)
    assert [i.label for i in items] == list(standings())
    assert json.loads(_choose(text, items[1])) == json.loads(EPISODES)
    marked = EPISODES.replace('"current": "s-0002"', '"current": "|"', 1)
    text, items = await _complete(client, tmp_path, "cur.episodes.json", marked)
    assert [i.label for i in items] == ["s-0001", "s-0002"]
    marked = EPISODES.replace('"path": "a.yaml",', '"path": "a.yaml", |', 1)
    text, items = await _complete(client, tmp_path, "keys.episodes.json", marked)
    owner = next(i for i in items if i.label == "owner")
    assert owner.documentation == "Who opened it."
    assert json.loads(_choose(text, owner))["episodes"][0]["owner"] == ""


async def test_board_dependency_offers_task_ids(client, tmp_path):
    parent = json.loads(BOARD)["dependencies"][0]["parent"]
    marked = BOARD.replace(f'"parent": "{parent}"', '"parent": |', 1)
    text, items = await _complete(client, tmp_path, "checkout.board.json", marked)
    assert [i.label for i in items] == list(json.loads(BOARD)["tasks"])
    chosen = next(i for i in items if i.label == parent)
    assert json.loads(_choose(text, chosen)) == json.loads(BOARD)


async def _format(client, uri):
    return await client.text_document_formatting_async(lsp.DocumentFormattingParams(
        text_document=lsp.TextDocumentIdentifier(uri=uri), options=lsp.FormattingOptions(tab_size=2, insert_spaces=True)))


async def test_board_and_episode_record_are_formatted(client, tmp_path):
    board = json.loads(BOARD)
    text = json.dumps({"tasks": board["tasks"], "root": board["root"], "slug": board["slug"], "x": 1})
    uri = (tmp_path / "flat.board.json").as_uri()
    open_text(client, uri, text)
    await diagnostics_for(client, uri)
    out = _apply(text, await _format(client, uri))
    assert json.loads(out) == json.loads(text)
    assert out.startswith('{\n  "slug": "checkout",\n  "root": ')
    assert out.endswith('\n  "x": 1\n}\n')
    uri = (tmp_path / "busy.episodes.json").as_uri()
    text = json.dumps(json.loads(EPISODES))
    open_text(client, uri, text)
    await diagnostics_for(client, uri)
    assert _apply(text, await _format(client, uri)) == EPISODES


async def test_workflow_formatting_is_refused_once_with_the_reason(client, tmp_path):
    uri = (tmp_path / "review.workflow.yaml").as_uri()
    open_text(client, uri, WORKFLOW, language_id="yaml")
    await diagnostics_for(client, uri)
    assert await _format(client, uri) is None
    told = [m for m in client.messages if m.message.startswith("Workflows are not formatted")]
    assert len(told) == 1 and told[0].type == lsp.MessageType.Info and "comments" in told[0].message
    assert await _format(client, uri) is None  # formatting on save: not said again
    assert len([m for m in client.messages if m.message.startswith("Workflows are not formatted")]) == 1
