"""A deterministic ~1M-character workflow (*.workflow.yaml, spec/workflow.md) for the benchmarks, and
`python -m bench.workflow_docs`: the YAML reader and the whole workflow analysis at that size, with the
libyaml fast path and with ruamel.yaml alone (the reader before issue 15's speed-up), in process CPU time."""

import random
def workflow_text(target=1_000_000):
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


def _timed(fn, repeats=3):
    import time
    best = []
    for _ in range(repeats):
        t0 = time.process_time()
        fn()
        best.append(time.process_time() - t0)
    return sorted(best)[len(best) // 2]


def main() -> None:
    from grooph_core import yaml_libyaml
    from grooph_core.kinds import neighbour_from_value
    from grooph_core.neighbours import analyze_neighbour
    from grooph_core.yaml_source import parse_yaml

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
