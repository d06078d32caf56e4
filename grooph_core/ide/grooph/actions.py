"""Editor actions on a document's analysis: operations as text edits, quick fixes, fix-all, preview.

Every action works on the value of a document that parses, applies operations all or nothing, and
turns the result into edits that touch only the values that changed (`text_edits.value_edits`); when
that cannot be done safely the edit rewrites the document in canonical form instead. An action that
cannot be applied returns no edit, so the document stays as it is.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field

from grooph_core.ide.grooph.analysis import Analysis
from grooph_core.ide.refused import Refused
from grooph_core.ide.text_edits import TextEdit, line_edits, value_edits
from grooph_core.issues import Issue
from grooph_core.ops import apply
from grooph_core.ops.doc_edits import is_edit_list
from grooph_core.ops.memo import RepairMemo
from grooph_core.ops.repairs import Stopped, repairs_for, result_of, candidates_for, check_candidates, fix_all as repair_all
from grooph_core.picture import PictureError, render_svg
from grooph_core.schema.canonical import canonical_text
from grooph_core.schema.check import schema_issues


@dataclass(frozen=True)
class OpsOutcome:
    """The result of applying an op list to the editor's text: edits, ids reply, or the failure."""

    ok: bool
    edits: tuple[TextEdit, ...] = ()
    ids: tuple = ()
    error: dict | None = None


def _needs_parsed(analysis: Analysis) -> Refused | None:
    limit = analysis.over_limit
    if limit is not None:
        return Refused(f"Nothing was changed: {limit.message}.")
    if not analysis.parsed.ok or not isinstance(analysis.value, dict):
        return Refused("The document is not valid JSON yet; fix the syntax errors first. Nothing was changed.")
    if any(p.code in ("W_DUPLICATE_KEY", "W_NUMBER_PRECISION") for p in analysis.parsed.problems):
        return Refused("The document has a duplicated key or a number that cannot be kept exactly; "
                       "changing it would lose what you wrote. Nothing was changed.")
    return None


def change_edits(analysis: Analysis, new_value: dict) -> list[TextEdit]:
    """Edits turning the text into one whose value is `new_value`, touching as little as possible."""
    edits = value_edits(analysis.text, analysis.parsed.source_map, analysis.value, new_value)
    if edits is not None:
        return edits
    return line_edits(analysis.text, canonical_text(new_value, analysis.kind))


def operations_edits(analysis: Analysis, ops: object) -> OpsOutcome:
    """Apply an op list (operations.md §1) to the document; all or nothing."""
    refused = _needs_parsed(analysis)
    if refused is not None:
        return OpsOutcome(False, error={"index": -1, "op": "", "message": refused.message})
    if not analysis.document_kind.takes_operations:
        return OpsOutcome(False, error={"index": -1, "op": "", "message": "operations apply to graphs; an operation map has none"})
    if schema_issues(analysis.value, "graph"):
        return OpsOutcome(False, error={"index": -1, "op": "", "message": "the document does not match the schema; fix its E_SCHEMA issues first"})
    result = apply(analysis.value, ops)  # type: ignore[arg-type]
    if not result.ok or result.doc is None:
        return OpsOutcome(False, error=result.error.to_json() if result.error else None)
    if schema_issues(result.doc, "graph"):
        return OpsOutcome(False, error={"index": -1, "op": "", "message": "the ops applied, but the result would not match the schema; nothing was changed"})
    return OpsOutcome(True, tuple(change_edits(analysis, result.doc)), result.ids)


@dataclass(frozen=True)
class QuickFix:
    """A code action: its title, class (safe / preferred / offered), the edits, the issue it fixes,
    and the pointer (in the changed document) where the person must type a value, if any."""

    title: str
    repair_class: str
    edits: tuple[TextEdit, ...]
    issue: Issue | None
    fill: str | None = None

    @property
    def preferred(self) -> bool:
        return self.repair_class in ("safe", "preferred")


def _reference_issues(analysis: Analysis, export: bool) -> list[Issue] | None:
    """What the §8.2 checks validate first (`validate_value` of the value, no resolver), when the
    analysis already computed exactly that: the same `export`, and a graph (its rules read no other
    document) or no resolver. Else None, and the checks validate the document themselves."""
    ref = analysis.reference
    if ref is None or ref[0] != export or (analysis.document_kind.names_graphs and not ref[1]):
        return None
    return list(ref[2])


