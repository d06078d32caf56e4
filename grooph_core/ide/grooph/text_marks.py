"""Inlay hints, semantic tokens and document links of graphs and maps (issue 31 items 3, 5, 6), from the
one model of references (`semantics.references`): a reference says what it names (`Tests · check`,
a session's name and lane), a loop's `stops` its brakes in words (graph.md §1.5), each id is coloured by
what it names, and a session's `graph` pointer (map.md §4.4, §6.8) and a URL open what they name."""

from __future__ import annotations

from grooph_core.ide.grooph.refactor import id_span
from grooph_core.ide.text_marks import (DocumentLink, InlayHint, Token, local_file, overlaps, parts_in_range, token,
                                        url_links)
from grooph_core.rules.map.graph_pointers import URL_SCHEME, is_checked_pointer
from grooph_core.semantics.references import ID_LISTS, ROOT_KIND, Occurrence, accepted_kinds, occurrences_in_part
from grooph_core.semantics.brake_words import loop_brakes_words


def _s(v: object) -> str | None:
    return v if isinstance(v, str) and v else None


def definitions(analysis) -> dict[tuple[str, str], dict]:
    """(kind of object, id) → the first object defining it (graph.md §0 "id lookup"), made once per
    version of the text (kept in the analysis's memo)."""
    found = analysis.memo.get("text_marks.definitions")
    if found is None:
        found = {}
        doc = analysis.value if isinstance(analysis.value, dict) else {}
        for key, kind in ID_LISTS.get(analysis.kind, ID_LISTS["graph"]).items():
            items = doc.get(key)
            for item in items if isinstance(items, list) else ():
                if isinstance(item, dict) and isinstance(item.get("id"), str):
                    found.setdefault((kind, item["id"]), item)
        analysis.memo["text_marks.definitions"] = found
    return found


def _named(defs: dict, occ: Occurrence) -> tuple[str, dict] | None:
    """(kind, object) a reference names, or None when it names nothing."""
    for kind in accepted_kinds(occ.target):
        obj = defs.get((kind, occ.id))
        if obj is not None:
            return kind, obj
    return None


def _occurrences(analysis, start: int, end: int) -> list[Occurrence]:
    return [o for key, i in parts_in_range(analysis, start, end)
            for o in occurrences_in_part(analysis.value, analysis.kind, key, i)]


# ---- inlay hints ----------------------------------------------------------------------------------------


def _words(kind: str, obj: dict, defs: dict) -> str:
    """What a reference to this object says after it: its name and what it is."""
    name = _s(obj.get("name")) or _s(obj.get("id")) or ""
    if kind == "node":
        return f"{name} · {_s(obj.get('kind')) or 'node'}"
    if kind == "edge":
        return f"{obj.get('from')} → {obj.get('to')}"
    if kind == "session":
        lane = defs.get(("lane", obj.get("lane"))) if isinstance(obj.get("lane"), str) else None
        where = (_s(lane.get("name")) or _s(lane.get("id"))) if lane else _s(obj.get("lane"))
        return f"{name} · {where}" if where else name
    if kind == "person":
        role = _s(obj.get("role"))
        return f"{name} · {role}" if role else name
    if kind == "lane":
        machine = _s(obj.get("machine"))
        return f"{name} · {machine}" if machine else name
    return f"{name} · {kind}"


def inlay_hints(analysis, start: int, end: int) -> list[InlayHint]:
    """The hints placed in the range [start, end]: after each reference (not a layout key, which is a place
    rather than a step of the flow) what it names; before a loop's `stops` its brakes in words. A
    reference to nothing gets none (its diagnostic says so)."""
    if not isinstance(analysis.value, dict):
        return []
    defs = definitions(analysis)
    sm = analysis.parsed.source_map
    out: list[InlayHint] = []
    for o in _occurrences(analysis, start, end):
        if o.definition or o.on_key:
            continue
        named = _named(defs, o)
        span = sm.value_span(o.pointer)
        if named is None or span is None or not start <= span[1] <= end:
            continue
        out.append(InlayHint(span[1], _words(named[0], named[1], defs), f"the {named[0]} {o.id}"))
    for key, i in parts_in_range(analysis, start, end):
        if key != "loops" or i is None:
            continue
        loop = analysis.value["loops"][i]
        span = sm.value_span(f"/loops/{i}/stops") if isinstance(loop, dict) else None
        if span is not None and start <= span[0] <= end:
            out.append(InlayHint(span[0], loop_brakes_words(loop), "the loop's brakes (graph.md §1.5)", before=True))
    return sorted(out, key=lambda h: h.offset)


# ---- semantic tokens ------------------------------------------------------------------------------------


def semantic_tokens(analysis, start: int = 0, end: int | None = None) -> list[Token]:
    """Every id in the range coloured by what it names; definitions marked `declaration`, a reference
    to nothing `deprecated` (ide.text_marks)."""
    if not isinstance(analysis.value, dict):
        return []
    end = len(analysis.text) if end is None else end
    defs = definitions(analysis)
    root = ROOT_KIND.get(analysis.kind, "graph")
    out: list[Token] = []
    for o in _occurrences(analysis, start, end):
        s, e = id_span(analysis, o)
        if e <= s or not overlaps((s, e), start, end) or "\n" in analysis.text[s:e]:
            continue
        if o.definition:
            out.append(token(s, e, root if o.pointer == "/id" else o.target, defines=True))
            continue
        named = _named(defs, o)
        kind = named[0] if named else accepted_kinds(o.target)[0]
        out.append(token(s, e, kind, unresolved=named is None))
    out.sort()
    return out


# ---- document links -------------------------------------------------------------------------------------


def document_links(analysis, path: str | None) -> list[DocumentLink]:
    """A map session's `graph` pointer: an existing file beside the map, a URL, or a
    `<graph-id>@<version>` for the workspace to find (map.md §4.4, §6.8); and every URL in the text."""
    out = url_links(analysis.text)
    urls = {(link.start, link.end) for link in out}
    doc = analysis.value
    if analysis.document_kind.names_graphs and isinstance(doc, dict) and isinstance(doc.get("sessions"), list):
        for i, s in enumerate(doc["sessions"]):
            written = s.get("graph") if isinstance(s, dict) else None
            if not isinstance(written, str) or not written or URL_SCHEME.match(written):
                continue  # a URL is linked with the others
            span = analysis.parsed.source_map.value_span(f"/sessions/{i}/graph")
            if span is None or any(a <= span[0] < b for a, b in urls):
                continue
            inner = (span[0] + 1, span[1] - 1) if analysis.text[span[0]] == '"' else span
            if is_checked_pointer(written):
                target = local_file(path, written)
                if target is not None:
                    out.append(DocumentLink(*inner, target, "open the graph"))
            elif "@" in written:
                gid, _, version = written.rpartition("@")
                if gid and version:
                    out.append(DocumentLink(*inner, None, f"the graph {gid} at version {version}",
                                            graph_ref=(gid, version)))
    return sorted(out, key=lambda link: link.start)
