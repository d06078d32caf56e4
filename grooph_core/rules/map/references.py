"""`E_DANGLING_REF` for maps (map.md §2.8, §6.2): a session's `lane` must name a lane; a handoff's
`from` and `to` must name a session or a person (only those are ends)."""

from __future__ import annotations

from grooph_core.issues import Issue, make
from grooph_core.rules.map.semantics import MapIndex
from grooph_core.text import did_you_mean

END_WORDS = {"from": "starts at", "to": "ends at"}


def _suffix(suggestion: str | None) -> str:
    return "" if suggestion is None else f'; did you mean "{suggestion}"?'


def _ids(items: list) -> list[str]:
    return [x["id"] for x in items if isinstance(x, dict) and isinstance(x.get("id"), str)]


def dangling_ref_issues(index: MapIndex) -> list[Issue]:
    """map.md §6.2: sessions' lanes first (document order), then each handoff's `from`, then `to`.

    Pointer: the offending string. `data`: `ref` (the unknown id), `field` (lane/from/to), `holder`
    (session/handoff), `holder_id`, `suggestion` (the did-you-mean id or None).
    """
    out: list[Issue] = []
    lane_ids: list[str] | None = None
    for i, s in enumerate(index.session_list):
        if not isinstance(s, dict):
            continue
        lane = s.get("lane")
        if not isinstance(lane, str) or lane in index.lanes:
            continue
        if lane_ids is None:
            lane_ids = _ids(index.lane_list)
        hint = did_you_mean(lane, lane_ids)
        sid = s.get("id")
        out.append(make(
            "E_DANGLING_REF", f'session "{sid}" is in unknown lane "{lane}"{_suffix(hint)}', [sid],
            [f"/sessions/{i}/lane"],
            ref=lane, field="lane", holder="session", holder_id=sid, suggestion=hint,
        ))
    end_ids: list[str] | None = None
    for i, h in enumerate(index.handoff_list):
        if not isinstance(h, dict):
            continue
        hid = h.get("id")
        for field in ("from", "to"):
            end = h.get(field)
            if not isinstance(end, str) or index.is_end(end):
                continue
            if end_ids is None:
                end_ids = _ids(index.session_list) + _ids(index.person_list)
            hint = did_you_mean(end, end_ids)
            if index.has_people:
                what = f'"{end}", which is neither a session nor a person'
            else:
                what = f'unknown session "{end}"'
            out.append(make(
                "E_DANGLING_REF", f'handoff "{hid}" {END_WORDS[field]} {what}{_suffix(hint)}', [hid],
                [f"/handoffs/{i}/{field}"],
                ref=end, field=field, holder="handoff", holder_id=hid, suggestion=hint,
            ))
    return out
