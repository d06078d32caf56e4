"""Agent-field rules (graph.md §2.2, §5: `W_OUTPUT_NOT_WRITABLE`, `W_PERSON_FIELDS_NOT_READ`)."""

from __future__ import annotations

from dataclasses import dataclass

from grooph_core.issues import Facts, Issue, make
from grooph_core.semantics.graph_index import GraphIndex, is_agent, is_lead, is_person_step, items, str_id

WRITE_CAPABILITIES = ("edit-files", "write-outputs")
# graph.md §5 W_PERSON_FIELDS_NOT_READ: the agent-only fields, in the order the message names them.
AGENT_ONLY_FIELDS = ("model", "effort", "skills", "allow", "deny")


@dataclass(frozen=True)
class OutputNotWritable(Facts):
    """W_OUTPUT_NOT_WRITABLE: `node`, `role` (the role string, or None for a custom role)."""

    code = "W_OUTPUT_NOT_WRITABLE"
    node: str
    role: str | None


def output_not_writable_issues(doc: dict, index: GraphIndex) -> list[Issue]:
    """One warning per agent's step (not a lead, not a person's) with outputs but neither `edit-files`
    nor `write-outputs` allowed (`deny` is not consulted).

    Pointer: the node's `allow`, or its id when `allow` is absent. Facts: `OutputNotWritable`."""
    out = []
    for i, n in enumerate(index.nodes):
        if not is_agent(n) or is_lead(n) or is_person_step(n) or not items(n, "outputs"):
            continue
        allow = items(n, "allow")
        if any(c in allow for c in WRITE_CAPABILITIES):
            continue
        nid = str_id(n) or ""
        msg = (f'agent "{nid}" must leave outputs behind but may neither edit files nor write its outputs, so the '
               f"lead would end up filing them for it; allow write-outputs (or edit-files for a builder)")
        ptr = f"/nodes/{i}/allow" if "allow" in n else f"/nodes/{i}/id"
        role = n.get("role")
        out.append(make("W_OUTPUT_NOT_WRITABLE", msg, [nid], [ptr],
                        facts=OutputNotWritable(nid, role if isinstance(role, str) else None)))
    return out


@dataclass(frozen=True)
class PersonFieldsNotRead(Facts):
    """W_PERSON_FIELDS_NOT_READ: `node`, `fields` (in the order of AGENT_ONLY_FIELDS)."""

    code = "W_PERSON_FIELDS_NOT_READ"
    node: str
    fields: tuple[str, ...]


def person_fields_not_read_issues(doc: dict, index: GraphIndex) -> list[Issue]:
    """One warning per person's step that sets any of `model`, `effort`, `skills`, `allow`, `deny`;
    a field holding an empty list sets nothing and is not named (graph.md §5, as the newest reference).

    Pointers: each listed field's key. Facts: `PersonFieldsNotRead`."""
    out = []
    for i, n in enumerate(index.nodes):
        if not is_person_step(n):
            continue
        fields = [f for f in AGENT_ONLY_FIELDS if f in n and n[f] != []]
        if not fields:
            continue
        nid = str_id(n) or ""
        one = len(fields) == 1
        msg = (f'step "{nid}" is a person\'s and sets {", ".join(fields)}, which only an agent uses, so '
               f"{'it is' if one else 'they are'} ignored; delete {'it' if one else 'them'}")
        out.append(make("W_PERSON_FIELDS_NOT_READ", msg, [nid], [f"/nodes/{i}/{f}" for f in fields], on_key=True,
                        facts=PersonFieldsNotRead(nid, tuple(fields))))
    return out
