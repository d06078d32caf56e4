"""The workspace core: which files are documents, what is kept of them, symbol ranking, lens words
and the edits that keep maps pointing at moved graphs (issue 17)."""

from __future__ import annotations

import json
import os

from grooph_core.rules.map.graph_pointers import graph_path
from grooph_core.source.json_reader import MAX_CHARS
from grooph_core.workspace.index import WorkspaceIndex, check_file
from grooph_core.semantics.brake_words import loop_brakes_words
from grooph_core.workspace.links import moved, pointer_to, rename_edits
from grooph_core.workspace.symbol_search import ranked, subsequence_score
from tests.lsp.docs import CLEAN, DANGLING, STUDIO_MAP

LIMIT = MAX_CHARS


def write(path, value) -> str:
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(value if isinstance(value, str) else json.dumps(value, indent=2))
    return str(path)


def test_which_files_are_documents(tmp_path):
    assert check_file(write(tmp_path / "p.json", {"name": "npm"}), max_chars=LIMIT) is None
    claimed = check_file(write(tmp_path / "by-content.json", CLEAN), max_chars=LIMIT)
    assert claimed is not None and claimed.facts.kind == "graph"
    broken = check_file(write(tmp_path / "b.grooph.json", '{"grooph": 0,'), max_chars=LIMIT)
    assert broken is not None and any(i.code == "E_SYNTAX" for i in broken.analysis.issues)
    (tmp_path / "latin.grooph.json").write_bytes(b'{"name": "caf\xe9"}')
    latin = check_file(str(tmp_path / "latin.grooph.json"), max_chars=LIMIT)
    assert [i.code for i in latin.analysis.issues] == ["E_SCHEMA"] and "not UTF-8" in latin.analysis.issues[0].message
    big = check_file(write(tmp_path / "big.grooph.json", DANGLING), max_chars=100)
    assert [i.code for i in big.analysis.issues] == ["E_DOC_LIMIT"] and "not read" in big.analysis.issues[0].message
    assert check_file(str(tmp_path / "gone.grooph.json"), max_chars=LIMIT) is None


def test_maps_name_graphs_through_the_one_resolution(tmp_path):
    mp = str(tmp_path / "maps" / "m.grooph-map.json")
    assert graph_path(mp, "../g/a.grooph.json") == str(tmp_path / "g" / "a.grooph.json")
    assert graph_path(mp, "/abs/a.grooph.json") == "/abs/a.grooph.json"
    assert graph_path(mp, "https://x.org/a.grooph.json") is None and graph_path(mp, "plan@3") is None
    doc = json.loads(json.dumps(STUDIO_MAP))
    doc["sessions"][0]["graph"] = "../g/a.grooph.json"
    write(mp, doc)
    index = WorkspaceIndex([str(tmp_path)])
    for p in index.discover():
        index.put(check_file(p, max_chars=LIMIT))
    (m,) = index.entries.values()
    assert [i.code for i in check_file(mp, max_chars=LIMIT).analysis.issues].count("W_GRAPH_UNRESOLVED") == 1
    assert index.dependents([str(tmp_path / "g" / "a.grooph.json")], {}) == [mp]
    write(tmp_path / "g" / "a.grooph.json", CLEAN)
    assert "W_GRAPH_UNRESOLVED" not in [i.code for i in check_file(mp, max_chars=LIMIT).analysis.issues]
    # an open text wins over the file: broken in the editor, not a graph
    opened = {str(tmp_path / "g" / "a.grooph.json"): "{"}
    issues = check_file(mp, max_chars=LIMIT, open_text=opened.get).analysis.issues
    assert "W_GRAPH_UNRESOLVED" in [i.code for i in issues]


