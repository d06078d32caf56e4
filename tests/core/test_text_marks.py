"""What the editor draws into the text, in the core (issue 31 items 3, 5, 6; grooph_core/ide/text_marks.py):
a range's hints and tokens are exactly the whole text's that lie in it (a screenful is computed from its
parts alone), the references' parts add up to the one model's occurrences, and what each kind offers."""

from __future__ import annotations

import json

import pytest

from grooph_core.ide.kinds import kind_of_file
from grooph_core.ide.text_marks import TOKEN_MODIFIERS, TOKEN_TYPES, local_file, parts_in_range, url_links
from grooph_core.semantics.references import occurrences, occurrences_in_part
from tests.conftest import FIXTURES

GRAPHS = sorted((FIXTURES / "valid").glob("*.grooph.json"))
MAPS = sorted((FIXTURES / "maps" / "valid").glob("*.grooph-map.json"))
WORKFLOW = FIXTURES / "workflow" / "valid" / "spec-example.workflow.yaml"
BOARD = FIXTURES / "board" / "valid" / "checkout.board.json"


def _read(path, text=None):
    text = path.read_text("utf-8") if text is None else text
    return kind_of_file(path.name).read(text, name=path.name)


def _in(span, start, end):
    return span[0] <= end and span[1] >= start


@pytest.mark.parametrize("path", GRAPHS + MAPS, ids=lambda p: p.name)
def test_the_parts_add_up_to_the_one_model_of_references(path):
    a = _read(path)
    parts = parts_in_range(a, 0, len(a.text))
    found = [o for key, i in parts for o in occurrences_in_part(a.value, a.kind, key, i)]
    assert sorted(found, key=repr) == sorted(occurrences(a.value, a.kind), key=repr)


@pytest.mark.parametrize("path", GRAPHS + MAPS + [WORKFLOW, BOARD], ids=lambda p: p.name)
def test_a_range_answers_what_the_whole_text_has_in_it(path):
    a = _read(path)
    kind = a.document_kind
    n = len(a.text)
    every_hint = kind.inlay_hints(a, 0, n)
    every_token = kind.semantic_tokens(a)
    assert every_token, "every fixture names something"
    for start in range(0, n, max(1, n // 7)):
        end = min(n, start + n // 5)
        assert kind.inlay_hints(a, start, end) == [h for h in every_hint if start <= h.offset <= end]
        assert kind.semantic_tokens(a, start, end) == [t for t in every_token if _in((t.start, t.end), start, end)]


def test_graph_hints_say_what_a_reference_names_and_a_loops_brakes():
    a = _read(FIXTURES / "valid" / "review-loop.grooph.json")
    hints = {(a.text[h.offset - 13:h.offset], h.label) for h in a.document_kind.inlay_hints(a, 0, len(a.text))}
    assert ('"to": "tests"', "Tests · check") in hints
    stops = a.text.index('"stops": ') + len('"stops": ')
    (brakes,) = [h for h in a.document_kind.inlay_hints(a, stops, stops) if h.offset == stops]
    assert brakes.label == "≤ 4 rounds · 12 dispatches" and brakes.before


def test_a_reference_to_nothing_is_marked_and_gets_no_hint():
    path = FIXTURES / "valid" / "review-loop.grooph.json"
    text = path.read_text("utf-8").replace('"to": "tests"', '"to": "nowhere"', 1)
    a = _read(path, text)
    at = text.index('"nowhere"') + 1
    (tok,) = [t for t in a.document_kind.semantic_tokens(a) if t.start == at]
    assert (tok.end, TOKEN_TYPES[tok.type]) == (at + len("nowhere"), "function")
    assert tok.modifiers == 1 << TOKEN_MODIFIERS.index("deprecated")
    assert not [h for h in a.document_kind.inlay_hints(a, 0, len(text)) if h.offset == at + len("nowhere") + 1]


def test_definitions_carry_declaration_and_definition():
    a = _read(MAPS[0])
    doc = a.value
    sid = doc["sessions"][0]["id"]
    at = a.text.index(f'"id": "{sid}"') + len('"id": "')
    (tok,) = [t for t in a.document_kind.semantic_tokens(a) if t.start == at]
    assert {m for b, m in enumerate(TOKEN_MODIFIERS) if tok.modifiers >> b & 1} == {"declaration", "definition"}
    assert TOKEN_TYPES[tok.type] == "function"


def test_a_screenful_of_a_long_list_is_found_by_its_own_items():
    nodes = [{"id": f"n{i}", "kind": "agent", "name": f"N{i}", "role": "builder"} for i in range(400)]
    edges = [{"id": f"n{i}-n{i + 1}", "from": f"n{i}", "to": f"n{i + 1}"} for i in range(399)]
    doc = {"grooph": 0, "id": "g", "name": "G", "version": 1, "nodes": nodes, "edges": edges, "loops": []}
    text = json.dumps(doc, indent=2)
    a = kind_of_file("g.grooph.json").read(text, name="g.grooph.json")
    at = text.index('"from": "n300"')
    assert parts_in_range(a, at, at + 20) == [("edges", 300)]
    (hint,) = a.document_kind.inlay_hints(a, at, at + 20)
    assert hint.label == "N300 · agent"


def test_workflow_and_board_hints():
    a = _read(WORKFLOW)
    labels = {a.text[h.offset - 12:h.offset]: h.label for h in a.document_kind.inlay_hints(a, 0, len(a.text))}
    assert labels["target: done"] == "final"
    assert labels["arget: ready"] == "on start"
    b = _read(BOARD)
    tasks = b.value["tasks"]
    at = b.text.index('"subtask_of": "t-2"') + len('"subtask_of": "t-2"')
    (hint,) = [h for h in b.document_kind.inlay_hints(b, 0, len(b.text)) if h.offset == at]
    assert hint.label == tasks["t-2"]["title"]


def test_what_each_kind_offers():
    episodes = _read(next((FIXTURES / "episodes" / "valid").glob("*.episodes.json")))
    kind = episodes.document_kind
    assert kind.inlay_hints(episodes, 0, 10) is None and kind.semantic_tokens(episodes) is None
    assert kind.document_links(episodes, None) is not None


def test_urls_and_local_files(tmp_path):
    text = '"see https://example.com/a_b?x=1). and http://x.org, not ftp://y.org or https://"'
    assert [l.target for l in url_links(text)] == ["https://example.com/a_b?x=1", "http://x.org"]
    (tmp_path / "p.md").write_text("x")
    assert local_file(str(tmp_path / "w.workflow.yaml"), "p.md") == str(tmp_path / "p.md")
    assert local_file(str(tmp_path / "w.workflow.yaml"), "missing.md") is None
    assert local_file(None, "p.md") is None


def test_half_typed_text_answers_without_a_fault():
    path = FIXTURES / "valid" / "review-loop.grooph.json"
    full = path.read_text("utf-8")
    for cut in range(0, len(full), 97):
        a = _read(path, full[:cut])
        kind = a.document_kind
        assert isinstance(kind.inlay_hints(a, 0, cut), list)
        assert all(t.end > t.start for t in kind.semantic_tokens(a))
        assert isinstance(kind.document_links(a, None), list)
    wf = WORKFLOW.read_text("utf-8")
    for cut in range(0, len(wf), 23):
        a = _read(WORKFLOW, wf[:cut])
        assert isinstance(a.document_kind.semantic_tokens(a), list)
        assert isinstance(a.document_kind.inlay_hints(a, 0, cut), list)
