"""`E_DANGLING_REF`: references that name no object of the kind they must name (graph.md §1.11, §5)."""

from __future__ import annotations

from typing import Sequence

from grooph_core.issues import Issue, make
from grooph_core.rules.graph.semantics import GraphIndex, stop_kind, str_id
from grooph_core.semantics.references import references
from grooph_core.text import did_you_mean, pointer_split

# The "did you mean" search is optional for this code (graph.md §5.1). A document full of broken
# references against thousands of ids would make it cost (references x candidates); past this many
# comparisons in one validation we stop suggesting. Our choice; leaving a suggestion out is never wrong.
SUGGESTION_COMPARISONS = 100_000


class _Suggester:
    """Hands out suggestions until the comparison budget is spent."""

    def __init__(self) -> None:
        self.left = SUGGESTION_COMPARISONS

    def __call__(self, word: str, candidates: Sequence[str]) -> str | None:
        if self.left < len(candidates):
            self.left = 0
            return None
        self.left -= len(candidates)
        return did_you_mean(word, candidates)


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


def dangling_ref_issues(doc: dict, index: GraphIndex) -> list[Issue]:
    """One issue per reference naming nothing of the required kind, in the spec's order: edges (from,
    to), loops (members, back, answer key, stop `then`), groups (members), policies (scope).

    Pointer: the referencing string. `data`: `ref` (that string), `id` (the unknown id), `must_name`
    (node | edge | loop | node or group), `holder_kind`, `holder` (its id), `holder_index` (position in
    its list), `field`, `index` (entry or stop index where there is one), `suggestion` (or None)."""
    out: list[Issue] = []
    sug = _Suggester()
    known = {"node": index.node_pos, "edge": index.edge_pos, "loop": index.loop_pos}
    candidates: dict[str, list[str]] = {}

    def ids_for(target: str) -> list[str]:
        if target not in candidates:
            if target == "node|group":
                candidates[target] = list(dict.fromkeys(list(index.node_pos) + list(index.group_pos)))
            else:
                candidates[target] = list(known[target])
        return candidates[target]

    for occ in references(doc, "graph"):
        if occ.on_key:
            continue  # layout keys: W_UNKNOWN_KEY-like facts of the layout, not dangling references
        x = occ.id
        if occ.target == "node|group":
            if x in index.node_pos or x in index.group_pos:
                continue
        elif x in known[occ.target]:
            continue
        seg = pointer_split(occ.pointer)
        list_key, i = seg[0], int(seg[1])
        holder_obj = doc[list_key][i]
        holder = str_id(holder_obj) or ""
        field = seg[-2] if seg[-1].isdigit() else seg[-1]
        entry = int(seg[-1]) if seg[-1].isdigit() else (int(seg[3]) if field == "then" else None)
        s = sug(x, ids_for(occ.target))
        must_name = _MUST_NAME.get(occ.target, occ.target)
        stop = stop_kind(holder_obj["stops"][entry]) if field == "then" else ""
        msg = _WORDING[(list_key, field)].format(holder=holder, id=x, index=entry, stop=stop, must_name=must_name)
        out.append(make("E_DANGLING_REF", msg + _tail(s), [holder], [occ.pointer], holder=holder,
                        ref=occ.prefix + x, id=x, must_name=must_name, holder_kind=_HOLDER_KIND[list_key],
                        holder_index=i, field=field, index=entry, suggestion=s))
    return out
