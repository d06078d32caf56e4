"""Writes the structure-layer fixtures (E_SCHEMA, W_UNKNOWN_KEY, W_DOC_TOO_LARGE for graphs and maps)
with their `.expect.json` sidecars. The expected issues are written here by hand from the spec
(graph.md §4, §5, §7; map.md §5, §6.9, §6.10, §10), not computed. Documents are stored in canonical
form where they are JSON (except the W_UNKNOWN_KEY ones, kept in the order written so that the
issue order is seen to follow the document); large ones are generated rather than typed (map.md §10.11).

Run: `python -m tests.core.gen_structure_fixtures` from the repository root.
"""

from __future__ import annotations

import json
from pathlib import Path

from grooph_core.schema.canonical import canonical_text

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"

HEAD = {"grooph": 0, "id": "g", "name": "G", "version": 1}
W = {"id": "w", "kind": "agent", "name": "W", "role": "builder", "brief": "Do it.", "outputs": ["out.txt"], "allow": ["edit-files"]}
END = {"id": "end", "kind": "stop", "name": "End"}

TINY_LANES = [{"id": "desk", "name": "Desk", "machine": "a desktop", "account": "team account"}]
PLANNER = {"id": "planner", "name": "Planner", "lane": "desk", "harness": "claude-code", "role": "Splits the work"}
CODER = {"id": "coder", "name": "Coder", "lane": "desk", "harness": "claude-code", "role": "Writes the change"}
H_TASK = {"id": "h-task", "from": "planner", "to": "coder", "carrier": {"kind": "session-message"}}
H_RESULT = {"id": "h-result", "from": "coder", "to": "planner", "carrier": {"kind": "pull-request", "repo": "acme/shop"}}


def tiny_shop(**changes) -> dict:
    """map.md §10: the valid map every map example varies."""
    doc = {"groophMap": 0, "id": "tiny-shop", "name": "Tiny shop", "version": 1, "lanes": TINY_LANES,
           "sessions": [PLANNER, CODER], "handoffs": [H_TASK, H_RESULT]}
    doc.update(changes)
    return doc


def graph(**fields) -> dict:
    return {**HEAD, **fields}


def issues(code: str, *ats) -> list[dict]:
    return [{"code": code, "at": list(a)} for a in ats]


