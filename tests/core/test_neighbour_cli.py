"""The command line on the neighbouring formats (issue 15 point 4; cli.md §0.4, workflow.md §0): `grooph
validate` by name and by content, text and JSON reports, exit codes, strict mode, `--locations` for YAML;
the other commands refuse them by name."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

import pytest

from grooph_core.cli import main
from tests.conftest import FIXTURES

EXAMPLE = FIXTURES / "workflow" / "valid" / "spec-example.workflow.yaml"
BOARD = FIXTURES / "board" / "valid" / "checkout.board.json"
EPISODES = FIXTURES / "episodes" / "valid" / "busy-store.episodes.json"


def run(capsys, *args):
    code = main([*map(str, args)])
    out = capsys.readouterr()
    return code, out.out, out.err


def _misspelt(tmp_path, name="review.workflow.yaml"):
    path = tmp_path / name
    path.write_text(EXAMPLE.read_text("utf-8").replace("target: review}", "target: reveiw}"), "utf-8")
    return path


def test_valid_examples_of_every_kind(capsys):
    code, out, err = run(capsys, "validate", EXAMPLE, BOARD, EPISODES, FIXTURES / "episodes" / "valid")
    assert code == 0 and err == "checked 5 documents: 0 errors, 0 warnings\n"  # the total, on stderr
    assert out.splitlines() == [f"{EXAMPLE}: no issues", f"{BOARD}: no issues", f"{EPISODES}: no issues",
                                f"{FIXTURES / 'episodes' / 'valid' / 'busy-store.episodes.json'}: no issues",
                                f"{FIXTURES / 'episodes' / 'valid' / 'fresh-clone.episodes.json'}: no issues"]


def test_errors_to_stderr_warnings_to_stdout_exit_one(capsys, tmp_path):
    path = _misspelt(tmp_path)
    code, out, err = run(capsys, "validate", path)
    assert code == 1
    assert err.splitlines() == [
        "error  E_WF_UNKNOWN_STATUS  building: no status reveiw; did you mean review?  "
        "[at: /statuses/building/on/handed_off/0/target]",
        f"{path}: 1 error, 1 warning",
    ]
    assert out.startswith("warning  W_WF_UNREACHABLE_STATUS  ") and out.rstrip().endswith("[at: /statuses/review]")


def test_warnings_alone_exit_zero(capsys, tmp_path):
    path = tmp_path / "w.workflow.yaml"
    path.write_text(EXAMPLE.read_text("utf-8").replace("done: {stored_as: done}", "done: {stored_as: done, x: 1}"))
    code, out, err = run(capsys, "validate", path)
    assert code == 0 and err == "" and "W_UNKNOWN_KEY" in out and out.endswith(f"{path}: 0 errors, 1 warning\n")


def test_locations_for_yaml(capsys, tmp_path):
    path = _misspelt(tmp_path)
    code, out, err = run(capsys, "validate", "--locations", path)
    assert err.splitlines()[0].startswith(f"{path}:15:29: error  E_WF_UNKNOWN_STATUS")
    assert out.splitlines()[0].startswith(f"{path}:20:3: warning  W_WF_UNREACHABLE_STATUS")


def test_json_report(capsys, tmp_path):
    path = _misspelt(tmp_path)
    code, out, _ = run(capsys, "validate", "--json", path)
    report = json.loads(out)
    assert code == 1 and list(report) == ["file", "ok", "kind", "issues"]
    assert report["kind"] == "workflow" and report["ok"] is False
    first = report["issues"][0]
    assert list(first) == ["code", "severity", "message", "at", "range"]
    assert first["at"] == ["/statuses/building/on/handed_off/0/target"]
    assert first["range"] == {"start": {"line": 14, "character": 28}, "end": {"line": 14, "character": 34}}


def test_strict_mode_reports_only_the_structure(capsys, tmp_path):
    path = tmp_path / "w.workflow.yaml"
    path.write_text(EXAMPLE.read_text("utf-8").replace("target: review}", "target: reveiw}").replace(
        "scope: board", "scope: boards"))
    code, out, err = run(capsys, "validate", "--json", path)
    assert [i["code"] for i in json.loads(out)["issues"]] == ["E_WF_SCHEMA"]


def test_kinds_by_content_for_other_names(capsys, tmp_path):
    shutil.copy(BOARD, tmp_path / "checkout.json")
    shutil.copy(EPISODES, tmp_path / "state.json")
    _misspelt(tmp_path, "flow.yaml")
    code, out, _ = run(capsys, "validate", "--json", tmp_path / "checkout.json", tmp_path / "state.json",
                       tmp_path / "flow.yaml")
    assert [(r["kind"], r["ok"]) for r in json.loads(out)] == [("board", True), ("episodes", True), ("workflow", False)]


def test_other_yaml_is_not_ours(capsys, tmp_path):
    path = tmp_path / "compose.yaml"
    path.write_text("services: {web: {image: nginx}}\n")
    code, out, err = run(capsys, "validate", path)
    assert code == 1 and out == ""
    assert err == f"grooph: {path} is YAML but not a workflow (its top level has no statuses and initial); nothing was checked\n"


def test_folders_pick_up_the_neighbouring_files(capsys, tmp_path):
    _misspelt(tmp_path)
    shutil.copy(BOARD, tmp_path / "b.board.json")
    (tmp_path / "notes.yaml").write_text("a: 1\n")  # not named as ours: left alone in a folder
    code, out, _ = run(capsys, "validate", "--json", tmp_path)
    assert sorted(r["kind"] for r in json.loads(out)) == ["board", "workflow"]


@pytest.mark.parametrize("text,code", [
    ("a: [1\n", "E_SYNTAX"), ("a: 1\n---\nb: 2\n", "E_SYNTAX"), ("", "E_WF_SCHEMA"), ("- 1\n", "E_WF_SCHEMA"),
])
def test_unreadable_workflows_are_one_clear_issue(capsys, tmp_path, text, code):
    path = tmp_path / "w.workflow.yaml"
    path.write_text(text)
    rc, out, err = run(capsys, "validate", "--json", path)
    report = json.loads(out)
    assert rc == 1 and [i["code"] for i in report["issues"]] == [code]


def test_bytes_that_are_not_utf8(capsys, tmp_path):
    path = tmp_path / "b.board.json"
    path.write_bytes(b'{"slug": "\xff"}')
    rc, out, _ = run(capsys, "validate", "--json", path)
    (issue,) = json.loads(out)["issues"]
    assert rc == 1 and issue["code"] == "E_SYNTAX" and "not UTF-8" in issue["message"]


def test_missing_neighbour_file_keeps_its_kind(capsys, tmp_path):
    rc, out, err = run(capsys, "validate", "--json", tmp_path / "gone.board.json")
    assert rc == 1 and json.loads(out)["kind"] == "board" and "no such file" in err


@pytest.mark.parametrize("command", [["fmt"], ["apply", "ops.json"], ["image"], ["shape"]])
@pytest.mark.parametrize("target", [EXAMPLE, BOARD, EPISODES], ids=lambda p: p.name)
def test_other_commands_refuse_the_kinds_by_name(capsys, command, target):
    if command == ["image"] and target == EXAMPLE:
        pytest.skip("a workflow has a picture (issue 15 point 6): tests/core/picture/test_workflow_picture.py")
    before = target.read_bytes()
    rc, out, err = run(capsys, command[0], target, *command[1:])
    assert rc == 1 and out == ""
    assert err.startswith(f"grooph: {target} is ") and f"{command[0]} works on grooph graphs and operation maps" in err and "only, so nothing was done" in err
    assert f"grooph validate {target}" in err
    assert target.read_bytes() == before


def test_fmt_refuses_a_workflow_saying_the_workflow_kinds_reason(capsys):
    """issue 22: the refusal is the workflow kind's, with why a workflow is never formatted (its own
    comments, quoting and layout); a board's refusal has no such sentence (the editor formats boards)."""
    before = EXAMPLE.read_bytes()
    rc, out, err = run(capsys, "fmt", EXAMPLE)
    assert rc == 1 and out == "" and EXAMPLE.read_bytes() == before
    assert "Workflows are not formatted: YAML has no canonical form here" in err
    assert err.rstrip().endswith(f"`grooph validate {EXAMPLE}` checks it.")
    rc, _, err = run(capsys, "fmt", BOARD)
    assert rc == 1 and "not formatted" not in err


def test_a_reused_anchor_in_a_broken_workflow_prints_only_the_finding(tmp_path):
    """ruamel.yaml (which reads a text libyaml refuses) warns of a reused anchor with a
    `ReusedAnchorWarning`; the reader keeps it off the command line's stderr (issue 25), as a user runs
    it: a process of its own, Python's default warning filters."""
    path = tmp_path / "w.workflow.yaml"
    path.write_text("a: &x 1\nb: &x 2\nc: [1, 2", "utf-8")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONWARNINGS"}
    done = subprocess.run([sys.executable, "-m", "grooph_core", "validate", str(path)], capture_output=True,
                          text=True, env=env, timeout=120)
    assert done.returncode == 1
    assert done.stderr.splitlines() == [
        "error  E_SYNTAX  expected ',' or ']', but got '<stream end>' (while parsing a flow sequence)",
        f"{path}: 1 error, 0 warnings",
    ]
