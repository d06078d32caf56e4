"""Neighbour quick fixes (issue 15 point 5) over the failing fixtures: every did-you-mean gets a
"Change to X" that only replaces the wrong name, or is withheld because the re-analysis finds a new
error; "Add status X" inserts one entry under `statuses`, block or flow style, comments kept."""

from __future__ import annotations

import pytest

from grooph_core.source.kinds import NEIGHBOURS
from grooph_core.ide.neighbours.repairs import (Refused, add_status_edit, candidates, checked, neighbour_fixes,
                                           suggestion_of)
from grooph_core.ide.neighbours.analysis import analyze_neighbour
from grooph_core.ide.text_edits import apply_edits
from grooph_core.issues import Named
from tests.conftest import FIXTURES

KINDS = {k.name: k for k in NEIGHBOURS}
SUFFIX = {"workflow": ".workflow.yaml", "board": ".board.json", "episodes": ".episodes.json"}
INVALID = sorted((kind, p) for kind in SUFFIX for p in (FIXTURES / kind / "invalid").glob(f"*/*{SUFFIX[kind]}"))
# did-you-mean fixes whose re-analysis finds a new error (so they are rightly not offered):
# the renamed key already exists; the parent becomes its own ancestor; the named row stands open
WITHHELD = {("misspelt-keys.workflow.yaml", "dispach"), ("three-ways.board.json", "ark"),
            ("misspelt.episodes.json", "s-0003")}


def _analysis(kind, path):
    return analyze_neighbour(path.read_text("utf-8"), KINDS[kind])


@pytest.mark.parametrize("kind,path", INVALID, ids=[p.name for _, p in INVALID])
def test_every_did_you_mean_gets_a_clean_change(kind, path):
    a = _analysis(kind, path)
    fixes = neighbour_fixes(a, a.issues)
    for issue in a.issues:
        hint = suggestion_of(issue)
        if hint is None:
            continue
        change = [f for f in fixes if f.issue is issue and f.title == f"Change to {hint}"]
        s, e = a.span(issue)
        wrong = (issue.facts.name if isinstance(issue.facts, Named) else None) or a.text[s:e].strip("\"'")
        if (path.name, wrong) in WITHHELD:
            assert not change
            continue
        (fix,) = change
        (edit,) = fix.edits
        assert a.text[edit.start:edit.end] == wrong and s <= edit.start and edit.end <= e
        new = apply_edits(a.text, list(fix.edits))
        assert new == a.text[:edit.start] + hint + a.text[edit.end:]
        after = analyze_neighbour(new, a.neighbour)
        assert not any(i.code == issue.code and i.at == issue.at for i in after.issues)


def test_withheld_fixes_are_really_candidates_that_fail_the_check():
    seen = set()
    for kind, path in INVALID:
        a = _analysis(kind, path)
        for issue in a.issues:
            for fix in candidates(a, issue):
                if fix.title.startswith("Change to") and not checked(a, issue, fix.edits):
                    seen.add((path.name, a.text[fix.edits[0].start:fix.edits[0].end]))
    assert seen == WITHHELD


def test_add_status_block_style_keeps_comments():
    path = FIXTURES / "workflow" / "invalid" / "E_WF_UNKNOWN_STATUS" / "every-card-transition.workflow.yaml"
    text = path.read_text("utf-8").replace("statuses:\n", "statuses:  # the lanes\n", 1)
    a = analyze_neighbour(text, KINDS["workflow"])
    adds = [f for f in neighbour_fixes(a, a.issues) if f.title.startswith("Add status")]
    assert adds
    for fix in adds:
        name = fix.title.removeprefix("Add status ")
        new = apply_edits(text, list(fix.edits))
        assert "statuses:  # the lanes\n" in new
        (edit,) = fix.edits
        assert edit.start == edit.end and edit.text.strip() == f"{name}: {{}}"
        assert new[:edit.start] + new[edit.start + len(edit.text):] == text
        after = analyze_neighbour(new, a.neighbour)
        assert name in after.value["statuses"]


FLOW = """statuses: {ready: {on: {go: [{target: doen}]}}, done: {}}  # keep me
initial: [{target: ready}]
"""


def test_add_status_flow_style():
    a = analyze_neighbour(FLOW, KINDS["workflow"])
    (issue,) = [i for i in a.issues if i.code == "E_WF_UNKNOWN_STATUS"]
    titles = {f.title: f for f in neighbour_fixes(a, [issue])}
    assert set(titles) == {"Change to done", "Add status doen"}
    new = apply_edits(FLOW, list(titles["Add status doen"].edits))
    assert new == FLOW.replace("done: {}}", "done: {}, doen: {}}")
    assert apply_edits(FLOW, list(titles["Change to done"].edits)) == FLOW.replace("target: doen", "target: done")


@pytest.mark.parametrize("empty, filled", [
    ("statuses: {}\n", "statuses: {ready: {}}\n"),
    ("statuses: { }  # none yet\n", "statuses: {ready: {} }  # none yet\n"),
    ("statuses: {\n}\n", "statuses: {ready: {}\n}\n"),
])
def test_add_status_to_an_empty_flow_mapping(empty, filled):
    """The first status of `statuses: {}` (a workflow being started): the entry alone, no separator
    before it, and the result reads with the status (issue 30 item 8)."""
    text = f"initial: [{{target: ready}}]\n{empty}dispatch: {{tick: 30, start: start}}\n"
    a = analyze_neighbour(text, KINDS["workflow"])
    (issue,) = [i for i in a.issues if i.severity == "error"]
    assert issue.code == "E_WF_UNKNOWN_STATUS"
    (fix,) = [f for f in neighbour_fixes(a, [issue]) if f.title == "Add status ready"]
    new = apply_edits(text, list(fix.edits))
    assert new == text.replace(empty, filled)
    after = analyze_neighbour(new, a.neighbour)
    assert [i for i in after.issues if i.severity == "error"] == [] and after.value["statuses"] == {"ready": {}}


def test_add_status_refuses_a_list():
    a = analyze_neighbour("statuses: [a]\ninitial: [{target: b}]\n", KINDS["workflow"])
    with pytest.raises(Refused, match="list"):
        add_status_edit(a, "b")
