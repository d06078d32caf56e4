"""Hover text: what a key means and accepts, what an id names, and what a diagnostic's code means.

Field meanings come from the models' descriptions (the single source); code meanings and repairs
from the issue registry.
"""

from __future__ import annotations

from dataclasses import dataclass

from grooph_core.ide.grooph.analysis import Analysis
from grooph_core.ide.grooph.navigation import find_definition, occurrence_at, occurrences, related_occurrences
from grooph_core.issues import CODES
from grooph_core.model import field_info
from grooph_core.semantics.references import ROOT_KIND
from grooph_core.source.text import value_at


@dataclass(frozen=True)
class HoverText:
    markdown: str
    span: tuple[int, int]


def _describe_object(kind: str, doc: object, pointer: str, what: str) -> str:
    obj = value_at(doc, pointer.rsplit("/id", 1)[0]) if pointer.endswith("/id") else None
    if not isinstance(obj, dict):
        return f"{what}"
    parts = [f"**{what}** `{obj.get('id')}`"]
    name = obj.get("name")
    if isinstance(name, str) and name:
        parts.append(f"— {name}")
    detail = []
    k = obj.get("kind")
    if isinstance(k, str):
        detail.append(k)
    role = obj.get("role")
    if isinstance(role, str):
        detail.append(role)
    elif isinstance(role, dict) and isinstance(role.get("custom"), str):
        detail.append(role["custom"])
    if obj.get("by") == "person":
        detail.append("a person's step")
    for f in ("from", "to"):
        if isinstance(obj.get(f), str) and what in ("edge", "handoff"):
            detail.append(f"{f} `{obj[f]}`")
    for f in ("harness", "lane", "machine", "account"):
        if isinstance(obj.get(f), str):
            detail.append(f"{f} {obj[f]}")
    text = " ".join(parts)
    if detail:
        text += f" ({', '.join(detail)})"
    desc = obj.get("description") or obj.get("brief") or obj.get("prompt")
    if isinstance(desc, str) and desc.strip():
        text += "\n\n" + (desc if len(desc) <= 400 else desc[:400] + "…")
    return text


def _id_hover(analysis: Analysis, pointer: str, on_key: bool) -> str | None:
    occs = occurrences(analysis.value, analysis.kind)
    occ = occurrence_at(occs, pointer, on_key=on_key)
    if occ is None:
        return None
    target = occ if occ.definition else find_definition(occs, occ)
    if target is None:
        want = occ.target.replace("|", " or ")
        return f"No {want} has the id `{occ.id}`."
    text = _describe_object(analysis.kind, analysis.value, target.pointer, target.target)
    if target.target not in ROOT_KIND.values():  # nothing refers to the document's own id
        refs = [o for o in related_occurrences(occs, target) if not o.definition]
        text += f"\n\n{len(refs)} reference{'s' if len(refs) != 1 else ''}"
    return text


def field_hover(analysis: Analysis, pointer: str) -> str | None:
    fs = field_info(analysis.kind, analysis.value, pointer)
    if fs is None:
        return None
    lines = [f"**{fs.name}** — {fs.description}", ""]
    lines.append(f"*{'required' if fs.required else 'optional'}* · {fs.expected}")
    if fs.values:
        lines += ["", "Allowed: " + ", ".join(f"`{v}`" for v in fs.values)]
    elif fs.examples:
        lines += ["", "Known values: " + ", ".join(f"`{v}`" for v in fs.examples)]
    if fs.default is not None:
        lines += ["", f"Default when absent: `{fs.default}`"]
    if fs.ref:
        lines += ["", f"Names a {fs.ref.replace('-or-', ' or ')} by its id."]
    return "\n".join(lines)


def _code_hover(analysis: Analysis, offset: int) -> tuple[str, tuple[int, int]] | None:
    hits = []
    for issue in analysis.issues:
        s, e = analysis.span(issue)
        if s <= offset <= e:
            hits.append((issue, (s, e)))
    if not hits:
        return None
    parts = []
    for issue, _ in hits:
        c = CODES.get(issue.code)
        title = c.title if c else issue.code
        part = f"**{issue.code}** — {title}\n\n{issue.message}"
        if c and c.repair:
            part += f"\n\n*Repair:* {c.repair}"
        if c and c.spec:
            part += f"  \n*Spec:* {c.spec}"
        parts.append(part)
    return "\n\n---\n\n".join(parts), hits[0][1]


def hover_at(analysis: Analysis, offset: int) -> HoverText | None:
    """Hover for the token at `offset`: the field or id it names, and any issue there."""
    sections: list[str] = []
    span: tuple[int, int] | None = None
    where = analysis.parsed.source_map.pointer_at(offset) if analysis.value is not None else None
    if where is not None:
        pointer, part = where
        if part == "key":
            if analysis.document_kind.layout_keys_are_ids and pointer.startswith("/layout/") and pointer.count("/") == 2:
                text = _id_hover(analysis, pointer, True)
            else:
                text = field_hover(analysis, pointer)
            span = analysis.parsed.source_map.key_span(pointer)
        else:
            text = _id_hover(analysis, pointer, False)
            span = analysis.parsed.source_map.value_span(pointer)
            if text is None:
                text = _value_hover(analysis, pointer)
        if text:
            sections.append(text)
    code = _code_hover(analysis, offset)
    if code is not None:
        sections.append(code[0])
        span = span or code[1]
    if not sections or span is None:
        return None
    return HoverText("\n\n---\n\n".join(sections), span)


def _value_hover(analysis: Analysis, pointer: str) -> str | None:
    """A value: what its field means, and the values it allows when they are fixed."""
    fs = field_info(analysis.kind, analysis.value, pointer)
    if fs is None:
        return None
    text = f"**{fs.name}** — {fs.description}"
    if fs.values:
        text += "\n\nAllowed: " + ", ".join(f"`{v}`" for v in fs.values)
    return text
