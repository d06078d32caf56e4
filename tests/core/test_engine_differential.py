"""Differential tests against the engine oracle (issue 23; workflow.md §0 "The engine's reader decides").

For every generated workflow and board, ask the seeds' own code compiled with the engine's readers
(`tests/engine_oracle.py`) and our strict analysis (`grooph validate`'s), and assert:

(a) the oracle answers `deserialize_error` exactly when we report a structural error (E_SYNTAX or the
    kind's `_SCHEMA`), and then strict mode reports nothing but the reader's issues and those;
(b) when it reads a workflow, its `findings` equal, in order, the first issue we report for each missing
    name: the same words as `check()` (ours may add "; " and a did-you-mean or a note) and our pointer
    resolving to the name.

Cases: each field of a small workflow (and board) set to each variant of `VARIANTS` (left out, null, `~`,
empty, wrong types, number-like and tagged scalars, …), duplicated keys in structs and maps, unknown keys,
renamed references, flattened `after` items, a BOM, deep nesting. `GROOPH_ORACLE_LONG=1` adds the
pairwise combinations (the long run). The oracle is asked in parallel (one process per file).
"""

from __future__ import annotations

import itertools
import json
import os
from concurrent.futures import ThreadPoolExecutor

import pytest

from grooph_core.ide.neighbours.analysis import check_text
from grooph_core.rules.workflow.check import CHECK_CODES
from grooph_core.source.kinds import NEIGHBOURS
from grooph_core.source.text import value_at
from tests.engine_oracle import ask, oracle

KINDS = {k.name: k for k in NEIGHBOURS}
LONG = os.environ.get("GROOPH_ORACLE_LONG") == "1"

# Scalar and value variants of a field (workflow.md §0, §2).
VARIANTS = (
    None, "null", "~", "Null", "", '""', "'null'", "ready", "0x10", "010", "1.50", "1e3", "True", "-0", "+5", ".inf",
    "1e400", "123456789012345678901234", "[]", "[ready]", "[1]", "{}", "{a: 1}", "!!str 5", "!!null x", "!!int x",
    "!custom ready", "[ready, 7]", "'0x10'", "{target: ready}", "[{target: ready}]",
)
# Where a variant goes: (path of the field in the template, …). The template holds statuses named by
# number-like text too, so that a target read as its text matches one and a rewritten one does not.
WORKFLOW_TEMPLATE = """initial:
  - target: ready
statuses:
  ready:
    stored_as: ready
    on:
      start: [{target: 0x10}]
  0x10:
    description: sixteen
    run: {role: worker, session: main}
    after:
      - {after: 60, target: ready}
  "010": {}
roles: {worker: card.assignee}
dispatch:
  tick: 30
  start: start
  capacity:
    - {name: cap, scope: board, counts: runs, max: 2}
"""
WORKFLOW_FIELDS = (
    ("initial", "0", "target"), ("statuses", "ready", "stored_as"), ("statuses", "ready", "on"),
    ("statuses", "ready", "on", "start", "0", "target"), ("statuses", "0x10", "description"),
    ("statuses", "0x10", "run"), ("statuses", "0x10", "run", "role"), ("statuses", "0x10", "run", "session"),
    ("statuses", "0x10", "after", "0", "target"), ("statuses", "0x10", "after", "0", "after"),
    ("statuses", "0x10", "always"), ("statuses", "0x10", "run_role"), ("statuses", "0x10", "resume_as"),
    ("roles",), ("roles", "worker"), ("params",), ("losses",), ("run",), ("description",), ("verbs",),
    ("dispatch", "tick"), ("dispatch", "start"), ("dispatch", "capacity"), ("dispatch", "capacity", "0", "max"),
    ("dispatch", "capacity", "0", "where"), ("dispatch", "capacity", "0", "scope"), ("colour",),
)
BOARD_TEMPLATE = {
    "slug": "b", "root": "/b",
    "tasks": {"a": {"id": "a", "title": "A", "lane": "todo", "workspace": {"kind": "dir"}, "priority": 1}},
    "dependencies": [{"parent": "a", "child": "a"}],
}
BOARD_FIELDS = (("slug",), ("name",), ("tasks", "a", "priority"), ("tasks", "a", "lane"), ("tasks", "a", "skills"),
                ("tasks", "a", "residue"), ("tasks", "a", "body"), ("tasks", "a", "workspace"), ("dependencies",),
                ("tasks", "a", "attempts"), ("colour",))
