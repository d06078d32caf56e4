"""Completion in the neighbouring formats (issue 15 point 5): keys the model declares and the mapping lacks,
enum words, and names where workflow.md §4 / board.md §4 / episodes.md §3 say a name is expected, on
half-typed text. `|` in a test text marks the cursor."""

from __future__ import annotations

import json

import pytest

from grooph_core.ide.neighbours.analysis import analyze_neighbour
from grooph_core.ide.neighbours.completion import neighbour_complete_at, yaml_scalar
from grooph_core.ide.text_edits import TextEdit, apply_edits
from grooph_core.model.board import KANBAN_STATUSES, LANES
from grooph_core.model.episodes import standings
from grooph_core.source.kinds import NEIGHBOUR_KINDS, NEIGHBOURS
from grooph_core.source.text import value_at
from grooph_core.source.yaml_reader import parse_yaml
from tests.conftest import FIXTURES

WORKFLOW = (FIXTURES / "workflow" / "valid" / "spec-example.workflow.yaml").read_text("utf-8")
RUN_ROLES = (FIXTURES / "workflow" / "invalid" / "E_WF_UNKNOWN_ROLE" / "run-roles.workflow.yaml").read_text("utf-8")
BOARD = (FIXTURES / "board" / "valid" / "checkout.board.json").read_text("utf-8")
EPISODES = (FIXTURES / "episodes" / "valid" / "busy-store.episodes.json").read_text("utf-8")
STATUSES = ["ready", "building", "review", "blocked", "done"]


def _at(marked: str, kind: str = "workflow"):
    at = marked.index("|")
    text = marked[:at] + marked[at + 1:]
    return text, at, neighbour_complete_at(analyze_neighbour(text, NEIGHBOUR_KINDS[kind]), at)


def _labels(marked: str, kind: str = "workflow") -> list[str]:
    return [c.label for c in _at(marked, kind)[2]]


def _take(marked: str, label: str, kind: str = "workflow") -> str:
    """The text after choosing the completion `label` (its main and additional edit)."""
    text, _, found = _at(marked, kind)
    c = next(c for c in found if c.label == label)
    edits = [TextEdit(c.span[0], c.span[1], c.insert_text)]
    if c.comma_at is not None:
        edits.append(TextEdit(c.comma_at, c.comma_at, ","))
    return apply_edits(text, sorted(edits, key=lambda e: e.start))


def _sub(old: str, new: str, text: str = WORKFLOW) -> str:
    assert old in text, old
    return text.replace(old, new, 1)


# ---- workflow keys (workflow.md §2) -----------------------------------------------------------------


def test_keys_of_a_status_lack_the_ones_written_and_carry_the_models_words():
    found = _at(_sub("    stored_as: ready\n", "    stored_as: ready\n    |\n"))[2]
    labels = [c.label for c in found]
    assert "stored_as" not in labels and "on" not in labels  # written above and below the cursor
    assert labels[:3] == ["description", "run", "run_role"] and "after" in labels
    run = next(c for c in found if c.label == "run")
    assert run.kind == "key" and run.detail == "optional · Run" and run.documentation == "What runs while a card is here."
    assert run.insert_text == "run: {}" and run.snippet == "run: {$1}"


def test_a_key_with_no_value_yet_offers_its_mappings_keys_required_first():
    text = _take(_sub("    stored_as: running\n", "    stored_as: running\n    run:\n      |\n"), "role")
    assert "    run:\n      role: \n" in text
    assert _labels(_sub("    stored_as: running\n", "    stored_as: running\n    run:\n      |\n"))[:2] == ["role", "session"]


def test_a_half_typed_key_that_breaks_the_yaml_still_completes():
    marked = _sub("    stored_as: ready\n", "    sto|\n")
    text, at, found = _at(marked)
    assert not analyze_neighbour(text, NEIGHBOUR_KINDS["workflow"]).parsed.ok  # `sto` then `on:`: not YAML
    c = next(c for c in found if c.label == "stored_as")
    assert text[c.span[0]:c.span[1]] == "sto" and c.insert_text == "stored_as: "
    assert "on" not in [c.label for c in found]


def test_list_items_complete_the_item_types_keys():
    # a new `- ` transition (its guard first typed), and a delayed transition, whose `after` is required
    assert _labels(_sub("        - target: blocked", "        - target: blocked\n        - |"))[:2] == ["from", "by"]
    labels = _labels(_sub("        - target: blocked", "        - target: blocked\n        - gu|"))
    assert "guard" in labels and "target" in labels
    labels = _labels(_sub("    stored_as: running\n", "    stored_as: running\n    after:\n      - |\n"))
    assert labels[0] == "after"
    # keys of an item written under its first key, and of a list at its key's own column
    labels = _labels(_sub("  - target: ready", "  - target: ready\n    |"))
    assert "target" not in labels and "guard" in labels
    assert "guard" in _labels(_sub("initial:\n  - target: ready", "initial:\n- target: ready\n  |"))