def repair_memo(analysis: Analysis):
    """The `RepairMemo` of this analysis's value (one version: the value is never modified), made on
    first use and kept with the analysis, so the titles and edits of later requests reuse its ids,
    index and near names (issue 13)."""
    memo = analysis.memo.get("repairs")
    if memo is None or memo.doc is not analysis.value:
        memo = analysis.memo["repairs"] = RepairMemo(analysis.value)
    return memo


def quick_fixes(analysis: Analysis, issues: list[Issue], *, export: bool = False, stop=None) -> list[QuickFix]:
    """The repairs of operations.md §8 for these issues that pass the §8.2 checks (`check_issue`), as
    edits of the text, best first per issue. `stop()` is asked between candidates (checks and edits);
    when true, `Stopped` (grooph_core.ops.repairs) is raised."""
    if _needs_parsed(analysis) is not None:
        return []
    out: list[QuickFix] = []
    for issue in issues:
        found = candidates_for(issue, analysis.value, analysis.kind, repair_memo(analysis))
        for k in check_issue(analysis, issue, export=export, stop=stop):
            if stop is not None and stop():  # an edit costs about what a check does (80 ms at 1M)
                raise Stopped
            edits = candidate_edits(analysis, issue, k, export=export)
            if edits is not None:
                out.append(QuickFix(found[k].title, found[k].kind, edits, issue, found[k].fill))
    return out


@dataclass
class OfferChecks:
    """The §8.2 verdicts of one analysis's quick-fix candidates (issue 21: every action listed
    applies), for one export flag: per issue (by its index in `analysis.issues`), the positions, in
    `candidates_for` order, of the candidates that pass. Filled issue by issue, by the server's
    background checks or by a request, whichever comes first; one issue is checked by one thread at
    a time (a second one waits for its verdict instead of checking it again)."""

    index_of: dict[int, int]  # id(issue) -> its index in `analysis.issues`
    passing: dict[int, tuple[int, ...]] = field(default_factory=dict)
    # (issue index, position) -> the edits of a passing candidate, once made (`candidate_edits`)
    edits: dict[tuple[int, int], tuple[TextEdit, ...]] = field(default_factory=dict)
    _guard: threading.Lock = field(default_factory=threading.Lock)
    _locks: dict[int, threading.Lock] = field(default_factory=dict)

    def lock(self, n: int) -> threading.Lock:
        with self._guard:
            return self._locks.setdefault(n, threading.Lock())


def offer_checks(analysis: Analysis, export: bool) -> OfferChecks:
    """The verdicts kept with this analysis (one version; its value is never modified)."""
    with _MEMO_GUARD:
        found = analysis.memo.get(("offer-checks", export))
        if found is None:
            index_of = {id(issue): n for n, issue in enumerate(analysis.issues)}
            found = analysis.memo[("offer-checks", export)] = OfferChecks(index_of)
        return found


_MEMO_GUARD = threading.Lock()


def _index_of(analysis: Analysis, issue: Issue) -> int | None:
    """The issue's index in `analysis.issues` (by identity), or None for an issue of another analysis."""
    n = offer_checks(analysis, False).index_of.get(id(issue))
    return n if n is not None and analysis.issues[n] is issue else None


def check_issue(analysis: Analysis, issue: Issue, *, export: bool = False, stop=None) -> tuple[int, ...]:
    """The positions (in `candidates_for` order) of the candidates of `issue` that pass every check of
    §8.2 on this document: the verdict kept with the analysis, else computed now and kept. `stop()` is
    asked between candidates; when true, `Stopped` is raised and nothing is kept for the issue."""
    if _needs_parsed(analysis) is not None:
        return ()
    n = _index_of(analysis, issue)
    checks = offer_checks(analysis, export)
    if n is not None and n in checks.passing:
        return checks.passing[n]
    with checks.lock(n) if n is not None else threading.Lock():
        if n is not None and n in checks.passing:  # checked by another thread meanwhile
            return checks.passing[n]
        found = candidates_for(issue, analysis.value, analysis.kind, repair_memo(analysis))
        verdicts = check_candidates(issue, analysis.value, analysis.kind, found, export=export, stop=stop,
                                    before=_reference_issues(analysis, export))
        passing = tuple(k for k, ok in enumerate(verdicts) if ok)
        if n is not None:
            checks.passing[n] = passing
        return passing


