"""Preferred and safe marked (issue 21 item 2): per code, the quick fix operations.md §8.4–8.5 classes
as preferred or safe is the one offered as preferred, at most one per issue, and first in its issue's
menu; codes whose repairs are choices have none (the table and its reading: tests/core/ops/preferred.py).
The same table is checked through a real client in tests/lsp/test_fix_offers.py."""

from __future__ import annotations

import pytest

from grooph_core.ide.grooph import actions as core
from grooph_core.ide.grooph.analysis import analyze
from grooph_core.rules.map import file_graph_resolver
from tests.conftest import FIXTURES, sidecar
from tests.core.ops.preferred import CASES, case_text


def preferred_titles(a, code: str, export: bool) -> list[str]:
    """The preferred offer of each issue of `code` that has one, in issue order; asserts one at most,
    and that it comes first in its issue's menu."""
    out = []
    for issue in a.issues:
        if issue.code != code:
            continue
        core.check_issue(a, issue, export=export)
        offers = core.checked_offers(a, [issue], export=export)
        best = [o for o in offers if o.preferred]
        assert len(best) <= 1, (code, [o.title for o in best])
        if best:
            assert offers[0] is best[0], (code, [o.title for o in offers])
            out.append(best[0].title)
    return out


@pytest.mark.parametrize("code, where, expected", CASES, ids=[f"{c}:{w}" for c, w, _ in CASES])
def test_the_spec_s_preferred_repair_is_the_preferred_action(code, where, expected):
    name, text = case_text(where, FIXTURES)
    path = FIXTURES / where
    export = bool((sidecar(path) or {}).get("export")) if path.exists() else False
    resolver = file_graph_resolver(str(path)) if name.endswith(".grooph-map.json") else None
    a = analyze(text, name=name, export=export, resolver=resolver)
    assert any(i.code == code for i in a.issues), (code, [i.code for i in a.issues])
    got = preferred_titles(a, code, export)
    assert len(got) == len(expected) and all(t.startswith(e) for t, e in zip(got, expected)), (got, expected)
