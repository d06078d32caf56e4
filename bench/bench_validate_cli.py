"""Benchmark of `grooph validate` at repository scale (issue 17 point 5): one by one against the
process pool, over 10,000 generated files, and where the pool starts to pay (the crossover that sets
`grooph_core.cli.check_files.POOL_FROM_FILES`).

Run from the repository root: `python -m bench.bench_validate_cli` (a few minutes);
`--files 2000 --repeats 1` for a quick look; `--no-crossover` to skip the small counts.
The crossover is shown two ways: whole runs on small counts, and a model from the two costs that
decide it (one file's check, a pool's start and stop), measured in-process as the lowest of many.

The files come from `bench/generate.py` (realistic graphs and maps, a tenth of them with faults),
laid out a hundred to a folder, as a repository might hold them. Each run is the real command in a
fresh process (`python -m grooph_core.cli validate <folder>`), output to files, timed on the wall
clock (what a CI job waits for) and on CPU (the command and its workers); the outputs of the serial
and the pooled runs are compared byte for byte.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench.generate import graph_document, map_document
from grooph_core.cli.check_files import POOL_FROM_FILES, usable_cores

ROOT = Path(__file__).resolve().parent.parent

# (maker, size in characters, with faults): the mix of a repository's documents, cycled through.
MIX = [
    (graph_document, 2_000, False), (graph_document, 2_000, False), (graph_document, 8_000, False),
    (graph_document, 8_000, False), (graph_document, 24_000, False), (map_document, 4_000, False),
    (map_document, 4_000, False), (map_document, 12_000, False), (graph_document, 8_000, True),
    (map_document, 4_000, True),
]


def make_corpus(folder: Path, files: int, mix=MIX) -> int:
    """Write `files` documents under `folder` (a hundred per subfolder); returns the characters written."""
    texts = [(make(size, faults=faults)) for make, size, faults in mix]
    chars = 0
    for i in range(files):
        doc = texts[i % len(texts)]
        sub = folder / f"part-{i // 100:03d}"
        sub.mkdir(parents=True, exist_ok=True)
        suffix = ".grooph-map.json" if doc.kind == "map" else ".grooph.json"
        (sub / f"doc-{i:05d}{suffix}").write_text(doc.text, encoding="utf-8")
        chars += doc.chars
    return chars


def run_validate(folder: Path, flags: list[str], out_dir: Path, tag: str) -> tuple[float, float, int]:
    """(wall s, CPU s of the command and its workers, exit code) of one run; output kept in out_dir."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    with open(out_dir / f"{tag}.out", "wb") as out, open(out_dir / f"{tag}.err", "wb") as err:
        rc = subprocess.run([sys.executable, "-m", "grooph_core.cli", "validate", str(folder), *flags],
                            cwd=ROOT, stdout=out, stderr=err, stdin=subprocess.DEVNULL).returncode
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, rc


def same_output(out_dir: Path, a: str, b: str) -> bool:
    return all((out_dir / f"{a}{s}").read_bytes() == (out_dir / f"{b}{s}").read_bytes() for s in (".out", ".err"))


def measure(folder: Path, modes: dict[str, list[str]], repeats: int, out_dir: Path) -> dict[str, tuple[float, float, int, float]]:
    """Median wall, median CPU, exit code and lowest wall per mode (modes interleaved per repeat, so load
    on the machine hits all alike; the lowest shows the cost with the least interference)."""
    walls: dict[str, list[float]] = {m: [] for m in modes}
    cpus: dict[str, list[float]] = {m: [] for m in modes}
    codes: dict[str, int] = {}
    for _ in range(repeats):
        for mode, flags in modes.items():
            wall, cpu, rc = run_validate(folder, flags, out_dir, mode)
            walls[mode].append(wall)
            cpus[mode].append(cpu)
            codes[mode] = rc
    return {m: (statistics.median(walls[m]), statistics.median(cpus[m]), codes[m], min(walls[m])) for m in modes}


