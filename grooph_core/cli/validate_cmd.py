"""`grooph validate`: check graphs and maps, list issues, exit 1 on errors (cli.md §2.1, map.md §8.3).

The output is the reference's (strict mode): one issue line per issue in the fixed format, then the
summary line. Our additions: several paths and folders; `--locations` prefixes each issue line with
`file:line:col:` (1-based) for terminals and CI annotations; the JSON issue objects carry `range`
(0-based, UTF-16 columns, LSP shape) after the spec's four keys.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

from grooph_core.cli.args import UsageError, parse_args
from grooph_core.issues import Issue
from grooph_core import neighbours
from grooph_core.kinds import DOC_SUFFIXES, any_kind_from_name, is_yaml_name, neighbour_from_name, neighbour_from_value
from grooph_core.load import Loaded, NoSuchFile, read_document
from grooph_core.validate import validate_value

SYNOPSIS = "grooph validate <file|folder>... [--for-export] [--json] [--locations]"
SUMMARY = "check graphs, maps, workflows, boards and episode records; list issues; exit 1 on errors"
HELP = """
Checks each graph (*.grooph.json) and operation map (*.grooph-map.json) named, and every such file
under a named folder; also the neighbouring formats: board workflows (*.workflow.yaml), boards
(*.board.json) and episode records (*.episodes.json), by name or by content. Prints one line per issue
(errors on stderr, warnings on stdout) and a summary line per file; for a map, first its shape line and
after the issues what waits on a person. For the neighbouring formats `at` is the JSON pointer of the
value, and while a structural error exists only the reader's and structural issues are listed.

Flags:
  --for-export, --complete   also apply the export-only rules (E_NO_TARGET, E_NO_GOAL, E_IS_TEMPLATE,
                             E_UNFILLED_SLOT, E_PERSON_STEP_NOT_COMPILED); no effect on a map
  --json                     print the report as JSON (an object for one file, a list for several);
                             each issue also carries its "range" (0-based line and UTF-16 character)
  --locations                start each issue line with file:line:col: (1-based)

Exit status: 1 when any file has an error (or cannot be read), else 0. Warnings alone exit 0.

Examples:
  grooph validate review.grooph.json
  grooph validate --json --for-export draft.grooph.json
  grooph validate fixtures/valid fixtures/maps/valid
  grooph validate --locations review.workflow.yaml