# (folder, name, document (or raw text), kind, expected issues)
GRAPH_CASES = [
    # graph.md §7: the E_SCHEMA example, four issues in this order.
    ("E_SCHEMA", "spec-example",
     {"grooph": 0, "id": "Bad Id", "name": "X", "version": 1.5, "edges": [], "loops": [],
      "nodes": [{"id": "a", "kind": "agent", "name": "A", "role": "builder", "brief": "b", "outputs": [],
                 "skills": ["two words"]}]},
     issues("E_SCHEMA", [], [], ["a"], ["a"])),
    # graph.md §7: the truncated text gives one "not valid JSON" issue.
    ("E_SCHEMA", "not-json", '{"grooph":0,\n', issues("E_SCHEMA", [])),
    ("E_SCHEMA", "root-not-an-object", [HEAD], issues("E_SCHEMA", [])),
    # graph.md §4.2: a bad or missing `kind` is one issue at …/kind, nothing more inside.
    ("E_SCHEMA", "bad-discriminator",
     graph(nodes=[{"id": "w", "kind": "worker", "name": "W"}, {"id": "end", "name": "End"}], edges=[],
           loops=[{"id": "l", "name": "L", "members": [], "back": [], "stops": [{"kind": "forever"}, {"n": 3}]}]),
     issues("E_SCHEMA", ["w"], ["end"], ["l"], ["l"])),
    # graph.md §4.2: missing required fields first (declared order), then present fields.
    ("E_SCHEMA", "missing-fields",
     {"grooph": 0, "id": "g", "name": "G",
      "nodes": [{"id": "w", "kind": "agent", "name": "W", "role": "builder"},
                {"id": "t", "kind": "check", "name": "T", "check": {"kind": "tests"}}],
      "edges": [{"id": "e1", "from": "w"}],
      "policies": [{"kind": "critic-isolation"}]},
     issues("E_SCHEMA", [], [], ["w"], ["w"], ["t"], ["e1"], [], [])),
    ("E_SCHEMA", "wrong-types",
     {"grooph": False, "id": "g", "name": 7, "version": "1", "goal": None, "target": {"harness": ""},
      "nodes": [{"id": "w", "kind": "agent", "name": "W", "coupled": "yes", "role": "builder", "effort": "extreme",
                 "brief": "b", "outputs": "out.txt", "allow": ["edit-files", ""], "deny": ["a\nb"]}],
      "edges": [{"id": "e1", "from": "w", "to": "w", "isolation": "private", "concurrency": {"max": 0},
                 "retry": {"max": -1}, "approval": "true"}],
      "loops": {}},
     issues("E_SCHEMA", [], [], [], [], [], ["w"], ["w"], ["w"], ["w"], ["w"], ["e1"], ["e1"], ["e1"], ["e1"], [])),
    # graph.md §4.2 records: key pattern issue first, then the value, keys in §0.4 order ("7" first).
    ("E_SCHEMA", "record-key-pattern",
     graph(nodes=[END], edges=[], loops=[],
           groups=[{"id": "box", "name": "Box", "members": ["end"], "description": "line one\nline two",
                    "from": "tpl@0", "with": {"area": "docs", "two words": "x", "k": 5}}],
           layout={"end": {"x": 0, "y": 0}, "Start Here": {"x": 1, "y": "2"}, "7": {"x": 1, "y": 1}}),
     issues("E_SCHEMA", ["box"], ["box"], ["box"], ["box"], [], [], [])),
    ("E_SCHEMA", "deep-union",
     graph(nodes=[{"id": "w", "kind": "agent", "name": "W", "role": {"custom": 5},
                   "model": {"tier": "fast", "pin": {"codex": "gpt 5"}}, "brief": "b", "outputs": ["o"],
                   "skills": ["ok", "no way"]}, END],
           edges=[{"id": "e1", "from": "w", "to": "end", "when": {"verdict": 3}}],
           loops=[{"id": "l", "name": "L", "members": ["w"], "back": ["e1"],
                   "bar": {"name": "B", "inspects": [{"kind": "screenshot", "ref": "x"}], "acceptance": "a",
                           "answerKeyFrom": "W"},
                   "stops": [{"kind": "budget", "measure": "euros", "limit": -5},
                             {"kind": "diminishing-returns", "rounds": 1.5},
                             {"kind": "human", "every": 0, "then": "Nope"}]}],
           policies=[{"id": "p", "kind": {"custom": True}, "scope": "node:W", "params": {"a": [1], "b": True}}],
           notes=[{"id": "n1", "run": "r", "at": "lane:x", "outcome": "", "round": -1,
                   "cost": {"measure": "usd", "amount": "1"}, "proposal": {"summary": "s", "patch": {"x": [None]}}}]),
     issues("E_SCHEMA", ["w"], ["w"], ["w"], ["e1"], ["l"], ["l"], ["l"], ["l"], ["l"], ["l"], ["l"],
            ["p"], ["p"], ["p"], ["n1"], ["n1"], ["n1"], ["n1"])),
    ("E_SCHEMA", "template-block",
     graph(template={"kind": "graph", "title": "T", "summary": "S", "whenToUse": "U",
                     "profile": {"cost": "low", "speed": "warp"}, "slots": ["x", {"key": "k", "ask": "?"}],
                     "credits": [{"name": "n", "url": "u", "note": 5}]},
           nodes=[END], edges=[], loops=[]),
     issues("E_SCHEMA", [], [], [], [], [])),
    # graph.md §7 W_UNKNOWN_KEY: path /edges/0/lable, suggestion label, at ["e1"].
    ("W_UNKNOWN_KEY", "spec-example",
     graph(nodes=[W, END], edges=[{"id": "e1", "from": "w", "to": "end", "lable": "go"}], loops=[]),
     issues("W_UNKNOWN_KEY", ["e1"])),
    # graph.md §5: at every level; `at` is the holder's nearest id, else the graph's id.
    ("W_UNKNOWN_KEY", "keys-everywhere",
     {"2": "two", **HEAD, "colour": "blue", "target": {"harness": "codex", "model": "x"},
      "template": {"kind": "graph", "title": "T", "summary": "S", "whenToUse": "U",
                   "profile": {"cost": "low", "speed": "fast", "rigor": "light", "budget": "small"}},
      "nodes": [{"id": "w", "kind": "agent", "name": "W", "role": {"custom": "maker", "level": 2}, "brief": "Do it.",
                 "outputs": ["out.txt"], "allow": ["edit-files"], "prompt": "?"},
                {"id": "end", "kind": "stop", "name": "End", "outcome": "success", "reason": "done"}],
      "edges": [{"id": "e1", "from": "w", "to": "end", "when": {"verdict": "ok", "why": "x"}, "lable": "go"}],
      "loops": [],
      "policies": [{"id": "p1", "kind": {"custom": "house", "level": 2}, "scope": "graph", "params": {"anything": 1}}],
      "notes": [{"id": "n1", "run": "r1", "at": "graph", "cost": {"measure": "usd", "amount": 1, "currency": "EUR"},
                 "proposal": {"summary": "s", "patch": {"free": 1}}}],
      "layout": {"w": {"x": 1, "y": 2, "z": 3}}},
     issues("W_UNKNOWN_KEY", ["g"], ["g"], ["g"], ["g"], ["w"], ["w"], ["end"], ["e1"], ["e1"], ["p1"], ["n1"], ["g"])),
    # graph.md §7 W_DOC_TOO_LARGE: a brief of 24,000 letters; a layout of any size would not count.
    ("W_DOC_TOO_LARGE", "spec-example",
     graph(nodes=[{**W, "brief": "a" * 24000}, END], edges=[{"id": "e1", "from": "w", "to": "end"}], loops=[]),
     issues("W_DOC_TOO_LARGE", ["g"])),
    ("W_DOC_TOO_LARGE", "large-notes",
     graph(nodes=[W, END], edges=[{"id": "e1", "from": "w", "to": "end"}], loops=[],
           notes=[{"id": f"n{i}", "run": "r1", "at": "node:w", "outcome": "pass", "text": "Round finished. " * 10}
                  for i in range(150)],
           layout={f"n{i}": {"x": i, "y": i} for i in range(2000)}),
     issues("W_DOC_TOO_LARGE", ["g"])),
]