def test_keys_in_a_flow_mapping_get_their_comma():
    marked = _sub("{name: two at a time, scope: board, counts: runs, max: 2}", "{name: two at a time |}")
    assert _labels(marked)[:3] == ["scope", "counts", "max"]
    text = _take(marked, "max")
    cap = parse_yaml(text).value["dispatch"]["capacity"][0]
    assert cap == {"name": "two at a time", "max": None}
    text = _take(_sub("{name: two at a time, scope: board, counts: runs, max: 2}", "{name: x,|}"), "scope")
    assert parse_yaml(text).value["dispatch"]["capacity"][0] == {"name": "x", "scope": "global"}
    text = _take(_sub("{name: two at a time, scope: board, counts: runs, max: 2}", "{|name: x}"), "max")
    assert parse_yaml(text).value["dispatch"]["capacity"][0] == {"max": "x"}  # on a key: the key is replaced


def test_inside_an_existing_key_only_the_name_is_replaced():
    text, _, found = _at(_sub("    stored_as: ready\n", "    sto|red_as: ready\n"))
    c = next(c for c in found if c.label == "description")
    assert text[c.span[0]:c.span[1]] == "stored_as" and c.insert_text == "description"


def test_a_value_is_replaced_up_to_its_end_never_over_a_trailing_comment():
    """The replace range of a block value: a plain one up to its last character before ` #`, a quoted
    one between its quotes, which stay (a ` #` inside them is text, not a comment; issue 29: a client
    inserting at the cursor must not write the closing quote again); the comment stays."""
    for marked, token in [("  - target: rea|dy   # the first one\n", "ready"), ("  - target: 'rea|dy'  # quoted\n", "ready"),
                          ("  - target: 'a #|b'  # quoted\n", "a #b"), ('  - target: "a #|b" # "quoted"\n', "a #b")]:
        text, _, found = _at(_sub("  - target: ready\n", marked))
        c = next(c for c in found if c.label == "done")
        assert text[c.span[0]:c.span[1]] == token, marked
    assert "  - target: done   # the first one\n" in _take(_sub("  - target: ready\n", "  - target: rea|dy   # the first one\n"), "done")
    assert "  - target: \"done\" # \"quoted\"\n" in _take(_sub("  - target: ready\n", '  - target: "a #|b" # "quoted"\n'), "done")


# ---- workflow names (workflow.md §4) and words ------------------------------------------------------


def test_a_card_target_takes_statuses_block_and_flow():
    assert _labels(_sub("  - target: ready", "  - target: |")) == STATUSES
    text, _, found = _at(_sub("handed_off: [{target: review}]", "handed_off: [{target: rev|}]"))
    assert [c.label for c in found] == STATUSES and {c.kind for c in found} == {"id"}
    assert text[found[0].span[0]:found[0].span[1]] == "rev" and found[0].detail == "status"
    text = _take(_sub("handed_off: [{target: review}]", "handed_off: [{target: rev|}]"), "review")
    assert parse_yaml(text).value == parse_yaml(WORKFLOW).value


def test_right_after_the_colon_a_space_is_inserted():
    text = _take(_sub("  - target: ready", "  - target:|"), "done")
    assert "  - target: done\n" in text


def test_run_machine_targets_take_run_states_not_statuses():
    assert _labels(_sub("  states: {working: {}}", "  states: {working: {on: {fail: [{target: |}]}}}", RUN_ROLES)) == ["working"]
    assert _labels(_sub("  initial: working", "  initial: |", RUN_ROLES)) == ["working"]
    # an outcome emits a card verb: its target is a status
    assert _labels(_sub("  initial: working", "  initial: working\n  outcomes:\n    ok: [{target: |}]", RUN_ROLES)) == ["building"]


def test_roles_run_specifications_and_the_engines_senders():
    assert _labels(_sub("    build: {role: implementor, session: main}", "    build: {role: |, session: main}", RUN_ROLES)) == [
        "implementer", "reviewer"]
    assert _labels(_sub("    run_role: build", "    run_role: |", RUN_ROLES)) == ["build", "check"]
    assert _labels(_sub("  initial: working", "  initial: working\n  recurring_role: |", RUN_ROLES)) == ["build", "check"]
    found = _at(_sub("approve: [{by: [reviewer], target: done}]", "approve: [{by: [|], target: done}]"))[2]
    assert [(c.label, c.detail) for c in found] == [("implementer", "role"), ("reviewer", "role"),
                                                    ("platform", "the engine's own sender"),
                                                    ("manager", "the engine's own sender")]
    # a name already in the list is not offered again
    assert _labels(_sub("approve: [{by: [reviewer], target: done}]", "approve: [{by: [reviewer, |], target: done}]")) == [
        "implementer", "platform", "manager"]
    block = _sub("      approve: [{by: [reviewer], target: done}]",
                 "      approve:\n        - by:\n            - reviewer\n            - |\n          target: done")
    assert _labels(block) == ["implementer", "platform", "manager"]


