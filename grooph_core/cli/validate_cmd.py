"""`grooph validate`: check graphs and maps, list issues, exit 1 on errors (cli.md §2.1, map.md §8.3).

The output is the reference's (strict mode): one issue line per issue in the fixed format, then the
summary line. Our additions: several paths and folders, checked over every core when there are many
(`check_files`), with a progress line on a terminal (`progress`); `--locations` prefixes each issue line
with `file:line:col:` (1-based); the JSON issue objects carry `range` (0-based, UTF-16 columns, LSP
shape) after the spec's four keys; `--format github` (workflow annotations) and `--format sarif`
(SARIF 2.1.0) for CI. A named folder holding no document is reported and fails the run.
"""

from __future__ import annotations

import json
import os
import sys

from grooph_core.cli import github_format, sarif, usage_error
from grooph_core.cli.args import UsageError, parse_args
from grooph_core.cli.check_files import FileResult, check_all
from grooph_core.cli.discover import find_documents, looked_for
from grooph_core.cli.file_lists import Listed, ListError, changed_paths, listed_paths
from grooph_core.cli.listing import listing_lines, print_listing  # noqa: F401 (print_listing: fmt_cmd imports it here)
from grooph_core.cli.progress import Progress

SYNOPSIS = ("grooph validate <file|folder>... | --changed [<rev>] | --files-from <file|-> [--for-export] [--json] "
            "[--locations] [--format text|json|github|sarif] [--jobs <n>]")
SUMMARY = "check graphs, maps, workflows, boards and episode records; list issues; exit 1 on errors"
HELP = """
Checks each graph (*.grooph.json) and operation map (*.grooph-map.json) named, and every such file
under a named folder (`grooph validate .` checks a whole repository; .git is not entered); also the
neighbouring formats: board workflows (*.workflow.yaml), boards (*.board.json) and episode records
(*.episodes.json), by name or by content. Prints one line per issue (errors on stderr, warnings on
stdout) and a summary line per file; for a map, first its shape line and after the issues what waits
on a person; when more than one document was checked, a last line on stderr gives the total
("checked 12 documents: 0 errors, 3 warnings"). For the neighbouring formats `at` is the JSON pointer of the value, and while a structural
error exists only the reader's and structural issues are listed. Many files are checked on every core,
and the output is the same, in the same order, as one by one. At a terminal a progress line shows on
stderr.

Flags:
  --for-export, --complete   also apply the export-only rules (E_NO_TARGET, E_NO_GOAL, E_IS_TEMPLATE,
                             E_UNFILLED_SLOT, E_PERSON_STEP_NOT_COMPILED); no effect on a map
  --json                     print the report as JSON (an object for one file, a list for several);
                             each issue also carries its "range" (0-based line and UTF-16 character)
  --locations                start each issue line with file:line:col: (1-based)
  --format <f>               text (the default), json (as --json), github (GitHub Actions annotations:
                             ::error file=...,line=...,col=...::message, and ::warning), or sarif (a
                             SARIF 2.1.0 log on stdout for code-scanning tools)
  --jobs <n>                 check with n processes (1: one by one); by default every core once there
                             are enough files for it to pay
  --changed [<rev>]          instead of naming files: the documents that differ between <rev> and the
                             working tree (staged or not; renamed ones under their new name, deleted
                             ones left out), plus untracked ones git does not ignore, in the whole
                             repository. Default <rev>: the merge base of HEAD with the default branch
                             (origin/HEAD, else main or master). Also --changed=<rev>.
  --files-from <file|->      instead of naming files: the paths listed in <file> (- reads stdin), one a
                             line or NUL-separated, as pre-commit, `git diff --name-only` or `find
                             -print0` give them, relative to the current folder (git diff gives them
                             relative to the repository's top: run it there, or add --relative); a
                             listed folder is walked; a listed path that no longer exists is skipped,
                             and said so on stderr

With --changed or --files-from, only the file names a folder walk looks for are checked (a list of every
changed file can be given as it is), the output is what naming those files prints (--json: always a
list), and when there is none the command says so and exits 0.

Exit status: 1 when any file has an error, cannot be read, or a named folder holds no document;
else 0. Warnings alone exit 0.

Examples:
  grooph validate review.grooph.json
  grooph validate --json --for-export draft.grooph.json
  grooph validate fixtures/valid fixtures/maps/valid
  grooph validate . --format github           # in a GitHub Actions step
  grooph validate . --format sarif > grooph.sarif
  grooph validate --locations review.workflow.yaml
  grooph validate --changed                   # what this branch changed, before pushing it
  grooph validate --changed HEAD              # what is not committed yet
  git diff --name-only main | grooph validate --files-from -
"""

