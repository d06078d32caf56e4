"""The pre-commit hooks this repository ships (`.pre-commit-hooks.yaml`, issue 20 point 1), run by the real
pre-commit (from PyPI, in the test extra) in a temporary git repository: `pre-commit try-repo` with the
hooks' defaults, and a `.pre-commit-config.yaml` with `args:` (`--format github`, `--write`).

pre-commit installs the hooks' own environment (`language: python`: a virtualenv and `pip install` of
the hook repository) with pip as this machine is configured (its index or cache; conftest keeps
PIP_CONFIG_FILE), into folders under tmp_path (PRE_COMMIT_HOME, TMPDIR), never the user's home. The
hook repository is a git snapshot of what the package is built from, so what runs is this worktree's
code whatever is committed here."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from grooph_core.schema.canonical import canonical_text
from grooph_core.source.kinds import DOC_SUFFIXES, GRAPH_SUFFIX, MAP_SUFFIX, NEIGHBOURS
from tests.conftest import FIXTURES, ROOT
from tests.repos import copy_sources, git, git_env

HOOKS_FILE = ROOT / ".pre-commit-hooks.yaml"
BROKEN = FIXTURES / "invalid" / "E_DANGLING_REF" / "spec-example.grooph.json"
VALID = FIXTURES / "valid" / "review-loop.grooph.json"
MAP = FIXTURES / "maps" / "valid" / "tiny-shop.grooph-map.json"
WORKFLOW = FIXTURES / "workflow" / "valid" / "spec-example.workflow.yaml"


def hooks() -> dict[str, dict]:
    return {h["id"]: h for h in yaml.safe_load(HOOKS_FILE.read_text(encoding="utf-8"))}


# ---------------------------------------------------------------------------------------------------
# the hooks file itself (no install)


def test_the_hooks_select_exactly_the_files_each_command_reads():
    """grooph-validate: every kind the tool reads (kinds.DOC_SUFFIXES), letter case ignored as the tool
    ignores it; grooph-fmt: graphs and maps only, since fmt refuses the neighbouring kinds (cli.md §0.4)."""
    by_id = hooks()
    assert set(by_id) == {"grooph-validate", "grooph-fmt"}
    validate, fmt = (re.compile(by_id[h]["files"]) for h in ("grooph-validate", "grooph-fmt"))
    neighbours = [s for k in NEIGHBOURS for s in k.suffixes]
    for suffix in DOC_SUFFIXES:
        for name in (f"dir/x{suffix}", f"X{suffix.upper()}", f"with space{suffix}"):
            assert validate.search(name), name
            assert bool(fmt.search(name)) == (suffix in (GRAPH_SUFFIX, MAP_SUFFIX)), name
    assert sorted(DOC_SUFFIXES) == sorted([GRAPH_SUFFIX, MAP_SUFFIX, *neighbours])
    for other in ("x.json", "x.yaml", "README.md", "x.grooph.json.bak", "grooph.json", "x.workflow.yaml~"):
        assert not validate.search(other) and not fmt.search(other), other
    for hook in by_id.values():
        assert hook["language"] == "python" and hook["types"] == ["text"]
    assert by_id["grooph-validate"]["entry"] == "grooph validate" and "args" not in by_id["grooph-validate"]
    assert (by_id["grooph-fmt"]["entry"], by_id["grooph-fmt"]["args"]) == ("grooph fmt", ["--check"])


# ---------------------------------------------------------------------------------------------------
# the real pre-commit


def _env(base: Path) -> dict:
    """git's test environment, and pre-commit's store and temp folders under `base`."""
    return git_env(PRE_COMMIT_HOME=str(base / "pre-commit-home"), TMPDIR=str(base / "tmp"),
                   PRE_COMMIT_COLOR="never", NO_COLOR="1")


def _run(args: list, cwd: Path, env: dict) -> subprocess.CompletedProcess:
    return subprocess.run([str(a) for a in args], cwd=cwd, env=env, capture_output=True, text=True, timeout=900,
                          stdin=subprocess.DEVNULL)


@pytest.fixture(scope="module")
def base(tmp_path_factory) -> Path:
    b = tmp_path_factory.mktemp("pre-commit")
    (b / "tmp").mkdir()
    return b


@pytest.fixture(scope="module")
def hook_repo(base: Path) -> tuple[Path, str]:
    """A git repository holding what the package is built from and the hooks file, one commit: (path, sha)."""
    repo = copy_sources(base / "hook-repo", ".pre-commit-hooks.yaml")
    git(repo, "init", "-q")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "snapshot")
    return repo, git(repo, "rev-parse", "HEAD").strip()


def _user_repo(base: Path, name: str) -> Path:
    """A user's repository with, staged: a broken graph, a non-canonical map, a valid workflow and a README."""
    repo = base / name
    (repo / "graphs").mkdir(parents=True)
    git(repo, "init", "-q")
    shutil.copy(BROKEN, repo / "graphs" / "broken graph.grooph.json")
    compact = json.dumps(json.loads(MAP.read_text(encoding="utf-8")), ensure_ascii=False)
    (repo / "studio.grooph-map.json").write_text(compact + "\n", encoding="utf-8")
    shutil.copy(WORKFLOW, repo / "board.workflow.yaml")
    (repo / "README.md").write_text("# notes\n", encoding="utf-8")
    git(repo, "add", "-A")
    return repo


