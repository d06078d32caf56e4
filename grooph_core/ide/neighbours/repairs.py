"""Quick fixes for the neighbouring documents (workflow, board, episode record): minimal text edits.

Three repairs (issue 15 point 5, issue 23):
- a did-you-mean (the rule's message ends "did you mean X?"): the wrong name's own characters become X;
- "Add status X" for E_WF_UNKNOWN_STATUS / E_WF_UNKNOWN_SOURCE_STATUS: `X: {}` as a new entry of
  `statuses`, with the indentation its other entries use, after the last one;
- "Remove the field" for a null the engine refuses in a field with a default (workflow.md §0 "null":
  left out, the field has its default): the member goes, its line in a block mapping, else it and one comma.
Every edit is checked (graph.md §8.2 spirit): applied and re-analysed, the issue is gone and no new error
appears; otherwise it is not offered. Everything else in the text stays byte-identical.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from grooph_core.ide.neighbours.analysis import NeighbourAnalysis, analyze_neighbour
from grooph_core.ide.text_edits import TextEdit, apply_edits
from grooph_core.issues import Issue, Named
from grooph_core.rules.serde_shape import ShapeProblem
from grooph_core.rules.unknown_keys import UnknownKey

_SUGGESTION = re.compile(r"did you mean (.+?)\?")
ADD_STATUS_CODES = ("E_WF_UNKNOWN_STATUS", "E_WF_UNKNOWN_SOURCE_STATUS")
_PLAIN_NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.-]*\Z")


@dataclass(frozen=True)
class NeighbourFix:
    """One checked quick fix: its issue, its title and its edits (offsets into the analysed text)."""

    issue: Issue
    title: str
    edits: tuple[TextEdit, ...]
    preferred: bool = False


class Refused(Exception):
    """A repair that cannot be made on this text; the message says why."""


def suggestion_of(issue: Issue) -> str | None:
    """The one did-you-mean name of the issue's message, or None (none, or several names)."""
    f = issue.facts
    if isinstance(f, (UnknownKey, ShapeProblem)) and isinstance(f.suggestion, str):
        return f.suggestion
    found = _SUGGESTION.findall(issue.message)
    return found[0] if len(found) == 1 else None


def rename_edit(analysis: NeighbourAnalysis, issue: Issue, new: str) -> TextEdit:
    """Replace the wrong name's own characters (inside the issue's span; quotes and the rest kept)."""
    start, end = analysis.span(issue)
    piece = analysis.text[start:end]
    old = issue.facts.name if isinstance(issue.facts, Named) else None
    if not isinstance(old, str) or not old:
        old = piece.strip("\"'")
    at = piece.find(old)
    if at < 0:
        raise Refused(f"the text at the issue does not spell {old!r}")
    if not piece.startswith(("'", '"')) and not _PLAIN_NAME.match(new):
        raise Refused(f"{new!r} needs quotes in this place")
    return TextEdit(start + at, start + at + len(old), new)


def add_status_edit(analysis: NeighbourAnalysis, name: str) -> TextEdit:
    """`name: {}` as the last entry of the workflow's `statuses` mapping, indented as its entries are."""
    if not _PLAIN_NAME.match(name):
        raise Refused(f"the status name {name!r} would need quoting")
    smap = analysis.parsed.source_map
    text = analysis.text
    span = smap.value_span("/statuses")
    if span is None:
        raise Refused("the workflow has no statuses mapping to add to")
    s, e = span
    body = text[s:e]
    if body.startswith("{"):  # flow style: `statuses: {a: {}, b: {}}`
        close = e - 1
        if text[close] != "}":
            raise Refused("the statuses mapping is not closed")
        inside = text[s + 1:close]
        sep = ", " if inside.strip() else ""
        trail = len(inside) - len(inside.rstrip())
        return TextEdit(close - trail, close - trail, f"{sep}{name}: {{}}")
    if body.startswith("["):
        raise Refused("statuses is a list, not a mapping")
    node = smap.node("/statuses")
    if node is None or not node.is_obj or not node.kspans:
        raise Refused("the statuses mapping has no entry to take the indentation from")
    first = node.kspans[-1][0]
    line_start = text.rfind("\n", 0, first) + 1
    indent = text[line_start:first]
    if indent.strip():
        raise Refused("the last status entry does not start its own line")
    last_end = max(end for _, end in (*node.vspans, *node.kspans))
    line_end = text.find("\n", last_end)
    newline = "\r\n" if line_end > 0 and text[line_end - 1] == "\r" else "\n"
    if line_end < 0:
        return TextEdit(len(text), len(text), f"{newline}{indent}{name}: {{}}{newline}")
    return TextEdit(line_end + 1, line_end + 1, f"{indent}{name}: {{}}{newline}")


