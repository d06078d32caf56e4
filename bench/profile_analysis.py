"""Where an analysis of a graph, a map or a board spends its time (issue 33): a profile, and a timing.

    python bench/profile_analysis.py                       # cProfile of the 2k and 24k graph, map and board
    python bench/profile_analysis.py --docs graph-2k --top 40 --sort tottime
    python bench/profile_analysis.py --stages              # the least CPU time of each stage (parse, rules ...)
    python bench/profile_analysis.py --time                # CPU ms per analysis (min and median), no profiler
    python bench/profile_analysis.py --time --compare ../old-checkout   # this checkout and another, interleaved
    python bench/profile_analysis.py --keystroke --docs graph-1m map-1m  # a keystroke's analysis, from the one before
    python bench/profile_analysis.py --keystroke --compare ../old-checkout   # the same, interleaved with another
    python bench/profile_analysis.py --rules-keystroke --docs graph-1m-faults   # the rules after one keystroke

The documents are the benchmark's (bench/generate.py: graphs and maps, clean and with faults;
bench/workflow_docs.py: the board), and one analysis is what bench/run.py's ours(a) column times
(`full_analysis`, `neighbour_analysis`). The profile runs `--runs` analyses of each document after a
warm-up and prints the top functions by cumulative and by own time. `--compare ROOT` times the same
documents with the code of another checkout in a child process, rounds alternating with this one's,
so both see the same load on a shared machine. `--keystroke` times what a keystroke costs the editor instead:
one key typed at the document's `edit_at` (bench/run.py's typing place) or taken back, analysed from the
analysis before it (`analyze(text, previous=)`, as the server does; issue 33 item 2), and its issues placed.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import io
import json
import os
import pstats
import statistics
import subprocess
import sys
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent

DOCS = ("graph-2k", "graph-2k-faults", "map-2k", "map-2k-faults", "graph-24k", "graph-24k-faults",
        "map-24k", "map-24k-faults", "board-25k")
EXTRA = ("graph-1m", "graph-1m-faults", "map-1m", "map-1m-faults", "board-1m")
_SIZES = {"2k": 2_000, "24k": 24_000, "25k": 24_000, "1m": 1_000_000}


def _analysis(label: str):
    """(text, a function that analyses it once as the benchmark does) for a document label."""
    kind, size, *faults = label.split("-")
    chars = _SIZES[size]
    if kind == "board":
        from bench.run import neighbour_analysis
        from bench.workflow_docs import board_text

        text = board_text(chars)
        return text, lambda: neighbour_analysis(text, "board")
    from bench.generate import graph_document, map_document
    from bench.run import full_analysis

    doc = (graph_document if kind == "graph" else map_document)(chars, faults=bool(faults))
    return doc.text, lambda: full_analysis(doc)


def _keystroke(label: str):
    """(text, a function that analyses the next keystroke's text from the analysis before it and places its
    issues): keys typed at the document's `edit_at` and taken back in turn, as bench/run.py types."""
    from bench.generate import graph_document, map_document
    from grooph_core.ide.grooph.analysis import analyze

    kind, size, *faults = label.split("-")
    doc = (graph_document if kind == "graph" else map_document)(_SIZES[size], faults=bool(faults))
    at = doc.edit_at
    texts = (doc.text, doc.text[:at] + "x" + doc.text[at:])
    state = {"a": analyze(doc.text, name=doc.name), "k": 0}

    def keystroke():
        state["k"] += 1
        a = analyze(texts[state["k"] % 2], name=doc.name, previous=state["a"])
        lines = a.line_index
        for issue in a.issues:  # placed as the server's diagnostics are (full_analysis)
            s, e = a.span(issue)
            lines.position(s), lines.position(e)
            for p, _ in issue.related:
                lines.position(a.pointer_span(p)[0])
        state["a"] = a
    return doc.text, keystroke


def profile(labels: list[str], runs: int, top: int, sorts: list[str], keystroke: bool = False) -> None:
    for label in labels:
        text, fn = (_keystroke if keystroke else _analysis)(label)
        for _ in range(3):
            fn()
        gc.collect()
        prof = cProfile.Profile(time.process_time)  # CPU time: the machine may be shared
        c = time.process_time()
        prof.enable()
        for _ in range(runs):
            fn()
        prof.disable()
        per = (time.process_time() - c) * 1000 / runs
        print(f"===== {label}: {len(text):,} characters, {runs} analyses, {per:.3f} ms CPU each under the profiler")
        for sort in sorts:
            out = io.StringIO()
            stats = pstats.Stats(prof, stream=out)
            stats.strip_dirs().sort_stats(sort).print_stats(top)
            body = out.getvalue()
            body = body[body.find("   ncalls"):]  # the table only
            print(f"--- by {sort} (CPU seconds, totals over {runs} analyses)")
            print(body.rstrip())
        print()


