"""A real Emacs with lsp-mode, set up as docs/editors.md's "Emacs (lsp-mode)" section says (issue 29
item 3): its snippet is the init file, only the path of `grooph-lsp` is this checkout's server; in
`emacs --batch`, tests/editors/emacs_lsp_mode_driver.el does what a user does and records it.

Checked: the client starts without the project-root prompt and the snippet warning; diagnostics at
the right place; the first quick fix `RET` takes in `M-x lsp-execute-code-action`; format on save
giving `grooph fmt`'s bytes (also of a CRLF file); a byte-order mark reported as `grooph validate`
does; rename; the hover of `M-x lsp-describe-thing-at-point`; completion between empty quotes (`"to": ""`, a candidate chosen) giving valid JSON;
a board workflow served; the documented column shift after an emoji (lsp-mode 8 counts characters).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests.editors.test_emacs import REVIEW_LOOP, WORKFLOW, _position, emacs_missing, run_emacs
from tests.editors.test_neovim import DANGLING, assert_completed, assert_renamed, grooph


MISSING = emacs_missing(("lsp-mode", "yaml-mode"))
pytestmark = pytest.mark.skipif(
    MISSING is not None and os.environ.get("CI") != "true",
    reason=f"{MISSING} (Debian 12: apt-get install emacs-nox elpa-lsp-mode elpa-yaml-mode); .ci/setup installs them",
)

DRIVER = Path(__file__).with_name("emacs_lsp_mode_driver.el")
# Only characters of the Basic Multilingual Plane, where lsp-mode's columns (characters) are LSP's (UTF-16).
BMP_DANGLING = DANGLING.replace("🌍", "☀").replace("🚀", "☂")


def run(tmp_path: Path, scenario: str, file: Path, **plan) -> dict:
    assert MISSING is None, MISSING
    r = run_emacs(tmp_path, scenario, file, heading="## Emacs (lsp-mode)", driver=DRIVER, **plan)
    said = r["said"]
    assert "Yasnippet is not installed" not in said, said[-2000:]
    assert "project root" not in said.lower() or "import project" not in said.lower(), said[-2000:]
    return r


def test_diagnostics_at_their_place_and_the_first_quick_fix(tmp_path: Path):
    doc = tmp_path / "review.grooph.json"
    doc.write_text(BMP_DANGLING, "utf-8")
    r = run(tmp_path, "quick-fix", doc)
    assert r["major_mode"] == "grooph-mode" and r["language_id"] == "grooph"
    assert list(r["codes"]) == ["E_DANGLING_REF"], r
    d = r["diagnostics"][0]
    assert [d["start"], d["end"]] == _position(BMP_DANGLING, '"reveiw"'), d
    assert d["type"] in ("error", ":error", "eglot-error") and "reveiw" in d["message"], d
    assert r["actions"] and r["actions"][0].startswith("Point edge"), r["actions"]
    assert json.loads(r["buffer"])["edges"][0]["to"] == "review"
    assert r["after"] == []


def test_columns_after_an_emoji_are_off_as_the_docs_say(tmp_path: Path):
    """lsp-mode 8.0 takes LSP's UTF-16 columns as characters: after one 🌍 (two UTF-16 units) on the
    line, the diagnostic starts one character right of the string (docs/editors.md says so)."""
    doc = tmp_path / "review.grooph.json"
    text = BMP_DANGLING.replace('"label": "☀', '"label": "🌍')
    doc.write_text(text, "utf-8")
    r = run(tmp_path, "diagnostics", doc)
    (line, col), _ = _position(text, '"reveiw"')
    assert r["diagnostics"][0]["start"] == [line, col + 1], r["diagnostics"]


def test_format_on_save_writes_what_grooph_fmt_writes(tmp_path: Path):
    doc = tmp_path / "review.grooph.json"
    doc.write_text(DANGLING.replace('"reveiw"', '"review"'), "utf-8")
    canonical = grooph("fmt", doc.name, cwd=tmp_path).stdout
    run(tmp_path, "save", doc)
    assert doc.read_bytes() == canonical.encode("utf-8")


def test_a_crlf_file_is_saved_with_lf_as_grooph_fmt_writes_it(tmp_path: Path):
    doc = tmp_path / "crlf.grooph.json"
    text = BMP_DANGLING.replace('"reveiw"', '"review"')
    doc.write_bytes(text.replace("\n", "\r\n").encode("utf-8"))
    canonical = grooph("fmt", doc.name, cwd=tmp_path).stdout
    r = run(tmp_path, "save", doc)
    assert r["coding"] == "utf-8-unix" and r["visited"] == text
    assert doc.read_bytes() == canonical.encode("utf-8")
    assert grooph("fmt", "--check", doc.name, cwd=tmp_path).returncode == 0


def test_a_byte_order_mark_is_reported_as_grooph_validate_does(tmp_path: Path):
    doc = tmp_path / "bom.grooph.json"
    data = b"\xef\xbb\xbf" + REVIEW_LOOP.read_bytes()
    doc.write_bytes(data)
    r = run(tmp_path, "diagnostics", doc, save=True)
    assert r["visited"].startswith("\ufeff{")
    assert list(r["codes"]) == ["E_SYNTAX"], r
    assert r["diagnostics"][0]["start"] == [0, 0]
    assert "byte-order mark (U+FEFF) at the start is not JSON" in r["diagnostics"][0]["message"]
    assert doc.read_bytes() == data


def test_rename_of_a_node_id(tmp_path: Path):
    doc = tmp_path / "review.grooph.json"
    doc.write_text(REVIEW_LOOP.read_text("utf-8"), "utf-8")
    r = run(tmp_path, "rename", doc, at=['"id": "tests"', 8], new_name="checks")
    assert_renamed(REVIEW_LOOP.read_text("utf-8"), r["buffer"], "tests", "checks")


def test_completion_of_an_id_between_empty_quotes(tmp_path: Path):
    """`"to": ""`, completion-at-point, the first candidate chosen: `"to": "<id>"`, valid JSON."""
    doc = tmp_path / "review.grooph.json"
    base = REVIEW_LOOP.read_text("utf-8")
    text = base.replace('"to": "tests"', '"to": ""', 1)
    doc.write_text(text, "utf-8")
    r = run(tmp_path, "choose", doc, at=['"to": ""', len('"to": "')])
    ids = [n["id"] for n in json.loads(base)["nodes"]]
    assert r["candidates"] and set(r["candidates"]) <= set(ids), r
    chosen = r["chosen"]
    assert_completed(r, base, chosen)


def test_a_workflow_is_served_by_the_same_client(tmp_path: Path):
    doc = tmp_path / "review.workflow.yaml"
    doc.write_text(WORKFLOW.read_text("utf-8").replace("target: review}", "target: reveiw}"), "utf-8")
    r = run(tmp_path, "quick-fix", doc)
    assert r["major_mode"] == "grooph-workflow-mode" and r["language_id"] == "grooph-workflow"
    assert list(r["codes"])[:1] == ["E_WF_UNKNOWN_STATUS"], r
    assert "target: review}" in r["buffer"] and "reveiw" not in r["buffer"]


def test_hover_on_a_key(tmp_path: Path):
    doc = tmp_path / "review.grooph.json"
    doc.write_text(REVIEW_LOOP.read_text("utf-8"), "utf-8")
    r = run(tmp_path, "hover", doc, at=['"goal"', 2])
    assert "goal" in r["hover"], r["hover"]
