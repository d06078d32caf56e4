"""Repairs that are document edits for graphs and maps alike (operations.md §8.4 E_SCHEMA,
E_DUPLICATE_ID, W_UNKNOWN_KEY; §8.5 the same codes for maps): no operation can express them."""

from __future__ import annotations

from typing import Callable

from grooph_core.issues import Issue, SchemaProblem
from grooph_core.ops.doc_edits import remove, rename_key, set_value
from grooph_core.ops.ids import slug, unique
from grooph_core.ops.repair_types import BRAKED_KINDS, OPERATED_KINDS, Candidate
from grooph_core.rules.graph.ids import DuplicateId
from grooph_core.rules.map.ids import MapDuplicateId
from grooph_core.rules.unknown_keys import UnknownKey
from grooph_core.semantics.references import ID_LISTS, REFERABLE, ROOT_KIND, accepted_kinds, defined_ids, references_to
from grooph_core.source.text import did_you_mean, pointer_split, value_at

ROOT_KINDS = frozenset(ROOT_KIND.values())  # what a document's own id names: the graph, the map

# The lists whose objects carry ids, with the word a re-slugged id falls back to (§8.4 E_SCHEMA:
# "a fallback naming the object's kind"); None is the document itself.
LISTS = {kind: {None: ROOT_KIND[kind], **ID_LISTS[kind]} for kind in ID_LISTS}
# §8.4 W_UNKNOWN_KEY: deleting a misspelt brake field loses its intent, so only the rename is offered.
BRAKE_FIELDS = frozenset({"approval", "irreversible", "isolation", "evidence", "deny", "stops", "bar", "acceptance",
                          "inspects", "n", "limit", "every", "concurrency"})
# E_SCHEMA problems whose allowed values are a fixed list of strings (an enum typo can be corrected).
LIST_PROBLEMS = ("enum", "discriminator", "alternatives")


def doc_ids(doc: dict, kind: str) -> list[str]:
    """The id-uniqueness set of either kind (graph.md §1.11, map.md §2.8)."""
    return defined_ids(doc, kind)


def _id_owner(pointer: str, lists: dict) -> tuple[bool, str | None, int | None]:
    """(is an object's id, its list, its index) for `/id` or `/<list>/<i>/id`."""
    seg = pointer_split(pointer)
    if seg == ["id"]:
        return True, None, None
    if len(seg) == 3 and seg[0] in lists and seg[1].isdigit() and seg[2] == "id":
        return True, seg[0], int(seg[1])
    return False, None, None


def reference_places(doc: dict, kind: str, ident: str) -> list[tuple[Callable[[str], dict], frozenset[str]]]:
    """Every place that refers to `ident` (graph: operations.md §5.8; map: map.md §2.8), each with an
    edit that makes it name a new id and the kinds of object such a place can name."""
    out: list = []
    for o in references_to(doc, kind, ident):
        make = ((lambda new, ptr=o.pointer: rename_key(ptr, new)) if o.on_key
                else (lambda new, ptr=o.pointer, prefix=o.prefix: set_value(ptr, prefix + new)))
        out.append((make, frozenset(accepted_kinds(o.target))))
    return out


# --- E_SCHEMA ----------------------------------------------------------------------------------------


def schema(issue: Issue, f: SchemaProblem, doc: dict, kind: str) -> list[Candidate]:
    """An enum typo corrected (preferred); a badly shaped id re-slugged with its references (offered).
    A missing field is never filled with a placeholder (§8.1 "ask, do not invent")."""
    if issue.on_key or not issue.pointers:
        return []
    ptr = issue.pointers[0]
    value = value_at(doc, ptr)
    problem = f.problem
    field = pointer_split(ptr)[-1] if ptr else ""
    if problem in LIST_PROBLEMS and isinstance(value, str):
        allowed = [a for a in f.allowed if isinstance(a, str)]
        s = did_you_mean(value, allowed)
        if s is not None and s != value:
            return [Candidate(f'Change {field} "{value}" to "{s}"', [set_value(ptr, s)], "preferred")]
        return []
    if problem != "pattern" or not isinstance(value, str) or not isinstance(doc, dict):
        return []
    lists = LISTS[kind]
    is_id, list_key, index = _id_owner(ptr, lists)
    if not is_id:
        return []
    new = unique(slug(value, lists[list_key]), doc_ids(doc, kind))
    edits = [set_value(ptr, new)]
    if list_key is not None:
        obj_kind = lists[list_key]
        if not (isinstance(doc.get("layout"), dict) and new in doc["layout"]):
            edits += [make(new) for make, kinds in reference_places(doc, kind, value) if obj_kind in kinds]
    follow = " (references follow)" if len(edits) > 1 else ""
    return [Candidate(f'Make the id "{value}" valid: "{new}"{follow}', edits, "offered",
                      renames={value: new}, aliases={new: value})]


# --- E_DUPLICATE_ID ----------------------------------------------------------------------------------


