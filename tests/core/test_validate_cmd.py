"""`grooph validate` (cli.md §2.1, issue 2 item 5, issue 3 item 5): listings, JSON reports, exit codes,
folders, and one clear issue for every file that cannot be read — never a traceback."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from hypothesis import HealthCheck, given, settings, strategies as st

from grooph_core.cli import main
from grooph_core.rules.validate import validate_value
from grooph_core.source.json_reader import parse_strict
from tests.conftest import FIXTURES

DANGLING = FIXTURES / "invalid" / "E_DANGLING_REF" / "spec-example.grooph.json"


def run(capsys, *args):
    code = main(["validate", *map(str, args)])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_valid_folders_exit_zero(capsys):
    code, out, err = run(capsys, FIXTURES / "valid", FIXTURES / "maps" / "valid")
    assert code == 0, err
    assert "no issues" in out


def test_several_documents_end_with_a_total_on_stderr(capsys, tmp_path):
    """Issue 32: a run over many documents ends with one total line on stderr; stdout stays the findings,
    and one document's own summary line is its total (nothing more is printed)."""
    code, out, err = run(capsys, FIXTURES / "valid", DANGLING)
    assert code == 1
    assert err.splitlines()[-1] == "checked 7 documents: 1 error, 0 warnings"
    assert "checked" not in out
    code, out, err = run(capsys, DANGLING)
    assert "checked" not in err + out


def test_an_error_goes_to_stderr_and_exits_one(capsys):
    code, out, err = run(capsys, DANGLING)
    assert code == 1
    lines = err.splitlines()
    assert lines[0].startswith("error  E_DANGLING_REF  ") and lines[0].endswith("  [at: e2]")
    assert lines[1] == f"{DANGLING}: 1 error, 0 warnings"
    assert out == ""


def test_locations_prefix_file_line_col(capsys):
    code, out, err = run(capsys, DANGLING, "--locations")
    text = DANGLING.read_text()
    line = text[: text.index('"ghost"')].count("\n") + 1
    col = text.index('"ghost"') - text.rfind("\n", 0, text.index('"ghost"'))
    assert err.splitlines()[0].startswith(f"{DANGLING}:{line}:{col}: error  E_DANGLING_REF")


def test_json_report_for_one_file_and_for_several(capsys):
    code, out, _ = run(capsys, "--json", DANGLING)
    report = json.loads(out)
    assert list(report) == ["file", "ok", "kind", "issues"]
    assert report["ok"] is False and report["kind"] == "graph"
    (issue,) = report["issues"]
    assert list(issue) == ["code", "severity", "message", "at", "range"]
    text = DANGLING.read_text()
    assert issue["range"]["start"]["line"] == text[: text.index('"ghost"')].count("\n")
    code, out, _ = run(capsys, "--json", DANGLING, FIXTURES / "maps" / "valid" / "tiny-shop.grooph-map.json")
    reports = json.loads(out)
    assert [r["kind"] for r in reports] == ["graph", "map"]
    assert "byHand" in reports[1]


def test_export_flag_and_its_alias(capsys):
    path = FIXTURES / "invalid" / "E_NO_GOAL" / "spec-example.grooph.json"
    assert run(capsys, path)[0] == 0
    for flag in ("--for-export", "--complete"):
        code, _, err = run(capsys, path, flag)
        assert code == 1 and "E_NO_GOAL" in err


def test_unreadable_files_get_one_clear_issue_and_the_run_goes_on(capsys, tmp_path):
    cases = {
        "empty.grooph.json": b"",
        "bom.grooph.json": b"\xef\xbb\xbf{}",
        "latin1.grooph.json": '{"name": "café"}'.encode("latin-1"),
        "nan.grooph.json": b'{"grooph": NaN}',
        "deep.grooph.json": b"[" * 5000 + b"]" * 5000,
        "trailing.grooph.json": b'{"grooph": 0,}',
    }
    for name, data in cases.items():
        (tmp_path / name).write_bytes(data)
    code, out, err = run(capsys, "--json", tmp_path)
    assert code == 1
    reports = json.loads(out)
    assert len(reports) == len(cases)
    for r in reports:
        assert [i["code"] for i in r["issues"]] == ["E_SCHEMA"], r
        assert r["issues"][0]["message"].startswith("/: not valid JSON: ")
    assert "Traceback" not in err


def test_missing_file_and_usage_errors(capsys, tmp_path):
    code, _, err = run(capsys, tmp_path / "nope.grooph.json")
    assert code == 1 and err.startswith("grooph: no such file: ")
    code, _, err = run(capsys)
    assert code == 1 and "Usage: grooph validate" in err
    code, _, err = run(capsys, DANGLING, "--bogus")
    assert code == 1 and "unknown flag --bogus" in err


def test_console_script_runs():
    r = subprocess.run([sys.executable, "-m", "grooph_core.cli", "validate", str(DANGLING)], capture_output=True, text=True)
    assert r.returncode == 1 and "E_DANGLING_REF" in r.stderr


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=10),
    lambda c: st.lists(c, max_size=5) | st.dictionaries(
        st.sampled_from(["grooph", "groophMap", "id", "name", "version", "nodes", "edges", "loops", "lanes", "sessions",
                         "handoffs", "kind", "from", "to", "members", "back", "stops", "carrier", "x"]) | st.text(max_size=4),
        c, max_size=6),
    max_leaves=30,
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(json_values)
def test_validate_never_raises_on_any_json_value(value):
    for kind in ("graph", "map"):
        for export in (False, True):
            for issue in validate_value(value, kind, export=export):
                assert issue.severity in ("error", "warning")


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=200))
def test_reading_never_raises_on_any_bytes(data):
    from grooph_core.source.load import decode

    text, err = decode(data)
    if text is not None:
        value, err = parse_strict(text)
        if err is None:
            validate_value(value, "graph")
