"""Benchmark of the structure layer on every keystroke: the structural check (`schema_issues`), the
unknown-key rule, the canonical form and the size rule (targets: a 1M-character graph well under 50 ms
for the check and 100 ms for the canonical form).

Run: `python -m bench.bench_structure` from the repository root. Prints medians over repeats for
generated graph-like documents of about 2k, 24k, 240k and 1M characters, plus a 1M-character document
made of many small objects (the worst case per character) and a 1M document with schema errors.
"""

from __future__ import annotations

import gc
import json
import statistics
import time

from bench.graph_docs import graph_doc
from grooph_core.rules.doc_size import doc_size_issues
from grooph_core.rules.unknown_keys import unknown_key_issues
from grooph_core.schema.canonical import canonical_text
from grooph_core.schema.check import schema_issues

SIZES = (2_000, 24_000, 240_000, 1_000_000)


def median_ms(fn, repeats: int) -> float:
    """Median CPU time of this process (steadier than wall time on a shared machine)."""
    times = []
    for _ in range(repeats):
        gc.collect()
        t = time.process_time()
        fn()
        times.append(time.process_time() - t)
    return statistics.median(times) * 1000


def small_objects(target_chars: int) -> dict:
    """Many tiny nodes, edges and stops: the most values per character a real document has."""
    nodes, edges, loops = [], [], []
    doc = {"grooph": 0, "id": "g", "name": "G", "version": 1, "nodes": nodes, "edges": edges, "loops": loops}
    i = 0
    while i % 100 or len(json.dumps(doc, indent=2)) < target_chars:
        nodes.append({"id": f"c{i}", "kind": "check", "name": "C", "check": {"kind": "tests", "pass": "ok"}})
        edges.append({"id": f"e{i}", "from": f"c{i}", "to": f"c{i + 1}", "when": "pass"})
        loops.append({"id": f"l{i}", "name": "L", "members": [f"c{i}"], "back": [f"e{i}"],
                      "stops": [{"kind": "max-iterations", "n": 3}, {"kind": "budget", "measure": "usd", "limit": 1}]})
        i += 1
    return doc


def report(label: str, value, chars: int, repeats: int) -> None:
    checks = {
        "schema_issues": lambda: schema_issues(value, "graph"),
        "unknown_key_issues": lambda: unknown_key_issues(value, "graph"),
        "canonical_text": lambda: canonical_text(value, "graph"),
        "doc_size_issues": lambda: doc_size_issues(value, "graph"),
    }
    cells = "  ".join(f"{name} {median_ms(fn, repeats):7.2f} ms" for name, fn in checks.items())
    print(f"{label:<28} {chars:>9,} chars  {cells}")


def main() -> None:
    for n in SIZES:
        text = graph_doc(n)
        repeats = 200 if n < 10_000 else 50 if n < 100_000 else 15 if n < 500_000 else 9
        report("graph_doc", json.loads(text), len(text), repeats)
    doc = small_objects(1_000_000)
    report("small objects", doc, len(json.dumps(doc, indent=2)), 9)
    broken = json.loads(graph_doc(1_000_000))
    for node in broken["nodes"][::3]:
        node["kind"] = "worker"
    report("schema errors (1/3 nodes)", broken, 1_000_000, 9)


if __name__ == "__main__":
    main()
