"""The names of the neighbouring formats (workflow.md §4, board.md §4): which places define or refer to
which kind of name, and definition, references and rename on them. Rename edits only the names' text."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from grooph_core.ide.refused import Refused
from grooph_core.ide.text_edits import TextEdit
from grooph_core.rules.board.semantics import read_board
from grooph_core.rules.workflow.semantics import read_workflow
from grooph_core.source.text import pointer_join

WORKFLOW_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*\Z")


@dataclass(frozen=True)
class NameSite:
    """One place a name stands: its kind (status, role, run specification, run state, task), the name,
    the pointer, whether it is the key (a definition) and whether it defines the name."""

    kind: str
    name: str
    pointer: str
    key: bool
    defines: bool


def _names(value: object):
    if type(value) is str:
        yield None, value
    elif type(value) is list:
        for i, v in enumerate(value):
            if type(v) is str:
                yield i, v


# The mappings whose keys define names, by document kind and kind of name (workflow.md §4, board.md §4).
DEFINING_MAPPINGS = {
    "workflow": {"status": "/statuses", "role": "/roles", "run specification": "/run/roles", "run state": "/run/states"},
    "board": {"task": "/tasks"},
}


def workflow_sites(value: object) -> list[NameSite]:
    """Every name place of a workflow (workflow.md §4; `params.NAME` in expressions is not covered)."""
    doc = read_workflow(value)
    out: list[NameSite] = []
    mappings = {"status": doc.statuses, "role": doc.roles, "run specification": doc.run_roles,
                "run state": doc.run_states}
    for kind, base in DEFINING_MAPPINGS["workflow"].items():
        for name in mappings[kind] or {}:
            out.append(NameSite(kind, name, pointer_join(base, name), True, True))
    for t in doc.transitions():
        target_kind = "status" if t.card else "run state"
        if type(t.value.get("target")) is str and "{{" not in t.value["target"]:
            out.append(NameSite(target_kind, t.value["target"], t.pointer + "/target", False, False))
        for i, n in _names(t.value.get("from")):
            out.append(NameSite(target_kind, n, t.pointer + "/from" + ("" if i is None else f"/{i}"), False, False))
        for i, n in _names(t.value.get("by")):
            out.append(NameSite("role", n, t.pointer + "/by" + ("" if i is None else f"/{i}"), False, False))
    for base, mapping in (("/statuses", doc.statuses), ("/run/states", doc.run_states)):
        for name, status in (mapping or {}).items():
            if type(status) is not dict:
                continue
            p = pointer_join(base, name)
            run = status.get("run")
            if type(run) is dict and type(run.get("role")) is str:
                out.append(NameSite("role", run["role"], p + "/run/role", False, False))
            if type(status.get("run_role")) is str:
                out.append(NameSite("run specification", status["run_role"], p + "/run_role", False, False))
            if type(status.get("resume_as")) is str:
                out.append(NameSite("status", status["resume_as"], p + "/resume_as", False, False))
    for name, spec in (doc.run_roles or {}).items():
        if type(spec) is dict and type(spec.get("role")) is str:
            out.append(NameSite("role", spec["role"], pointer_join("/run/roles", name, "role"), False, False))
    if doc.run is not None:
        if type(doc.run.get("recurring_role")) is str:
            out.append(NameSite("run specification", doc.run["recurring_role"], "/run/recurring_role", False, False))
        if type(doc.run.get("initial")) is str and doc.run["initial"]:
            out.append(NameSite("run state", doc.run["initial"], "/run/initial", False, False))
    dispatch = doc.value.get("dispatch")
    caps = dispatch.get("capacity") if type(dispatch) is dict else None
    for i, cap in enumerate(caps if type(caps) is list else ()):
        if type(cap) is not dict:
            continue
        reserve = cap.get("reserve")
        filters = [("where", cap.get("where")), ("unless", cap.get("unless"))]
        if type(reserve) is dict:
            filters.append(("reserve/for", reserve.get("for")))
        for where, f in filters:
            if type(f) is dict:
                for j, n in _names(f.get("status")):
                    p = f"/dispatch/capacity/{i}/{where}/status" + ("" if j is None else f"/{j}")
                    out.append(NameSite("status", n, p, False, False))
    return out


def board_sites(value: object) -> list[NameSite]:
    """Every task id place of a board (board.md §4): the keys of `tasks`, each task's `id`, dependency
    `parent`/`child` and `subtask_of`."""
    doc = read_board(value)
    out: list[NameSite] = []
    for key, p, task in doc.task_items():
        out.append(NameSite("task", key, p, True, True))
        if type(task.get("id")) is str:
            out.append(NameSite("task", task["id"], p + "/id", False, True))
        if type(task.get("subtask_of")) is str:
            out.append(NameSite("task", task["subtask_of"], p + "/subtask_of", False, False))
    for d in doc.dependencies:
        for end in ("parent", "child"):
            if type(getattr(d, end)) is str:
                out.append(NameSite("task", getattr(d, end), f"{d.pointer}/{end}", False, False))
    return out


SITES = {"workflow": workflow_sites, "board": board_sites}


def sites(analysis) -> list[NameSite]:
    """The name places of a neighbouring analysis (none for a kind without names)."""
    fn = SITES.get(analysis.kind)
    return fn(analysis.value) if fn else []


def name_span(analysis, site: NameSite) -> tuple[int, int] | None:
    """The span of the name's own characters (inside quotes when the scalar is quoted as-is)."""
    sm = analysis.parsed.source_map
    span = sm.key_span(site.pointer) if site.key else sm.value_span(site.pointer)
    if span is None:
        return None
    s, e = span
    raw = analysis.text[s:e]
    if raw != site.name and len(raw) >= 2 and raw[0] == raw[-1] and raw[0] in "'\"" and raw[1:-1] == site.name:
        return s + 1, e - 1
    return span


