"""Pydantic models of the graph document (graph.md §1).

Fields are declared in canonical order (graph.md §6.2): this file is the single source of field order,
enums, defaults and constraints; the checker, the canonical form, the unknown-key rule, the published
JSON Schema and the editor's hovers are all derived from it (see `grooph_core.model.compiled`).

Optional fields default to None without allowing `null`: an explicit JSON `null` is a schema error,
never "absent" (graph.md §0). Where the spec names a default (graph.md §1.12) the field carries it.
"""

from __future__ import annotations

import typing
from typing import Annotated, Any, Literal, Union

import annotated_types
from pydantic import ConfigDict, Field

from grooph_core.model.markers import (
    Capability,
    EdgeRef,
    GroophModel,
    HarnessId,
    Keys,
    ModelName,
    NodeOrGroupRef,
    NodeRef,
    Outcome,
    NonNegInt,
    NonNegNumber,
    NoteAt,
    OneLine,
    PositiveInt,
    Scope,
    SkillName,
    Source,
    Title,
    Id,
    ID_PATTERN,
    SLOT_KEY_PATTERN,
    id_of,
)

Role = Literal["lead", "planner", "builder", "critic", "tester", "researcher", "red-team", "judge", "synthesizer"]
# graph.md §2.2: role families.
CRITIC_ROLES = frozenset({"critic", "judge", "red-team"})
WRITER_ROLES = frozenset({"builder", "synthesizer", "planner"})
LEAD_ROLE = "lead"
Tier = Literal["frontier", "strong", "fast"]
Effort = Literal["low", "medium", "high", "max"]
CheckKind = Literal["command", "tests", "diff", "metric", "evidence"]
Measure = Literal["dispatches", "minutes", "usd", "turns", "tokens"]
EvidenceKind = Literal["file", "url", "metric", "checklist", "answer-key", "artifact"]
PolicyKind = Literal[
    "critic-isolation", "no-self-grading", "owner-per-artifact", "concurrency-cap", "no-live-graph-rewrite",
    "evidence-required",
]
When = Literal["always", "pass", "fail"]


# ---- small inline objects of the root -------------------------------------------------------------


class Target(GroophModel):
    """The harness the graph is compiled for (graph.md §1.2)."""

    model_config = ConfigDict(title="Target")
    harness: HarnessId = Field(description="The harness to compile for: claude-code or codex (any non-empty name passes the schema).")


class Constraints(GroophModel):
    """Free-text hints about what the run may spend (graph.md §1.2)."""

    model_config = ConfigDict(title="Constraints")
    budget: str = Field(None, description="A spending hint in words, e.g. \"under $5\".")
    time: str = Field(None, description="A time hint in words, e.g. \"one afternoon\".")
    other: str = Field(None, description="Any other constraint, in words.")


class Lineage(GroophModel):
    """Where the graph came from (graph.md §1.2); not checked."""

    model_config = ConfigDict(title="Lineage")
    pattern: str = Field(None, description="The pattern or template the graph follows.")
    from_: str = Field(None, alias="from", description="Conventionally \"<graph id>@<version>\" of the graph this one was made from.")


class TemplateProfile(GroophModel):
    """How costly, fast and rigorous a template is (graph.md §1.9)."""

    model_config = ConfigDict(title="Profile")
    cost: Literal["low", "medium", "high"] = Field(description="How much running it costs: low, medium or high.")
    speed: Literal["fast", "medium", "slow"] = Field(description="How long it takes: fast, medium or slow.")
    rigor: Literal["light", "standard", "high"] = Field(description="How thoroughly it checks: light, standard or high.")


class TemplateSlot(GroophModel):
    """A `{{key}}` placeholder the template asks the person to fill (graph.md §1.9)."""

    model_config = ConfigDict(title="TemplateSlot")
    key: str = Field(description="The slot's key, written {{key}} in the texts.")
    ask: str = Field(description="The question that asks the person for the value.")
    example: str = Field(description="An example value.")


class TemplateCredit(GroophModel):
    """Credit for an idea or a source the template builds on (graph.md §1.9)."""

    model_config = ConfigDict(title="TemplateCredit")
    name: str = Field(description="Who or what is credited.")
    url: str = Field(description="Where to read more.")
    note: str = Field(description="What was taken from it.")


