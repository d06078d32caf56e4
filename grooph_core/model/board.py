"""Pydantic models of a task board (`*.board.json`, spec/board.md §2).

Transcribed from the seed (`seeds/003_ca5f1ab61fbd5a82.txt`, `workflow/mod.rs`), which wins on every fact
of the model; the field documentation is the seed's. No type refuses unknown keys (serde ignores them:
W_UNKNOWN_KEY). A field that is an `Option` in the seed is `Optional` (workflow.md §0: `null` is absence);
a field with a serde default has it and takes no null.
`Lane` and `WorkspaceKind` have a catch-all (`#[serde(other)] Unknown`): any word reads, an unlisted one
as `unknown`; `Verdict` has none.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, Optional

import annotated_types
from pydantic import ConfigDict, Field, Strict

from grooph_core.model.markers import Defines, Keys, Lex, Ref, SerdeModel, Title, UnitEnum

LANES = {
    "triage": "Filed, not yet accepted onto the board.",
    "todo": "Accepted, waiting on a dependency.",
    "scheduled": "Parked until a time.",
    "ready": "Claimable by its assignee.",
    "running": "Claimed and being worked.",
    "blocked": "Stopped on something a human decides.",
    "review": "Handed off, waiting for a reviewer's verdict.",
    "done": "Finished.",
    "archived": "Kept for the record only.",
    "unknown": "A lane this model does not name.",
}
# The board's own nine (Hermes Kanban's statuses): every lane but the catch-all.
KANBAN_STATUSES = tuple(w for w in LANES if w != "unknown")
WORKSPACE_KINDS = {
    "scratch": "A fresh directory, deleted when the task completes.",
    "dir": "An existing directory, kept.",
    "worktree": "A git worktree of the project, kept.",
    "unknown": "A kind this model does not name.",
}
VERDICTS = {
    "requested": "The implementer asked for review.",
    "approved": "The reviewer accepted the handoff.",
    "changes_requested": "The reviewer sent it back to the implementer.",
    "escalated": "The reviewer raised it to a human.",
}
# A lane in which a dependency parent counts as finished (board.md §3 W_BOARD_READY_TOO_SOON).
FINISHED_LANES = ("done", "archived")

# Catch-all enums: any string reads (an unlisted word as `unknown`); the listed words are examples.
Lane = Annotated[str, Lex("lane", examples=tuple(LANES)), UnitEnum()]
WorkspaceKind = Annotated[str, Lex("workspace kind", examples=tuple(WORKSPACE_KINDS)), UnitEnum()]
Verdict = Literal[tuple(VERDICTS)]  # type: ignore[valid-type]
Timestamp = Annotated[str, Lex("RFC 3339 timestamp")]
TaskRef = Annotated[str, Ref("task")]
# serde's i64: a JSON integer (never `2.0`) in the signed 64-bit range.
I64 = Annotated[int, Strict(), annotated_types.Ge(-(2**63)), annotated_types.Le(2**63 - 1)]


class Workspace(SerdeModel):
    """Where a task is worked."""

    model_config = ConfigDict(title="Workspace")
    kind: WorkspaceKind = Field(description="The kind.")
    path: Optional[str] = Field(None, description="The directory, when pinned or known.")
    branch: Optional[str] = Field(None, description="The branch a worktree is on.")


class Dependency(SerdeModel):
    """`parent` must be done before `child` is ready."""

    model_config = ConfigDict(title="Dependency")
    parent: TaskRef = Field(description="The task that goes first.")
    child: TaskRef = Field(description="The task that waits.")


class Handoff(SerdeModel):
    """What an attempt handed to the next reader: the closeout in prose and the evidence as data."""

    model_config = ConfigDict(title="Handoff")
    summary: Optional[str] = Field(None, description="The human-readable closeout.")
    metadata: Optional[Any] = Field(
        None, description="The machine-readable evidence (changed files, verification, residual risk), as given.")


class Review(SerdeModel):
    """One review step on a task."""

    model_config = ConfigDict(title="Review")
    verdict: Verdict = Field(description="The verdict.")
    by: Optional[str] = Field(None, description="The profile that gave it.")
    reason: Optional[str] = Field(None, description="Why, in the reviewer's words.")
    at: Optional[Timestamp] = Field(None, description="When, RFC3339.")


class AttemptSession(SerdeModel):
    """The session a dispatcher launched for an attempt, as the dispatcher recorded it.

    Never as the session reported itself."""

    model_config = ConfigDict(title="AttemptSession")
    surface: Optional[str] = Field(
        None, description="`pane` (an interactive session kept open) or `headless` (one query).")
    id: Optional[str] = Field(None, description="The harness's own session id, chosen at launch where the harness takes one.")
    harness: Optional[str] = Field(None, description="The harness that runs it.")
    machine: Optional[str] = Field(None, description="The machine it runs on, in the form session addresses use.")
    pane: Optional[str] = Field(None, description="The terminal pane it runs in.")
    address: Optional[str] = Field(None, description="Its supercode address (`sc:<machine>:<harness>:<id>`).")
    mode: Optional[str] = Field(
        None, description="How it began: `fresh`, `resume` (the card's earlier session) or `adopt` (found live).")
    pid: Optional[I64] = Field(None, description="The worker's process, for a headless session on the dispatcher's machine.")


class Attempt(SerdeModel):
    """One run at a task: a profile claimed it, worked it in a session, and ended.

    It ends with a handoff, a block, or an error."""

    model_config = ConfigDict(title="Attempt")
    id: Annotated[str, Defines("attempt")] = Field(description="The id, unique on the board.")
    profile: Optional[str] = Field(None, description="The profile that ran it.")
    step: Optional[str] = Field(None, description="The workflow step it ran, when the task has steps.")
    status: str = Field(description="The board's status word for the run.")
    started_at: Optional[Timestamp] = Field(None, description="Start, RFC3339.")
    ended_at: Optional[Timestamp] = Field(None, description="End, RFC3339, when ended.")
    outcome: Optional[str] = Field(None, description="How it ended, in the board's words.")
    handoff: Optional[Handoff] = Field(None, description="What it handed off.")
    error: Optional[str] = Field(None, description="The error, when it failed.")
    session: Optional[AttemptSession] = Field(
        None, description="The session the dispatcher launched for it, when one recorded it.")


class Comment(SerdeModel):
    """A note on the task's thread: the inter-agent protocol, read by every later attempt."""

    model_config = ConfigDict(title="Comment")
    author: str = Field(description="Who wrote it (a profile, or a human).")
    body: str = Field(description="The note.")
    at: Optional[Timestamp] = Field(None, description="When, RFC3339.")


