"""operations.md §7: the worked example, reproduced exactly by `apply` and by `grooph apply`."""

import io
import json
import shutil
import sys
from pathlib import Path

from grooph_core.cli import main
from grooph_core.ops import apply, new_graph

DATA = Path(__file__).parent / "data"


def _read(name: str) -> str:
    return (DATA / f"worked-example-{name}").read_text("utf-8")


def test_new_gives_the_start_document():
    from grooph_core.schema.canonical import canonical_text
    assert canonical_text(new_graph("Release notes"), "graph") == _read("start.grooph.json")


def test_apply_gives_the_reply_and_the_document():
    result = apply(json.loads(_read("start.grooph.json")), json.loads(_read("ops.json")))
    assert result.ok
    assert list(result.ids) == json.loads(_read("reply.json"))
    from grooph_core.schema.canonical import canonical_text
    assert canonical_text(result.doc, "graph") == _read("result.grooph.json")


def test_grooph_apply_writes_the_canonical_text_byte_for_byte(tmp_path, capsys):
    graph = tmp_path / "notes.grooph.json"
    shutil.copy(DATA / "worked-example-start.grooph.json", graph)
    code = main(["apply", str(graph), str(DATA / "worked-example-ops.json"), "--in-place", "--for-export"])
    out = capsys.readouterr()
    assert code == 0, out.err
    assert graph.read_bytes() == (DATA / "worked-example-result.grooph.json").read_bytes()
    assert out.out.splitlines()[-1] == f"applied 20 ops; wrote {graph}"
    assert f"{graph}: no issues" in out.out
    assert "ids: " + json.dumps(json.loads(_read("reply.json")), separators=(",", ":")) in out.out


def test_grooph_apply_json_reports_the_ids_reply(tmp_path, capsys):
    graph = tmp_path / "notes.grooph.json"
    shutil.copy(DATA / "worked-example-start.grooph.json", graph)
    code = main(["apply", str(graph), "--ops", str(DATA / "worked-example-ops.json"), "--json", "--complete"])
    report = json.loads(capsys.readouterr().out)
    assert code == 0
    assert list(report) == ["file", "ok", "written", "applied", "ids", "issues"]
    assert report == {"file": str(graph), "ok": True, "written": False, "applied": 20,
                      "ids": json.loads(_read("reply.json")), "issues": []}
    assert graph.read_text("utf-8") == _read("start.grooph.json")   # dry run


def test_failing_list_of_7_5(tmp_path, capsys, monkeypatch):
    graph = tmp_path / "notes.grooph.json"
    shutil.copy(DATA / "worked-example-result.grooph.json", graph)
    doc = json.loads(_read("result.grooph.json"))
    result = apply(doc, json.loads(_read("failing-ops.json")))
    assert not result.ok
    assert (result.error.index, result.error.op) == (1, "connect")
    assert result.error.line() == 'ops[1] connect: "to": no node "reviewr"; did you mean "reviewer"?'
    assert doc == json.loads(_read("result.grooph.json"))

    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(_read("failing-ops.json").encode())))
    code = main(["apply", str(graph), "-", "--write"])
    out = capsys.readouterr()
    assert code == 1
    assert out.err.splitlines()[0] == 'grooph: ops[1] connect: "to": no node "reviewr"; did you mean "reviewer"?'
    assert "unchanged" in out.err.splitlines()[1]
    assert out.out == ""
    assert graph.read_text("utf-8") == _read("result.grooph.json")
