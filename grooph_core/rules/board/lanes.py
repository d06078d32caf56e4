"""The board's warnings about where tasks stand (board.md §3): words the catch-all enums read as
`unknown`, tasks ready before their parents are done, and done tasks without a date (or dated ones not
done). The listed words come from the model (`model.board`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator

from grooph_core.issues import Facts, Issue, Named, make
from grooph_core.model.board import FINISHED_LANES, LANES, WORKSPACE_KINDS
from grooph_core.rules.board.semantics import BoardDoc
from grooph_core.rules.board.tasks import did_you_mean_hint

@dataclass(frozen=True)
class BoardUnknownLane(Named):
    """W_BOARD_UNKNOWN_LANE: the `name` the issue is about."""

    code = "W_BOARD_UNKNOWN_LANE"


@dataclass(frozen=True)
class BoardUnknownWorkspaceKind(Named):
    """W_BOARD_UNKNOWN_WORKSPACE_KIND: the `name` the issue is about."""

    code = "W_BOARD_UNKNOWN_WORKSPACE_KIND"


@dataclass(frozen=True)
class BoardReadyTooSoon(Facts):
    """W_BOARD_READY_TOO_SOON: `task`, the task key."""

    code = "W_BOARD_READY_TOO_SOON"
    task: str


@dataclass(frozen=True)
class BoardDoneUndated(Facts):
    """W_BOARD_DONE_UNDATED: `task`, the task key."""

    code = "W_BOARD_DONE_UNDATED"
    task: str


_STARTED_LANES = ("ready", "running")


def unknown_lanes(doc: BoardDoc) -> Iterator[Issue]:
    """W_BOARD_UNKNOWN_LANE: a lane word not listed (it reads as `unknown`)."""
    for _, p, task in doc.task_items():
        lane = task.get("lane")
        if type(lane) is str and lane not in LANES:
            yield make("W_BOARD_UNKNOWN_LANE", f'the lane "{lane}" is not one of {", ".join(LANES)}; it reads as '
                       f"unknown{did_you_mean_hint(lane, LANES)}", (p + "/lane",), (p + "/lane",), facts=BoardUnknownLane(lane))


def unknown_workspace_kinds(doc: BoardDoc) -> Iterator[Issue]:
    """W_BOARD_UNKNOWN_WORKSPACE_KIND: a workspace kind not listed (it reads as `unknown`)."""
    for _, p, task in doc.task_items():
        ws = task.get("workspace")
        kind = ws.get("kind") if type(ws) is dict else None
        if type(kind) is str and kind not in WORKSPACE_KINDS:
            q = p + "/workspace/kind"
            yield make("W_BOARD_UNKNOWN_WORKSPACE_KIND", f'the workspace kind "{kind}" is not one of '
                       f'{", ".join(WORKSPACE_KINDS)}; it reads as unknown{did_you_mean_hint(kind, WORKSPACE_KINDS)}', (q,), (q,), facts=BoardUnknownWorkspaceKind(kind))


def _live_attempt(task: dict) -> bool:
    attempts = task.get("attempts")
    return type(attempts) is list and any(type(a) is dict and a.get("ended_at") is None for a in attempts)


def ready_too_soon(doc: BoardDoc) -> Iterator[Issue]:
    """W_BOARD_READY_TOO_SOON: a task in ready or running, or with a live attempt, one of whose
    dependency parents is not done or archived. One per task, at its `lane`."""
    if doc.tasks is None:
        return
    parents: dict[str, list[str]] = {}
    for d in doc.dependencies:
        if type(d.parent) is str and type(d.child) is str and d.parent in doc.tasks:
            parents.setdefault(d.child, []).append(d.parent)
    for key, p, task in doc.task_items():
        lane = task.get("lane")
        started = lane in _STARTED_LANES or _live_attempt(task)
        if not started or key not in parents:
            continue
        waiting = []
        for parent in dict.fromkeys(parents[key]):
            pt = doc.tasks[parent]
            plane = pt.get("lane") if type(pt) is dict else None
            if type(plane) is str and plane not in FINISHED_LANES:
                waiting.append(f"{parent} ({plane})")
        if waiting:
            how = f"is {lane}" if lane in _STARTED_LANES else "has a live attempt"
            parents_are = f"parent {waiting[0]} is" if len(waiting) == 1 else f"parents {', '.join(waiting)} are"
            yield make("W_BOARD_READY_TOO_SOON", f"{key} {how}, but its {parents_are} not done: a parent must be "
                       "done before its child is ready", (p + "/lane",), (p + "/lane",), facts=BoardReadyTooSoon(key))


def done_undated(doc: BoardDoc) -> Iterator[Issue]:
    """W_BOARD_DONE_UNDATED: done without `completed_at`, or `completed_at` while not done or archived."""
    for key, p, task in doc.task_items():
        lane = task.get("lane")
        completed = task.get("completed_at") is not None
        if lane == "done" and not completed:
            yield make("W_BOARD_DONE_UNDATED", f"{key} is done but has no completed_at", (p + "/lane",),
                       (p + "/lane",), facts=BoardDoneUndated(key))
        elif completed and type(lane) is str and lane not in FINISHED_LANES:
            yield make("W_BOARD_DONE_UNDATED", f"{key} has a completed_at but stands in {lane}, not done or "
                       "archived", (p + "/lane",), (p + "/lane",), facts=BoardDoneUndated(key))
