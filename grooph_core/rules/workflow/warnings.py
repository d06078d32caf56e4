"""What the engine accepts but is almost surely a mistake (workflow.md §3.2), one function per code.

The card-status warnings are about the keys of `statuses` only, never run states; `W_WF_UNKNOWN_BY_ROLE`
is about every transition. Each rule yields in document order (the value's order is the text's).

What a rule finds in one status it keeps in the document's memo (`memo.per_status`, issue 24), keyed on
what else it read: a keystroke's version recomputes only the edited status. Pointers are built for
findings only.
"""

from __future__ import annotations

from dataclasses import dataclass
import re
from typing import Iterator

from grooph_core.issues import Facts, Issue, Named, make
from grooph_core.model.compiled import root_type
from grooph_core.model.workflow import ENGINE_SENDERS, KANBAN_STATUSES
from grooph_core.rules.serde_keys import member_issues, value_issues
from grooph_core.rules.workflow.check import is_template, suggestion
from grooph_core.rules.workflow.memo import per_status
from grooph_core.rules.workflow.semantics import WorkflowDoc, as_text, status_lists, status_targets, transition_lists
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
    """W_UNKNOWN_KEY: keys serde ignores (did-you-mean among the type's keys); a status's, per status."""
    root = root_type("workflow")
    out: list[Issue] = []
    for k, x in doc.value.items():
        if k == "statuses" and doc.statuses is not None:
            status = root.by_name["statuses"].type.value  # type: ignore[union-attr]
            found = per_status(doc, "unknown_keys", None,
                               lambda name, s: tuple(value_issues(status, s, pointer_join("/statuses", name))))
            for issues in found:
                out += issues
        else:
            out += member_issues(root, doc.value, k, "")
    return out


def resume_as_unknown(doc: WorkflowDoc) -> Iterator[Issue]:
    """W_WF_RESUME_AS_UNKNOWN: a status's `resume_as` names no status."""
    if doc.statuses is None:
        return
    for issues, _names in per_status(doc, "resume_as", None, lambda name, s: _resume_as(doc, name, s),
                                          lambda r: r[1]):
        yield from issues


def _resume_as(doc: WorkflowDoc, name: str, s: object) -> tuple[tuple[Issue, ...], tuple[str, ...] | None]:
    """One status's W_WF_RESUME_AS_UNKNOWN, and the status names it found (None: not found)."""
    target = as_text(s.get("resume_as")) if type(s) is dict else None
    if target is None:
        return (), ()
    if target in doc.statuses:  # type: ignore[operator]
        return (), (target,)
    p = pointer_join("/statuses", name, "resume_as")
    return (make("W_WF_RESUME_AS_UNKNOWN", f"{name}: resume_as names no status {target} (resuming such a card "
                 f"fails){suggestion(target, doc.statuses)}", (p,), (p,), facts=WfResumeAsUnknown(target)),), None


def unreachable_statuses(doc: WorkflowDoc) -> Iterator[Issue]:
    """W_WF_UNREACHABLE_STATUS: no card transition targets the status and no `resume_as` names it;
    nothing is said when a card transition targets a `{{…}}` template (it may reach any status)."""
    if doc.statuses is None:
        return
    reached: set[str] = set()
    for t in [*doc.head_transitions(), *doc.run_transitions()]:
        target = t.target
        if not t.card or target is None:
            continue
        if is_template(target):
            return
        reached.add(target)
    for targets in per_status(doc, "reached", None, _reaches):
        if targets is None:
            return
        reached.update(targets)
    for name in doc.statuses:
        if name not in reached:
            p = pointer_join("/statuses", name)
            yield make("W_WF_UNREACHABLE_STATUS", f"no transition reaches the status {name}: no card transition "
                       "targets it and no resume_as names it", (p,), (p,), on_key=True, facts=WfUnreachableStatus(name))


def _reaches(name: str, s: object) -> tuple[str, ...] | None:
    """The names one status reaches (its card transitions' targets, its `resume_as`), or None when one of
    its targets is a `{{…}}` template (a pair per status was 0.5 MB at 1M)."""
    targets = status_targets(s)
    if any(is_template(t) for t in targets):
        return None
    resume = s.get("resume_as") if type(s) is dict else None
    return tuple(targets) + ((resume,) if type(resume) is str else ())


def unknown_params(doc: WorkflowDoc) -> Iterator[Issue]:
    """W_WF_UNKNOWN_PARAM: a string value (not a key, not a description) reading `params.NAME` where
    NAME is not a key of `params`; one issue per string, naming every unknown NAME."""
    params = doc.params
    if params is None:
        return
    found: list[Issue] = []
    for k, x in doc.value.items():
        if k == "description":
            continue
        if k == "statuses" and doc.statuses is not None:
            for issues in per_status(doc, "params", tuple(params), lambda name, s: tuple(
                    _param_issues(s, ["statuses", name], params) if name != "description" else ())):
                found += issues
        else:
            found += _param_issues(x, [k], params)
    yield from found


