"""Benchmark of `grooph_core.source.json_reader.parse` against `json.loads` (issue 3 item 6).

Run: `python -m bench.bench_source` from the repository root. Prints medians over repeats for
generated graph-like documents of about 2k, 24k, 240k and 1M characters: valid text, the same text
with a missing comma in the middle, and the same text cut short (typing at the end); then the cost of
resolving 10 pointers on the 1M document (cold: a fresh parse each time; warm: asked again), and of
`pointer_at`/`enclosing_object` at 10 offsets.
"""

from __future__ import annotations

import gc
import json
import statistics
import time

from bench.graph_docs import graph_doc
from grooph_core.source.json_reader import parse

SIZES = (2_000, 24_000, 240_000, 1_000_000)


LOWEST: dict[str, float] = {}


def median_ms(fn, repeats: int, label: str = "") -> float:
    """Median over repeats in ms (the lowest is kept in LOWEST[label]: on a busy machine it shows
    the cost without the noise)."""
    times = []
    for _ in range(repeats):
        gc.collect()
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    LOWEST[label] = min(times) * 1000
    return statistics.median(times) * 1000


def repeats_for(n: int) -> int:
    return 200 if n < 10_000 else 50 if n < 100_000 else 15 if n < 500_000 else 9


def broken_variants(text: str) -> dict[str, str]:
    mid = text.index('"edges"') // 2
    comma = text.index("},", mid) + 1  # the comma after an object in the middle of the nodes
    return {
        "missing comma (middle)": text[:comma] + text[comma + 1 :],
        "cut short (last 30 chars gone)": text[:-30],
    }


def main() -> None:
    print("median (lowest) over repeats")
    print(f"{'document':<34}{'chars':>10}{'json.loads':>20}{'parse':>20}{'ratio':>8}")
    docs = {}
    for size in SIZES:
        text = graph_doc(size)
        docs[size] = text
        r = repeats_for(len(text))
        base = median_ms(lambda: json.loads(text), r, "base")
        ours = median_ms(lambda: parse(text), r, "ours")
        lb, lo = LOWEST["base"], LOWEST["ours"]
        print(f"{'valid':<34}{len(text):>10}{base:>9.2f} ({lb:>6.2f})ms{ours:>9.2f} ({lo:>6.2f})ms"
              f"{ours / base:>7.2f}x")
        for name, bad in broken_variants(text).items():
            got = parse(bad)
            assert not got.ok and got.value is not None
            t_bad = median_ms(lambda: parse(bad), r, "bad")
            print(f"{name:<34}{len(bad):>10}{'':>20}{t_bad:>9.2f} ({LOWEST['bad']:>6.2f})ms{t_bad / base:>7.2f}x")

    text = docs[SIZES[-1]]
    value = json.loads(text)
    n_nodes, n_edges = len(value["nodes"]), len(value["edges"])
    pointers = [
        "/id", "/nodes/0/id", f"/nodes/{n_nodes // 2}/brief", f"/nodes/{n_nodes - 1}/kind",
        f"/edges/{n_edges // 3}/to", f"/edges/{n_edges - 1}/from", "/loops/0/stops/0/n",
        f"/layout/step-{n_nodes // 2}/x", f"/layout/step-{n_nodes - 2}", "/nodes/7/outputs/1",
    ]
    print(f"\n10 pointers on the {len(text):,}-character document:")

    def cold():
        sm = parse(text).source_map
        t = time.perf_counter()
        for p in pointers:
            assert sm.value_span(p) is not None, p
        return time.perf_counter() - t

    cold_times = [cold() for _ in range(9)]
    print(f"  cold (first requests on a fresh parse): {statistics.median(cold_times) * 1000:.2f} ms for 10")
    sm = parse(text).source_map
    for p in pointers:
        sm.value_span(p)
    warm = median_ms(lambda: [sm.value_span(p) for p in pointers], 50)
    print(f"  warm (asked again):                      {warm:.3f} ms for 10")
    offsets = [len(text) * k // 10 for k in range(10)]

    def cursor():
        sm2 = parse(text).source_map
        t = time.perf_counter()
        for o in offsets:
            sm2.pointer_at(o)
            sm2.enclosing_object(o)
        return time.perf_counter() - t

    print(f"  pointer_at + enclosing_object at 10 offsets, cold: "
          f"{statistics.median([cursor() for _ in range(9)]) * 1000:.2f} ms")


if __name__ == "__main__":
    main()
