"""The install docs/editors.md gives (grooph-lsp is not on PyPI): a wheel built from a checkout holds
everything the two programs need. Built and installed here without the network (no dependencies are
fetched: the test's own interpreter has them), then run from a folder outside the checkout, so what
answers is the wheel's code, schemas and docs, not this worktree's."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.conftest import FIXTURES
from tests.repos import copy_sources


def _run(args: list, cwd: Path, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([str(a) for a in args], cwd=cwd, capture_output=True, text=True, timeout=300,
                          env={**os.environ, "PIP_DISABLE_PIP_VERSION_CHECK": "1", **(env or {})})


def test_the_built_wheel_runs_grooph_lsp_and_grooph(tmp_path: Path):
    source = copy_sources(tmp_path / "checkout")
    dist = tmp_path / "dist"
    built = _run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w", dist, source], cwd=tmp_path)
    assert built.returncode == 0, built.stderr
    wheels = list(dist.glob("grooph_lsp-*-py3-none-any.whl"))
    assert len(wheels) == 1, list(dist.iterdir())

    target = tmp_path / "installed"
    installed = _run([sys.executable, "-m", "pip", "install", "--no-deps", "--no-index", "-q", "--target", target, wheels[0]], cwd=tmp_path)
    assert installed.returncode == 0, installed.stderr
    assert (target / "bin" / "grooph-lsp").exists() and (target / "bin" / "grooph").exists()

    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = {"PYTHONPATH": str(target), "PYTHONSAFEPATH": "1"}
    version = _run([target / "bin" / "grooph-lsp", "--version"], cwd=elsewhere, env=env)
    assert version.returncode == 0 and version.stdout.startswith("grooph-lsp "), (version.stdout, version.stderr)

    # `grooph validate --json` of a valid and an invalid fixture: the schema and the rules came with the wheel.
    valid = FIXTURES / "valid" / "review-loop.grooph.json"
    dangling = sorted((FIXTURES / "invalid" / "E_DANGLING_REF").glob("*.grooph.json"))[0]
    out = _run([target / "bin" / "grooph", "validate", "--json", valid, dangling], cwd=elsewhere, env=env)
    assert out.returncode == 1, out.stderr
    reports = json.loads(out.stdout)
    reports = reports if isinstance(reports, list) else [reports]
    assert [r["ok"] for r in reports] == [True, False]
    assert "E_DANGLING_REF" in [i["code"] for i in reports[1]["issues"]]
    origin = _run([sys.executable, "-c", "import grooph_core; print(grooph_core.__file__)"], cwd=elsewhere, env=env)
    assert Path(origin.stdout.strip()).is_relative_to(target), origin.stdout
