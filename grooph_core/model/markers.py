"""Building blocks of the document models: the lexical patterns (graph.md §1.1, map.md §2.1) and the
markers that tell the checker and the editor what a string means ("kebab-case id", which kind of object
a reference names, …).

The patterns are written so that Python `re`, ECMAScript (the published JSON Schema) and pydantic's
regex engine read them alike; the checker matches them against the whole string.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

import annotated_types
from pydantic import BaseModel, ConfigDict, StringConstraints

# graph.md §1.1 / map.md §2.1
ID_PATTERN = r"^[a-z][a-z0-9-]*$"
NAME_TOKEN_PATTERN = r"^[A-Za-z0-9._:/\[\]-]+$"
ONE_LINE_PATTERN = r"^[^\u0000-\u001f\u007f-\u009f\u2028\u2029]*$"
SCOPE_PATTERN = r"^(graph|loop:[a-z][a-z0-9-]*|node:[a-z][a-z0-9-]*|edge:[a-z][a-z0-9-]*)$"
NOTE_AT_PATTERN = r"^(graph|node:[a-z][a-z0-9-]*|edge:[a-z][a-z0-9-]*|loop:[a-z][a-z0-9-]*)$"
SOURCE_PATTERN = r"^[a-z][a-z0-9-]*@[1-9][0-9]*$"
SLOT_KEY_PATTERN = r"^[^{}\s]+$"
# map.md §2.1: `\d` as published; the checker matches ASCII digits only (map.md §2.1 implementation note).
DATE_PATTERN = r"^\d{4}-\d{2}-\d{2}$"

KNOWN_HARNESSES = ("claude-code", "codex")


@dataclass(frozen=True)
class Lex:
    """What a string (or number) is called in messages and hovers: "kebab-case id", "skill name", ….

    `nonempty` marks the capability / harness-id kind of check (graph.md §4.2: not a string or empty is
    one issue saying a non-empty string was expected); `examples` are published in the JSON Schema.
    """

    expected: str
    nonempty: bool = False
    examples: tuple[str, ...] = ()


@dataclass(frozen=True)
class Ref:
    """The string names an object of another kind: node, edge, loop, group, policy, lane, session,
    person, node-or-group, session-or-person, or scope (a policy scope `node:X` / `loop:X` / `edge:X`)."""

    kind: str


@dataclass(frozen=True)
class Defines:
    """The string is the id of the object that holds it (a node's `id`, a lane's `id`, …)."""

    kind: str


@dataclass(frozen=True)
class Keys:
    """The keys of a record: their pattern, what a key is called in messages, what it refers to."""

    pattern: str | None = None
    role: str = "key"
    ref: str | None = None


@dataclass(frozen=True)
class Title:
    """What a record, an array or an alternatives place is called in messages ("array of Node", …)."""

    expected: str


class GroophModel(BaseModel):
    """Base of every document object: unknown keys are allowed and kept (graph.md §1.2)."""

    # defer_build: the validators are built on first use only; the checker never needs them.
    model_config = ConfigDict(extra="allow", populate_by_name=True, defer_build=True)


def pattern_str(pattern: str, expected: str, *extra) -> type:
    """A string type that must match `pattern`, called `expected` in messages."""
    return Annotated[str, StringConstraints(pattern=pattern), Lex(expected), *extra]  # type: ignore[return-value]


Id = pattern_str(ID_PATTERN, "kebab-case id")
NodeRef = pattern_str(ID_PATTERN, "kebab-case id", Ref("node"))
EdgeRef = pattern_str(ID_PATTERN, "kebab-case id", Ref("edge"))
NodeOrGroupRef = pattern_str(ID_PATTERN, "kebab-case id", Ref("node-or-group"))
LaneRef = pattern_str(ID_PATTERN, "kebab-case id", Ref("lane"))
EndRef = pattern_str(ID_PATTERN, "kebab-case id", Ref("session-or-person"))


def id_of(kind: str) -> type:
    """The `id` field of an object of `kind`."""
    return pattern_str(ID_PATTERN, "kebab-case id", Defines(kind))


SkillName = pattern_str(NAME_TOKEN_PATTERN, "skill name")
ModelName = pattern_str(NAME_TOKEN_PATTERN, "model name")
OneLine = pattern_str(ONE_LINE_PATTERN, "one line of text")
KNOWN_CAPABILITIES = ("read-files", "edit-files", "write-outputs", "run-commands", "run-tests", "web", "spawn-agents")
KNOWN_OUTCOMES = ("pass", "fail", "halt", "invalid-evidence", "started", "ending")

Capability = Annotated[
    str,
    StringConstraints(min_length=1, pattern=ONE_LINE_PATTERN),
    Lex("capability", nonempty=True, examples=KNOWN_CAPABILITIES),
]
HarnessId = Annotated[
    str, StringConstraints(min_length=1), Lex("harness id", nonempty=True, examples=KNOWN_HARNESSES)
]
NonEmptyStr = Annotated[str, StringConstraints(min_length=1)]
Outcome = Annotated[str, StringConstraints(min_length=1), Lex("string", examples=KNOWN_OUTCOMES)]
Scope = pattern_str(SCOPE_PATTERN, "scope (graph | loop:<id> | node:<id> | edge:<id>)", Ref("scope"))
NoteAt = pattern_str(NOTE_AT_PATTERN, "location (graph | node:<id> | edge:<id> | loop:<id>)")
Source = pattern_str(SOURCE_PATTERN, "<template id>@<version>")
Date = pattern_str(DATE_PATTERN, "date as YYYY-MM-DD")

NonNegInt = Annotated[int, annotated_types.Ge(0)]
PositiveInt = Annotated[int, annotated_types.Ge(1)]
NonNegNumber = Annotated[float, annotated_types.Ge(0)]


# ---- markers of the neighbouring formats (spec/workflow.md §2, board.md §2) ---------------------------


class SerdeModel(BaseModel):
    """Base of a serde struct of the neighbouring formats: unknown keys are ignored (W_UNKNOWN_KEY); only
    the wire names (`where`, `for`) are read."""

    model_config = ConfigDict(extra="allow", defer_build=True)


class ClosedModel(BaseModel):
    """A serde struct with `deny_unknown_fields`: an unknown key is an error."""

    model_config = ConfigDict(extra="forbid", defer_build=True)


@dataclass(frozen=True)
class ScalarText:
    """A string field of a YAML document that serde_yaml fills from any non-null scalar, as its text
    (workflow.md §2: `stored_as: 1` is the string "1")."""


@dataclass(frozen=True)
class Complaint:
    """What the reader says when a value does not have this shape, in the seed's own words
    ("an expression is a string or a literal")."""

    text: str


@dataclass(frozen=True)
class UnitEnum:
    """A string that the seed reads as a unit enum with a catch-all (`#[serde(other)]`: Lane, WorkspaceKind):
    serde_json also takes it written as a one-key object with a null value (`{"ready": null}`, workflow.md §0)."""
