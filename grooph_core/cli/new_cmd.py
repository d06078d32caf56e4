"""`grooph new`: write the minimal starting graph (cli.md §2.4, operations.md §6), or a new map.

Our additions (issue 5): the name may be given as the positional argument (`grooph new "Release
notes"`; cli.md §2.4 calls a positional a usage error, the issue asks for it; `--name` still works and
both at once is a usage error), and `--map` makes the smallest valid operation map instead.
"""

from __future__ import annotations

import os
import sys

from grooph_core.cli import usage_error
from grooph_core.cli.args import UsageError, parse_args
from grooph_core.cli.files import is_kept_graph, kept_graph_refusal, write_text
from grooph_core.ops import new_graph, new_map
from grooph_core.ops.repair_types import OPERATED_KINDS
from grooph_core.schema.canonical import canonical_text
from grooph_core.source.kinds import GRAPH_SUFFIX, MAP_SUFFIX
from grooph_core.source.text import is_blank

SYNOPSIS = "grooph new <name> | --name <name> [--goal <goal>] [--target <harness>] [--map] [--out <file>] [--force]"
SUMMARY = "make the minimal starting graph (or, with --map, operation map)"
HELP = """
Makes the starting document: a graph with a name, its id (the name's slug), version 1 and no
nodes, edges or loops, plus the goal and target when given. With --map, the smallest operation map
(no lanes, sessions or handoffs yet).

Where it goes: --out <file>; else, at a terminal, <id>.grooph.json (<id>.grooph-map.json for a
map) in the current folder; else (a pipe, an agent) the canonical text on stdout and no file.

Flags:
  --name <name>        the document's name (or give it as the only argument)
  --goal <goal>        the graph's goal (written as given)
  --target <harness>   the graph's target harness (any non-blank name)
  --map                make an operation map instead of a graph (no --goal, no --target)
  --out <file>         write the document to this file
  --force              replace an existing file

Examples:
  grooph new "Release notes" --goal "Publish the notes" --target claude-code
  grooph new --name "Scratch run" --out scratch.grooph.json
  grooph new "Studio" --map --out studio.grooph-map.json
"""


def run(argv: list[str]) -> int:
    try:
        args = parse_args(argv, booleans=("force", "map"), valued=("name", "goal", "target", "out"))
    except UsageError as e:
        return usage_error("new", str(e))
    flags = args.flags
    name = flags.get("name")
    if args.positionals:
        words = " ".join(args.positionals)
        if name is not None:
            return usage_error("new", f'give the name once: --name "{name}" or "{words}", not both')
        if len(args.positionals) > 1:
            return usage_error("new", f'give the name as one argument: --name "{words}"')
        name = args.positionals[0]
    if name is None or is_blank(name):
        return usage_error("new", "a name is required: --name <name> (or the name as the only argument)")
    is_map = bool(flags.get("map"))
    if is_map and ("goal" in flags or "target" in flags):
        return usage_error("new", "--goal and --target belong to graphs; a map has neither")
    target = flags.get("target")
    if target is not None and is_blank(target):
        return usage_error("new", "--target needs a harness name (for example claude-code or codex)")
    if is_map:
        doc, kind, suffix, noun = new_map(name), "map", MAP_SUFFIX, "map"
    else:
        doc, kind, suffix, noun = new_graph(name, flags.get("goal"), target), "graph", GRAPH_SUFFIX, "graph"
    text = canonical_text(doc, kind)
    out = flags.get("out")
    if out is None and not sys.stdout.isatty():
        sys.stdout.write(text)
        return 0
    path = out if out is not None else doc["id"] + suffix
    if is_kept_graph(path):
        sys.stderr.write(kept_graph_refusal(path) + "\n")
        return 1
    if os.path.exists(path) and not flags.get("force"):
        sys.stderr.write(f"grooph: {path} already exists; pass --force to overwrite it\n")
        return 1
    try:
        write_text(path, text)
    except OSError as e:
        sys.stderr.write(f"grooph: cannot write {path}: {e.strerror or e}\n")
        return 1
    sys.stdout.write(f'wrote {path} ({noun} "{doc["id"]}")\n')
    if kind in OPERATED_KINDS:  # operations.md §1 (`DocumentKind.takes_operations`), without loading the faces
        sys.stdout.write(f"next: grooph apply {path} --ops <ops.json> --write\n")
    else:
        sys.stdout.write(f"next: grooph validate {path}\n")
    return 0
