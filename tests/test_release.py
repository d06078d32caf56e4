"""Ready for an index (issue 32): the version in one place, agreed on by everything that shows it; the sdist
and the wheel built as a release builds them, passing `twine check`; the sdist installed into a fresh
virtual environment without the network answers `grooph --version` and a server `initialize`; the release
workflow accepted by GitHub's workflow schema."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from grooph_core import __version__
from tests.repos import copy_sources

ROOT = Path(__file__).resolve().parents[1]


def _run(args: list, cwd: Path, **kw) -> subprocess.CompletedProcess:
    env = {**kw.pop("env", os.environ), "PIP_DISABLE_PIP_VERSION_CHECK": "1", "PIP_NO_INDEX": "1"}
    return subprocess.run([str(a) for a in args], cwd=cwd, capture_output=True, text=True, timeout=600, env=env, **kw)


def test_the_version_lives_in_one_place_and_everything_agrees():
    assert re.fullmatch(r"\d+\.\d+\.\d+", __version__)
    project = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))
    assert "version" not in project["project"] and project["project"]["dynamic"] == ["version"]
    assert project["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "grooph_core.__version__"}
    done = _run([sys.executable, "-m", "grooph_core", "--version"], ROOT)
    assert done.stdout == f"{__version__}\n"
    package = json.loads((ROOT / "editors" / "vscode" / "package.json").read_text("utf-8"))
    assert package["version"] == __version__, "editors/vscode/package.json's version differs from grooph_core's"
    readme = (ROOT / "README.md").read_text("utf-8")
    pins = re.findall(r"rev: (v[\w.]+)", readme) + re.findall(r"/grooph-lsp@(v[\w.]+)", readme)
    assert pins and set(pins) == {f"v{__version__}"}, f"README pins {pins}"
    changelog = (ROOT / "CHANGELOG.md").read_text("utf-8")
    assert re.search(rf"^## \[{re.escape(__version__)}\] - \d{{4}}-\d{{2}}-\d{{2}}$", changelog, flags=re.M)


def test_project_metadata_for_an_index():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]
    assert {"Homepage", "Repository", "Documentation", "Changelog", "Issues"} <= set(project["urls"])
    assert all(u.startswith("https://") for u in project["urls"].values())
    assert any(c.startswith("Programming Language :: Python :: 3.11") for c in project["classifiers"])
    repository = json.loads((ROOT / "editors" / "vscode" / "package.json").read_text("utf-8"))["repository"]
    assert repository["url"].removesuffix(".git") == project["urls"]["Repository"]


def _initialize(program: Path, cwd: Path, env: dict) -> dict:
    """The answer of the server started as `program` to an `initialize` request, after which it is shut down."""
    def frame(obj: dict) -> bytes:
        body = json.dumps(obj).encode()
        return b"Content-Length: %d\r\n\r\n" % len(body) + body

    init = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
            "params": {"processId": None, "rootUri": None, "capabilities": {}}}
    messages = [init, {"jsonrpc": "2.0", "method": "initialized", "params": {}},
                {"jsonrpc": "2.0", "id": 2, "method": "shutdown"}, {"jsonrpc": "2.0", "method": "exit"}]
    done = subprocess.run([str(program)], input=b"".join(frame(m) for m in messages), cwd=cwd, env=env,
                          capture_output=True, timeout=120)
    out = done.stdout
    while out:
        header, _, rest = out.partition(b"\r\n\r\n")
        length = int(re.search(rb"Content-Length: (\d+)", header).group(1))
        message, out = json.loads(rest[:length]), rest[length:]
        if message.get("id") == 1:
            return message
    raise AssertionError(f"no answer to initialize; stderr: {done.stderr.decode(errors='replace')}")


def test_the_sdist_builds_passes_twine_and_installs_offline(tmp_path: Path):
    source = copy_sources(tmp_path / "checkout", "CHANGELOG.md")
    dist = tmp_path / "dist"
    # `python -m build`: the sdist, then the wheel built from it (the build backend from this interpreter).
    built = _run([sys.executable, "-m", "build", "--no-isolation", "--outdir", dist, source], tmp_path)
    assert built.returncode == 0, built.stdout[-2000:] + built.stderr[-2000:]
    sdists, wheels = list(dist.glob("grooph_lsp-*.tar.gz")), list(dist.glob("grooph_lsp-*-py3-none-any.whl"))
    assert [p.name for p in sdists] == [f"grooph_lsp-{__version__}.tar.gz"] and len(wheels) == 1
    checked = _run([sys.executable, "-m", "twine", "check", "--strict", *sdists, *wheels], tmp_path)
    assert checked.returncode == 0 and checked.stdout.count("PASSED") == 2, checked.stdout + checked.stderr

    # A fresh venv. Its dependencies (and setuptools, to build the sdist) are this interpreter's, reached
    # through a .pth line (no .pth of theirs is run, so this checkout's editable install stays out); the
    # package itself is built from the sdist and installed into the venv, without the network, by this
    # interpreter's pip told to install there (`--python`).
    # pip is this interpreter's, told to install into the venv (`--python`).
    venv = tmp_path / "fresh"
    made = _run([sys.executable, "-m", "venv", "--without-pip", venv], tmp_path)
    assert made.returncode == 0, made.stderr
    site = next(venv.glob("lib/python3*/site-packages"))
    ours = subprocess.run([sys.executable, "-c", "import pydantic, os; print(os.path.dirname(os.path.dirname(pydantic.__file__)))"],
                          capture_output=True, text=True).stdout.strip()
    (site / "dependencies.pth").write_text(ours + "\n", encoding="utf-8")
    installed = _run([sys.executable, "-m", "pip", "--python", venv / "bin" / "python", "install", "--no-index",
                      "--no-deps", "--no-build-isolation", "-q", sdists[0]], tmp_path)
    assert installed.returncode == 0, installed.stdout + installed.stderr

    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    version = _run([venv / "bin" / "grooph", "--version"], elsewhere, env=env)
    assert version.returncode == 0 and version.stdout == f"{__version__}\n", version.stderr
    where = _run([venv / "bin" / "python", "-c", "import grooph_core.docs as d; print(d.__file__)"], elsewhere, env=env)
    assert Path(where.stdout.strip()).is_relative_to(venv), where.stdout + where.stderr
    shipped = Path(where.stdout.strip()).parent
    assert {"codes.md", "ops.md", "graphs.md", "maps.md", "workflows.md", "boards.md", "episode-records.md"} <= {
        p.name for p in shipped.glob("*.md")}, "the reference pages the CLI and the hovers link to are not installed"
    help_apply = _run([venv / "bin" / "grooph", "help", "apply"], elsewhere, env=env)
    assert str(shipped / "ops.md") in help_apply.stdout

    answer = _initialize(venv / "bin" / "grooph-lsp", elsewhere, env)
    assert answer["result"]["serverInfo"] == {"name": "grooph-lsp", "version": __version__}
    assert answer["result"]["capabilities"]["textDocumentSync"]


@pytest.mark.parametrize("path,schema", [(".github/workflows/release.yml", "vendor.github-workflows"),
                                         ("action.yml", "vendor.github-actions")])
def test_workflow_files_match_githubs_schemas(path, schema):
    """check-jsonschema (the test extra) carries GitHub's schemas inside it: no network."""
    done = _run([sys.executable, "-m", "check_jsonschema", "--builtin-schema", schema, ROOT / path], ROOT)
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_release_workflow_builds_every_platform_the_extension_bundles():
    import yaml

    flow = yaml.safe_load((ROOT / ".github" / "workflows" / "release.yml").read_text("utf-8"))
    assert flow[True]["push"]["tags"] == ["v*"]  # PyYAML reads the key `on` as True
    sys.path.insert(0, str(ROOT / "editors" / "vscode" / "scripts"))
    try:
        from bundle_server import PLATFORMS
    finally:
        sys.path.pop(0)
    assert flow["jobs"]["vsix"]["strategy"]["matrix"]["target"] == list(PLATFORMS)
    steps = " ".join(s.get("run", "") for job in flow["jobs"].values() for s in job.get("steps", ()))
    assert "python -m build" in steps and "twine check" in steps and "npm run package" in steps