class Template(GroophModel):
    """The template block: its presence makes the document a template, not exportable (graph.md §1.9)."""

    model_config = ConfigDict(title="Template")
    kind: Literal["graph", "fragment"] = Field(description="graph: a whole graph; fragment: nodes to insert into another graph.")
    title: str = Field(description="The template's title.")
    summary: str = Field(description="What the template does, in a sentence or two.")
    whenToUse: str = Field(description="When to pick this template.")
    notFor: str = Field(None, description="When not to pick it.")
    profile: TemplateProfile = Field(description="Cost, speed and rigor of the template.")
    slots: list[TemplateSlot] = Field(None, description="The {{key}} placeholders to fill when the template is used.")
    tags: list[str] = Field(None, description="Search tags.")
    demo: str = Field(None, description="A demonstration, e.g. a link or a short transcript.")
    credits: list[TemplateCredit] = Field(None, description="Ideas and sources the template builds on.")


# ---- nodes (graph.md §1.3) ------------------------------------------------------------------------


class RoleCustom(GroophModel):
    """A role outside the nine named ones."""

    model_config = ConfigDict(title="custom role")
    custom: str = Field(description="The custom role's name, e.g. \"publisher\".")


class AgentModel(GroophModel):
    """Which model an agent runs on: a tier, optionally pinned per harness."""

    model_config = ConfigDict(title="Model")
    tier: Tier = Field(description="The model tier: frontier, strong or fast.")
    pin: Annotated[dict[str, ModelName], Keys(role="harness id"), Title("object of model names by harness id")] = Field(
        None, description="Exact model names per harness id, e.g. {\"codex\": \"gpt-5\"}; each value is a model name token."
    )


class CheckSpec(GroophModel):
    """What a check node runs and when it passes."""

    model_config = ConfigDict(title="CheckSpec")
    kind: CheckKind = Field(description="What kind of check: command, tests, diff, metric or evidence.")
    run: str = Field(None, description="The command to run (text only: nothing runs it while editing).")
    pass_: str = Field(alias="pass", description="When the check passes, e.g. \"exit 0\".")
    threshold: float = Field(None, description="The metric threshold for a metric check.")


class _NodeHead(GroophModel):
    """Fields every node starts with, in this order."""

    id: id_of("node") = Field(description="The node's id: lower-case letters, digits and -, unique in the whole document.")
    kind: str = Field(description="What the node is: agent, human-gate, check, merge or stop.")
    name: str = Field(description="The node's display name.")
    description: str = Field(None, description="A longer description of the node.")
    coupled: bool = Field(None, description="true marks work that must not be parallelised (W_FANOUT_ON_COUPLED).")


class AgentNode(_NodeHead):
    """An agent's step (or a person's step when `by` is "person")."""

    model_config = ConfigDict(title="AgentNode")
    kind: Literal["agent"] = Field(description="agent: a step an agent (or, with by: person, a person) performs.")
    by: Literal["agent", "person"] = Field("agent", description="Whose step it is; \"person\" makes it a person's step. Absent means agent.")
    role: Annotated[Union[Role, RoleCustom], Title("role")] = Field(
        description="What the agent does: lead, planner, builder, critic, tester, researcher, red-team, judge, synthesizer, or {\"custom\": \"…\"}."
    )
    model: AgentModel = Field(None, description="The model tier (and optional pins per harness) the agent runs on.")
    effort: Effort = Field(None, description="How hard the agent should think: low, medium, high or max.")
    brief: str = Field(description="The agent's instructions.")
    inputs: list[str] = Field(None, description="What the agent reads.")
    outputs: Annotated[list[str], annotated_types.MinLen(1)] = Field(description="What the agent must leave behind (at least one).")
    allow: list[Capability] = Field(
        None,
        description="Capabilities granted: read-files, edit-files, write-outputs, run-commands, run-tests, web, spawn-agents, or a custom one. Absent means none.",
    )
    deny: list[Capability] = Field(None, description="Capabilities explicitly refused.")
    owns: list[str] = Field(None, description="Artifact ids this node exclusively writes.")
    irreversible: list[str] = Field(None, description="Irreversible actions it takes (merge, publish, spend, delete, …); they need a human gate or approval before.")
    skills: list[SkillName] = Field(None, description="Harness skill names (name tokens); canonically the last field.")


class HumanGateNode(_NodeHead):
    """A person's decision: the run waits for an answer."""

    model_config = ConfigDict(title="HumanGateNode")
    kind: Literal["human-gate"] = Field(description="human-gate: the run stops and asks a person.")
    prompt: str = Field(description="The question put to the person.")
    options: list[str] = Field(None, description="The answers offered.")


class CheckNode(_NodeHead):
    """A mechanical check: a command, tests, a diff, a metric or evidence."""

    model_config = ConfigDict(title="CheckNode")
    kind: Literal["check"] = Field(description="check: a mechanical check that passes or fails.")
    check: CheckSpec = Field(description="What the check runs and when it passes.")


