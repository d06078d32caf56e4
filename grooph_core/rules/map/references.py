"""`E_DANGLING_REF` for maps (map.md §2.8, §6.2): a session's `lane` must name a lane; a handoff's
`from` and `to` must name a session or a person (only those are ends)."""

from __future__ import annotations

from grooph_core.issues import Issue, make
from grooph_core.rules.map.semantics import MapIndex
from grooph_core.semantics.references import references
from grooph_core.text import pointer_split, utf16_len

END_WORDS = {"from": "starts at", "to": "ends at"}


# Candidates one suggester may look at, over all the words it is asked about. Only a pathological map
# reaches it (hundreds of distinct dangling ids against thousands of sessions, far beyond the
# 24,000-character budget of map.md §6.10); past it, later dangling ids get no suggestion instead of
# stalling an editor on every keystroke. Our choice; the reference has no such cap.
SUGGESTION_BUDGET = 60_000


def _pattern_bits(word: str) -> dict[str, int]:
    peq: dict[str, int] = {}
    for i, ch in enumerate(word):
        peq[ch] = peq.get(ch, 0) | (1 << i)
    return peq


def _osa_bits(peq: dict[str, int], m: int, text: str) -> int:
    """The optimal-string-alignment distance of graph.md §5.1 between a word (given by its pattern
    bits and length `m` >= 1) and `text`: Hyyrö's bit-parallel algorithm (2003), equal to
    `text.osa_distance` and several times faster on the ids a map holds."""
    mask = (1 << m) - 1
    last = 1 << (m - 1)
    vp, vn, d0, pm_prev = mask, 0, 0, 0
    score = m
    for ch in text:
        pm = peq.get(ch, 0)
        tr = (((~d0) & pm) << 1) & pm_prev
        d0 = ((((pm & vp) + vp) ^ vp) | pm | vn | tr) & mask
        hp = (vn | ~(d0 | vp)) & mask
        hn = d0 & vp
        if hp & last:
            score += 1
        elif hn & last:
            score -= 1
        hp = ((hp << 1) | 1) & mask
        hn = (hn << 1) & mask
        vp = (hn | ~(d0 | hp)) & mask
        vn = d0 & hp
        pm_prev = pm
    return score


class IdSuggester:
    """The did-you-mean suggestion of graph.md §5.1 over one fixed candidate list, equal to
    `text.did_you_mean(word, candidates)` but fast on large maps: answers are cached per word, a
    candidate whose length alone puts it out of reach is skipped, the scan stops at the best possible
    distance, and the total work is capped by SUGGESTION_BUDGET (map.md §6.2 runs this for every
    dangling reference, on documents up to 1M characters)."""

    def __init__(self, candidates: list[str], budget: int = SUGGESTION_BUDGET):
        self.candidates = candidates
        self.lowered = [c.lower() for c in candidates]
        self.first_equal: dict[str, str] = {}
        for c, low in zip(candidates, self.lowered):
            self.first_equal.setdefault(low, c)
        self.cache: dict[str, str | None] = {}
        self.complete: dict[str, bool] = {}  # word -> its search ran to the end
        self.budget = budget
        self.exhausted = False

    def __call__(self, word: str) -> str | None:
        if word in self.cache:
            return self.cache[word]
        limit = max(1, min(3, utf16_len(word) // 3))
        w = word.lower()
        best = self.first_equal.get(w)  # distance 0 beats everything
        if best is None and w and not self.exhausted:
            peq, m = _pattern_bits(w), len(w)
            best_d = limit + 1
            for c, low in zip(self.candidates, self.lowered):
                self.budget -= 1
                if self.budget < 0:
                    self.exhausted, best = True, None
                    break
                if abs(len(low) - m) >= best_d:
                    continue  # the distance is at least the difference in length
                d = _osa_bits(peq, m, low)
                if d < best_d:
                    best, best_d = c, d
                    if d == 1:  # only an equal string (ruled out above) is closer
                        break
        elif best is None and not w:
            best = next((c for c, low in zip(self.candidates, self.lowered) if len(low) <= limit), None)
        self.cache[word] = best
        self.complete[word] = best is not None or not self.exhausted
        return best

    def searched(self, word: str) -> bool:
        """False when the work cap cut this word's search short (so a missing suggestion means
        nothing)."""
        return self.complete.get(word, False)


def _suffix(suggestion: str | None) -> str:
    return "" if suggestion is None else f'; did you mean "{suggestion}"?'


def _ids(items: list) -> list[str]:
    return [x["id"] for x in items if isinstance(x, dict) and isinstance(x.get("id"), str)]


def dangling_ref_issues(index: MapIndex) -> list[Issue]:
    """map.md §6.2: sessions' lanes first (document order), then each handoff's `from`, then `to`
    (the reference places and their order come from `semantics.references`).

    Pointer: the offending string. `data`: `ref` (the unknown id), `field` (lane/from/to), `holder`
    (session/handoff), `holder_id`, `suggestion` (the did-you-mean id or None), `suggestion_searched`
    (False when the work cap of IdSuggester skipped the search).
    """
    out: list[Issue] = []
    hints: dict[str, IdSuggester] = {}
    for occ in references(index.doc, "map"):
        ref = occ.id
        lane = occ.target == "lane"
        if (ref in index.lanes) if lane else index.is_end(ref):
            continue
        seg = pointer_split(occ.pointer)
        holder_list, i, field = seg[0], int(seg[1]), seg[2]
        holder_id = index.doc[holder_list][i].get("id")
        if occ.target not in hints:
            hints[occ.target] = IdSuggester(_ids(index.lane_list) if lane
                                            else _ids(index.session_list) + _ids(index.person_list))
        hint = hints[occ.target](ref)
        if lane:
            msg = f'session "{holder_id}" is in unknown lane "{ref}"'
        elif index.has_people:
            msg = f'handoff "{holder_id}" {END_WORDS[field]} "{ref}", which is neither a session nor a person'
        else:
            msg = f'handoff "{holder_id}" {END_WORDS[field]} unknown session "{ref}"'
        out.append(make(
            "E_DANGLING_REF", msg + _suffix(hint), [holder_id], [occ.pointer],
            ref=ref, field=field, holder="session" if lane else "handoff", holder_id=holder_id, suggestion=hint,
            suggestion_searched=hints[occ.target].searched(ref),
        ))
    return out