def test_moving_graphs_and_maps_keeps_the_pointers_right(tmp_path):
    assert moved("/w/g/a.json", [("/w/g", "/w/plans")]) == "/w/plans/a.json"
    assert moved("/w/gx/a.json", [("/w/g", "/w/plans")]) == "/w/gx/a.json"
    assert pointer_to("/w/plans/a.json", "/w/maps/m.json", "../g/a.json") == "../plans/a.json"
    assert pointer_to("/w/maps/a.json", "/w/maps/m.json", "./a.json") == "./a.json"
    assert pointer_to("/w/plans/a.json", "/w/maps/m.json", "/w/g/a.json") == "/w/plans/a.json"
    mp = write(tmp_path / "maps" / "m.grooph-map.json",
               dict(STUDIO_MAP, sessions=[dict(STUDIO_MAP["sessions"][0], graph="../g/a.grooph.json"), STUDIO_MAP["sessions"][1]]))
    facts = check_file(mp, max_chars=LIMIT).facts
    g = str(tmp_path / "g" / "a.grooph.json")
    (e,) = rename_edits([facts], [(g, str(tmp_path / "g" / "b.grooph.json"))])
    assert e.text == '"../g/b.grooph.json"'
    # the map itself moves one folder down: its relative pointer follows
    (e,) = rename_edits([facts], [(mp, str(tmp_path / "maps" / "deep" / "m.grooph-map.json"))])
    assert e.text == '"../../g/a.grooph.json"'
    assert rename_edits([facts], [(str(tmp_path / "unrelated.json"), str(tmp_path / "x.json"))]) == []


def test_symbol_ranking_prefers_exact_then_prefix_then_tight_subsequences():
    names = ["planner", "plan-review", "people-planner", "pl", "sampler", "coder"]
    assert ranked("pl", names, lambda n: (n,)) [0] == "pl"
    assert ranked("plan", names, lambda n: (n,))[:2] == ["planner", "plan-review"]
    assert ranked("pr", names, lambda n: (n,))[0] == "plan-review"  # word starts
    assert "coder" not in ranked("pln", names, lambda n: (n,))
    assert subsequence_score("xyz", "planner") is None
    assert ranked("PLANNER", names, lambda n: (n,))[0] == "planner"  # case ignored


def test_loop_brakes_in_words():
    loop = {"stops": [{"kind": "max-iterations", "n": 5}, {"kind": "budget", "measure": "minutes", "limit": 30}]}
    assert loop_brakes_words(loop) == "≤ 5 rounds · 30 minutes"
    assert loop_brakes_words({"stops": [{"kind": "budget", "measure": "usd", "limit": 2.5},
                                        {"kind": "human", "every": 1}, {"kind": "bar-passed"}]}) == \
        "$2.5 · a person every 1 round · until the bar passes"
    assert loop_brakes_words({"stops": []}) == "no brakes"
    assert loop_brakes_words({"stops": [{"kind": "max-iterations", "n": "five"}]}) == "no brakes"


# --- the neighbouring formats (issue 15) in the workspace ----------------------------------------------
FIXTURES = os.path.join(os.path.dirname(__file__), "..", "..", "..", "fixtures")
FLOW = os.path.join(FIXTURES, "workflow", "valid", "spec-example.workflow.yaml")
BOARD = os.path.join(FIXTURES, "board", "valid", "checkout.board.json")
TWICE = os.path.join(FIXTURES, "episodes", "invalid", "E_EPISODES_DUPLICATE", "twice.episodes.json")


def _copy(src: str, dst) -> str:
    with open(src, encoding="utf-8") as f:
        return write(dst, f.read())


def test_neighbours_are_found_by_name_and_ignored_as_graphs_are(tmp_path):
    from grooph_core.workspace.discover import is_candidate_name, name_globs

    assert is_candidate_name("a.workflow.yaml") and is_candidate_name("a.workflow.yml")
    assert is_candidate_name("a.board.json") and not is_candidate_name("other.yaml")
    # every suffix kinds.py names is watched; .json once
    assert name_globs() == ("**/*.json", "**/*.workflow.yaml", "**/*.workflow.yml")
    _copy(FLOW, tmp_path / "f" / "a.workflow.yaml")
    _copy(FLOW, tmp_path / "build" / "b.workflow.yaml")
    _copy(FLOW, tmp_path / "c.yaml")  # a workflow by content, not by name: the workspace leaves it
    _copy(BOARD, tmp_path / "x.board.json")
    write(tmp_path / ".gitignore", "build/\n")
    found = sorted(os.path.relpath(p, tmp_path) for p in WorkspaceIndex([str(tmp_path)]).discover())
    assert found == [os.path.join("f", "a.workflow.yaml"), "x.board.json"]


