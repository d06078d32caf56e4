"""Temporary git repositories for the tests of what runs in users' repositories (pre-commit, the GitHub
Action, `validate --changed`): git with an identity of its own and no user or system configuration, and
a copy of what the package is built from, as pre-commit and the Actions runner fetch it."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

from tests.conftest import ROOT

# What `pip install <checkout>` builds the package from (pyproject.toml's readme is README.md, its license file LICENSE).
PACKAGE_SOURCES = ("pyproject.toml", "README.md", "LICENSE", "grooph_core", "grooph_lsp")


def git_env(**extra: str) -> dict[str, str]:
    """The environment for git: no ~/.gitconfig or /etc/gitconfig read, a fixed author and committer."""
    return dict(os.environ, GIT_CONFIG_GLOBAL=os.devnull, GIT_CONFIG_NOSYSTEM="1",
                GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@example.org",
                GIT_COMMITTER_NAME="t", GIT_COMMITTER_EMAIL="t@example.org", **extra)


def git(cwd: Path, *args: str, env: dict | None = None) -> str:
    """git's stdout; the test fails with git's stderr when git fails."""
    done = subprocess.run(["git", *args], cwd=cwd, env=env or git_env(), capture_output=True, text=True)
    assert done.returncode == 0, f"git {' '.join(args)}: {done.stderr}"
    return done.stdout


def copy_sources(target: Path, *extra: str) -> Path:
    """`target` holding this worktree's package sources and the `extra` files of its root (no caches)."""
    target.mkdir(parents=True, exist_ok=True)
    for name in (*PACKAGE_SOURCES, *extra):
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, target / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copyfile(ROOT / name, target / name)
    return target
