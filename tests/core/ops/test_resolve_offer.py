"""A quick fix resolved from its menu entry (issue 13: titles first, the edit on `codeAction/resolve`)
gets exactly the edit the full §8.2 checks give (operations.md §8.2), although it checks only the
candidates of its title and starts from the analysis's own validation instead of validating again.

Ground truth: `repairs_for` with every candidate checked and the document validated from scratch, on
every issue of every fixture document, with and without export."""

from __future__ import annotations

from pathlib import Path

import pytest

from grooph_core.ide.grooph import actions as core
from grooph_core.ide.grooph.analysis import analyze
from grooph_core.ide.refused import Refused
from grooph_core.ops.repairs import repairs_for, result_of
from grooph_core.rules.validate import validate_value

FIXTURES = Path(__file__).parents[3] / "fixtures"
DOCS = sorted(p for p in FIXTURES.rglob("*.json") if p.is_file() and not p.name.endswith(".expect.json"))


def _analysis(path: Path, export: bool):
    a = analyze(path.read_text(encoding="utf-8"), name=path.name, export=export)
    if core._needs_parsed(a) is not None or a.kind not in ("graph", "map"):
        pytest.skip("not a document quick fixes are made for")
    return a


@pytest.mark.parametrize("export", [False, True], ids=["editing", "export"])
@pytest.mark.parametrize("path", DOCS, ids=lambda p: str(p.relative_to(FIXTURES)))
def test_a_resolved_offer_is_what_the_full_checks_give(path, export):
    a = _analysis(path, export)
    for issue in a.issues:
        passing = repairs_for(issue, a.value, a.kind, export=export)  # every candidate, validated afresh
        for offer in core.fix_offers(a, [issue]):
            got = core.resolve_offer(a, issue, offer.title, export=export)
            first = next((r for r in passing if r.title == offer.title), None)
            if first is None:
                assert isinstance(got, Refused), (issue.code, offer.title)
                continue
            expected = core.change_edits(a, result_of(first, a.value, a.kind))
            assert not isinstance(got, Refused), (issue.code, offer.title, got)
            assert (got.title, list(got.edits)) == (first.title, expected), (issue.code, offer.title)


@pytest.mark.parametrize("path", DOCS, ids=lambda p: str(p.relative_to(FIXTURES)))
def test_the_analysis_keeps_the_reference_validation_only_when_it_ran_it(path):
    """`Analysis.reference` is `validate_value`'s answer exactly (same issues, same order), and it is
    there only for a text that parsed cleanly and passed the structure check."""
    for export in (False, True):
        a = analyze(path.read_text(encoding="utf-8"), name=path.name, export=export)
        if a.reference is None:
            assert (not a.parsed.ok or a.kind not in ("graph", "map") or a.over_limit is not None
                    or any(i.code == "E_SCHEMA" for i in validate_value(a.value, a.kind, export=export))), path
            continue
        assert a.reference[0] == export
        assert list(a.reference[2]) == validate_value(a.value, a.kind, export=export), path
