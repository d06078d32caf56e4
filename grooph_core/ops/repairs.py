"""Repairs (operations.md §8): concrete op lists (or document edits) for an issue, best first, each
checked as §8.2 asks, and fix-all.

- `repairs_for(issue, doc, kind)`: the repairs of one issue that pass the checks, safe first, then
  preferred, then offered. A check failing drops the candidate silently (the builders are written to
  pass; the checks catch mistakes and documents where a repair would break something else).
- `result_of(repair, doc, kind)`: the document the repair produces, or None.
- `fix_all(doc, kind)`: every safe repair, one at a time, re-validating after each (§8.2).

The checks (§8.2): the repair applies; an op-based repair needs a document that passes the schema and
leaves one that does; the issue is gone (same code, `at` and pointers no longer reported); no new
error (counted by code and `at`, renamed objects under their old ids; pointers are not compared
because removing an array item moves every pointer after it); and, for graphs, no brake of §8.1 is
loosened. A fill-in repair (`fill` set) keeps its issue's code by design: the code stays until the
person types the value, so "issue gone" is not asked of it.
"""

from __future__ import annotations

from collections import Counter

from grooph_core.issues import CODES, Issue
from grooph_core.ops.apply import apply
from grooph_core.ops.brakes import loosened
from grooph_core.ops.doc_edits import apply_edits, is_edit_list
from grooph_core.ops.edit_repairs import edit_candidates
from grooph_core.ops.graph_repairs import graph_candidates
from grooph_core.ops.map_repairs import map_candidates
from grooph_core.ops.memo import RepairMemo
from grooph_core.ops.repair_types import BRAKED_KINDS, CLASS_ORDER, OPERATED_KINDS, Candidate, Repair
from grooph_core.rules.validate import validate_value

__all__ = ["Repair", "repairs_for", "result_of", "fix_all", "candidates_for", "check_candidates"]


def _result(ops: list | tuple, doc: dict, kind: str) -> dict | None:
    if is_edit_list(ops):
        r = apply_edits(doc, list(ops))
        return r.doc if r.ok else None
    if kind not in OPERATED_KINDS or not ops:
        return None
    r = apply(doc, list(ops))
    return r.doc if r.ok else None


def result_of(repair: Repair, doc: dict, kind: str) -> dict | None:
    """The document after the repair (a new value; `doc` is not modified), or None when it does not apply."""
    return _result(repair.ops, doc, kind)


# Each grooph kind's repair builders (ops/graph_repairs.py, ops/map_repairs.py).
_CANDIDATES = {"graph": graph_candidates, "map": map_candidates}


def candidates_for(issue: Issue, doc: dict, kind: str, memo: RepairMemo | None = None) -> list[Candidate]:
    """Every repair the builders propose for the issue, before the checks, best first. `memo`: the
    `RepairMemo` of this `doc` (the editor keeps one per analysis), so that what the builders read of
    the document is computed once per version."""
    if not isinstance(doc, dict):
        return []
    found = edit_candidates(issue, doc, kind)
    found += _CANDIDATES.get(kind, map_candidates)(issue, doc, memo)
    return sorted(found, key=lambda c: CLASS_ORDER[c.kind])  # stable: builders' order within a class


class _Checker:
    """The §8.2 checks for one document and one issue (the document is validated once)."""

    def __init__(self, issue: Issue, doc: dict, kind: str, export: bool, resolver, before: list[Issue] | None = None):
        self.issue, self.doc, self.kind, self.resolver = issue, doc, kind, resolver
        forced = CODES.get(issue.code) is not None and CODES[issue.code].export_only
        self.export = export or forced
        self._validate = validate_value
        if before is None or self.export != export:
            before = validate_value(doc, kind, export=self.export, resolver=resolver)
        self.before = before
        self.schema_before = any(i.code == "E_SCHEMA" for i in before)  # validate_value: E_SCHEMA alone, or the rules
        self.last: tuple[dict, list[Issue]] | None = None  # the result and issues of the last passing candidate
        self.key = (issue.code, tuple(issue.at))
        self.count_before = sum(1 for i in self.before if (i.code, tuple(i.at)) == self.key)

    def _errors(self, issues: list[Issue], aliases: dict[str, str]) -> Counter:
        keep_schema_only = self.schema_before
        return Counter((i.code, tuple(aliases.get(a, a) for a in i.at)) for i in issues
                       if i.severity == "error" and (not keep_schema_only or i.code == "E_SCHEMA"))

    def passes(self, c: Candidate) -> bool:
        ops_based = not is_edit_list(c.ops)
        if ops_based and (self.kind not in OPERATED_KINDS or self.schema_before):
            return False
        after_doc = _result(c.ops, self.doc, self.kind)
        if after_doc is None:
            return False
        after = full_after = self._validate(after_doc, self.kind, export=self.export, resolver=self.resolver)
        if ops_based and any(i.code == "E_SCHEMA" for i in after):  # validate_value: E_SCHEMA alone, or the rules
            return False
        mapped = [(i.code, tuple(c.aliases.get(a, a) for a in i.at), tuple(i.pointers), i) for i in after]
        if not c.keeps_code:
            if c.gone is not None:
                if not c.gone(after):
                    return False
            else:
                if any((code, at, ptrs) == (self.issue.code, tuple(self.issue.at), tuple(self.issue.pointers))
                       for code, at, ptrs, _ in mapped):
                    return False
                if self.count_before and sum(1 for code, at, _, _ in mapped if (code, at) == self.key) >= self.count_before:
                    return False
        before_errors = self._errors(self.before, {})
        if c.continues is not None:
            after = [i for i in after if not c.continues(i)]
        after_errors = self._errors(after, c.aliases)
        for key, n in after_errors.items():
            if c.keeps_code and key[0] == self.issue.code:
                continue
            if n > before_errors.get(key, 0):
                return False
        if self.kind in BRAKED_KINDS and loosened(self.doc, after_doc, c.renames, c.list_renames):
            return False
        self.last = (after_doc, full_after)
        return True


