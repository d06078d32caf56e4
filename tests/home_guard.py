"""Tests never write into the user's home (~): what the suite's session fixture (tests/conftest.py)
watches there, and how it tells a change.

The whole of ~ can hold a quarter of a million files (language toolchains), too many to compare
after every run, so the guard watches what a test could plausibly touch: the entries of ~ itself
(a new dot-file or folder changes that list) and everything below the XDG folders ~/.cache, ~/.config,
~/.local (where the server's previews, Neovim's logs and state, pip's cache would land), each file and
folder by its modification time and size.
"""

from __future__ import annotations

import os
import pwd
import shutil
from pathlib import Path

WATCHED_TREES = (".cache", ".config", ".local")
MAX_ENTRIES = 200_000  # a larger tree is cut off (and the cut said), never a slow session

Snapshot = dict[str, tuple[int, int]]


def _stat(path: str) -> tuple[int, int] | None:
    try:
        st = os.lstat(path)
    except OSError:
        return None
    return st.st_mtime_ns, st.st_size


def snapshot(home: Path) -> Snapshot:
    """(mtime, size) of ~, its entries, and every file and folder below the watched XDG trees."""
    out: Snapshot = {}
    top = _stat(str(home))
    if top is None:
        return out
    out[str(home)] = top
    try:
        names = os.listdir(home)
    except OSError:
        return out
    for name in names:
        path = os.path.join(home, name)
        st = _stat(path)
        if st is not None:
            out[path] = st
    for tree in WATCHED_TREES:
        root = os.path.join(home, tree)
        for folder, dirs, files in os.walk(root):
            for name in dirs + files:
                path = os.path.join(folder, name)
                st = _stat(path)
                if st is not None:
                    out[path] = st
            if len(out) > MAX_ENTRIES:
                out["(watch cut off: too many files under ~)"] = (0, 0)
                return out
    return out


def changes(before: Snapshot, after: Snapshot) -> list[str]:
    """What changed between two snapshots, one line each: created, changed or removed."""
    lines = []
    for path in sorted(after.keys() - before.keys()):
        lines.append(f"created: {path}")
    for path in sorted(before.keys() & after.keys()):
        if before[path] != after[path]:
            lines.append(f"changed: {path}")
    for path in sorted(before.keys() - after.keys()):
        lines.append(f"removed: {path}")
    return lines


def _is_rustup(program: str | None) -> bool:
    """The program is rustup's proxy (the cargo and rustc rustup installs are links to rustup)."""
    return program is not None and Path(program).resolve().name.startswith("rustup")


def installed_rustup_home() -> Path | None:
    """Where rustup keeps the installed toolchains, whatever HOME says: $RUSTUP_HOME when set, else `.rustup`
    beside the `.cargo` whose bin/ holds the rustc on PATH, else in the account's own home. None when rustc
    is not rustup's, or no toolchain is found."""
    if os.environ.get("RUSTUP_HOME"):
        return Path(os.environ["RUSTUP_HOME"])
    rustc = shutil.which("rustc")
    if not _is_rustup(rustc):
        return None
    bin_dir = Path(rustc).parent
    candidates = [bin_dir.parent.parent / ".rustup"] if bin_dir.parent.name == ".cargo" else []
    try:
        candidates.append(Path(pwd.getpwuid(os.getuid()).pw_dir) / ".rustup")
    except KeyError:
        pass
    return next((c for c in candidates if (c / "toolchains").is_dir()), None)
