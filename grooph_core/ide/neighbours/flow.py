"""The flow of the neighbouring formats in the editor (issue 31 items 1 and 2): the highlight of a name
(a workflow's status, role, run specification or run state, a board's task: `names`, workflow.md §4,
board.md §4), and a workflow's call hierarchy: its statuses (and the run machine's states) linked by their
transitions (workflow.md §2), each link's event and guard in words. The transitions that belong to no
status are entries: `initial`, the workflow's `on` and `verbs` (those naming no `from`), the run machine's
`on` and `outcomes`; each is an item of kind "entry" whose id is the pointer of its list."""

from __future__ import annotations

from dataclasses import dataclass

from grooph_core.ide.flow import FlowCall, FlowItem, Highlight, grouped
from grooph_core.ide.neighbours.names import NameSite, name_span, sites
from grooph_core.rules.workflow.semantics import Transition, as_text, read_workflow, transition_lists
from grooph_core.source.text import pointer_join, pointer_split

ENTRY = "entry"
# The kinds of workflow name that are items of the flow: a card's status, a run's state.
FLOW_NAMES = ("status", "run state")
_BASES = {"status": "/statuses", "run state": "/run/states"}


def _sites(analysis) -> list[NameSite]:
    """The name places of this version, read once (kept in the analysis's memo)."""
    found = analysis.kept.get("name sites")
    if found is None:
        found = analysis.kept["name sites"] = sites(analysis)
    return found


def _site_at(analysis, offset: int, every: list[NameSite]) -> NameSite | None:
    """The name place whose key or value the cursor is on (found by its pointer, not by placing every name)."""
    pointer, part = analysis.parsed.source_map.pointer_at(offset)
    on_key = part == "key"
    return next((s for s in every if s.pointer == pointer and s.key == on_key), None)


def highlights_at(analysis, offset: int) -> list[Highlight]:
    """The name under the cursor where it is defined (write) and every place naming it (read)."""
    every = _sites(analysis)
    site = _site_at(analysis, offset, every)
    if site is None:
        return []
    out = []
    for s in every:
        if s.kind == site.kind and s.name == site.name:
            span = name_span(analysis, s)
            if span is not None:
                out.append(Highlight(span, s.defines))
    return out


# ---- a workflow's call hierarchy -------------------------------------------------------------------------

@dataclass(frozen=True)
class _Link:
    """One transition as a link of the flow: from its source (a status, a run state, or an entry) to its
    target, in words."""

    source: tuple[str, str]  # (kind, id)
    target: tuple[str, str]
    at: str  # the pointer of the value naming the target (a transition's `target`)
    detail: str


def _words(t: Transition, event: str) -> str:
    guard = t.value.get("guard")
    return " · ".join(w for w in (event, f"if {guard}" if isinstance(guard, str) and guard else "") if w)


def _event_of(event: str, t: dict) -> str:
    """What sets a status's transition off: its `on` event, `always`, or `after` and its delay."""
    if event == "after" and t.get("after") is not None:
        return f"after {t['after']}"
    return event


def _sources(t: Transition, segs: list[str]) -> tuple[list[tuple[str, str]], str]:
    """Where a transition outside the statuses leads from, and its event: a `verbs`/`on` one naming `from`
    statuses leaves those; any other's list is an entry."""
    entry = (ENTRY, t.pointer[: t.pointer.rfind("/")])
    if segs[0] in ("verbs", "on"):
        word = "verb" if segs[0] == "verbs" else "on"
        frm = t.value.get("from")
        named = [frm] if type(frm) is str else [x for x in frm if type(x) is str] if type(frm) is list else []
        if named:
            return [("status" if t.card else "run state", n) for n in named], f"{word} {segs[1]}"
        return [entry], f"{word} {segs[1]} (every status)"
    return [entry], ""  # the entry's own name says it


def entry_name(pointer: str) -> str:
    """What an entry is called: `initial`, `on start`, `verb approve`, `run on done`, `outcome passed`."""
    segs = pointer_split(pointer)
    if segs == ["initial"]:
        return "initial"
    if segs[:1] == ["verbs"]:
        return "verb " + "/".join(segs[1:])
    if segs[:2] == ["run", "outcomes"]:
        return "outcome " + "/".join(segs[2:])
    return " ".join(segs)


