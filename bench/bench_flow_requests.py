"""`python -m bench.bench_flow_requests`: the flow requests of issue 31 (items 1, 2, 4) in process CPU time,
median of 5, on a graph, a map (bench/generate.py), a workflow and a board (bench/workflow_docs.py) of about
24k and 1M characters: a document highlight, prepareCallHierarchy, incoming and outgoing calls, and a
selection range, each at a reference in the middle of the document. The core's answer only (the face's
method on the analysis the server holds). What a request keeps per version (the call hierarchy's index, a
workflow's or board's name places) is dropped before every run, so each figure is the first request on a
version; "again" is a highlight once they are kept (the cursor moving in an unchanged text). Targets:
<= 5 ms at 24k, <= 100 ms at 1M."""

from __future__ import annotations

import argparse
import time

import grooph_core.ide  # noqa: F401  (makes the faces)
from bench.generate import graph_document, map_document
from bench.workflow_docs import board_text, workflow_text
from grooph_core.ide.kinds import kind_of_file

TARGETS_MS = {24_000: 5.0, 1_000_000: 100.0}


def _timed(fn, repeats: int) -> float:
    runs = []
    for _ in range(repeats):
        t0 = time.process_time()
        fn()
        runs.append(time.process_time() - t0)
    return sorted(runs)[len(runs) // 2] * 1000


def _cursor(text: str, marker: str, into: int) -> int:
    """`into` characters into the first `marker` after the middle of the text."""
    return text.index(marker, len(text) // 2) + into


def documents(size: int):
    """(label, file name, text, cursor) at `size` characters."""
    g = graph_document(size).text
    m = map_document(size).text
    w = workflow_text(size)
    b = board_text(size)
    return [("graph", "bench.grooph.json", g, _cursor(g, '"to": "', 8)),
            ("map", "bench.grooph-map.json", m, _cursor(m, '"to": "', 8)),
            ("workflow", "bench.workflow.yaml", w, _cursor(w, "target: s", 10)),
            ("board", "bench.board.json", b, _cursor(b, '"parent": "', 12))]


def measure(size: int, repeats: int = 5) -> list[tuple[str, int, dict[str, float | None]]]:
    rows = []
    for label, name, text, at in documents(size):
        face = kind_of_file(name)
        a = face.read(text, name=name)
        memo = getattr(a, "memo", None)
        if memo is None:
            memo = getattr(a, "kept", None)  # a neighbouring document's

        def fresh(fn):
            def run():
                if memo is not None:
                    memo.clear()  # what the requests keep per version: built again each run
                return fn()
            return run

        items = face.call_items(a, at)
        item = items[0] if items else None
        figures: dict[str, float | None] = {
            "highlight": _timed(fresh(lambda: face.highlights(a, at)), repeats) if face.highlights(a, at) is not None else None,
            "again": _timed(lambda: face.highlights(a, at), repeats) if face.highlights(a, at) is not None else None,
            "prepare": _timed(fresh(lambda: face.call_items(a, at)), repeats) if items is not None else None,
            "incoming": _timed(fresh(lambda: face.incoming_calls(a, item.kind, item.id)), repeats) if item else None,
            "outgoing": _timed(fresh(lambda: face.outgoing_calls(a, item.kind, item.id)), repeats) if item else None,
            "selection": _timed(lambda: face.selection_ranges(a, [at]), repeats),
        }
        rows.append((label, len(text), figures))
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[24_000, 1_000_000])
    ap.add_argument("--repeats", type=int, default=5)
    args = ap.parse_args()
    columns = ("highlight", "again", "prepare", "incoming", "outgoing", "selection")
    print(f"{'document':<10} {'chars':>10} " + " ".join(f"{c:>10}" for c in columns) + "   (ms, process CPU, median)")
    worst: dict[int, float] = {}
    for size in args.sizes:
        for label, chars, figures in measure(size, args.repeats):
            cells = [f"{figures[c]:10.2f}" if figures[c] is not None else f"{'—':>10}" for c in columns]
            print(f"{label:<10} {chars:>10,} " + " ".join(cells))
            worst[size] = max([worst.get(size, 0.0)] + [v for v in figures.values() if v is not None])
    for size, ms in worst.items():
        target = TARGETS_MS.get(size)
        verdict = "" if target is None else (" (target <= %g ms: %s)" % (target, "met" if ms <= target else "MISSED"))
        print(f"slowest at {size:,}: {ms:.2f} ms{verdict}")


if __name__ == "__main__":
    main()
