"""Go to definition, find references and rename, on a document's analysis and a cursor offset.

Rename on a graph applies the `renameId` operation (operations.md §5.8) to the value and turns the
change into small text edits, so it updates exactly what `renameId` updates (derived edge ids and
layout keys included). A map has no rename operation; its ids are rewritten at every reference of
map.md §2.8.
"""

from __future__ import annotations

import json
import re

from grooph_core.ide.grooph.analysis import Analysis
from grooph_core.ide.grooph.navigation import Occurrence, find_definition, occurrence_at, occurrences, related_occurrences
from grooph_core.ide.refused import Refused
from grooph_core.ide.text_edits import TextEdit, value_edits
from grooph_core.ops import apply
from grooph_core.semantics.references import rewrite_id
from grooph_core.source.json_copy import copy_json

ID_PATTERN = re.compile(r"[a-z][a-z0-9-]*")


def occurrence_at_offset(analysis: Analysis, offset: int) -> Occurrence | None:
    """The id occurrence under the cursor (a string value or a layout key), if any."""
    if analysis.value is None:
        return None
    where = analysis.parsed.source_map.pointer_at(offset)
    if where is None:
        return None
    pointer, part = where
    return occurrence_at(occurrences(analysis.value, analysis.kind), pointer, on_key=(part == "key"))


def id_span(analysis: Analysis, occ: Occurrence) -> tuple[int, int]:
    """The span of the id text itself: inside the quotes, after a `node:`-style prefix."""
    sm = analysis.parsed.source_map
    span = sm.key_span(occ.pointer) if occ.on_key else sm.value_span(occ.pointer)
    if span is None:
        return (0, 0)
    s, e = span
    raw = analysis.text[s:e]
    if raw == json.dumps(occ.prefix + occ.id if not occ.on_key else occ.id, ensure_ascii=False):
        start = s + 1 + (0 if occ.on_key else len(occ.prefix))
        return (start, start + len(occ.id))
    return span  # written with escapes: the whole string is the best true target


def definition_at(analysis: Analysis, offset: int) -> list[tuple[int, int]]:
    occ = occurrence_at_offset(analysis, offset)
    if occ is None:
        return []
    if occ.definition:
        return [id_span(analysis, occ)]
    target = find_definition(occurrences(analysis.value, analysis.kind), occ)
    return [id_span(analysis, target)] if target else []


def references_at(analysis: Analysis, offset: int, *, include_declaration: bool = True) -> list[tuple[int, int]]:
    occ = occurrence_at_offset(analysis, offset)
    if occ is None:
        return []
    related = related_occurrences(occurrences(analysis.value, analysis.kind), occ)
    return [id_span(analysis, o) for o in related if include_declaration or not o.definition]


def prepare_rename_at(analysis: Analysis, offset: int) -> tuple[tuple[int, int], str] | Refused | None:
    """The span and current text of a renameable id under the cursor, or why it cannot be renamed."""
    occ = occurrence_at_offset(analysis, offset)
    if occ is None:
        return None
    if not analysis.parsed.ok:
        return Refused("Fix the JSON syntax errors first: rename needs a document that parses.")
    if occ.target == "note":
        return Refused("Run-note ids cannot be renamed: notes are history.")  # operations.md §5.8
    if not occ.definition and find_definition(occurrences(analysis.value, analysis.kind), occ) is None:
        return Refused(f'No object has the id "{occ.id}", so there is nothing to rename.')
    return id_span(analysis, occ), occ.id


def _id_set(doc: dict, kind: str) -> set[str]:
    return {o.id for o in occurrences(doc, kind) if o.definition}  # type: ignore[arg-type]


def rename_at(analysis: Analysis, offset: int, new_id: str) -> list[TextEdit] | Refused:
    """Edits renaming the id under the cursor everywhere `renameId` would; or a clear refusal."""
    prep = prepare_rename_at(analysis, offset)
    if prep is None:
        return Refused("There is no id at the cursor.")
    if isinstance(prep, Refused):
        return prep
    _, old_id = prep
    if not ID_PATTERN.fullmatch(new_id):
        return Refused(f'"{new_id}" is not a valid id: use kebab-case (a lower-case letter, then lower-case letters, digits and "-").')
    if new_id == old_id:
        return []
    doc = analysis.value
    assert isinstance(doc, dict)
    if new_id in _id_set(doc, analysis.kind):
        return Refused(f'The id "{new_id}" is already used in this document; ids must be unique.')
    if not analysis.document_kind.takes_operations:  # a map: no renameId (operations.md §1)
        new_doc = _rename_in_map(doc, old_id, new_id)
    else:
        result = apply(doc, [{"op": "renameId", "from": old_id, "to": new_id}])
        if not result.ok:
            return Refused(result.error.message if result.error else "renameId refused")
        new_doc = result.doc
    edits = value_edits(analysis.text, analysis.parsed.source_map, doc, new_doc)
    if edits is None:
        return Refused("The rename could not be expressed as edits of this text; nothing was changed.")
    return edits


def _rename_in_map(doc: dict, old: str, new: str) -> dict:
    """map.md §2.8: the id itself and every reference to it (session lanes, handoff ends); the map's
    own id alone."""
    out = copy_json(doc)
    if out.get("id") == old:
        out["id"] = new
        return out
    rewrite_id(out, "map", old, new, keep=frozenset({"map"}))
    return out


def marked_definition(analysis: Analysis, mark: str, ident: str) -> tuple[int, int] | None:
    """The span of the id of the object a picture marks `data-<mark>="<ident>"` (picture.marks): its
    first definition of that kind, as go-to-definition finds it; None when the text has no such object."""
    from grooph_core.picture.marks import marked_kind
    from grooph_core.semantics.references import accepts

    kind = marked_kind(mark)
    if kind is None or not isinstance(ident, str) or analysis.value is None:
        return None
    for o in occurrences(analysis.value, analysis.kind):
        if o.definition and o.id == ident and accepts(o.target, kind):
            return id_span(analysis, o)
    return None
