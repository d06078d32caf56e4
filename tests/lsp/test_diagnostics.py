"""Diagnostics as you type (issue 4 item 2): exact ranges, codes, settings, debounce, pull and push."""

from __future__ import annotations

import asyncio
import json

import pytest
from lsprotocol import types as lsp

from tests.lsp.conftest import change_text, diagnostics_for, dumps, open_text, start, wait_for
from tests.lsp.docs import CLEAN, DANGLING, STUDIO_MAP, graph


def _find(text: str, needle: str, nth: int = 0) -> tuple[int, int]:
    """0-based (line, UTF-16 column) of the nth occurrence of needle."""
    pos = -1
    for _ in range(nth + 1):
        pos = text.index(needle, pos + 1)
    line = text.count("\n", 0, pos)
    col_text = text[text.rfind("\n", 0, pos) + 1: pos]
    return line, len(col_text.encode("utf-16-le")) // 2


async def test_dangling_reference_is_underlined_with_its_code(client, tmp_path):
    uri = (tmp_path / "plan.grooph.json").as_uri()
    text = dumps(DANGLING)
    open_text(client, uri, text)
    diags = await diagnostics_for(client, uri)
    assert [d.code for d in diags] == ["E_DANGLING_REF"]
    d = diags[0]
    line, col = _find(text, '"ghost"')
    assert (d.range.start.line, d.range.start.character) == (line, col)
    assert (d.range.end.line, d.range.end.character) == (line, col + len('"ghost"'))
    assert d.severity == lsp.DiagnosticSeverity.Error
    assert d.source == "grooph"
    assert "ghost" in d.message and "e2" in d.message
    assert d.code_description is not None and "e_dangling_ref" in d.code_description.href
    assert d.data["pointers"] == ["/edges/1/to"]


async def test_clean_document_publishes_empty_list(client, tmp_path):
    uri = (tmp_path / "ok.grooph.json").as_uri()
    open_text(client, uri, dumps(CLEAN))
    assert list(await diagnostics_for(client, uri)) == []


async def test_positions_count_utf16_after_emoji_and_cjk(client, tmp_path):
    doc = graph(edges=[{"id": "e1", "from": "w", "to": "end", "label": "🚀 発射 🚀"}, {"id": "e2", "from": "w", "to": "ghost"}])
    text = json.dumps(doc, ensure_ascii=False)  # one line: the emoji sit before the fault
    uri = (tmp_path / "emoji.grooph.json").as_uri()
    open_text(client, uri, text)
    (d,) = await diagnostics_for(client, uri)
    line, col = _find(text, '"ghost"')
    assert line == 0
    assert d.range.start.character == col
    # a code-point count would be smaller by one per emoji (each is two UTF-16 units)
    assert col == text.index('"ghost"') + 2


async def test_broken_document_keeps_reporting_the_sound_parts(client, tmp_path):
    text = dumps(DANGLING)
    # remove the comma after the first node's "name" member: a syntax error inside /nodes/0
    broken = text.replace('"name": "W",', '"name": "W"', 1)
    uri = (tmp_path / "broken.grooph.json").as_uri()
    open_text(client, uri, broken)
    diags = await diagnostics_for(client, uri)
    codes = [d.code for d in diags]
    assert "E_SYNTAX" in codes
    syntax = next(d for d in diags if d.code == "E_SYNTAX")
    line, _ = _find(broken, '"role": "builder"')
    assert syntax.range.start.line in (line - 1, line)
    # the dangling edge elsewhere is still reported, at its exact place
    dangling = [d for d in diags if d.code == "E_DANGLING_REF"]
    assert len(dangling) == 1
    assert dangling[0].range.start.line == _find(broken, '"ghost"')[0]


async def test_close_clears_diagnostics(client, tmp_path):
    uri = (tmp_path / "x.grooph.json").as_uri()
    open_text(client, uri, dumps(DANGLING))
    assert await diagnostics_for(client, uri)
    client.text_document_did_close(lsp.DidCloseTextDocumentParams(text_document=lsp.TextDocumentIdentifier(uri=uri)))
    await wait_for(lambda: client.diagnostics.get(uri) is not None and len(client.diagnostics[uri]) == 0)


async def test_other_json_files_are_ignored_quietly(client, tmp_path):
    uri = (tmp_path / "package.json").as_uri()
    open_text(client, uri, '{"name": "x", "version": "1.0.0"}')
    claimed = (tmp_path / "plan.json").as_uri()
    open_text(client, claimed, dumps(DANGLING))
    diags = await diagnostics_for(client, claimed)
    assert [d.code for d in diags] == ["E_DANGLING_REF"]
    await asyncio.sleep(0.2)
    assert uri not in client.diagnostics


async def test_a_claim_typed_into_a_plain_json_file_is_served_from_that_version(client, tmp_path):
    """Whether a plain `.json` file is served is the core's `kinds.claims_grooph` of each version's
    text (asked once per version): typing the claim in starts the diagnostics and the outline, taking
    it out stops them."""
    uri = (tmp_path / "notes.json").as_uri()

    def symbols():
        return client.text_document_document_symbol_async(
            lsp.DocumentSymbolParams(text_document=lsp.TextDocumentIdentifier(uri=uri)))

    open_text(client, uri, '{"name": "x"}')
    await asyncio.sleep(0.2)
    assert uri not in client.diagnostics and not await symbols()
    change_text(client, uri, 2, dumps(DANGLING))
    assert [d.code for d in await diagnostics_for(client, uri)] == ["E_DANGLING_REF"]
    assert await symbols()
    change_text(client, uri, 3, dumps({k: v for k, v in DANGLING.items() if k != "grooph"}))
    await wait_for(lambda: len(client.diagnostics[uri]) == 0)
    assert not await symbols()


