"""Offered => applies (issue 21 item 1): every quick fix the editor would list resolves to an edit,
and that edit removes its issue and raises no new error (operations.md §8.2 items 3 and 4), judged
from a fresh analysis of the edited text, not from the checker's own answer.

Over every fixture (graphs, maps, workflows, boards, episode records), the one-example-per-code
documents of graph.md §7 and map.md's examples (the reference's cases), and the benchmark's documents
with planted faults; with and without export for graphs and maps. The fuzzed editing session
(tests/lsp/test_fuzz_session.py) asserts the same of every action it applies."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from grooph_core.ide.grooph import actions as core
from grooph_core.ide.grooph.analysis import analyze
from grooph_core.ide.neighbours.analysis import analyze_neighbour
from grooph_core.ide.neighbours.repairs import neighbour_fixes
from grooph_core.ide.refused import Refused
from grooph_core.ide.text_edits import apply_edits
from grooph_core.rules.map import file_graph_resolver
from grooph_core.source.kinds import neighbour_from_name
from tests.conftest import FIXTURES
from tests.core.ops.helpers import applies_cleanly

sys.path.insert(0, str(Path(__file__).parents[1] / "rules"))
import graph_examples  # noqa: E402
import map_examples  # noqa: E402

ROOT = Path(__file__).parents[3]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
from bench.generate import graph_document, map_document  # noqa: E402


def _documents() -> list:
    """(case id, file name, text, resolver) of every document the test walks."""
    out = []
    for path in sorted(FIXTURES.rglob("*")):
        if path.is_file() and not path.name.endswith(".expect.json") and path.suffix in (".json", ".yaml", ".yml"):
            resolver = file_graph_resolver(str(path)) if path.name.endswith(".grooph-map.json") else None
            out.append((str(path.relative_to(FIXTURES)), path.name, path.read_text("utf-8"), resolver))
    for code, (doc, _, _) in graph_examples.EXAMPLES.items():
        out.append((f"graph.md §7 {code}", "example.grooph.json", json.dumps(doc, indent=2), None))
    for name in sorted(n for n in dir(map_examples) if not n.startswith("_") and callable(getattr(map_examples, n))):
        try:
            doc = getattr(map_examples, name)()
        except TypeError:
            continue  # a helper that needs arguments
        if isinstance(doc, dict):
            out.append((f"map example {name}", "example.grooph-map.json", json.dumps(doc, indent=2), None))
    for make in (graph_document, map_document):
        d = make(24_000, faults=True)
        out.append((f"bench {d.name}", d.name, d.text, None))
    return out


DOCUMENTS = _documents()


def _edited(text: str, edits) -> str:
    return apply_edits(text, list(edits))


@pytest.mark.parametrize("export", [False, True], ids=["editing", "export"])
@pytest.mark.parametrize("case, name, text, resolver", DOCUMENTS, ids=[d[0] for d in DOCUMENTS])
def test_every_listed_quick_fix_resolves_and_applies(case, name, text, resolver, export):
    kind = neighbour_from_name(name)
    if kind is not None:
        if export:
            pytest.skip("the neighbouring formats have no export mode")
        a = analyze_neighbour(text, kind)
        for fix in neighbour_fixes(a, a.issues):  # listed with their edits, as the server sends them
            after = analyze_neighbour(_edited(text, fix.edits), kind)
            assert applies_cleanly(a, fix.issue, after) is None, (fix.title, applies_cleanly(a, fix.issue, after))
        return
    a = analyze(text, name=name, export=export, resolver=resolver)
    listed = 0
    for issue in a.issues:
        core.check_issue(a, issue, export=export)
        for offer in core.checked_offers(a, [issue], export=export):
            listed += 1
            fix = core.resolve_offer(a, issue, offer.title, export=export)
            assert not isinstance(fix, Refused), (issue.code, offer.title, fix)
            assert fix.title == offer.title and fix.edits, (issue.code, offer.title)
            after = analyze(_edited(text, fix.edits), name=name, export=export, resolver=resolver)
            if offer.fill is not None:  # a fill-in keeps its code until the person types (§8.1 "ask")
                assert after.parsed.ok, (issue.code, offer.title)
                continue
            verdict = applies_cleanly(a, issue, after)
            assert verdict is None, (issue.code, offer.title, verdict)
    assert not core.unchecked(a, list(a.issues), export=export)


def test_the_menu_of_the_report_is_what_applies():
    """The graph of issue 21's report: an edge ends at "ghost", no id is near it. The builders propose
    three re-pointings; only those that remove the issue without raising another are listed."""
    doc = {"grooph": 0, "id": "g", "name": "G", "version": 1,
           "nodes": [{"id": "builder", "kind": "agent", "name": "Builder", "role": "builder", "brief": "b",
                      "outputs": ["x"], "allow": ["edit-files"]},
                     {"id": "tests", "kind": "check", "name": "Tests",
                      "check": {"kind": "tests", "run": "make test", "pass": "exit 0"}},
                     {"id": "done", "kind": "stop", "name": "Done"}],
           "edges": [{"id": "e1", "from": "builder", "to": "tests"}, {"id": "e2", "from": "tests", "to": "ghost"}],
           "loops": []}
    text = json.dumps(doc, indent=2)
    a = analyze(text, name="g.grooph.json")
    (issue,) = [i for i in a.issues if i.code == "E_DANGLING_REF"]
    proposed = [o.title for o in core.fix_offers(a, [issue])]
    core.check_issue(a, issue)
    listed = [o.title for o in core.checked_offers(a, [issue])]
    assert len(proposed) == 3 and listed == [t for t in proposed if "done" in t], (proposed, listed)
    fix = core.resolve_offer(a, issue, listed[0])
    assert json.loads(_edited(text, fix.edits))["edges"][1]["to"] == "done"
