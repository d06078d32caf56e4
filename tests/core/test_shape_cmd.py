"""`grooph shape` (cli.md §3.2, map.md §8.4): text and JSON for maps and graphs, refusals, exit codes."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import pytest

from grooph_core.cli import main

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
sys.path.insert(0, str(Path(__file__).parent / "rules"))
import map_examples as ex  # noqa: E402


def _run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def _write(tmp_path, name, value):
    p = tmp_path / name
    p.write_text(value if isinstance(value, str) else json.dumps(value), encoding="utf-8")
    return str(p)


def test_map_text(capsys, tmp_path):
    path = _write(tmp_path, "bakery.grooph-map.json", ex.bakery_ops())
    code, out, err = _run(capsys, "shape", path)
    assert (code, err) == (0, "")
    assert out == "bakery-ops: 2 lanes · 3 sessions (6 counting families) · 1 person · 6 handoffs, 1 waiting on a person\n"


def test_map_json_is_the_shape_object(capsys, tmp_path):
    path = _write(tmp_path, "person.grooph-map.json", ex.person_starts())
    code, out, err = _run(capsys, "shape", "--json", path)
    assert code == 0
    shape = json.loads(out)
    assert list(shape) == ["lanes", "sessions", "sessionsCounted", "handoffs", "carriers", "harnesses", "crossLane",
                           "byHand", "people"]
    assert shape["byHand"] == [{"handoff": "h-ask", "from": "maya", "to": "planner", "who": "Maya", "starts": True}]
    assert out.startswith('{\n  "lanes": 1,') and out.endswith("}\n")


def test_a_map_with_rule_errors_still_has_a_shape(capsys, tmp_path):
    path = _write(tmp_path, "m.grooph-map.json", ex.missing_carrier())
    code, out, _ = _run(capsys, "shape", path)
    assert (code, out) == (0, "tiny-shop: 1 lane · 2 sessions · 2 handoffs\n")


def test_a_map_that_fails_its_structure_is_refused(capsys, tmp_path):
    doc = ex.tiny_shop()
    del doc["sessions"][1]["role"]  # map.md §10.1
    path = _write(tmp_path, "m.grooph-map.json", doc)
    code, out, err = _run(capsys, "shape", path)
    assert (code, out) == (1, "")
    lines = err.splitlines()
    assert lines[0] == f"grooph: {path} is not an operation map grooph can read"
    assert lines[1].startswith("error  E_SCHEMA  /sessions/1/role: ") and lines[1].endswith("[at: coder]")
    code, out, err = _run(capsys, "shape", "--json", path)
    assert code == 1 and json.loads(out)["ok"] is False and json.loads(out)["issues"][0]["at"] == ["coder"]


def test_graph_text_with_tiers(capsys, tmp_path):
    src = FIXTURES / "maps/valid/graphs/release-notes.grooph.json"
    path = str(tmp_path / "notes.grooph.json")
    shutil.copy(src, path)
    code, out, err = _run(capsys, "shape", path)
    assert (code, err) == (0, "")
    assert out == ("weekly-release-notes: 2 agents · 1 check · 1 gate · 1 loop · up to 3 rounds · 12 dispatches\n"
                   "tiers: 1 strong · 1 fast\n")
    code, out, _ = _run(capsys, "shape", path, "--json")
    assert json.loads(out) == {"agents": 2, "checks": 1, "gates": 1, "loops": 1,
                               "tiers": {"frontier": 0, "strong": 1, "fast": 1, "unset": 0},
                               "worstCaseRounds": 3, "budgets": ["12 dispatches"]}


def test_a_graph_without_agents_prints_no_tier_line(capsys, tmp_path):
    path = _write(tmp_path, "g.grooph.json",
                  {"grooph": 0, "id": "g", "name": "", "version": 0, "nodes": [], "edges": [], "loops": []})
    assert _run(capsys, "shape", path)[1] == "g: 0 agents · no loop\n"


def test_not_a_graph_document(capsys, tmp_path):
    path = _write(tmp_path, "g.grooph.json", {"grooph": 0})
    code, out, err = _run(capsys, "shape", path)
    assert (code, out) == (1, "")
    assert err.splitlines()[0] == f"grooph: {path} is not a graph document"
    assert "E_SCHEMA" in err


@pytest.mark.parametrize("name,what", [("m.grooph-map.json", "an operation map grooph can read"),
                                       ("g.grooph.json", "a graph document")])
def test_text_that_is_not_json(capsys, tmp_path, name, what):
    path = _write(tmp_path, name, "{ nope")
    code, out, err = _run(capsys, "shape", path)
    assert (code, out) == (1, "")
    assert err.splitlines()[0] == f"grooph: {path} is not {what}"
    assert "error  E_SCHEMA  /: not valid JSON" in err


def test_missing_file_and_usage_errors(capsys, tmp_path):
    code, out, err = _run(capsys, "shape", "no/such.grooph.json")
    assert (code, out, err) == (1, "", "grooph: no such file: no/such.grooph.json\n")
    code, out, err = _run(capsys, "shape")
    assert code == 1 and err.splitlines()[1] == "Usage: grooph shape <graph | operation map> [--json]"
    code, _, err = _run(capsys, "shape", "a.json", "b.json")
    assert code == 1 and "one file" in err
    code, _, err = _run(capsys, "shape", "a.json", "--pretty")
    assert code == 1 and "unknown flag --pretty" in err


def test_help_page(capsys):
    code, out, _ = _run(capsys, "shape", "--help")
    assert code == 0 and out.startswith("Usage: grooph shape <graph | operation map> [--json]")
    assert "Examples:" in out
