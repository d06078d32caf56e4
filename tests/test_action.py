"""The GitHub Action (`action.yml`, composite; issue 20 point 2), as far as it can run off GitHub: each
step's `run:` script is run as the runner runs a `shell: bash` step (`bash --noprofile --norc -eo pipefail`),
in a temporary workspace, with a fake GITHUB_* environment (GITHUB_ACTION_PATH: a copy of what the package
is built from, GITHUB_OUTPUT, GITHUB_PATH, RUNNER_TEMP …) and the `${{ inputs.* }}` / `${{ steps.*.outputs.* }}`
of its `env:` filled in as the runner fills them. The install step really makes the virtual environment
and pip-installs the action's checkout (with pip as this machine is configured).

What cannot run here: GitHub itself (the expression language beyond these two forms, the annotations
shown on a pull request, the SARIF upload)."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

from tests.conftest import FIXTURES, ROOT
from tests.repos import copy_sources

ACTION = yaml.safe_load((ROOT / "action.yml").read_text(encoding="utf-8"))
BROKEN = FIXTURES / "invalid" / "E_DANGLING_REF" / "spec-example.grooph.json"
VALID = FIXTURES / "valid" / "review-loop.grooph.json"
WORKFLOW = FIXTURES / "workflow" / "valid" / "spec-example.workflow.yaml"
EXPRESSION = re.compile(r"\$\{\{\s*(?:inputs\.([\w-]+)|steps\.([\w-]+)\.outputs\.([\w-]+))\s*\}\}")


def step(step_id: str) -> dict:
    return next(s for s in ACTION["runs"]["steps"] if s.get("id") == step_id)


def read_outputs(file: Path) -> dict[str, str]:
    """The `name=value` lines a step appended to GITHUB_OUTPUT."""
    if not file.exists():
        return {}
    return dict(line.split("=", 1) for line in file.read_text(encoding="utf-8").splitlines() if "=" in line)


class Runner:
    """Runs the action's steps in order, as the runner does, in `workspace`."""

    def __init__(self, base: Path, action_path: Path, workspace: Path, inputs: dict[str, str]):
        self.base, self.action_path, self.workspace = base, action_path, workspace
        defaults = {name: str(spec.get("default", "")) for name, spec in ACTION["inputs"].items()}
        unknown = set(inputs) - set(defaults)
        assert not unknown, f"inputs the action does not declare: {unknown}"
        self.inputs = {**defaults, **inputs}
        self.outputs: dict[str, dict[str, str]] = {}
        self.temp = base / "runner-temp"
        self.temp.mkdir(exist_ok=True)

    def _value(self, text: str) -> str:
        def one(m: re.Match) -> str:
            if m.group(1):
                return self.inputs[m.group(1)]
            return self.outputs.get(m.group(2), {}).get(m.group(3), "")
        return EXPRESSION.sub(one, text)

    def run(self, step_id: str) -> subprocess.CompletedProcess:
        spec = step(step_id)
        assert spec["shell"] == "bash"
        files = {name: self.base / f"{step_id}.{name}" for name in ("output", "path", "env", "summary")}
        for f in files.values():
            f.write_text("", encoding="utf-8")
        script = self.base / f"{step_id}.sh"
        script.write_text(spec["run"], encoding="utf-8")
        env = {k: v for k, v in os.environ.items() if not k.startswith(("GITHUB_", "RUNNER_"))}
        env.update({k: self._value(str(v)) for k, v in spec.get("env", {}).items()})
        env.update(GITHUB_ACTIONS="true", CI="true", RUNNER_OS="Linux", RUNNER_TEMP=str(self.temp),
                   GITHUB_ACTION_PATH=str(self.action_path), GITHUB_WORKSPACE=str(self.workspace),
                   GITHUB_OUTPUT=str(files["output"]), GITHUB_PATH=str(files["path"]), GITHUB_ENV=str(files["env"]),
                   GITHUB_STEP_SUMMARY=str(files["summary"]), GITHUB_REPOSITORY="someone/documents")
        done = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", str(script)], cwd=self.workspace,
                              env=env, capture_output=True, text=True, timeout=900, stdin=subprocess.DEVNULL)
        self.outputs[step_id] = read_outputs(files["output"])
        self.path_lines = files["path"].read_text(encoding="utf-8").splitlines()
        return done

    def output(self, name: str) -> str:
        """An output of the action (`outputs.<name>.value`, evaluated after the steps ran)."""
        return self._value(ACTION["outputs"][name]["value"])


@pytest.fixture(scope="module")
def action_path(tmp_path_factory) -> Path:
    """The action's checkout as the runner downloads it: what the package is built from and action.yml."""
    return copy_sources(tmp_path_factory.mktemp("action") / "grooph-lsp", "action.yml")


@pytest.fixture(scope="module")
def installed(tmp_path_factory, action_path) -> tuple[Path, str, list[str]]:
    """The install step run once: (its RUNNER_TEMP's base, the `grooph` output, the GITHUB_PATH lines)."""
    base = tmp_path_factory.mktemp("runner")
    runner = Runner(base, action_path, base, {})
    done = runner.run("install")
    assert done.returncode == 0, done.stdout + done.stderr
    assert re.search(r"^grooph \d+\.\d+\.\d+ installed with Python 3\.(1[1-9]|[2-9]\d)", done.stdout, re.M), done.stdout
    return base, runner.outputs["install"]["grooph"], runner.path_lines


