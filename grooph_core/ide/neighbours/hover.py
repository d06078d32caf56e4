"""Hover in a neighbouring document (issue 15 point 5): on a key, the model field's description, type
and allowed words (the graph hover's field text, on the workflow/board models; the episode record's
schema) and whether it may be null (workflow.md §0); on a name (status, role, run spec, run state,
task), what it is and where it is defined."""

from __future__ import annotations

from grooph_core.ide.grooph.hover import HoverText
from grooph_core.ide.neighbours import names as neighbour_names


def _name_hover(analysis, offset: int) -> HoverText | None:
    hit = neighbour_names.site_at(analysis, offset)
    if hit is None:
        return None
    site, span = hit
    defs = neighbour_names.definition_at(analysis, offset)
    if not defs:
        return HoverText(f"**{site.kind}** `{site.name}` — not defined in this document", span)
    line = analysis.line_index.position(defs[0][0])[0] + 1
    where = "this definition" if site.key else f"defined on line {line}"
    return HoverText(f"**{site.kind}** `{site.name}` — {where}", span)


def _key_hover(analysis, pointer: str) -> str | None:
    """What a key means, as its kind describes keys (`NeighbourFace.key_hover`)."""
    return analysis.document_kind.key_hover(analysis, pointer)


def neighbour_hover_at(analysis, offset: int) -> HoverText | None:
    """Hover for the token at `offset` of a neighbouring analysis; None where there is nothing to say."""
    if analysis.value is None:
        return None
    name = _name_hover(analysis, offset)
    sm = analysis.parsed.source_map
    pointer, part = sm.pointer_at(offset)
    if part == "key" and pointer:
        text = _key_hover(analysis, pointer)
        if text:
            if name is not None:  # a key that is a name (a status's key): both facts
                return HoverText(name.markdown + "\n\n---\n\n" + text, name.span)
            return HoverText(text, sm.key_span(pointer))
    return name