class Stopped(Exception):
    """The caller's `stop()` said the answer is no longer wanted (a newer version, a cancelled request)."""


def repairs_for(issue: Issue, doc: dict, kind: str, *, export: bool = False, resolver=None,
                verify: bool = True, only_safe: bool = False, stop=None, title: str | None = None,
                before: list[Issue] | None = None, memo: RepairMemo | None = None) -> list[Repair]:
    """The repairs of `issue` on `doc` (a graph or a map value), best first, each passing §8.2.

    `export` says whether the document is validated for export (the checks re-validate the same way;
    export-only codes are always checked with it). `verify=False` skips the checks (for tests of the
    builders). `only_safe` keeps the safe ones (fix-all); `title` only the candidates of that title
    (a quick fix resolved from its menu entry: the others are not checked). `before`, when given, is
    `validate_value(doc, kind, export=export, resolver=resolver)` already computed (the editor's
    analysis holds it); `memo`, the document's `RepairMemo` (see `candidates_for`). `stop()`, asked before each check, raises `Stopped` when true."""
    found = candidates_for(issue, doc, kind, memo)
    if only_safe:
        found = [c for c in found if c.kind == "safe"]
    if title is not None:
        found = [c for c in found if c.title == title]
    if not found:
        return []
    if not verify:
        return [c.repair() for c in found]
    verdicts = check_candidates(issue, doc, kind, found, export=export, resolver=resolver, stop=stop, before=before)
    return [c.repair() for c, ok in zip(found, verdicts) if ok]


def check_candidates(issue: Issue, doc: dict, kind: str, found: list[Candidate], *, export: bool = False,
                     resolver=None, stop=None, before: list[Issue] | None = None) -> list[bool]:
    """Whether each candidate of `issue` passes every check of §8.2 on `doc`, in order (`before`,
    `resolver` and `stop` as in `repairs_for`; the document is validated at most once)."""
    if not found:
        return []
    checker = _Checker(issue, doc, kind, export, resolver, before=before)
    out = []
    for c in found:
        if stop is not None and stop():  # each check re-validates the document: stop between them
            raise Stopped
        out.append(checker.passes(c))
    return out


def fix_all(doc: dict, kind: str, issues: list[Issue] | None = None, *, export: bool = False,
            resolver=None) -> tuple[dict, list[str]]:
    """Apply every safe repair one at a time, re-validating after each, until none applies (at most as
    many rounds as there were issues at the start). Returns the new document and the applied titles;
    `doc` itself is never modified."""
    current = doc
    titles: list[str] = []
    if issues is None:
        issues = validate_value(doc, kind, export=export, resolver=resolver)
    for _ in range(len(issues)):
        applied = None
        for issue in issues:
            safe = [c for c in candidates_for(issue, current, kind) if c.kind == "safe"]
            if not safe:
                continue
            checker = _Checker(issue, current, kind, export, resolver, before=issues)
            applied = next((c for c in safe if checker.passes(c)), None)
            if applied is not None:
                current, after = checker.last  # type: ignore[misc]
                titles.append(applied.title)
                # the checker validated the result the same way, unless the code forced export
                issues = after if checker.export == export else validate_value(current, kind, export=export,
                                                                              resolver=resolver)
                break
        if applied is None:
            break
    return current, titles