def test_resume_as_and_cap_filters_take_statuses():
    assert _labels(_sub("    run: {role: implementer, session: implementer}",
                        "    run: {role: implementer, session: implementer}\n    resume_as: r|")) == STATUSES
    assert _labels(_sub("  capacity:\n", "  capacity:\n    - name: x\n      where:\n        status: |\n")) == STATUSES
    assert _labels(_sub("  capacity:\n", "  capacity:\n    - name: x\n      where: {status: [ready, |]}\n")) == STATUSES[1:]


def test_enum_words_and_kanban_statuses():
    found = _at(_sub("{name: two at a time, scope: board", "{name: two at a time, scope: |"))[2]
    assert [c.label for c in found] == ["global", "board", "machine", "profile"] and found[0].kind == "value"
    assert _labels(_sub("counts: runs", "counts: |")) == ["runs", "cards", "sessions", "turns", "starts"]
    found = _at(_sub("  blocked: {stored_as: blocked}", "  blocked:\n    stored_as: |"))[2]
    assert [c.label for c in found] == list(KANBAN_STATUSES)
    assert found[0].documentation == LANES["triage"]
    assert _labels("stored_as:\n  - {guard: x, status: |}\n" + WORKFLOW) == list(KANBAN_STATUSES)


def test_under_statuses_the_statuses_referred_to_and_not_written():
    marked = _sub("target: review", "target: reveiw").replace("  blocked: {stored_as: blocked}",
                                                              "  blocked: {stored_as: blocked}\n  |")
    found = _at(marked)[2]
    assert [(c.label, c.detail) for c in found] == [("reveiw", "status referred to, not defined yet")]
    text = _take(marked, "reveiw")
    assert parse_yaml(text).value["statuses"]["reveiw"] == {}
    assert [i.code for i in analyze_neighbour(text, NEIGHBOUR_KINDS["workflow"]).issues] == ["W_WF_UNREACHABLE_STATUS"]
    assert _labels(_sub("roles: {implementer: card.assignee, reviewer: \"'reviewer'\"}", "roles: {implementer: x, |}",
                        RUN_ROLES.replace("{role: reveiwer", "{role: tester"))) == ["tester", "implementor", "reviewer"]


def test_quiet_where_nothing_fits():
    assert _labels(_sub("description: Build, then review.", "description: Build|, then review.")) == []
    assert _labels(_sub("description: Build, then review.", "# a note |\ndescription: x")) == []
    assert _labels(_sub("    run: {role: implementer, session: implementer}",
                        "    run:\n      prompt: |\n        Say |\n      role: implementer\n      session: s")) == []
    assert _labels(_sub("  - target: ready", "  - target: ready\n    guard: >\n      card.x |")) == []
    assert _labels(_sub("params: {failure_limit: 3}", "params:\n  |")) == []  # free names: nothing to offer
    assert _labels(_sub("  - target: ready", "  -|")) == []


def test_params_after_params_dot_in_expressions_and_prompts():
    text, _, found = _at(_sub("card.failures < params.failure_limit", "card.failures < params.fa|ilure"))
    assert [(c.label, c.detail) for c in found] == [("failure_limit", "param = 3")]
    assert text[found[0].span[0]:found[0].span[1]] == "failure"  # the name's characters, around the cursor
    prompt = _sub("    run: {role: implementer, session: implementer}",
                  "    run:\n      role: implementer\n      session: s\n      prompt: >\n        Retry params.\n")
    at = prompt.index("params.\n") + len("params.")
    assert [c.label for c in neighbour_complete_at(analyze_neighbour(prompt, NEIGHBOUR_KINDS["workflow"]), at)] == [
        "failure_limit"]
    assert _labels(_sub("description: Build, then review.", "# see params.|")) == []
    assert _labels(_sub("card.failures < params.failure_limit", "card.failures < xparams.|")) == []


@pytest.mark.parametrize("name,written", [("review", "review"), ("null", '"null"'), ("true", '"true"'), ("3", '"3"'),
                                          ("on", "on"), ("a b", '"a b"'), ("-x", '"-x"'), ("", '""'), ("é", '"é"')])
def test_a_name_is_written_so_that_it_reads_back(name, written):
    assert yaml_scalar(name) == written
    assert parse_yaml(f"k: {written}\n").value == {"k": name}


# ---- boards (board.md §4) and episode records (episodes.md §3) --------------------------------------