class Task(SerdeModel):
    """One task on a board."""

    model_config = ConfigDict(title="Task")
    id: Annotated[str, Defines("task")] = Field(description="The id (the board's own token).")
    title: str = Field(description="The title.")
    body: Optional[str] = Field(
        None, description="The body: the brief, and the acceptance where the board treats it as such.")
    assignee: Optional[str] = Field(None, description="The profile that works it.")
    machine: Optional[str] = Field(None, description="The enrolled machine its session runs on.")
    subtask_of: Optional[TaskRef] = Field(
        None, description="The arc this card is a subtask of: worked by the arc's session, never started on its own.")
    lane: Lane = Field(description="Where it stands.")
    priority: I64 = Field(0, description="Higher first.")
    tenant: Optional[str] = Field(None, description="A namespace within the board.")
    idempotency_key: Optional[str] = Field(
        None, description="The key automation filed it under, so a retry finds it instead of duplicating it.")
    workspace: Workspace = Field(description="Where it is worked.")
    skills: list[str] = Field(default_factory=list, description="Skills pinned to it beyond the assignee's own.")
    model: Optional[str] = Field(None, description="Model override.")
    provider: Optional[str] = Field(None, description="Provider override.")
    created_by: Optional[str] = Field(None, description="Who filed it (a profile, or a human).")
    created_at: Optional[Timestamp] = Field(None, description="Filed, RFC3339.")
    started_at: Optional[Timestamp] = Field(None, description="First claimed, RFC3339.")
    completed_at: Optional[Timestamp] = Field(None, description="Done, RFC3339.")
    result: Optional[str] = Field(None, description="The result recorded on completion, in the board's words.")
    attempts: list[Attempt] = Field(default_factory=list, description="Every run at it, oldest first.")
    reviews: list[Review] = Field(default_factory=list, description="Every review step, oldest first.")
    comments: list[Comment] = Field(default_factory=list, description="The thread, oldest first.")
    residue: Annotated[dict[str, Any], Title("object")] = Field(
        default_factory=dict, description="Source fields the record does not model, verbatim.")


class Board(SerdeModel):
    """One board: a queue of tasks with its own store, workspaces and dispatcher."""

    model_config = ConfigDict(title="Board")
    slug: str = Field(description="The slug (the board's directory name).")
    name: Optional[str] = Field(None, description="The display name, when the board has one.")
    root: Annotated[str, Lex("path")] = Field(description="The board's directory.")
    tasks: Annotated[dict[str, Task], Title("map of task id to Task"), Keys(role="task id")] = Field(
        description="The tasks, by id.")
    dependencies: list[Dependency] = Field(default_factory=list, description="The dependency edges.")
