"""`grooph validate --changed [REV]` and `--files-from FILE|-` (issue 20 point 3): the files a change
touched, or a list of paths, checked with the same output and exit codes as naming those files; renames,
deletions, paths with spaces, folders outside the repository, and nothing to check said so (exit 0)."""

from __future__ import annotations

import io
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from grooph_core.cli import main
from tests.conftest import FIXTURES
from tests.repos import git

VALID = FIXTURES / "valid" / "review-loop.grooph.json"
OTHER_VALID = FIXTURES / "valid" / "plan-with-gate-before-publish.grooph.json"
BROKEN = FIXTURES / "invalid" / "E_DANGLING_REF" / "spec-example.grooph.json"
WORKFLOW = FIXTURES / "workflow" / "valid" / "spec-example.workflow.yaml"

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="--changed needs git, which is not on PATH")


@pytest.fixture
def repo(tmp_path, monkeypatch) -> Path:
    """A repository on `main` with one commit holding a valid graph, a graph to rename, one to delete and
    a README; the current folder is its root. git reads no user configuration."""
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", os.devnull)
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    root = tmp_path / "repo"
    root.mkdir()
    git(root, "init", "-q", "-b", "main")
    (root / "graphs").mkdir()
    shutil.copy(VALID, root / "graphs" / "kept.grooph.json")
    shutil.copy(VALID, root / "graphs" / "old name.grooph.json")
    shutil.copy(OTHER_VALID, root / "graphs" / "gone.grooph.json")  # not a copy: git must not pair it
    (root / "README.md").write_text("# a repository\n", encoding="utf-8")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "start")
    monkeypatch.chdir(root)
    return root


def run(capsys, *args, stdin: bytes | None = None, monkeypatch=None):
    if stdin is not None:
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin)))
    code = main(["validate", *map(str, args)])
    out = capsys.readouterr()
    return code, out.out, out.err


def named(capsys, *paths):
    """What naming the files prints: the output --changed and --files-from must give."""
    return run(capsys, *paths)


def branch_with_changes(repo: Path) -> None:
    """On a branch off main: a rename (to a name with spaces and a new folder), a deletion, a new broken
    graph staged, a changed README, an untracked workflow, and an ignored graph that must not count."""
    git(repo, "checkout", "-q", "-b", "work")
    (repo / "new place").mkdir()
    git(repo, "mv", "graphs/old name.grooph.json", "new place/renamed graph.grooph.json")
    git(repo, "rm", "-q", "graphs/gone.grooph.json")
    shutil.copy(BROKEN, repo / "graphs" / "broken one.grooph.json")
    git(repo, "add", "graphs/broken one.grooph.json")
    git(repo, "commit", "-q", "-m", "work")
    (repo / "README.md").write_text("# changed\n", encoding="utf-8")
    shutil.copy(WORKFLOW, repo / "board.workflow.yaml")
    (repo / ".gitignore").write_text("scratch/\n", encoding="utf-8")
    (repo / "scratch").mkdir()
    shutil.copy(BROKEN, repo / "scratch" / "ignored.grooph.json")


EXPECTED_CHANGED = ["board.workflow.yaml", "graphs/broken one.grooph.json", "new place/renamed graph.grooph.json"]


def test_changed_checks_what_the_branch_touched_as_naming_them_would(capsys, repo):
    branch_with_changes(repo)
    code, out, err = run(capsys, "--changed")
    assert (code, out, err) == named(capsys, *EXPECTED_CHANGED)
    assert code == 1  # the broken graph
    assert 'edge "e2" ends at unknown node "ghost"' in err
    assert "gone.grooph.json" not in out + err and "old name" not in out + err  # deleted, and renamed away
    assert "ignored" not in out + err and "README" not in out + err and "kept" not in out + err


