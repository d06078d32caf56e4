"""Deterministic, realistic grooph documents of a chosen size for the benchmark (issue 8).

A graph is a chain of work "slices", the shape real graphs have: a planner's brief feeding builders,
a check node running the tests, a critic judging the diff, a loop over them with a bar and three
stops, a group per slice, a critic-isolation policy, every fourth slice ending at a human gate before
an irreversible publishing step, run notes, and a layout box per node. A map is a set of lanes (one
machine under one account), people, sessions and handoffs carried by branches, pull requests, session
messages, notifications and people. The text is pretty-printed with two spaces, as an editor user has
it, and carries some non-ASCII (accents, CJK, an emoji) so UTF-16 positions are exercised.

Same arguments, same text, on every machine: nothing here reads the clock or a global random state.

`faults=True` plants a few faults in the middle of the document, each a thing people type by mistake:

- graph: an edge whose `to` is misspelt (`E_DANGLING_REF`, with a quick fix), a loop whose back edge
  is misspelt (`E_DANGLING_REF`), a misspelt key on a node (`W_UNKNOWN_KEY`), and a second edge with
  an existing id (`E_DUPLICATE_ID`);
- map: a handoff whose `to` is misspelt (`E_DANGLING_REF`, with a quick fix), a session whose `lane`
  is misspelt (`E_DANGLING_REF`), a misspelt key on a session (`W_UNKNOWN_KEY`), and a handoff with
  no carrier (`E_HANDOFF_NO_CARRIER`).

No structural (`E_SCHEMA`) fault: while one is present no operation-based repair is offered
(operations.md §8.2), and the quick-fix measure needs one to be offered.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass

SEED = 8  # the issue number; any fixed seed makes the documents reproducible
LEAN_UP_TO = 4_000  # at or below this target a graph is one small grind loop (one slice is about 4.5k)

_WORDS = (
    "spec tests parser cache index schema docs release notes api client server storage queue worker "
    "billing search upload login export import report metrics alerts theme layout editor preview"
).split()
_TIERS = ("frontier", "strong", "fast")
_ACCENTS = ("résumé", "naïve café", "设计评审", "ready ✓", "ship it 🚀", "Zürich office", "")


@dataclass(frozen=True)
class Document:
    """A generated document: its text, kind ("graph" or "map"), file name, and where its faults are.

    `dangling` is the (start, end) character span of the misspelt reference string (quotes included)
    when the document has faults: the place a person puts the cursor to ask for a quick fix."""

    text: str
    kind: str
    name: str
    faults: bool
    dangling: tuple[int, int] | None
    edit_at: int  # a character offset inside a string value in the middle: where the benchmark types

    @property
    def chars(self) -> int:
        return len(self.text)


def _sentence(rng: random.Random, n: int) -> str:
    return " ".join(rng.choice(_WORDS) for _ in range(n))


def _slice(r: int, rng: random.Random, prev_exit: str | None) -> tuple[list, list, dict, dict, list, str]:
    """The nodes, edges, loop, group and policies of one slice of work; returns its exit node id."""
    topic = rng.choice(_WORDS)
    plan, build, test, review = f"plan-{r}", f"build-{r}", f"test-{r}", f"review-{r}"
    tier = _TIERS[r % 2]  # builders strong or frontier, critics always the other: never homogeneous
    critic_tier = "frontier" if tier == "strong" else "strong"
    accent = _ACCENTS[r % len(_ACCENTS)]
    nodes = [
        {"id": plan, "kind": "agent", "name": f"Plan {topic} {r}", "role": "planner", "model": {"tier": "fast"},
         "brief": f"Read spec/{topic}.md and write PLAN-{r}.md: the files to change for the {topic} work, "
                  f"in order, with one line on each. {_sentence(rng, 6).capitalize()}. {accent}".rstrip(),
         "inputs": [f"spec/{topic}.md"], "outputs": [f"PLAN-{r}.md"], "allow": ["read-files", "write-outputs"]},
        {"id": build, "kind": "agent", "name": f"Build {topic} {r}", "role": "builder", "model": {"tier": tier},
         "effort": "high",
         "brief": f"Implement PLAN-{r}.md in src/{topic}/; keep the diff small and the tests green. "
                  f"When the critic or the tests fail, fix what they report and nothing else. "
                  f"{_sentence(rng, 10).capitalize()}.",
         "inputs": [f"PLAN-{r}.md", f"spec/{topic}.md"], "outputs": [f"slice-{r}.diff"],
         "allow": ["read-files", "edit-files", "run-tests"], "owns": [f"src/{topic}/part-{r}"]},
        {"id": test, "kind": "check", "name": f"Tests {r}",
         "check": {"kind": "tests", "run": f"pytest tests/{topic} -q", "pass": "exit code 0"}},
        {"id": review, "kind": "agent", "name": f"Review {r}", "role": "critic", "model": {"tier": critic_tier},
         "brief": f"Review slice-{r}.diff against spec/{topic}.md and PLAN-{r}.md. Write REVIEW-{r}.md: "
                  f"PASS, or each problem with the file and line. {_sentence(rng, 5).capitalize()}.",
         "inputs": [f"spec/{topic}.md"], "outputs": [f"REVIEW-{r}.md"], "allow": ["read-files", "write-outputs"]},
    ]
    edges = [
        {"id": f"e-{plan}-{build}", "from": plan, "to": build},
        {"id": f"e-{build}-{test}", "from": build, "to": test},
        {"id": f"e-{test}-{review}", "from": test, "to": review, "when": "pass",
         "evidence": [f"slice-{r}.diff", "the test log"]},
        {"id": f"retry-{r}", "from": test, "to": build, "when": "fail", "evidence": ["the test log"]},
        {"id": f"redo-{r}", "from": review, "to": build, "when": "fail", "evidence": [f"REVIEW-{r}.md"]},
    ]
    if prev_exit is not None:
        edges.insert(0, {"id": f"e-{prev_exit}-{plan}", "from": prev_exit, "to": plan, "when": "pass"})
    loop = {
        "id": f"loop-{r}", "name": f"Slice {r} until reviewed", "members": [build, test, review],
        "back": [f"retry-{r}", f"redo-{r}"], "mode": "judgment",
        "bar": {"name": f"Slice {r} meets the spec",
                "inspects": [{"kind": "file", "ref": f"spec/{topic}.md"}, {"kind": "artifact", "ref": f"slice-{r}.diff"}],
                "acceptance": f"Every requirement of spec/{topic}.md that PLAN-{r}.md lists is implemented and tested."},
        "stops": [{"kind": "bar-passed"}, {"kind": "max-iterations", "n": 4},
                  {"kind": "budget", "measure": "dispatches", "limit": 12}],
    }
    group = {"id": f"slice-{r}", "name": f"Slice {r}: {topic}", "members": [plan, build, test, review],
             "description": f"Everything that changes src/{topic}/part-{r}"}
    policies = [{"id": f"isolate-{review}", "kind": "critic-isolation", "scope": f"node:{review}"}]
    exit_id = review
    if r % 4 == 3:  # a gate before something that cannot be undone
        gate, publish = f"approve-{r}", f"publish-{r}"
        nodes += [
            {"id": gate, "kind": "human-gate", "name": f"Approve slice {r}",
             "prompt": f"Slice {r} passed review. Merge and publish it?", "options": ["publish", "hold"]},
            {"id": publish, "kind": "agent", "name": f"Publish {r}", "role": {"custom": "publisher"},
             "model": {"tier": "fast"}, "brief": f"Merge slice-{r}.diff and publish the release notes, nothing else.",
             "inputs": [f"slice-{r}.diff"], "outputs": [f"PUBLISHED-{r}.md: the URL"],
             "allow": ["run-commands", "write-outputs"], "irreversible": ["merge", "publish"]},
        ]
        edges += [
            {"id": f"e-{review}-{gate}", "from": review, "to": gate, "when": "pass"},
            {"id": f"e-{gate}-{publish}", "from": gate, "to": publish, "when": {"verdict": "publish"}, "label": "approved"},
            {"id": f"e-{gate}-held", "from": gate, "to": "held", "when": {"verdict": "hold"}},
        ]
        group["members"] += [gate, publish]
        exit_id = publish
    return nodes, edges, loop, group, policies, exit_id


def _lean_graph_value(faults: bool) -> dict:
    """The smallest realistic graph (about 2k characters): a builder and its tests in a grind loop."""
    nodes = [
        {"id": "build-0", "kind": "agent", "name": "Build — 设计 ✓", "role": "builder", "model": {"tier": "strong"},
         "brief": "Implement spec.md in src/; run the tests and fix what they report. 🚀",
         "outputs": ["slice-0.diff"], "allow": ["read-files", "edit-files", "run-tests"]},
        {"id": "test-0", "kind": "check", "name": "Tests",
         "check": {"kind": "tests", "run": "pytest -q", "pass": "exit code 0"}},
        {"id": "done", "kind": "stop", "name": "Done", "outcome": "success"},
    ]
    edges = [
        {"id": "e-build-0-test-0", "from": "build-0", "to": "test-0"},
        {"id": "retry-0", "from": "test-0", "to": "build-0", "when": "fail", "evidence": ["the test log"]},
        {"id": "e-test-0-done", "from": "test-0", "to": "done", "when": "pass"},
    ]
    loops = [{"id": "loop-0", "name": "Until green", "members": ["build-0", "test-0"], "back": ["retry-0"],
              "stops": [{"kind": "max-iterations", "n": 5}, {"kind": "budget", "measure": "dispatches", "limit": 10}]}]
    doc = {"grooph": 0, "id": "small-fix", "name": "Small fix", "version": 1, "goal": "Make the tests pass.",
           "target": {"harness": "claude-code"}, "nodes": nodes, "edges": edges, "loops": loops,
           "layout": {"build-0": {"x": 0, "y": 0}, "test-0": {"x": 220, "y": 0}, "done": {"x": 440, "y": 0}}}
    if faults:
        _plant_graph_faults(doc, 0)
    return doc


def _plant_graph_faults(doc: dict, mid: int) -> None:
    edges, nodes, loops = doc["edges"], doc["nodes"], doc["loops"]
    k = next(i for i, e in enumerate(edges) if e["id"] == f"e-build-{mid}-test-{mid}")
    edges[k]["to"] = f"tset-{mid}"  # E_DANGLING_REF: a misspelt node id
    next(n for n in nodes if n["id"] == f"build-{mid}")["ouputs"] = ["notes.md"]  # W_UNKNOWN_KEY
    back = loops[max(0, mid - 1)]["back"]
    back[0] = back[0].replace("retry-", "rety-")  # E_DANGLING_REF: a loop's back edge misspelt
    edges.insert(k + 2, dict(edges[k + 1]))  # E_DUPLICATE_ID: an edge copied with its id


def _graph_value(slices: int, faults: bool) -> dict:
    rng = random.Random(SEED)
    nodes, edges, loops, groups, policies, notes, layout = [], [], [], [], [], [], {}
    prev = None
    for r in range(slices):
        n, e, loop, group, pol, prev = _slice(r, rng, prev)
        nodes += n
        edges += e
        loops.append(loop)
        groups.append(group)
        policies += pol
        if r % 5 == 0:
            notes.append({"id": f"run-{r}-review", "run": "run-1", "at": f"node:review-{r}", "outcome": "fail",
                          "verdict": "two edge cases untested", "round": 0, "evidence": [f"REVIEW-{r}.md"],
                          "cost": {"measure": "dispatches", "amount": 3}})
    nodes.append({"id": "done", "kind": "stop", "name": "Done", "outcome": "success"})
    if slices >= 4:  # the gates' "hold" answer ends here
        nodes.append({"id": "held", "kind": "stop", "name": "Held", "outcome": "halt"})
    edges.append({"id": f"e-{prev}-done", "from": prev, "to": "done", "when": "pass"})
    for i, node in enumerate(nodes):
        layout[node["id"]] = {"x": (i % 6) * 220.5, "y": (i // 6) * 140, "w": 180, "h": 60}
    policies.append({"id": "two-builders-at-most", "kind": "concurrency-cap", "scope": "graph", "params": {"max": 2}})
    doc = {
        "grooph": 0, "id": "product-roadmap", "name": "Product roadmap — 设计 ✓", "version": 3,
        "goal": "Ship every slice of the roadmap with its tests green and its review passed.",
        "target": {"harness": "claude-code"},
        "constraints": {"budget": "200 dispatches", "time": "two weeks"},
        "description": "Generated by bench/generate.py for the benchmark.",
        "nodes": nodes, "edges": edges, "loops": loops, "policies": policies, "groups": groups,
        "notes": notes, "layout": layout,
    }
    if faults:
        _plant_graph_faults(doc, slices // 2)
    return doc


def _session(i: int, lane: str, harness: str, rng: random.Random) -> dict:
    topic = rng.choice(_WORDS)
    s = {"id": f"s-{i}", "name": f"{topic.capitalize()} {i} {_ACCENTS[i % len(_ACCENTS)]}".rstrip(), "lane": lane,
         "harness": harness, "role": f"Works on the {topic} service: {_sentence(rng, 6)}",
         "lifetime": ("long-lived", "per-task", "scheduled")[i % 3], "repo": f"acme/{topic}"}
    if i % 4 == 1:
        s["count"] = 2 + i % 5
    if i % 7 == 3:
        s["graph"] = f"{topic}-loop@{1 + i % 3}"
        s["model"] = "opus"
    if i % 5 == 0:
        s["description"] = f"Picks up {topic} tickets tagged for it; {_sentence(rng, 8)}."
    return s


def _map_value(blocks: int, faults: bool) -> dict:
    """`blocks` teams, each: a local lane and a cloud lane under one account, a person, three sessions,
    and the handoffs between them (every session hands on and is handed to: no islands, no dead ends)."""
    rng = random.Random(SEED)
    lanes, people, sessions, handoffs = [], [], [], []
    for b in range(blocks):
        acct = f"team-{b} account"
        lanes += [
            {"id": f"desk-{b}", "name": f"Desk {b}", "machine": f"laptop {b}", "place": "local", "account": acct},
            {"id": f"cloud-{b}", "name": f"Cloud {b}", "machine": "cloud sandboxes", "place": "cloud", "account": acct,
             "description": f"Runners for team {b}; {_sentence(rng, 5)}."},
        ]
        person = f"p-{b}"
        people.append({"id": person, "name": f"Person {b} {_ACCENTS[b % len(_ACCENTS)]}".rstrip(),
                       "role": f"Lead of team {b}; decides what each sprint is for"})
        a, c, d = 3 * b, 3 * b + 1, 3 * b + 2
        sessions += [_session(a, f"desk-{b}", "claude-code", rng), _session(c, f"cloud-{b}", "claude-code", rng),
                     _session(d, f"cloud-{b}", "claude-code", rng)]
        sa, sc, sd = f"s-{a}", f"s-{c}", f"s-{d}"
        handoffs += [
            {"id": f"h-brief-{b}", "from": person, "to": sa, "carrier": {"kind": "person"}, "what": "the sprint's goals"},
            {"id": f"h-task-{b}", "from": sa, "to": sc, "carrier": {"kind": "session-message"}, "what": "one task brief"},
            {"id": f"h-pr-{b}", "from": sc, "to": sd, "carrier": {"kind": "pull-request", "repo": f"acme/team-{b}"},
             "what": "the change and its tests"},
            {"id": f"h-review-{b}", "from": sd, "to": sa, "carrier": {"kind": "branch", "repo": f"acme/team-{b}", "ref": "reviews"},
             "what": "pass or fail per change", "label": "review verdicts"},
            {"id": f"h-done-{b}", "from": sa, "to": person, "carrier": {"kind": "notification", "where": "phone"},
             "what": "the sprint's results are ready"},
        ]
        if b:
            handoffs.append({"id": f"h-sync-{b}", "from": f"s-{3 * (b - 1)}", "to": sa,
                             "carrier": {"kind": "person", "who": f"Person {b}"}, "what": "what the other team shipped"})
    doc = {"groophMap": 0, "id": "acme-engineering", "name": "Acme engineering — 设计 ✓", "version": 12,
           "asOf": "2027-03-02", "description": "Generated by bench/generate.py for the benchmark.",
           "lanes": lanes, "people": people, "sessions": sessions, "handoffs": handoffs}
    if faults:
        mid = blocks // 2
        k = next(i for i, h in enumerate(handoffs) if h["id"] == f"h-task-{mid}")
        handoffs[k]["to"] = f"s-{3 * mid + 1}x"  # E_DANGLING_REF: a misspelt session id
        sessions[3 * mid]["lifetme"] = "long-lived"  # W_UNKNOWN_KEY
        sessions[3 * mid + 2]["lane"] += "s"  # E_DANGLING_REF: a misspelt lane
        del handoffs[k + 1]["carrier"]  # E_HANDOFF_NO_CARRIER
    return doc


def _render(value: dict) -> str:
    return json.dumps(value, indent=2, ensure_ascii=False) + "\n"


def _sized(build, target_chars: int) -> str:
    """The text of `build(n)` for the smallest n whose text has at least `target_chars` characters
    (found by growing n from an estimate, so the result is exact and reproducible)."""
    n = 1
    text = _render(build(n))
    if len(text) >= target_chars:
        return text
    per = max(1, len(text))
    n = max(1, target_chars * n // per)
    while True:
        text = _render(build(n))
        if len(text) >= target_chars:
            break
        n += max(1, (target_chars - len(text)) * n // max(1, len(text)) // 2)
    while n > 1:  # step back while still at least the target, so the size is the smallest that reaches it
        smaller = _render(build(n - 1))
        if len(smaller) < target_chars:
            break
        n, text = n - 1, smaller
    return text


def graph_document(target_chars: int, *, faults: bool = False) -> Document:
    """A realistic graph of about `target_chars` characters (at least that many, within one slice)."""
    if target_chars <= LEAN_UP_TO:
        text = _render(_lean_graph_value(faults))
    else:
        text = _sized(lambda n: _graph_value(n, faults), target_chars)
    return _document(text, "graph", f"bench-{target_chars}{'-faults' if faults else ''}.grooph.json", faults,
                     '"tset-' if faults else None)


def map_document(target_chars: int, *, faults: bool = False) -> Document:
    """A realistic operation map of about `target_chars` characters."""
    text = _sized(lambda n: _map_value(n, faults), target_chars)
    return _document(text, "map", f"bench-{target_chars}{'-faults' if faults else ''}.grooph-map.json", faults,
                     None)


def _document(text: str, kind: str, name: str, faults: bool, marker: str | None) -> Document:
    dangling = None
    if faults:
        if marker is None:  # the map's misspelt session id ends in "x"
            value = json.loads(text)
            bad = next(h["to"] for h in value["handoffs"] if h["to"].endswith("x"))
            marker = f'"to": "{bad}"'
            start = text.index(marker) + len('"to": ')
        else:
            start = text.index(marker)
        end = text.index('"', start + 1) + 1
        dangling = (start, end)
    # Type into the middle of a description/brief-like string: after `"name": "` of the middle object.
    mid = len(text) // 2
    at = text.index('"name": "', mid) + len('"name": "')
    return Document(text, kind, name, faults, dangling, at)


def documents(sizes: tuple[int, ...], kinds: tuple[str, ...] = ("graph", "map")) -> list[Document]:
    """Every (kind, size, clean/faulty) document of the benchmark, in table order."""
    out = []
    for kind in kinds:
        make = graph_document if kind == "graph" else map_document
        for size in sizes:
            out += [make(size), make(size, faults=True)]
    return out