def _best(fn, runs: int) -> float:
    """The least CPU microseconds of `runs` calls (the least is the steadiest figure on a shared machine)."""
    best = float("inf")
    for _ in range(runs):
        c = time.process_time()
        fn()
        best = min(best, time.process_time() - c)
    return best * 1e6


def _grooph_stages(label: str):
    """(stage, function) of one graph or map analysis, each stage alone on the benchmark's document."""
    from bench.generate import graph_document, map_document
    from grooph_core.ide.grooph.analysis import analyze
    from grooph_core.rules import graph as graph_rules
    from grooph_core.rules import map as map_rules
    from grooph_core.rules.doc_size import doc_size_issues
    from grooph_core.rules.unknown_keys import unknown_key_issues
    from grooph_core.schema.check import schema_issues
    from grooph_core.source.json_reader import parse

    kind, size, *faults = label.split("-")
    doc = (graph_document if kind == "graph" else map_document)(_SIZES[size], faults=bool(faults))
    text, value = doc.text, parse(doc.text).value
    a = analyze(text, name=doc.name)
    stages = [("parse", lambda: parse(text)), ("structure", lambda: schema_issues(value, kind))]
    if kind == "graph":
        index = graph_rules.build_index(value)
        stages.append(("index", lambda: graph_rules.build_index(value)))
        stages += [(f"rule {r.codes[0]}", (lambda r=r: r.run(value, index))) for r in graph_rules.RULES if not r.export]
    else:
        index = map_rules.map_index(value)
        stages.append(("index", lambda: map_rules.map_index(value)))
        stages += [(f"rule {r.codes[0]}", (lambda r=r: r.run(index, None))) for r in map_rules.RULES]
    stages += [("unknown keys", lambda: unknown_key_issues(value, kind)), ("size", lambda: doc_size_issues(value, kind))]
    stages += [("walk (the last three)", lambda: _walk_issues(value, kind, None)),
               ("walk after a one-item edit", _walk_after_an_edit(value, kind))]

    def place():
        fresh = analyze(text, name=doc.name)  # a fresh analysis: its source map is built on first use
        for issue in fresh.issues:
            fresh.span(issue)
            for p, _ in issue.related:
                fresh.pointer_span(p)
    stages += [("analyze", lambda: analyze(text, name=doc.name)), ("analyze + place", place),
               ("whole (bench)", _analysis(label)[1])]
    return stages, len(a.issues)


def _walk_issues(value, kind, previous):
    """The structural check, the unknown keys and the size as the editor's analysis makes them (issue 33)."""
    from grooph_core.rules.document_walk import walk_document

    walk = walk_document(value, kind, previous)
    walk.schema_issues(), walk.unknown_key_issues(), walk.size_issues()
    return walk


def _walk_after_an_edit(value, kind):
    """The walk of a value whose first item of its first non-empty top-level list is new (one character
    typed into a string of it, as the incremental reading gives it), from the walk of `value`."""
    import copy

    previous = _walk_issues(value, kind, None)
    name = next(k for k, v in value.items() if isinstance(v, list) and v and isinstance(v[0], dict))
    item = copy.deepcopy(value[name][0])
    key = next(k for k, v in item.items() if isinstance(v, str))
    item[key] += "x"
    edited = dict(value, **{name: [item] + value[name][1:]})
    return lambda: _walk_issues(edited, kind, previous)