class MergeNode(_NodeHead):
    """Where the work of several owners is merged."""

    model_config = ConfigDict(title="MergeNode")
    kind: Literal["merge"] = Field(description="merge: combines artifacts written by several nodes.")
    merges: list[str] = Field(description="The artifact ids merged here (may be empty).")
    strategy: str = Field(None, description="How they are merged, in words.")


class StopNode(_NodeHead):
    """Where the run finishes."""

    model_config = ConfigDict(title="StopNode")
    kind: Literal["stop"] = Field(description="stop: the run finishes here.")
    outcome: Literal["success", "halt"] = Field(None, description="How the run ends here: success or halt.")


Node = Annotated[
    Union[AgentNode, HumanGateNode, CheckNode, MergeNode, StopNode],
    Field(discriminator="kind"),
    Title("Node"),
]


def _kinds(union) -> tuple[str, ...]:
    """The `kind` literals of a discriminated union's branches, in declared order."""
    members = typing.get_args(typing.get_args(union)[0])
    return tuple(typing.get_args(m.model_fields["kind"].annotation)[0] for m in members)


NODE_KINDS = _kinds(Node)


# ---- edges (graph.md §1.4) ------------------------------------------------------------------------


class WhenVerdict(GroophModel):
    """Follow the edge when the upstream critic gives this verdict."""

    model_config = ConfigDict(title="verdict condition")
    verdict: str = Field(description="The verdict that sends the run along this edge.")


class Concurrency(GroophModel):
    """How many copies of the downstream node may run at once."""

    model_config = ConfigDict(title="Concurrency")
    max: PositiveInt = Field(description="At most this many in parallel (integer >= 1). Absent concurrency means 1.")


class Retry(GroophModel):
    """How often the edge may be retried."""

    model_config = ConfigDict(title="Retry")
    max: NonNegInt = Field(description="At most this many retries (integer >= 0).")


class Edge(GroophModel):
    """Work passing from one node to another (graph.md §1.4)."""

    model_config = ConfigDict(title="Edge")
    id: id_of("edge") = Field(description="The edge's id, unique in the whole document.")
    from_: NodeRef = Field(alias="from", description="The node the edge starts at.")
    to: NodeRef = Field(description="The node the edge leads to.")
    when: Annotated[Union[When, WhenVerdict], Title("condition")] = Field(
        "always", description="When the edge is followed: always, pass, fail, or {\"verdict\": \"…\"}. Default always."
    )
    isolation: Literal["fresh", "shared"] = Field("fresh", description="fresh: the next node starts with a clean context; shared: it sees this one's. Default fresh.")
    concurrency: Concurrency = Field(None, description="How many copies of the next node may run at once (absent: 1).")
    retry: Retry = Field(None, description="How often the edge may be retried.")
    evidence: list[str] = Field(None, description="What the downstream node may inspect.")
    approval: bool = Field(None, description="true: a person approves before the run goes on (counts as a gate).")
    label: str = Field(None, description="A label drawn on the edge.")


# ---- loops (graph.md §1.5) ------------------------------------------------------------------------


class Evidence(GroophModel):
    """Something concrete a critic can examine."""

    model_config = ConfigDict(title="Evidence")
    kind: EvidenceKind = Field(description="file, url, metric, checklist, answer-key or artifact.")
    ref: str = Field(description="Which file, URL, metric, … it is.")
    note: str = Field(None, description="What to look for in it.")


class Bar(GroophModel):
    """When the loop's work is good enough, and what shows it."""

    model_config = ConfigDict(title="Bar")
    name: str = Field(description="The bar's name.")
    inspects: list[Evidence] = Field(description="What a critic examines to decide (file, url, metric, …).")
    acceptance: str = Field(description="What must hold for the bar to pass: a concrete, checkable statement.")
    aspiration: str = Field(None, description="What would be even better (not the acceptance).")
    answerKeyFrom: NodeRef = Field(None, description="The node whose output is the answer key for answer-key evidence.")


_THEN = "The node where the run continues when this stop fires."


class HumanStop(GroophModel):
    """Stop and ask a person (every n rounds)."""

    model_config = ConfigDict(title="HumanStop")
    kind: Literal["human"] = Field(description="human: a person decides whether to go on.")
    every: PositiveInt = Field(None, description="Ask every this many rounds (integer >= 1).")
    then: NodeRef = Field(None, description=_THEN)


class BudgetStop(GroophModel):
    """Stop when a budget is spent."""

    model_config = ConfigDict(title="BudgetStop")
    kind: Literal["budget"] = Field(description="budget: stop when the budget is spent.")
    measure: Measure = Field(description="What is counted: dispatches, minutes, usd, turns or tokens.")
    limit: NonNegNumber = Field(description="The budget (a number >= 0).")
    then: NodeRef = Field(None, description=_THEN)