def _links(analysis, *, source: tuple[str, str] | None = None, target: tuple[str, str] | None = None,
           heads_only: bool = False) -> list[_Link]:
    """The transitions with a target naming a status or a run state (templates left out), once per source;
    only those from `source` or to `target` when given (the others are not built: a 1M workflow has
    tens of thousands), only the head's and the run machine's (no status's own) with `heads_only`."""
    doc = read_workflow(analysis.value)
    out: list[_Link] = []

    def take(t: Transition, sources, event: str) -> None:
        name = t.target
        if name is None or "{{" in name:
            return
        to = ("status" if t.card else "run state", name)
        if target is not None and to != target:
            return
        for frm in sources:
            if source is None or frm == source:
                out.append(_Link(frm, to, t.pointer + "/target", _words(t, event)))

    for t in doc.head_transitions():
        take(t, *_sources(t, pointer_split(t.pointer)))
    for kind, mapping, base, card in (("status", doc.statuses, "/statuses", True),
                                      ("run state", doc.run_states, "/run/states", False)):
        if heads_only or mapping is None or (source is not None and source[0] != kind):
            continue
        for name, status in (mapping.items() if source is None else ((source[1], mapping.get(source[1])),)):
            if type(status) is not dict:
                continue
            here = pointer_join(base, name)
            for where, ts in transition_lists(status):
                event = f"on {where[1]}" if where[0] == "on" else where[0]
                for i, t in enumerate(ts):
                    to = t.get("target") if type(t) is dict else None
                    if type(to) is str and (target is None or target == (kind, to)):
                        take(Transition(pointer_join(here, *where, i), t, card), [(kind, name)], _event_of(event, t))
    if doc.run is not None:
        for t in doc.run_transitions():
            if not t.pointer.startswith("/run/states/"):
                take(t, *_sources(t, pointer_split(t.pointer)))
        first = as_text(doc.run.get("initial"))
        if first and (target is None or target == ("run state", first)) and source in (None, (ENTRY, "/run/initial")):
            out.append(_Link((ENTRY, "/run/initial"), ("run state", first), "/run/initial", ""))  # RunMachine `initial`
    return out


def _defined(analysis, kind: str, ident: str) -> bool:
    if kind == ENTRY:
        return ident in _entries(analysis)
    doc = read_workflow(analysis.value)
    mapping = doc.statuses if kind == "status" else doc.run_states
    return isinstance(mapping, dict) and ident in mapping


def _entries(analysis) -> set[str]:
    return {link.source[1] for link in _links(analysis, heads_only=True) if link.source[0] == ENTRY}


def _item(analysis, kind: str, ident: str) -> FlowItem | None:
    if kind == ENTRY:
        pointer = ident
        name, detail = entry_name(ident), "entry"
    else:
        if not _defined(analysis, kind, ident):
            return None
        pointer = pointer_join(_BASES[kind], ident)
        doc = read_workflow(analysis.value)
        status = (doc.statuses if kind == "status" else doc.run_states).get(ident)
        stored = as_text(status.get("stored_as")) if isinstance(status, dict) else None
        name, detail = ident, kind + (f" · stored as {stored}" if stored else "")
    span = analysis.extent(pointer)
    if span is None:
        return None
    sel = analysis.parsed.source_map.key_span(pointer) or span
    return FlowItem(kind, ident, name, detail, span, sel)


def call_items_at(analysis, offset: int) -> list[FlowItem]:
    """The item at the cursor: a status or a run state, at its key or any place naming it; or an entry,
    anywhere in it but on a name."""
    site = _site_at(analysis, offset, _sites(analysis))
    if site is not None:
        item = _item(analysis, site.kind, site.name) if site.kind in FLOW_NAMES else None
        return [item] if item is not None else []
    pointer, _ = analysis.parsed.source_map.pointer_at(offset)
    entries = _entries(analysis)
    while pointer:
        if pointer in entries:
            item = _item(analysis, ENTRY, pointer)
            return [item] if item is not None else []
        pointer = pointer[: pointer.rfind("/")]
    return []


def _calls(analysis, kind: str, ident: str, incoming: bool) -> list[FlowCall]:
    if not _defined(analysis, kind, ident):
        return []
    me = (kind, ident)
    links = []
    for link in (_links(analysis, target=me) if incoming else _links(analysis, source=me)):
        other = link.source if incoming else link.target
        item = _item(analysis, *other)
        span = analysis.pointer_span(link.at)
        if item is None:  # a target naming no status: shown where it is named
            item = FlowItem(other[0], other[1], other[1], f"no {other[0]} of this name", span, span)
        links.append((item, span, link.detail))
    return grouped(links)


def incoming_calls(analysis, kind: str, ident: str) -> list[FlowCall]:
    """The statuses (and entries) whose transitions target the item, each call's places the transitions'
    `target`, their event and guard in the detail; none when the item is gone."""
    return _calls(analysis, kind, ident, True)


def outgoing_calls(analysis, kind: str, ident: str) -> list[FlowCall]:
    """The statuses the item's transitions target (a status's own, and the `verbs`/`on` naming it in their
    `from`), the places the transitions' `target`; none when the item is gone."""
    return _calls(analysis, kind, ident, False)
