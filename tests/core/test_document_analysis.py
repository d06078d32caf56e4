"""What every kind of analysis shares (ide.document.DocumentAnalysis), the one span-to-range conversion
(line_index.lsp_range), and the outline placed in the text with its folds (navigation)."""

from __future__ import annotations

from grooph_core.ide.document import DocumentAnalysis
from grooph_core.ide.grooph.analysis import Analysis, analyze
from grooph_core.ide.grooph.navigation import document_symbols, folding_lines, place_symbols
from grooph_core.ide.neighbours.analysis import NeighbourAnalysis, analyze_neighbour
from grooph_core.source.kinds import neighbour_from_name
from grooph_core.source.line_index import LineIndex, lsp_range

GRAPH = """{
  "grooph": 1,
  "id": "g",
  "name": "G",
  "version": 1,
  "nodes": [
    {
      "id": "a",
      "name": ""
    }
  ],
  "edges": [],
  "loops": []
}
"""


def test_lsp_range_is_zero_based_with_utf16_columns_by_default() -> None:
    lines = LineIndex('{\n  "\U0001F600x": 1\n}')
    span = (len('{\n  "\U0001F600'), len('{\n  "\U0001F600x'))
    assert lsp_range(lines, span) == {"start": {"line": 1, "character": 5}, "end": {"line": 1, "character": 6}}
    assert lsp_range(lines, span, "utf-32") == {"start": {"line": 1, "character": 4}, "end": {"line": 1, "character": 5}}


def test_both_kinds_of_analysis_share_one_base_and_place_issues_alike() -> None:
    graph = analyze(GRAPH, name="g.grooph.json")
    wf = analyze_neighbour("statuses:\n  todo: {}\ninitial: nowhere\n", neighbour_from_name("w.workflow.yaml"))
    assert isinstance(graph, Analysis) and isinstance(wf, NeighbourAnalysis)
    for a in (graph, wf):
        assert isinstance(a, DocumentAnalysis)
        assert a.issues, a.kind
        for issue in a.issues:
            assert a.issue_range(issue) == lsp_range(a.line_index, a.span(issue))
    bad = next(i for i in wf.issues if i.pointers == ("/initial",))
    line = wf.line_index.position(wf.span(bad)[0])[0]
    assert line == 2  # `initial: nowhere` is on the third line


def test_use_lines_shares_an_index_of_the_same_text() -> None:
    a = analyze(GRAPH, name="g.grooph.json")
    given = LineIndex(GRAPH)
    assert a.use_lines(given) is given
    assert a.line_index is given
    assert a.use_lines(LineIndex(GRAPH)) is given  # the first one stays


def test_folds_are_the_outline_entries_over_several_lines() -> None:
    a = analyze(GRAPH, name="g.grooph.json")
    assert folding_lines(a) == [(5, 10), (6, 9)]  # "nodes": [ … ] and its node; one-line lists fold nothing
    assert folding_lines(analyze(GRAPH.replace("\n", " "), name="g.grooph.json")) == []


def test_placed_symbols_select_the_id_within_the_entry() -> None:
    a = analyze(GRAPH, name="g.grooph.json")
    (root,) = place_symbols(a, document_symbols(a.value, a.kind))
    assert root.span == (0, len(GRAPH))
    assert GRAPH[root.selection[0]:root.selection[1]] == '"g"'
    nodes = root.children[0]
    (node,) = nodes.children
    assert GRAPH[nodes.span[0]:nodes.span[0] + 7] == '"nodes"'
    assert GRAPH[node.selection[0]:node.selection[1]] == '"a"'
    assert nodes.span[0] <= node.span[0] and node.span[1] <= nodes.span[1]