def test_changed_against_a_revision_and_in_json(capsys, repo):
    branch_with_changes(repo)
    code, out, _ = run(capsys, "--changed", "HEAD", "--json")
    # against HEAD: only what is not committed yet (the untracked workflow; the README is no document)
    assert code == 0
    assert [r["file"] for r in json.loads(out)] == ["board.workflow.yaml"]  # a list, even for one file
    code, out, _ = run(capsys, "--changed=main", "--json")
    assert code == 1
    assert [r["file"] for r in json.loads(out)] == EXPECTED_CHANGED


def test_changed_from_a_subfolder_reports_the_whole_repository_relative_to_it(capsys, repo, monkeypatch):
    branch_with_changes(repo)
    monkeypatch.chdir(repo / "graphs")
    code, out, err = run(capsys, "--changed")
    assert code == 1
    assert (code, out, err) == named(capsys, *(os.path.relpath(repo / p, repo / "graphs") for p in EXPECTED_CHANGED))
    assert "../board.workflow.yaml: no issues" in out


def test_changed_with_nothing_changed_says_so_and_exits_zero(capsys, repo):
    git(repo, "checkout", "-q", "-b", "quiet")
    (repo / "README.md").write_text("# only prose changed\n", encoding="utf-8")
    code, out, err = run(capsys, "--changed")
    assert code == 0 and err == ""
    assert out.startswith("no grooph document changed against the merge base with main (")
    code, out, err = run(capsys, "--changed", "--format", "sarif")
    assert code == 0 and json.loads(out)["runs"][0]["results"] == []
    assert "no grooph document changed" in err


def test_changed_outside_a_repository_and_with_a_bad_revision_are_clear_refusals(capsys, repo, tmp_path,
                                                                               monkeypatch):
    outside = tmp_path / "outside"
    outside.mkdir()
    shutil.copy(BROKEN, outside / "x.grooph.json")
    monkeypatch.chdir(outside)
    code, out, err = run(capsys, "--changed")
    assert code == 1 and out == ""
    assert err.startswith("grooph: --changed compares with a git revision, and ")
    assert str(outside) in err and "not inside a git repository" in err and "Traceback" not in err
    monkeypatch.chdir(repo)
    code, out, err = run(capsys, "--changed", "no-such-branch")
    assert code == 1 and out == ""
    assert '"no-such-branch" is not a revision git knows' in err
    code, _, err = run(capsys, "--changed", "graphs")
    assert code == 1 and "takes no paths" in err  # a folder given where a revision goes


def test_changed_without_a_default_branch_or_history(capsys, tmp_path, monkeypatch):
    root = tmp_path / "fresh"
    root.mkdir()
    git(root, "init", "-q", "-b", "trunk")
    monkeypatch.chdir(root)
    shutil.copy(VALID, root / "first.grooph.json")
    code, out, _ = run(capsys, "--changed")  # no commit yet: every file is new
    assert (code, out) == (0, "first.grooph.json: no issues\n")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "one")
    code, _, err = run(capsys, "--changed")
    assert code == 1 and "could not tell the default branch" in err and "--changed HEAD" in err
    assert run(capsys, "--changed", "HEAD")[:2] == (0, "no grooph document changed against HEAD, so nothing was "
                                                       "checked\n")