def test_neighbours_are_checked_as_the_editor_checks_them(tmp_path):
    from grooph_core.ide.neighbours.analysis import analyze_neighbour
    from grooph_core.source.kinds import NEIGHBOUR_KINDS

    text = open(TWICE, encoding="utf-8").read()
    rec = check_file(_copy(TWICE, tmp_path / "r.episodes.json"), max_chars=LIMIT)
    assert rec.facts.kind == "episodes" and rec.facts.title == "r.episodes.json"
    want = analyze_neighbour(text, NEIGHBOUR_KINDS["episodes"], max_chars=LIMIT).issues
    assert [i.code for i in rec.analysis.issues] == [i.code for i in want] and "E_EPISODES_DUPLICATE" in [i.code for i in want]
    assert rec.facts.errors == sum(1 for i in want if i.severity == "error")
    # a board's JSON does not claim to be a grooph document: its name is enough
    board = check_file(_copy(BOARD, tmp_path / "b.board.json"), max_chars=LIMIT)
    assert board.facts.kind == "board" and board.analysis.issues == () and board.facts.title == "Checkout rewrite"
    assert board.facts.links == () and board.facts.lenses == ()
    # a file not UTF-8, or too large: one issue, in the neighbours' own words (workflow.md §0)
    (tmp_path / "l.workflow.yaml").write_bytes(b"initial: caf\xe9\n")
    latin = check_file(str(tmp_path / "l.workflow.yaml"), max_chars=LIMIT)
    assert [i.code for i in latin.analysis.issues] == ["E_SYNTAX"] and "not UTF-8" in latin.analysis.issues[0].message
    assert latin.facts.kind == "workflow"
    big = check_file(_copy(FLOW, tmp_path / "big.workflow.yaml"), max_chars=100)
    assert [i.code for i in big.analysis.issues] == ["E_DOC_LIMIT"] and big.facts.kind == "workflow"


def test_statuses_and_tasks_are_searched_across_documents(tmp_path):
    index = WorkspaceIndex([str(tmp_path)])
    for p in (_copy(FLOW, tmp_path / "a.workflow.yaml"), _copy(BOARD, tmp_path / "b.board.json"),
              _copy(TWICE, tmp_path / "c.episodes.json")):
        index.put(check_file(p, max_chars=LIMIT))
    (facts, sym), = [(f, s) for f, s in index.search("review", {}) if s.kind == "status"]
    text = open(FLOW, encoding="utf-8").read()
    assert (sym.ident, sym.name, facts.path) == ("review", "", str(tmp_path / "a.workflow.yaml"))
    assert text[sym.selection[0]:sym.selection[1]] == "review"  # the status's key
    assert text[sym.span[0]:sym.span[1]].startswith("review:\n    stored_as: review")
    # run states, roles, events and episodes are not searched; a task by title or by id
    assert {s.kind for f in index.all_facts({}) for s in f.symbols} == {"status", "task"}
    (_, task), = index.search("payment states", {})
    assert (task.kind, task.ident, task.name) == ("task", "t-1", "Design the payment states")
    assert index.search("t-1", {})[0][1].ident == "t-1"
    # an open document's facts (the overlay) win over the file's
    edited = check_file(write(tmp_path / "edited" / "a.workflow.yaml", text.replace("review", "inspection")),
                        max_chars=LIMIT)
    overlay = {str(tmp_path / "a.workflow.yaml"): edited.facts}
    assert [s.ident for _, s in index.search("inspection", overlay) if s.kind == "status"] == ["inspection"]
    assert [s for _, s in index.search("review", overlay) if s.kind == "status"] == []
