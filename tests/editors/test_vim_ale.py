"""A real Vim with ALE, set up as docs/editors.md's "Vim + ALE" section says (issue 29 item 3): its
vimrc snippet is Vim's `-u`, only the paths of `grooph-lsp` and `grooph` are this checkout's. Vim runs
in a pseudo-terminal (as in a terminal: insert mode, the completion menu, ALE's jobs and timers), and
tests/editors/vim_ale_driver.vim does what a user does and records what ALE showed and did.

Checked: diagnostics at the right place; the first quick fix of `:ALECodeAction`; `:w` running the
`grooph fmt` fixer (also of a CRLF file and one with a byte-order mark, saved as `grooph fmt` writes
them); `:ALERename`; `:ALEHover` in the preview window; completion between empty quotes
(`"to": ""`, <C-x><C-o>, <C-y>) giving valid JSON; a workflow served and keeping its bytes.
"""

from __future__ import annotations

import fcntl
import json
import os
import pty
import re
import shutil
import struct
import subprocess
import sys
import termios
import threading
from pathlib import Path

import pytest

from tests.conftest import FIXTURES, ROOT
from tests.editors.test_neovim import GROOPH_CMD, _pythonpath, assert_completed, assert_renamed, grooph

VIM = os.environ.get("GROOPH_TEST_VIM") or shutil.which("vim")
DOCS = ROOT / "docs" / "editors.md"
DRIVER = Path(__file__).with_name("vim_ale_driver.vim")
REVIEW_LOOP = FIXTURES / "valid" / "review-loop.grooph.json"
WORKFLOW = FIXTURES / "workflow" / "valid" / "spec-example.workflow.yaml"


def _missing() -> str | None:
    if VIM is None:
        return "vim is not installed"
    probe = subprocess.run([VIM, "-N", "-u", "NONE", "-i", "NONE", "-Es", "-c", "packadd ale",
                            "-c", "if !exists('g:loaded_ale') | cquit | endif", "-c", "qall!"],
                           capture_output=True, timeout=60, stdin=subprocess.DEVNULL)
    return "vim cannot load ALE (packadd ale)" if probe.returncode != 0 else None


MISSING = _missing()
pytestmark = pytest.mark.skipif(
    MISSING is not None and os.environ.get("CI") != "true",
    reason=f"{MISSING} (Debian 12: apt-get install vim vim-ale); .ci/setup installs them",
)


def users_vimrc() -> str:
    """The vim block of docs/editors.md's "Vim + ALE" section, as a user pastes it into ~/.vimrc."""
    section = DOCS.read_text("utf-8").split("## Vim + ALE", 1)[1].split("\n## ", 1)[0]
    return re.search(r"```vim\n(.*?)```", section, re.S).group(1)