def site_at(analysis, offset: int, all_sites: list[NameSite] | None = None) -> tuple[NameSite, tuple[int, int]] | None:
    """The name place the offset is in (its end included)."""
    for site in sites(analysis) if all_sites is None else all_sites:
        span = name_span(analysis, site)
        if span is not None and span[0] <= offset <= span[1]:
            return site, span
    return None


def _same_name(analysis, site: NameSite, all_sites: list[NameSite] | None = None) -> list[tuple[NameSite, tuple[int, int]]]:
    out = []
    for other in sites(analysis) if all_sites is None else all_sites:
        if other.kind == site.kind and other.name == site.name:
            span = name_span(analysis, other)
            if span is not None:
                out.append((other, span))
    return out


def definition_at(analysis, offset: int) -> list[tuple[int, int]]:
    hit = site_at(analysis, offset)
    if hit is None:
        return []
    return [span for s, span in _same_name(analysis, hit[0]) if s.key]


def references_at(analysis, offset: int, *, include_declaration: bool = True) -> list[tuple[int, int]]:
    hit = site_at(analysis, offset)
    if hit is None:
        return []
    return [span for s, span in _same_name(analysis, hit[0]) if include_declaration or not s.defines]


def prepare_rename_at(analysis, offset: int) -> tuple[tuple[int, int], str] | None:
    """The span and text of the name at the offset; None where there is no name."""
    hit = site_at(analysis, offset)
    return None if hit is None else (hit[1], hit[0].name)




def rename_at(analysis, offset: int, new_name: str) -> list[TextEdit] | Refused:
    """Edits renaming the name at the offset: its definition and every reference, nothing else."""
    every = sites(analysis)
    hit = site_at(analysis, offset, every)
    if hit is None:
        return Refused("There is no name at the cursor to rename.")
    site = hit[0]
    if not new_name:
        return Refused(f"A {site.kind} name cannot be empty.")
    if analysis.neighbour.syntax == "yaml" and not WORKFLOW_NAME.match(new_name):
        return Refused(f"{new_name!r} is not a valid {site.kind} name (letters, digits, _ and -, "
                       "not starting with a digit or -).")
    if new_name == site.name:
        return []
    if any(s.kind == site.kind and s.name == new_name and s.defines for s in every):
        return Refused(f"There is already a {site.kind} {new_name}.")
    text = json.dumps(new_name, ensure_ascii=False)[1:-1] if analysis.neighbour.syntax == "json" else new_name
    return [TextEdit(s, e, text) for _, (s, e) in _same_name(analysis, site, every)]


def marked_definition(analysis, mark: str, ident: str) -> tuple[int, int] | None:
    """The span of the name a picture marks `data-<mark>="<ident>"` (picture.marks) where its kind's
    mapping defines it (a status under `statuses`); None when the text defines no such name."""
    from grooph_core.picture.marks import marked_kind

    kind = marked_kind(mark)
    base = DEFINING_MAPPINGS.get(analysis.kind, {}).get(kind)
    if base is None or not isinstance(ident, str) or analysis.value is None:
        return None
    return name_span(analysis, NameSite(kind, ident, pointer_join(base, ident), True, True))