def _param_issues(v: object, path: list, params: dict) -> list[Issue]:
    """W_WF_UNKNOWN_PARAM for the strings in `v` (standing at the segments `path`), in document order."""
    out: list[Issue] = []
    for p, text in _param_strings(v, path, []):
        unknown = list(dict.fromkeys(n for n in PARAM_USE.findall(text) if n not in params))
        if unknown:
            named = ", ".join(n + (f" (did you mean {h}?)" if (h := did_you_mean(n, list(params))) else "")
                              for n in unknown)
            declared = ", ".join(params) or "none"
            out.append(make("W_WF_UNKNOWN_PARAM", f"no param {named}; params declares {declared}", (p,), (p,),
                            facts=WfUnknownParam(tuple(unknown))))
    return out


def _param_strings(v: object, path: list, out: list) -> list[tuple[str, str]]:
    """(pointer, text) of every string holding "params." in `v`, not under a `description` key."""
    if type(v) is str:
        if "params." in v:
            out.append((pointer_join("", *path), v))
        return out
    items = v.items() if type(v) is dict else enumerate(v) if type(v) is list else ()
    for k, x in items:
        tx = type(x)
        if (tx is str and "params." not in x) or k == "description":
            continue
        if tx is str or tx is dict or tx is list:
            path.append(k)
            _param_strings(x, path, out)
            path.pop()
    return out


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
    found: list[Issue] = []
    for t in doc.head_transitions():
        found += _by_issues(t.value, t.pointer, known)
    if doc.statuses is not None:
        for issues in per_status(doc, "by_roles", tuple(known), lambda name, s: _status_by_issues(name, s, known)):
            found += issues
    for t in doc.run_transitions():
        found += _by_issues(t.value, t.pointer, known)
    yield from found


def _status_by_issues(name: str, s: object, known: list) -> tuple[Issue, ...]:
    """W_WF_UNKNOWN_BY_ROLE in one status's transitions."""
    out: list[Issue] = []
    if not any(type(t) is dict and "by" in t for ts in status_lists(s) for t in ts):
        return ()
    for where, ts in transition_lists(s):
        for i, t in enumerate(ts):
            if type(t) is dict and type(t.get("by")) is list:
                out += _by_issues(t, lambda: pointer_join("/statuses", name, *where, i), known)  # noqa: B023
    return tuple(out)


def _by_issues(t: dict, pointer, known: list) -> list[Issue]:
    """W_WF_UNKNOWN_BY_ROLE for each entry of the transition `t`'s `by` naming no role (`pointer`: the
    transition's, or a function giving it)."""
    by = t.get("by")
    if type(by) is not list:
        return []
    out = []
    for i, r in enumerate(by):
        name = as_text(r)
        if name is not None and name not in known:
            p = f"{pointer() if callable(pointer) else pointer}/by/{i}"
            out.append(make("W_WF_UNKNOWN_BY_ROLE", f"by names no role {name} (the roles: "
                            f"{', '.join(known)}){suggestion(name, known)}", (p,), (p,), facts=WfUnknownByRole(name)))
    return out


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
    return places + _rule_places(doc)


def _rule_places(doc: WorkflowDoc) -> list[tuple[str, object]]:
    """(pointer, value) of each storage rule's `status`."""
    rules = doc.value.get("stored_as")
    if type(rules) is not list:
        return []
    return [(f"/stored_as/{i}/status", r["status"]) for i, r in enumerate(rules) if type(r) is dict and r.get("status") is not None]


def stored_as_unknown(doc: WorkflowDoc) -> Iterator[Issue]:
    """W_WF_STORED_AS_UNKNOWN: a `stored_as` (a status's, or a storage rule's `status`) that is not one
    of the nine statuses kanban.db holds."""
    if doc.statuses is not None:
        for issues in per_status(doc, "stored_as", None, _status_stored_as):
            yield from issues
    for p, v in _rule_places(doc):
        yield from _stored_as_issues(p, v)


def _status_stored_as(name: str, s: object) -> tuple[Issue, ...]:
    v = s.get("stored_as") if type(s) is dict else None
    return () if v is None or v in KANBAN_STATUSES else tuple(_stored_as_issues(pointer_join("/statuses", name, "stored_as"), v))


def _stored_as_issues(p: str, v: object) -> list[Issue]:
    word = as_text(v)
    if word is None or word in KANBAN_STATUSES:
        return []
    return [make("W_WF_STORED_AS_UNKNOWN", f"kanban.db holds no status {word} (it holds "
                 f"{', '.join(KANBAN_STATUSES)}){suggestion(word, KANBAN_STATUSES)}", (p,), (p,), facts=WfStoredAsUnknown(word))]
