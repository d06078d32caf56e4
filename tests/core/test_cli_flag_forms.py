"""`--name=value` is the same as `--name value` for every flag that takes a value, of every command
(cli.md §0.1: flags and arguments in any order; the `=` form is the one people type from other tools, e.g.
`grooph validate --format=json x`). Each case runs the command in a fresh folder both ways and compares what
a user sees: exit code, stdout, stderr and every file left in the folder (issue 30 item 8)."""

from __future__ import annotations

import importlib
import json
import shutil
from pathlib import Path

import pytest

from grooph_core.cli import COMMANDS, image_cmd, main
from tests.conftest import FIXTURES

EXAMPLES = Path(__file__).resolve().parent / "picture" / "examples"
OPS = [{"op": "addNode", "kind": "stop", "name": "Done"}]

# (command, the flag, its value, the rest of the command line): one case per value flag, each value one
# that changes what the command does, so that a value that is not read shows.
CASES = [
    ("validate", "format", "json", ["dangling.grooph.json"]),
    ("validate", "format", "sarif", ["dangling.grooph.json"]),
    ("validate", "jobs", "0", ["dangling.grooph.json"]),
    ("validate", "files-from", "list.txt", []),
    ("image", "out", "picture.svg", ["bakery.grooph-map.json"]),
    ("image", "theme", "dark", ["bakery.grooph-map.json"]),
    ("image", "scale", "2", ["bakery.grooph-map.json", "--out", "picture.png", "--theme", "light"]),
    ("image", "layout", "wide", ["bakery.grooph-map.json"]),
    ("image", "view", "sequence", ["bakery.grooph-map.json"]),
    ("image", "open", "checks", ["kits.grooph.json"]),
    ("image", "events", "chef=events.jsonl", ["bakery.grooph-map.json"]),
    ("new", "name", "Release notes", []),
    ("new", "goal", "Publish the notes", ["Release notes"]),
    ("new", "target", "codex", ["Release notes"]),
    ("new", "out", "notes.grooph.json", ["Release notes"]),
    ("apply", "ops", "ops.json", ["essay.grooph.json"]),
    ("apply", "out", "changed.grooph.json", ["essay.grooph.json", "ops.json"]),
]


def _folder(root: Path) -> Path:
    """A fresh folder holding the inputs every case names, by relative path (the same path for every run:
    a SARIF log names the folder it ran in)."""
    shutil.rmtree(root, ignore_errors=True)
    root.mkdir()
    shutil.copy(FIXTURES / "invalid" / "E_DANGLING_REF" / "spec-example.grooph.json", root / "dangling.grooph.json")
    shutil.copy(EXAMPLES / "bakery-ops.grooph-map.json", root / "bakery.grooph-map.json")
    shutil.copy(EXAMPLES / "essay-week.grooph.json", root / "essay.grooph.json")
    shutil.copy(EXAMPLES / "essay-week-kits.grooph.json", root / "kits.grooph.json")
    (root / "ops.json").write_text(json.dumps(OPS), "utf-8")
    (root / "list.txt").write_text("dangling.grooph.json\n", "utf-8")
    return root


def _seen(capsys, monkeypatch, folder: Path, argv: list[str]):
    """What a user sees of one run: exit code, stdout, stderr, and the folder's files afterwards."""
    monkeypatch.chdir(_folder(folder))
    code = main(argv)
    out, err = capsys.readouterr()
    files = {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}
    return code, out, err, files


@pytest.mark.parametrize("command, flag, value, rest", CASES, ids=[f"{c[0]}--{c[1]}={c[2]}" for c in CASES])
def test_the_equals_form_is_the_spaced_form(capsys, monkeypatch, tmp_path, command, flag, value, rest):
    spaced = _seen(capsys, monkeypatch, tmp_path / "run", [command, f"--{flag}", value, *rest])
    joined = _seen(capsys, monkeypatch, tmp_path / "run", [command, f"--{flag}={value}", *rest])
    without = _seen(capsys, monkeypatch, tmp_path / "run", [command, *rest])
    assert joined == spaced
    assert spaced != without  # the value matters, so a value that is not read cannot pass
    assert "Traceback" not in spaced[2]


def test_validate_format_json_equals_prints_the_json_report(capsys, monkeypatch, tmp_path):
    """The issue's example, as a user reads it: a JSON report, not the text listing."""
    code, out, err, _ = _seen(capsys, monkeypatch, tmp_path / "run", ["validate", "--format=json", "dangling.grooph.json"])
    report = json.loads(out)
    assert code == 1 and report["file"] == "dangling.grooph.json" and report["ok"] is False
    assert [i["code"] for i in report["issues"]] == ["E_DANGLING_REF"] and err == ""


def _value_flags(monkeypatch) -> set[tuple[str, str]]:
    """(command, flag) for every flag each command's parser is told takes a value, found by running each
    command with no argument and recording what it asks `parse_args` for."""
    found: set[tuple[str, str]] = set()
    for command, module_name in COMMANDS.items():
        module = importlib.import_module(module_name)
        real = module.parse_args

        def spy(argv, *, _command=command, _real=real, **kwargs):
            found.update((_command, name) for name in kwargs.get("valued", ()))
            return _real(argv, **kwargs)

        monkeypatch.setattr(module, "parse_args", spy)
        module.run([])
    found.update(("image", name) for name in image_cmd.REPEATABLE)
    return found


def test_every_value_flag_of_every_command_has_a_case(monkeypatch, capsys):
    flags = _value_flags(monkeypatch)
    capsys.readouterr()
    assert {(c[0], c[1]) for c in CASES} == flags