BOARD_VARIANTS = ("null", '""', '"x"', "1", "-0", "2.0", "1e2", "1e400", "12345678901234567890123", "true", "[]",
                  '["dir"]', '{"ready": null}', '{}', '"\\ud800"', '[{"id": "t", "status": "s"}]', '{"x": 1, "x": 2}')


def _yaml_path_edit(text: str, path: tuple[str, ...], variant: str | None) -> str | None:
    """The template with the field at `path` set to `variant` (None: left out), written as YAML through
    the flow form of the resolved structure, keeping every other scalar as written (plain)."""
    lines = []
    tree = _template_tree()
    node = tree
    for seg in path[:-1]:
        node = node[int(seg)] if isinstance(node, list) else node.setdefault(seg, {})
        if not isinstance(node, (dict, list)):
            return None
    last = path[-1]
    if isinstance(node, list):
        if variant is None:
            node.pop(int(last))
        else:
            node[int(last)] = _Raw(variant)
    elif variant is None:
        node.pop(last, None)
    else:
        node[last] = _Raw(variant)
    lines.append(_flow(tree))
    return "\n".join(lines) + "\n"


class _Raw(str):
    """A scalar written as is."""


def _template_tree():
    """The template as nested dicts and lists of raw scalar texts (its own reading, not a YAML loader)."""
    return {
        "initial": [{"target": _Raw("ready")}],
        "statuses": {
            "ready": {"stored_as": _Raw("ready"), "on": {"start": [{"target": _Raw("0x10")}]}},
            "0x10": {"description": _Raw("sixteen"), "run": {"role": _Raw("worker"), "session": _Raw("main")},
                     "after": [{"after": _Raw("60"), "target": _Raw("ready")}]},
            '"010"': {},
        },
        "roles": {"worker": _Raw("card.assignee")},
        "dispatch": {"tick": _Raw("30"), "start": _Raw("start"),
                     "capacity": [{"name": _Raw("cap"), "scope": _Raw("board"), "counts": _Raw("runs"), "max": _Raw("2")}]},
    }


def _flow(v, indent: int = 0) -> str:
    """Block YAML of the tree: mappings as blocks, lists as blocks of flow items, raw scalars as written."""
    pad = "  " * indent
    if isinstance(v, _Raw):
        return str(v)
    if isinstance(v, dict):
        if not v:
            return "{}"
        out = []
        for k, x in v.items():
            if isinstance(x, (dict, list)) and x:
                out.append(f"{pad}{k}:\n{_flow(x, indent + 1)}")
            else:
                out.append(f"{pad}{k}: {_flow(x, indent + 1)}".rstrip())
        return "\n".join(out)
    if not v:
        return "[]"
    return "\n".join(f"{pad}- {_inline(x)}" for x in v)


def _inline(v) -> str:
    if isinstance(v, _Raw):
        return str(v)
    if isinstance(v, dict):
        return "{" + ", ".join(f"{k}: {_inline(x)}" for k, x in v.items()) + "}"
    return "[" + ", ".join(_inline(x) for x in v) + "]"


def workflow_cases() -> list[tuple[str, str]]:
    """(name, text) of every generated workflow."""
    cases = [("template", WORKFLOW_TEMPLATE)]
    for path in WORKFLOW_FIELDS:
        for v in VARIANTS:
            text = _yaml_path_edit(WORKFLOW_TEMPLATE, path, v)
            if text is not None:
                cases.append((f"{'/'.join(path)}={v}", text))
    base = _yaml_path_edit(WORKFLOW_TEMPLATE, ("colour",), "red")
    # duplicated keys: in a struct (refused), in a map (the last copy wins), unknown keys twice
    cases += [
        ("dup-struct", base.replace("  tick: 30\n", "  tick: 30\n  tick: 31\n")),
        ("dup-status-field", base.replace("    stored_as: ready\n", "    stored_as: ready\n    stored_as: todo\n")),
        ("dup-map", base.replace("roles:\n", "roles:\n  worker: x\n")),
        ("dup-status", base + "statuses:\n  ready: {}\n"),
        ("dup-unknown", base + "colour: blue\n"),
        ("dup-status-earlier-copy-refused", base.replace('  "010": {}\n', '  "010": {run: 1}\n  "010": {}\n')),
        ("dup-role-earlier-copy-refused", base.replace("roles:\n", "roles:\n  worker: [x]\n")),
        ("dup-in-ignored", base.replace("colour: red", "colour: {a: 1, a: 2}")),
        ("complex-key-ignored", base.replace("colour: red", "colour: {[a]: 1, {b: 2}: 3}")),
        ("complex-key-in-map", base.replace("roles:\n", "roles:\n  [a]: x\n")),
        ("complex-key-in-struct", base.replace("dispatch:\n", "dispatch:\n  ? [a]\n  : 1\n")),
        ("complex-key-in-value", base + "params: {a: {[a]: 1}}\n"),
        ("bom", "\ufeff" + base),
        ("renamed-target", base.replace("target: ready", "target: reddy")),
        ("renamed-status", base.replace("  ready:\n", "  readyy:\n")),
        ("deep-params-ok", base + "params: {a: " + "[" * 126 + "]" * 126 + "}\n"),
        ("deep-params-refused", base + "params: {a: " + "[" * 127 + "]" * 127 + "}\n"),
        ("deep-unknown", base + "zzz: " + "[" * 200 + "]" * 200 + "\n"),
    ]
    if LONG:
        for (p1, p2) in itertools.combinations(WORKFLOW_FIELDS, 2):
            for v1, v2 in itertools.product(VARIANTS[:12], repeat=2):
                t = _yaml_path_edit(WORKFLOW_TEMPLATE, p1, v1)
                cases.append((f"{'/'.join(p1)}={v1}&{'/'.join(p2)}={v2}", t))
    return cases


