"""`grooph apply` (cli.md §2.2 plus the issue's forms): each step's failure and the report formats."""

import io
import json
import sys

import pytest

from grooph_core.cli import main
from grooph_core.ops import new_graph
from grooph_core.schema.canonical import canonical_text

W = {"id": "w", "kind": "agent", "name": "W", "role": "builder", "brief": "Do it.", "outputs": ["out.txt"],
     "allow": ["edit-files"]}


@pytest.fixture
def graph(tmp_path):
    doc = new_graph("G", goal="Do it.", target="codex")
    doc["nodes"] = [W]
    path = tmp_path / "g.grooph.json"
    path.write_text(canonical_text(doc, "graph"), "utf-8")
    return path


def write_ops(tmp_path, ops, name="ops.json"):
    p = tmp_path / name
    p.write_text(json.dumps(ops) if not isinstance(ops, str) else ops, "utf-8")
    return p


def stdin(monkeypatch, text: str):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(text.encode("utf-8"))))


def test_dry_run_reports_and_leaves_file(graph, tmp_path, capsys):
    before = graph.read_text("utf-8")
    ops = write_ops(tmp_path, [{"op": "addNode", "kind": "stop", "name": "Done"}, {"op": "connect", "from": "w", "to": "done"}])
    code = main(["apply", str(graph), "--ops", str(ops)])
    out = capsys.readouterr()
    assert code == 0
    assert out.out.splitlines() == [f"{graph}: no issues", 'ids: ["done","e-w-done"]',
                                    f"applied 2 ops; {graph} not written (dry run — pass --write to save)"]
    assert graph.read_text("utf-8") == before


def test_write_saves_canonical_even_with_rule_errors(graph, tmp_path, capsys):
    ops = write_ops(tmp_path, [{"op": "connect", "from": "w", "to": "w"}])
    code = main(["apply", str(graph), str(ops), "--write"])
    out = capsys.readouterr()
    assert code == 1                                   # E_CYCLE_NO_STOP remains
    assert "E_CYCLE_NO_STOP" in out.err
    assert out.out.splitlines()[-1] == f"applied 1 op; wrote {graph}"
    doc = json.loads(graph.read_text("utf-8"))
    assert doc["edges"] == [{"id": "e-w-w", "from": "w", "to": "w"}]
    assert graph.read_text("utf-8") == canonical_text(doc, "graph")


def test_out_writes_another_file_and_keeps_the_source(graph, tmp_path, capsys):
    before = graph.read_text("utf-8")
    ops = write_ops(tmp_path, [{"op": "addNode", "kind": "stop", "name": "Done"}, {"op": "connect", "from": "w", "to": "done"}])
    target = tmp_path / "sub" / "dir" / "out.grooph.json"
    code = main(["apply", str(graph), str(ops), "--out", str(target), "--json"])
    report = json.loads(capsys.readouterr().out)
    assert code == 0 and report["written"] is True and report["out"] == str(target)
    assert graph.read_text("utf-8") == before
    assert json.loads(target.read_text("utf-8"))["nodes"][1]["id"] == "done"


def test_ops_from_stdin(graph, capsys, monkeypatch):
    stdin(monkeypatch, '[{"op":"addNode","kind":"stop","name":"Done"},{"op":"setGraphField","key":"adaptation","value":"fixed"}]')
    code = main(["apply", str(graph), "--ops", "-", "--json"])
    report = json.loads(capsys.readouterr().out)
    assert report["ids"] == ["done", None] and report["applied"] == 2 and report["ok"] is True
    assert report["issues"] == []   # `done` is an entry of its own, so a stop node is reached
    assert code == 0


def test_refused_op_json(graph, capsys, monkeypatch):
    stdin(monkeypatch, '[{"op":"removeNode","id":"ghost"}]')
    code = main(["apply", str(graph), "--ops", "-", "--json"])
    report = json.loads(capsys.readouterr().out)
    assert code == 1
    assert report == {"file": str(graph), "ok": False, "written": False,
                      "error": {"index": 0, "op": "removeNode", "message": '"id": no node "ghost"'}}


def test_result_that_fails_the_schema_is_not_written(graph, tmp_path, capsys):
    before = graph.read_text("utf-8")
    ops = write_ops(tmp_path, [{"op": "addNode", "kind": "agent", "name": "Empty"}])
    code = main(["apply", str(graph), str(ops), "--write"])
    out = capsys.readouterr()
    assert code == 1
    assert "does not match the schema" in out.err and "/nodes/1/outputs" in out.err
    assert graph.read_text("utf-8") == before
    code = main(["apply", str(graph), str(ops), "--json"])
    report = json.loads(capsys.readouterr().out)
    assert list(report) == ["file", "ok", "written", "ids", "issues"]
    assert report["ids"] == ["empty"] and report["issues"][0]["code"] == "E_SCHEMA"


