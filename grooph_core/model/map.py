"""Pydantic models of the operation map (map.md §2).

Fields are declared in canonical order (map.md §9); like `model.graph`, this file is the single source
of the map's field order, enums and constraints. Optional fields default to None without allowing
`null` (map.md §0: a present `null` is a schema error).
"""

from __future__ import annotations

from typing import Annotated, Literal, Union

from pydantic import ConfigDict, Field, StringConstraints

from grooph_core.model.markers import (
    Date,
    EndRef,
    GroophModel,
    HarnessId,
    LaneRef,
    NonNegInt,
    PositiveInt,
    Title,
    id_of,
)

# map.md §5.1: "string with at least 1 character" (UTF-16 units; a string of spaces passes).
NonEmpty = Annotated[str, StringConstraints(min_length=1)]


class Lane(GroophModel):
    """One machine under one account (map.md §2.3)."""

    model_config = ConfigDict(title="Lane")
    id: id_of("lane") = Field(description="The lane's id, unique in the whole map.")
    name: str = Field(description="The lane's display name (the id is shown when empty).")
    machine: NonEmpty = Field(description="Where its sessions run, e.g. \"a laptop\", \"cloud sandboxes\".")
    place: Literal["local", "cloud"] = Field(None, description="local or cloud; drawn as a pill beside the lane's name.")
    account: NonEmpty = Field(description="Whose sign-in its sessions use (compared by W_CARRIER_CANNOT_CROSS).")
    description: str = Field(None, description="A longer description of the lane.")


class Person(GroophModel):
    """Someone a session hands work to or takes work from (map.md §2.4)."""

    model_config = ConfigDict(title="Person")
    id: id_of("person") = Field(description="The person's id; may be a handoff's from or to.")
    name: str = Field(description="The person's name (the id is shown when empty).")
    role: str = Field(None, description="What they do, in one line.")
    description: str = Field(None, description="A longer description of the person.")


class Session(GroophModel):
    """One harness session, or a family of like sessions drawn as one (map.md §2.5)."""

    model_config = ConfigDict(title="Session")
    id: id_of("session") = Field(description="The session's id, unique in the whole map.")
    name: str = Field(description="The session's display name (the id is shown when empty).")
    lane: LaneRef = Field(description="The lane (machine and account) the session runs in.")
    harness: HarnessId = Field(description="The harness: claude-code, codex, or any other non-empty name.")
    model: str = Field(None, description="The model as the harness names it (free text, not a tier).")
    role: NonEmpty = Field(description="What the session is for, in one line.")
    lifetime: Literal["long-lived", "per-task", "scheduled"] = Field(None, description="long-lived, per-task or scheduled.")
    count: PositiveInt = Field(None, description="A family: this node stands for count sessions (integer >= 1; absent means 1).")
    graph: NonEmpty = Field(None, description="The loop graph it runs: a relative path or URL of a .grooph.json, or <graph-id>@<version>.")
    repo: str = Field(None, description="The repository it works in.")
    description: str = Field(None, description="A longer description of the session.")


# ---- carriers (map.md §2.7) -------------------------------------------------------------------------


class BranchCarrier(GroophModel):
    """A repository branch both ends can fetch."""

    model_config = ConfigDict(title="branch")
    kind: Literal["branch"] = Field(description="branch: a repository branch both ends can fetch.")
    repo: str = Field(None, description="The repository (its naming field: must not be blank).")
    ref: str = Field(None, description="The branch name.")


class PullRequestCarrier(GroophModel):
    """A pull request on a repository."""

    model_config = ConfigDict(title="pull request")
    kind: Literal["pull-request"] = Field(description="pull-request: a pull request on a repository.")
    repo: str = Field(None, description="The repository (its naming field: must not be blank).")


class SessionMessageCarrier(GroophModel):
    """The harness's own channel: one session starts or messages another."""

    model_config = ConfigDict(title="session message")
    kind: Literal["session-message"] = Field(description="session-message: one session starts or messages another (same harness, same account).")


class ScheduledMessageCarrier(GroophModel):
    """A routine or timer that puts a prompt into a session."""

    model_config = ConfigDict(title="scheduled message")
    kind: Literal["scheduled-message"] = Field(description="scheduled-message: a routine or timer puts a prompt into a session.")
    schedule: str = Field(None, description="When, e.g. \"every hour\".")


class ReviewPageCarrier(GroophModel):
    """A published page someone reads."""

    model_config = ConfigDict(title="review page")
    kind: Literal["review-page"] = Field(description="review-page: a published page someone reads.")
    where: str = Field(None, description="Where the page lives (its naming field: must not be blank).")


class PersonCarrier(GroophModel):
    """A person carrying a prompt or file across."""

    model_config = ConfigDict(title="person")
    kind: Literal["person"] = Field(description="person: a person carries the work across.")
    who: str = Field(None, description="Who carries it (free text; not needed when the handoff starts at a person).")


class NotificationCarrier(GroophModel):
    """What reaches a person with nobody carrying it."""

    model_config = ConfigDict(title="notification")
    kind: Literal["notification"] = Field(description="notification: reaches a person with nobody carrying it (push, e-mail).")
    where: str = Field(None, description="Where it lands.")


class OtherCarrier(GroophModel):
    """Anything else, named."""

    model_config = ConfigDict(title="other")
    kind: Literal["other"] = Field(description="other: anything else, named.")
    name: str = Field(None, description="What carries it (its naming field: must not be blank).")


Carrier = Annotated[
    Union[
        BranchCarrier, PullRequestCarrier, SessionMessageCarrier, ScheduledMessageCarrier, ReviewPageCarrier,
        PersonCarrier, NotificationCarrier, OtherCarrier,
    ],
    Field(discriminator="kind"),
    Title("Carrier"),
]


class Handoff(GroophModel):
    """Work passing in one direction from one end to another (map.md §2.6)."""

    model_config = ConfigDict(title="Handoff")
    id: id_of("handoff") = Field(description="The handoff's id, unique in the whole map.")
    from_: EndRef = Field(alias="from", description="The session or person the work leaves.")
    to: EndRef = Field(description="The session or person the work reaches (may equal from).")
    carrier: Carrier = Field(None, description="What actually moves the work; a missing carrier is E_HANDOFF_NO_CARRIER.")
    what: str = Field(None, description="What is handed over.")
    label: str = Field(None, description="Free text; not drawn.")


class OperationMap(GroophModel):
    """A grooph operation map: sessions, people, and how work passes between them (map.md §2.2)."""

    model_config = ConfigDict(title="operation map")
    groophMap: Literal[0] = Field(description="The document schema version: the number 0.")
    id: id_of("map") = Field(description="The map's own id.")
    name: str = Field(description="The map's title (the id is shown when empty).")
    version: NonNegInt = Field(description="The map's own revision number (integer >= 0).")
    asOf: Date = Field(None, description="The day the map describes, as YYYY-MM-DD.")
    description: str = Field(None, description="Free text.")
    lanes: list[Lane] = Field(description="Machines under accounts.")
    people: list[Person] = Field(None, description="The people sessions hand work to or take work from.")
    sessions: list[Session] = Field(description="Harness sessions (or families of them).")
    handoffs: list[Handoff] = Field(description="Every path by which work passes between sessions and people.")
