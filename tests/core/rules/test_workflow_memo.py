"""The workflow rules given the previous version's reading (workflow.md §3.1, §3.2; issue 24): what they find
is exactly what they find without it, and they recompute only the edited status.

A keystroke's version is simulated as the incremental reader gives it: a new top-level mapping and a new
`statuses` mapping sharing every unchanged status object (`is`), the edited status a new object.
"""

from __future__ import annotations

import copy
import glob
from pathlib import Path

import pytest

from bench.workflow_docs import workflow_text
from grooph_core.ide.neighbours.analysis import read_text, rules_of
from grooph_core.rules.workflow import check, memo, warnings
from grooph_core.source.kinds import neighbour_from_name

KIND = neighbour_from_name("x.workflow.yaml")
PKG = rules_of(KIND)
ROOT = Path(__file__).resolve().parents[3]
FIXTURES = sorted(glob.glob(str(ROOT / "fixtures/workflow/**/*.workflow.yaml"), recursive=True))


def engine_value(text: str):
    """The value the rules read (the engine's reading of the text), as the pipeline gives it."""
    parsed = read_text(text, KIND)
    return None if parsed.value is None else PKG.reading(parsed).value


def findings(value, previous=None):
    """The reading and every rule's issues, each rule's in its own order."""
    doc = PKG.read(value, previous=previous)
    return doc, [list(rule.run(doc)) for rule in PKG.RULES]


def with_status(value: dict, name: str, status) -> dict:
    """A new version where only `name`'s status is a new object (`status`; None: deleted)."""
    statuses = {k: (status if k == name else s) for k, s in value["statuses"].items() if k != name or status is not None}
    return dict(value, statuses=statuses)


def first_transition(s: dict) -> dict | None:
    for ts in list((s.get("on") or {}).values()) + [s.get("always"), s.get("after")]:
        for t in ts if type(ts) is list else ():
            if type(t) is dict:
                return t
    return None


def edit_transition(value, name, change):
    s = copy.deepcopy(value["statuses"][name])
    t = first_transition(s) if type(s) is dict else None
    if t is None:
        return None
    change(t)
    return with_status(value, name, s)


def edit_field(value, name, key, word):
    s = value["statuses"][name]
    return with_status(value, name, dict(s, **{key: word})) if type(s) is dict else None


def renamed(value, name):
    """The status key renamed; its value the same object."""
    return dict(value, statuses={(k + "_renamed" if k == name else k): s for k, s in value["statuses"].items()})


def added(value, name):
    statuses = dict(value["statuses"])
    statuses[name + "_new"] = {"stored_as": "ready", "on": {"go": [{"target": name}]}}
    return dict(value, statuses=statuses)


EDITS = {
    "note": lambda v, n: edit_field(v, n, "note", "typed"),
    "same value, new object": lambda v, n: with_status(v, n, copy.deepcopy(v["statuses"][n])),
    "target unknown": lambda v, n: edit_transition(v, n, lambda t: t.update(target="nowhere_at_all")),
    "target misspelt": lambda v, n: edit_transition(v, n, lambda t: t.update(target=n + "x")),
    "target template": lambda v, n: edit_transition(v, n, lambda t: t.update(target="{{card.next}}")),
    "add by role": lambda v, n: edit_transition(v, n, lambda t: t.update(by=["ghost", "reviewer"])),
    "remove by": lambda v, n: edit_transition(v, n, lambda t: t.pop("by", None)),
    "stored_as unknown": lambda v, n: edit_field(v, n, "stored_as", "reddy"),
    "resume_as unknown": lambda v, n: edit_field(v, n, "resume_as", n + "_gone"),
    "run_role unknown": lambda v, n: edit_field(v, n, "run_role", "builder"),
    "run role unknown": lambda v, n: edit_field(v, n, "run", {"role": "implementor"}),
    "params use": lambda v, n: edit_transition(v, n, lambda t: t.update(guard="card.x < params.failure_limt")),
    "rename key": renamed,
    "delete": lambda v, n: with_status(v, n, None),
    "add": added,
}
# Edits outside the statuses (every status object shared): what the statuses' results read changes.
DOC_EDITS = {
    "add a role": lambda v: dict(v, roles=dict(v.get("roles") or {}, ghost="card.assignee")),
    "rename a param": lambda v: dict(v, params={"failure_limt": 3}),
    "no params": lambda v: {k: x for k, x in v.items() if k != "params"},
    "add a run machine": lambda v: dict(v, run={"initial": "idle", "states": {"idle": {}}, "roles": {"builder": {"role": "nobody"}}}),
    "no roles": lambda v: dict(v, roles=None),
}