MAP_CASES = [
    # map.md §10.1
    ("E_SCHEMA", "session-without-role",
     tiny_shop(sessions=[PLANNER, {k: v for k, v in CODER.items() if k != "role"}]),
     issues("E_SCHEMA", ["coder"])),
    ("E_SCHEMA", "not-an-object", [], issues("E_SCHEMA", [])),
    ("E_SCHEMA", "not-json", '{"groophMap": 0, "id": "tiny-shop"\n', issues("E_SCHEMA", [])),
    # map.md §5.1 findings, in walk order; a malformed but string id is still used for `at`.
    ("E_SCHEMA", "many-problems",
     {"groophMap": "0", "id": "tiny-shop", "name": "Tiny shop", "version": 1, "asOf": "2026-1-01",
      "lanes": [{"id": "Desk", "name": "Desk", "machine": "", "place": "remote", "account": "team account"}],
      "people": {"id": "maya"},
      "sessions": [{**PLANNER, "lane": "Desk", "harness": "", "count": 0, "lifetime": "forever"}, "coder"],
      "handoffs": [{**H_TASK, "carrier": {"kind": "email"}}, {**H_RESULT, "carrier": {"repo": "acme/shop"}},
                   {"id": "h-x", "from": "planner", "to": "planner", "carrier": "branch"}]},
     issues("E_SCHEMA", [], [], ["Desk"], ["Desk"], ["Desk"], ["maya"], ["planner"], ["planner"], ["planner"],
            ["planner"], [], ["h-task"], ["h-result"], ["h-x"])),
    # map.md §10.10
    ("W_UNKNOWN_KEY", "misspelt-field",
     tiny_shop(sessions=[PLANNER, {**CODER, "lifetme": "per-task"}]),
     issues("W_UNKNOWN_KEY", ["coder"])),
    # map.md §6.9: `at` from the key's full path; a root key has none unless its value has a string id.
    ("W_UNKNOWN_KEY", "keys-everywhere",
     {"groophMap": 0, "id": "tiny-shop", "name": "Tiny shop", "version": 1, "grooph": 0,
      "lanes": [{**TINY_LANES[0], "zone": "eu"}],
      "people": [{"id": "maya", "name": "Maya", "role": "Owner", "email": "maya@example.com"}],
      "sessions": [PLANNER, CODER],
      "handoffs": [{"id": "h-ask", "from": "maya", "to": "planner", "carrier": {"kind": "person", "where": "desk"}},
                   {**H_TASK, "carrier": {"kind": "session-message", "repo": "acme/shop"}}, H_RESULT],
      "extra": {"id": "inner", "note": 1}},
     issues("W_UNKNOWN_KEY", [], ["desk"], ["maya"], ["h-ask"], ["h-task"], ["inner"])),
    # map.md §10.11: canonical size 24,884.
    ("W_DOC_TOO_LARGE", "long-description",
     tiny_shop(sessions=[{**PLANNER, "description": "a" * 24000}, CODER]),
     issues("W_DOC_TOO_LARGE", ["tiny-shop"])),
]