def candidate_edits(analysis: Analysis, issue: Issue, k: int, *, export: bool = False) -> tuple[TextEdit, ...] | None:
    """The text edits of the candidate at position `k` of `issue` (one that passed `check_issue`): kept
    with the analysis once made, so the background can make them before `codeAction/resolve` asks (a
    1M document's edits take about 80 ms). None when the repair does not apply."""
    n = _index_of(analysis, issue)
    checks = offer_checks(analysis, export)
    made = checks.edits.get((n, k)) if n is not None else None
    if made is not None:
        return made
    found = candidates_for(issue, analysis.value, analysis.kind, repair_memo(analysis))
    new_doc = result_of(found[k].repair(), analysis.value, analysis.kind)
    if new_doc is None:
        return None
    made = tuple(change_edits(analysis, new_doc))
    if n is not None:
        checks.edits[(n, k)] = made
    return made


def prepare_edits(analysis: Analysis, *, export: bool = False, stop=None) -> None:
    """Make the edits of every checked, passing candidate (`candidate_edits`), asking `stop()` before
    each; raises `Stopped` when it is true."""
    if _needs_parsed(analysis) is not None:
        return
    checks = offer_checks(analysis, export)
    for n, positions in sorted(checks.passing.items()):
        for k in positions:
            if (n, k) in checks.edits:
                continue
            if stop is not None and stop():
                raise Stopped
            candidate_edits(analysis, analysis.issues[n], k, export=export)


def unchecked(analysis: Analysis, issues: list[Issue], *, export: bool = False) -> list[Issue]:
    """The issues among these whose candidates have no verdict yet (`check_issue` has not run)."""
    if _needs_parsed(analysis) is not None:
        return []
    passing = offer_checks(analysis, export).passing
    return [i for i in issues if _index_of(analysis, i) not in passing]


@dataclass(frozen=True)
class FixOffer:
    """A quick fix as the menu shows it, before its edit is made (issue 13: titles first, the edit on
    `codeAction/resolve`): the repair builders' proposal, not yet put through the §8.2 checks."""

    title: str
    repair_class: str
    issue: Issue
    fill: str | None = None

    @property
    def preferred(self) -> bool:
        return self.repair_class in ("safe", "preferred")


def checked_offers(analysis: Analysis, issues: list[Issue], *, export: bool = False) -> list[FixOffer]:
    """The quick fixes of these issues that passed the §8.2 checks (operations.md §8.2; issue 21:
    every one resolves to its edit), best first per issue, from the verdicts already kept: an issue
    not checked yet (`unchecked`) has none here."""
    if _needs_parsed(analysis) is not None:
        return []
    passing = offer_checks(analysis, export).passing
    out: list[FixOffer] = []
    for issue in issues:
        positions = passing.get(_index_of(analysis, issue))
        if not positions:
            continue
        found = candidates_for(issue, analysis.value, analysis.kind, repair_memo(analysis))
        out += [FixOffer(found[k].title, found[k].kind, issue, found[k].fill) for k in positions]
    return out


def fix_offers(analysis: Analysis, issues: list[Issue]) -> list[FixOffer]:
    """The repairs of operations.md §8 proposed for these issues, best first per issue, without the
    checks (which validate the whole document once per candidate: about 100 ms each at 1M characters).
    Only what the checks would refuse on sight is left out: an operation-based repair of a map or of a
    document with structural errors (§8.2 item 2). `resolve_offer` runs the checks."""
    if _needs_parsed(analysis) is not None:
        return []
    structural = any(i.code == "E_SCHEMA" for i in analysis.issues)
    out: list[FixOffer] = []
    for issue in issues:
        for c in candidates_for(issue, analysis.value, analysis.kind, repair_memo(analysis)):
            if not is_edit_list(c.ops) and (not analysis.document_kind.takes_operations or structural):
                continue
            out.append(FixOffer(c.title, c.kind, issue, c.fill))
    return out


