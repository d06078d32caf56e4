"""The issue listing of cli.md §0.5 (**format**): one line per issue, errors on stderr and warnings on
stdout, then the summary line; used by `validate`, `apply` and `fmt`."""

from __future__ import annotations

import sys
from typing import TextIO

from grooph_core.issues import Issue


def plural(n: int, word: str) -> str:
    """`1 error`, `0 errors`: the `s` left out for exactly one."""
    return f"{n} {word}" + ("" if n == 1 else "s")


def summary_line(subject: str, issues: list[Issue] | tuple[Issue, ...]) -> str:
    """cli.md §0.5 summary line."""
    if not issues:
        return f"{subject}: no issues"
    e = sum(1 for i in issues if i.severity == "error")
    w = len(issues) - e
    return f"{subject}: {plural(e, 'error')}, {plural(w, 'warning')}"


def listing_lines(subject: str, issues, locations: list[str] | None = None) -> list[tuple[str, str]]:
    """(stream name, line) pairs of the listing: "err" for error lines and, when there is an error, the
    summary; "out" for the rest. `locations` prefixes each issue line (`--locations`)."""
    out = []
    for n, issue in enumerate(issues):
        line = issue.line() if locations is None else f"{locations[n]}: {issue.line()}"
        out.append(("err" if issue.severity == "error" else "out", line))
    has_error = any(i.severity == "error" for i in issues)
    out.append(("err" if has_error else "out", summary_line(subject, issues)))
    return out


def print_listing(subject: str, issues: list[Issue], locations: list[str] | None = None,
                  out: TextIO | None = None, err: TextIO | None = None) -> None:
    """cli.md §0.5: errors to stderr, warnings to stdout, then the summary line."""
    streams = {"out": out or sys.stdout, "err": err or sys.stderr}
    for stream, line in listing_lines(subject, issues, locations):
        streams[stream].write(line + "\n")
