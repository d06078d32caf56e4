"""`grooph fmt` (alias `canonicalize`): print or rewrite a document in canonical form (cli.md §2.3).

A map (by content, map.md §1) is written in the map's canonical form (map.md §9), anything else as a
graph (graph.md §6). Only documents that parse and pass the structural check are formatted; otherwise
the `E_SCHEMA` issue listing is printed and the command exits 1. Our additions: `--check` (exit 1 when
not canonical, for CI), several files or folders with `--write`/`--check`, and `--write` refusing what
it would lose (a key that appears twice in one object, an integer beyond 2^53 that cannot be kept).
"""

from __future__ import annotations

import json
import os
import sys

from grooph_core.cli import usage_error
from grooph_core.cli.args import UsageError, parse_args
from grooph_core.cli.discover import SKIPPED_FOLDERS
from grooph_core.cli.files import is_kept_graph, kept_graph_refusal, write_text
from grooph_core.cli.validate_cmd import print_listing
from grooph_core.schema.canonical import canonical_text
from grooph_core.schema.check import schema_issues
from grooph_core.source.kinds import GRAPH_SUFFIX, MAP_SUFFIX, is_map_value
from grooph_core.source.load import Loaded, NoSuchFile, read_document
from grooph_core.source.text import js_number

SYNOPSIS = "grooph fmt <file> [--write] [--check]   (also: grooph canonicalize <file> [--write])"
SUMMARY = "print or rewrite a document in canonical form"
HELP = """
Prints the canonical form of a graph (*.grooph.json) or an operation map (*.grooph-map.json): keys in
the format's order, unknown keys sorted after them, two-space indentation, one final newline. Nothing is
dropped. A document that is not JSON or fails the schema is not formatted: its E_SCHEMA issues are
listed and the exit status is 1.

Flags:
  --write   rewrite the file in canonical form (says so, or that it is already canonical); refuses the
            graph an exported package keeps, and anything formatting would lose (a key written twice in
            one object, an integer beyond 2^53)
  --check   write nothing; exit 1 and say "<file> is not canonical" on stderr when it is not (for CI);
            ends with how many documents it checked, on stderr ("checked 9 documents: all canonical")

With --write or --check, several files and folders may be given (folders: every *.grooph.json and
*.grooph-map.json below them); a named folder holding none is said, and the exit status is 1.

Examples:
  grooph fmt review.grooph.json
  grooph fmt review.grooph.json --write
  grooph canonicalize studio.grooph-map.json --write
  grooph fmt --check fixtures/valid fixtures/maps/valid
"""

DOC_SUFFIXES = (GRAPH_SUFFIX, MAP_SUFFIX)  # fmt formats graphs and maps only (cli.md §0.4)
MAX_SAFE_INTEGER = 2**53


def _expand(paths: list[str]) -> list[str]:
    """Paths as typed; a folder becomes the grooph documents below it, sorted (the folders `validate`'s walk
    never enters, version-control metadata, are skipped here too)."""
    out: list[str] = []
    for p in paths:
        if os.path.isdir(p):
            for root, dirs, files in os.walk(p):
                dirs[:] = sorted(d for d in dirs if d not in SKIPPED_FOLDERS)
                out.extend(os.path.join(root, f) for f in sorted(files) if f.lower().endswith(DOC_SUFFIXES))
        else:
            out.append(p)
    return out


def _kind(doc: Loaded) -> str:
    """cli.md §2.3 / §0.4: a map by content; otherwise what the file name says, else a graph."""
    return "map" if is_map_value(doc.value) else doc.kind


