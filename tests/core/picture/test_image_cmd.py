"""`grooph image` (cli.md §3.1)."""

import json
import struct

import pytest

from grooph_core.cli import main
from grooph_core.picture import render_svg

from .helpers import EXAMPLES, bakery, essay, parse

MAP = str(EXAMPLES / "bakery-ops.grooph-map.json")
GRAPH = str(EXAMPLES / "essay-week.grooph.json")


def run(capsys, *argv):
    code = main(["image", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_svg_on_stdout_in_the_auto_theme(capsys):
    code, out, err = run(capsys, MAP)
    assert code == 0 and err == ""
    assert out == render_svg(bakery(), "map", theme="auto")
    assert out.endswith("</svg>\n") and "prefers-color-scheme:dark" in out


def test_views_and_themes(capsys):
    code, out, _ = run(capsys, MAP, "--layout", "wide", "--theme", "dark")
    assert code == 0 and out == render_svg(bakery(), "map", theme="dark", layout="wide")
    code, out, _ = run(capsys, MAP, "--view", "sequence", "--theme", "light")
    assert code == 0 and parse(out).attrib["data-picture"] == "sequence"
    code, out, _ = run(capsys, MAP, "--layout", "phone", "--view", "picture")
    assert code == 0 and out == render_svg(bakery(), "map", theme="auto")
    code, out, _ = run(capsys, GRAPH, "--theme", "light")
    assert code == 0 and out == render_svg(essay(), "graph")


def test_out_svg_and_png(capsys, tmp_path):
    svg_path = tmp_path / "deep" / "pic.SVG"
    code, out, err = run(capsys, MAP, "--out", str(svg_path))
    assert code == 0 and out == f"wrote {svg_path}\n" and err == ""
    assert svg_path.read_text("utf-8") == render_svg(bakery(), "map", theme="auto")
    png_path = tmp_path / "pic.png"
    code, out, _ = run(capsys, MAP, "--out", str(png_path), "--scale", "2")
    assert code == 0 and out == f"wrote {png_path}\n"
    data = png_path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and struct.unpack(">II", data[16:24]) == (800, 892 * 2)
    code, _, _ = run(capsys, GRAPH, "--out", str(tmp_path / "g.png"), "--theme", "dark")
    assert code == 0 and struct.unpack(">II", (tmp_path / "g.png").read_bytes()[16:24]) == (1200, 708 * 3)


@pytest.mark.parametrize("argv,needle", [
    (["--out", "x.pdf"], "grooph: --out must name a .svg or .png file"),
    (["--theme", "sepia"], 'grooph: unknown theme "sepia"'),
    (["--out", "x.png", "--theme", "auto"], "grooph: a PNG holds one palette"),
    (["--layout", "tall"], 'grooph: unknown layout "tall"'),
    (["--view", "film"], 'grooph: unknown view "film"'),
    (["--view", "sequence", "--layout", "wide"], "only one layout"),
    (["--events", "chef=events.jsonl"], "--events (live marks"),
    (["--view", "sequence", "--events", "chef=x"], "cannot show --events"),
    (["--open", "all"], "--open is only for graphs"),
])
def test_refusals_exit_1_with_a_reason(capsys, argv, needle):
    code, out, err = run(capsys, MAP, *argv)
    assert code == 1 and out == "" and needle in err and err.startswith("grooph: ")
    assert "Traceback" not in err


def test_graph_only_has_one_layout(capsys):
    code, _, err = run(capsys, GRAPH, "--layout", "wide")
    assert code == 1 and "for operation maps" in err
    code, _, err = run(capsys, GRAPH, "--view", "sequence")
    assert code == 1 and "for operation maps" in err


@pytest.mark.parametrize("value", ["0", "9", "-1", "abc", "nan"])
def test_scale_is_a_usage_error(capsys, value):
    code, out, err = run(capsys, MAP, "--scale", value)
    assert code == 1 and out == ""
    assert err.startswith("grooph: --scale must be") and "Usage: grooph image" in err and "More: grooph help image" in err


def test_usage_errors(capsys):
    code, _, err = run(capsys)
    assert code == 1 and "a graph or operation map file is required" in err and "Usage: grooph image" in err
    code, _, err = run(capsys, MAP, "--frobnicate")
    assert code == 1 and "unknown flag --frobnicate" in err


def test_unreadable_files(capsys, tmp_path):
    code, _, err = run(capsys, str(tmp_path / "nope.grooph.json"))
    assert code == 1 and err == f"grooph: no such file: {tmp_path / 'nope.grooph.json'}\n"
    bad = tmp_path / "bad.grooph.json"
    bad.write_text("{ not json", "utf-8")
    code, _, err = run(capsys, str(bad))
    assert code == 1 and err.startswith(f"grooph: {bad} is not JSON: ")
    broken = tmp_path / "broken.grooph-map.json"
    broken.write_text(json.dumps({"groophMap": 0, "id": "m", "name": "M", "version": 1, "lanes": [],
                                  "sessions": [{"id": "s"}], "handoffs": []}), "utf-8")
    code, out, err = run(capsys, str(broken))
    lines = err.splitlines()
    assert code == 1 and out == ""
    assert lines[0] == f"grooph: {broken} is not an operation map grooph can read"
    assert all(line.startswith("error  E_SCHEMA  /sessions/0") for line in lines[1:]) and len(lines) > 1
    notgraph = tmp_path / "x.json"
    notgraph.write_text('{"hello": 1}', "utf-8")
    code, _, err = run(capsys, str(notgraph))
    assert code == 1 and err.splitlines()[0] == f"grooph: {notgraph} is neither a graph document nor an operation map"


def test_a_document_with_rule_errors_is_drawn(capsys, tmp_path):
    doc = bakery()
    doc["handoffs"][0]["to"] = "nobody"
    p = tmp_path / "dangling.grooph-map.json"
    p.write_text(json.dumps(doc), "utf-8")
    code, out, err = run(capsys, str(p), "--theme", "light")
    assert code == 0 and err == "" and 'data-handoff-row="h-menu"' in out


def test_help_page(capsys):
    assert main(["help", "image"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Usage: grooph image <graph | operation map>") and "Examples:" in out