def _hook_blocks(output: str) -> dict[str, tuple[str, str]]:
    """pre-commit's report per hook name: (its status word, what the hook printed)."""
    blocks: dict[str, tuple[str, str]] = {}
    current = None
    for line in output.splitlines():
        head = re.match(r"^(grooph (?:validate|fmt))\.*(?:\(no files to check\))?(Passed|Failed|Skipped)$", line)
        if head:
            current = head.group(1)
            blocks[current] = (head.group(2), "")
        elif current:
            blocks[current] = (blocks[current][0], blocks[current][1] + line + "\n")
    return blocks


def test_try_repo_runs_both_hooks_on_the_staged_files(base, hook_repo):
    repo = _user_repo(base, "try-repo-user")
    env = _env(base)
    done = _run([sys.executable, "-m", "pre_commit", "try-repo", hook_repo[0], "--color", "never"], repo, env)
    blocks = _hook_blocks(done.stdout)
    assert done.returncode == 1, done.stdout + done.stderr
    assert set(blocks) == {"grooph validate", "grooph fmt"}, done.stdout + done.stderr

    status, said = blocks["grooph validate"]
    assert status == "Failed" and "- exit code: 1" in said
    assert 'error  E_DANGLING_REF  edge "e2" ends at unknown node "ghost"  [at: e2]' in said
    assert "graphs/broken graph.grooph.json: 1 error, 0 warnings" in said
    assert "studio.grooph-map.json: no issues" in said and "board.workflow.yaml: no issues" in said
    assert re.search(r"^checked \d+ documents: 1 error, 0 warnings$", said, flags=re.M), said  # the total
    assert "README" not in said

    status, said = blocks["grooph fmt"]
    assert status == "Failed" and "- exit code: 1" in said
    assert "studio.grooph-map.json is not canonical" in said
    assert re.search(r"^checked \d+ documents?: 1 not canonical$", said, flags=re.M), said
    assert "board.workflow.yaml" not in said and "broken graph" not in said  # canonical, and never formatted
    # --check wrote nothing
    assert (repo / "studio.grooph-map.json").read_text(encoding="utf-8").count("\n") == 1


def test_a_config_passes_args_through_and_write_rewrites_and_fails(base, hook_repo):
    repo = _user_repo(base, "config-user")
    env = _env(base)
    path, sha = hook_repo
    config = {"repos": [{"repo": str(path), "rev": sha, "hooks": [
        {"id": "grooph-validate", "args": ["--format", "github"]},
        {"id": "grooph-fmt", "args": ["--write"]},
    ]}]}
    (repo / ".pre-commit-config.yaml").write_text(yaml.safe_dump(config), encoding="utf-8")
    precommit = [sys.executable, "-m", "pre_commit", "run", "--color", "never"]

    done = _run(precommit, repo, env)
    blocks = _hook_blocks(done.stdout)
    assert done.returncode == 1, done.stdout + done.stderr
    status, said = blocks["grooph validate"]
    assert status == "Failed"
    assert "::error file=graphs/broken graph.grooph.json,line=" in said and "title=E_DANGLING_REF::" in said
    assert "checked 3 documents: 1 error, 0 warnings" in said
    status, said = blocks["grooph fmt"]
    assert status == "Failed" and "- files were modified by this hook" in said
    assert "studio.grooph-map.json rewritten in canonical form" in said
    value = json.loads(MAP.read_text(encoding="utf-8"))
    assert (repo / "studio.grooph-map.json").read_text(encoding="utf-8") == canonical_text(value, "map")

    # the rewrite staged and the graph mended: both hooks pass; the workflow never troubled fmt
    shutil.copy(VALID, repo / "graphs" / "broken graph.grooph.json")
    git(repo, "add", "-A")
    done = _run(precommit, repo, env)
    assert done.returncode == 0, done.stdout + done.stderr
    assert {k: v[0] for k, v in _hook_blocks(done.stdout).items()} == {"grooph validate": "Passed",
                                                                      "grooph fmt": "Passed"}

    # a workflow alone: validated, and no file for fmt, which is skipped rather than failed
    done = _run([*precommit, "--files", "board.workflow.yaml"], repo, env)
    assert done.returncode == 0, done.stdout + done.stderr
    assert {k: v[0] for k, v in _hook_blocks(done.stdout).items()} == {"grooph validate": "Passed",
                                                                      "grooph fmt": "Skipped"}


def test_readme_snippets_name_what_the_hooks_file_and_the_action_declare():
    """README's "In your repository" snippets are copy-pasteable: valid YAML naming these hook ids and
    this action's inputs and outputs."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## In your repository", 1)[1].split("\n## ", 1)[0]
    blocks = [yaml.safe_load(b) for b in re.findall(r"```yaml\n(.*?)```", section, re.S)]
    config, workflow = blocks
    (repo,) = config["repos"]
    assert {h["id"] for h in repo["hooks"]} == set(hooks())
    action = yaml.safe_load((ROOT / "action.yml").read_text(encoding="utf-8"))
    steps = workflow["jobs"]["grooph"]["steps"]
    ours = next(s for s in steps if s.get("uses", "").startswith("grooph/grooph-lsp@"))
    assert set(ours["with"]) <= set(action["inputs"]) and ours["with"]["format"] in ("github", "sarif")
    upload = next(s for s in steps if s.get("uses", "").startswith("github/codeql-action/upload-sarif"))
    assert upload["with"]["sarif_file"] == "${{ steps.%s.outputs.sarif-file }}" % ours["id"]
    assert "sarif-file" in action["outputs"]
    assert "grooph validate --changed" in section and "--files-from -" in section
