"""The live picture in a real browser (issue 29 item 4): Debian's Chromium, headless, opens the page that
`grooph.preview` gives; typing into the document through an LSP client changes the picture (zoom and
scroll kept), a text that does not read shows its fault beside the last picture, the page follows the
system's dark scheme and the map views, a click on a node or a handoff's row asks the editor to reveal
its definition (`window/showDocument` with the id's range), and the page's policy blocks nothing of its
own (no CSP report in the console)."""

from __future__ import annotations

import json
import os

import pytest
import pytest_lsp
from lsprotocol import types as lsp
from pytest_lsp import ClientServerConfig, LanguageClient

from bench.headless_page import CHROMIUM, HeadlessPage
from tests.conftest import FIXTURES
from tests.lsp.conftest import SERVER, change_text, diagnostics_for, open_text, start, wait_for

GRAPH = (FIXTURES / "valid" / "review-loop.grooph.json").read_text("utf-8")
MAP = (FIXTURES / "maps" / "valid" / "bakery-ops.grooph-map.json").read_text("utf-8")
SVG = "document.querySelector('#holder > svg')"

pytestmark = pytest.mark.skipif(  # in CI (CI=true) a missing Chromium fails the tests rather than skip them
    not HeadlessPage.available() and os.environ.get("CI") != "true",
    reason=f"{CHROMIUM} is needed (Debian: apt-get install chromium); .ci/setup installs it")


@pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER))
async def client(lsp_client: LanguageClient):
    await start(lsp_client)
    yield lsp_client
    await lsp_client.shutdown_session()


@pytest.fixture
async def page():
    p = await HeadlessPage().start()
    yield p
    await p.close()


async def _live(client, tmp_path, name, text):
    uri = (tmp_path / name).as_uri()
    open_text(client, uri, text)
    await diagnostics_for(client, uri)
    result = await client.workspace_execute_command_async(lsp.ExecuteCommandParams(command="grooph.preview", arguments=[uri]))
    shown = await wait_for(lambda: [d for d in client.shown_documents if d.external])
    assert shown[0].uri == result["url"]
    return uri, result["url"]


def _selected(text: str, doc: lsp.ShowDocumentParams) -> tuple[str, str]:
    sel = doc.selection
    line = text.splitlines()[sel.start.line]
    return line[sel.start.character:sel.end.character], line


async def test_typing_redraws_the_page_and_a_click_reveals_the_node(client, page, tmp_path):
    uri, url = await _live(client, tmp_path, "review.grooph.json", GRAPH)
    await page.open(url)
    await page.until(f"!!({SVG} && {SVG}.querySelector('[data-node=\"plan\"]'))", what="the first picture")
    assert await page.evaluate("document.getElementById('status').textContent") == "Live"
    # zoom in and scroll: both are kept across redraws
    for _ in range(3):
        await page.click("#in")
    await page.evaluate("document.getElementById('stage').scrollTop = 120, document.getElementById('stage').scrollLeft = 40")
    width = await page.evaluate(f"{SVG}.style.width")
    scroll = await page.evaluate("[document.getElementById('stage').scrollTop, document.getElementById('stage').scrollLeft]")
    assert width.endswith("px") and scroll[0] > 0

    doc = json.loads(GRAPH)
    doc["nodes"][0]["name"] = "Typed in the editor"
    typed = json.dumps(doc, indent=2) + "\n"
    change_text(client, uri, 2, typed)
    await page.until(f"{SVG}.textContent.includes('Typed in the editor')", what="the typed name in the picture")
    assert await page.evaluate(f"{SVG}.style.width") == width
    assert await page.evaluate("[document.getElementById('stage').scrollTop, document.getElementById('stage').scrollLeft]") == scroll

    # a broken text: the fault is shown and the last picture stays
    change_text(client, uri, 3, typed[: len(typed) // 3])
    fault = await page.until("!document.getElementById('fault').hidden && document.getElementById('fault').textContent",
                             what="the fault")
    assert "not valid JSON" in fault
    assert await page.evaluate(f"{SVG}.textContent.includes('Typed in the editor')")
    change_text(client, uri, 4, typed)
    await page.until("document.getElementById('fault').hidden", what="the fault to go")

    # a click on the node `review` asks the editor to show its id's definition
    client.shown_documents.clear()
    await page.click('[data-node="review"]')
    shown = await wait_for(lambda: [d for d in client.shown_documents if d.uri == uri])
    word, line = _selected(typed, shown[0])
    assert word == "review" and line.strip().startswith('"id"')
    assert not [entry for entry in page.logs if "Content Security Policy" in entry or "exception" in entry], page.logs


async def test_the_page_follows_the_dark_scheme_and_the_map_views(client, page, tmp_path):
    uri, url = await _live(client, tmp_path, "bakery.grooph-map.json", MAP)
    await page.call("Emulation.setEmulatedMedia", features=[{"name": "prefers-color-scheme", "value": "light"}])
    await page.open(url)
    await page.until(f"{SVG} && {SVG}.getAttribute('data-picture') === 'map'", what="the phone picture")
    background = f"getComputedStyle({SVG}.querySelector('rect')).fill"
    assert await page.evaluate(background) == "rgb(241, 244, 243)"  # pictures.md §1.4 bg, light
    await page.call("Emulation.setEmulatedMedia", features=[{"name": "prefers-color-scheme", "value": "dark"}])
    assert await page.until(f"{background} === 'rgb(17, 21, 20)' && {background}", what="the dark background")
    # the setting wins over the system's scheme
    client.workspace_did_change_configuration(lsp.DidChangeConfigurationParams(settings={"grooph": {"preview": {"theme": "light"}}}))
    await page.until(f"{background} === 'rgb(241, 244, 243)'", what="the light background the setting asks for")
    assert await page.evaluate("getComputedStyle(document.body).backgroundColor") == "rgb(241, 244, 243)"
    assert not await page.evaluate("document.getElementById('views').hidden")
    await page.click('#views button[data-view="sequence"]')
    await page.until(f"{SVG}.getAttribute('data-picture') === 'sequence'", what="the sequence view")
    await page.click('#views button[data-view="wide"]')
    await page.until(f"!!({SVG}.getAttribute('data-picture') === 'map' && {SVG}.querySelector('[data-lane=\"cloud\"]')"
                     f" && {SVG}.getAttribute('width') !== '400')", what="the wide layout")
    # typing keeps the chosen view
    change_text(client, uri, 2, MAP.replace('"name": "Taster"', '"name": "Critic"'))
    await page.until(f"{SVG}.textContent.includes('Critic') && {SVG}.getAttribute('width') !== '400'",
                     what="the renamed session in the wide layout")
    client.shown_documents.clear()
    await page.click('[data-handoff-row="h-pr"]')
    shown = await wait_for(lambda: [d for d in client.shown_documents if d.uri == uri])
    assert _selected(MAP, shown[0])[0] == "h-pr"
    assert not [entry for entry in page.logs if "Content Security Policy" in entry or "exception" in entry], page.logs