def _board_stages(label: str):
    """(stage, function) of one board analysis (the neighbours' pipeline), each stage alone."""
    from bench.workflow_docs import board_text
    from grooph_core.ide.neighbours import analysis as na
    from grooph_core.rules import board
    from grooph_core.source.kinds import NEIGHBOURS

    kind = next(k for k in NEIGHBOURS if k.name == "board")
    text = board_text(_SIZES[label.split("-")[1]])
    reading = na.reader_reading(text, kind)
    parsed = na.engine_read(reading, kind)
    serde = board.reading(parsed)
    doc = board.read(serde.value, previous=None)
    stages = [("parse", lambda: na.reader_reading(text, kind)), ("engine_read", lambda: na.engine_read(reading, kind)),
              ("serde reading", lambda: board.reading(parsed)), ("read_board", lambda: board.read(serde.value, previous=None))]
    stages += [(f"rule {r.codes[0]}", (lambda r=r: list(r.run(doc)))) for r in board.RULES]
    stages += [("analyze", lambda: na.analyze_neighbour(text, kind)), ("whole (bench)", _analysis(label)[1])]
    return stages, len(na.analyze_neighbour(text, kind).issues)


def stages(labels: list[str], runs: int) -> None:
    """The least CPU time of each stage of an analysis, alone: where a small document's time goes."""
    for label in labels:
        stage_list, issues = (_board_stages if label.startswith("board") else _grooph_stages)(label)
        print(f"===== {label} ({issues} issues): least CPU us of {runs} runs per stage")
        for name, fn in stage_list:
            fn()
            print(f"  {name:<34}{_best(fn, runs):10.1f}")


def timings(labels: list[str], runs: int, keystroke: bool = False) -> dict[str, list[float]]:
    """CPU ms of each of `runs` analyses per label (after a warm-up); of keystrokes with `keystroke`."""
    out = {}
    for label in labels:
        _, fn = (_keystroke if keystroke else _analysis)(label)
        for _ in range(3):
            fn()
        samples = []
        for _ in range(runs):
            gc.collect()
            c = time.process_time()
            fn()
            samples.append((time.process_time() - c) * 1000)
        out[label] = samples
    return out


