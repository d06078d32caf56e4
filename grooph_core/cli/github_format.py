"""`grooph validate --format github`: GitHub Actions workflow commands that annotate the files
(`::error file=…,line=…,col=…,endLine=…,endColumn=…,title=…::message`, warnings as `::warning`).

Escaping follows the runner's rules (@actions/core `command.ts`): in the message `%`, `\\r`, `\\n` become
`%25`, `%0D`, `%0A`; in a property value also `:` and `,` become `%3A` and `%2C`. Lines and columns
are 1-based; a column counts UTF-16 code units, as `--locations` does.
"""

from __future__ import annotations

import os

from grooph_core.cli.check_files import FileResult
from grooph_core.cli.listing import plural


def escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def command(level: str, message: str, **props: object) -> str:
    """One workflow command line; properties in the order given, absent (None) ones left out."""
    given = ",".join(f"{k}={escape_property(str(v))}" for k, v in props.items() if v is not None)
    return f"::{level}{' ' + given if given else ''}::{escape_data(message)}"


def issue_message(issue) -> str:
    """The listing's line (cli.md §0.5) without severity and code: those are the command and the title."""
    return issue.line().split("  ", 2)[2]


def annotation_path(path: str) -> str:
    """The file as GitHub matches it against the checkout: `./x/y` and `x//y` written `x/y`."""
    return os.path.normpath(path).replace(os.sep, "/")


def annotations(result: FileResult) -> list[str]:
    """The commands for one file's issues, in validation order."""
    out = []
    for issue, rng in zip(result.issues, result.ranges or ()):
        sl, sc = rng["start"]["line"], rng["start"]["character"]
        el, ec = rng["end"]["line"], rng["end"]["character"]
        # An LSP end (0-based, exclusive) is the 1-based column of the last character covered.
        end_col = max(ec, sc + 1) if el == sl else ec
        out.append(command(issue.severity, issue_message(issue), file=annotation_path(result.path), line=sl + 1, col=sc + 1,
                           endLine=el + 1, endColumn=max(end_col, 1), title=issue.code))
    return out


def notice(message: str, path: str | None = None) -> str:
    """An error about an input rather than an issue in a document (no such file, nothing to check)."""
    return command("error", message, file=None if path is None else annotation_path(path), title="grooph")


def summary(files: int, errors: int, warnings: int) -> str:
    """The closing plain line of the log (not a command): how much was checked and found."""
    return f"checked {plural(files, 'document')}: {plural(errors, 'error')}, {plural(warnings, 'warning')}"
