"""Outline of the neighbouring formats (issue 15 point 5): workflow statuses with their events, roles,
run specs, run states and caps; board tasks by lane; episodes by standing. Each entry's pointer covers
the object it names, so the shell's ranges hold."""

from __future__ import annotations

import json

from grooph_core.ide.neighbours.analysis import analyze_neighbour
from grooph_core.ide.neighbours.outline import neighbour_symbols
from grooph_core.source.kinds import NEIGHBOUR_KINDS
from tests.conftest import FIXTURES

WORKFLOW = (FIXTURES / "workflow" / "valid" / "spec-example.workflow.yaml").read_text("utf-8")
RUN_ROLES = (FIXTURES / "workflow" / "invalid" / "E_WF_UNKNOWN_ROLE" / "run-roles.workflow.yaml").read_text("utf-8")
BOARD = (FIXTURES / "board" / "valid" / "checkout.board.json").read_text("utf-8")
EPISODES = (FIXTURES / "episodes" / "valid" / "busy-store.episodes.json").read_text("utf-8")


def _outline(text: str, kind: str):
    a = analyze_neighbour(text, NEIGHBOUR_KINDS[kind])
    return a, neighbour_symbols(a.value, kind)


def _tree(syms):
    return [(s.name, s.kind, _tree(s.children)) for s in syms]


def test_workflow_statuses_with_events_roles_caps():
    a, syms = _outline(WORKFLOW, "workflow")
    by = {s.name: s for s in syms}
    assert list(by) == ["statuses", "roles", "caps"]
    assert [s.name for s in by["statuses"].children] == ["ready", "building", "review", "blocked", "done"]
    review = by["statuses"].children[2]
    assert [(e.name, e.kind) for e in review.children] == [("approve", "event"), ("request_changes", "event")]
    assert [e.name for e in by["statuses"].children[1].children] == ["handed_off", "failed"]
    assert by["statuses"].children[1].children[1].detail == "2 transition(s)"
    assert [(r.name, r.detail) for r in by["roles"].children] == [("implementer", "card.assignee"),
                                                                ("reviewer", "'reviewer'")]
    (cap,) = by["caps"].children
    assert (cap.name, cap.detail, cap.kind) == ("two at a time", "board", "cap")
    s, e = a.pointer_span(cap.id_pointer)
    assert WORKFLOW[s:e] == "two at a time"
    s, e = a.pointer_span(review.id_pointer, key=review.on_key)
    assert WORKFLOW[s:e] == "review"
    s, e = a.extent(review.pointer)
    assert WORKFLOW[s:e].startswith("review:") and WORKFLOW[s:e].rstrip().endswith("target: building}]")


def test_workflow_run_specs_and_run_states():
    _, syms = _outline(RUN_ROLES, "workflow")
    by = {s.name: s for s in syms}
    assert [(c.name, c.kind, c.detail) for c in by["run specs"].children] == [
        ("build", "run spec", "implementor"), ("check", "run spec", "reviewer")]
    assert [(c.name, c.kind) for c in by["run states"].children] == [("working", "run state")]


def test_board_tasks_grouped_by_lane_in_the_models_lane_order():
    a, syms = _outline(BOARD, "board")
    tasks = json.loads(BOARD)["tasks"]
    from grooph_core.model.board import LANES
    lanes = [s.name for s in syms]
    assert lanes == sorted(lanes, key=list(LANES).index)
    assert {c.name: g.name for g in syms for c in g.children} == {k: t["lane"] for k, t in tasks.items()}
    first = syms[0].children[0]
    assert first.kind == "task" and first.detail == tasks[first.name]["title"]
    s, e = a.extent(first.pointer)
    key, value = BOARD[s:e].split(":", 1)
    assert key == json.dumps(first.name) and json.loads(value) == tasks[first.name]


def test_episodes_grouped_by_standing():
    a, syms = _outline(EPISODES, "episodes")
    rows = json.loads(EPISODES)["episodes"]
    assert [s.name for s in syms] == ["current", "open"]  # the schema's order, not the file's
    assert {c.name: g.name for g in syms for c in g.children} == {r["session_id"]: r["standing"] for r in rows}
    ep = syms[0].children[0]
    s, e = a.pointer_span(ep.id_pointer)
    assert EPISODES[s:e] == json.dumps(ep.name)


