"""Repairs on the invalid fixtures (operations.md §8.2; issue 5 "Done when"): for every fixture whose
code has a repair, the best repair removes the issue and adds no error; a fill-in repair keeps the
code and leaves an empty field where the person types."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from grooph_core.ops.doc_edits import apply_edits
from grooph_core.ops.repairs import repairs_for, result_of
from grooph_core.rules.map import file_graph_resolver
from grooph_core.rules.validate import validate_value
from grooph_core.source.json_reader import parse_strict
from tests.conftest import FIXTURES, fixture_files, sidecar

# Codes for which operations.md §8.4/§8.5 (or the issue) documents an automatic repair.
REPAIRABLE = {
    "graph": {"E_SCHEMA", "E_DUPLICATE_ID", "E_DANGLING_REF", "E_LOOP_BACK_EDGE", "E_GROUP_CYCLE", "E_SECOND_LEAD",
              "E_PERSON_LEAD", "E_CYCLE_NO_STOP", "E_STOP_NOT_INSPECTABLE", "E_NO_TARGET", "E_NO_GOAL",
              "E_CRITIC_NOT_ISOLATED", "E_OWNERSHIP_CONFLICT", "E_IRREVERSIBLE_NO_GATE", "W_HOMOGENEOUS_CRITICS",
              "W_FANOUT_ON_COUPLED", "W_LONG_LOOP_NO_BUDGET", "W_ONLY_MAX_ITERATIONS", "W_UNREACHABLE_NODE",
              "W_NO_TERMINAL", "W_OUTPUT_NOT_WRITABLE", "W_PERSON_FIELDS_NOT_READ", "W_GROUP_OVERLAP", "W_UNKNOWN_KEY"},
    "map": {"E_SCHEMA", "E_DUPLICATE_ID", "E_DANGLING_REF", "E_HANDOFF_NO_CARRIER", "W_GRAPH_UNRESOLVED",
            "W_UNKNOWN_KEY"},
}
# Codes whose only automatic repair inserts an empty field for the person (the code stays).
FILL_ONLY = {"E_NO_GOAL"}


def _cases():
    out = []
    for kind, parts in (("graph", ("invalid",)), ("map", ("maps", "invalid"))):
        for path in fixture_files(*parts):
            code = path.parent.name
            if code in REPAIRABLE[kind]:
                out.append(pytest.param(kind, path, id=f"{kind}:{code}/{path.name}"))
    return out


def _load(kind: str, path: Path):
    doc, err = parse_strict(path.read_text("utf-8"))
    side = sidecar(path) or {}
    resolver = file_graph_resolver(str(path)) if kind == "map" else None
    return doc, err, bool(side.get("export")), resolver


def _specific(title: str, issue, doc) -> bool:
    """A title says what changes: it names an object of the document (one the issue is about, or the
    one the repair uses), or the key or value it fixes; never a bare "Fix this"."""
    import re

    from grooph_core.ops.edit_repairs import doc_ids
    from grooph_core.source.text import value_at

    if re.fullmatch(r"(?i)(quick )?fix( this| it| issue)?", title.strip()):
        return False

    facts = vars(issue.facts) if issue.facts is not None else {}
    words = list(issue.at) + [str(facts.get(k)) for k in ("key", "id", "handoff", "node", "loop", "edge")
                              if facts.get(k) is not None]
    if issue.pointers and isinstance(value_at(doc, issue.pointers[0]), str):
        words.append(value_at(doc, issue.pointers[0]))
    named = set(re.findall(r"[a-z][a-z0-9-]*", title))
    return any(w and w in title for w in words) or bool(named & set(doc_ids(doc, "map" if "groophMap" in doc else "graph")))


def _errors(issues) -> Counter:
    return Counter(i.code for i in issues if i.severity == "error")


@pytest.mark.parametrize("kind, path", _cases())
def test_best_repair_of_each_issue_removes_it_and_adds_no_error(kind, path):
    doc, err, export, resolver = _load(kind, path)
    if err is not None:
        pytest.skip("not JSON: nothing to repair (graph.md §3.2)")
    code = path.parent.name
    before = validate_value(doc, kind, export=export, resolver=resolver)
    for issue in [i for i in before if i.code == code]:
        repairs = repairs_for(issue, doc, kind, export=export, resolver=resolver)
        for r in repairs:
            assert r.kind in ("safe", "preferred", "offered") and r.title and r.ops
            assert _specific(r.title, issue, doc), r.title
        complete = [r for r in repairs if r.fill is None]
        if not complete:
            for r in repairs:   # fill-in repairs: the code stays, the field is there and empty
                after_doc = result_of(r, doc, kind)
                assert after_doc is not None
                assert apply_edits(after_doc, [{"edit": "set", "at": r.fill, "value": "typed"}]).ok
                assert any(i.code == code for i in validate_value(after_doc, kind, export=export, resolver=resolver))
            continue
        best = complete[0]
        after_doc = result_of(best, doc, kind)
        assert after_doc is not None, best
        after = validate_value(after_doc, kind, export=export, resolver=resolver)
        assert not any((i.code, i.at, i.pointers) == (issue.code, issue.at, issue.pointers) for i in after), best.title
        assert sum(1 for i in after if i.code == code) < sum(1 for i in before if i.code == code), best.title
        new_errors = _errors(after) - _errors(before)
        if "then give it a bar" in best.title:
            # an agent-only cycle becomes a judgment loop whose bar only the person can state: the
            # action says so, is never preferred, and its one announced follow-up is that bar
            assert best.kind == "offered"
            new_errors -= Counter({"E_JUDGMENT_LOOP_NO_BAR": 1})
        assert not new_errors, (best.title, new_errors)


def _repaired_codes() -> dict[str, set[str]]:
    """Per kind, the codes for which some fixture issue got a complete repair that removed it."""
    found: dict[str, set[str]] = {"graph": set(), "map": set()}
    for param in _cases():
        kind, path = param.values
        doc, err, export, resolver = _load(kind, path)
        if err is not None:
            continue
        code = path.parent.name
        for issue in validate_value(doc, kind, export=export, resolver=resolver):
            if issue.code == code and any(r.fill is None for r in repairs_for(issue, doc, kind, export=export,
                                                                                resolver=resolver)):
                found[kind].add(code)
    return found


def test_every_repairable_code_is_repaired_on_some_fixture():
    found = _repaired_codes()
    assert REPAIRABLE["graph"] - FILL_ONLY - found["graph"] == set()
    assert REPAIRABLE["map"] - found["map"] == set()


# Fixtures where nothing may be automated, each for the reason operations.md gives.
NO_COMPLETE_REPAIR = [
    ("invalid", "E_IRREVERSIBLE_NO_GATE", "nothing-leads-to-it", "a gate in front needs its question (§8.6)"),
    ("invalid", "E_IRREVERSIBLE_NO_GATE", "starts-here", "a gate in front needs its question (§8.6)"),
    ("invalid", "E_LOOP_BACK_EDGE", "spec-example", "the cycle itself is missing (§8.4)"),
    ("invalid", "W_HOMOGENEOUS_CRITICS", "same-pin-for-the-target", "no action when pins are involved (§8.4)"),
    ("invalid", "W_OUTPUT_NOT_WRITABLE", "leads-and-persons-are-exempt", "the capability is denied on purpose"),
    ("invalid", "E_NO_GOAL", "spec-example", "the goal is the person's words (§8.6)"),
    ("maps/invalid", "E_HANDOFF_NO_CARRIER", "blank-who", "who carries it is a fact only the person knows"),
]


@pytest.mark.parametrize("where, code, stem, why", NO_COMPLETE_REPAIR, ids=[f"{c}/{s}" for _, c, s, _ in NO_COMPLETE_REPAIR])
def test_no_repair_is_invented(where, code, stem, why):
    kind = "map" if where.startswith("maps") else "graph"
    path = next(FIXTURES.joinpath(*where.split("/"), code).glob(stem + ".grooph*.json"))
    doc, _, export, resolver = _load(kind, path)
    issues = [i for i in validate_value(doc, kind, export=export, resolver=resolver) if i.code == code]
    assert issues
    for issue in issues:
        assert [r for r in repairs_for(issue, doc, kind, export=export, resolver=resolver) if r.fill is None] == [], why