def losses(text: str) -> list[str]:
    """What canonical text made from `text` would lose, one phrase each (empty when nothing).

    json.loads keeps the last value of a repeated key (as JSON.parse does) and reads integers as
    doubles (graph.md §0.5); formatting must not silently drop the other value or the digits."""
    found: list[str] = []

    def pairs(items):
        seen: set[str] = set()
        for k, _ in items:
            if k in seen:
                found.append(f"the key {json.dumps(k, ensure_ascii=False)} appears twice in one object "
                             "(only its last value would be kept)")
            seen.add(k)
        return dict(items)

    def integer(s: str):
        i = int(s)
        if not -MAX_SAFE_INTEGER < i < MAX_SAFE_INTEGER and float(i) != i:
            found.append(f"the number {s} cannot be kept exactly (it would be written {js_number(i)})")
        return i

    try:
        json.loads(text, object_pairs_hook=pairs, parse_int=integer, parse_constant=lambda c: None)
    except (ValueError, RecursionError):
        return []
    return found


def _format_one(path: str, *, write: bool, check: bool, to_stdout: bool, seen: list[str] | None = None) -> int:
    """Format, check or rewrite one file; exit status. `seen` gets "canonical" or "not canonical" for a
    document that could be formatted (what `--check`'s total counts)."""
    try:
        doc = read_document(path)
    except NoSuchFile:
        sys.stderr.write(f"grooph: no such file: {path}\n")
        return 1
    if doc.error is not None:
        print_listing(path, [doc.error])
        return 1
    kind = _kind(doc)
    issues = schema_issues(doc.value, kind)
    if issues:
        print_listing(path, issues)
        return 1
    text = canonical_text(doc.value, kind)
    if to_stdout:
        sys.stdout.write(text)
        return 0
    if check:
        if seen is not None:
            seen.append("canonical" if doc.text == text else "not canonical")
        if doc.text != text:
            sys.stderr.write(f"{path} is not canonical\n")
            return 1
        return 0
    # --write
    if is_kept_graph(path):
        sys.stderr.write(kept_graph_refusal(path) + "\n")
        return 1
    if doc.text == text:
        sys.stdout.write(f"{path} is already canonical\n")
        return 0
    lost = losses(doc.text or "")
    if lost:
        sys.stderr.write(f"grooph: {path} not rewritten: " + "; ".join(lost)
                         + ". Nothing was written; fix these by hand first.\n")
        return 1
    write_text(path, text)
    sys.stdout.write(f"{path} rewritten in canonical form\n")
    return 0


def run(argv: list[str]) -> int:
    try:
        args = parse_args(argv, booleans=("write", "check"))
    except UsageError as e:
        return usage_error("fmt", str(e))
    write, check = bool(args.flags.get("write")), bool(args.flags.get("check"))
    if not args.positionals:
        return usage_error("fmt", "a file to format is required")
    if write and check:
        return usage_error("fmt", "--write and --check cannot be used together")
    if not (write or check):
        if len(args.positionals) > 1:
            return usage_error("fmt", "one file at a time (several files need --write or --check)")
        if os.path.isdir(args.positionals[0]):
            return usage_error("fmt", f"{args.positionals[0]} is a folder (a folder needs --write or --check)")
        return _format_one(args.positionals[0], write=False, check=False, to_stdout=True)
    status, paths, seen = 0, _expand(args.positionals), []
    for folder in args.positionals:
        if os.path.isdir(folder) and not _expand([folder]):  # nothing formatted must not read as "all canonical"
            sys.stderr.write(f"grooph: no graph or operation map in {folder} (looked for "
                             f"{' and '.join('*' + s for s in DOC_SUFFIXES)} in it and its subfolders)\n")
            status = 1
    for path in paths:
        status = max(status, _format_one(path, write=write, check=check, to_stdout=False, seen=seen))
    if check:
        sys.stderr.write(check_total(len(paths), seen) + "\n")
    return status


def check_total(named: int, seen: list[str]) -> str:
    """The closing line of `--check` (on stderr, so stdout stays empty): how many documents it checked,
    how many were not canonical and how many could not be formatted at all."""
    if not named:
        return "checked 0 documents"
    parts = [f"{seen.count('not canonical')} not canonical" if "not canonical" in seen else "all canonical"]
    if named > len(seen):
        parts = [f"{seen.count('not canonical')} not canonical", f"{named - len(seen)} not formatted (above)"]
    return f"checked {named} document{'' if named == 1 else 's'}: " + ", ".join(parts)
