"""The files `grooph validate --changed [REV]` and `--files-from FILE|-` check (our additions to cli.md §2.1).

`--changed` asks git (the one program the command runs, with fixed arguments) for the files that differ
between REV and the working tree, plus the untracked files git does not ignore; `--files-from` reads one
path a line (or NUL-separated, as `git diff -z` writes them). Either way only the names a folder walk
picks up are kept (`discover.is_document_name`), so a list of every changed file can be given as it is,
and the paths are reported relative to the current folder, as if typed.
"""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import dataclass

from grooph_core.cli.discover import is_document_name


class ListError(Exception):
    """The files cannot be listed (no git, not a repository, an unknown revision, an unreadable list);
    the message says what and where."""


class NoGit(ListError):
    """git is not installed (or not on PATH): said as such, never taken for "not a repository"."""


@dataclass(frozen=True)
class Listed:
    """The paths to check, in order; `gone`: listed paths that name nothing any more (a deletion in a
    list such as `git diff --name-only` gives); `where`: where they came from, in words that follow
    "no grooph document" (`nothing_message`)."""

    paths: list[str]
    gone: list[str]
    where: str

    @property
    def nothing_message(self) -> str:
        """Said when no document was found: checking nothing must not read as "no issues"."""
        return f"no grooph document {self.where}, so nothing was checked"


# ---------------------------------------------------------------------------------------------------
# --changed [REV]


def _git(args: list[str], cwd: str) -> str:
    """The output of `git <args>` run in `cwd`; ListError with git's own words when it fails."""
    try:
        done = subprocess.run(["git", *args], cwd=cwd, stdin=subprocess.DEVNULL, capture_output=True,
                              check=False)
    except FileNotFoundError:
        raise NoGit("--changed asks git which files changed, and git is not on PATH") from None
    if done.returncode != 0:
        raise ListError(os.fsdecode(done.stderr).strip().splitlines()[-1] if done.stderr.strip()
                        else f"git {' '.join(args)} failed (exit {done.returncode})")
    return os.fsdecode(done.stdout)


def _git_ok(args: list[str], cwd: str) -> str | None:
    """The output of `git <args>`, or None when git says no (NoGit when there is no git)."""
    try:
        return _git(args, cwd).strip()
    except NoGit:
        raise
    except ListError:
        return None


def default_branch(top: str) -> str | None:
    """The branch changes are measured against by default: the remote's default (`origin/HEAD`), else
    the first of the configured `init.defaultBranch`, `main`, `master` that exists here or on origin."""
    remote_head = _git_ok(["symbolic-ref", "--quiet", "--short", "refs/remotes/origin/HEAD"], top)
    if remote_head:
        return remote_head
    names = [n for n in (_git_ok(["config", "init.defaultBranch"], top), "main", "master") if n]
    for name in names:
        for ref in (f"refs/heads/{name}", f"refs/remotes/origin/{name}"):
            if _git_ok(["rev-parse", "--verify", "--quiet", ref], top) is not None:
                return ref.removeprefix("refs/heads/").removeprefix("refs/remotes/")
    return None


def _base(rev: str | None, top: str) -> tuple[str | None, str]:
    """(the commit to compare the working tree with, or None when the repository has no commit yet;
    that base in words)."""
    if _git_ok(["rev-parse", "--verify", "--quiet", "HEAD"], top) is None:
        return None, "the empty repository (no commit yet)"
    if rev is not None:
        commit = _git_ok(["rev-parse", "--verify", "--quiet", "--end-of-options", f"{rev}^{{commit}}"], top)
        if commit is None:
            path_note = (" It names a file or folder: --changed checks the changed documents of the whole "
                         "repository and takes no paths." if os.path.exists(rev) else "")
            raise ListError(f'--changed {rev}: "{rev}" is not a revision git knows in {top} (give a branch, a '
                            "tag or a commit; with no revision, the merge base with the default branch is used)."
                            + path_note)
        return commit, rev
    branch = default_branch(top)
    if branch is None:
        raise ListError("--changed: could not tell the default branch (no origin/HEAD, no main or master); "
                        "give the revision to compare with, for example --changed HEAD")
    base = _git_ok(["merge-base", "HEAD", branch], top)
    if base is None:
        raise ListError(f"--changed: HEAD and {branch} have no commit in common here (in a shallow clone, "
                        f"fetch the history first, e.g. actions/checkout with fetch-depth: 0); or give the "
                        "revision to compare with, for example --changed HEAD~1")
    return base, f"the merge base with {branch} ({base[:12]})"