def _key(i: Issue) -> tuple:
    return (i.code, i.at, i.message)


def checked(analysis: NeighbourAnalysis, issue: Issue, edits: tuple[TextEdit, ...]) -> bool:
    """Applying the edits and re-analysing removes the issue (same code, same place) and adds no error."""
    after = analyze_neighbour(apply_edits(analysis.text, list(edits)), analysis.neighbour)
    if any(i.code == issue.code and i.at == issue.at for i in after.issues):
        return False
    before = {_key(i) for i in analysis.issues if i.severity == "error"}
    return all(_key(i) in before for i in after.issues if i.severity == "error")


def candidates(analysis: NeighbourAnalysis, issue: Issue) -> list[NeighbourFix]:
    """The unchecked repairs of one issue (refused ones left out)."""
    out = []
    hint = suggestion_of(issue)
    if hint is not None:
        try:
            out.append(NeighbourFix(issue, f"Change to {hint}", (rename_edit(analysis, issue, hint),), True))
        except Refused:
            pass
    if issue.code in ADD_STATUS_CODES and analysis.document_kind.adds_missing_statuses:
        name = issue.facts.name if isinstance(issue.facts, Named) else None
        if isinstance(name, str) and name:
            try:
                out.append(NeighbourFix(issue, f"Add status {name}", (add_status_edit(analysis, name),)))
            except Refused:
                pass
    if isinstance(issue.facts, ShapeProblem) and issue.facts.problem == "null":
        try:
            out.append(NeighbourFix(issue, "Remove the field", (remove_member_edit(analysis, issue.pointers[0]),), True))
        except Refused:
            pass
    return out


_COMMA_AFTER = re.compile(r"[ \t]*,[ \t]*")
_COMMA_BEFORE = re.compile(r",[ \t]*\Z")


def remove_member_edit(analysis: NeighbourAnalysis, pointer: str) -> TextEdit:
    """Delete the mapping member at `pointer` (key and value): its whole line when it stands alone on it
    (a block mapping), else the member and one comma beside it (a flow mapping, JSON)."""
    sm = analysis.parsed.source_map
    ks, vs = sm.key_span(pointer), sm.value_span(pointer)
    if ks is None or vs is None:
        raise Refused("the field is not in the text")
    text = analysis.text
    line_start = text.rfind("\n", 0, ks[0]) + 1
    line_end = text.find("\n", vs[1])
    line_end = len(text) if line_end < 0 else line_end
    rest = text[vs[1]:line_end]
    if not text[line_start:ks[0]].strip() and (not rest.strip() or rest.strip().startswith("#")):
        return TextEdit(line_start, min(line_end + 1, len(text)), "")
    after = _COMMA_AFTER.match(text, vs[1])
    if after is not None:
        return TextEdit(ks[0], after.end(), "")
    before = _COMMA_BEFORE.search(text, 0, ks[0])
    if before is not None:
        return TextEdit(before.start(), vs[1], "")
    raise Refused("no comma beside the field to remove with it")


def neighbour_fixes(analysis: NeighbourAnalysis, issues) -> list[NeighbourFix]:
    """The checked quick fixes of the given issues, in their order."""
    return [f for issue in issues for f in candidates(analysis, issue) if checked(analysis, issue, f.edits)]


__all__ = ["NeighbourFix", "Refused", "suggestion_of", "rename_edit", "add_status_edit", "remove_member_edit", "checked",
           "candidates", "neighbour_fixes", "ADD_STATUS_CODES"]
