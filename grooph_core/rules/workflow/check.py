"""What the engine refuses (workflow.md §3.1): `Workflow::check()`, every finding instead of the first.

Each function below is one visit of `check()` (seed lines 462-537) and yields its findings in the order
`check()` meets them; `CHECK_VISITS` lists the visits in `check()`'s order, so the first issue of the
sequence is exactly the error `check()` returns. Maps are visited as a BTreeMap iterates: keys sorted by
byte order (Python's `sorted` on `str` is the same order). A target starting with `{{` is a template and
is not checked. Messages carry `check()`'s words, then our did-you-mean.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterator

from grooph_core.issues import Issue, Named, make
from grooph_core.rules.workflow.memo import keys, per_status
from grooph_core.rules.workflow.semantics import WorkflowDoc, as_text, status_targets, status_transitions, transition_list
from grooph_core.source.text import did_you_mean, pointer_join

Visit = Callable[[WorkflowDoc], Iterator[Issue]]


@dataclass(frozen=True)
class WfUnknownStatus(Named):
    """E_WF_UNKNOWN_STATUS: the `name` the issue is about."""

    code = "E_WF_UNKNOWN_STATUS"


@dataclass(frozen=True)
class WfUnknownSourceStatus(Named):
    """E_WF_UNKNOWN_SOURCE_STATUS: the `name` the issue is about."""

    code = "E_WF_UNKNOWN_SOURCE_STATUS"


@dataclass(frozen=True)
class WfNoInitialRunState(Named):
    """E_WF_NO_INITIAL_RUN_STATE: the `name` the issue is about."""

    code = "E_WF_NO_INITIAL_RUN_STATE"


@dataclass(frozen=True)
class WfUnknownRunState(Named):
    """E_WF_UNKNOWN_RUN_STATE: the `name` the issue is about."""

    code = "E_WF_UNKNOWN_RUN_STATE"


@dataclass(frozen=True)
class WfUnknownRole(Named):
    """E_WF_UNKNOWN_ROLE: the `name` the issue is about."""

    code = "E_WF_UNKNOWN_ROLE"


@dataclass(frozen=True)
class WfUnknownRunSpec(Named):
    """E_WF_UNKNOWN_RUN_SPEC: the `name` the issue is about."""

    code = "E_WF_UNKNOWN_RUN_SPEC"


def suggestion(word: str, names) -> str:
    """"; did you mean X?" when a name is close enough, else ""."""
    hint = did_you_mean(word, list(names))
    return f"; did you mean {hint}?" if hint else ""


def _sorted(d: dict | None) -> list:
    return sorted((d or {}).items())


def is_template(name: str) -> bool:
    return name.startswith("{{")


def _targets(doc: WorkflowDoc, ts: object, where: tuple, prefix: str = "") -> list[Issue]:
    """`known` over one list of card transitions (standing at the segments `where`): E_WF_UNKNOWN_STATUS
    for each target no status has."""
    statuses = doc.statuses
    if statuses is None or type(ts) is not list:
        return []
    out = []
    for i, t in enumerate(ts):
        name = t.get("target") if type(t) is dict else None
        if type(name) is str and name not in statuses and not is_template(name):
            p = pointer_join("", *where, i, "target")
            out.append(make("E_WF_UNKNOWN_STATUS", f"{prefix}no status {name}{suggestion(name, statuses)}", (p,), (p,),
                            facts=WfUnknownStatus(name)))
    return out


def initial_targets(doc: WorkflowDoc) -> Iterator[Issue]:
    """`all(&self.initial)?`"""
    yield from _targets(doc, doc.value.get("initial"), ("initial",))


def verbs(doc: WorkflowDoc) -> Iterator[Issue]:
    """For each verb (sorted): its transitions' targets, then their `from` entries."""
    for verb, ts in _sorted(doc.verbs):
        base = pointer_join("/verbs", verb)
        yield from _targets(doc, ts, ("verbs", verb))
        if doc.statuses is None:
            continue
        for t in transition_list(ts, base):
            sources = t.value.get("from")
            if type(sources) is not list:
                continue
            for i, s in enumerate(sources):
                name = as_text(s)
                if name is not None and name not in doc.statuses:
                    p = f"{t.pointer}/from/{i}"
                    yield make("E_WF_UNKNOWN_SOURCE_STATUS", f"no source status {name}{suggestion(name, doc.statuses)}",
                               (p,), (p,), facts=WfUnknownSourceStatus(name))