def workspace(tmp_path: Path) -> Path:
    """A repository's files: a broken graph in a folder with a space, a valid graph, a valid workflow."""
    ws = tmp_path / "workspace"
    (ws / "my graphs").mkdir(parents=True)
    (ws / "flows").mkdir()
    shutil.copy(BROKEN, ws / "my graphs" / "broken.grooph.json")
    shutil.copy(VALID, ws / "my graphs" / "fine.grooph.json")
    shutil.copy(WORKFLOW, ws / "flows" / "board.workflow.yaml")
    return ws


def validate(tmp_path: Path, action_path: Path, installed, inputs: dict[str, str]):
    base, grooph, _ = installed
    tmp_path.mkdir(parents=True, exist_ok=True)
    runner = Runner(tmp_path, action_path, workspace(tmp_path), inputs)
    runner.outputs["install"] = {"grooph": grooph}
    return runner, runner.run("validate")


def test_no_input_is_expanded_inside_a_script():
    """Inputs reach the scripts through `env:` only, so a path or a format cannot become shell code."""
    for s in ACTION["runs"]["steps"]:
        assert "${{" not in s["run"], s["name"]
    assert ACTION["runs"]["using"] == "composite"


def test_install_makes_a_venv_from_the_action_checkout_and_puts_grooph_on_path(installed):
    base, grooph, path_lines = installed
    venv_bin = base / "runner-temp" / "grooph-venv" / "bin"
    assert grooph == str(venv_bin / "grooph") and path_lines == [str(venv_bin)]
    done = subprocess.run([grooph, "validate", str(VALID)], capture_output=True, text=True)
    assert (done.returncode, done.stdout) == (0, f"{VALID}: no issues\n")
    origin = subprocess.run([str(venv_bin / "python"), "-c", "import grooph_core; print(grooph_core.__file__)"],
                            capture_output=True, text=True, cwd=base)
    assert "grooph-venv" in origin.stdout  # installed, not this worktree's code


def test_the_default_inputs_annotate_the_whole_workspace_and_fail_on_errors(tmp_path, action_path, installed):
    _, done = validate(tmp_path, action_path, installed, {})
    assert done.returncode == 1, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    assert any(ln.startswith("::error file=my graphs/broken.grooph.json,line=") and "title=E_DANGLING_REF::" in ln
               for ln in lines), done.stdout
    assert lines[-1] == "checked 3 documents: 1 error, 0 warnings"


def test_paths_one_a_line_with_spaces_and_a_clean_run_passes(tmp_path, action_path, installed):
    _, done = validate(tmp_path, action_path, installed,
                       {"paths": "  my graphs/fine.grooph.json\r\n\nflows\n"})
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.splitlines()[-1] == "checked 2 documents: 0 errors, 0 warnings"


def test_sarif_writes_the_log_and_says_where(tmp_path, action_path, installed):
    runner, done = validate(tmp_path, action_path, installed,
                            {"format": "sarif", "sarif-file": "reports/grooph.sarif", "paths": "my graphs"})
    assert done.returncode == 1, done.stdout + done.stderr  # the errors still fail the step
    assert runner.output("sarif-file") == "reports/grooph.sarif"
    log = json.loads((runner.workspace / "reports" / "grooph.sarif").read_text(encoding="utf-8"))
    assert log["version"] == "2.1.0"
    assert [r["ruleId"] for r in log["runs"][0]["results"]] == ["E_DANGLING_REF"]


def test_wrong_inputs_are_clear_errors(tmp_path, action_path, installed):
    _, done = validate(tmp_path, action_path, installed, {"format": "text"})
    assert done.returncode == 1
    assert done.stdout == '::error title=grooph::the format input is github or sarif, not "text"\n'
    _, done = validate(tmp_path / "missing", action_path, installed, {"paths": "nowhere"})
    assert done.returncode == 1 and "grooph: no such file: nowhere" in done.stderr
    _, done = validate(tmp_path / "dash", action_path, installed, {"paths": "-x.grooph.json"})
    assert done.returncode == 1 and "no such file: ./-x.grooph.json" in done.stderr  # a path, not a flag


def test_install_without_a_new_enough_python_says_what_to_add(tmp_path, action_path):
    old = tmp_path / "bin"
    old.mkdir()
    (old / "python3.10").write_text("#!/bin/sh\nexit 1\n", encoding="utf-8")  # a version check that fails
    (old / "python3.10").chmod(0o755)
    runner = Runner(tmp_path, action_path, tmp_path, {"python": str(old / "python3.10")})
    done = runner.run("install")
    assert done.returncode == 1
    assert done.stdout.startswith("::error title=grooph::no Python 3.11 or newer found (tried: ")
    assert "actions/setup-python" in done.stdout and "grooph" not in runner.outputs["install"]