def _json_hole(text: str, key: str, value: str) -> str:
    old = f'"{key}": "{value}"'
    assert old in text
    return text.replace(old, f'"{key}": "|"', 1)


def test_board_task_ids_where_a_task_is_named():
    tasks = list(json.loads(BOARD)["tasks"])
    deps = json.loads(BOARD)["dependencies"]
    found = _at(_json_hole(BOARD, "parent", deps[0]["parent"]), "board")[2]
    assert [c.label for c in found] == tasks and found[0].insert_text == json.dumps(tasks[0])
    assert found[0].kind == "id" and found[0].detail == "task"
    assert _labels(_json_hole(BOARD, "child", deps[0]["child"]), "board") == tasks
    marked = BOARD.replace('"title": "Implement the state machine",',
                           '"title": "Implement the state machine",\n      "subtask_of": |,', 1)
    assert _labels(marked, "board") == tasks
    assert json.loads(_take(marked, "t-1", "board"))["tasks"]["t-2"]["subtask_of"] == "t-1"


def test_board_new_task_key_offers_the_tasks_named_but_missing():
    board = json.loads(BOARD)
    board["dependencies"].append({"parent": "t-9", "child": "t-1"})
    text = json.dumps(board, indent=2).replace('"tasks": {', '"tasks": {\n    |', 1)
    assert _labels(text, "board") == ["t-9"]
    assert json.loads(_take(text, "t-9", "board"))["tasks"]["t-9"] == {}


def test_board_words_stay():
    assert _labels(_json_hole(BOARD, "verdict", "approved"), "board") == ["requested", "approved", "changes_requested",
                                                                         "escalated"]
    assert _labels(_json_hole(BOARD, "lane", "done"), "board") == list(LANES)


def test_episode_keys_from_the_seeds_schema():
    found = _at(EPISODES.replace('"path": "a.yaml",', '"path": "a.yaml", |', 1), "episodes")[2]
    labels = [c.label for c in found]
    assert labels[0] == "provider" and "session_id" not in labels and "note" not in labels
    provider = found[0]
    assert provider.documentation.startswith("The provider whose event opened it")
    assert provider.insert_text == '"provider": "",' and provider.detail == "optional · string"
    assert _labels(EPISODES.replace('"store"', '|"store"', 1), "episodes") == ["findings"]


def test_episode_words_and_current():
    found = _at(_json_hole(EPISODES, "standing", "open"), "episodes")[2]
    assert [c.label for c in found] == list(standings())
    assert found[1].documentation.startswith("Open, and it names this worktree")  # each word: the schema's words
    assert found[3].documentation.startswith("The worktree it names is gone from disk")
    assert _labels(EPISODES.replace('"present": true', '"present": |', 1), "episodes") == ["true", "false"]
    found = _at(_json_hole(EPISODES, "current", "s-0002"), "episodes")[2]
    assert [c.label for c in found] == ["s-0001", "s-0002"] and found[0].insert_text == '"s-0001"'


# ---- never raises, every span inside the text -------------------------------------------------------


@pytest.mark.parametrize("kind", NEIGHBOURS, ids=lambda k: k.name)
def test_every_offset_of_the_valid_examples(kind):
    for path in sorted((FIXTURES / kind.name / "valid").iterdir()):
        if not path.name.endswith(kind.suffixes):
            continue
        text = path.read_text("utf-8")
        for cut in (text, text[: len(text) // 2], text.replace(":", "", 3)):
            a = analyze_neighbour(cut, kind)
            for off in range(0, len(cut) + 1, 3):
                for c in neighbour_complete_at(a, off):
                    assert 0 <= c.span[0] <= off <= c.span[1] <= len(cut), (path.name, off, c)
                    assert c.label and c.insert_text


def test_completion_reads_the_parse_not_a_copy_of_names():
    # a status added in the text is offered at once; the model of names decides (no second list)
    text = _sub("  done: {stored_as: done}", "  done: {stored_as: done}\n  parked: {}")
    marked = _sub("  - target: ready", "  - target: |", text)
    assert _labels(marked) == STATUSES + ["parked"]
    assert value_at(parse_yaml(text).value, "/statuses/parked") == {}


from hypothesis import HealthCheck, given, settings, strategies as st  # noqa: E402

_TEXT = st.lists(st.sampled_from(list("{}[],:#-'\" \t\nabsr0|>&*!\\\r") + ["target", "statuses", "on", "- ", "  "]),
                 max_size=30).map("".join)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=_TEXT, kind=st.sampled_from(NEIGHBOURS))
def test_any_text_at_any_offset_never_raises(text, kind):
    a = analyze_neighbour(text, kind)
    for off in range(len(text) + 1):
        for c in neighbour_complete_at(a, off):
            assert 0 <= c.span[0] <= c.span[1] <= len(text)
