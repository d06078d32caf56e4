"""`grooph shape`: one-line counts and brakes of a graph or a map (cli.md §3.2, map.md §8.4).

A document that fails its structural check is refused (exit 1) with its `E_SCHEMA` lines. With
`--json` a refusal also writes `{"file", "ok": false, "kind", "issues"}` on stdout (our choice: the
spec gives no JSON form for a refusal, and cli.md §0.3 wants one JSON value on stdout).
"""

from __future__ import annotations

import json
import sys

from grooph_core.cli import usage_error
from grooph_core.cli.args import UsageError, parse_args
from grooph_core.issues import Issue
from grooph_core.semantics.map_shape import map_shape, shape_line
from grooph_core.schema.check import schema_issues
from grooph_core.semantics.graph_shape import graph_shape, graph_shape_line, tier_line
from grooph_core.source.load import NoSuchFile, read_document

SYNOPSIS = "grooph shape <graph | operation map> [--json]"
SUMMARY = "one-line counts and brakes of a graph or a map"
HELP = """
For a graph: `<graph id>: <shape line>` (agents, checks, gates, loops, the worst-case number of
rounds and the budgets), then `tiers: …` when it has agents. For an operation map:
`<map id>: <shape line>` (lanes, sessions, people, handoffs, and how many wait on a person).

Flags:
  --json   print the shape object instead (for a map it includes the by-hand list)

A document that does not pass its structural check is refused with its E_SCHEMA lines (exit 1).

Examples:
  grooph shape review.grooph.json
  grooph shape --json studio.grooph-map.json
"""


def _refuse(file: str, kind: str, issues: list[Issue], as_json: bool) -> int:
    """cli.md §3.2 / map.md §8.4: say what the file is not, then its E_SCHEMA lines; exit 1."""
    what = _NOT_SHAPED.get(kind, _NOT_SHAPED["graph"])
    sys.stderr.write(f"grooph: {file} is not {what}\n")
    for issue in issues:
        sys.stderr.write(issue.line() + "\n")
    if as_json:
        report = {"file": file, "ok": False, "kind": kind, "issues": [i.to_json() for i in issues]}
        sys.stdout.write(json.dumps(report, indent=2, ensure_ascii=False) + "\n")
    return 1


def shape_of(value: dict, kind: str) -> tuple[dict, list[str]]:
    """The shape object and the text lines `shape` prints for a structurally valid document."""
    return _SHAPES.get(kind, _graph_shape)(value)


def _map_shape(value: dict) -> tuple[dict, list[str]]:
    """map.md §8.4: the map's shape and its one line."""
    shape = map_shape(value)
    return shape, [f"{value.get('id')}: {shape_line(shape)}"]


def _graph_shape(value: dict) -> tuple[dict, list[str]]:
    """cli.md §3.2: the graph's shape, its line and its tiers."""
    shape = graph_shape(value)
    lines = [f"{value.get('id')}: {graph_shape_line(shape)}"]
    if shape["agents"]:
        lines.append(f"tiers: {tier_line(shape)}")
    return shape, lines


# What a file that fails its structural check is said not to be, and how each kind's shape is told.
_NOT_SHAPED = {"map": "an operation map grooph can read", "graph": "a graph document"}
_SHAPES = {"map": _map_shape, "graph": _graph_shape}


def run(argv: list[str]) -> int:
    try:
        args = parse_args(argv, booleans=("json",))
    except UsageError as e:
        return usage_error("shape", str(e))
    if not args.positionals:
        return usage_error("shape", "a graph or operation map file is required")
    if len(args.positionals) > 1:
        return usage_error("shape", f"shape takes one file; also given: {' '.join(args.positionals[1:])}")
    file = args.positionals[0]
    as_json = bool(args.flags.get("json"))
    try:
        doc = read_document(file)
    except NoSuchFile:
        sys.stderr.write(f"grooph: no such file: {file}\n")
        return 1
    if doc.error is not None:
        return _refuse(file, doc.kind, [doc.error], as_json)
    issues = schema_issues(doc.value, doc.kind)
    if issues:
        return _refuse(file, doc.kind, issues, as_json)
    shape, lines = shape_of(doc.value, doc.kind)  # type: ignore[arg-type]
    if as_json:
        sys.stdout.write(json.dumps(shape, indent=2, ensure_ascii=False) + "\n")
    else:
        sys.stdout.write("".join(line + "\n" for line in lines))
    return 0
