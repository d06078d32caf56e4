"""A real Emacs with eglot, set up as docs/editors.md tells users to (issue 21 item 5): the snippet of
its Emacs section is the init file, only the path of `grooph-lsp` is this checkout's server. In
`emacs --batch`, tests/editors/emacs_driver.el visits a file and does what a user does; it records what
the client really received (Flymake's diagnostics, the code actions offered, the buffer, the file saved).

Checked: diagnostics with the grooph codes at the right place (UTF-16 columns after an emoji); the
quick fix `RET` takes in `M-x eglot-code-actions`; format on save giving `grooph fmt`'s bytes (also of
a CRLF file, read as it is on disk); a byte-order mark reported as `grooph validate` does; rename;
the hover eldoc shows;
completion between empty quotes (the first candidate chosen) and inside a half-typed string
(`"te` finds `tests`); a board workflow, served by the same
server entry; and with one entry for other modes too, a `package.json` announced as `grooph` gets nothing.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import FIXTURES, ROOT
from tests.editors.test_neovim import DANGLING, assert_completed, assert_renamed, grooph, token_range

EMACS = os.environ.get("GROOPH_TEST_EMACS") or shutil.which("emacs")


def emacs_missing(packages=("eglot", "yaml-mode")) -> str | None:
    """What the documented setup (with these Emacs packages) needs and this machine lacks, or None."""
    if EMACS is None or shutil.which(EMACS) is None:
        return f"emacs is not installed{f' ({EMACS} is not a program)' if EMACS else ''}"
    for package in packages:
        probe = subprocess.run([EMACS, "--batch", "--eval", f"(require '{package})"], capture_output=True, timeout=60,
                               env={**os.environ, "HOME": os.devnull})
        if probe.returncode != 0:
            return f"emacs cannot load {package}"
    return None


MISSING = emacs_missing()
pytestmark = pytest.mark.skipif(
    MISSING is not None and os.environ.get("CI") != "true",
    reason=f"{MISSING} (Debian 12: apt-get install emacs-nox elpa-eglot elpa-yaml-mode); .ci/setup installs them",
)

DRIVER = Path(__file__).with_name("emacs_driver.el")
DOCS = ROOT / "docs" / "editors.md"
REVIEW_LOOP = FIXTURES / "valid" / "review-loop.grooph.json"
WORKFLOW = FIXTURES / "workflow" / "valid" / "spec-example.workflow.yaml"
# Where the snippet names the server by its full path (the test puts this checkout's there).
PROGRAM = re.compile(r'(?<=^\(defvar grooph-lsp-program )\(expand-file-name "~/[^"]+/grooph-lsp"\)$', re.M)


def users_init(heading: str = "## Emacs (eglot)") -> str:
    """The elisp block of a docs/editors.md Emacs section, as a user pastes it into init.el."""
    section = DOCS.read_text("utf-8").split(heading, 1)[1].split("\n## ", 1)[0]
    return re.search(r"```elisp\n(.*?)```", section, re.S).group(1)


def _server(tmp_path: Path) -> Path:
    """A `grooph-lsp` of this checkout, at a full path (as the snippet asks)."""
    program = tmp_path / "bin" / "grooph-lsp"
    program.parent.mkdir(exist_ok=True)
    program.write_text(f"#!/bin/sh\nPYTHONPATH={ROOT} exec {sys.executable} -m grooph_lsp \"$@\"\n", "utf-8")
    program.chmod(0o755)
    return program


def run_emacs(tmp_path: Path, scenario: str, file: Path, *, init_extra: str = "", heading: str = "## Emacs (eglot)",
              driver: Path = DRIVER, **plan) -> dict:
    """One scenario in a fresh `emacs --batch` with the init file of the docs' section `heading`
    (eglot's, or lsp-mode's with its driver); what the driver recorded."""
    init = users_init(heading)
    assert PROGRAM.search(init), "the snippet names the server by its full path"
    init = PROGRAM.sub(lambda _: json.dumps(str(_server(tmp_path))), init)
    init_file = tmp_path / f"{scenario}-init.el"
    init_file.write_text(init + init_extra, "utf-8")
    result_file = tmp_path / f"{scenario}-result.json"
    home = tmp_path / "home"
    home.mkdir(exist_ok=True)
    env = {
        **os.environ,
        "GROOPH_PLAN": json.dumps({"scenario": scenario, "file": str(file), "init": str(init_file),
                                   "timeout_ms": 60000, **plan}),
        "GROOPH_RESULT": str(result_file),
        "HOME": str(home),  # neither the user's init nor their packages: Emacs as a new user has it
        "XDG_CONFIG_HOME": str(home / "config"),
        "XDG_CACHE_HOME": str(home / "cache"),
    }
    proc = subprocess.run([EMACS, "--batch", "-l", str(driver)], cwd=file.parent, env=env,
                          capture_output=True, text=True, timeout=120)
    said = proc.stdout + proc.stderr
    assert result_file.exists(), said
    result = json.loads(result_file.read_text("utf-8"))
    assert "error" not in result and proc.returncode == 0, (result, said[-3000:])
    result["said"] = said
    return result


def _position(text: str, token: str) -> list[list[int]]:
    """[start, end] of the one `token` as [line, character] (Emacs characters: BMP text only)."""
    rng = token_range(text, token, "utf-32")
    return [[rng["start"]["line"], rng["start"]["character"]], [rng["end"]["line"], rng["end"]["character"]]]


def test_diagnostics_at_their_place_and_the_preferred_quick_fix(tmp_path: Path):
    doc = tmp_path / "review.grooph.json"
    doc.write_text(DANGLING, "utf-8")
    r = run_emacs(tmp_path, "quick-fix", doc)
    assert r["major_mode"] == "grooph-mode" and r["coding"] == "utf-8-unix"
    assert [d["code"] for d in r["diagnostics"]] == ["E_DANGLING_REF"], r["diagnostics"]
    d = r["diagnostics"][0]
    # Emacs counts characters; the line holds an emoji (two UTF-16 units) before the reference
    assert [d["start"], d["end"]] == _position(DANGLING, '"reveiw"'), d
    assert d["type"] == "eglot-error" and "reveiw" in d["message"]
    assert r["actions"] and r["actions"][0].startswith("Point edge"), r["actions"]
    value = json.loads(r["buffer"])
    assert value["edges"][0]["to"] == "review"  # the preferred repair (operations.md §8.4): the near id
    assert r["after"] == []


def test_format_on_save_writes_what_grooph_fmt_writes(tmp_path: Path):
    doc = tmp_path / "review.grooph.json"
    text = DANGLING.replace('"reveiw"', '"review"')
    doc.write_text(text, "utf-8")
    canonical = grooph("fmt", doc.name, cwd=tmp_path).stdout
    assert canonical != text
    run_emacs(tmp_path, "save", doc, edit=True)
    assert doc.read_bytes() == canonical.encode("utf-8")
    assert grooph("fmt", "--check", str(doc), cwd=tmp_path).returncode == 0


def test_a_crlf_file_is_saved_with_lf_as_grooph_fmt_writes_it(tmp_path: Path):
    """Emacs reads a CRLF file as "dos"; in grooph-mode it is written as utf-8-unix, so the buffer opens
    modified and saving formats it and writes LF: `grooph fmt`'s bytes."""
    doc = tmp_path / "crlf.grooph.json"
    text = DANGLING.replace('"reveiw"', '"review"')
    doc.write_bytes(text.replace("\n", "\r\n").encode("utf-8"))
    canonical = grooph("fmt", doc.name, cwd=tmp_path).stdout
    assert grooph("fmt", "--check", doc.name, cwd=tmp_path).returncode != 0
    r = run_emacs(tmp_path, "save", doc)
    assert r["coding"] == "utf-8-unix" and r["visited"] == text  # the lines without their CR
    assert doc.read_bytes() == canonical.encode("utf-8")
    assert grooph("fmt", "--check", doc.name, cwd=tmp_path).returncode == 0


