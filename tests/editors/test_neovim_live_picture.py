"""`:GroophPreview` in a real headless Neovim opens the live picture (issue 29 item 4): the plugin runs
`grooph.preview` on the server, which serves the buffer's page on 127.0.0.1 and asks Neovim to open it
externally (window/showDocument, where Neovim announces it: 0.10+); where it does not (0.7-0.9), the
plugin opens the address itself. The address is said either way. The page itself is tested in
test_live_picture.py (Chromium) and tests/lsp/test_live_picture_server.py."""

from __future__ import annotations

import re
from pathlib import Path

from tests.editors.test_neovim import DANGLING, neovim, pytest_generate_tests, run_nvim  # noqa: F401  (each Neovim build, as test_neovim)
from tests.conftest import FIXTURES

ADDRESS = re.compile(r"http://127\.0\.0\.1:\d+/[A-Za-z0-9_-]{40,}/d\d+(\?view=\w+)?\Z")


def _opened(r: dict) -> list[str]:
    live = r["live"]
    return [d["uri"] for d in live["shown"] if d.get("external")] + list(live["opened"])


def test_preview_opens_the_live_page(tmp_path: Path):
    doc = tmp_path / "review.grooph.json"
    doc.write_text(DANGLING, "utf-8")
    r = run_nvim(tmp_path, "live_preview", doc)
    live = r["live"]
    assert live["error"] is None, (live, r["notifications"])
    assert ADDRESS.match(live["url"]), live["url"]
    assert _opened(r) == [live["url"]], live  # opened once: by Neovim (showDocument) or by the plugin
    assert any(live["url"] in n["message"] for n in r["notifications"]), r["notifications"]


def test_preview_of_a_map_opens_its_view_and_a_workflow_has_a_page_too(tmp_path: Path):
    doc = tmp_path / "bakery.grooph-map.json"
    doc.write_text((FIXTURES / "maps" / "valid" / "bakery-ops.grooph-map.json").read_text("utf-8"), "utf-8")
    r = run_nvim(tmp_path, "live_preview", doc, view="wide")
    assert r["live"]["error"] is None and r["live"]["url"].endswith("?view=wide"), (r["live"], r["notifications"])
    flow = tmp_path / "review.workflow.yaml"
    flow.write_text((FIXTURES / "workflow" / "valid" / "spec-example.workflow.yaml").read_text("utf-8"), "utf-8")
    r = run_nvim(tmp_path, "live_preview", flow)
    assert r["live"]["error"] is None and ADDRESS.match(r["live"]["url"]), (r["live"], r["notifications"])