def board_cases() -> list[tuple[str, str]]:
    cases = []
    base = json.dumps(BOARD_TEMPLATE)
    for path in BOARD_FIELDS:
        for v in (None, *BOARD_VARIANTS):
            tree = json.loads(base)
            node = tree
            for seg in path[:-1]:
                node = node[seg]
            if v is None:
                node.pop(path[-1], None)
                text = json.dumps(tree)
            else:
                node[path[-1]] = "@@"
                text = json.dumps(tree).replace('"@@"', v)
            cases.append((f"{'/'.join(path)}={v}", text))
    cases += [("dup-struct", base.replace('"lane": "todo"', '"lane": "todo", "lane": "done"')),
              ("dup-map", base.replace('"tasks": {', '"tasks": {"a": {}, ')), ("bom", "\ufeff" + base),
              ("deep-residue", base.replace('"priority": 1', '"residue": {"a": ' + "[" * 124 + "]" * 124 + "}")),
              ("deep-residue-refused", base.replace('"priority": 1', '"residue": {"a": ' + "[" * 125 + "]" * 125 + "}"))]
    return cases


STRUCTURAL = {"workflow": {"E_SYNTAX", "E_WF_SCHEMA"}, "board": {"E_SYNTAX", "E_BOARD_SCHEMA"}}
READER = {"E_SYNTAX", "W_DUPLICATE_KEY", "W_NUMBER_PRECISION"}


def disagreement(kind: str, text: str, answer: dict) -> str | None:
    """What our strict analysis says differently from the engine (questions (a) and (b)), or None."""
    loaded, issues = check_text(f"x.{kind}", text, KINDS[kind])
    structural = [i for i in issues if i.code in STRUCTURAL[kind]]
    if "deserialize_error" in answer:
        if not structural:
            return f"the engine refuses it ({answer['deserialize_error']}) and we report no structural error"
        others = [i.code for i in issues if i.code not in STRUCTURAL[kind] | READER]
        return f"strict mode reports more than the structural errors: {others}" if others else None
    if structural:
        return f"the engine reads it and we report {[(i.code, i.message) for i in structural]}"
    if kind != "workflow":
        return None
    value = loaded.analysis.parsed.value
    ours, seen = [], set()
    for i in issues:
        if i.code in CHECK_CODES:
            name = i.facts.name
            key = (i.code in ("E_WF_UNKNOWN_STATUS", "E_WF_UNKNOWN_SOURCE_STATUS"), i.code, name)
            family = {"E_WF_UNKNOWN_STATUS": "status", "E_WF_UNKNOWN_SOURCE_STATUS": "status",
                      "E_WF_NO_INITIAL_RUN_STATE": "run state", "E_WF_UNKNOWN_RUN_STATE": "run state",
                      "E_WF_UNKNOWN_ROLE": "role", "E_WF_UNKNOWN_RUN_SPEC": "run spec"}[i.code]
            key = (family, name)
            if key in seen:
                continue
            seen.add(key)
            ours.append(i)
    findings = answer["findings"]
    if len(ours) != len(findings):
        return f"findings {findings} but we report {[i.message for i in ours]}"
    for f, i in zip(findings, ours):
        if not (i.message == f or i.message.startswith(f + "; ")):  # then our did-you-mean or a note
            return f"finding {f!r} but we say {i.message!r}"
        at = value_at(value, i.pointers[0])
        if at != i.facts.name and not (i.facts.name == "" and i.on_key):  # "" is a missing field: its key
            return f"our pointer {i.pointers[0]} holds {at!r}, not the name {i.facts.name!r}"
    return None