def test_a_byte_order_mark_is_reported_as_grooph_validate_does(tmp_path: Path):
    """The mark is read as the character it is: reported on the first character, formatting refused,
    and saving keeps the file as it is."""
    doc = tmp_path / "bom.grooph.json"
    data = b"\xef\xbb\xbf" + REVIEW_LOOP.read_bytes()
    doc.write_bytes(data)
    r = run_emacs(tmp_path, "diagnostics", doc, save=True)
    assert r["coding"] == "utf-8-unix" and r["visited"].startswith("\ufeff{")
    assert [d["code"] for d in r["diagnostics"]] == ["E_SYNTAX"], r["diagnostics"]
    assert r["diagnostics"][0]["start"] == [0, 0]
    assert "byte-order mark (U+FEFF) at the start is not JSON" in r["diagnostics"][0]["message"]
    validated = grooph("validate", doc.name, cwd=tmp_path)
    assert "byte-order mark (U+FEFF) at the start is not JSON" in validated.stdout + validated.stderr
    assert "Not formatted" in r["said"], r["said"]
    assert doc.read_bytes() == data


def test_rename_of_a_node_id(tmp_path: Path):
    doc = tmp_path / "review.grooph.json"
    doc.write_text(REVIEW_LOOP.read_text("utf-8"), "utf-8")
    r = run_emacs(tmp_path, "rename", doc, at=['"id": "tests"', 8], new_name="checks")
    assert_renamed(REVIEW_LOOP.read_text("utf-8"), r["buffer"], "tests", "checks")


