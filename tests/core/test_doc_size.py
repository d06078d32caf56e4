"""W_DOC_TOO_LARGE (graph.md §5, §6.6, §7; map.md §6.10, §10.11)."""

from __future__ import annotations

from grooph_core.rules.doc_size import LIMIT, doc_size_issues, document_size
from grooph_core.schema.canonical import canonical_text

W = {"id": "w", "kind": "agent", "name": "W", "role": "builder", "brief": "Do it.", "outputs": ["out.txt"],
     "allow": ["edit-files"]}
END = {"id": "end", "kind": "stop", "name": "End"}


def graph(brief="Do it.", **fields):
    return {"grooph": 0, "id": "g", "name": "G", "version": 1, "nodes": [dict(W, brief=brief), END],
            "edges": [{"id": "e1", "from": "w", "to": "end"}], "loops": [], **fields}


def tiny_shop(description=None):
    planner = {"id": "planner", "name": "Planner", "lane": "desk", "harness": "claude-code", "role": "Splits the work"}
    if description is not None:
        planner["description"] = description
    return {"groophMap": 0, "id": "tiny-shop", "name": "Tiny shop", "version": 1,
            "lanes": [{"id": "desk", "name": "Desk", "machine": "a desktop", "account": "team account"}],
            "sessions": [planner, {"id": "coder", "name": "Coder", "lane": "desk", "harness": "claude-code",
                                   "role": "Writes the change"}],
            "handoffs": [{"id": "h-task", "from": "planner", "to": "coder", "carrier": {"kind": "session-message"}},
                         {"id": "h-result", "from": "coder", "to": "planner",
                          "carrier": {"kind": "pull-request", "repo": "acme/shop"}}]}


def test_graph_md_7_example():
    doc = graph(brief="a" * 24000)
    (issue,) = doc_size_issues(doc, "graph")
    size = len(canonical_text(doc, "graph"))
    assert issue.code == "W_DOC_TOO_LARGE" and issue.severity == "warning"
    assert issue.at == ("g",) and issue.pointers == ("",)
    assert f" {size} characters" in issue.message and "24,000" in issue.message  # plain digits for the size
    assert issue.facts.size == size


def test_exactly_the_limit_passes():
    base = len(canonical_text(graph(brief=""), "graph"))
    at_limit = graph(brief="a" * (LIMIT - base))
    assert document_size(at_limit, "graph") == LIMIT
    assert doc_size_issues(at_limit, "graph") == []
    assert len(doc_size_issues(graph(brief="a" * (LIMIT - base + 1)), "graph")) == 1


def test_layout_does_not_count_but_unknown_keys_and_notes_do():
    layout = {f"n{i}": {"x": i, "y": i, "w": 100, "h": 40} for i in range(3000)}
    assert doc_size_issues(graph(layout=layout), "graph") == []
    assert document_size(graph(layout=layout), "graph") == document_size(graph(), "graph")
    assert len(doc_size_issues(graph(extra="x" * LIMIT), "graph")) == 1
    notes = [{"id": f"n{i}", "run": "r", "at": "graph", "text": "x" * 100} for i in range(300)]
    assert len(doc_size_issues(graph(notes=notes), "graph")) == 1


def test_size_is_counted_in_utf16_code_units():
    base = len(canonical_text(graph(brief=""), "graph"))
    half = (LIMIT - base) // 2
    emoji = graph(brief="\U0001f600" * half + "a" * ((LIMIT - base) % 2))
    assert document_size(emoji, "graph") == LIMIT
    assert len(canonical_text(emoji, "graph")) < LIMIT  # code points undercount
    assert doc_size_issues(emoji, "graph") == []
    assert len(doc_size_issues(graph(brief="\U0001f600" * (half + 1)), "graph")) == 1


def test_map_md_10_11_example():
    assert document_size(tiny_shop(), "map") == 859
    (issue,) = doc_size_issues(tiny_shop("a" * 24000), "map")
    assert issue.at == ("tiny-shop",)
    assert issue.message == ("the map is 24,884 characters in canonical form, over the 24,000 a model rewrites in "
                             "one pass; draw families as one session with a count, or split the map")


def test_a_map_has_no_layout_to_leave_out():
    doc = tiny_shop()
    doc["layout"] = {"x": "a" * LIMIT}
    assert len(doc_size_issues(doc, "map")) == 1