def test_unreadable_or_odd_shapes_give_what_can_be_read():
    assert neighbour_symbols(None, "workflow") == [] and neighbour_symbols([1], "board") == []
    syms = neighbour_symbols({"statuses": {"a": None, "b": {"on": [1]}}, "dispatch": {"capacity": [{}, 3]},
                              "tasks": 7}, "workflow")
    assert _tree(syms) == [("statuses", "list", [("a", "status", []), ("b", "status", [])]),
                           ("caps", "list", [("(no name)", "cap", []), ("(no name)", "cap", [])])]
    board = neighbour_symbols({"tasks": {"x": {"lane": "todo"}, "y": {}, "z": {"lane": "weird"}}}, "board")
    assert [(g.name, [c.name for c in g.children]) for g in board] == [("todo", ["x"]), ("(no lane)", ["y"]),
                                                                       ("weird", ["z"])]


# Hover (issue 15 point 5)

from grooph_core.ide.neighbours.hover import neighbour_hover_at  # noqa: E402


def _hover(text: str, kind: str, offset: int):
    a = analyze_neighbour(text, NEIGHBOUR_KINDS[kind])
    h = neighbour_hover_at(a, offset)
    return h and (h.markdown, text[h.span[0]:h.span[1]])


def test_hover_on_a_key_gives_the_model_field():
    md, word = _hover(WORKFLOW, "workflow", WORKFLOW.index("scope") + 1)
    assert word == "scope" and md.startswith("**scope** — Where one count is kept")
    assert "*required*" in md and "Allowed: `global`, `board`, `machine`, `profile`" in md
    md, word = _hover(BOARD, "board", BOARD.index('"lane"') + 2)
    assert word == '"lane"' and "Where it stands." in md and "`running`" in md
    md, word = _hover(EPISODES, "episodes", EPISODES.index('"note"') + 2)
    assert word == '"note"' and md.startswith("**note** — Why it stands where it does")


def test_hover_on_a_name_says_what_and_where():
    md, word = _hover(WORKFLOW, "workflow", WORKFLOW.index("target: review") + 10)
    line = WORKFLOW[:WORKFLOW.index("  review:")].count("\n") + 1
    assert (md, word) == (f"**status** `review` — defined on line {line}", "review")
    md, word = _hover(WORKFLOW, "workflow", WORKFLOW.index("  review:") + 3)
    assert word == "review" and md.startswith("**status** `review` — this definition") and "Every status, by name." in md
    md, _ = _hover(RUN_ROLES, "workflow", RUN_ROLES.index("implementor") + 2)
    assert "not defined in this document" in md
    assert _hover(WORKFLOW, "workflow", WORKFLOW.index("Build")) is None  # a free text: nothing to say
    assert neighbour_hover_at(analyze_neighbour("{", NEIGHBOUR_KINDS["board"]), 0) is None


# Completion (issue 15 point 5)

from grooph_core.ide.neighbours.completion import neighbour_complete_at  # noqa: E402
from grooph_core.model.board import LANES  # noqa: E402


def test_board_completion_offers_lane_words_and_missing_task_keys():
    at = BOARD.index('"lane": "done"') + len('"lane": "')
    text = BOARD[:at] + BOARD[at + len("done"):]
    a = analyze_neighbour(text, NEIGHBOUR_KINDS["board"])
    assert [c.label for c in neighbour_complete_at(a, at)] == list(LANES)
    at = BOARD.index('"title"')
    text = BOARD[:at] + '"",\n      ' + BOARD[at:]
    labels = [c.label for c in neighbour_complete_at(analyze_neighbour(text, NEIGHBOUR_KINDS["board"]), at + 1)]
    task = json.loads(BOARD)["tasks"]["t-1"]
    assert "body" in labels and "tenant" in labels and not set(labels) & set(task)


def test_workflow_completion_on_a_written_key_replaces_only_its_name():
    # tests/core/test_neighbour_completion.py covers the workflow and the episode record in full
    a = analyze_neighbour(WORKFLOW, NEIGHBOUR_KINDS["workflow"])
    found = neighbour_complete_at(a, WORKFLOW.index("target"))
    assert "guard" in [c.label for c in found] and "target" not in [c.label for c in found]
    assert {WORKFLOW[c.span[0]:c.span[1]] for c in found} == {"target"} and found[0].insert_text == found[0].label
