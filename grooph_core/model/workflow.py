"""Pydantic models of a board's workflow statechart (`*.workflow.yaml`, spec/workflow.md §2).

Transcribed from the seed (`seeds/004_6809c678c79c70ab.txt`, `orchestration/workflow.rs`), which wins on
every fact: field names and order, which fields are required, defaults, the renames `where` and `for`,
and the four types that refuse unknown keys (Dispatch, Cap, CapFilter, Reserve: `extra="forbid"`). The
field documentation is the seed's, so hovers show the engine's own words.

Conventions of the neighbouring formats (workflow.md §0, §2): a field that is an `Option` in the seed is
`Optional` here (null is absent); a field with a serde default has that default and takes no null. A
`Text` field takes any YAML scalar as its text, as serde_yaml reads scalars into strings (the reading
itself is `rules/serde_shape`'s). The three shapes of §2 are `Expr`, `Action` and `Names`.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, Optional, Union

import annotated_types
from pydantic import BeforeValidator, ConfigDict, Field, field_validator

from grooph_core.model.board import KANBAN_STATUSES  # the nine statuses kanban.db holds (W_WF_STORED_AS_UNKNOWN)
from grooph_core.model.markers import ClosedModel, Complaint, Keys, Ref, ScalarText, SerdeModel, Title


def _value_level_text(v: Any) -> Any:
    """pydantic's view of a `Text` field on a resolved value (tests compare it with the structural check):
    any scalar but null stands for the text it was written as (the reading itself is serde_shape's)."""
    return str(v) if isinstance(v, (bool, int, float)) else v


def text(*markers) -> Any:
    """A string field: any YAML scalar, read as its text (workflow.md §2; the reading is serde_shape's)."""
    return Annotated[str, BeforeValidator(_value_level_text), ScalarText(), *markers]


Text = text()
StatusRef = text(Ref("status"))
RoleRef = text(Ref("role"))
RunSpecRef = text(Ref("run-spec"))
RunStateRef = text(Ref("run-state"))

# §2 "Expr": a string, or a bare number, boolean or null (the literal it spells).
Expr = Annotated[
    Union[str, float, bool, None], Title("expression"), Complaint("an expression is a string or a literal"),
]
# §2 "Action": a name (`close_session`) or a one-key mapping (`notify: {roles: [creator]}`).
Action = Annotated[
    Union[str, Annotated[dict[str, Any], annotated_types.Len(1, 1), Title("one-key map")]],
    Title("action"), Complaint("an action is a name or a one-key map"),
]
# §2 "Names": one string or a list of strings.
Names = Annotated[
    Union[str, list[Annotated[str, Complaint("a name is a string")]]],
    Title("names"), Complaint("names are a string or a list of strings"),
]

CAP_SCOPES = {
    "global": "One count across every board of the home and every machine its cards run on.",
    "board": "One count per board.",
    "machine": "One count per machine a card names.",
    "profile": "One count per profile (the lane a card's run is started in).",
}
CAP_COUNTS = {
    "runs": "Cards with a live run.",
    "cards": "Cards, each once whatever its runs and sessions (a cap's `where` names the statuses that hold a slot).",
    "sessions": "Live sessions the home's cards hold, in every slot (implementer and reviewer), idle or working.",
    "turns": "Those of the sessions that are in a turn now.",
    "starts": "Cards started in this tick.",
}
CapScope = Literal[tuple(CAP_SCOPES)]  # type: ignore[valid-type]
CapCount = Literal[tuple(CAP_COUNTS)]  # type: ignore[valid-type]

# The engine's own senders, beside the workflow's roles (Transition.by).
ENGINE_SENDERS = ("platform", "manager")


def _map(value, *markers):
    return Annotated[dict[str, value], *markers]


class Validation(SerdeModel):
    """A validator: the expression must hold, else the event is refused with the message."""

    model_config = ConfigDict(title="Validation")
    expr: Expr = Field(description="What must hold.")
    message: Text = Field(description="The refusal.")


class Transition(SerdeModel):
    """A move from the card's status on an event (or on none: `always`, `after`)."""

    model_config = ConfigDict(title="Transition")
    from_: list[StatusRef] = Field(
        default_factory=list, alias="from", description="Source statuses; empty applies from every status.")
    by: list[RoleRef] = Field(
        default_factory=list,
        description="Who may send the event: role names (the workflow's `roles`, and the engine's `platform` and "
                    "`manager`). Empty: anyone who may write the card.")
    guard: Optional[Expr] = Field(
        None, description="The transition is taken only when this holds (Jira's condition); the first one that holds "
                          "is taken.")
    validate_: list[Validation] = Field(
        default_factory=list, alias="validate",
        description="Must hold, else the event is refused with the message (Jira's validator).")
    target: Optional[StatusRef] = Field(
        None, description="The status the card moves to: a status name, or `{{expr}}`; none stays where it is (runs "
                          "the actions only).")
    actions: list[Action] = Field(
        default_factory=list, description="What happens, in order, after the move (Jira's post functions).")
    description: Optional[Text] = Field(
        None, description="What a person reads about it (the event's door text, the log).")


class Delayed(Transition):
    """A transition taken once a duration has passed in the status (XState's `after`, ASL's `Wait`).

    The fields of Transition stand beside `after` (serde `flatten`)."""

    model_config = ConfigDict(title="Delayed", json_schema_extra={"serde_flatten": "Transition"})
    after: Expr = Field(description="How long, in seconds (an expression).")

    @field_validator("target", "description", mode="before")
    @classmethod
    def _resolved_string(cls, v: Any) -> Any:
        """Flattened fields are read from resolved values: a string must be one (workflow.md §2)."""
        if v is not None and type(v) is not str:
            raise ValueError("a flattened field reads resolved values: expected a string")
        return v


Transitions = Annotated[dict[str, list[Transition]], Title("map of event to transitions"), Keys(role="event")]


class Run(SerdeModel):
    """What runs while a card is in a status: an actor of a role's lane in a named session slot of the card."""

    model_config = ConfigDict(title="Run")
    role: RoleRef = Field(description="The role whose lane (the profile it names) runs it.")
    session: Text = Field(
        description="The card's session slot it runs in: a live session in the slot is kept, a lost one resumed, an "
                    "empty slot started fresh. Different slots are different sessions (a reviewer never works in the "
                    "implementer's).")
    prompt: Text = Field(
        "", description="What the actor is told when it starts: a template over the card (`{{card.id}}`, "
                        "`{{context}}`) and `{{doors}}`, the events the actor may send in this status, generated from "
                        "its transitions.")
    prompt_file: Optional[Text] = Field(None, description="Prompt file relative to the orchestration home.")
    skills: list[Text] = Field(default_factory=list, description="Skills the actor's session is given.")
    limits: _map(Expr, Title("map of limit to expression"), Keys(role="limit")) = Field(
        default_factory=dict,
        description="Limits on the run, each an expression in seconds or a count (`runtime`, `heartbeat`, …); the "
                    "engine emits an event when one passes (`timed_out`, `stale`, …).")


class Status(SerdeModel):
    """One status a card can be in."""

    model_config = ConfigDict(title="Status")
    stored_as: Optional[Text] = Field(
        None, description="What `kanban.db`'s `tasks.status` holds for a card here, so Hermes reads the board "
                          "(Hermes's own nine statuses store as themselves); the exact name rides beside it where it "
                          "differs.")
    description: Optional[Text] = Field(None, description="What a person reads about it.")
    run: Optional[Run] = Field(None, description="What runs while a card is here.")
    run_role: Optional[RunSpecRef] = Field(
        None, description="A specification in the run machine's roles, without repeating supervision.")
    resume_as: Optional[StatusRef] = Field(None, description="Status used when a failed or blocked run is later resumed.")
    entry: list[Action] = Field(
        default_factory=list, description="Done on entering (after the move's own actions).")
    exit: list[Action] = Field(
        default_factory=list,
        description="Done on leaving (before the move's own actions): e.g. `close_session: reviewer`.")
    on: Transitions = Field(
        default_factory=dict, description="Events and their transitions, the first whose guard holds taken.")
    always: list[Transition] = Field(
        default_factory=list, description="Transitions taken as soon as their guard holds (XState's `always`).")
    after: list[Delayed] = Field(
        default_factory=list, description="Transitions taken after a time in the status.")


class CapFilter(ClosedModel):
    """Which cards and sessions a cap is about: each key given narrows it; a key's names are alternatives."""

    model_config = ConfigDict(title="CapFilter")
    card: Names = Field(
        default_factory=list, description="The card itself, by id.")
    model: Names = Field(
        default_factory=list, description="The model a session runs (the card's model, else its profile's).")
    harness: Names = Field(
        default_factory=list, description="The harness a session runs (`claude-code`, `codex`, …).")
    assignee: Names = Field(
        default_factory=list, description="The card's assignee (its profile).")
    status: Annotated[Names, Ref("status")] = Field(
        default_factory=list, description="The card's status (for a card being started, the status its start moves it to).")
    stored: Names = Field(
        default_factory=list, description="The status the board stores for the card (`blocked` for a paused card or one blocked on a "
                          "message).")
    machine: Names = Field(
        default_factory=list, description="The machine the card names.")
    board: Names = Field(
        default_factory=list, description="The card's board.")


class Reserve(ClosedModel):
    """Slots of a cap held for some cards."""

    model_config = ConfigDict(title="Reserve")
    for_cards: CapFilter = Field(alias="for", description="The cards the slots are held for.")
    slots: Expr = Field(description="How many.")


class Cap(ClosedModel):
    """A cap on what the dispatcher starts, in the board's one capacity language.

    What it counts, in which scope, among which cards and sessions, at most how many. Every cap applies; a
    card starts only when each cap that matches it has room."""

    model_config = ConfigDict(title="Cap")
    name: Text = Field(description="What the cap is called where a card waits on it and in the capacity view.")
    scope: CapScope = Field(
        description="Where one count is kept: one for the whole home, or one per board, machine or profile.")
    counts: CapCount = Field(description="What is counted.")
    filter: CapFilter = Field(
        default_factory=dict, alias="where",
        description="Only what matches counts, and only a card that matches is held (every key that is given must "
                    "match).")
    unless: CapFilter = Field(
        default_factory=dict, description="What matches this is neither counted nor held, whatever `where` says (a standing service "
                          "that holds no slot).")
    max: Expr = Field(description="The most there may be in each count; a max that evaluates to nothing caps nothing.")
    reserve: Optional[Reserve] = Field(
        None, description="Slots of each count held back for the cards this matches while any waits (Hermes's review "
                          "reservation).")


class Dispatch(ClosedModel):
    """The dispatcher: when it runs, what it may start, in what order, under which caps."""

    model_config = ConfigDict(title="Dispatch")
    tick: Expr = Field(description="Seconds between ticks.")
    start: Text = Field(
        description="The event the dispatcher sends a card it starts (to cards whose status has a transition for it).")
    eligible: Optional[Expr] = Field(None, description="Which cards it may start this tick.")
    order: list[Expr] = Field(
        default_factory=list, description="The order it starts them in: sort keys, `-` before one for descending.")
    capacity: list[Cap] = Field(default_factory=list, description="The caps, in the capacity language.")


class RunMachine(SerdeModel):
    """The independently supervised run machine. Its events never become card notices."""

    model_config = ConfigDict(title="RunMachine")
    recurring_role: Optional[RunSpecRef] = Field(
        None, description="Run specification selected for a card with an Every interval.")
    limits: _map(Expr, Title("map of limit to expression"), Keys(role="limit")) = Field(
        default_factory=dict, description="Shared supervision limits, overridden by individual role specifications.")
    roles: _map(Run, Title("map of run specification to Run"), Keys(role="run specification")) = Field(
        default_factory=dict, description="Named run specifications, selected by a card status or a recurring role.")
    states: _map(Status, Title("map of run state to Status"), Keys(role="run state")) = Field(
        default_factory=dict, description="Run states and their entry, exit and event rules.")
    initial: RunStateRef = Field("", description="Initial run state.")
    on: Transitions = Field(default_factory=dict, description="Supervision shared by all run states.")
    outcomes: Annotated[dict[str, list[Transition]], Title("map of outcome to transitions"),
                                 Keys(role="outcome")] = Field(
        default_factory=dict, description="A run outcome emits this card verb (the sole link between machines).")


class StorageRule(SerdeModel):
    """Ordered lowering rule for Hermes's fixed dispatcher."""

    model_config = ConfigDict(title="StorageRule")
    guard: Expr = Field(description="When this holds, the card is stored as `status` (the rules are tried in order).")
    status: Text = Field(description="The status kanban.db stores for the card.")


class Workflow(SerdeModel):
    """A board's workflow."""

    model_config = ConfigDict(title="Workflow")
    run: Optional[RunMachine] = Field(None, description="The run machine; absent for legacy homes during migration.")
    verbs: Annotated[dict[str, list[Transition]], Title("map of verb to transitions"), Keys(role="verb")] = (
        Field(default_factory=dict, description="Card verbs declared once, with source statuses on each transition."))
    derived: _map(Expr, Title("map of name to expression"), Keys(role="name")) = Field(
        default_factory=dict, description="Derived card conditions, such as ready.")
    relations: _map(Any, Title("map of name to any value"), Keys(role="name")) = Field(
        default_factory=dict, description="Relation policies, interpreted by the engine's relation primitives.")
    flags: _map(Any, Title("map of name to any value"), Keys(role="name")) = Field(
        default_factory=dict, description="Flag policies, interpreted by the engine's flag primitives.")
    stored_as: list[StorageRule] = Field(
        default_factory=list, description="Ordered Hermes projection and its explicitly accepted losses.")
    losses: list[Text] = Field(
        default_factory=list, description="The explicitly accepted losses of the Hermes projection.")
    description: Optional[Text] = Field(None, description="What a person reads about it.")
    params: _map(Any, Title("map of name to any value"), Keys(role="param")) = Field(
        default_factory=dict,
        description="Named values the expressions read (`params.failure_limit`); a home's config.yaml `kanban:` keys "
                    "override them by name, so Hermes's settings are this workflow's parameters.")
    roles: _map(Expr, Title("map of role to expression"), Keys(role="role")) = Field(
        default_factory=dict,
        description="Who acts on a card, each an expression naming a profile (`implementer: card.assignee`) or a "
                    "person.")
    initial: list[Transition] = Field(description="Where a new card starts: the first transition whose guard holds.")
    statuses: _map(Status, Title("map of status to Status"), Keys(role="status")) = Field(
        description="Every status, by name.")
    on: Transitions = Field(
        default_factory=dict,
        description="Events that apply in every status (a status's own `on` for the same event is tried first).")
    dispatch: Dispatch = Field(description="The dispatcher.")
    notify: _map(_map(Text, Title("map of event kind to template"), Keys(role="event kind")),
                          Title("map of audience to map of event kind to template"), Keys(role="audience")) = Field(
        default_factory=dict,
        description="Who is told what: for each audience (`creator`, `worker`, `dependency`, `chat`: who a card's "
                    "subscriptions are), the event kinds it hears and the template each is told in. A kind not named "
                    "is not sent.")
