"""Benchmark of the workflow rules (workflow.md §3.1, §3.2) on a keystroke (issue 24: a 1M-character
workflow publishes within 500 ms; the rules' share: a full run, and a keystroke's run given the previous
version's reading, where one status is a new object and every other keeps its identity).

Run: `python -m bench.bench_workflow_rules` from the repository root. Prints, in process CPU time (the
minimum of several runs), for `workflow_text(24_000)` and `workflow_text(1_000_000)`: `read` + every rule
without a previous version ("full"), the same given the previous version's `WorkflowDoc` with one status
edited ("keystroke") or renamed and back ("rename": the names change each time, so every status's result that
looked names up is checked again), and each rule's share of the full run (a fresh reading each time).
"""

from __future__ import annotations

import time

from bench.workflow_docs import workflow_text
from grooph_core.ide.neighbours.analysis import read_text, rules_of
from grooph_core.source.json_reader import collector_paused
from grooph_core.source.kinds import neighbour_from_name


def engine_value(text: str):
    """The value the rules read (the engine's reading of the text), as the pipeline gives it."""
    kind = neighbour_from_name("bench.workflow.yaml")
    pkg = rules_of(kind)
    return pkg, pkg.reading(read_text(text, kind)).value


def edited(value: dict, name: str) -> dict:
    """A new version of `value` as the incremental reader gives it: new top-level and `statuses` dicts,
    every status but `name` the same object, `name` a new equal object with one more key."""
    statuses = dict(value["statuses"])
    statuses[name] = dict(statuses[name], note="typed")
    return dict(value, statuses=statuses)


def renamed(value: dict, name: str) -> dict:
    """A new version where the status `name` is renamed (its value the same object): the names change."""
    statuses = {(k + "_x" if k == name else k): s for k, s in value["statuses"].items()}
    return dict(value, statuses=statuses)


def run_rules(pkg, value, previous=None):
    doc = pkg.read(value, previous=previous) if previous is not None else pkg.read(value)
    found = [list(rule.run(doc)) for rule in pkg.RULES]
    return doc, found


def cpu_ms(fn, repeats: int) -> float:
    best = float("inf")
    with collector_paused():
        for _ in range(repeats):
            t0 = time.process_time()
            fn()
            best = min(best, time.process_time() - t0)
    return best * 1000


def main() -> None:
    for size in (24_000, 1_000_000):
        pkg, value = engine_value(workflow_text(size))
        names = list(value["statuses"])
        repeats = 30 if size < 100_000 else 7
        full = cpu_ms(lambda: run_rules(pkg, value), repeats)
        line = f"workflow {size:>9,}: {len(names):,} statuses  full {full:7.2f} ms"
        previous, _ = run_rules(pkg, value)
        target = names[len(names) // 2]
        for label, change in (("keystroke", lambda i: edited(value, target)),
                              ("rename", lambda i: renamed(value, target) if i % 2 else dict(value))):
            state = {"prev": previous, "i": 0}

            def keystroke():  # each version given the one before it, as in the editor
                state["i"] += 1
                state["prev"], _ = run_rules(pkg, change(state["i"]), state["prev"])

            line += f"  {label} {cpu_ms(keystroke, repeats * 3):7.3f} ms"
        print(line)
        shares = ", ".join(f"{rule.run.__name__} {cpu_ms(lambda: list(rule.run(pkg.read(value))), repeats):.2f}"
                           for rule in pkg.RULES)
        print(f"    per rule (ms): {shares}")


if __name__ == "__main__":
    main()
