"""Lead rules: one lead per graph, and the lead is never a person (graph.md §2.2, §5: `E_SECOND_LEAD`,
`E_PERSON_LEAD`)."""

from __future__ import annotations

from dataclasses import dataclass

from grooph_core.issues import Facts, Issue, make
from grooph_core.semantics.graph_index import GraphIndex, is_lead, is_person_step, str_id
from grooph_core.source.text import quoted


@dataclass(frozen=True)
class SecondLead(Facts):
    """E_SECOND_LEAD: the `leads` (ids, document order)."""

    code = "E_SECOND_LEAD"
    leads: tuple[str, ...]


@dataclass(frozen=True)
class PersonLead(Facts):
    """E_PERSON_LEAD: the lead `node`."""

    code = "E_PERSON_LEAD"
    node: str


def second_lead_issues(doc: dict, index: GraphIndex) -> list[Issue]:
    """One issue when two or more nodes are leads (persons included).

    Pointers: each lead's `role`. Facts: `SecondLead`."""
    leads = [(i, str_id(n) or "") for i, n in enumerate(index.nodes) if is_lead(n)]
    if len(leads) < 2:
        return []
    ids = [nid for _, nid in leads]
    msg = (f"the graph has {len(ids)} lead nodes ({quoted(ids)}), but a graph has at most one lead: it is one "
           f"session; keep one and give the others the role that says what they do")
    return [make("E_SECOND_LEAD", msg, ids, [f"/nodes/{i}/role" for i, _ in leads], facts=SecondLead(tuple(ids)))]


def person_lead_issues(doc: dict, index: GraphIndex) -> list[Issue]:
    """One issue per lead node that is a person's step.

    Pointer: the node's `by`. Facts: `PersonLead`."""
    out = []
    for i, n in enumerate(index.nodes):
        if is_lead(n) and is_person_step(n):
            nid = str_id(n) or ""
            msg = (f'node "{nid}" has the lead role and is marked as a person\'s step, but the lead is the '
                   f"harness session itself, which no person can be; give the node another role, or make it "
                   f"an agent's step")
            out.append(make("E_PERSON_LEAD", msg, [nid], [f"/nodes/{i}/by"], facts=PersonLead(nid)))
    return out
