"""`E_DANGLING_REF`: references that name no object of the kind they must name (graph.md §1.11, §5)."""

from __future__ import annotations

from dataclasses import dataclass

from grooph_core.issues import Facts, Issue, make
from grooph_core.semantics.graph_index import GraphIndex, stop_kind, str_id
from grooph_core.semantics.references import missing_references
from grooph_core.source.text import IdSuggester, SuggestionBudget, pointer_split

def _tail(s: str | None) -> str:
    return f'; did you mean "{s}"?' if s else ""


# What each reference place says when it names nothing (graph.md §5): (holder list, field) -> message.
# The places themselves, their kinds and their order come from `semantics.references`.
_WORDING = {
    ("edges", "from"): 'edge "{holder}" starts at unknown node "{id}"',
    ("edges", "to"): 'edge "{holder}" ends at unknown node "{id}"',
    ("loops", "members"): 'loop "{holder}" lists member "{id}", which is not a node',
    ("loops", "back"): 'loop "{holder}" lists back edge "{id}", which is not an edge',
    ("loops", "answerKeyFrom"): 'loop "{holder}" takes its answer key from unknown node "{id}"',
    ("loops", "then"): 'loop "{holder}" stop {index} ({stop}) continues at unknown node "{id}"',
    ("groups", "members"): 'group "{holder}" lists member "{id}", which is neither a node nor a group',
    ("policies", "scope"): 'policy "{holder}" is scoped to unknown {must_name} "{id}"',
}
_HOLDER_KIND = {"edges": "edge", "loops": "loop", "groups": "group", "policies": "policy"}
_MUST_NAME = {"node|group": "node or group"}


@dataclass(frozen=True)
class DanglingRef(Facts):
    """E_DANGLING_REF in a graph: `ref` (the referencing string, a scope with its `kind:` prefix), `id`
    (the unknown id), `must_name` (node | edge | loop | node or group), `holder_kind`, `holder` (its id),
    `holder_index` (position in its list), `field`, `index` (entry or stop index where there is one),
    `suggestion` (or None)."""

    code = "E_DANGLING_REF"
    ref: str
    id: str
    must_name: str
    holder_kind: str
    holder: str
    holder_index: int
    field: str
    index: int | None
    suggestion: str | None


def dangling_ref_issues(doc: dict, index: GraphIndex) -> list[Issue]:
    """One issue per reference naming nothing of the required kind, in the spec's order: edges (from,
    to), loops (members, back, answer key, stop `then`), groups (members), policies (scope).

    Pointer: the referencing string. Facts: `DanglingRef`."""
    out: list[Issue] = []
    known = {"node": index.node_pos, "edge": index.edge_pos, "loop": index.loop_pos}
    budget = SuggestionBudget()  # the did-you-mean search is optional here (graph.md §5.1): capped
    suggesters: dict[str, IdSuggester] = {}

    def suggest(target: str, word: str) -> str | None:
        if target not in suggesters:
            ids = (dict.fromkeys(list(index.node_pos) + list(index.group_pos)) if target == "node|group"
                   else known[target])
            suggesters[target] = IdSuggester(list(ids), budget)
        return suggesters[target](word)

    def missing(target: str, x: str) -> bool:
        if target == "node|group":
            return x not in index.node_pos and x not in index.group_pos
        return x not in known[target]

    for occ in missing_references(doc, "graph", missing):
        x = occ.id
        seg = pointer_split(occ.pointer)
        list_key, i = seg[0], int(seg[1])
        holder_obj = doc[list_key][i]
        holder = str_id(holder_obj) or ""
        field = seg[-2] if seg[-1].isdigit() else seg[-1]
        entry = int(seg[-1]) if seg[-1].isdigit() else (int(seg[3]) if field == "then" else None)
        s = suggest(occ.target, x)
        must_name = _MUST_NAME.get(occ.target, occ.target)
        stop = stop_kind(holder_obj["stops"][entry]) if field == "then" else ""
        msg = _WORDING[(list_key, field)].format(holder=holder, id=x, index=entry, stop=stop, must_name=must_name)
        out.append(make("E_DANGLING_REF", msg + _tail(s), [holder], [occ.pointer], facts=DanglingRef(
            ref=occ.prefix + x, id=x, must_name=must_name, holder_kind=_HOLDER_KIND[list_key], holder=holder,
            holder_index=i, field=field, index=entry, suggestion=s)))
    return out
