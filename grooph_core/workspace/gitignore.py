"""`.gitignore` matching as git does it (gitignore(5)), without running git.

One `Pattern` per line; `IgnoreFile` is one file's patterns with the folder they are relative to;
`IgnoreTree` answers "is this path ignored?" for paths under a root, reading the `.gitignore` of every
folder on the way down (and `.git/info/exclude`), deeper files taking precedence, the last matching
pattern winning, and a path inside an ignored folder ignored whatever a later pattern says (git cannot
re-include a file whose parent folder is excluded). `.git/` and `node_modules/` are always skipped.

Rules implemented (gitignore(5), "PATTERN FORMAT"): blank lines and `#` comments; `\\#`, `\\!` and
`\\ ` escapes; trailing unescaped spaces dropped; `!` negates; a trailing `/` matches folders only; a `/`
at the start or in the middle anchors the pattern to its file's folder, otherwise it matches a name at
any depth; `*`, `?`, `[...]` (with `!`/`^` negation and ranges) never match `/`; a leading `**/`
matches in every folder, a trailing `/**` everything inside, `/**/` zero or more folders; any other
`**` is an ordinary `*`.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass

ALWAYS_SKIPPED = frozenset({".git", "node_modules"})
IGNORE_FILE = ".gitignore"


@dataclass(frozen=True)
class Pattern:
    """One pattern line: its regex (matched against a name, or a path relative to its file's folder)."""

    text: str
    regex: re.Pattern
    negated: bool
    dir_only: bool
    anchored: bool

    def matches(self, rel: str, is_dir: bool) -> bool:
        """`rel`: the path relative to the pattern's folder, `/`-separated, no leading `/`."""
        if self.dir_only and not is_dir:
            return False
        target = rel if self.anchored else rel.rsplit("/", 1)[-1]
        return self.regex.fullmatch(target) is not None


def _strip_trailing_spaces(line: str) -> str:
    """Trailing spaces are dropped unless the last one is escaped with a backslash."""
    end = len(line)
    while end > 0 and line[end - 1] == " ":
        backslashes = 0
        i = end - 2
        while i >= 0 and line[i] == "\\":
            backslashes += 1
            i -= 1
        if backslashes % 2 == 1:
            break
        end -= 1
    return line[:end]


def _class(body: str, i: int) -> tuple[str, int] | None:
    """A bracket expression starting after `[` at index i: (regex, index after `]`), or None when it
    never closes (then `[` is literal)."""
    j = i
    negate = False
    if j < len(body) and body[j] in "!^":
        negate = True
        j += 1
    start = j
    parts: list[str] = []
    while j < len(body):
        c = body[j]
        if c == "]" and j > start:
            inner = "".join(parts)
            return (f"(?![/])[^{inner}/]" if negate else f"(?![/])[{inner}]"), j + 1
        if c == "\\" and j + 1 < len(body):
            parts.append(re.escape(body[j + 1]))
            j += 2
            continue
        if c == "-" and parts and j + 1 < len(body) and body[j + 1] != "]":
            parts.append("-")
            j += 1
            continue
        parts.append(re.escape(c) if c != "-" else r"\-")
        j += 1
    return None


def _translate(body: str) -> str:
    """A glob (already without `!`, leading `/` and trailing `/`) as a regex over `/`-separated paths."""
    out: list[str] = []
    i = 0
    n = len(body)
    while i < n:
        c = body[i]
        if c == "*":
            j = i
            while j < n and body[j] == "*":
                j += 1
            stars = j - i
            at_start = i == 0 or body[i - 1] == "/"
            at_end = j == n or body[j] == "/"
            if stars >= 2 and at_start and at_end:
                if j == n:  # `/**` at the end (or the whole pattern): everything below
                    out.append(".*")
                else:  # `**/`: zero or more folders
                    out.append("(?:.*/)?")
                    j += 1  # the slash is part of the match
            else:
                out.append("[^/]*")
            i = j
        elif c == "?":
            out.append("[^/]")
            i += 1
        elif c == "[":
            cls = _class(body, i + 1)
            if cls is None:
                out.append(re.escape("["))
                i += 1
            else:
                out.append(cls[0])
                i = cls[1]
        elif c == "\\" and i + 1 < n:
            out.append(re.escape(body[i + 1]))
            i += 2
        else:
            out.append(re.escape(c))
            i += 1
    return "".join(out)


def parse_pattern(line: str) -> Pattern | None:
    """One line of a .gitignore as a pattern, or None for a blank line or a comment."""
    line = line.rstrip("\r\n")
    if not line or line.startswith("#"):
        return None
    line = _strip_trailing_spaces(line)
    if not line:
        return None
    negated = line.startswith("!")
    body = line[1:] if negated else line
    if body.startswith("\\!") or body.startswith("\\#"):
        body = body[1:]
    dir_only = body.endswith("/") and not body.endswith("\\/")
    if dir_only:
        body = body.rstrip("/")
    if not body:
        return None
    anchored = "/" in body
    body = body.lstrip("/") if anchored else body
    if not body:
        return None
    return Pattern(line, re.compile(_translate(body), re.DOTALL), negated, dir_only, anchored)


@dataclass(frozen=True)
class IgnoreFile:
    """The patterns of one ignore file, relative to `base` (an absolute folder path)."""

    base: str
    patterns: tuple[Pattern, ...]

    @staticmethod
    def parse(base: str, text: str) -> "IgnoreFile":
        return IgnoreFile(base, tuple(p for p in map(parse_pattern, text.splitlines()) if p is not None))

    def decide(self, path: str, is_dir: bool) -> bool | None:
        """True (ignored) / False (re-included by `!`) from the last matching pattern; None when none
        matches or the path is not under `base`."""
        rel = _relative(path, self.base)
        if rel is None:
            return None
        for p in reversed(self.patterns):
            if p.matches(rel, is_dir):
                return not p.negated
        return None


def _relative(path: str, base: str) -> str | None:
    if path == base:
        return None
    prefix = base if base.endswith(os.sep) else base + os.sep
    if not path.startswith(prefix):
        return None
    return path[len(prefix):].replace(os.sep, "/")


class IgnoreTree:
    """Answers whether a path under `root` is ignored; reads each folder's `.gitignore` once, and again
    when its modification time or size changes. Ignore files above `root` count up to the repository's
    top (the nearest folder holding `.git`), as git reads them."""

    def __init__(self, root: str) -> None:
        self.root = os.path.abspath(root)
        self._files: dict[str, tuple[tuple[int, int] | None, IgnoreFile | None]] = {}
        self.top = _repository_top(self.root)

    def _ignore_file(self, folder: str, name: str = IGNORE_FILE) -> IgnoreFile | None:
        path = os.path.join(folder, name)
        try:
            st = os.stat(path)
            stamp: tuple[int, int] | None = (st.st_mtime_ns, st.st_size)
        except OSError:
            stamp = None
        hit = self._files.get(path)
        if hit is not None and hit[0] == stamp:
            return hit[1]
        parsed = None
        if stamp is not None and os.path.isfile(path) and stamp[1] <= 4 * 1024 * 1024:
            try:
                with open(path, encoding="utf-8", errors="replace") as f:
                    parsed = IgnoreFile.parse(folder, f.read())
            except OSError:
                parsed = None
        self._files[path] = (stamp, parsed)
        return parsed

    def files_for(self, folder: str) -> list[IgnoreFile]:
        """The ignore files that apply inside `folder`, lowest precedence first."""
        folder = os.path.abspath(folder)
        chain: list[str] = []
        f = folder
        stop = self.top or self.root
        while True:
            chain.append(f)
            if f == stop or os.path.dirname(f) == f:
                break
            f = os.path.dirname(f)
        chain.reverse()
        out: list[IgnoreFile] = []
        if self.top is not None:
            exclude = self._ignore_file(os.path.join(self.top, ".git", "info"), "exclude")
            if exclude is not None:
                out.append(IgnoreFile(self.top, exclude.patterns))
        for d in chain:
            g = self._ignore_file(d)
            if g is not None:
                out.append(g)
        return out

    def decide_in(self, files: list[IgnoreFile], path: str, is_dir: bool) -> bool:
        """Whether `path` (whose parent folders are known not to be ignored) is ignored by `files`."""
        if os.path.basename(path) in ALWAYS_SKIPPED and is_dir:
            return True
        for g in reversed(files):  # deepest file first: the first that decides wins
            verdict = g.decide(path, is_dir)
            if verdict is not None:
                return verdict
        return False

    def is_ignored(self, path: str, is_dir: bool | None = None) -> bool:
        """Whether `path` is ignored, its parent folders included (a file inside an ignored folder
        is ignored). Paths outside the root are not ignored by this tree."""
        path = os.path.abspath(path)
        rel = _relative(path, self.root)
        if rel is None:
            return False
        if is_dir is None:
            is_dir = os.path.isdir(path)
        parts = rel.split("/")
        folder = self.root
        for k, part in enumerate(parts):
            here = os.path.join(folder, part)
            last = k == len(parts) - 1
            if self.decide_in(self.files_for(folder), here, is_dir if last else True):
                return True
            folder = here
        return False


def _repository_top(folder: str) -> str | None:
    """The nearest folder at or above `folder` that holds `.git` (a folder, or a file for worktrees)."""
    f = folder
    while True:
        if os.path.exists(os.path.join(f, ".git")):
            return f
        parent = os.path.dirname(f)
        if parent == f:
            return None
        f = parent
