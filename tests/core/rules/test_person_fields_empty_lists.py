"""`W_PERSON_FIELDS_NOT_READ` and empty lists (graph.md §5, issue 16 point 1): a field holding an empty
list sets nothing, so it is neither named nor pointed at, and the repair drops only the named fields."""

from __future__ import annotations

import copy

from grooph_core.ops.repairs import repairs_for, result_of
from grooph_core.rules.validate import validate_value

END = {"id": "end", "kind": "stop", "name": "End"}


def person_graph(**fields) -> dict:
    step = {"id": "p", "kind": "agent", "name": "P", "by": "person", "role": "builder", "brief": "b",
            "outputs": ["o"], **fields}
    return {"grooph": 0, "id": "g", "name": "G", "version": 1, "nodes": [step, copy.deepcopy(END)],
            "edges": [{"id": "e1", "from": "p", "to": "end"}], "loops": []}


def person_issues(doc: dict):
    return [i for i in validate_value(doc, "graph") if i.code == "W_PERSON_FIELDS_NOT_READ"]


def test_only_empty_lists_give_no_issue():
    assert person_issues(person_graph(allow=[], skills=[], deny=[])) == []


def test_empty_allow_beside_effort_names_effort_only():
    doc = person_graph(allow=[], effort="low")
    [issue] = person_issues(doc)
    assert issue.at == ("p",) and issue.facts.fields == ("effort",)
    assert issue.pointers == ("/nodes/0/effort",)
    assert "sets effort, which only an agent uses, so it is ignored; delete it" in issue.message
    assert "allow" not in issue.message


def test_non_empty_lists_are_still_named_in_spec_order():
    doc = person_graph(deny=["web"], allow=[], skills=["pdf"], model={"tier": "fast"})
    [issue] = person_issues(doc)
    assert issue.facts.fields == ("model", "skills", "deny")
    assert issue.pointers == ("/nodes/0/model", "/nodes/0/skills", "/nodes/0/deny")
    assert "sets model, skills, deny, which only an agent uses, so they are ignored; delete them" in issue.message


def test_repair_touches_only_the_named_fields():
    doc = person_graph(allow=[], skills=[], effort="low")
    [issue] = person_issues(doc)
    [repair] = repairs_for(issue, doc, "graph")
    assert repair.ops == ({"op": "updateNode", "id": "p", "set": {"effort": None}},)
    after = result_of(repair, doc, "graph")
    step = after["nodes"][0]
    assert "effort" not in step and step["allow"] == [] and step["skills"] == []
    assert person_issues(after) == []