def test_document_that_fails_the_schema_is_refused(tmp_path, capsys):
    bad = tmp_path / "bad.grooph.json"
    bad.write_text('{"grooph": 0, "id": "Bad Id", "name": "x", "version": 1, "nodes": [], "edges": [], "loops": []}')
    ops = write_ops(tmp_path, [])
    code = main(["apply", str(bad), str(ops)])
    out = capsys.readouterr()
    assert code == 1 and "does not match the schema" in out.err and "E_SCHEMA  /id" in out.err
    code = main(["apply", str(bad), str(ops), "--json"])
    report = json.loads(capsys.readouterr().out)
    assert list(report) == ["file", "ok", "written", "issues"] and report["issues"][0]["code"] == "E_SCHEMA"


def test_not_json_document(tmp_path, capsys):
    bad = tmp_path / "bad.grooph.json"
    bad.write_text('{"grooph": 0,')
    code = main(["apply", str(bad), str(write_ops(tmp_path, []))])
    assert code == 1 and "not valid JSON" in capsys.readouterr().err


@pytest.mark.parametrize("text, phrase", [
    ("[{", "is not valid JSON: "),
    ('{"op": "addNode"}', "must hold a JSON list of ops"),
    ("", "is not valid JSON: "),
])
def test_ops_that_are_not_a_json_list(graph, tmp_path, capsys, text, phrase):
    ops = write_ops(tmp_path, text)
    code = main(["apply", str(graph), "--ops", str(ops)])
    err = capsys.readouterr().err
    assert code == 1 and err.startswith(f"grooph: {ops} {phrase}")
    code = main(["apply", str(graph), "--ops", str(ops), "--json"])
    report = json.loads(capsys.readouterr().out)
    assert report["error"]["index"] == -1 and report["error"]["op"] == "" and report["written"] is False


def test_ops_from_stdin_are_named_stdin(graph, capsys, monkeypatch):
    stdin(monkeypatch, "nope")
    assert main(["apply", str(graph), "-"]) == 1
    assert capsys.readouterr().err.startswith("grooph: stdin is not valid JSON")


def test_missing_files(graph, tmp_path, capsys):
    assert main(["apply", str(tmp_path / "none.grooph.json"), "--ops", "x.json"]) == 1
    assert capsys.readouterr().err == f"grooph: no such file: {tmp_path / 'none.grooph.json'}\n"
    assert main(["apply", str(graph), "--ops", "missing-ops.json"]) == 1
    assert capsys.readouterr().err == "grooph: no such file: missing-ops.json\n"


@pytest.mark.parametrize("argv, phrase", [
    (["apply"], "required"),
    (["apply", "g.grooph.json"], "ops are required"),
    (["apply", "g.grooph.json", "a.json", "--ops", "b.json"], "give the ops once"),
    (["apply", "g.grooph.json", "a.json", "b.json"], "too many arguments"),
    (["apply", "g.grooph.json", "a.json", "--write", "--out", "x.json"], "cannot be used together"),
    (["apply", "g.grooph.json", "--ops"], "--ops needs a value"),
    (["apply", "g.grooph.json", "--bogus"], "unknown flag --bogus"),
])
def test_usage_errors(argv, phrase, capsys):
    assert main(argv) == 1
    err = capsys.readouterr().err.splitlines()
    assert phrase in err[0] and err[1].startswith("Usage: grooph apply") and err[2] == "More: grooph help apply"


def test_map_is_refused(tmp_path, capsys):
    m = tmp_path / "m.grooph-map.json"
    m.write_text('{"groophMap": 0, "id": "m", "name": "M", "version": 1, "lanes": [], "sessions": [], "handoffs": []}')
    assert main(["apply", str(m), str(write_ops(tmp_path, []))]) == 1
    assert "operation map" in capsys.readouterr().err


def test_kept_graph_is_refused(tmp_path, capsys):
    kept = tmp_path / ".grooph" / "g" / "graph.grooph.json"
    kept.parent.mkdir(parents=True)
    text = canonical_text(new_graph("G"), "graph")
    kept.write_text(text)
    assert main(["apply", str(kept), str(write_ops(tmp_path, [{"op": "setGraphField", "key": "goal", "value": "x"}])),
                 "--write"]) == 1
    assert "only export writes it" in capsys.readouterr().err
    assert kept.read_text() == text


def test_in_place_refuses_to_lose_a_repeated_key(tmp_path, capsys):
    g = tmp_path / "g.grooph.json"
    text = '{"grooph": 0, "id": "g", "name": "G", "name": "H", "version": 1, "nodes": [], "edges": [], "loops": []}'
    g.write_text(text)
    assert main(["apply", str(g), str(write_ops(tmp_path, [])), "--write"]) == 1
    assert "appears twice" in capsys.readouterr().err
    assert g.read_text() == text


def test_zero_ops_plural(graph, tmp_path, capsys):
    assert main(["apply", str(graph), str(write_ops(tmp_path, []))]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[-1] == f"applied 0 ops; {graph} not written (dry run — pass --write to save)"
    assert not any(line.startswith("ids:") for line in lines)


def test_unwritable_out_is_a_clear_error(graph, tmp_path, capsys):
    assert main(["apply", str(graph), str(write_ops(tmp_path, [])), "--out", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"grooph: cannot write {tmp_path}") and "nothing was written" in err