def resolve_offer(analysis: Analysis, issue: Issue, title: str, *, export: bool = False) -> QuickFix | Refused:
    """The edit of the offer titled `title` for `issue`, made only when the repair passes every check
    of §8.2 on this document (the same checks `quick_fixes` runs), else why it is withheld."""
    refused = _needs_parsed(analysis)
    if refused is not None:
        return refused
    n = _index_of(analysis, issue)
    known = offer_checks(analysis, export).passing.get(n) if n is not None else None
    if known is not None:  # checked already (the background checks, or the menu's request): no second check
        found = candidates_for(issue, analysis.value, analysis.kind, repair_memo(analysis))
        for k in (k for k in known if found[k].title == title):
            edits = candidate_edits(analysis, issue, k, export=export)
            if edits is not None:
                return QuickFix(title, found[k].kind, edits, issue, found[k].fill)
            break
        repairs = []
    else:  # not checked yet: only the candidates of this title
        repairs = repairs_for(issue, analysis.value, analysis.kind, export=export, title=title,
                              before=_reference_issues(analysis, export), memo=repair_memo(analysis))
    for repair in repairs:
        new_doc = result_of(repair, analysis.value, analysis.kind)
        if new_doc is not None:
            return QuickFix(repair.title, repair.kind, tuple(change_edits(analysis, new_doc)), issue, repair.fill)
        break
    return Refused(f'"{title}" was not applied: checked on this version of the document, it would not remove '
                   "the issue without raising another or loosening a brake. Nothing was changed.")  # operations.md §8.2


FIX_ALL_TITLE = "Fix all safe issues"


def fix_all(analysis: Analysis, *, export: bool = False) -> QuickFix | None:
    """Every safe repair, applied one at a time with re-validation (operations.md §8.2)."""
    if _needs_parsed(analysis) is not None:
        return None
    new_doc, titles = repair_all(analysis.value, analysis.kind, export=export)
    if not titles:
        return None
    title = f"{FIX_ALL_TITLE}: " + "; ".join(titles) if len(titles) <= 3 else f"Fix all {len(titles)} safe issues"
    return QuickFix(title, "safe", tuple(change_edits(analysis, new_doc)), None)


def workflow_preview(analysis, view: str | None, theme: str) -> str | Refused:
    """A board workflow's picture; refused while its text is not YAML or fails E_WF_SCHEMA."""
    if view is not None:
        return Refused("Cannot draw the picture: a workflow has one picture, without a view.")
    blocking = [i for i in analysis.issues if i.code in ("E_SYNTAX", "E_WF_SCHEMA", "E_DOC_LIMIT")]
    if blocking or analysis.value is None:
        where = ""
        if blocking:
            line, col = analysis.line_index.position(analysis.span(blocking[0])[0])
            where = f" (line {line + 1}, column {col + 1}: {blocking[0].code} {blocking[0].message})"
        more = f" and {len(blocking) - 1} more" if len(blocking) > 1 else ""
        return Refused(f"Cannot draw the picture: the text is not a workflow grooph can read yet{where}{more}.")
    try:
        return render_svg(analysis.value, analysis.kind, theme=theme)
    except PictureError as e:
        return Refused(f"Cannot draw the picture: {e}")


def preview_svg(analysis, *, view: str | None = None, theme: str = "light") -> str | Refused | None:
    """The picture of the document as the editor holds it, or which fault keeps it from being drawn;
    None for a kind without a picture (the kind's `picture`)."""
    return analysis.document_kind.picture(analysis, view=view, theme=theme)


def grooph_preview(analysis: Analysis, *, view: str | None = None, theme: str = "light") -> str | Refused:
    """The picture of a graph or map, or which fault keeps it from being drawn."""
    limit = analysis.over_limit
    if limit is not None:
        return Refused(f"Cannot draw the picture: {limit.message}.")
    if not analysis.parsed.ok or analysis.value is None:
        first = next((p for p in analysis.parsed.problems if p.span), None)
        where = ""
        if first is not None:
            line, col = analysis.line_index.position(first.span[0])
            where = f" (line {line + 1}, column {col + 1}: {first.message})"
        return Refused(f"Cannot draw the picture: the text is not valid JSON yet{where}.")
    blocking = schema_issues(analysis.value, analysis.kind)
    if blocking:
        return Refused(f"Cannot draw the picture: {blocking[0].message}"
                       + (f" (and {len(blocking) - 1} more structural issues)" if len(blocking) > 1 else ""))
    layout = "wide" if view == "wide" else None
    seq = "sequence" if view == "sequence" else None
    try:
        return render_svg(analysis.value, analysis.kind, theme=theme, layout=layout, view=seq)
    except PictureError as e:
        return Refused(f"Cannot draw the picture: {e}")