def test_files_from_a_file_and_from_stdin_as_git_diff_gives_them(capsys, repo, monkeypatch):
    branch_with_changes(repo)
    # git diff --name-only --no-renames: the rename as a deletion and an addition; deleted paths listed too
    listing = git(repo, "diff", "--name-only", "--no-renames", "main")
    assert "graphs/gone.grooph.json" in listing and "graphs/old name.grooph.json" in listing
    (repo / "list.txt").write_text(listing, encoding="utf-8")
    code, out, err = run(capsys, "--files-from", "list.txt")
    expected = named(capsys, "graphs/broken one.grooph.json", "new place/renamed graph.grooph.json")
    assert (code, out) == expected[:2] and code == 1
    assert err == ("grooph: skipped graphs/gone.grooph.json: it is listed, but there is no such file (deleted?)\n"
                   "grooph: skipped graphs/old name.grooph.json: it is listed, but there is no such file "
                   "(deleted?)\n" + expected[2])
    # the same list on stdin, NUL-separated (git diff -z), CRLF lines, and git's quoted names
    nul = git(repo, "diff", "--name-only", "-z", "main").encode()  # the rename under its new name only
    assert run(capsys, "--files-from", "-", stdin=nul, monkeypatch=monkeypatch) == (
        *expected[:2], "grooph: skipped graphs/gone.grooph.json: it is listed, but there is no such file "
                       "(deleted?)\n" + expected[2])
    crlf = listing.replace("\n", "\r\n").encode()
    assert run(capsys, "--files-from", "-", stdin=crlf, monkeypatch=monkeypatch)[:2] == expected[:2]


def test_files_from_reads_names_git_quotes(capsys, repo, monkeypatch):
    shutil.copy(VALID, repo / "café.grooph.json")
    quoted = git(repo, "-c", "core.quotePath=true", "ls-files", "--others", "--exclude-standard")
    assert quoted.strip() == '"caf\\303\\251.grooph.json"'
    code, out, err = run(capsys, "--files-from", "-", stdin=quoted.encode(), monkeypatch=monkeypatch)
    assert (code, out, err) == (0, "café.grooph.json: no issues\n", "")


def test_files_from_a_folder_outside_the_repository_is_walked_as_when_named(capsys, repo, tmp_path, monkeypatch):
    outside = tmp_path / "elsewhere with space"
    (outside / "deep").mkdir(parents=True)
    shutil.copy(BROKEN, outside / "deep" / "b.grooph.json")
    shutil.copy(WORKFLOW, outside / "w.workflow.yaml")
    empty = tmp_path / "empty"
    empty.mkdir()
    listing = f"{outside}\n{repo / 'graphs' / 'kept.grooph.json'}\n{empty}\n".encode()
    got = run(capsys, "--files-from", "-", stdin=listing, monkeypatch=monkeypatch)
    assert got == named(capsys, outside, repo / "graphs" / "kept.grooph.json", empty)
    assert got[0] == 1 and f"no grooph document in {empty}" in got[2]


def test_files_from_nothing_to_check_missing_list_and_mixed_sources(capsys, repo, monkeypatch):
    code, out, err = run(capsys, "--files-from", "-", stdin=b"README.md\n\n", monkeypatch=monkeypatch)
    assert (code, out, err) == (0, "no grooph document among the paths read from stdin, so nothing was checked\n", "")
    code, out, err = run(capsys, "--files-from", "-", "--json", stdin=b"", monkeypatch=monkeypatch)
    assert (code, json.loads(out)) == (0, [])
    code, out, err = run(capsys, "--files-from", "nope.txt")
    assert (code, out, err) == (1, "", "grooph: no such file: nope.txt\n")
    for args, says in ((["--files-from", "x", "a.grooph.json"], "either as arguments or with --files-from"),
                       (["--changed", "--files-from", "x"], "give one"),
                       (["--changed", "main", "graphs"], "at most one revision"),
                       (["--changed="], "needs a revision")):
        code, out, err = run(capsys, *args)
        assert code == 1 and out == "" and err.startswith("grooph: ") and says in err
        assert "Usage: grooph validate" in err


def test_changed_runs_as_a_command_in_a_fresh_process(repo):
    branch_with_changes(repo)
    done = subprocess.run([sys.executable, "-m", "grooph_core.cli", "validate", "--changed", "--format", "github"],
                          cwd=repo, capture_output=True, text=True)
    assert done.returncode == 1
    assert "::error file=graphs/broken one.grooph.json,line=" in done.stdout
    assert done.stdout.rstrip().endswith("checked 3 documents: 1 error, 0 warnings")
