"""`E_DUPLICATE_ID` for maps (map.md §2.8, §6.1): an id may occur once among the map's own id and
every lane, person, session and handoff id."""

from __future__ import annotations

from dataclasses import dataclass

from grooph_core.issues import Facts, Issue, make
from grooph_core.semantics.map_index import MapIndex
from grooph_core.semantics.references import ID_LISTS as REFERENCE_ID_LISTS, REFERABLE

# map.md §2.8: the collection order of the id-uniqueness set, and what each list holds.
ID_LISTS: tuple[tuple[str, str], ...] = tuple(REFERENCE_ID_LISTS["map"].items())
# Objects other objects refer to by id (a rename must carry references along); map and handoff ids
# are referred to by nothing (map.md §6.1 repair).
REFERABLE_KINDS = REFERABLE["map"]


def _occurrences(index: MapIndex) -> dict[str, list[dict]]:
    """id -> its occurrences in collection order; dict order is the order each id was first met."""
    doc = index.doc
    seen: dict[str, list[dict]] = {}
    own = doc.get("id")
    if isinstance(own, str):
        seen.setdefault(own, []).append({"kind": "map", "place": "the map's own id", "pointer": "/id"})
    for key, kind in ID_LISTS:
        items = doc.get(key)
        if not isinstance(items, list):
            continue
        for i, item in enumerate(items):
            if isinstance(item, dict) and isinstance(item.get("id"), str):
                seen.setdefault(item["id"], []).append(
                    {"kind": kind, "place": f"{key}[{i}]", "pointer": f"/{key}/{i}/id"})
    return seen


@dataclass(frozen=True)
class Occurrence:
    """One copy of a duplicated map id: what holds it (map, lane, person, session, handoff), its place
    (`sessions[2]`), and whether other objects can refer to that kind of object."""

    kind: str
    place: str
    referable: bool


@dataclass(frozen=True)
class MapDuplicateId(Facts):
    """E_DUPLICATE_ID in a map: the `id` and its `occurrences` in collection order (aligned with
    related + pointers)."""

    code = "E_DUPLICATE_ID"
    id: str
    occurrences: tuple[Occurrence, ...]


def duplicate_id_issues(index: MapIndex) -> list[Issue]:
    """map.md §6.1: one issue per id used more than once, in the order each was first met.

    Pointers: every later occurrence's `…/id`; related: the first. Facts: `MapDuplicateId`.
    """
    out: list[Issue] = []
    for ident, occ in _occurrences(index).items():
        if len(occ) < 2:
            continue
        places = ", ".join(o["place"] for o in occ)
        message = f'id "{ident}" is used {len(occ)} times: {places}'
        out.append(make(
            "E_DUPLICATE_ID", message, [ident],
            [o["pointer"] for o in occ[1:]],
            related=[(occ[0]["pointer"], f'first use of "{ident}" ({occ[0]["place"]})')],
            facts=MapDuplicateId(ident, tuple(Occurrence(o["kind"], o["place"], o["kind"] in REFERABLE_KINDS)
                                              for o in occ)),
        ))
    return out
