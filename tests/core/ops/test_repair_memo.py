"""The per-version memo of the repair builders (issue 13: code-action titles at 1M characters).

What a quick fix reads of the document (ids, the did-you-mean match, the nearest names, the graph
index) is computed once per analysis and kept with it; the titles and edits stay exactly what the
builders give without it (operations.md §8.4 E_DANGLING_REF), and an analysis of another version
never sees the answers of the one before."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from grooph_core.ide.grooph import actions as core
from grooph_core.ide.grooph.analysis import analyze
from grooph_core.ops.memo import LazyIndex, RepairMemo
from grooph_core.ops.repairs import candidates_for

FIXTURES = Path(__file__).parents[3] / "fixtures"
DOCS = sorted(p for p in FIXTURES.rglob("*.json") if p.is_file() and not p.name.endswith(".expect.json"))


VALID = FIXTURES / "valid" / "plan-with-gate-before-publish.grooph.json"


def _graph(rename: dict[str, str], to: str) -> str:
    """The valid fixture with some nodes renamed and its first edge pointing at `to`."""
    doc = json.loads(VALID.read_text(encoding="utf-8"))
    for n in doc["nodes"]:
        n["id"] = rename.get(n["id"], n["id"])
    for e in doc["edges"]:
        e["from"], e["to"] = rename.get(e["from"], e["from"]), rename.get(e["to"], e["to"])
    doc["edges"][0]["to"] = to
    return json.dumps(doc, indent=2)


TARGET = json.loads(VALID.read_text(encoding="utf-8"))["edges"][0]["to"]
EDGE = json.loads(VALID.read_text(encoding="utf-8"))["edges"][0]["id"]


def _titles(a) -> list[str]:
    issue = next(i for i in a.issues if i.code == "E_DANGLING_REF")
    return [o.title for o in core.fix_offers(a, [issue])]


def test_a_new_version_gets_its_own_targets_not_the_last_versions():
    first = analyze(_graph({}, TARGET + "x"), name="g.grooph.json")
    menu = _titles(first)
    assert menu[0] == f'Point edge {EDGE} at node {TARGET} (instead of "{TARGET}x")'
    assert _titles(first) == menu  # asked again at the same version: the same menu
    # the next version renames the node the first one suggested: its menu names the new id only
    second = analyze(_graph({TARGET: TARGET + "s"}, TARGET + "x"), name="g.grooph.json")
    again = _titles(second)
    assert again[0] == f'Point edge {EDGE} at node {TARGET}s (instead of "{TARGET}x")'
    assert not any(t.startswith(f"Point edge {EDGE} at node {TARGET} ") for t in again)
    assert core.repair_memo(first) is core.repair_memo(first)
    assert core.repair_memo(second) is not core.repair_memo(first)


def test_the_memo_is_kept_per_analysis_and_resolve_uses_the_same_targets():
    a = analyze(_graph({}, TARGET + "x"), name="g.grooph.json")
    issue = next(i for i in a.issues if i.code == "E_DANGLING_REF")
    offers = core.fix_offers(a, [issue])
    memo = core.repair_memo(a)
    assert memo.ids("nodes") == tuple(n["id"] for n in a.value["nodes"])
    fix = core.resolve_offer(a, issue, offers[0].title)
    assert fix.title == offers[0].title and fix.edits
    text = a.text
    for e in sorted(fix.edits, key=lambda e: e.start, reverse=True):
        text = text[:e.start] + e.text + text[e.end:]
    assert json.loads(text)["edges"][0]["to"] == TARGET
    assert not [i for i in analyze(text, name="g.grooph.json").issues if i.code == "E_DANGLING_REF"]


def test_a_memo_of_another_document_is_not_used():
    doc = json.loads(_graph({}, TARGET + "x"))
    other = json.loads(_graph({TARGET: "elsewhere"}, TARGET + "x"))
    issue = next(i for i in analyze(json.dumps(doc), name="g.grooph.json").issues if i.code == "E_DANGLING_REF")
    assert [c.title for c in candidates_for(issue, doc, "graph", RepairMemo(other))] == \
        [c.title for c in candidates_for(issue, doc, "graph")]


def test_the_index_is_built_only_when_read():
    doc = json.loads(_graph({}, TARGET + "x"))
    memo = RepairMemo(doc)
    lazy = LazyIndex(memo)
    assert memo._index is None
    assert lazy.node_pos == {n["id"]: k for k, n in enumerate(doc["nodes"])}
    assert memo._index is not None and lazy.edges is doc["edges"]


@pytest.mark.parametrize("path", DOCS, ids=lambda p: str(p.relative_to(FIXTURES)))
def test_every_fixture_issue_gets_the_same_candidates_with_the_memo(path):
    a = analyze(path.read_text(encoding="utf-8"), name=path.name)
    if core._needs_parsed(a) is not None or a.kind not in ("graph", "map"):
        pytest.skip("not a document quick fixes are made for")
    memo = core.repair_memo(a)
    for _ in range(2):  # the second round reads what the first one kept
        for issue in a.issues:
            with_memo = candidates_for(issue, a.value, a.kind, memo)
            fresh = candidates_for(issue, a.value, a.kind)
            assert [(c.title, c.kind, c.ops, c.fill) for c in with_memo] == \
                [(c.title, c.kind, c.ops, c.fill) for c in fresh], issue.code