def _child(root: Path, labels: list[str], runs: int, keystroke: bool = False) -> dict[str, list[float]]:
    """The timings with the code of another checkout (its `grooph_core` first on the path; these documents)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    # grooph_core imported from `root` first; then bench/ from this checkout (the same documents and measures)
    code = ("import json,sys; sys.path.insert(0,%r); import grooph_core; sys.path.insert(0,%r); "
            "from bench.profile_analysis import timings; print(json.dumps(timings(%r, %d, %r)))"
            % (str(root), str(ROOT), labels, runs, keystroke))
    proc = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    return json.loads(proc.stdout)


def compare(labels: list[str], runs: int, rounds: int, other: Path | None, keystroke: bool = False) -> None:
    """Min and median CPU ms per analysis, this checkout (and `other`), rounds interleaved in child processes."""
    roots = {"this": ROOT} | ({"other": other.resolve()} if other else {})
    samples: dict[str, dict[str, list[float]]] = {name: {label: [] for label in labels} for name in roots}
    for _ in range(rounds):
        for name, root in roots.items():
            for label, s in _child(root, labels, runs, keystroke).items():
                samples[name][label] += s
    head = f"{'document':<18}" + "".join(f"{name + ' min':>12}{name + ' p50':>12}" for name in roots)
    if other:
        head += f"{'min new/old':>13}{'p50 new/old':>13}"
    print(head)
    for label in labels:
        row = f"{label:<18}"
        figs = []
        for name in roots:
            s = samples[name][label]
            figs.append((min(s), statistics.median(s)))
            row += f"{min(s):12.3f}{statistics.median(s):12.3f}"
        if other:
            row += f"{figs[0][0] / figs[1][0]:13.2f}{figs[0][1] / figs[1][1]:13.2f}"
        print(row)
    print(f"(CPU ms per {'keystroke' if keystroke else 'analysis'}; {rounds} rounds of {runs} runs each; this = {ROOT}"
          + (f", other = {other}" if other else "") + ")")


def _keystroke_values(label: str):
    """(edit, value before, value after) of one keystroke at each of three places of the benchmark's document:
    bench/run.py's place (after `"name": "` of the middle object), the id of the middle node (map: session)
    and the `to` of the middle edge (map: handoff). The value after shares what the incremental reading
    shares with the value before: every root member and list item the edit left alone is the same object."""
    from bench.generate import graph_document, map_document

    kind, size, *faults = label.split("-")
    doc = (graph_document if kind == "graph" else map_document)(_SIZES[size], faults=bool(faults))
    text, value = doc.text, json.loads(doc.text)
    holder, target = ("nodes", "edges") if kind == "graph" else ("sessions", "handoffs")
    places = {"name": doc.edit_at}
    mid = value[holder][len(value[holder]) // 2]["id"]
    places["id"] = text.index(f'"id": "{mid}"') + len('"id": "')
    edge = value[target][len(value[target]) // 2]
    places["to"] = text.index('"to": "', text.index(f'"id": "{edge["id"]}"')) + len('"to": "')
    out = []
    for edit, at in places.items():
        new = json.loads(text[:at] + "z" + text[at:])
        shared = {}
        for k, v in new.items():
            old = value[k]
            if v == old:
                shared[k] = old
            elif isinstance(v, list) and isinstance(old, list) and len(v) == len(old):
                shared[k] = [o if o == n else n for o, n in zip(old, v)]
            else:
                shared[k] = v
        out.append((edit, value, shared))
    return kind, out


def rules_keystroke(labels: list[str], runs: int) -> None:
    """CPU us of the rules (graph.md §3.3 / map.md §4.2 with their index; then `rule_issues`, which adds the
    unknown keys and the size) after one keystroke: afresh, and from the version before's memo."""
    from grooph_core.rules.graph import graph_rule_issues
    from grooph_core.rules.map import map_rule_issues
    from grooph_core.rules.rule_memo import RuleMemo
    from grooph_core.rules.validate import rule_issues

    print(f"{'document':<18}{'edit':<6}{'rules afresh':>14}{'with memo':>11}{'p50 afresh':>12}{'p50 memo':>10}"
          f"{'rule_issues afresh':>20}{'with memo':>11}   rules re-run")
    for label in labels:
        kind, edits = _keystroke_values(label)
        own = graph_rule_issues if kind == "graph" else map_rule_issues
        for edit, before, after in edits:
            memo = RuleMemo()
            rule_issues(before, kind, memo=memo)
            check = RuleMemo(memo)
            assert rule_issues(after, kind, memo=check) == rule_issues(after, kind)
            rerun = check.ran
            figs = []
            for fn in (lambda: own(after), lambda: own(after, memo=RuleMemo(memo)),
                       lambda: rule_issues(after, kind), lambda: rule_issues(after, kind, memo=RuleMemo(memo))):
                fn()
                samples = []
                for _ in range(runs):
                    c = time.process_time()
                    fn()
                    samples.append((time.process_time() - c) * 1e6)
                figs.append((min(samples), statistics.median(samples)))
            print(f"{label:<18}{edit:<6}{figs[0][0]:14.0f}{figs[1][0]:11.0f}{figs[0][1]:12.0f}{figs[1][1]:10.0f}"
                  f"{figs[2][0]:20.0f}{figs[3][0]:11.0f}   {rerun} of {memo.ran}")
    print(f"(CPU us, min of {runs} runs and median; rules afresh = main's analysis of these rules)")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--docs", nargs="+", default=list(DOCS), choices=DOCS + EXTRA, metavar="DOC",
                    help=f"documents (default: {' '.join(DOCS)}; also {' '.join(EXTRA)})")
    ap.add_argument("--runs", type=int, default=None, help="analyses per document (default 200 profiled, 40 timed)")
    ap.add_argument("--top", type=int, default=25, help="functions listed per table")
    ap.add_argument("--sort", nargs="+", default=["cumulative", "tottime"], help="pstats sort keys")
    ap.add_argument("--time", action="store_true", help="time without the profiler instead")
    ap.add_argument("--stages", action="store_true", help="the least CPU time of each stage alone instead")
    ap.add_argument("--rounds", type=int, default=3, help="--time: alternating rounds")
    ap.add_argument("--compare", type=Path, default=None, help="--time: another checkout to time beside this one")
    ap.add_argument("--keystroke", action="store_true",
                    help="a keystroke at the document's edit_at analysed from the analysis before it (with --time "
                         "or --compare: timed; else profiled)")
    ap.add_argument("--rules-keystroke", action="store_true",
                    help="the rules after one keystroke (a name, an id, a reference), afresh and with the memo")
    args = ap.parse_args(argv)
    if args.rules_keystroke:
        rules_keystroke(args.docs, args.runs or 20)
    elif args.stages:
        stages(args.docs, args.runs or 100)
    elif args.time or args.compare:
        compare(args.docs, args.runs or 40, args.rounds, args.compare, args.keystroke)
    else:
        profile(args.docs, args.runs or 200, args.top, args.sort, args.keystroke)
    return 0


if __name__ == "__main__":
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    sys.exit(main())
