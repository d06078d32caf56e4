"""W_BOARD_TIMESTAMP (board.md §2, §3): a timestamp that is not RFC 3339, or an end before its start
(an attempt's `ended_at` before its `started_at`, a task's `completed_at` before its `created_at`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator

from grooph_core.issues import Facts, Issue, make
from grooph_core.rules.board.semantics import BoardDoc
from grooph_core.rules.timestamps import parse_rfc3339 as rfc3339

@dataclass(frozen=True)
class BoardTimestamp(Facts):
    """W_BOARD_TIMESTAMP: the `problem`, "format" (not RFC 3339) or "order" (before its start)."""

    code = "W_BOARD_TIMESTAMP"
    problem: str


_TASK = ("created_at", "started_at", "completed_at")
_ATTEMPT = ("started_at", "ended_at")


def _stamps(doc: BoardDoc):
    """(holder, name, value, start name or None, start value) of every timestamp, in document order; the
    holder is the task's pointer, or (the task's pointer, list name, index) for an attempt, review or
    comment (`_pointer` joins it only for a finding: most timestamps have none)."""
    for _, p, task in doc.task_items():
        for name in _TASK:
            if task.get(name) is not None:
                start = "created_at" if name == "completed_at" else None
                yield p, name, task[name], start, task.get(start) if start else None
        for list_name, fields in (("attempts", _ATTEMPT), ("reviews", ("at",)), ("comments", ("at",))):
            items = task.get(list_name)
            if type(items) is not list:
                continue
            for i, item in enumerate(items):
                if type(item) is not dict:
                    continue
                for name in fields:
                    if item.get(name) is not None:
                        start = "started_at" if name == "ended_at" else None
                        yield (p, list_name, i), name, item[name], start, item.get(start) if start else None


def _pointer(holder, name: str) -> str:
    return f"{holder}/{name}" if type(holder) is str else f"{holder[0]}/{holder[1]}/{holder[2]}/{name}"


def timestamp_issues(doc: BoardDoc) -> Iterator[Issue]:
    read: dict[str, object] = {}  # each text read once (a start is read as itself and as its end's start)

    def parse_rfc3339(s: object):
        if type(s) is not str:
            return None
        t = read.get(s, read)
        if t is read:
            t = read[s] = rfc3339(s)
        return t

    for holder, name, v, start, start_v in _stamps(doc):
        if type(v) is not str:
            continue
        t = parse_rfc3339(v)
        if t is None:
            p = _pointer(holder, name)
            yield make("W_BOARD_TIMESTAMP", f'"{v}" is not an RFC 3339 timestamp (like 2025-01-31T09:30:00Z)',
                       (p,), (p,), facts=BoardTimestamp("format"))
            continue
        s = parse_rfc3339(start_v)
        if s is not None and t < s:
            p = _pointer(holder, name)
            yield make("W_BOARD_TIMESTAMP", f"{name} {v} is before {start} {start_v}",
                       (p,), (p,), related=((_pointer(holder, start), "the start"),), facts=BoardTimestamp("order"))