class BarPassedStop(GroophModel):
    """Stop when the loop's bar passes."""

    model_config = ConfigDict(title="BarPassedStop")
    kind: Literal["bar-passed"] = Field(description="bar-passed: stop when the bar passes.")
    then: NodeRef = Field(None, description=_THEN)


class DiminishingReturnsStop(GroophModel):
    """Stop when rounds stop improving a metric."""

    model_config = ConfigDict(title="DiminishingReturnsStop")
    kind: Literal["diminishing-returns"] = Field(description="diminishing-returns: stop when rounds stop helping.")
    rounds: PositiveInt = Field(description="How many rounds without improvement (integer >= 1).")
    metric: str = Field(None, description="The metric watched.")
    threshold: float = Field(None, description="The smallest improvement that counts.")
    then: NodeRef = Field(None, description=_THEN)


class EvidenceInvalidStop(GroophModel):
    """Stop when the evidence is invalid for some rounds."""

    model_config = ConfigDict(title="EvidenceInvalidStop")
    kind: Literal["evidence-invalid"] = Field(description="evidence-invalid: stop when the evidence stays invalid.")
    rounds: PositiveInt = Field(description="How many rounds of invalid evidence (integer >= 1).")
    then: NodeRef = Field(None, description=_THEN)


class MaxIterationsStop(GroophModel):
    """Stop after a number of rounds."""

    model_config = ConfigDict(title="MaxIterationsStop")
    kind: Literal["max-iterations"] = Field(description="max-iterations: stop after n rounds.")
    n: PositiveInt = Field(description="The round cap (integer >= 1); 5 or fewer counts as short.")
    then: NodeRef = Field(None, description=_THEN)


Stop = Annotated[
    Union[HumanStop, BudgetStop, BarPassedStop, DiminishingReturnsStop, EvidenceInvalidStop, MaxIterationsStop],
    Field(discriminator="kind"),
    Title("Stop"),
]
STOP_KINDS = _kinds(Stop)


class Loop(GroophModel):
    """A cycle of work with its back edges, its bar and its brakes (graph.md §1.5)."""

    model_config = ConfigDict(title="Loop")
    id: id_of("loop") = Field(description="The loop's id, unique in the whole document.")
    name: str = Field(description="The loop's display name.")
    members: list[NodeRef] = Field(description="The node ids inside the loop.")
    back: list[EdgeRef] = Field(description="The edge ids that return to an earlier member (at least one for E_LOOP_BACK_EDGE).")
    mode: Literal["grind", "judgment"] = Field(None, description="grind (a check decides) or judgment (a critic decides); inferred when absent.")
    bar: Bar = Field(None, description="When the work is good enough, and what a critic examines.")
    stops: list[Stop] = Field(description="The brakes: when the loop stops, tried in order after each round.")


# ---- policies, groups, notes, layout ---------------------------------------------------------------


class PolicyCustom(GroophModel):
    """A policy outside the six named ones."""

    model_config = ConfigDict(title="custom policy")
    custom: str = Field(description="The custom policy's name.")


class Policy(GroophModel):
    """A rule the run follows (graph.md §1.6)."""

    model_config = ConfigDict(title="Policy")
    id: id_of("policy") = Field(description="The policy's id, unique in the whole document.")
    kind: Annotated[Union[PolicyKind, PolicyCustom], Title("policy kind")] = Field(
        description="critic-isolation, no-self-grading, owner-per-artifact, concurrency-cap, no-live-graph-rewrite, evidence-required, or {\"custom\": \"…\"}."
    )
    scope: Scope = Field(description="Where it applies: graph, loop:<id>, node:<id> or edge:<id>.")
    params: Annotated[
        dict[str, Annotated[Union[str, float, bool], Title("parameter value")]],
        Title("object of parameters (string, number or boolean values)"),
    ] = Field(None, description="Parameters of the policy: strings, numbers or booleans.")


class Group(GroophModel):
    """A named set of nodes and groups, drawn as a box (graph.md §1.7)."""

    model_config = ConfigDict(title="Group")
    id: id_of("group") = Field(description="The group's id, unique in the whole document.")
    name: str = Field(description="The group's display name.")
    members: list[NodeOrGroupRef] = Field(description="Node ids and group ids (groups nest into a tree).")
    coupled: bool = Field(None, description="true marks the group's work as not to be parallelised.")
    description: OneLine = Field(None, description="One line describing the group.")
    from_: Source = Field(None, alias="from", description="<template id>@<version>: marks the group as a placed template (a subgrooph).")
    with_: Annotated[
        dict[str, str], Keys(SLOT_KEY_PATTERN, "slot key"), Title("object of slot values by slot key")
    ] = Field(None, alias="with", description="The slot values the subgrooph was filled with.")


