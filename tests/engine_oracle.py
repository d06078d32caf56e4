"""The engine oracle for differential tests (issue 23): the seeds' own Rust model of workflows and boards,
compiled with the engine's readers (serde_yaml 0.9, serde_json) by `shared/oracle/build.sh`.

`oracle()` builds it once per test session (about 25 s the first time; the build script installs the
Debian crates it needs) and skips, saying why, when it cannot be had; `ask(kind, text)` says what the
engine does with one file: `{"deserialize_error": …}`, `{"check": …, "findings": […]}` or `{"ok": true}`
(shared/oracle/README.md). `GROOPH_ORACLE` names a prebuilt binary instead of building one."""

from __future__ import annotations

import functools
import json
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

HERE = Path(__file__).resolve()
# shared/ beside the repository (/work/main -> /work/shared), or beside the worktrees' folder.
ORACLE_DIR = next((p / "shared" / "oracle" for p in HERE.parents[1:4] if (p / "shared" / "oracle" / "build.sh").exists()),
                  HERE.parents[2] / "shared" / "oracle")


@functools.lru_cache(maxsize=1)
def _build() -> tuple[Path | None, str]:
    """(the binary, "") or (None, why it cannot be had)."""
    given = os.environ.get("GROOPH_ORACLE")
    if given:
        path = Path(given)
        return (path, "") if path.is_file() and os.access(path, os.X_OK) else (None, f"GROOPH_ORACLE={given} is not an executable file")
    if not (ORACLE_DIR / "build.sh").is_file():
        return None, f"the engine oracle's sources are not there ({ORACLE_DIR}/build.sh)"
    env = dict(os.environ)
    rustup_bin = Path.home() / ".cargo" / "bin"  # where rustup puts cargo, when PATH does not say it
    if shutil.which("cargo") is None and (rustup_bin / "cargo").is_file():
        env["PATH"] = f"{rustup_bin}{os.pathsep}{env.get('PATH', '')}"
    # cargo keeps its caches (.global-cache, the registry) in $CARGO_HOME, ~/.cargo by default: the build
    # needs none of them (its crates are vendored or Debian's), so they go to a folder of the build's own
    env.setdefault("CARGO_HOME", os.path.join(env.get("ORACLE_WORK") or os.path.join(tempfile.gettempdir(),
                                                                                      "engine-oracle"), "cargo-home"))
    for tool in ("cargo", "rustc", "bash"):
        if shutil.which(tool, path=env.get("PATH")) is None:
            return None, f"{tool} is not installed: the engine oracle cannot be built"
    try:
        done = subprocess.run(["bash", str(ORACLE_DIR / "build.sh")], capture_output=True, text=True, timeout=900,
                              stdin=subprocess.DEVNULL, env=env)
    except subprocess.TimeoutExpired:
        return None, "building the engine oracle took more than 15 min"
    lines = done.stdout.strip().splitlines()
    if done.returncode != 0 or not lines:
        return None, f"building the engine oracle failed (exit {done.returncode}): {done.stderr.strip()[-800:]}"
    path = Path(lines[-1])
    if not path.is_file():
        return None, f"the engine oracle's build printed {path}, which is not a file"
    return path, ""


def oracle() -> Path:
    """The oracle's binary; skips the calling test, saying why, when it cannot be built here."""
    path, why = _build()
    if path is None:
        pytest.skip(why)
    return path


def ask(kind: str, text: str | bytes) -> dict:
    """What the engine does with one `kind` ("workflow" or "board") file holding `text` (bytes as they are)."""
    binary = oracle()
    data = text.encode("utf-8") if isinstance(text, str) else text
    suffix = ".workflow.yaml" if kind == "workflow" else ".board.json"
    with tempfile.NamedTemporaryFile("wb", suffix=suffix, delete=False) as f:
        f.write(data)
        name = f.name
    try:
        done = subprocess.run([str(binary), kind, name], capture_output=True, timeout=60, stdin=subprocess.DEVNULL)
    finally:
        os.unlink(name)
    if done.returncode != 0:
        raise AssertionError(f"the engine oracle failed on a {kind} (exit {done.returncode}): "
                             f"{done.stderr.decode('utf-8', 'replace')[-800:]}\n--- the file:\n{data[:2000]!r}")
    return json.loads(done.stdout)