async def test_map_by_name_is_served(client, tmp_path):
    uri = (tmp_path / "studio.grooph-map.json").as_uri()
    open_text(client, uri, dumps(STUDIO_MAP))
    diags = await diagnostics_for(client, uri)
    assert "E_HANDOFF_NO_CARRIER" in [d.code for d in diags]


async def test_incremental_change_moves_the_diagnostic(client, tmp_path):
    uri = (tmp_path / "inc.grooph.json").as_uri()
    text = dumps(DANGLING)
    open_text(client, uri, text)
    await diagnostics_for(client, uri)
    line, col = _find(text, '"ghost"')
    rng = lsp.Range(start=lsp.Position(line=line, character=col + 1), end=lsp.Position(line=line, character=col + 6))
    client.diagnostics.pop(uri)
    change_text(client, uri, 2, "end", rng)  # ghost -> end: the fault is gone
    assert list(await diagnostics_for(client, uri)) == []


class _Recording(dict):
    """Records every publish the client receives, in order."""

    def __init__(self):
        super().__init__()
        self.log: list[tuple[str, int]] = []

    def __setitem__(self, uri, diags):
        self.log.append((uri, len(diags)))
        super().__setitem__(uri, diags)


async def test_debounced_burst_publishes_only_the_newest_version(raw_client, tmp_path):
    client = raw_client
    await start(client, options={"grooph": {"debounceMs": 300}})
    client.diagnostics = rec = _Recording()
    uri = (tmp_path / "burst.grooph.json").as_uri()
    open_text(client, uri, dumps(CLEAN))
    await wait_for(lambda: rec.log == [(uri, 0)])
    # odd versions dangle, even ones are clean; 7 is the last. Sent back to back, as the changes of one
    # edit come: the wait (the document's own analysis time, issue 13) lets them arrive together.
    for v in range(2, 8):
        change_text(client, uri, v, dumps(DANGLING if v % 2 else CLEAN))
    await wait_for(lambda: client.diagnostics.get(uri) and len(rec.log) >= 2)
    await asyncio.sleep(0.6)
    # at most a publish for each version (usually just the newest), in order, ending with version 7's issue
    assert len(rec.log) <= 7 and rec.log[-1] == (uri, 1)
    assert [d.code for d in client.diagnostics[uri]] == ["E_DANGLING_REF"]


async def test_complete_setting_from_initialization_options(raw_client, tmp_path):
    await start(raw_client, options={"grooph": {"debounceMs": 0, "complete": True}})
    uri = (tmp_path / "x.grooph.json").as_uri()
    open_text(raw_client, uri, dumps(CLEAN))
    diags = await diagnostics_for(raw_client, uri)
    assert [d.code for d in diags] == ["E_NO_TARGET", "E_NO_GOAL"]


async def test_settings_change_applies_without_restart(raw_client, tmp_path):
    await start(raw_client, options={"grooph": {"debounceMs": 0}}, configuration={"grooph": {"complete": False}})
    uri = (tmp_path / "x.grooph.json").as_uri()
    open_text(raw_client, uri, dumps(CLEAN))
    assert list(await diagnostics_for(raw_client, uri)) == []
    raw_client.set_configuration({"grooph": {"complete": True, "debounceMs": 0}})
    raw_client.diagnostics.pop(uri)
    raw_client.workspace_did_change_configuration(lsp.DidChangeConfigurationParams(settings=None))
    diags = await diagnostics_for(raw_client, uri)
    assert [d.code for d in diags] == ["E_NO_TARGET", "E_NO_GOAL"]


async def test_configuration_from_workspace_configuration_request(raw_client, tmp_path):
    await start(raw_client, options={}, configuration={"grooph": {"complete": True, "debounceMs": 0}})
    uri = (tmp_path / "x.grooph.json").as_uri()
    await asyncio.sleep(0.2)  # let the server fetch its configuration after `initialized`
    open_text(raw_client, uri, dumps(CLEAN))
    diags = await wait_for(lambda: raw_client.diagnostics.get(uri) and raw_client.diagnostics[uri])
    assert [d.code for d in diags] == ["E_NO_TARGET", "E_NO_GOAL"]


async def test_pull_model_when_the_client_supports_it(raw_client, tmp_path):
    caps = lsp.ClientCapabilities(
        text_document=lsp.TextDocumentClientCapabilities(diagnostic=lsp.DiagnosticClientCapabilities(dynamic_registration=False)),
    )
    await start(raw_client, capabilities=caps)
    uri = (tmp_path / "pull.grooph.json").as_uri()
    open_text(raw_client, uri, dumps(DANGLING))
    report = await raw_client.text_document_diagnostic_async(lsp.DocumentDiagnosticParams(text_document=lsp.TextDocumentIdentifier(uri=uri)))
    assert [d.code for d in report.items] == ["E_DANGLING_REF"]
    again = await raw_client.text_document_diagnostic_async(lsp.DocumentDiagnosticParams(
        text_document=lsp.TextDocumentIdentifier(uri=uri), previous_result_id=report.result_id))
    assert again.kind == "unchanged"
    await asyncio.sleep(0.2)
    assert uri not in raw_client.diagnostics  # nothing pushed to a pull client