def bases():
    yield "bench 24k", engine_value(workflow_text(24_000))
    for path in FIXTURES:
        value = engine_value(Path(path).read_text(encoding="utf-8"))
        if type(value) is dict and type(value.get("statuses")) is dict and value["statuses"]:
            yield Path(path).relative_to(ROOT).as_posix(), value


BASES = list(bases())


def picked(value) -> list[str]:
    names = list(value["statuses"])
    return list(dict.fromkeys([names[0], names[len(names) // 2], names[-1]]))


@pytest.mark.parametrize("label, base", BASES, ids=[b[0] for b in BASES])
def test_a_status_edited_finds_exactly_what_a_full_run_finds(label, base):
    previous, before = findings(base)
    assert findings(base, previous)[1] == before  # nothing edited
    for name in picked(base):
        for edit, change in EDITS.items():
            new = change(base, name)
            if new is None:
                continue
            doc, incremental = findings(new, previous)
            assert incremental == findings(new)[1], (label, name, edit)
            # and the version after it, back to the base (its memo is the incremental one's)
            assert findings(base, doc)[1] == before, (label, name, edit, "undone")


@pytest.mark.parametrize("label, base", BASES, ids=[b[0] for b in BASES])
def test_an_edit_outside_the_statuses_finds_exactly_what_a_full_run_finds(label, base):
    previous, _ = findings(base)
    for edit, change in DOC_EDITS.items():
        new = change(base)
        assert findings(new, previous)[1] == findings(new)[1], (label, edit)


def test_a_chain_of_keystrokes_finds_what_a_full_run_finds():
    value = engine_value(workflow_text(24_000))
    doc, _ = findings(value)
    names = list(value["statuses"])
    for step, (name, edit) in enumerate(zip(names[::7], list(EDITS) * 10)):
        new = EDITS[edit](value, name)
        if new is None:
            continue
        doc, found = findings(new, doc)
        assert found == findings(new)[1], (step, name, edit)
        value = new


def counted(monkeypatch) -> dict[str, int]:
    """How many statuses each rule computes (not taken from the memo)."""
    counts: dict[str, int] = {}
    real = memo.per_status

    def per_status(doc, rule, context, compute, names_read=None):
        def counting(name, s):
            counts[rule] = counts.get(rule, 0) + 1
            return compute(name, s)
        return real(doc, rule, context, counting, names_read)

    monkeypatch.setattr(check, "per_status", per_status)
    monkeypatch.setattr(warnings, "per_status", per_status)
    return counts


def test_a_keystroke_recomputes_only_the_edited_status(monkeypatch):
    value = engine_value(workflow_text(24_000))
    counts = counted(monkeypatch)
    previous, _ = findings(value)
    n = len(value["statuses"])
    rules = {"check", "unknown_keys", "resume_as", "reached", "params", "by_roles", "stored_as"}
    assert counts == {rule: n for rule in rules}
    counts.clear()
    name = list(value["statuses"])[n // 2]
    doc, _ = findings(edit_field(value, name, "note", "typed"), previous)
    assert counts == {rule: 1 for rule in rules}
    assert doc.memo.previous == {}  # every rule took the previous memo: no version keeps an older one alive
    counts.clear()
    findings(renamed(value, name), previous)  # a status renamed: those reaching it look again
    assert counts["unknown_keys"] == 1 and counts["check"] < 5


def test_the_memo_holds_each_status_it_answers_for():
    value = engine_value(workflow_text(24_000))
    doc, _ = findings(value)
    for rule in doc.memo.current.values():
        assert rule.statuses is value["statuses"] and rule.names == tuple(value["statuses"])
        assert len(rule.entries) == len(value["statuses"])
