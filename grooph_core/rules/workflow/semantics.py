"""What the workflow rules read of a document (workflow.md §2, §4): the named things and every transition.

`read_workflow(value, previous)` never raises on any value. `previous`, the reading of the version
before (issue 24), hands on what the rules found in each status (`rules/workflow/memo`). A part that
does not have its model's shape (the editor runs the rules on broken documents too) is `None`, and a
rule that needs it says nothing rather than guessing: with no readable `statuses`, no target is called
unknown.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Iterator

from grooph_core.rules.workflow.memo import Memo, following
from grooph_core.source.text import pointer_join


def as_text(v: object) -> str | None:
    """A string field's value as the engine holds it (the reading made every scalar there its text,
    rules/serde_shape); None for what is not a string (a list, a mapping, null)."""
    return v if type(v) is str else None


def _mapping(v: object) -> dict | None:
    return v if type(v) is dict else None


def _absent_or_mapping(v: object) -> dict | None:
    """A field that defaults to an empty map: null/absent is {}, anything but a mapping unreadable."""
    return {} if v is None else _mapping(v)


@dataclass(frozen=True)
class Transition:
    """One transition of the document: where it is and what it says."""

    pointer: str
    value: dict
    card: bool  # a card transition (its target names a status) or a run-machine one (a run state)

    @property
    def target(self) -> str | None:
        return as_text(self.value.get("target"))


@dataclass(frozen=True)
class WorkflowDoc:
    """The value and its named parts; None where the part is unreadable."""

    value: dict
    statuses: dict | None
    roles: dict | None
    params: dict | None
    verbs: dict | None
    on: dict | None
    run: dict | None  # the run machine, when given and a mapping
    run_states: dict | None
    run_roles: dict | None
    memo: Memo = field(default_factory=Memo, compare=False, repr=False)  # what the rules found per status

    @cached_property
    def status_names(self) -> tuple[str, ...]:
        """The statuses' names in document order (none when `statuses` is unreadable)."""
        return tuple(self.statuses or ())

    @property
    def has_run(self) -> bool:
        return self.run is not None

    def transitions(self) -> Iterator[Transition]:
        """Every transition in the document, in text order of its lists: `initial`, `verbs`, the
        workflow's `on`, each status's `on`/`always`/`after`, then the run machine's `on`, `outcomes`
        and each run state's `on`/`always`/`after`."""
        yield from self.head_transitions()
        for name, status in (self.statuses or {}).items():
            yield from status_transitions(status, pointer_join("/statuses", name), True)
        yield from self.run_transitions()

    def head_transitions(self) -> Iterator[Transition]:
        """The transitions before the statuses': `initial`, `verbs`, the workflow's `on`."""
        yield from _items(self.value.get("initial"), "/initial", True)
        for name, ts in (self.verbs or {}).items():
            yield from _items(ts, pointer_join("/verbs", name), True)
        for name, ts in (self.on or {}).items():
            yield from _items(ts, pointer_join("/on", name), True)

    def run_transitions(self) -> Iterator[Transition]:
        """The run machine's transitions (after the statuses'): its `on`, `outcomes`, each state's."""
        if self.run is not None:
            for event, ts in (_absent_or_mapping(self.run.get("on")) or {}).items():
                yield from _items(ts, pointer_join("/run/on", event), False)
            for outcome, ts in (_absent_or_mapping(self.run.get("outcomes")) or {}).items():
                yield from _items(ts, pointer_join("/run/outcomes", outcome), True)
            for name, state in (self.run_states or {}).items():
                yield from status_transitions(state, pointer_join("/run/states", name), False)


def status_transitions(status: object, base: str, card: bool) -> Iterator[Transition]:
    """A status's (or run state's) transitions: `on` by event, then `always`, then `after`."""
    if type(status) is not dict:
        return
    for event, ts in (_absent_or_mapping(status.get("on")) or {}).items():
        yield from _items(ts, pointer_join(base, "on", event), card)
    yield from _items(status.get("always"), base + "/always", card)
    yield from _items(status.get("after"), base + "/after", card)


def transition_lists(status: object) -> list[tuple[tuple[str, ...], list]]:
    """A status's lists of transitions, each with where it stands under the status (("on", event),
    ("always",), ("after",)), in document order: `on` by event, then `always`, then `after`."""
    if type(status) is not dict:
        return []
    on = status.get("on")
    lists = [(("on", event), ts) for event, ts in on.items() if type(ts) is list] if type(on) is dict else []
    for key in ("always", "after"):
        ts = status.get(key)
        if type(ts) is list:
            lists.append(((key,), ts))
    return lists


def status_lists(status: object) -> list:
    """A status's lists of transitions (those that are lists), in the order of `transition_lists`."""
    return [ts for _, ts in transition_lists(status)]


def status_targets(status: object) -> list[str]:
    """Every target a status's transitions name (a string), templates too, in document order."""
    return [t["target"] for ts in status_lists(status) for t in ts if type(t) is dict and type(t.get("target")) is str]


def _items(ts: object, base: str, card: bool) -> Iterator[Transition]:
    if type(ts) is list:
        for i, t in enumerate(ts):
            if type(t) is dict:
                yield Transition(f"{base}/{i}", t, card)


def transition_list(ts: object, base: str, card: bool = True) -> list[Transition]:
    """The readable transitions of one list."""
    return list(_items(ts, base, card))


def read_workflow(value: object, previous: WorkflowDoc | None = None) -> WorkflowDoc:
    """The document the rules read (any value; a non-mapping reads as an empty workflow). `previous`: the
    reading of the version before, whose per-status findings the rules may reuse (`memo.per_status`)."""
    v = value if type(value) is dict else {}
    run = v.get("run")
    run = run if type(run) is dict else None
    return WorkflowDoc(
        value=v,
        statuses=_mapping(v.get("statuses")),
        roles=_absent_or_mapping(v.get("roles")),
        params=_absent_or_mapping(v.get("params")),
        verbs=_absent_or_mapping(v.get("verbs")),
        on=_absent_or_mapping(v.get("on")),
        run=run,
        run_states=_absent_or_mapping(run.get("states")) if run is not None else None,
        run_roles=_absent_or_mapping(run.get("roles")) if run is not None else None,
        memo=following(previous.memo if previous is not None else None),
    )