"""

def _expand(paths: list[str]) -> list[tuple[str, bool]]:
    """Each path as typed, folders replaced by their grooph files (sorted); (path, exists)."""
    out: list[tuple[str, bool]] = []
    for p in paths:
        if os.path.isdir(p):
            found = []
            for root, dirs, files in os.walk(p):
                dirs.sort()
                for f in sorted(files):
                    if f.lower().endswith(DOC_SUFFIXES):
                        found.append(os.path.join(root, f))
            out.extend((f, True) for f in found)
        else:
            out.append((p, os.path.isfile(p)))
    return out


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def summary_line(subject: str, issues: list[Issue]) -> str:
    """cli.md §0.5 summary line."""
    if not issues:
        return f"{subject}: no issues"
    e = sum(1 for i in issues if i.severity == "error")
    w = len(issues) - e
    return f"{subject}: {_plural(e, 'error')}, {_plural(w, 'warning')}"


def print_listing(subject: str, issues: list[Issue], locations: list[str] | None = None) -> None:
    """cli.md §0.5: errors to stderr, warnings to stdout, then the summary line."""
    for n, issue in enumerate(issues):
        line = issue.line()
        if locations is not None:
            line = f"{locations[n]}: {line}"
        (sys.stderr if issue.severity == "error" else sys.stdout).write(line + "\n")
    has_error = any(i.severity == "error" for i in issues)
    (sys.stderr if has_error else sys.stdout).write(summary_line(subject, issues) + "\n")


def _ranges(doc: Loaded, issues: list[Issue]) -> list[dict]:
    """LSP-shaped ranges (0-based, UTF-16) for each issue, from the tolerant source map."""
    if isinstance(doc, neighbours.NeighbourLoaded):
        return neighbours.report_ranges(doc, issues)
    if doc.text is None:
        zero = {"line": 0, "character": 0}
        return [{"start": zero, "end": zero} for _ in issues]
    from grooph_core.analysis import issue_span
    from grooph_core.line_index import LineIndex
    from grooph_core.source import parse

    parsed = parse(doc.text)
    lines = LineIndex(doc.text)
    out = []
    syntax = next((p for p in parsed.problems if p.code == "E_SYNTAX"), None)
    for issue in issues:
        if doc.error is not None and syntax is not None:
            s, e = issue_span(parsed, syntax)
        else:
            s, e = issue_span(parsed, issue)
        (sl, sc), (el, ec) = lines.position(s), lines.position(e)
        out.append({"start": {"line": sl, "character": sc}, "end": {"line": el, "character": ec}})
    return out


def check_file(path: str, *, export: bool) -> tuple[Loaded, list[Issue], dict]:
    """Validate one file; returns the loaded document, its issues and the extra report fields."""
    neighbour = neighbour_from_name(path) or (neighbours.yaml_kind(path) if is_yaml_name(path) else None)
    if neighbour is not None:  # workflow.md, board.md, episodes.md: by name, a YAML file by content
        return (*neighbours.check_file(path, neighbour), {})
    doc = read_document(path)
    extra: dict = {}
    if doc.error is not None:
        return doc, [doc.error], extra
    value = doc.value
    neighbour = neighbour_from_value(value)
    if neighbour is not None:  # a JSON file of another name, by content
        return (*neighbours.check_text(path, doc.text, neighbour), {})
    if isinstance(value, dict) and "groophProposals" in value and "groophMap" not in value:
        extra["proposal"] = True
        return doc, [], extra
    if doc.kind == "map":
        from grooph_core.rules.map import file_graph_resolver

        issues = validate_value(value, "map", resolver=file_graph_resolver(path))
        if not any(i.code == "E_SCHEMA" for i in issues):
            from grooph_core.rules.map.by_hand import by_hand, by_hand_lines
            from grooph_core.rules.map.shape import map_shape, shape_line

            extra["byHand"] = by_hand(value)
            extra["byHandLines"] = by_hand_lines(value)
            extra["shapeLine"] = f"{value.get('id')}: {shape_line(map_shape(value))}"
        return doc, issues, extra
    return doc, validate_value(value, "graph", export=export), extra


PROPOSAL_MESSAGE = (
    "{file} is a proposal set, not a graph document, so validate does not check it; "
    "`grooph share {file}` checks the set and every candidate, and "
    "`grooph pick {file} <candidate> --out <graph file>` writes one candidate out to validate on its own."
)


def _report(path: str, doc: Loaded, issues: list[Issue], extra: dict) -> dict:
    if extra.get("proposal"):
        return {"file": path, "ok": False, "kind": "proposal-set",
                "message": PROPOSAL_MESSAGE.format(file=path), "issues": []}
    ranges = _ranges(doc, issues)
    report: dict = {
        "file": path,
        "ok": not any(i.severity == "error" for i in issues),
        "kind": doc.kind,
        "issues": [dict(i.to_json(), range=r) for i, r in zip(issues, ranges)],
    }
    if "byHand" in extra:
        report["byHand"] = extra["byHand"]
    return report


def run(argv: list[str]) -> int:
    from grooph_core.cli import usage_error

    try:
        args = parse_args(argv, booleans=("for-export", "json", "locations"), aliases={"complete": "for-export"})
    except UsageError as e:
        return usage_error("validate", str(e))
    if not args.positionals:
        return usage_error("validate", "a file or folder to check is required")
    export = bool(args.flags.get("for-export"))
    as_json = bool(args.flags.get("json"))
    failed = False
    reports: list[dict] = []
    for path, exists in _expand(args.positionals):
        try:
            if not exists:
                raise NoSuchFile(path)
            doc, issues, extra = check_file(path, export=export)
        except (NoSuchFile, OSError):
            sys.stderr.write(f"grooph: no such file: {path}\n")
            failed = True
            if as_json:  # every named file gets a record, so the report keeps its shape
                reports.append({"file": path, "ok": False, "kind": any_kind_from_name(path) or "graph",
                                "issues": [], "error": "no such file"})
            continue
        except neighbours.NotOurs as e:
            sys.stderr.write(f"{e}\n")
            failed = True
            if as_json:
                reports.append({"file": path, "ok": False, "kind": None, "issues": [], "error": str(e)})
            continue
        if extra.get("proposal"):
            failed = True
            if not as_json:
                sys.stderr.write(PROPOSAL_MESSAGE.format(file=path) + "\n")
            reports.append(_report(path, doc, issues, extra))
            continue
        if any(i.severity == "error" for i in issues):
            failed = True
        if as_json:
            reports.append(_report(path, doc, issues, extra))
            continue
        if "shapeLine" in extra:
            sys.stdout.write(extra["shapeLine"] + "\n")
        locations = None
        if args.flags.get("locations"):
            locations = [f"{path}:{r['start']['line'] + 1}:{r['start']['character'] + 1}" for r in _ranges(doc, issues)]
        print_listing(path, issues, locations)
        for line in extra.get("byHandLines", []):
            sys.stdout.write(line + "\n")
    if as_json:
        single = len(args.positionals) == 1 and not os.path.isdir(args.positionals[0])
        out = reports[0] if single and len(reports) == 1 else reports
        sys.stdout.write(json.dumps(out, indent=2, ensure_ascii=False) + "\n")
    return 1 if failed else 0