def _occurrences(issue: Issue, f: DuplicateId | MapDuplicateId) -> list[tuple[str, str]]:
    """(pointer, kind word) of every copy of the id, first copy first."""
    if isinstance(f, DuplicateId):
        pointers = list(f.pointers_all) or ([issue.related[0][0]] if issue.related else []) + list(issue.pointers)
        out = []
        for p in pointers:
            seg = pointer_split(p)
            out.append((p, LISTS["graph"].get(seg[0] if len(seg) == 3 else None, "graph")))
        return out
    pointers = ([issue.related[0][0]] if issue.related else []) + list(issue.pointers)
    kinds = [o.kind for o in f.occurrences]
    if len(kinds) != len(pointers):
        return []
    return list(zip(pointers, kinds))


def duplicate_id(issue: Issue, f: DuplicateId | MapDuplicateId, doc: dict, kind: str) -> list[Candidate]:
    """Keep one holder of the id (the first one something can refer to) and give each other copy a
    fresh id, unique(id, id set), one after another (§8.4, map.md §6.1). Preferred when only copies
    nothing refers to are renamed (the graph's or map's own id, a policy, a handoff); otherwise
    offered. A reference that can only name the renamed copy's kind (a `back` entry when the kept
    holder is a node, a handoff's end when it is a lane) follows it; the others keep naming the kept
    holder, and the title says so."""
    ident = f.id
    occ = _occurrences(issue, f)
    if not isinstance(ident, str) or len(occ) < 2:
        return []
    referable = REFERABLE[kind]
    keep = next((i for i, (_, k) in enumerate(occ) if k in referable), None)
    if keep is None:
        keep = next((i for i, (_, k) in enumerate(occ) if k == "note"), 0)
    kept_kind = occ[keep][1]
    renamed = [i for i in range(len(occ)) if i != keep]
    if any(occ[i][1] == "note" for i in renamed):
        return []  # run notes are history: their ids are never rewritten
    taken = set(doc_ids(doc, kind))
    places = reference_places(doc, kind, ident)
    edits: list[dict] = []
    parts: list[str] = []
    list_renames: dict[str, dict[str, str]] = {}
    followed: set[str] = set()
    any_stay = False
    for i in renamed:
        ptr, k = occ[i]
        fresh = unique(ident, taken)
        taken.add(fresh)
        edits.append(set_value(ptr, fresh))
        seg = pointer_split(ptr)
        if len(seg) == 3 and seg[0] not in list_renames:
            list_renames[seg[0]] = {ident: fresh}
        follow = []
        if k in referable and k not in followed:
            followed.add(k)
            follow = [make(fresh) for make, kinds in places if k in kinds and kept_kind not in kinds]
        any_stay = any_stay or (k in referable and any(k in kinds and kept_kind in kinds for _, kinds in places))
        edits += follow
        who = f"the {k}" if k in ROOT_KINDS else f"{k} {_place(ptr)}"
        parts.append(f'{who} the id "{fresh}"' + (" (its references follow)" if follow else ""))
    quiet = all(occ[i][1] not in referable for i in renamed)
    aliases = {e["value"]: ident for e in edits if e["at"].endswith("/id") or e["at"] == "/id"}
    if kind in OPERATED_KINDS and len(renamed) == 1 and occ[renamed[0]][1] == ROOT_KIND[kind]:  # renameId
        fresh = edits[0]["value"]
        return [Candidate(f'Rename the graph to "{fresh}" (nothing refers to a graph\'s id)',
                          [{"op": "renameId", "from": ident, "to": fresh}], "preferred", aliases=aliases)]
    title = "Give " + "; give ".join(parts)
    if any_stay or not quiet:
        title += f'; other references to "{ident}" keep naming the {kept_kind} {_place(occ[keep][0])}'
    # A renamed copy keeps everything it held while it shared the id (a pasted node keeps its
    # irreversible list, its owned paths): what the rules now find about it under its fresh id was
    # in the text all along, hidden behind the duplicate, not made by the rename (issue 13). Errors
    # that name no copy are still compared.
    copies = frozenset(aliases)
    return [Candidate(title, edits, "preferred" if quiet else "offered", aliases=aliases,
                      list_renames=list_renames, continues=lambda i: any(a in copies for a in i.at))]


def _place(pointer: str) -> str:
    seg = pointer_split(pointer)
    return f"{seg[0]}[{seg[1]}]" if len(seg) == 3 else "itself"


# --- W_UNKNOWN_KEY -----------------------------------------------------------------------------------


def unknown_key(issue: Issue, f: UnknownKey, doc: dict, kind: str) -> list[Candidate]:
    """Rename a near-miss key to the declared field (preferred, when that field is not there yet);
    remove the key (offered), except a misspelt brake field in a graph, which is only renamed."""
    if not issue.pointers:
        return []
    ptr = issue.pointers[0]
    key, s, present = f.key, f.suggestion, f.suggestion_present
    out = []
    if isinstance(s, str) and not present:
        out.append(Candidate(f'Rename "{key}" to "{s}"', [rename_key(ptr, s)], "preferred"))
    if not (kind in BRAKED_KINDS and isinstance(s, str) and s in BRAKE_FIELDS):
        out.append(Candidate(f'Remove the unknown key "{key}"', [remove(ptr)], "offered"))
    return out


BUILDERS = {"E_SCHEMA": schema, "E_DUPLICATE_ID": duplicate_id, "W_UNKNOWN_KEY": unknown_key}


def edit_candidates(issue: Issue, doc: dict, kind: str) -> list[Candidate]:
    builder = BUILDERS.get(issue.code)
    return builder(issue, issue.facts, doc, kind) if builder is not None else []