FORMATS = ("text", "json", "github", "sarif")

PROPOSAL_MESSAGE = (
    "{file} is a proposal set, not a graph document, so validate does not check it; "
    "`grooph share {file}` checks the set and every candidate, and "
    "`grooph pick {file} <candidate> --out <graph file>` writes one candidate out to validate on its own."
)


def no_document_message(folder: str) -> str:
    """A named folder in which no document was found: said, so that checking nothing never reads as
    "no issues"."""
    return f"no grooph document in {folder} (looked for {looked_for()} in it and its subfolders)"


def _report(r: FileResult) -> dict:
    """The JSON report of one checked file (cli.md §2.1, plus `kind` and each issue's `range`)."""
    if r.proposal:
        return {"file": r.path, "ok": False, "kind": "proposal-set",
                "message": PROPOSAL_MESSAGE.format(file=r.path), "issues": []}
    report: dict = {
        "file": r.path,
        "ok": not r.has_error,
        "kind": r.kind,
        "issues": [dict(i.to_json(), range=g) for i, g in zip(r.issues, r.ranges or ())],
    }
    if "byHand" in r.extra:
        report["byHand"] = r.extra["byHand"]
    return report


class Totals:
    """How many documents were checked and what they held: the closing line of the text and github outputs."""

    def __init__(self) -> None:
        self.files = self.errors = self.warnings = 0

    def add(self, r: FileResult) -> None:
        self.files += 1
        self.errors += sum(1 for i in r.issues if i.severity == "error")
        self.warnings += sum(1 for i in r.issues if i.severity != "error")

    def line(self) -> str:
        return github_format.summary(self.files, self.errors, self.warnings)


class TextOutput:
    """The listing of cli.md §0.5 per file, printed as each result arrives; when more than one document
    was checked, a total line on stderr at the end (stdout stays the findings)."""

    def __init__(self, progress: Progress, locations: bool):
        self.progress, self.locations = progress, locations
        self.totals = Totals()

    def _put(self, stream: str, line: str) -> None:
        self.progress.write(sys.stderr if stream == "err" else sys.stdout, line + "\n")

    def missing(self, r: FileResult) -> None:
        self._put("err", f"grooph: no such file: {r.path}")

    def empty(self, folder: str) -> None:
        self._put("err", "grooph: " + no_document_message(folder))

    def refused(self, r: FileResult) -> None:
        self._put("err", r.refusal or "")

    def checked(self, r: FileResult) -> None:
        if r.proposal:
            self._put("err", PROPOSAL_MESSAGE.format(file=r.path))
            return
        self.totals.add(r)
        if "shapeLine" in r.extra:
            self._put("out", r.extra["shapeLine"])
        locations = None
        if self.locations:
            locations = [f"{r.path}:{g['start']['line'] + 1}:{g['start']['character'] + 1}" for g in r.ranges or ()]
        for stream, line in listing_lines(r.path, r.issues, locations):
            self._put(stream, line)
        for line in r.extra.get("byHandLines", []):
            self._put("out", line)

    def finish(self) -> None:
        if self.totals.files > 1:
            self._put("err", self.totals.line())


