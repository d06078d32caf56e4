"""`E_DUPLICATE_ID`: an id used by more than one object of the id-uniqueness set (graph.md §1.11, §5)."""

from __future__ import annotations

from dataclasses import dataclass

from grooph_core.issues import Facts, Issue, make
from grooph_core.semantics.graph_index import GraphIndex, items
from grooph_core.semantics.references import ID_LISTS as REFERENCE_ID_LISTS

# The lists of the id-uniqueness set after the graph's own id, in collection order (graph.md §1.11).
ID_LISTS = tuple(REFERENCE_ID_LISTS["graph"])


def id_occurrences(doc: dict) -> list[tuple[str, str, str]]:
    """Every id of the uniqueness set as (id, place, pointer of the id), in collection order.
    The place is "the graph's own id" or `<list>[<index>]` (graph.md §5, §8.5)."""
    out: list[tuple[str, str, str]] = []
    gid = doc.get("id")
    if isinstance(gid, str):
        out.append((gid, "the graph's own id", "/id"))
    for name in ID_LISTS:
        for i, obj in enumerate(items(doc, name)):
            v = obj.get("id") if isinstance(obj, dict) else None
            if isinstance(v, str):
                out.append((v, f"{name}[{i}]", f"/{name}/{i}/id"))
    return out


@dataclass(frozen=True)
class DuplicateId(Facts):
    """E_DUPLICATE_ID in a graph: `id`, `places` (the place names) and `pointers_all` (the pointer of
    every copy, the first included)."""

    code = "E_DUPLICATE_ID"
    id: str
    places: tuple[str, ...]
    pointers_all: tuple[str, ...]


def duplicate_id_issues(doc: dict, index: GraphIndex) -> list[Issue]:
    """One issue per id that occurs more than once, in the order each was first met.

    Pointers: every copy after the first; `related`: the first copy. Facts: `DuplicateId`."""
    counts: dict[str, int] = {}
    gid = doc.get("id")
    if isinstance(gid, str):
        counts[gid] = 1
    for name in ID_LISTS:
        for obj in items(doc, name):
            v = obj.get("id") if isinstance(obj, dict) else None
            if isinstance(v, str):
                counts[v] = counts.get(v, 0) + 1
    if all(c == 1 for c in counts.values()):
        return []
    seen: dict[str, list[tuple[str, str]]] = {k: [] for k, c in counts.items() if c > 1}
    for ident, place, ptr in id_occurrences(doc):
        if ident in seen:
            seen[ident].append((place, ptr))
    out = []
    for ident, occ in seen.items():
        places = [p for p, _ in occ]
        msg = f'id "{ident}" is used {len(occ)} times: {", ".join(places)}; each object needs its own id'
        out.append(make(
            "E_DUPLICATE_ID", msg, [ident], [ptr for _, ptr in occ[1:]],
            related=[(occ[0][1], f'first use of "{ident}" ({occ[0][0]})')],
            facts=DuplicateId(ident, tuple(places), tuple(ptr for _, ptr in occ)),
        ))
    return out
