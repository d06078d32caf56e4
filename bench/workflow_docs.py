"""Deterministic neighbouring documents of a given size for the benchmarks (bench/run.py): a workflow
(*.workflow.yaml, spec/workflow.md) and a board (*.board.json, spec/board.md), and
`python -m bench.workflow_docs`: the YAML reader and the whole workflow analysis at 1M characters, valid
and broken, with the libyaml fast path and with ruamel.yaml alone (the reader before issue 15's
speed-up), in process CPU time."""

import json
import random


def workflow_text(target=1_000_000):
    """Statuses in groups of four (ready, building, review, blocked), each with a run, guarded and
    reviewed transitions and a block-scalar note (which the model does not have: one W_UNKNOWN_KEY
    each); non-ASCII text in the description."""
    rng = random.Random(7)
    head = """description: Build, then review — généré 工作流 🚀.
params: {failure_limit: 3, retries: 2}
roles: {implementer: card.assignee, reviewer: "'reviewer'"}
initial:
  - target: s0_ready
statuses:
"""
    parts=[head]; n=0; size=len(head)
    while size < target:
        block = f"""  s{n}_ready:
    stored_as: ready
    on:
      start: [{{target: s{n}_building}}]
  s{n}_building:
    stored_as: running
    run: {{role: implementer, session: implementer}}
    on:
      handed_off: [{{target: s{n}_review}}]
      failed:
        - guard: card.failures < params.failure_limit
          target: s{n}_ready
        - target: s{n}_blocked
  s{n}_review:
    stored_as: review
    run: {{role: reviewer, session: reviewer}}
    exit: [{{close_session: reviewer}}]
    on:
      approve: [{{by: [reviewer], target: s{n+1}_ready}}]
      request_changes: [{{by: [reviewer], target: s{n}_building}}]
  s{n}_blocked:
    stored_as: blocked
    note: |
      Blocked step {n}: on, off, yes, no stay strings; 0x1F, 1e3, .inf are numbers.
      "quoted" 'single' value {rng.random():.6f}
"""
        parts.append(block); size+=len(block); n+=1
    parts.append(f"""  s{n}_ready: {{stored_as: done}}
dispatch:
  tick: 30
  start: start
  capacity:
    - {{name: two at a time, scope: board, counts: runs, max: 2}}
""")
    return "".join(parts)


def board_text(target=1_000_000):
    """Tasks in every lane with workspaces, attempts (handoffs, sessions), reviews, comments, residue,
    and dependencies between neighbouring tasks (parents done first), laid out as the engine writes it
    (two-space JSON); non-ASCII text in titles and bodies. Clean: the checks find nothing."""
    rng = random.Random(11)
    lanes = ["done", "done", "review", "running", "ready", "todo", "blocked", "triage"]
    board = {"slug": "bench", "name": "Benchmark board — généré 工作 🚀", "root": "/srv/boards/bench", "tasks": {},
             "dependencies": []}
    size, n = 200, 0
    while size < target:
        lane = lanes[n % len(lanes)]
        tid = f"t-{n}"
        task = {"id": tid, "title": f"Task {n}: rewrite the módulo {rng.randrange(10**6)}", "lane": lane,
                "priority": n % 4, "assignee": ["architect", "implementer", "reviewer"][n % 3],
                "workspace": {"kind": "worktree", "path": f"/srv/wt/{tid}", "branch": tid},
                "skills": ["python", "yaml"][: 1 + n % 2], "created_by": "ana", "created_at": "2025-03-01T09:00:00Z"}
        if lane != "todo" and lane != "triage":
            task["started_at"] = "2025-03-02T08:00:00Z"
            task["attempts"] = [{"id": f"a-{n}-{k}", "profile": task["assignee"], "status": "done",
                                 "started_at": "2025-03-02T08:00:00Z", "ended_at": "2025-03-02T09:30:00Z",
                                 "outcome": "handed off",
                                 "handoff": {"summary": f"Step {k} of {tid} done.", "metadata": {"files": [f"src/m{n}.py"]}},
                                 "session": {"surface": "pane", "harness": "claude-code", "machine": "desk", "pid": 4000 + n,
                                             "mode": "fresh"}} for k in range(2)]
        if lane in ("done", "review"):
            task["reviews"] = [{"verdict": "requested", "by": "implementer", "at": "2025-03-02T09:30:00Z"},
                               {"verdict": "approved", "by": "reviewer", "reason": "clear", "at": "2025-03-02T10:00:00Z"}]
        if lane == "done":
            task["completed_at"] = "2025-03-02T11:40:00+01:00"
            task["result"] = "merged"
        task["comments"] = [{"author": "ana", "body": f"Keep it small — {rng.random():.6f}.", "at": "2025-03-01T09:01:00Z"}]
        task["residue"] = {"hermes_column": lane.title()}
        board["tasks"][tid] = task
        if n % 8 >= 2:  # waits on the first task of its group of eight, which is done
            board["dependencies"].append({"parent": f"t-{n - n % 8}", "child": tid})
        dumped = json.dumps(task, indent=2, ensure_ascii=False)
        size += len(dumped) + 4 * dumped.count("\n") + 2 * len(tid) + 80
        n += 1
    return json.dumps(board, indent=2, ensure_ascii=False) + "\n"


def _timed(fn, repeats=3):
    import time
    best = []
    for _ in range(repeats):
        t0 = time.process_time()
        fn()
        best.append(time.process_time() - t0)
    return sorted(best)[len(best) // 2]


def main() -> None:
    from grooph_core.source import yaml_libyaml
    from grooph_core.source.kinds import neighbour_from_value
    from grooph_core.ide.neighbours.analysis import analyze_neighbour
    from grooph_core.source.yaml_reader import parse_yaml

    text = workflow_text()
    kind = neighbour_from_value(parse_yaml(text[:2000].rsplit("\n  s", 1)[0] + "\n").value, "yaml")
    mid = text.index("stored_as: review", len(text) // 2)
    broken = text[:mid] + "stored_as: [review\n" + text[mid + len("stored_as: review") + 1:]
    print(f"workflow: {len(text):,} characters")
    real = yaml_libyaml.compose
    for label in ("libyaml", "ruamel"):
        if label == "ruamel":
            yaml_libyaml.compose = lambda *a: None
        try:
            print(f"{label:8} read {_timed(lambda: parse_yaml(text)):.2f}s  "
                  f"analyse strict {_timed(lambda: analyze_neighbour(text, kind, tolerant=False), 1):.2f}s  "
                  f"tolerant {_timed(lambda: analyze_neighbour(text, kind), 1):.2f}s  "
                  f"broken tolerant {_timed(lambda: analyze_neighbour(broken, kind), 1):.2f}s")
        finally:
            yaml_libyaml.compose = real


if __name__ == "__main__":
    main()