def run_initial(doc: WorkflowDoc) -> Iterator[Issue]:
    """`run.states.contains_key(&run.initial)`: an absent `initial` is "", a state only if one is named so."""
    if doc.run is None or doc.run_states is None:
        return
    raw = doc.run.get("initial")
    name = "" if raw is None else as_text(raw)
    if name is None or name in doc.run_states:
        return
    if raw is None:
        yield make("E_WF_NO_INITIAL_RUN_STATE", "no initial run state ; run.initial is not given (it is the empty name)",
                   ("/run/initial",), ("/run",), on_key=True, facts=WfNoInitialRunState(""))
    else:
        yield make("E_WF_NO_INITIAL_RUN_STATE",
                   f"no initial run state {name}{suggestion(name, doc.run_states)}", ("/run/initial",),
                   ("/run/initial",), facts=WfNoInitialRunState(name))


def run_outcomes(doc: WorkflowDoc) -> Iterator[Issue]:
    """`run.outcomes` (sorted): card verbs, so their targets name statuses."""
    if doc.run is None:
        return
    outcomes = doc.run.get("outcomes")
    for outcome, ts in _sorted(outcomes if type(outcomes) is dict else None):
        yield from _targets(doc, ts, ("run", "outcomes", outcome))


def run_state_targets(doc: WorkflowDoc) -> Iterator[Issue]:
    """`run.on` (sorted), then each run state's (sorted) `on` (sorted): targets name run states."""
    if doc.run is None or doc.run_states is None:
        return
    on = doc.run.get("on")
    lists = [(pointer_join("/run/on", e), ts) for e, ts in _sorted(on if type(on) is dict else None)]
    for name, state in _sorted(doc.run_states):
        if type(state) is dict and type(state.get("on")) is dict:
            lists += [(pointer_join("/run/states", name, "on", e), ts) for e, ts in _sorted(state["on"])]
    for base, ts in lists:
        for t in transition_list(ts, base, card=False):
            target = t.target
            if target is not None and not is_template(target) and target not in doc.run_states:
                p = t.pointer + "/target"
                yield make("E_WF_UNKNOWN_RUN_STATE", f"no run state {target}{suggestion(target, doc.run_states)}",
                           (p,), (p,), facts=WfUnknownRunState(target))


def run_roles(doc: WorkflowDoc) -> Iterator[Issue]:
    """Each run specification (sorted): its `role` names a key of `roles`."""
    if doc.run_roles is None or doc.roles is None:
        return
    for name, spec in _sorted(doc.run_roles):
        role = as_text(spec.get("role")) if type(spec) is dict else None
        if role is not None and role not in doc.roles:
            p = pointer_join("/run/roles", name, "role")
            yield make("E_WF_UNKNOWN_ROLE", f"run {name}: no role {role}{suggestion(role, doc.roles)}", (p,), (p,), facts=WfUnknownRole(role))


def workflow_on(doc: WorkflowDoc) -> Iterator[Issue]:
    """The workflow's `on` (sorted)."""
    for event, ts in _sorted(doc.on):
        yield from _targets(doc, ts, ("on", event))


