"""What the engine accepts but is almost surely a mistake (workflow.md §3.2), one function per code.

The card-status warnings are about the keys of `statuses` only, never run states; `W_WF_UNKNOWN_BY_ROLE`
is about every transition. Each rule yields in document order (the value's order is the text's).
"""

from __future__ import annotations

from dataclasses import dataclass
import re
from typing import Iterator

from grooph_core.issues import Facts, Issue, Named, make
from grooph_core.model.compiled import root_type
from grooph_core.model.workflow import ENGINE_SENDERS, KANBAN_STATUSES
from grooph_core.rules.serde_keys import unknown_key_issues
from grooph_core.rules.workflow.check import is_template, suggestion
from grooph_core.rules.workflow.semantics import WorkflowDoc, as_text
from grooph_core.source.text import did_you_mean, pointer_join

@dataclass(frozen=True)
class WfResumeAsUnknown(Named):
    """W_WF_RESUME_AS_UNKNOWN: the `name` the issue is about."""

    code = "W_WF_RESUME_AS_UNKNOWN"


@dataclass(frozen=True)
class WfUnreachableStatus(Named):
    """W_WF_UNREACHABLE_STATUS: the `name` the issue is about."""

    code = "W_WF_UNREACHABLE_STATUS"


@dataclass(frozen=True)
class WfUnknownParam(Facts):
    """W_WF_UNKNOWN_PARAM: `names`, the unknown parameter names."""

    code = "W_WF_UNKNOWN_PARAM"
    names: tuple[str, ...]


@dataclass(frozen=True)
class WfUnknownRecurringRole(Named):
    """W_WF_UNKNOWN_RECURRING_ROLE: the `name` the issue is about."""

    code = "W_WF_UNKNOWN_RECURRING_ROLE"


@dataclass(frozen=True)
class WfUnknownByRole(Named):
    """W_WF_UNKNOWN_BY_ROLE: the `name` the issue is about."""

    code = "W_WF_UNKNOWN_BY_ROLE"


@dataclass(frozen=True)
class WfStartUnhandled(Named):
    """W_WF_START_UNHANDLED: the `name` the issue is about."""

    code = "W_WF_START_UNHANDLED"


@dataclass(frozen=True)
class WfStoredAsUnknown(Named):
    """W_WF_STORED_AS_UNKNOWN: the `name` the issue is about."""

    code = "W_WF_STORED_AS_UNKNOWN"


PARAM_USE = re.compile(r"params\.([A-Za-z_][A-Za-z0-9_]*)")


def unknown_keys(doc: WorkflowDoc) -> list[Issue]:
    """W_UNKNOWN_KEY: keys serde ignores (did-you-mean among the type's keys)."""
    return unknown_key_issues(doc.value, root_type("workflow"))


def resume_as_unknown(doc: WorkflowDoc) -> Iterator[Issue]:
    """W_WF_RESUME_AS_UNKNOWN: a status's `resume_as` names no status."""
    if doc.statuses is None:
        return
    for name, s in doc.statuses.items():
        target = as_text(s.get("resume_as")) if type(s) is dict else None
        if target is not None and target not in doc.statuses:
            p = pointer_join("/statuses", name, "resume_as")
            yield make("W_WF_RESUME_AS_UNKNOWN", f"{name}: resume_as names no status {target} (resuming such a card "
                       f"fails){suggestion(target, doc.statuses)}", (p,), (p,), facts=WfResumeAsUnknown(target))


def unreachable_statuses(doc: WorkflowDoc) -> Iterator[Issue]:
    """W_WF_UNREACHABLE_STATUS: no card transition targets the status and no `resume_as` names it;
    nothing is said when a card transition targets a `{{…}}` template (it may reach any status)."""
    if doc.statuses is None:
        return
    reached: set[str] = set()
    for t in doc.transitions():
        if not t.card:
            continue
        target = t.target
        if target is not None and is_template(target):
            return
        if target is not None:
            reached.add(target)
    for s in doc.statuses.values():
        if type(s) is dict and as_text(s.get("resume_as")) is not None:
            reached.add(as_text(s.get("resume_as")))  # type: ignore[arg-type]
    for name in doc.statuses:
        if name not in reached:
            p = pointer_join("/statuses", name)
            yield make("W_WF_UNREACHABLE_STATUS", f"no transition reaches the status {name}: no card transition "
                       "targets it and no resume_as names it", (p,), (p,), on_key=True, facts=WfUnreachableStatus(name))


