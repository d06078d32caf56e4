"""Inlay hints, semantic tokens and document links of workflows and boards (issue 31 items 3, 5, 6), from
their names model (`names.sites`, workflow.md §4, board.md §4): a transition's target says what the status
is (what kanban.db stores, who runs there, or that it is final), a role what it reads, a task reference
the task's title; every name is coloured by what it names; a run's `prompt_file` (workflow.md §1 Run)
and a URL open what they name."""

from __future__ import annotations

import json

from grooph_core.ide.neighbours.names import DEFINING_MAPPINGS, SITES, NameSite, name_span
from grooph_core.ide.text_marks import (DocumentLink, InlayHint, Token, local_file, overlaps, pruned_value, token,
                                        url_links)
from grooph_core.source.text import pointer_join

# The status fields that move a card on (workflow.md §1 Status): a status with none of them is final.
_MOVES_ON = ("on", "always", "after")
# The references hinted, by kind: a workflow's that say where a card goes or who acts (not the `from`
# lists, which repeat names the reader sees defined nearby); every one of a board's (None).
_HINTED = {"workflow": ("/target", "/resume_as", "/run/initial", "/by", "/role")}


def _defined(analysis) -> set[tuple[str, str]]:
    """(kind, name) of every name the document defines: the keys of its defining mappings."""
    return {(kind, name) for kind, base in DEFINING_MAPPINGS.get(analysis.kind, {}).items()
            for name in _mapping(analysis.value, base)}


def _sites(analysis, start: int, end: int | None) -> list[NameSite]:
    """The name places of the range (of the whole text when `end` is None), walking only the parts of the
    document it touches."""
    fn = SITES.get(analysis.kind)
    if fn is None:
        return []
    return fn(analysis.value if end is None else pruned_value(analysis, start, end))


def _in_range(analysis, all_sites: list[NameSite], start: int, end: int):
    for s in all_sites:
        span = name_span(analysis, s)
        if span is not None and span[1] > span[0] and overlaps(span, start, end):
            yield s, span


def _mapping(value: object, pointer: str) -> dict:
    for step in pointer.strip("/").split("/"):
        value = value.get(step) if isinstance(value, dict) else None
    return value if isinstance(value, dict) else {}


def _status_words(name: str, status: object, run_state: bool) -> str:
    """A status in a few words: what kanban.db stores when it differs from its name, who runs there,
    and whether a card ever leaves it."""
    if not isinstance(status, dict):
        return ""
    words = []
    stored = status.get("stored_as")
    if isinstance(stored, str) and stored and stored != name:
        words.append(f"stored as {stored}")
    run = status.get("run")
    if isinstance(run, dict) and isinstance(run.get("role"), str):
        words.append(f"run by {run['role']}")
    elif isinstance(status.get("run_role"), str):
        words.append(f"runs {status['run_role']}")
    events = status.get("on")
    if not any(status.get(k) for k in _MOVES_ON):
        words.append("final")
    elif isinstance(events, dict) and events:
        words.append("on " + ", ".join(str(e) for e in events))
    return " · ".join(words)


def _words(analysis, site: NameSite) -> str:
    doc = analysis.value
    if site.kind in ("status", "run state"):
        base = "/statuses" if site.kind == "status" else "/run/states"
        return _status_words(site.name, _mapping(doc, base).get(site.name), site.kind == "run state")
    if site.kind == "role":
        expr = _mapping(doc, "/roles").get(site.name)
        return "= " + (expr if isinstance(expr, str) else json.dumps(expr)) if expr is not None else ""
    if site.kind == "run specification":
        spec = _mapping(doc, "/run/roles").get(site.name)
        return f"role {spec['role']}" if isinstance(spec, dict) and isinstance(spec.get("role"), str) else ""
    if site.kind == "task":
        task = _mapping(doc, "/tasks").get(site.name)
        return task["title"] if isinstance(task, dict) and isinstance(task.get("title"), str) else ""
    return ""


def inlay_hints(analysis, start: int, end: int) -> list[InlayHint]:
    """After each reference in the range that says where a card goes or who acts: what it names."""
    every = _sites(analysis, start - 1, end)
    defined = _defined(analysis)
    hinted = _HINTED.get(analysis.kind)
    out = []
    for s, span in _in_range(analysis, every, start - 1, end):  # a closing quote may end at `start`
        if s.defines or (s.kind, s.name) not in defined:
            continue
        if hinted is not None and not s.pointer.rstrip("0123456789").rstrip("/").endswith(hinted):
            continue
        words = _words(analysis, s)
        after = analysis.parsed.source_map.value_span(s.pointer)  # past a closing quote
        if words and after is not None and start <= after[1] <= end:
            out.append(InlayHint(after[1], words, f"the {s.kind} {s.name}"))
    return sorted(out, key=lambda h: h.offset)


def semantic_tokens(analysis, start: int = 0, end: int | None = None) -> list[Token]:
    """Every name in the range coloured by what it names; its definition `declaration`, a reference to
    nothing `deprecated`."""
    every = _sites(analysis, start, end)
    defined = _defined(analysis)
    end = len(analysis.text) if end is None else end
    out = [token(span[0], span[1], s.kind, defines=s.defines, unresolved=not s.defines and (s.kind, s.name) not in defined)
           for s, span in _in_range(analysis, every, start, end) if "\n" not in analysis.text[span[0]:span[1]]]
    out.sort()
    # a name that is both a key and defined again (a board task's `id`) is one token
    return [t for i, t in enumerate(out) if i == 0 or (t.start, t.end) != (out[i - 1].start, out[i - 1].end)]


def _prompt_files(value: object):
    """(pointer, written) of every run's `prompt_file` (workflow.md §1 Run): a status's run, a run
    state's, and each run specification."""
    if not isinstance(value, dict):
        return
    for base in ("/statuses", "/run/states"):
        for name, status in _mapping(value, base).items():
            run = status.get("run") if isinstance(status, dict) else None
            if isinstance(run, dict) and isinstance(run.get("prompt_file"), str):
                yield pointer_join(base, name, "run", "prompt_file"), run["prompt_file"]
    for name, spec in _mapping(value, "/run/roles").items():
        if isinstance(spec, dict) and isinstance(spec.get("prompt_file"), str):
            yield pointer_join("/run/roles", name, "prompt_file"), spec["prompt_file"]


def document_links(analysis, path: str | None) -> list[DocumentLink]:
    """Every URL in the text, and each run's `prompt_file` that names an existing file, relative to the
    workflow's folder."""
    out = url_links(analysis.text)
    for pointer, written in _prompt_files(analysis.value):
        target = local_file(path, written)
        span = analysis.parsed.source_map.value_span(pointer)
        if target is None or span is None:
            continue
        raw = analysis.text[span[0]:span[1]]
        if len(raw) >= 2 and raw[0] == raw[-1] and raw[0] in "'\"":
            span = (span[0] + 1, span[1] - 1)
        out.append(DocumentLink(span[0], span[1], target, "open the prompt"))
    return sorted(out, key=lambda link: link.start)
