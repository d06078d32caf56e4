"""Ownership and coupling rules (graph.md §2.2, §2.11, §5: `E_OWNERSHIP_CONFLICT`,
`W_FANOUT_ON_COUPLED`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from grooph_core.issues import Facts, Issue, make
from grooph_core.semantics.graph_index import (
    GraphIndex,
    distinct,
    flattened_members,
    is_agent,
    is_writer_family,
    items,
    str_id,
)
from grooph_core.source.text import is_number, js_number, quoted


def _owns_pointers(index: GraphIndex, positions: list[int], artifact: str) -> list[str]:
    out: list[str] = []
    for i in dict.fromkeys(positions):
        out += [f"/nodes/{i}/owns/{j}" for j, a in enumerate(items(index.nodes[i], "owns")) if a == artifact]
    return out


def _owners(index: GraphIndex, keep) -> dict[str, list[int]]:
    """Artifact -> positions of the kept nodes owning it (each node once per artifact)."""
    owners: dict[str, list[int]] = {}
    for i, n in enumerate(index.nodes):
        if keep(n):
            for a in distinct(items(n, "owns")):
                owners.setdefault(a, []).append(i)
    return owners


@dataclass(frozen=True)
class OwnershipConflict(Facts):
    """E_OWNERSHIP_CONFLICT: the `artifact` and its `owners` (ids, document order)."""

    code = "E_OWNERSHIP_CONFLICT"
    artifact: str
    owners: tuple[str, ...]


def ownership_conflict_issues(doc: dict, index: GraphIndex) -> list[Issue]:
    """One issue per artifact owned by two or more writer-family agents (persons included) that no
    merge node lists in `merges`.

    Pointers: the `owns` entries naming it. Facts: `OwnershipConflict`."""
    owners = _owners(index, is_writer_family)
    merged: set[str] = set()
    for n in index.nodes:
        if isinstance(n, dict) and n.get("kind") == "merge":
            merged.update(m for m in items(n, "merges") if isinstance(m, str))
    out = []
    for artifact, pos in owners.items():
        if len(pos) < 2 or artifact in merged:
            continue
        ids = [str_id(index.nodes[i]) or "" for i in pos]
        msg = (f'artifact "{artifact}" is owned by {quoted(ids)} and no merge node lists it; leave it with a '
               f"single owner, or add a merge node that lists it in merges")
        out.append(make("E_OWNERSHIP_CONFLICT", msg, ids, _owns_pointers(index, pos, artifact),
                        facts=OwnershipConflict(artifact, tuple(ids))))
    return out


def coupled_groups_by_member(index: GraphIndex) -> dict[str, list[int]]:
    """Id -> positions (document order) of the groups marked coupled whose flattened members (§2.11)
    include it."""
    out: dict[str, list[int]] = {}
    for gi, g in enumerate(index.groups):
        if isinstance(g, dict) and g.get("coupled") is True:
            for m in dict.fromkeys(flattened_members(index, g)):
                out.setdefault(m, []).append(gi)
    return out


@dataclass(frozen=True)
class FanoutOnCoupled(Facts):
    """W_FANOUT_ON_COUPLED: `variant`, and `edge`, `max`, `node`, `group` (the edge variants; `group`
    for "group" only) or `artifact`, `owners` ("shared artifact")."""

    code = "W_FANOUT_ON_COUPLED"
    variant: Literal["node", "group", "shared artifact"]
    edge: str | None = None
    max: int | float | None = None
    node: str | None = None
    group: str | None = None
    artifact: str | None = None
    owners: tuple[str, ...] = ()


def fanout_on_coupled_issues(doc: dict, index: GraphIndex) -> list[Issue]:
    """(1) per edge with `concurrency.max` > 1: its target node marked coupled ("node"), then each
    coupled group whose flattened members include the target ("group"); (2) per artifact owned by two
    or more coupled agents ("shared artifact"; no merge exemption).

    Pointers: the edge's `concurrency.max`; the `owns` entries. Facts: `FanoutOnCoupled`."""
    out: list[Issue] = []
    containing: dict[str, list[int]] | None = None  # member id -> coupled groups holding it, in order
    for i, e in enumerate(index.edges):
        conc = e.get("concurrency") if isinstance(e, dict) else None
        mx = conc.get("max") if isinstance(conc, dict) else None
        if not is_number(mx) or not mx > 1:
            continue
        eid, to = str_id(e) or "", e.get("to")
        if not isinstance(to, str):
            continue
        ptr = f"/edges/{i}/concurrency/max"
        node = index.node(to)
        if node is not None and node.get("coupled") is True:
            msg = (f'edge "{eid}" fans out up to {js_number(mx)} at a time into "{to}", which is marked coupled; '
                   f"do not fan out work marked coupled: set the edge's concurrency max to 1")
            out.append(make("W_FANOUT_ON_COUPLED", msg, [eid, to], [ptr],
                            facts=FanoutOnCoupled("node", edge=eid, max=mx, node=to)))
        if containing is None:
            containing = coupled_groups_by_member(index)
        for gi in containing.get(to, ()):
            gid = str_id(index.groups[gi]) or ""
            msg = (f'edge "{eid}" fans out up to {js_number(mx)} at a time into "{to}", which is in coupled group '
                   f'"{gid}"; do not fan out work marked coupled: set the edge\'s concurrency max to 1')
            out.append(make("W_FANOUT_ON_COUPLED", msg, [eid, to, gid], [ptr],
                            facts=FanoutOnCoupled("group", edge=eid, max=mx, node=to, group=gid)))
    owners = _owners(index, lambda n: is_agent(n) and n.get("coupled") is True)
    for artifact, pos in owners.items():
        if len(pos) < 2:
            continue
        ids = [str_id(index.nodes[i]) or "" for i in pos]
        msg = (f'coupled agents {quoted(ids)} all own artifact "{artifact}"; coupled work must not be split: give '
               f"a coupled artifact a single owner")
        out.append(make("W_FANOUT_ON_COUPLED", msg, ids, _owns_pointers(index, pos, artifact),
                        facts=FanoutOnCoupled("shared artifact", artifact=artifact, owners=tuple(ids))))
    return out