def unknown_params(doc: WorkflowDoc) -> Iterator[Issue]:
    """W_WF_UNKNOWN_PARAM: a string value (not a key, not a description) reading `params.NAME` where
    NAME is not a key of `params`; one issue per string, naming every unknown NAME."""
    if doc.params is None:
        return
    stack: list[tuple[str, object]] = [("", doc.value)]
    while stack:
        p, v = stack.pop()
        if type(v) is dict:
            stack.extend((pointer_join(p, k), x) for k, x in reversed(list(v.items())) if k != "description")
        elif type(v) is list:
            stack.extend((f"{p}/{i}", x) for i, x in reversed(list(enumerate(v))))
        elif type(v) is str and "params." in v:
            unknown = list(dict.fromkeys(n for n in PARAM_USE.findall(v) if n not in doc.params))
            if unknown:
                named = ", ".join(n + (f" (did you mean {h}?)" if (h := did_you_mean(n, list(doc.params))) else "")
                                  for n in unknown)
                declared = ", ".join(doc.params) or "none"
                yield make("W_WF_UNKNOWN_PARAM", f"no param {named}; params declares {declared}", (p,), (p,), facts=WfUnknownParam(tuple(unknown)))


def unknown_recurring_role(doc: WorkflowDoc) -> Iterator[Issue]:
    """W_WF_UNKNOWN_RECURRING_ROLE: `run.recurring_role` names no run specification."""
    if doc.run is None or doc.run_roles is None:
        return
    name = as_text(doc.run.get("recurring_role")) if doc.run.get("recurring_role") is not None else None
    if name is not None and name not in doc.run_roles:
        p = "/run/recurring_role"
        yield make("W_WF_UNKNOWN_RECURRING_ROLE", f"no run specification {name}{suggestion(name, doc.run_roles)}",
                   (p,), (p,), facts=WfUnknownRecurringRole(name))


def unknown_by_roles(doc: WorkflowDoc) -> Iterator[Issue]:
    """W_WF_UNKNOWN_BY_ROLE: a transition's `by` names neither a role nor `platform` or `manager`."""
    if doc.roles is None:
        return
    known = list(doc.roles) + list(ENGINE_SENDERS)
    found = []
    for t in doc.transitions():
        by = t.value.get("by")
        if type(by) is not list:
            continue
        for i, r in enumerate(by):
            name = as_text(r)
            if name is not None and name not in known:
                p = f"{t.pointer}/by/{i}"
                found.append(make("W_WF_UNKNOWN_BY_ROLE", f"by names no role {name} (the roles: "
                                  f"{', '.join(known)}){suggestion(name, known)}", (p,), (p,), facts=WfUnknownByRole(name)))
    yield from found


def start_unhandled(doc: WorkflowDoc) -> Iterator[Issue]:
    """W_WF_START_UNHANDLED: no status's `on`, no workflow `on` and no verb handles `dispatch.start`."""
    dispatch = doc.value.get("dispatch")
    start = as_text(dispatch.get("start")) if type(dispatch) is dict else None
    if start is None or doc.statuses is None or doc.on is None or doc.verbs is None:
        return
    if start in doc.on or start in doc.verbs:
        return
    for s in doc.statuses.values():
        if type(s) is dict and type(s.get("on")) is dict and start in s["on"]:
            return
        if type(s) is dict and s.get("on") is not None and type(s.get("on")) is not dict:
            return  # a status's events are unreadable: it may handle it
    events = sorted({e for s in doc.statuses.values() if type(s) is dict and type(s.get("on")) is dict for e in s["on"]}
                    | set(doc.on) | set(doc.verbs))
    p = "/dispatch/start"
    yield make("W_WF_START_UNHANDLED", f"no status, workflow on or verb handles the start event {start}"
               f"{suggestion(start, events)}: the dispatcher can start nothing", (p,), (p,), facts=WfStartUnhandled(start))


def stored_as_places(doc: WorkflowDoc) -> list[tuple[str, object]]:
    """(pointer, value) of every place that names what kanban.db stores: a status's `stored_as`, a
    storage rule's `status` (W_WF_STORED_AS_UNKNOWN; completion offers KANBAN_STATUSES there)."""
    places: list[tuple[str, object]] = []
    for name, s in (doc.statuses or {}).items():
        if type(s) is dict and s.get("stored_as") is not None:
            places.append((pointer_join("/statuses", name, "stored_as"), s["stored_as"]))
    rules = doc.value.get("stored_as")
    if type(rules) is list:
        for i, r in enumerate(rules):
            if type(r) is dict and r.get("status") is not None:
                places.append((f"/stored_as/{i}/status", r["status"]))
    return places


def stored_as_unknown(doc: WorkflowDoc) -> Iterator[Issue]:
    """W_WF_STORED_AS_UNKNOWN: a `stored_as` (a status's, or a storage rule's `status`) that is not one
    of the nine statuses kanban.db holds."""
    for p, v in stored_as_places(doc):
        word = as_text(v)
        if word is not None and word not in KANBAN_STATUSES:
            yield make("W_WF_STORED_AS_UNKNOWN", f"kanban.db holds no status {word} (it holds "
                       f"{', '.join(KANBAN_STATUSES)}){suggestion(word, KANBAN_STATUSES)}", (p,), (p,), facts=WfStoredAsUnknown(word))
