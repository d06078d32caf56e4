"""`grooph fmt` / `grooph canonicalize` (cli.md §2.3, §0.2, §0.5, §0.6)."""

from __future__ import annotations

import json

import pytest

from grooph_core.cli import main

MESSY = '{"version":1,"name":"G","id":"g","grooph":0,"loops":[],"edges":[],"nodes":[{"name":"End","kind":"stop","id":"end","zeta":1}],"extra":true}'
CANONICAL = """{
  "grooph": 0,
  "id": "g",
  "name": "G",
  "version": 1,
  "nodes": [
    {
      "id": "end",
      "kind": "stop",
      "name": "End",
      "zeta": 1
    }
  ],
  "edges": [],
  "loops": [],
  "extra": true
}
"""
MAP = '{"version":1,"groophMap":0,"name":"M","id":"m","handoffs":[],"sessions":[],"lanes":[{"account":"me","machine":"pc","name":"L","id":"l"}]}'


@pytest.fixture
def workdir(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    return tmp_path


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_prints_canonical_text_exactly(workdir, capsys):
    (workdir / "g.grooph.json").write_text(MESSY)
    code, out, err = run(capsys, "fmt", "g.grooph.json")
    assert (code, out, err) == (0, CANONICAL, "")
    assert (workdir / "g.grooph.json").read_text() == MESSY  # a dry run writes nothing


def test_canonicalize_is_the_same_command(workdir, capsys):
    (workdir / "g.grooph.json").write_text(MESSY)
    assert run(capsys, "canonicalize", "g.grooph.json") == (0, CANONICAL, "")


def test_write_rewrites_then_says_already_canonical(workdir, capsys):
    path = workdir / "g.grooph.json"
    path.write_text(MESSY)
    assert run(capsys, "fmt", "g.grooph.json", "--write") == (0, "g.grooph.json rewritten in canonical form\n", "")
    assert path.read_bytes() == CANONICAL.encode()
    assert run(capsys, "canonicalize", "--write", "g.grooph.json") == (0, "g.grooph.json is already canonical\n", "")


def test_check(workdir, capsys):
    (workdir / "g.grooph.json").write_text(MESSY)
    assert run(capsys, "fmt", "g.grooph.json", "--check") == (
        1, "", "g.grooph.json is not canonical\nchecked 1 document: 1 not canonical\n")
    assert (workdir / "g.grooph.json").read_text() == MESSY
    (workdir / "g.grooph.json").write_text(CANONICAL)
    assert run(capsys, "fmt", "--check", "g.grooph.json") == (0, "", "checked 1 document: all canonical\n")


def test_crlf_text_is_not_canonical(workdir, capsys):
    (workdir / "g.grooph.json").write_bytes(CANONICAL.replace("\n", "\r\n").encode())
    assert run(capsys, "fmt", "g.grooph.json", "--check")[0] == 1
    assert run(capsys, "fmt", "g.grooph.json", "--write")[0] == 0
    assert (workdir / "g.grooph.json").read_bytes() == CANONICAL.encode()


def test_a_map_by_content_gets_the_maps_order(workdir, capsys):
    (workdir / "m.json").write_text(MAP)
    code, out, _ = run(capsys, "fmt", "m.json")
    assert code == 0
    assert list(json.loads(out)) == ["groophMap", "id", "name", "version", "lanes", "sessions", "handoffs"]
    assert list(json.loads(out)["lanes"][0]) == ["id", "name", "machine", "account"]


def test_schema_failure_lists_e_schema_and_writes_nothing(workdir, capsys):
    text = '{"grooph":0,"id":"Bad Id","name":"X","version":1.5,"nodes":[],"edges":[],"loops":[]}'
    (workdir / "bad.grooph.json").write_text(text)
    code, out, err = run(capsys, "fmt", "bad.grooph.json", "--write")
    assert code == 1 and out == ""
    assert err.splitlines() == [
        'error  E_SCHEMA  /id: expected kebab-case id matching ^[a-z][a-z0-9-]*$, got "Bad Id"',
        "error  E_SCHEMA  /version: expected integer, got 1.5",
        "bad.grooph.json: 2 errors, 0 warnings",
    ]
    assert (workdir / "bad.grooph.json").read_text() == text


def test_text_that_is_not_json(workdir, capsys):
    (workdir / "t.grooph.json").write_text('{"grooph":0,')
    code, out, err = run(capsys, "fmt", "t.grooph.json")
    assert code == 1 and out == ""
    first, summary = err.splitlines()
    assert first.startswith("error  E_SCHEMA  /: not valid JSON")
    assert summary == "t.grooph.json: 1 error, 0 warnings"


def test_missing_file_and_usage_errors(workdir, capsys):
    assert run(capsys, "fmt", "nope.grooph.json") == (1, "", "grooph: no such file: nope.grooph.json\n")
    code, out, err = run(capsys, "fmt")
    assert code == 1 and err.startswith("grooph: a file to format is required\nUsage: grooph fmt")
    assert "More: grooph help fmt" in err
    assert run(capsys, "fmt", "a", "--write", "--check")[0] == 1
    assert run(capsys, "fmt", "a", "--force")[2].startswith("grooph: unknown flag --force")
    assert run(capsys, "fmt", "a", "b")[0] == 1


def test_help_page_has_synopsis_and_an_example(capsys):
    code, out, _ = run(capsys, "help", "canonicalize")
    assert code == 0 and out.startswith("Usage: grooph fmt <file> [--write]") and "grooph fmt review.grooph.json" in out


def test_the_kept_graph_is_refused(workdir, capsys):
    kept = workdir / ".grooph" / "my-graph" / "graph.grooph.json"
    kept.parent.mkdir(parents=True)
    kept.write_text(MESSY)
    code, out, err = run(capsys, "fmt", str(kept), "--write")
    assert code == 1 and out == ""
    assert "only export writes it" in err and "nothing was" in err
    assert kept.read_text() == MESSY
    assert run(capsys, "fmt", str(kept))[0] == 0  # printing it is fine


def test_write_refuses_what_formatting_would_lose(workdir, capsys):
    text = ('{"grooph":0,"id":"g","name":"G","version":1,"nodes":[],"edges":[],"loops":[],'
            '"big":12345678901234567890,"x":1,"x":2}')
    (workdir / "g.grooph.json").write_text(text)
    code, out, err = run(capsys, "fmt", "g.grooph.json", "--write")
    assert code == 1 and out == ""
    assert "12345678901234567890" in err and '"x" appears twice' in err and "Nothing was written" in err
    assert (workdir / "g.grooph.json").read_text() == text


def test_check_over_folders(workdir, capsys):
    (workdir / "docs" / "sub").mkdir(parents=True)
    (workdir / "docs" / "a.grooph.json").write_text(CANONICAL)
    (workdir / "docs" / "sub" / "b.grooph-map.json").write_text(MAP)
    (workdir / "docs" / "notes.txt").write_text("not a document")
    code, out, err = run(capsys, "fmt", "--check", "docs")
    assert code == 1 and out == ""
    assert err == "docs/sub/b.grooph-map.json is not canonical\nchecked 2 documents: 1 not canonical\n"
    assert run(capsys, "fmt", "--write", "docs")[1] == ("docs/a.grooph.json is already canonical\n"
                                                       "docs/sub/b.grooph-map.json rewritten in canonical form\n")
    assert run(capsys, "fmt", "--check", "docs") == (0, "", "checked 2 documents: all canonical\n")
    (workdir / "docs" / "c.grooph.json").write_text("{not json")
    code, out, err = run(capsys, "fmt", "--check", "docs")
    assert code == 1 and out == "" and err.endswith("checked 3 documents: 0 not canonical, 1 not formatted (above)\n")


def test_a_folder_walk_never_enters_version_control_metadata(workdir, capsys):
    """As `grooph validate`'s walk (discover.SKIPPED_FOLDERS): a document-named file under `.git` is git's,
    not the user's; `--write` must never rewrite it, and `--check` must not fail on it."""
    (workdir / "docs" / ".git" / "refs").mkdir(parents=True)
    (workdir / "docs" / ".git" / "refs" / "stray.grooph.json").write_text(MESSY)
    (workdir / "docs" / "a.grooph.json").write_text(CANONICAL)
    assert run(capsys, "fmt", "--check", "docs") == (0, "", "checked 1 document: all canonical\n")
    assert run(capsys, "fmt", "--write", "docs")[1] == "docs/a.grooph.json is already canonical\n"
    assert (workdir / "docs" / ".git" / "refs" / "stray.grooph.json").read_text() == MESSY


def test_a_folder_without_a_graph_or_map_is_said_and_fails(workdir, capsys):
    """As `grooph validate` does: formatting or checking nothing must not read as "all canonical"."""
    (workdir / "empty").mkdir()
    (workdir / "docs").mkdir()
    (workdir / "docs" / "a.grooph.json").write_text(CANONICAL)
    said = ("grooph: no graph or operation map in empty (looked for *.grooph.json and *.grooph-map.json "
            "in it and its subfolders)\n")
    assert run(capsys, "fmt", "--check", "empty", "docs") == (1, "", said + "checked 1 document: all canonical\n")
    assert run(capsys, "fmt", "--check", "empty") == (1, "", said + "checked 0 documents\n")
    assert run(capsys, "fmt", "--write", "empty", "docs") == (1, "docs/a.grooph.json is already canonical\n", said)


def test_folder_without_a_flag_is_a_usage_error(workdir, capsys):
    (workdir / "docs").mkdir()
    code, _, err = run(capsys, "fmt", "docs")
    assert code == 1 and "is a folder" in err
