"""Loop rules: back edges, bars and stops (graph.md §5: `E_LOOP_BACK_EDGE`, `E_JUDGMENT_LOOP_NO_BAR`,
`E_STOP_NOT_INSPECTABLE`, `W_LONG_LOOP_NO_BUDGET`, `W_ASPIRATION_AS_ACCEPTANCE`, `W_ONLY_MAX_ITERATIONS`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from grooph_core.issues import Facts, Issue, make
from grooph_core.semantics.graph_index import (
    SHORT_CAP,
    GraphIndex,
    has_inspectable_bar,
    items,
    loop_mode,
    str_id,
    strongly_connected_components,
)
from grooph_core.source.text import is_blank, is_number, js_number, same_text


def _loops(index: GraphIndex):
    """(position, loop, loop id) for every loop object, document order."""
    for i, loop in enumerate(index.loops):
        if isinstance(loop, dict):
            yield i, loop, str_id(loop) or ""


def _loop_related(i: int, lid: str) -> tuple[str, str]:
    return (f"/loops/{i}/id", f'loop "{lid}"')


def member_components(index: GraphIndex, loop_pos: int) -> dict[str, int]:
    """Strongly connected components of the loop's members over every edge whose both ends are
    members (back edges included): member id -> component number."""
    members = index.loop_members[loop_pos]
    succ: dict[str, list[str]] = {}
    for m in members:
        for p in index.outgoing.get(m, ()):
            t = index.edges[p].get("to")
            if t in members:
                succ.setdefault(m, []).append(t)
    comp: dict[str, int] = {}
    for n, c in enumerate(strongly_connected_components(sorted(members), succ)):
        for v in c:
            comp[v] = n
    return comp


def closes_cycle(edge: dict, index: GraphIndex, loop_pos: int, components: dict[str, int] | None = None) -> bool:
    """graph.md §5 `E_LOOP_BACK_EDGE`: a path of length >= 1 leads from the edge's `to` to its `from`
    using only edges of the document whose `to` is a member, starting at `to` (a member). Both ends
    must be members. With `components` (from `member_components`) the answer is read from them: with
    the edge itself going from `from` to `to`, a path back exists exactly when both ends share a
    component (a self-loop always closes). Without, a breadth-first search as the spec words it."""
    f, t = edge.get("from"), edge.get("to")
    if f == t:
        return True
    if components is not None:
        return f in components and components.get(f) == components.get(t)
    return closes_inside(index, edge, index.loop_members[loop_pos])


def closes_inside(index: GraphIndex, edge: dict, members) -> bool:
    """Breadth-first, as the spec words it: a path from the edge's `to` back to its `from` over
    edges of the document whose `to` is in `members` (both ends must be members; a self-loop closes).
    Repairs use it on proposed member sets too."""
    f, t = edge.get("from"), edge.get("to")
    if f not in members or t not in members:
        return False
    if f == t:
        return True
    seen = {t}
    queue = [t]
    while queue:
        cur = queue.pop()
        for p in index.outgoing.get(cur, ()):
            nxt = index.edges[p].get("to")
            if nxt not in members:
                continue
            if nxt == f:
                return True
            if nxt not in seen:
                seen.add(nxt)
                queue.append(nxt)
    return False


@dataclass(frozen=True)
class LoopBackEdge(Facts):
    """E_LOOP_BACK_EDGE: `loop`, `variant`, and for "outside" and "no cycle" the back edge (`edge`, its
    `back_index`, its ends `from_` and `to`) and `outside` (the ends that are not members)."""

    code = "E_LOOP_BACK_EDGE"
    loop: str
    variant: Literal["empty", "outside", "no cycle"]
    edge: str | None = None
    back_index: int | None = None
    from_: object = None
    to: object = None
    outside: tuple = ()


def loop_back_edge_issues(doc: dict, index: GraphIndex) -> list[Issue]:
    """Per loop: empty `back` (one issue, nothing else checked); else per existing back edge, an end
    outside the members, or no closing path inside them.

    Pointer: the `back` array, or the offending `back` entry; `related`: the loop and the edge.
    Facts: `LoopBackEdge`."""
    out: list[Issue] = []
    for i, loop, lid in _loops(index):
        back = items(loop, "back")
        if not back:
            out.append(make(
                "E_LOOP_BACK_EDGE",
                f'loop "{lid}" has no back edge; list the edge that returns from a later member to an earlier one',
                [lid], [f"/loops/{i}/back"], related=[_loop_related(i, lid)], facts=LoopBackEdge(lid, "empty")))
            continue
        members = index.loop_members[i]
        # One component pass per loop when it has many back edges over many members; a plain search
        # per back edge otherwise (same answer, see closes_cycle).
        use_components = len(back) > 2 and len(members) > 16
        components: dict[str, int] | None = None
        for j, b in enumerate(back):
            e = index.edge(b)
            if e is None:
                continue  # E_DANGLING_REF's business
            f, t = e.get("from"), e.get("to")
            arrow = f"{f} → {t}"
            related = [_loop_related(i, lid), (f"/edges/{index.edge_pos[b]}/id", f'edge "{b}" ({arrow})')]
            outside = [x for x in dict.fromkeys((f, t)) if x not in members]
            if outside:
                which = " and ".join(f'"{x}"' for x in outside)
                verb = "are" if len(outside) > 1 else "is"
                msg = (f'loop "{lid}" lists back edge "{b}" ({arrow}), but {which} {verb} not inside the members; '
                       f"a back edge must start and end at members")
                variant = "outside"
            else:
                if use_components and components is None:
                    components = member_components(index, i)
                if closes_cycle(e, index, i, components):
                    continue
                msg = (f'loop "{lid}" lists back edge "{b}" ({arrow}), but it does not close a cycle inside the '
                       f'members: no path leads from "{t}" back to "{f}" through members only')
                variant = "no cycle"
            out.append(make("E_LOOP_BACK_EDGE", msg, [lid, b], [f"/loops/{i}/back/{j}"], related=related,
                            facts=LoopBackEdge(lid, variant, b, j, f, t, tuple(outside))))
    return out


@dataclass(frozen=True)
class JudgmentLoopNoBar(Facts):
    """E_JUDGMENT_LOOP_NO_BAR: `loop`, `variant`."""

    code = "E_JUDGMENT_LOOP_NO_BAR"
    loop: str
    variant: Literal["no bar", "nothing inspectable"]


def judgment_loop_no_bar_issues(doc: dict, index: GraphIndex) -> list[Issue]:
    """One issue per judgment loop (§2.4) without an inspectable bar (§2.5).

    Pointer: the loop's id (no bar) or `bar.inspects`. Facts: `JudgmentLoopNoBar`."""
    out = []
    for i, loop, lid in _loops(index):
        if loop_mode(loop, index) != "judgment" or has_inspectable_bar(loop, index):
            continue
        if not isinstance(loop.get("bar"), dict):
            msg = (f'loop "{lid}" is a judgment loop (a critic decides whether it goes round again) but has no '
                   f"bar; add one that states when to stop and what the critic examines")
            out.append(make("E_JUDGMENT_LOOP_NO_BAR", msg, [lid], [f"/loops/{i}/id"], facts=JudgmentLoopNoBar(lid, "no bar")))
        else:
            msg = (f'loop "{lid}" is a judgment loop, but its bar lists nothing that can be examined; it needs an '
                   f"inspects entry of kind file, url, metric, checklist or artifact, or an answer key whose "
                   f"source node exists")
            out.append(make("E_JUDGMENT_LOOP_NO_BAR", msg, [lid], [f"/loops/{i}/bar/inspects"],
                            facts=JudgmentLoopNoBar(lid, "nothing inspectable")))
    return out


