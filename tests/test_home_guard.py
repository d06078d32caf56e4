"""The session guard of tests/conftest.py: the programs the tests start see temp XDG folders, and a
write into a watched place of ~ is told (tests/home_guard.py)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests import home_guard


def test_programs_the_tests_start_cache_outside_home():
    """The server writes its previews under $XDG_CACHE_HOME (grooph_lsp.actions.cache_dir); in a test
    session that is a temp folder, for this process and every program it starts."""
    out = subprocess.run([sys.executable, "-c", "from grooph_lsp.actions import cache_dir; print(cache_dir())"],
                         capture_output=True, text=True, timeout=60, check=True).stdout.strip()
    home = Path.home().resolve()
    assert home not in Path(out).resolve().parents, out
    for name in ("XDG_CACHE_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CONFIG_HOME"):
        assert home not in Path(os.environ[name]).resolve().parents, (name, os.environ[name])


@pytest.mark.skipif(shutil.which("npm") is None, reason="npm is not installed")
def test_npm_the_tests_start_keeps_its_cache_and_logs_outside_home():
    """npm writes its cache and a log of every run into ~/.npm unless told otherwise: in a test session
    it is told a temp folder (tests/conftest.py), for every npm the tests start."""
    out = subprocess.run(["npm", "config", "get", "cache"], capture_output=True, text=True, timeout=60,
                         check=True, stdin=subprocess.DEVNULL).stdout.strip()
    assert Path.home().resolve() not in Path(out).resolve().parents, out


@pytest.mark.skipif(home_guard.installed_rustup_home() is None, reason="no rustup toolchain is installed")
def test_rustc_the_tests_start_finds_the_installed_toolchain_whatever_home_says():
    """rustup's rustc reads ~/.rustup unless told: in a test session it is told where the toolchains are
    (tests/conftest.py), so pip's `rustc --version` and the engine oracle's cargo work, and make no
    ~/.rustup, under an empty HOME too."""
    done = subprocess.run(["rustc", "--version"], capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)
    assert done.returncode == 0 and done.stdout.startswith("rustc "), done.stderr[-800:]


def test_the_guard_sees_a_file_written_deep_in_the_cache(tmp_path: Path):
    home = tmp_path / "home"
    previews = home / ".cache" / "grooph-lsp" / "previews"
    previews.mkdir(parents=True)
    (previews / "old.svg").write_text("<svg/>", "utf-8")
    (home / ".rustup" / "toolchains").mkdir(parents=True)
    before = home_guard.snapshot(home)
    assert home_guard.changes(before, home_guard.snapshot(home)) == []

    (previews / "new.svg").write_text("<svg/>", "utf-8")
    (previews / "old.svg").write_text("<svg>changed</svg>", "utf-8")
    (home / ".grooph-history").write_text("x", "utf-8")
    found = home_guard.changes(before, home_guard.snapshot(home))
    assert f"created: {previews / 'new.svg'}" in found
    assert f"changed: {previews / 'old.svg'}" in found
    assert f"created: {home / '.grooph-history'}" in found


def test_the_guard_sees_a_removed_file(tmp_path: Path):
    home = tmp_path / "home"
    (home / ".local" / "state").mkdir(parents=True)
    state = home / ".local" / "state" / "kept.json"
    state.write_text("{}", "utf-8")
    before = home_guard.snapshot(home)
    state.unlink()
    assert f"removed: {state}" in home_guard.changes(before, home_guard.snapshot(home))