def test_completion_inside_a_half_typed_string(tmp_path: Path):
    """`"te` then M-x completion-at-point: eglot filters by the word at the cursor (`te`), finds the one
    node id `tests`, and its edit completes the string."""
    doc = tmp_path / "review.grooph.json"
    text = REVIEW_LOOP.read_text("utf-8").replace('"to": "tests"', '"to": "te"', 1)
    doc.write_text(text, "utf-8")
    r = run_emacs(tmp_path, "complete", doc, at=['"to": "te"', len('"to": "te')])
    assert r["typed"] == "te" and r["candidates"] == ["tests"], r
    assert r["line"].strip() == '"to": "tests"'
    assert json.loads(r["buffer"]) == json.loads(REVIEW_LOOP.read_text("utf-8"))


def test_completion_of_an_id_between_empty_quotes(tmp_path: Path):
    """`"to": ""`, completion-at-point, the first candidate chosen (as company or the *Completions*
    buffer does): `"to": "<id>"`, valid JSON."""
    doc = tmp_path / "review.grooph.json"
    base = REVIEW_LOOP.read_text("utf-8")
    doc.write_text(base.replace('"to": "tests"', '"to": ""', 1), "utf-8")
    r = run_emacs(tmp_path, "choose", doc, at=['"to": ""', len('"to": "')])
    ids = [n["id"] for n in json.loads(base)["nodes"]]
    assert r["candidates"] and set(r["candidates"]) <= set(ids), r
    chosen = r["chosen"]
    assert_completed(r, base, chosen)


def test_completion_of_a_hyphenated_id(tmp_path: Path):
    """`-` is a symbol character in the documented grooph-mode: `"tests-f` is one word to complete
    (js-mode's own syntax would complete `f`)."""
    doc = tmp_path / "review.grooph.json"
    base = REVIEW_LOOP.read_text("utf-8")
    assert json.loads(base)["loops"][0]["back"] == ["tests-failed"]
    text = base.replace('"tests-failed"\n      ]', '"tests-f"\n      ]', 1)
    assert text != base
    doc.write_text(text, "utf-8")
    r = run_emacs(tmp_path, "complete", doc, at=['"tests-f"\n', len('"tests-f')])
    assert r["typed"] == "tests-f" and r["candidates"] == ["tests-failed"], r
    assert json.loads(r["buffer"]) == json.loads(base)


def test_a_workflow_is_served_by_the_same_entry(tmp_path: Path):
    doc = tmp_path / "review.workflow.yaml"
    doc.write_text(WORKFLOW.read_text("utf-8").replace("target: review}", "target: reveiw}"), "utf-8")
    r = run_emacs(tmp_path, "quick-fix", doc)
    assert r["major_mode"] == "grooph-workflow-mode" and r["language_id"] == "grooph-workflow"
    assert [d["code"] for d in r["diagnostics"]][:1] == ["E_WF_UNKNOWN_STATUS"], r["diagnostics"]
    assert "target: review}" in r["buffer"] and "reveiw" not in r["buffer"]


def test_a_shared_entry_leaves_other_files_alone(tmp_path: Path):
    """The issue's setup: one entry for grooph-mode and the modes of other JSON files, so eglot
    announces `package.json` with the id of the server's first buffer (`grooph`). It gets no
    diagnostics and saving it changes nothing."""
    (tmp_path / "first.grooph.json").write_text(REVIEW_LOOP.read_text("utf-8"), "utf-8")
    package = tmp_path / "package.json"
    text = '{"name": "studio",\n    "version": "1.0.0"}\n'
    package.write_text(text, "utf-8")
    extra = f"""
(add-to-list 'eglot-server-programs `((grooph-mode grooph-workflow-mode js-mode) . (,grooph-lsp-program)))
(add-hook 'js-mode-hook #'eglot-ensure)
(add-hook 'js-mode-hook (lambda () (add-hook 'before-save-hook #'eglot-format-buffer nil t)))
(find-file {json.dumps(str(tmp_path / "first.grooph.json"))})
(run-hooks 'post-command-hook)
"""
    r = run_emacs(tmp_path, "quiet", package, init_extra=extra)
    assert r["major_mode"] == "js-mode" and r["language_id"] == "grooph", r
    assert r["diagnostics"] == [] and r["actions"] == [] and not any(r["published"]), r
    assert package.read_text("utf-8") == text


def test_hover_on_a_key(tmp_path: Path):
    doc = tmp_path / "review.grooph.json"
    doc.write_text(REVIEW_LOOP.read_text("utf-8"), "utf-8")
    r = run_emacs(tmp_path, "hover", doc, at=['"goal"', 2])
    assert "goal" in r["hover"], r["hover"]