def _run(kind: str, cases: list[tuple[str, str]]) -> list[str]:
    oracle()  # skips, saying why, when it cannot be built
    with ThreadPoolExecutor(max_workers=2) as pool:
        answers = list(pool.map(lambda c: ask(kind, c[1]), cases))
    out = []
    for (name, text), answer in zip(cases, answers):
        d = disagreement(kind, text, answer)
        if d is not None:
            out.append(f"{name}: {d}\n--- the file:\n{text}")
    return out


def test_every_generated_workflow_reads_as_the_engine_reads_it():
    cases = workflow_cases()
    assert len(cases) > 700
    bad = _run("workflow", cases)
    assert not bad, f"{len(bad)} of {len(cases)} disagree; the first:\n" + "\n\n".join(bad[:3])


def test_every_generated_board_reads_as_the_engine_reads_it():
    cases = board_cases()
    assert len(cases) > 150
    bad = _run("board", cases)
    assert not bad, f"{len(bad)} of {len(cases)} disagree; the first:\n" + "\n\n".join(bad[:3])


@pytest.mark.parametrize("kind", ["workflow", "board"])
def test_every_fixture_reads_as_the_engine_reads_it(kind):
    from pathlib import Path

    root = Path(__file__).resolve().parents[2] / "fixtures" / kind
    files = sorted(p for p in root.rglob("*") if p.name.endswith(KINDS[kind].suffixes))
    cases = [(str(p.relative_to(root)), p.read_text("utf-8")) for p in files]
    bad = _run(kind, cases)
    assert not bad, f"{len(bad)} of {len(cases)} disagree; the first:\n" + "\n\n".join(bad[:3])


# ---- Hypothesis: files drawn over the model itself -----------------------------------------------------
#
# Every field of every type of the compiled model (`model.compiled`), each left out, null, `~`, empty, of a
# wrong type, a number-like, quoted or tagged scalar, or a value of its own type; now and then an unknown
# key or a key written twice. Names come from one small pool shared by definitions and references, so a
# reference read as its text matches (or misses) a definition the way the engine's does. Deterministic in
# CI (`derandomize` when `CI` is set); `GROOPH_ORACLE_LONG=1` draws ten times as many.

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from grooph_core.model.compiled import (  # noqa: E402
    AltType,
    AnyType,
    ArrayType,
    BoolType,
    EnumType,
    NullType,
    NumType,
    ObjectType,
    RecordType,
    StrType,
    root_type,
)

CI = bool(os.environ.get("CI"))
SCALE = 10 if LONG else 1
WORDS = ("ready", "done", "review", "worker", "start", "main", "'ready'", "'0x10'", '"010"')
NUMBER_LIKE = ("0x10", "010", "1.50", "1.5", "True", "true", "null", "~", "-0", "1e3", "5", '""')
NAMES = WORDS * 3 + NUMBER_LIKE  # a name is number-like one time in four
YAML_ODD = ("null", "~", "", "Null", "!!str 5", "!x ready", "[]", "{}", "[a]", "{a: 1}", "!!null x", "!!int x", "!custom x", "1e400",
            "123456789012345678901234", "0b101", ".inf", "'{{card.next}}'", "[1]", "[ready, 7]")
JSON_NAMES = ('"a"', '"b"', '"0x10"', '"010"', '"1.50"')
JSON_ODD = ("null", '""', "1", "-0", "2.0", "1e2", "1e400", "12345678901234567890123", "true", "[]", "{}",
            '{"ready": null}', '{"x": 1}', '"\\ud800"', '["dir"]', '"x"')


class _Pairs(list):
    """A mapping as (key, value) pairs, so that a key may be written twice."""