def statuses(doc: WorkflowDoc) -> Iterator[Issue]:
    """Each status (sorted): `run_role`, its `on` (sorted), `always`, `after`, then `run.role` (a status's
    findings for the previous version stand when it is the same object: `memo.per_status`)."""
    if doc.statuses is None:
        return
    context = (keys(doc.run_roles), doc.run is None and doc.value.get("run") is None, keys(doc.roles))
    found = per_status(doc, "check", context, lambda name, s: status_findings(doc, name, s), lambda r: r[1])
    names = doc.status_names
    for k in sorted(range(len(names)), key=names.__getitem__):
        yield from found[k][0]


def status_findings(doc: WorkflowDoc, name: str, s: object) -> tuple[tuple[Issue, ...], tuple[str, ...] | None]:
    """One status's findings in `check()`'s order, and the status names they found (None: one was not
    found, so its did-you-mean rests on every name)."""
    if type(s) is not dict:
        return (), ()
    out: list[Issue] = []
    spec = as_text(s.get("run_role")) if s.get("run_role") is not None else None
    if spec is not None and spec not in (doc.run_roles or {}):
        p = pointer_join("/statuses", name, "run_role")
        if doc.run is None and doc.value.get("run") is None:
            out.append(make("E_WF_UNKNOWN_RUN_SPEC", f"{name}: no run specification {spec}; the workflow has no run "
                            "machine", (p,), (p,), facts=WfUnknownRunSpec(spec)))
        elif doc.run_roles is not None:
            out.append(make("E_WF_UNKNOWN_RUN_SPEC", f"{name}: no run specification {spec}{suggestion(spec, doc.run_roles)}",
                            (p,), (p,), facts=WfUnknownRunSpec(spec)))
    statuses = doc.statuses or {}
    seen = [t for t in status_targets(s) if not is_template(t)]
    blind = not all(t in statuses for t in seen)
    if blind:  # the findings in check()'s order: `on` by event (sorted), `always`, `after`
        prefix = f"{name}: "
        on = s.get("on")
        for event, ts in _sorted(on if type(on) is dict else None):
            out += _targets(doc, ts, ("statuses", name, "on", event), prefix)
        out += _targets(doc, s.get("always"), ("statuses", name, "always"), prefix)
        out += _targets(doc, s.get("after"), ("statuses", name, "after"), prefix)
    run = s.get("run")
    role = as_text(run.get("role")) if type(run) is dict else None
    if role is not None and doc.roles is not None and role not in doc.roles:
        p = pointer_join("/statuses", name, "run", "role")
        out.append(make("E_WF_UNKNOWN_ROLE", f"{name}: its run names no role {role}{suggestion(role, doc.roles)}",
                        (p,), (p,), facts=WfUnknownRole(role)))
    if not out and not seen:
        return _NOTHING  # (a status without targets or findings: one pair for all, issue 33 item 3)
    return tuple(out), None if blind else tuple(seen)


_NOTHING: tuple[tuple[Issue, ...], tuple[str, ...]] = ((), ())


# `Workflow::check()`'s order (workflow.md §3.1 "Order").
CHECK_VISITS: tuple[Visit, ...] = (
    initial_targets,
    verbs,
    run_initial,
    run_outcomes,
    run_state_targets,
    run_roles,
    workflow_on,
    statuses,
)

# The codes the visits raise (interleaved: check() meets them in its own order, not code by code).
CHECK_CODES = ("E_WF_UNKNOWN_STATUS", "E_WF_UNKNOWN_SOURCE_STATUS", "E_WF_NO_INITIAL_RUN_STATE",
               "E_WF_UNKNOWN_RUN_STATE", "E_WF_UNKNOWN_ROLE", "E_WF_UNKNOWN_RUN_SPEC")


def check_issues(doc: WorkflowDoc) -> Iterator[Issue]:
    """Every error `Workflow::check()` can return, in the order it meets them (the first is its error)."""
    for visit in CHECK_VISITS:
        yield from visit(doc)


__all__ = ["CHECK_VISITS", "CHECK_CODES", "check_issues", "status_transitions", "suggestion", "is_template"]