@dataclass(frozen=True)
class StopNotInspectable(Facts):
    """E_STOP_NOT_INSPECTABLE: `loop`, `has_bar`."""

    code = "E_STOP_NOT_INSPECTABLE"
    loop: str
    has_bar: bool


def stop_not_inspectable_issues(doc: dict, index: GraphIndex) -> list[Issue]:
    """One issue per loop whose non-empty `stops` are all `bar-passed` and which has no inspectable bar.

    Pointer: the loop's `stops`. Facts: `StopNotInspectable`."""
    out = []
    for i, loop, lid in _loops(index):
        stops = items(loop, "stops")
        if not stops or any(not isinstance(s, dict) or s.get("kind") != "bar-passed" for s in stops):
            continue
        if has_inspectable_bar(loop, index):
            continue
        has_bar = isinstance(loop.get("bar"), dict)
        why = ("its bar gives a critic nothing concrete to examine (a bare adjective cannot be checked)" if has_bar
               else "it has no bar, so nothing concrete says when it passes")
        msg = (f'loop "{lid}" can only stop when its bar passes, yet {why}; give the bar an inspectable entry and '
               f"add a max-iterations stop")
        out.append(make("E_STOP_NOT_INSPECTABLE", msg, [lid], [f"/loops/{i}/stops"], facts=StopNotInspectable(lid, has_bar)))
    return out