def changed_paths(rev: str | None, cwd: str | None = None) -> Listed:
    """The documents that differ between REV (default: the merge base of HEAD with the default branch)
    and the working tree, staged or not, renamed ones under their new name, deleted ones left out,
    plus untracked ones git does not ignore; sorted, relative to `cwd`."""
    cwd = cwd or os.getcwd()
    inside = _git_ok(["rev-parse", "--show-toplevel"], cwd)
    if not inside:
        raise ListError(f"--changed compares with a git revision, and {cwd} is not inside a git repository "
                        "(name the files or folders instead, or give them with --files-from)")
    top = inside
    base, said = _base(rev, top)
    if base is None:
        tracked = _git(["ls-files", "-z"], top)
    else:
        tracked = _git(["diff", "--name-only", "-z", "--no-ext-diff", "--diff-filter=d", base, "--"], top)
    untracked = _git(["ls-files", "-z", "--others", "--exclude-standard"], top)
    names = sorted({n for n in (tracked + untracked).split("\0") if n and is_document_name(n)})
    full = [os.path.join(top, n) for n in names]
    paths = [os.path.relpath(p, cwd) for p in full if os.path.isfile(p)]
    return Listed(paths, [], f"changed against {said}")


# ---------------------------------------------------------------------------------------------------
# --files-from FILE|-

_C_ESCAPES = {"a": 7, "b": 8, "t": 9, "n": 10, "v": 11, "f": 12, "r": 13, '"': 34, "\\": 92}


def git_unquote(line: str) -> str | None:
    """The path git wrote as a quoted C string (its names with unusual bytes, `core.quotePath`), or None
    when `line` is not one."""
    if len(line) < 2 or line[0] != '"' or line[-1] != '"':
        return None
    body, out, i = line[1:-1], bytearray(), 0
    while i < len(body):
        c = body[i]
        if c != "\\":
            out.extend(c.encode("utf-8", "surrogateescape"))
            i += 1
        elif body[i + 1:i + 4].isdigit() and len(body[i + 1:i + 4]) == 3:
            out.append(int(body[i + 1:i + 4], 8) & 0xFF)
            i += 4
        elif i + 1 < len(body) and body[i + 1] in _C_ESCAPES:
            out.append(_C_ESCAPES[body[i + 1]])
            i += 2
        else:
            return None
    return os.fsdecode(bytes(out))


def _entries(data: bytes) -> list[str]:
    """The paths of a list: NUL-separated when it holds a NUL, else one a line (LF or CRLF); blank
    entries skipped, nothing else trimmed (a name may start or end with a space)."""
    if b"\0" in data:
        raw = data.split(b"\0")
    else:
        raw = [ln.removesuffix(b"\r") for ln in data.split(b"\n")]
    return [os.fsdecode(r) for r in raw if r.strip()]


def listed_paths(source: str) -> Listed:
    """The paths listed in the file `source` (`-`: stdin), in their order: documents by name, and the
    documents under a listed folder as when it is named (`discover.find_documents` walks it later)."""
    if source == "-":
        data, said = sys.stdin.buffer.read(), "among the paths read from stdin"
    else:
        try:
            with open(source, "rb") as f:
                data = f.read()
        except FileNotFoundError:
            raise ListError(f"no such file: {source}") from None
        except OSError as e:
            raise ListError(f"--files-from {source}: cannot read it ({e.strerror})") from None
        said = f"among the paths listed in {source}"
    paths: list[str] = []
    gone: list[str] = []
    for entry in _entries(data):
        path = entry
        if not os.path.lexists(path):
            unquoted = git_unquote(path)
            if unquoted is not None:
                path = unquoted
        if os.path.isdir(path):
            paths.append(path)
        elif not is_document_name(path):
            continue
        elif os.path.isfile(path):
            paths.append(path)
        else:
            gone.append(path)
    return Listed(paths, gone, said)
