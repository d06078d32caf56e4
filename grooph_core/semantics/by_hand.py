"""What waits on a person: the by-hand list of a map (map.md §7). Not issues: a true statement about
the operation, printed after the issues of every check of a map."""

from __future__ import annotations

from grooph_core.semantics.map_index import MapIndex, carrier_of, map_index


def by_hand(doc: dict, index: MapIndex | None = None) -> list[dict]:
    """map.md §7.1/§7.3: one object per listed handoff, keys `handoff`, `from`, `to`, `who` and, only
    for a handoff that starts at a person, `starts: true`. Every handoff is considered, dangling or not.
    """
    index = index or map_index(doc)
    out: list[dict] = []
    for h in index.handoff_list:
        if not isinstance(h, dict):
            continue
        frm, to = h.get("from"), h.get("to")
        starter = index.person(frm)  # the LAST person with the id (map.md §7.1 rule 2)
        if starter is not None:
            if frm == to:
                continue  # a person to themselves reaches no one (rule 1)
            name = starter.get("name")
            who = name if isinstance(name, str) and name != "" else frm
            out.append({"handoff": h.get("id"), "from": frm, "to": to, "who": who, "starts": True})
            continue
        carrier = carrier_of(h)
        if carrier is not None and carrier.get("kind") == "person":
            who = carrier.get("who")
            out.append({"handoff": h.get("id"), "from": frm, "to": to, "who": who if isinstance(who, str) else ""})
    return out


def by_hand_line(entry: dict) -> str:
    """map.md §7.2: `by hand  <id>  <from> → <to>: moves only when <who> does|carries it`."""
    who = entry["who"] if entry["who"] != "" else "a person"
    verb = "does" if entry.get("starts") is True else "carries"
    return f"by hand  {entry['handoff']}  {entry['from']} → {entry['to']}: moves only when {who} {verb} it"


def by_hand_lines(doc: dict, index: MapIndex | None = None) -> list[str]:
    """The text lines of map.md §7.2, one per listed handoff, in list order."""
    return [by_hand_line(e) for e in by_hand(doc, index)]
