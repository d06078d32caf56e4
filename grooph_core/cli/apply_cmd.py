"""`grooph apply`: apply a JSON list of operations to a graph, all or nothing (cli.md §2.2).

Steps in the spec's order; the first that fails ends the command with exit 1 and writes nothing:
read the graph (it must pass the schema), read the ops, apply them (operations.md §1), schema-check
the canonical result, validate it, write when asked, report. Our additions (issue 5): the ops file may
be the second positional argument, `--in-place` is `--write`, `--out FILE` writes the result to
another file, and the text report gives the ids reply on an `ids:` line.
"""

from __future__ import annotations

import json
import sys

from grooph_core.cli import usage_error
from grooph_core.cli.args import UsageError, parse_args
from grooph_core.cli.files import is_kept_graph, kept_graph_refusal, write_text
from grooph_core.cli.fmt_cmd import losses
from grooph_core.cli.listing import print_listing
from grooph_core.ide.kinds import kind_named
from grooph_core.issues import Issue
from grooph_core.docs import page
from grooph_core.ops import apply
from grooph_core.ops.table import OPS
from grooph_core.rules.validate import validate_value
from grooph_core.schema.canonical import canonical_text
from grooph_core.schema.check import schema_issues
from grooph_core.source.json_reader import parse_strict
from grooph_core.source.load import NoSuchFile, decode, read_document

SYNOPSIS = ("grooph apply <file> [<ops.json | ->] [--ops <ops.json | ->] [--write | --in-place | --out <file>] "
            "[--for-export] [--json]")
SUMMARY = "apply a JSON list of operations to a graph, all or nothing"
HELP = """
Applies a JSON list of operations to a graph document, in order and all or nothing: when one op cannot
be applied, none is, and the file is left as it was. Each op is an object {"op": "<name>", ...arguments}.
The result is schema-checked and validated; without --write it is a dry run.

Arguments and flags:
  <ops.json | ->             the file holding the op list (- reads it from stdin); same as --ops
  --ops <ops.json | ->       the op list, as above
  --write, --in-place        save the result, in canonical form, over <file> (even when rule errors
                             remain: a graph may be built in steps)
  --out <file>               save the result, in canonical form, to another file instead
  --for-export, --complete   validate the result with the export-only rules too
  --json                     print the report as JSON

Exit status: 0 when the list applied and the result has no error; 1 when errors remain (even if the
file was written), when an op was refused (its index is reported), or when nothing could be read.

Examples:
  grooph apply review.grooph.json ops.json
  echo '[{"op":"addNode","kind":"stop","name":"Done"}]' | grooph apply g.grooph.json --ops - --write
  grooph apply draft.grooph.json fixes.json --out fixed.grooph.json --json

Operations (name, arguments, what it does):
{operations}

Each operation's arguments and a worked example: {reference}
"""

HELP = HELP.replace("{operations}", "\n".join(
    f"  {o.name:<17}{' '.join(o.args):<24}{o.summary}" for o in OPS)).replace("{reference}", str(page("ops.md")))

OPS_EXAMPLE = '[{"op": "addNode", "kind": "stop", "name": "Done"}]'


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def _emit_json(obj: dict) -> None:
    sys.stdout.write(json.dumps(obj, indent=2, ensure_ascii=False) + "\n")


def _read_ops(source: str) -> tuple[object, str | None]:
    """The parsed ops and None, or None and the failure line (cli.md §2.2 step 2). May raise NoSuchFile."""
    label = "stdin" if source == "-" else source
    if source == "-":
        stream = getattr(sys.stdin, "buffer", None)
        data = stream.read() if stream is not None else sys.stdin.read().encode("utf-8", "surrogatepass")
    else:
        try:
            with open(source, "rb") as f:
                data = f.read()
        except (FileNotFoundError, IsADirectoryError, NotADirectoryError, PermissionError, OSError) as e:
            raise NoSuchFile(source) from e
    text, err = decode(data)
    value = None
    if err is None:
        value, err = parse_strict(text)  # type: ignore[arg-type]
    if err is not None:
        explanation = err.message.split("not valid JSON: ", 1)[-1]
        return None, f"{label} is not valid JSON: {explanation}"
    if not isinstance(value, list):
        return None, f"{label} must hold a JSON list of ops, such as {OPS_EXAMPLE}"
    return value, None


def _fail_json(file: str, **fields) -> None:
    _emit_json({"file": file, "ok": False, "written": False, **fields})