class JsonOutput:
    """One JSON value on stdout at the end: an object for one named file, else a list."""

    def __init__(self, progress: Progress, single: bool):
        self.progress, self.single, self.reports = progress, single, []

    def missing(self, r: FileResult) -> None:
        self.progress.write(sys.stderr, f"grooph: no such file: {r.path}\n")
        # every named file gets a record, so the report keeps its shape
        self.reports.append({"file": r.path, "ok": False, "kind": r.kind, "issues": [], "error": "no such file"})

    def empty(self, folder: str) -> None:
        self.progress.write(sys.stderr, "grooph: " + no_document_message(folder) + "\n")

    def refused(self, r: FileResult) -> None:
        self.progress.write(sys.stderr, f"{r.refusal}\n")
        self.reports.append({"file": r.path, "ok": False, "kind": None, "issues": [], "error": r.refusal})

    def checked(self, r: FileResult) -> None:
        self.reports.append(_report(r))

    def finish(self) -> None:
        out = self.reports[0] if self.single and len(self.reports) == 1 else self.reports
        self.progress.write(sys.stdout, json.dumps(out, indent=2, ensure_ascii=False) + "\n")


class GithubOutput:
    """GitHub Actions annotations on stdout, one per issue, then a plain summary line."""

    def __init__(self, progress: Progress):
        self.gh, self.progress = github_format, progress
        self.totals = Totals()

    def _put(self, line: str) -> None:
        self.progress.write(sys.stdout, line + "\n")

    def missing(self, r: FileResult) -> None:
        self.progress.write(sys.stderr, f"grooph: no such file: {r.path}\n")
        self._put(self.gh.notice(f"no such file: {r.path}"))

    def empty(self, folder: str) -> None:
        self.progress.write(sys.stderr, "grooph: " + no_document_message(folder) + "\n")
        self._put(self.gh.notice(no_document_message(folder)))

    def refused(self, r: FileResult) -> None:
        self.progress.write(sys.stderr, f"{r.refusal}\n")
        self._put(self.gh.notice(r.refusal or "", r.path))

    def checked(self, r: FileResult) -> None:
        if r.proposal:
            self._put(self.gh.notice(PROPOSAL_MESSAGE.format(file=r.path), r.path))
            return
        self.totals.add(r)
        for line in self.gh.annotations(r):
            self._put(line)

    def finish(self) -> None:
        self._put(self.totals.line())


class SarifOutput:
    """One SARIF 2.1.0 log on stdout at the end."""

    def __init__(self, progress: Progress):
        self.sarif, self.progress = sarif, progress
        self.results: list[dict] = []
        self.notifications: list[dict] = []

    def missing(self, r: FileResult) -> None:
        self.progress.write(sys.stderr, f"grooph: no such file: {r.path}\n")
        self.notifications.append(self.sarif.notification(f"no such file: {r.path}"))

    def empty(self, folder: str) -> None:
        self.progress.write(sys.stderr, "grooph: " + no_document_message(folder) + "\n")
        self.notifications.append(self.sarif.notification(no_document_message(folder)))

    def refused(self, r: FileResult) -> None:
        self.progress.write(sys.stderr, f"{r.refusal}\n")
        self.notifications.append(self.sarif.notification(r.refusal or "", r.path))

    def checked(self, r: FileResult) -> None:
        if r.proposal:
            self.notifications.append(self.sarif.notification(PROPOSAL_MESSAGE.format(file=r.path), r.path))
            return
        self.results.extend(self.sarif.results(r))

    def finish(self) -> None:
        log = self.sarif.sarif_log(self.results, self.notifications)
        self.progress.write(sys.stdout, json.dumps(log, indent=2, ensure_ascii=False) + "\n")