BY_HAND = {("W_UNKNOWN_KEY", "keys-everywhere"): [
    {"handoff": "h-ask", "from": "maya", "to": "planner", "who": "Maya", "starts": True}]}


def _keep_ranges(side_path: Path, expected: list[dict]) -> list[dict]:
    """Keep the checked ranges of an existing sidecar when its issues are still the same."""
    if not side_path.exists():
        return expected
    old = json.loads(side_path.read_text("utf-8")).get("issues", [])
    if [(e["code"], e["at"]) for e in old] != [(e["code"], e["at"]) for e in expected]:
        return expected
    return [dict(e, range=o["range"]) if "range" in o else e for e, o in zip(expected, old)]


def write_all() -> list[Path]:
    written = []
    for base, suffix, kind, cases in (
        (FIXTURES / "invalid", ".grooph.json", "graph", GRAPH_CASES),
        (FIXTURES / "maps" / "invalid", ".grooph-map.json", "map", MAP_CASES),
    ):
        for code, name, doc, expected in cases:
            folder = base / code
            folder.mkdir(parents=True, exist_ok=True)
            if isinstance(doc, str):
                text = doc
            elif code == "W_UNKNOWN_KEY":  # kept in document order: the issues follow the document
                text = json.dumps(doc, indent=2, ensure_ascii=False) + "\n"
            else:
                text = canonical_text(doc, kind)
            path = folder / (name + suffix)
            path.write_text(text, "utf-8")
            side: dict = {"export": False, "issues": _keep_ranges(folder / (name + ".expect.json"), expected)}
            if kind == "map" and (code, name) in BY_HAND:
                side["byHand"] = BY_HAND[(code, name)]
            (folder / (name + ".expect.json")).write_text(json.dumps(side, indent=2) + "\n", "utf-8")
            written.append(path)
    return written


if __name__ == "__main__":
    for p in write_all():
        print(p.relative_to(FIXTURES.parent))