class NoteCost(GroophModel):
    """What a run step cost."""

    model_config = ConfigDict(title="Cost")
    measure: Measure = Field(description="What was counted: dispatches, minutes, usd, turns or tokens.")
    amount: float = Field(description="How much.")


class NoteProposal(GroophModel):
    """A change the run proposed."""

    model_config = ConfigDict(title="Proposal")
    summary: str = Field(description="The proposal in a sentence.")
    patch: Any = Field(None, description="The proposed change as free JSON.")


class NoteAmendment(GroophModel):
    """A change the run made to its own graph."""

    model_config = ConfigDict(title="Amendment")
    summary: str = Field(description="The amendment in a sentence.")
    reason: str = Field(description="Why it was made.")
    patch: Any = Field(None, description="The change as free JSON.")


class RunNote(GroophModel):
    """An entry of the append-only run history (graph.md §1.8)."""

    model_config = ConfigDict(title="RunNote")
    id: id_of("note") = Field(description="The note's id, unique in the whole document.")
    run: str = Field(description="Which run wrote the note.")
    at: NoteAt = Field(description="Where it happened: graph, node:<id>, edge:<id> or loop:<id> (not checked against the graph).")
    started: str = Field(None, description="When it started.")
    ended: str = Field(None, description="When it ended.")
    outcome: Outcome = Field(None, description="How it went: pass, fail, halt, invalid-evidence, started, ending, or another non-empty word.")
    verdict: str = Field(None, description="The critic's verdict.")
    round: NonNegInt = Field(None, description="The loop round (0 for the first pass).")
    stop: str = Field(None, description="The stop that fired.")
    evidence: list[str] = Field(None, description="The evidence looked at.")
    cost: NoteCost = Field(None, description="What it cost.")
    gaps: list[str] = Field(None, description="What was missing.")
    proposal: NoteProposal = Field(None, description="A change the run proposed.")
    amendment: NoteAmendment = Field(None, description="A change the run made.")
    text: str = Field(None, description="Free text.")


class LayoutBox(GroophModel):
    """Where a view draws a node (graph.md §1.10)."""

    model_config = ConfigDict(title="LayoutBox")
    x: float = Field(description="Left edge.")
    y: float = Field(description="Top edge.")
    w: float = Field(None, description="Width.")
    h: float = Field(None, description="Height.")


# ---- the root (graph.md §1.2) ---------------------------------------------------------------------


class Graph(GroophModel):
    """A grooph graph: one harness session and the subagents inside it (graph.md §1.2)."""

    model_config = ConfigDict(title="graph document")
    grooph: Literal[0] = Field(description="The document schema version: the number 0.")
    id: id_of("graph") = Field(description="The graph's id; also names the package directory.")
    name: str = Field(description="The graph's display name (may be empty).")
    version: NonNegInt = Field(description="The graph's own version number (integer >= 0).")
    goal: str = Field(None, description="What the run is for, in the person's words; needed for export (E_NO_GOAL).")
    target: Target = Field(None, description="The harness to compile for; needed for export (E_NO_TARGET).")
    constraints: Constraints = Field(None, description="Free-text hints: budget, time, other.")
    adaptation: Literal["adaptive", "propose", "fixed"] = Field("adaptive", description="May the run change its own graph: adaptive, propose or fixed. Default adaptive.")
    lineage: Lineage = Field(None, description="Where the graph came from: pattern and from (\"<graph id>@<version>\").")
    template: Template = Field(None, description="Present only on templates; a template is not exportable.")
    description: str = Field(None, description="A longer description of the graph.")
    nodes: list[Node] = Field(description="The steps: agents, human gates, checks, merges and stops.")
    edges: list[Edge] = Field(description="How work passes from node to node.")
    loops: list[Loop] = Field(description="Cycles of work with their bars and brakes.")
    policies: list[Policy] = Field(None, description="Rules the run follows, e.g. critic-isolation.")
    groups: list[Group] = Field(None, description="Named boxes of nodes and groups.")
    notes: list[RunNote] = Field(None, description="The append-only run history.")
    layout: Annotated[
        dict[str, LayoutBox], Keys(ID_PATTERN, "node id", ref="node"), Title("object of layout boxes by node id")
    ] = Field(None, description="Positions for views, by node id (not checked against the nodes).")


__all__ = ["Graph", "Id"]