def _caps(loop: dict) -> list:
    return [s.get("n") for s in items(loop, "stops")
            if isinstance(s, dict) and s.get("kind") == "max-iterations" and is_number(s.get("n"))]


@dataclass(frozen=True)
class LongLoopNoBudget(Facts):
    """W_LONG_LOOP_NO_BUDGET: `loop`, `smallest_cap` (None when there is no cap)."""

    code = "W_LONG_LOOP_NO_BUDGET"
    loop: str
    smallest_cap: int | float | None


def long_loop_no_budget_issues(doc: dict, index: GraphIndex) -> list[Issue]:
    """One warning per loop with no `budget` stop and no `max-iterations` cap of 5 or fewer (§2.14).

    Pointer: the loop's `stops`. Facts: `LongLoopNoBudget`."""
    out = []
    for i, loop, lid in _loops(index):
        stops = items(loop, "stops")
        if any(isinstance(s, dict) and s.get("kind") == "budget" for s in stops):
            continue
        caps = _caps(loop)
        if any(n <= SHORT_CAP for n in caps):
            continue
        smallest = min(caps) if caps else None
        cap = ("no max-iterations stop" if smallest is None
               else f"its smallest max-iterations cap is {js_number(smallest)} rounds")
        msg = (f'loop "{lid}" has no budget stop and {cap}; add a budget stop, or lower the cap to at most '
               f"{SHORT_CAP} rounds")
        out.append(make("W_LONG_LOOP_NO_BUDGET", msg, [lid], [f"/loops/{i}/stops"],
                        facts=LongLoopNoBudget(lid, smallest)))
    return out


@dataclass(frozen=True)
class AspirationAsAcceptance(Facts):
    """W_ASPIRATION_AS_ACCEPTANCE: `loop`, `variant`."""

    code = "W_ASPIRATION_AS_ACCEPTANCE"
    loop: str
    variant: Literal["blank acceptance", "same"]


def aspiration_as_acceptance_issues(doc: dict, index: GraphIndex) -> list[Issue]:
    """Per loop whose bar has a non-blank `aspiration`: a blank `acceptance`, or the same text (§2.13).

    Pointer: `bar.acceptance` (the bar when it is absent). Facts: `AspirationAsAcceptance`."""
    out = []
    for i, loop, lid in _loops(index):
        bar = loop.get("bar")
        if not isinstance(bar, dict):
            continue
        asp, acc = bar.get("aspiration"), bar.get("acceptance")
        if not isinstance(asp, str) or is_blank(asp):
            continue
        ptr = f"/loops/{i}/bar/acceptance" if "acceptance" in bar else f"/loops/{i}/bar"
        if not isinstance(acc, str) or is_blank(acc):
            msg = (f'loop "{lid}" has an aspiration but a blank acceptance, so nothing says when the bar is met; '
                   f"write a reachable, checkable acceptance and keep the aspiration as the direction")
            variant = "blank acceptance"
        elif same_text(asp, acc):
            msg = (f'loop "{lid}": the bar\'s aspiration is doing the acceptance\'s job (both say the same); the '
                   f"acceptance is the reachable threshold, while the aspiration only points the way")
            variant = "same"
        else:
            continue
        out.append(make("W_ASPIRATION_AS_ACCEPTANCE", msg, [lid], [ptr], facts=AspirationAsAcceptance(lid, variant)))
    return out


@dataclass(frozen=True)
class OnlyMaxIterations(Facts):
    """W_ONLY_MAX_ITERATIONS: `loop`, `mode` (§2.4, what the repair depends on)."""

    code = "W_ONLY_MAX_ITERATIONS"
    loop: str
    mode: str


def only_max_iterations_issues(doc: dict, index: GraphIndex) -> list[Issue]:
    """One warning per loop whose non-empty `stops` are all `max-iterations`.

    Pointer: the loop's `stops`. Facts: `OnlyMaxIterations`."""
    out = []
    for i, loop, lid in _loops(index):
        stops = items(loop, "stops")
        if not stops or any(not isinstance(s, dict) or s.get("kind") != "max-iterations" for s in stops):
            continue
        msg = (f'loop "{lid}" can end only by running out of rounds: a round cap limits damage but does not say '
               f"when the work is finished; add a bar-passed, budget or human stop")
        out.append(make("W_ONLY_MAX_ITERATIONS", msg, [lid], [f"/loops/{i}/stops"],
                        facts=OnlyMaxIterations(lid, loop_mode(loop, index))))
    return out