def _draw(rnd, t, depth: int, json_syntax: bool, noise: int = 10):
    """A value for the type `t`; one in `noise` is an odd one (null, a wrong type, a tag, …) instead. Deep
    down (past five levels) collections are empty and optional fields left out, so a file stays small."""
    names, odd = (JSON_NAMES, JSON_ODD) if json_syntax else (NAMES, YAML_ODD)
    if noise and rnd.randint(0, noise) == 0:
        return _Raw(rnd.choice(odd + NUMBER_LIKE))
    deep = depth > 5

    def again(t, d=depth + 1):
        return _draw(rnd, t, d, json_syntax, noise)

    if isinstance(t, ObjectType):
        pairs = _Pairs()
        for f in t.fields:
            if not f.required and (deep or rnd.randint(0, 2) == 0):
                continue
            pairs.append((f.name, again(f.type)))
        if pairs and rnd.randint(0, 80) == 0:
            pairs.append(rnd.choice(pairs))  # a field written twice
        if not deep and rnd.randint(0, 300 if t.closed else 30) == 0:
            pairs.append(("colour", again(AnyType())))
        return pairs
    if isinstance(t, RecordType):
        pairs = _Pairs()
        low = t.min_props
        high = t.max_props if t.max_props is not None else (low if deep else 2)
        for _ in range(rnd.randint(low, max(low, high))):
            pairs.append((rnd.choice(names if t.key_role != "key" else WORDS), again(t.value)))
        return pairs
    if isinstance(t, ArrayType):
        return [again(t.item) for _ in range(0 if deep else rnd.randint(0, 2))]
    if isinstance(t, EnumType):
        return _Raw(rnd.choice([f'"{v}"' if json_syntax else v for v in t.values]))
    if isinstance(t, NumType):
        return _Raw(rnd.choice(("0", "7", "-3", "9223372036854775807")))
    if isinstance(t, AltType):
        return _draw(rnd, rnd.choice(t.options), depth, json_syntax, noise)
    if isinstance(t, BoolType):
        return _Raw(rnd.choice(("true", "false")))
    if isinstance(t, NullType):
        return _Raw("null")
    if isinstance(t, StrType) and (t.ref or json_syntax):  # a name (a reference): number-like one time in four
        return _Raw(rnd.choice(names))
    if isinstance(t, (StrType, AnyType)):
        return _Raw(rnd.choice(JSON_NAMES + ('"card.x > 1"', "30") if json_syntax else WORDS + ("card.x > 1", "30")))
    return _Raw(rnd.choice(odd))


def _yaml_text(v, indent: int = 0) -> str:
    pad = "  " * indent
    if isinstance(v, _Pairs):
        if not v:
            return "{}"
        return "\n".join(f"{pad}{k}:\n{_yaml_text(x, indent + 1)}" if isinstance(x, (_Pairs, list)) and x and indent < 2
                         else f"{pad}{k}: {_yaml_inline(x)}".rstrip() for k, x in v)
    if isinstance(v, list):
        if not v:
            return pad + "[]"
        return "\n".join(f"{pad}- {_yaml_inline(x)}" for x in v)
    return pad + str(v)


def _yaml_inline(v) -> str:
    if isinstance(v, _Pairs):
        return "{" + ", ".join(f"{k}: {_yaml_inline(x)}" for k, x in v) + "}"
    if isinstance(v, list):
        return "[" + ", ".join(_yaml_inline(x) for x in v) + "]"
    return str(v)


def _json_text(v) -> str:
    if isinstance(v, _Pairs):
        return "{" + ", ".join(f"{json.dumps(k.strip(chr(34)))}: {_json_text(x)}" for k, x in v) + "}"
    if isinstance(v, list):
        return "[" + ", ".join(_json_text(x) for x in v) + "]"
    return str(v)


@st.composite
def workflow_texts(draw) -> str:
    rnd = draw(st.randoms(use_true_random=False))  # one draw: the structure comes from it (fast; shrinks less)
    tree = _draw(rnd, root_type("workflow"), 0, False, rnd.choice((0, 0, 60, 200, 600)))
    text = _yaml_text(tree) if isinstance(tree, _Pairs) else str(tree)
    return ("\ufeff" if rnd.randint(0, 40) == 0 else "") + text + "\n"


@st.composite
def board_texts(draw) -> str:
    rnd = draw(st.randoms(use_true_random=False))
    tree = _draw(rnd, root_type("board"), 0, True, rnd.choice((0, 0, 60, 200, 600)))
    return _json_text(tree) if isinstance(tree, _Pairs) else str(tree)


def _settings(n: int):
    return settings(max_examples=n * SCALE, deadline=None, derandomize=CI, database=None if CI else settings().database,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@_settings(1200)
@given(workflow_texts())
def test_drawn_workflows_read_as_the_engine_reads_them(text):
    oracle()
    d = disagreement("workflow", text, ask("workflow", text))
    assert d is None, f"{d}\n--- the file:\n{text}"


@_settings(500)
@given(board_texts())
def test_drawn_boards_read_as_the_engine_reads_them(text):
    oracle()
    d = disagreement("board", text, ask("board", text))
    assert d is None, f"{d}\n--- the file:\n{text}"
