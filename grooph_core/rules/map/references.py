"""`E_DANGLING_REF` for maps (map.md §2.8, §6.2): a session's `lane` must name a lane; a handoff's
`from` and `to` must name a session or a person (only those are ends)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from grooph_core.issues import Facts, Issue, make
from grooph_core.semantics.map_index import MapIndex
from grooph_core.semantics.references import missing_references
from grooph_core.source.text import IdSuggester, SuggestionBudget, pointer_split

END_WORDS = {"from": "starts at", "to": "ends at"}


def _suffix(suggestion: str | None) -> str:
    return "" if suggestion is None else f'; did you mean "{suggestion}"?'


def _ids(items: list) -> list[str]:
    return [x["id"] for x in items if isinstance(x, dict) and isinstance(x.get("id"), str)]


@dataclass(frozen=True)
class MapDanglingRef(Facts):
    """E_DANGLING_REF in a map: `ref` (the unknown id), `field` (lane/from/to), `holder`
    (session/handoff), `holder_id`, `suggestion` (the did-you-mean id or None), `suggestion_searched`
    (False when the work cap of IdSuggester skipped the search)."""

    code = "E_DANGLING_REF"
    ref: str
    field: str
    holder: Literal["session", "handoff"]
    holder_id: object
    suggestion: str | None
    suggestion_searched: bool


def dangling_ref_issues(index: MapIndex) -> list[Issue]:
    """map.md §6.2: sessions' lanes first (document order), then each handoff's `from`, then `to`
    (the reference places and their order come from `semantics.references`).

    Pointer: the offending string. Facts: `MapDanglingRef`.
    """
    out: list[Issue] = []
    hints: dict[str, IdSuggester] = {}
    budget = SuggestionBudget()  # shared by the lane and the end suggesters: one validation's cap
    def missing(target: str, ref: str) -> bool:
        return ref not in index.lanes if target == "lane" else not index.is_end(ref)

    for occ in missing_references(index.doc, "map", missing):
        ref = occ.id
        lane = occ.target == "lane"
        seg = pointer_split(occ.pointer)
        holder_list, i, field = seg[0], int(seg[1]), seg[2]
        holder_id = index.doc[holder_list][i].get("id")
        if occ.target not in hints:
            hints[occ.target] = IdSuggester(_ids(index.lane_list) if lane
                                            else _ids(index.session_list) + _ids(index.person_list), budget)
        hint = hints[occ.target](ref)
        if lane:
            msg = f'session "{holder_id}" is in unknown lane "{ref}"'
        elif index.has_people:
            msg = f'handoff "{holder_id}" {END_WORDS[field]} "{ref}", which is neither a session nor a person'
        else:
            msg = f'handoff "{holder_id}" {END_WORDS[field]} unknown session "{ref}"'
        out.append(make(
            "E_DANGLING_REF", msg + _suffix(hint), [holder_id], [occ.pointer],
            facts=MapDanglingRef(ref, field, "session" if lane else "handoff", holder_id, hint,
                                 hints[occ.target].searched(ref)),
        ))
    return out
