"""Workflows as a person types them, asked of the engine oracle (issue 30, "What to build" 2): every valid
and fixture workflow with one to three typing edits (tests/typing_edits.py: a character typed or deleted, a
line duplicated, swapped, indented, dedented or deleted, the text cut short, a block pasted, a scalar
replaced by a word YAML reads specially), and the cases the issue found. Each must read as the engine
reads it: the questions (a) and (b) of tests/core/test_engine_differential.py (`disagreement`), whose
field-level cases stay there.

Seeded: case `n` is `typed(Random(SEED + n), …)`, the same on every run; `GROOPH_ORACLE_LONG=1` draws ten
times as many."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from tests.core.test_engine_differential import LONG, WORKFLOW_TEMPLATE, _run
from tests.typing_edits import typed

ROOT = Path(__file__).resolve().parents[2]
FIXTURE_WORKFLOWS = sorted((ROOT / "fixtures" / "workflow").rglob("*.workflow.yaml"))
SPEC_EXAMPLE = (ROOT / "fixtures" / "workflow" / "valid" / "spec-example.workflow.yaml").read_text(encoding="utf-8")
SEED = 30_000
COUNT = 1500 * (10 if LONG else 1)

# The issue's cases (issue 30 items 2-5), each on the spec's example workflow.
_DELAYED = ("  blocked: {stored_as: blocked}\n",
            "  blocked:\n    stored_as: blocked\n    after:\n      - after: 60\n        target: ready\n"
            "        {field}:\n")
ISSUE_CASES = {
    "a tab after a key's colon": ("    stored_as: ready\n", "    stored_as:\tready\n"),
    "a tab before a key's colon": ("    stored_as: ready\n", "    stored_as\t: ready\n"),
    "a tab inside a target": ("  - target: ready\n", "  - target: re\tady\n"),
    "a tab inside a flow mapping's key": ("[{target: building}]", "[{targ\tet: building}]"),
    "a tab as a status field's indentation": ("    stored_as: ready\n", "\tstored_as: ready\n"),
    "a tab on a scalar's next line": ("    stored_as: ready\n", "    stored_as: ready\n\t\n"),
    "a mark before a later key": ("initial:\n", "\ufeffinitial:\n"),
    "a mark before a status key": ("  ready:\n", "\ufeff  ready:\n"),
    "a mark after a status key's indentation": ("  ready:\n", "  \ufeffready:\n"),
    "a mark alone on a line": ("statuses:\n", "statuses:\n\ufeff\n"),
    "a mark before a flow value": ("[{target: building}]", "[{target:\n\ufeffbuilding}]"),
    "an empty key among the statuses": ("  ready:\n", "  : {}\n  ready:\n"),
    "an empty key with an empty value": ("  ready:\n", "  :\n  ready:\n"),
    "an empty key in a flow mapping": ("roles: {", "roles: {: x, "),
    "a quoted empty key": ("  ready:\n", "  '': {}\n  ready:\n"),
    **{f"a delayed transition's empty {f}": (_DELAYED[0], _DELAYED[1].format(field=f))
       for f in ("from", "by", "validate", "actions", "guard", "description")},
}


def _bases() -> list[tuple[str, str]]:
    bases = [("template", WORKFLOW_TEMPLATE)]
    bases += [(str(p.relative_to(ROOT / "fixtures" / "workflow")), p.read_text(encoding="utf-8"))
              for p in FIXTURE_WORKFLOWS]
    return bases


def typing_cases(count: int = COUNT) -> list[tuple[str, str]]:
    """(name, text): case n edits base n % len(bases) with the seed SEED + n (its name says how)."""
    bases = _bases()
    texts = [t for _, t in bases]
    cases = []
    for n in range(count):
        name, base = bases[n % len(bases)]
        text, what = typed(random.Random(SEED + n), base, texts)
        cases.append((f"#{n} {name}: {what}", text))
    return cases


def test_the_issues_typing_cases_read_as_the_engine_reads_them():
    cases = []
    for name, (old, new) in ISSUE_CASES.items():
        assert old in SPEC_EXAMPLE, name
        cases.append((name, SPEC_EXAMPLE.replace(old, new, 1)))
    bad = _run("workflow", cases)
    assert not bad, f"{len(bad)} of {len(cases)} disagree; the first:\n" + "\n\n".join(bad[:3])


def test_workflows_as_typed_read_as_the_engine_reads_them():
    cases = typing_cases()
    assert len(cases) == COUNT and len({t for _, t in cases}) > COUNT * 0.9  # edits that change the text
    bad = _run("workflow", cases)
    assert not bad, f"{len(bad)} of {len(cases)} disagree; the first:\n" + "\n\n".join(bad[:3])