def _list_source(args) -> tuple[str, str | None] | None:
    """Where the files come from when they are not named: ("changed", rev or None) or ("files-from",
    list file); None when they are named. A UsageError for a mix of the three."""
    changed, files_from = args.flags.get("changed"), args.flags.get("files-from")
    if changed is not None and files_from is not None:
        raise UsageError("--changed and --files-from are two ways to choose the files: give one")
    if files_from is not None:
        if args.positionals:
            raise UsageError("give the files either as arguments or with --files-from, not both")
        return "files-from", str(files_from)
    if changed is None:
        return None
    if changed == "":
        raise UsageError("--changed= needs a revision after the = (or give --changed alone)")
    revs = ([] if changed is True else [str(changed)]) + args.positionals
    if len(revs) > 1:
        raise UsageError("--changed takes at most one revision and checks the changed documents of the whole "
                         f"repository (got {', '.join(revs)}); to check files or folders, name them without it")
    return "changed", revs[0] if revs else None


def _options(argv: list[str]):
    """(args, format, jobs, list source) or a UsageError."""
    args = parse_args(argv, booleans=("for-export", "json", "locations"), valued=("format", "jobs", "files-from"),
                      optional=("changed",), aliases={"complete": "for-export"})
    source = _list_source(args)
    if not args.positionals and source is None:
        raise UsageError("a file or folder to check is required (or --changed, or --files-from)")
    fmt = args.flags.get("format", "text")
    if fmt not in FORMATS:
        raise UsageError(f'unknown format "{fmt}": use {", ".join(FORMATS[:-1])} or {FORMATS[-1]}')
    if args.flags.get("json"):
        if "format" in args.flags and fmt != "json":
            raise UsageError(f"--json and --format {fmt} ask for two different outputs: give one")
        fmt = "json"
    if args.flags.get("locations") and fmt != "text":
        raise UsageError(f"--locations changes the text listing only; --format {fmt} carries its own locations")
    jobs = None
    if "jobs" in args.flags:
        raw = str(args.flags["jobs"])
        if not raw.isdigit() or int(raw) < 1:
            raise UsageError(f'--jobs needs a whole number of processes, at least 1 (got "{raw}")')
        jobs = int(raw)
    return args, fmt, jobs, source


def _listed(source: tuple[str, str | None]) -> Listed:
    """The files `--changed` or `--files-from` give (file_lists); ListError when they cannot be had."""
    kind, value = source
    return changed_paths(value) if kind == "changed" else listed_paths(value or "-")


def run(argv: list[str]) -> int:
    try:
        args, fmt, jobs, source = _options(argv)
    except UsageError as e:
        return usage_error("validate", str(e))
    locations = bool(args.flags.get("locations"))
    listed = None
    if source is not None:
        try:
            listed = _listed(source)
        except ListError as e:
            sys.stderr.write(f"grooph: {e}\n")
            return 1
        for path in listed.gone:
            sys.stderr.write(f"grooph: skipped {path}: it is listed, but there is no such file (deleted?)\n")
    paths = listed.paths if listed is not None else args.positionals
    named = find_documents(paths)
    files = [n for n in named if not n.empty_folder]
    progress = Progress(len(files))
    if fmt == "text":
        output = TextOutput(progress, locations)
    elif fmt == "json":
        output = JsonOutput(progress, single=listed is None and len(paths) == 1 and not os.path.isdir(paths[0]))
    elif fmt == "github":
        output = GithubOutput(progress)
    else:
        output = SarifOutput(progress)
    if listed is not None and not named:
        # said where the listing would be; stdout stays one JSON value or log for the other formats
        (sys.stdout if fmt == "text" else sys.stderr).write(listed.nothing_message + "\n")
        output.finish()
        return 0
    results = check_all(files, export=bool(args.flags.get("for-export")), want_ranges=fmt != "text" or locations,
                        jobs=jobs, on_result=progress.update)
    failed = False
    try:
        for n in named:
            if n.empty_folder:
                output.empty(n.path)
                failed = True
                continue
            r = next(results)
            if r.missing:
                output.missing(r)
                failed = True
                continue
            if r.refusal is not None:
                output.refused(r)
                failed = True
                continue
            failed = failed or r.has_error or r.proposal
            output.checked(r)
    finally:
        results.close()
        progress.clear()
    output.finish()
    return 1 if failed else 0