def run(argv: list[str]) -> int:
    try:
        args = parse_args(argv, booleans=("write", "for-export", "json"), valued=("ops", "out"),
                          aliases={"complete": "for-export", "in-place": "write"})
    except UsageError as e:
        return usage_error("apply", str(e))
    pos = args.positionals
    if not pos:
        return usage_error("apply", "the graph file to change is required")
    if len(pos) > 2:
        return usage_error("apply", f"too many arguments: {' '.join(pos[2:])}")
    ops_source = args.flags.get("ops")
    if len(pos) == 2:
        if ops_source is not None:
            return usage_error("apply", "give the ops once: either as the second argument or with --ops")
        ops_source = pos[1]
    if ops_source is None:
        return usage_error("apply", "the ops are required: --ops <ops.json | ->")
    out = args.flags.get("out")
    write = bool(args.flags.get("write"))
    if out is not None and write:
        return usage_error("apply", "--out and --write (--in-place) cannot be used together")
    if out == "":
        return usage_error("apply", "--out needs a file name")
    file = pos[0]
    as_json = bool(args.flags.get("json"))
    export = bool(args.flags.get("for-export"))

    # 1. the graph
    try:
        doc = read_document(file)
    except NoSuchFile:
        sys.stderr.write(f"grooph: no such file: {file}\n")
        return 1
    if doc.error is None and not kind_named(doc.kind).takes_operations:  # a map (operations.md §1)
        message = (f"ops cannot be applied to {file}: it is an operation map, and operations change graphs "
                   "only; edit the map's text instead")
        if as_json:
            _fail_json(file, issues=[], message=message)
        else:
            sys.stderr.write(f"grooph: {message}\n")
        return 1
    issues: list[Issue] = [doc.error] if doc.error is not None else schema_issues(doc.value, "graph")
    if issues:
        if as_json:
            _fail_json(file, issues=[i.to_json() for i in issues])
        else:
            sys.stderr.write(f"grooph: ops cannot be applied to {file}: it does not match the schema; fix it "
                             "by hand or start again with grooph new\n")
            print_listing(file, issues)
        return 1

    # 2. the ops
    try:
        ops, problem = _read_ops(ops_source)
    except NoSuchFile:
        sys.stderr.write(f"grooph: no such file: {ops_source}\n")
        return 1
    if problem is not None:
        if as_json:
            _fail_json(file, error={"index": -1, "op": "", "message": problem})
        else:
            sys.stderr.write(f"grooph: {problem}\n")
        return 1

    # 3. apply
    result = apply(doc.value, ops)  # type: ignore[arg-type]
    if not result.ok:
        assert result.error is not None
        if as_json:
            _fail_json(file, error=result.error.to_json())
        else:
            sys.stderr.write(f"grooph: {result.error.line()}\n")
            sys.stderr.write(f"grooph: no op was applied; {file} is unchanged\n")
            sys.stderr.write(f"What each op takes: grooph help apply, or {page('ops.md')}\n")
        return 1
    ids = list(result.ids)

    # 4. schema-check the canonical result
    text = canonical_text(result.doc, "graph")
    value, _ = parse_strict(text)
    bad = schema_issues(value, "graph")
    if bad:
        if as_json:
            _fail_json(file, ids=ids, issues=[i.to_json() for i in bad])
        else:
            sys.stderr.write(f"grooph: the ops applied, but the result does not match the schema, so {file} "
                             "is unchanged\n")
            print_listing(file, bad)
            sys.stderr.write(f"What a graph's fields take: {page('graphs.md')}\n")
        return 1

    # 5. validate, write when asked
    found = validate_value(value, "graph", export=export)
    target = file if write else out
    written = False
    if target is not None:
        if is_kept_graph(target):
            if as_json:
                _fail_json(file, applied=len(ops), ids=ids, issues=[i.to_json() for i in found],
                           message=kept_graph_refusal(target)[len("grooph: "):])
            else:
                sys.stderr.write(kept_graph_refusal(target) + "\n")
            return 1
        if write:
            lost = losses(doc.text or "")
            if lost:  # rewriting in place would drop what the parsed value cannot hold
                message = (f"{file} not rewritten: " + "; ".join(lost) + ". Nothing was written; fix these by "
                           "hand first.")
                if as_json:
                    _fail_json(file, applied=len(ops), ids=ids, issues=[i.to_json() for i in found], message=message)
                else:
                    sys.stderr.write(f"grooph: {message}\n")
                return 1
        try:
            write_text(target, text)
        except OSError as e:
            message = f"cannot write {target}: {e.strerror or e}; nothing was written"
            if as_json:
                _fail_json(file, applied=len(ops), ids=ids, issues=[i.to_json() for i in found], message=message)
            else:
                sys.stderr.write(f"grooph: {message}\n")
            return 1
        written = True

    # 6. report
    has_error = any(i.severity == "error" for i in found)
    if as_json:
        report = {"file": file, "ok": not has_error, "written": written, "applied": len(ops), "ids": ids,
                  "issues": [i.to_json() for i in found]}
        if out is not None:
            report["out"] = out
        _emit_json(report)
    else:
        print_listing(file, found)
        if any(i is not None for i in ids):
            sys.stdout.write("ids: " + json.dumps(ids, ensure_ascii=False, separators=(",", ":")) + "\n")
        if written:
            sys.stdout.write(f"applied {_plural(len(ops), 'op')}; wrote {target}\n")
        else:
            sys.stdout.write(f"applied {_plural(len(ops), 'op')}; {file} not written (dry run — pass --write "
                             "to save)\n")
    return 1 if has_error else 0
