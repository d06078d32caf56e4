"""The VS Code extension's build for the tests that run its code (editors/vscode): `npm` in its folder, and
`compiled()`, its npm packages installed when they are not there and its TypeScript compiled once per
session, by whichever test asks first (so no editor test depends on another having run before it).
npm's cache and logs go where the session says (`npm_config_cache`, tests/conftest.py), never into ~."""

from __future__ import annotations

import functools
import shutil
import subprocess

from tests.conftest import ROOT

EXTENSION = ROOT / "editors" / "vscode"
CORE = EXTENSION / "out" / "src" / "core"
NPM = shutil.which("npm")


def npm(*args: str, timeout: int = 600) -> subprocess.CompletedProcess:
    """`npm ARGS` in the extension's folder; fails the test with npm's output when it fails."""
    assert NPM is not None, "npm is not installed"
    proc = subprocess.run(
        [NPM, *args], cwd=EXTENSION, capture_output=True, text=True, timeout=timeout, stdin=subprocess.DEVNULL
    )
    assert proc.returncode == 0, f"npm {' '.join(args)} failed ({proc.returncode}):\n{proc.stdout[-4000:]}\n{proc.stderr[-4000:]}"
    return proc


@functools.lru_cache(maxsize=1)
def compiled() -> str:
    """"" once out/ holds this checkout's compiled extension (its packages installed first when missing),
    else why it cannot be built here."""
    if NPM is None:
        return "npm is needed to build the VS Code extension (cd editors/vscode && npm ci && npm run compile)"
    try:
        if not (EXTENSION / "node_modules" / ".bin" / "tsc").exists():
            npm("ci", "--no-audit", "--no-fund", "--loglevel=error")
        npm("run", "compile")
    except (AssertionError, subprocess.TimeoutExpired) as e:
        return f"building the VS Code extension failed: {e}"
    return ""