def crossover(base: Path, out_dir: Path, repeats: int, counts=(1, 2, 4, 8, 16, 32, 48, 64, 96, 128, 256)) -> None:
    """Serial against the pool on small counts of the cheapest files (2k graphs), where the pool's
    start-up weighs most."""
    cores = usable_cores()
    print(f"\ncrossover: N small graphs (~2k characters), --jobs 1 against --jobs {cores}; wall ms of {repeats} runs,"
          " median (lowest)")
    print(f"{'files':>6} {'serial':>14} {'pool':>14} {'pool/serial':>12}")
    for n in counts:
        folder = base / f"cross-{n}"
        make_corpus(folder, n, mix=[(graph_document, 2_000, False)])
        r = measure(folder, {"serial": ["--jobs", "1"], "pool": ["--jobs", str(cores)]}, repeats, out_dir)
        s, p = r["serial"][0] * 1000, r["pool"][0] * 1000
        s_lo, p_lo = r["serial"][3] * 1000, r["pool"][3] * 1000
        print(f"{n:>6} {s:>7.0f} ({s_lo:>4.0f}) {p:>7.0f} ({p_lo:>4.0f}) {p / s:>5.2f} ({p_lo / s_lo:.2f})")
    print(f"(the command goes to the pool from {POOL_FROM_FILES} files; --jobs overrides)")


def _noop(x):
    return x


def predicted_crossover(base: Path) -> None:
    """The crossover from two costs measured in this process, each the lowest of many tries (so less
    at the mercy of a busy machine than whole runs): checking one small graph, and starting and stopping
    a pool. With k cores the pool saves (1 - 1/k) of each file's cost and pays its start once."""
    from grooph_core.cli.check_files import _ignore_interrupt, _pool_context, check_path, warm_up
    from grooph_core.cli.discover import Named

    folder = base / "one"
    make_corpus(folder, 1, mix=[(graph_document, 2_000, False)])
    item = Named(str(next(folder.rglob("*.grooph.json"))))
    warm_up({"graph"}, False)
    per_file = []
    for _ in range(200):
        t = time.perf_counter()
        check_path(item, export=False, want_ranges=False)
        per_file.append(time.perf_counter() - t)
    cores = usable_cores()
    start = []
    for _ in range(15):
        t = time.perf_counter()
        with _pool_context().Pool(cores, initializer=_ignore_interrupt) as pool:
            list(pool.imap(_noop, range(cores * 2)))
        start.append(time.perf_counter() - t)
    c, p = min(per_file), min(start)
    saved = c * (1 - 1 / cores) if cores > 1 else 0.0
    at = f"{p / saved:.0f} files" if saved else "never (one core)"
    print(f"\nmodel: one small graph {c * 1000:.2f} ms, a pool of {cores} started and stopped {p * 1000:.1f} ms "
          f"(lowest of many); the pool pays from about {at} on an idle machine")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--files", type=int, default=10_000)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--cross-repeats", type=int, default=7)
    ap.add_argument("--no-crossover", action="store_true")
    ap.add_argument("--keep", help="build the corpus in this folder and keep it")
    args = ap.parse_args()
    base = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="grooph-bench-validate-"))
    out_dir = base / "_outputs"
    out_dir.mkdir(parents=True, exist_ok=True)
    try:
        corpus = base / "repo"
        t = time.perf_counter()
        chars = make_corpus(corpus, args.files)
        print(f"{args.files} files, {chars / 1e6:.1f}M characters, written in {time.perf_counter() - t:.1f} s; "
              f"{usable_cores()} usable cores; {os.cpu_count()} on the machine")
        modes = {"serial": ["--jobs", "1"], "pool": [], "pool-sarif": ["--format", "sarif"],
                 "serial-sarif": ["--jobs", "1", "--format", "sarif"]}
        load = os.getloadavg()[0]
        r = measure(corpus, modes, args.repeats, out_dir)
        print(f"\n`grooph validate <folder of {args.files}>`; median of {args.repeats} (load average before: "
              f"{load:.1f})")
        print(f"{'mode':<14} {'wall s':>8} {'lowest':>8} {'cpu s':>8} {'files/s':>9} {'exit':>5}")
        for mode, (wall, cpu, rc, low) in r.items():
            print(f"{mode:<14} {wall:>8.2f} {low:>8.2f} {cpu:>8.2f} {args.files / wall:>9.0f} {rc:>5}")
        print(f"speed-up (text): {r['serial'][0] / r['pool'][0]:.2f}x; (sarif): {r['serial-sarif'][0] / r['pool-sarif'][0]:.2f}x")
        print("same output serial and pool:", same_output(out_dir, "serial", "pool") and
              same_output(out_dir, "serial-sarif", "pool-sarif"))
        if not args.no_crossover:
            predicted_crossover(base)
            crossover(base, out_dir, args.cross_repeats)
    finally:
        if not args.keep:
            shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    main()