def _programs(tmp_path: Path) -> dict[str, Path]:
    """`grooph-lsp` and `grooph` of this checkout, at full paths (as the snippet asks)."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(exist_ok=True)
    commands = {"grooph-lsp": f'"{sys.executable}" -m grooph_lsp', "grooph": " ".join(f'"{c}"' for c in GROOPH_CMD)}
    out = {}
    for name, command in commands.items():
        program = bin_dir / name
        program.write_text(f'#!/bin/sh\nPYTHONPATH="{_pythonpath()}" exec {command} "$@"\n', "utf-8")
        program.chmod(0o755)
        out[name] = program
    return out


def run_vim(tmp_path: Path, scenario: str, file: Path, **plan) -> dict:
    """One scenario in a fresh Vim, in a pseudo-terminal, with the documented vimrc."""
    assert MISSING is None, MISSING
    vimrc = users_vimrc()
    programs = _programs(tmp_path)
    for var, name in (("g:grooph_lsp", "grooph-lsp"), ("g:grooph", "grooph")):
        line = re.compile(rf"^let {var} = expand\('~/[^']+/{name}'\)", re.M)
        assert line.search(vimrc), f"the snippet names {name} by its full path"
        vimrc = line.sub(f"let {var} = {json.dumps(str(programs[name]))}", vimrc)
    vimrc_file = tmp_path / f"{scenario}-vimrc"
    vimrc_file.write_text(vimrc, "utf-8")
    result_file = tmp_path / f"{scenario}-result.json"
    home = tmp_path / "home"
    home.mkdir(exist_ok=True)
    env = {
        **os.environ,
        "GROOPH_PLAN": json.dumps({"scenario": scenario, "file": str(file), "timeout_ms": 60000, **plan}),
        "GROOPH_RESULT": str(result_file),
        "HOME": str(home),  # neither the user's vimrc nor their packages: Vim as a new user has it
        "TERM": "xterm",
    }
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 160, 0, 0))
    proc = subprocess.Popen([VIM, "-N", "-u", str(vimrc_file), "-i", "NONE", "-n", "-S", str(DRIVER)],
                            cwd=file.parent, env=env, stdin=slave, stdout=slave, stderr=slave, close_fds=True)
    os.close(slave)
    screen = bytearray()

    def drain():  # what Vim draws; read so that it never blocks on a full terminal
        while True:
            try:
                chunk = os.read(master, 65536)
            except OSError:
                return
            if not chunk:
                return
            screen.extend(chunk)

    reader = threading.Thread(target=drain, daemon=True)
    reader.start()
    try:
        proc.wait(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        os.close(master)
        reader.join(timeout=5)
    said = screen.decode("utf-8", "replace")
    assert result_file.exists(), said[-3000:]
    result = json.loads(result_file.read_text("utf-8"))
    assert "error" not in result, (result, said[-3000:])
    return result


def test_diagnostics_at_their_place_and_the_first_quick_fix(tmp_path: Path):
    doc = tmp_path / "review.grooph.json"
    text = REVIEW_LOOP.read_text("utf-8").replace('"to": "tests"', '"to": "tsts"', 1)
    doc.write_text(text, "utf-8")
    r = run_vim(tmp_path, "quick-fix", doc)
    assert r["filetype"] == "grooph"
    expected = json.loads(grooph("validate", "--json", doc.name, cwd=tmp_path).stdout)["issues"]
    assert [d["code"] for d in r["diagnostics"]] == [i["code"] for i in expected]
    d = r["diagnostics"][0]
    line = text.split("\n")[d["lnum"] - 1]
    assert d["code"] == "E_DANGLING_REF" and line[d["col"] - 1 : d["end_col"]] == '"tsts"', (d, line)
    assert d["type"] == "E" and "tsts" in d["text"]
    assert "1) Point edge" in r["offered"][0], r["offered"]
    assert json.loads(r["buffer"]) == json.loads(REVIEW_LOOP.read_text("utf-8"))
    assert "E_DANGLING_REF" not in [a["code"] for a in r["after"]]


def test_a_column_after_non_ascii_text_is_counted_in_bytes_as_the_docs_say(tmp_path: Path):
    """ALE 3.3 takes the LSP column (UTF-16 units) as a byte column: after `é` (two bytes, one unit)
    on the line, the mark starts one byte left of the faulty string (docs/editors.md says so)."""
    doc = tmp_path / "review.grooph.json"
    text = REVIEW_LOOP.read_text("utf-8").replace('"to": "tests"', '"to": "tsts", "label": "é"', 1)
    text = text.replace('"to": "tsts", "label": "é"', '"label": "é", "to": "tsts"', 1)
    doc.write_text(text, "utf-8")
    r = run_vim(tmp_path, "quick-fix", doc)
    d = r["diagnostics"][0]
    line = text.split("\n")[d["lnum"] - 1].encode("utf-8")
    assert d["code"] == "E_DANGLING_REF" and line.index(b'"tsts"') == d["col"], (d, line)


@pytest.mark.parametrize("case", ["as written", "CRLF", "byte-order mark"])
def test_save_runs_the_fixer_and_writes_grooph_fmts_bytes(tmp_path: Path, case: str):
    doc = tmp_path / "review.grooph.json"
    text = json.dumps(json.loads(REVIEW_LOOP.read_text("utf-8")), indent=4, ensure_ascii=False) + "\n"
    raw = {"as written": text.encode("utf-8"), "CRLF": text.replace("\n", "\r\n").encode("utf-8"),
           "byte-order mark": b"\xef\xbb\xbf" + text.encode("utf-8")}[case]
    doc.write_bytes(raw)
    (tmp_path / "clean.grooph.json").write_text(text, "utf-8")
    canonical = grooph("fmt", "clean.grooph.json", cwd=tmp_path).stdout
    assert canonical and canonical != text
    r = run_vim(tmp_path, "save", doc)
    assert (r["visited"]["fileformat"], r["visited"]["bomb"]) == ("unix", 0), r["visited"]  # as it opened
    assert doc.read_bytes() == canonical.encode("utf-8")
    assert grooph("fmt", "--check", doc.name, cwd=tmp_path).returncode == 0


def test_a_workflow_keeps_its_bytes(tmp_path: Path):
    doc = tmp_path / "board.workflow.yaml"
    raw = WORKFLOW.read_text("utf-8").replace("\n", "\r\n").encode("utf-8")
    doc.write_bytes(raw)
    r = run_vim(tmp_path, "save", doc)
    assert r["filetype"] == "grooph-workflow" and r["visited"]["fileformat"] == "dos"
    assert doc.read_bytes() == raw


def test_rename_of_a_node_id(tmp_path: Path):
    doc = tmp_path / "review.grooph.json"
    text = REVIEW_LOOP.read_text("utf-8")
    doc.write_text(text, "utf-8")
    offset = text.index('"id": "tests"') + len('"id": "t')
    line = text.count("\n", 0, offset)
    r = run_vim(tmp_path, "rename", doc, at=[line, offset - (text.rfind("\n", 0, offset) + 1)], new_name="checks")
    assert_renamed(text, r["buffer"], "tests", "checks")


def test_hover_in_the_preview_window(tmp_path: Path):
    doc = tmp_path / "review.grooph.json"
    text = REVIEW_LOOP.read_text("utf-8")
    doc.write_text(text, "utf-8")
    offset = text.index('"goal"') + 2
    r = run_vim(tmp_path, "hover", doc, at=[text.count("\n", 0, offset), offset - (text.rfind("\n", 0, offset) + 1)])
    assert "goal" in r["hover"], r["hover"]


def test_completion_of_an_id_between_empty_quotes(tmp_path: Path):
    """`"to": ""`, <C-x><C-o>, <C-y> on the first id: `"to": "<id>"` and valid JSON (issue 29: ALE
    inserted the item's text at the cursor, `"plan""`)."""
    doc = tmp_path / "review.grooph.json"
    base = REVIEW_LOOP.read_text("utf-8")
    text = base.replace('"to": "tests"', '"to": ""', 1)
    doc.write_text(text, "utf-8")
    offset = text.index('"to": ""') + len('"to": "')
    r = run_vim(tmp_path, "complete", doc, at=[text.count("\n", 0, offset), offset - (text.rfind("\n", 0, offset) + 1)])
    ids = [n["id"] for n in json.loads(base)["nodes"]]
    assert r["menu"], r
    chosen = r["menu"][0]["word"].strip('"')  # the id, whatever the item's text
    assert chosen in ids, r["menu"]
    assert_completed(r, base, chosen)
