"""`grooph new` (cli.md §2.4) with the issue's positional name and `--map`; new_graph / new_map."""

import json
import sys

import pytest

from grooph_core.cli import main
from grooph_core.ops import new_graph, new_map
from grooph_core.rules.validate import validate_value
from grooph_core.schema.canonical import canonical_text


def test_new_graph_example_of_section_6():
    doc = new_graph("Scratch run", goal="Try ops", target="claude-code")
    assert list(doc) == ["grooph", "id", "name", "version", "goal", "target", "nodes", "edges", "loops"]
    assert doc["id"] == "scratch-run" and doc["target"] == {"harness": "claude-code"}
    assert validate_value(doc, "graph") == [] and validate_value(doc, "graph", export=True) == []


def test_new_graph_empty_goal_and_explicit_id():
    doc = new_graph("!!!", goal="", id="mine")
    assert doc["id"] == "mine" and doc["goal"] == ""
    assert new_graph("!!!")["id"] == "graph"


def test_new_map_is_valid_with_no_issue():
    doc = new_map("Studio ops")
    assert doc == {"groophMap": 0, "id": "studio-ops", "name": "Studio ops", "version": 1,
                   "lanes": [], "sessions": [], "handoffs": []}
    assert validate_value(doc, "map") == []
    assert canonical_text(doc, "map") == json.dumps(doc, indent=2) + "\n"


def test_pipe_prints_canonical_text(capsys):
    assert main(["new", "--name", "Scratch run", "--goal", "Try ops", "--target", "claude-code"]) == 0
    assert capsys.readouterr().out == canonical_text(new_graph("Scratch run", "Try ops", "claude-code"), "graph")


def test_positional_name(capsys):
    assert main(["new", "Release notes"]) == 0
    assert json.loads(capsys.readouterr().out)["id"] == "release-notes"


def test_map_flag(capsys):
    assert main(["new", "Studio", "--map"]) == 0
    assert json.loads(capsys.readouterr().out) == new_map("Studio")


def test_out_and_force(tmp_path, capsys):
    out = tmp_path / "a" / "g.grooph.json"
    assert main(["new", "--name", "G", "--out", str(out)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines == [f'wrote {out} (graph "g")', f"next: grooph apply {out} --ops <ops.json> --write"]
    assert main(["new", "--name", "H", "--out", str(out)]) == 1
    assert capsys.readouterr().err == f"grooph: {out} already exists; pass --force to overwrite it\n"
    assert json.loads(out.read_text())["id"] == "g"
    assert main(["new", "--name", "H", "--out", str(out), "--force"]) == 0
    assert json.loads(out.read_text())["id"] == "h"


def test_terminal_writes_default_file(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    assert main(["new", "Studio", "--map"]) == 0
    assert (tmp_path / "studio.grooph-map.json").exists()
    assert main(["new", "--name", "Weekly notes"]) == 0
    assert (tmp_path / "weekly-notes.grooph.json").read_text() == canonical_text(new_graph("Weekly notes"), "graph")


def test_kept_graph_refused(tmp_path, capsys):
    kept = tmp_path / ".grooph" / "g" / "graph.grooph.json"
    assert main(["new", "--name", "G", "--out", str(kept), "--force"]) == 1
    assert "only export writes it" in capsys.readouterr().err and not kept.exists()


@pytest.mark.parametrize("argv, phrase", [
    (["new"], "a name is required"),
    (["new", "--name", "  "], "a name is required"),
    (["new", "a", "b"], 'give the name as one argument: --name "a b"'),
    (["new", "a", "--name", "b"], "give the name once"),
    (["new", "--name", "x", "--target", " "], "--target needs a harness name"),
    (["new", "x", "--map", "--goal", "g"], "belong to graphs"),
])
def test_usage_errors(argv, phrase, capsys):
    assert main(argv) == 1
    err = capsys.readouterr().err.splitlines()
    assert phrase in err[0] and err[1].startswith("Usage: grooph new")


def test_unwritable_target_is_a_clear_error(tmp_path, capsys):
    assert main(["new", "--name", "G", "--out", str(tmp_path), "--force"]) == 1
    assert capsys.readouterr().err.startswith(f"grooph: cannot write {tmp_path}")
