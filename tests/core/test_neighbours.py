"""The neighbouring formats in the core (issue 15, points 1-3): the models, the YAML reader with exact
positions, every code's rule and order, and the published schemas (workflow.md, board.md, episodes.md)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator
from pydantic import ValidationError

from grooph_core.ide.neighbours.analysis import analyze_neighbour, read_text, rules_of
from grooph_core.model.board import LANES, Board
from grooph_core.model.compiled import root_type
from grooph_core.model.episodes import SCHEMA_FILE, optional_strings, episode_schema, standings
from grooph_core.model.workflow import Workflow
from grooph_core.schema import load_schema
from grooph_core.source.kinds import NEIGHBOUR_KINDS, neighbour_from_name, neighbour_from_value
from grooph_core.source.line_index import LineIndex
from grooph_core.source.yaml_reader import parse_yaml
from tests.conftest import FIXTURES

WORKFLOW, BOARD, EPISODES = (NEIGHBOUR_KINDS[k] for k in ("workflow", "board", "episodes"))
EXAMPLE = (FIXTURES / "workflow" / "valid" / "spec-example.workflow.yaml").read_text("utf-8")
SEEDS = next((p / "shared" / "seeds" for p in Path(__file__).resolve().parents[3:5] if (p / "shared" / "seeds").exists()),
             None)


def issues(text: str, kind=WORKFLOW, tolerant: bool = False):
    a = analyze_neighbour(text, kind, tolerant=tolerant)
    return [(i.code, i.at[0] if i.at else None, text[slice(*a.span(i))], i.message) for i in a.issues]


# ---- workflow.md §5: the example and its four changes ---------------------------------------------


def test_spec_example_is_clean():
    assert issues(EXAMPLE) == [] and issues(EXAMPLE, tolerant=True) == []


def test_spec_example_misspelt_target():
    got = issues(EXAMPLE.replace("target: review}", "target: reveiw}"))
    assert [(c, t) for c, _, t, _ in got] == [("E_WF_UNKNOWN_STATUS", "reveiw"), ("W_WF_UNREACHABLE_STATUS", "review")]
    assert "no status reveiw; did you mean review?" in got[0][3]
    assert got[0][1] == "/statuses/building/on/handed_off/0/target" and got[1][1] == "/statuses/review"


def test_spec_example_scope_boards():
    (got,) = issues(EXAMPLE.replace("scope: board", "scope: boards"))
    assert got[:3] == ("E_WF_SCHEMA", "/dispatch/capacity/0/scope", "boards") and "did you mean board?" in got[3]


def test_spec_example_reserved_key_refused_by_cap():
    (got,) = issues(EXAMPLE.replace("max: 2}", "max: 2, reserved: 1}"))
    assert got[:3] == ("E_WF_SCHEMA", "/dispatch/capacity/0/reserved", "reserved")


def test_spec_example_colour_is_an_unknown_key():
    (got,) = issues(EXAMPLE.replace("done: {stored_as: done}", "done: {stored_as: done, colour: red}"))
    assert got[:3] == ("W_UNKNOWN_KEY", "/statuses/done/colour", "colour")


# ---- §3.1: Workflow::check()'s order, and every finding ------------------------------------------


def test_first_error_is_what_check_returns_and_all_follow():
    text = (FIXTURES / "workflow/invalid/E_WF_UNKNOWN_STATUS/check-order.workflow.yaml").read_text("utf-8")
    errors = [m for c, _, _, m in issues(text) if c.startswith("E_")]
    assert errors == [
        "no status nowhere-initial", "no status nowhere-m", "no source status nosource-m", "no status nowhere-z",
        "no source status nosource-z", "no initial run state nostate", "no status nowhere-outcome",
        "no run state nostate-on", "no run state nostate-s1", "run zed: no role nobody", "no status nowhere-on",
        "a: no status nowhere-a", "b: no run specification nospec", "b: no status nowhere-b-x",
        "b: no status nowhere-b-y", "b: its run names no role norole",
    ]


def test_strict_stops_at_structure_tolerant_goes_on():
    text = EXAMPLE.replace("scope: board", "scope: boards").replace("target: review}", "target: reveiw}")
    assert [c for c, *_ in issues(text)] == ["E_WF_SCHEMA"]
    assert [c for c, *_ in issues(text, tolerant=True)] == ["E_WF_SCHEMA", "E_WF_UNKNOWN_STATUS",
                                                            "W_WF_UNREACHABLE_STATUS"]


def test_templates_are_not_checked_and_silence_unreachable():
    text = EXAMPLE.replace("target: review}", 'target: "{{card.next}}"}')
    assert issues(text) == []


def test_rules_say_nothing_about_unreadable_parts():
    text = "initial: [{target: nowhere}]\nstatuses: [a, b]\ndispatch: {tick: 1, start: go}\n"
    assert [c for c, *_ in issues(text, tolerant=True)] == ["E_WF_SCHEMA"]


# ---- workflow.md §1, §0: YAML 1.2 read with exact positions ---------------------------------------


def test_yaml_1_2_on_yes_no_are_strings():
    p = parse_yaml("on: yes\noff: no\nx: 0x10\ny: ~\nz: 1.5\n")
    assert p.value == {"on": "yes", "off": "no", "x": 16, "y": None, "z": 1.5}


def test_plain_scalar_is_read_as_text_where_a_string_is_expected():
    text = EXAMPLE.replace("stored_as: ready", "stored_as: 1")
    assert [c for c, *_ in issues(text)] == ["W_WF_STORED_AS_UNKNOWN"]  # read, as the text "1"


def test_anchors_resolved_and_merge_key_is_unknown():
    text = EXAMPLE.replace("  blocked: {stored_as: blocked}", "  blocked: &b {stored_as: blocked}\n  parked:\n    <<: *b")
    got = issues(text)
    assert [(c, a, t) for c, a, t, _ in got] == [("W_UNKNOWN_KEY", "/statuses/parked/<<", "<<"),
                                                 ("W_WF_UNREACHABLE_STATUS", "/statuses/parked", "parked")]


def test_duplicated_key_is_a_warning_at_each_copy_and_the_later_copy_wins():
    """workflow.md §0 "Duplicated keys": the reader keeps the last copy (a map's reading); a struct's
    "duplicate field" error is the pipeline's (test_engine_reader.py)."""
    text = "a: 1\nb: 2\na: 3\n"
    p = parse_yaml(text)
    first, later = p.problems
    assert (first.code, later.code) == ("W_DUPLICATE_KEY", "W_DUPLICATE_KEY") and p.ok
    assert first.span == (0, 1) and later.span == (10, 11) and later.related_spans[0][:2] == (0, 1)
    assert p.value == {"b": 2, "a": 3}


def test_several_documents_are_an_error_at_the_second():
    text = "a: 1\n---\nb: 2\n"
    (issue,) = parse_yaml(text).problems
    assert issue.code == "E_SYNTAX" and text[slice(*issue.span)] == "---"


def test_parser_complaint_at_its_mark():
    text = "initial:\n  - target: x\nstatuses:\n  a: b: c\n"
    (got,) = issues(text)
    assert got[0] == "E_SYNTAX" and got[2] == ":" and "not allowed" in got[3]
    assert LineIndex(text).position(text.index("b: c") + 1) == (3, 6)


def test_ranges_of_workflow_md_0():
    text = ('a: "quoted"\nflow: {x: [1, 2]}\nblock:\n  - k: v\n    j: w\n\n  # trailing comment\n'
            "lit: |\n  one\n  two\n\nnull_value:\n")
    sm = parse_yaml(text).source_map

    def at(p, key=False):
        return text[slice(*sm.span(p, key))]

    assert at("/a") == '"quoted"' and at("/a", key=True) == "a"
    assert at("/flow") == "{x: [1, 2]}" and at("/flow/x") == "[1, 2]"
    assert at("/block") == "- k: v\n    j: w"  # first item to the end of the last, not the comment
    assert at("/block/0") == "k: v\n    j: w"
    assert at("/lit") == "|\n  one\n  two"
    assert sm.value_span("/null_value")[0] == sm.value_span("/null_value")[1]


def test_missing_field_points_at_the_key_above_or_first_key():
    text = "initial:\n  - target: ready\nstatuses:\n  ready:\n    run: {session: s}\n    on: {start: [{target: ready}]}\n"
    got = issues(text)
    assert [(a, t) for _, a, t, _ in got] == [("/dispatch", "initial"), ("/statuses/ready/run/role", "run")]


def test_utf16_positions_after_emoji_and_crlf():
    text = EXAMPLE.replace("description: Build, then review.", "description: 😀 émoji 中文").replace(
        "handed_off: [{target: review}]", "h😀ndéd: [{target: reveiw}]").replace("\n", "\r\n")
    a = analyze_neighbour(text, WORKFLOW, tolerant=False)
    s, e = a.span(a.issues[0])
    assert text[s:e] == "reveiw"
    assert a.line_index.position(s) == (14, 25)  # the emoji is two UTF-16 units


def test_billion_laughs_is_refused_not_expanded():
    lines = ['a0: &a0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    for n in range(1, 9):
        lines.append(f"a{n}: &a{n} [" + ", ".join([f"*a{n - 1}"] * 10) + "]")
    p = parse_yaml("\n".join(lines) + "\n")
    assert [i.code for i in p.problems] == ["E_DOC_LIMIT"] and p.value is None


def test_depth_limit_and_recursive_alias():
    deep = "a: " + "[" * 100 + "]" * 100 + "\n"
    assert [i.code for i in parse_yaml(deep).problems] == ["E_DOC_LIMIT"]
    assert parse_yaml(deep, max_depth=512).problems == ()
    (issue,) = parse_yaml("a: &x [*x]\n").problems
    assert issue.code == "E_SYNTAX"


def test_pointer_at_and_enclosing_mapping():
    sm = parse_yaml(EXAMPLE).source_map
    assert sm.pointer_at(EXAMPLE.index("building}")) == ("/statuses/ready/on/start/0/target", "value")
    assert sm.pointer_at(EXAMPLE.index("stored_as: running")) == ("/statuses/building/stored_as", "key")
    assert sm.enclosing_object(EXAMPLE.index("card.failures")) == "/statuses/building/on/failed/0"


# ---- the models (issue 15 point 1) ------------------------------------------------------------------


def test_models_follow_the_serde_attributes():
    wf = root_type("workflow")
    assert wf.required == ("initial", "statuses", "dispatch")
    cap = wf.by_name["dispatch"].type.by_name["capacity"].type.item
    assert cap.closed and cap.names == ("name", "scope", "counts", "where", "unless", "max", "reserve")
    assert cap.by_name["reserve"].type.names == ("for", "slots") and cap.by_name["reserve"].type.closed
    status = wf.by_name["statuses"].type.value
    assert not status.closed and status.required == ()
    assert cap.by_name["scope"].type.values == ("global", "board", "machine", "profile")
    board = root_type("board")
    task = board.by_name["tasks"].type.value
    assert task.required == ("id", "title", "lane", "workspace") and task.by_name["priority"].default == 0
    assert task.by_name["lane"].type.examples == tuple(LANES)  # a catch-all: any word reads
    assert "Claimable by its assignee." in LANES.values()
    # The seed's words are the hovers.
    assert status.by_name["resume_as"].description == "Status used when a failed or blocked run is later resumed."


def test_pydantic_models_read_like_serde():
    Workflow.model_validate({"initial": [], "statuses": {}, "dispatch": {"tick": 30, "start": "go"}})
    with pytest.raises(ValidationError):  # Dispatch refuses unknown keys
        Workflow.model_validate({"initial": [], "statuses": {}, "dispatch": {"tick": 30, "start": "go", "x": 1}})
    with pytest.raises(ValidationError):  # `where` is the wire name, `filter` is not
        Workflow.model_validate({"initial": [], "statuses": {}, "dispatch": {"tick": 1, "start": "go", "capacity": [
            {"name": "c", "scope": "board", "counts": "runs", "max": 1, "filter": {}}]}})
    b = Board.model_validate({"slug": "s", "root": "/r", "tasks": {"a": {"id": "a", "title": "A", "lane": "parked",
                                                                          "workspace": {"kind": "tent"}}}})
    assert b.tasks["a"].lane == "parked"
    with pytest.raises(ValidationError):  # an i64 is never 2.0
        Board.model_validate({"slug": "s", "root": "/r", "tasks": {"a": {"id": "a", "title": "A", "lane": "todo",
                                                                          "priority": 2.0, "workspace": {"kind": "dir"}}}})


def _documents(kind):
    for path in sorted((FIXTURES / kind.name).rglob("*")):
        if path.name.endswith(kind.suffixes):
            parsed = read_text(path.read_text("utf-8"), kind)
            if parsed.ok and parsed.value is not None:
                yield path, parsed.value


# Fixtures whose verdict only the text can give (workflow.md §0 "The engine's reader decides": `-0` and
# `1e400` are read from their digits, a number-like target as its text); a resolved value cannot say it, so
# the value-level schema and model are not asked. tests/core/test_engine_reader.py checks them on the text.
TEXT_LEVEL = ("number-like.", "not-integers.")


@pytest.mark.parametrize("kind", [WORKFLOW, BOARD], ids=lambda k: k.name)
def test_checker_schema_and_pydantic_agree_on_every_fixture(kind):
    """The structural check, the published JSON Schema and the pydantic model accept the same fixtures."""
    validator = Draft202012Validator(load_schema(kind.name))
    model = Workflow if kind.name == "workflow" else Board
    checked = 0
    for path, value in _documents(kind):
        if path.name.startswith(TEXT_LEVEL):
            continue
        ok = not rules_of(kind).structure_issues(value)
        try:
            model.model_validate(value)
            pydantic_ok = True
        except ValidationError:
            pydantic_ok = False
        assert pydantic_ok == ok, path
        assert validator.is_valid(value) == ok, path
        checked += 1
    assert checked >= 15


def test_episodes_schema_is_the_seeds_text_unchanged():
    if SEEDS is None:
        pytest.skip("seeds not beside the repository")
    seed = (SEEDS / "002_0e685013f9e26888.txt").read_text("utf-8")
    shipped = SCHEMA_FILE.read_text("utf-8")
    assert shipped in seed and json.loads(shipped)["title"] == "Episodes"
    assert standings() == ("current", "open", "foreign", "stranded")
    assert optional_strings(episode_schema()) == ("provider", "provider_session", "owner", "worker", "worktree",
                                                  "branch", "start_head", "started_at", "last_activity", "last_event")


# ---- kinds (cli.md §0.4) -----------------------------------------------------------------------------


def test_kinds_by_name_and_content():
    assert neighbour_from_name("x/Flow.Workflow.YML") is WORKFLOW and neighbour_from_name("b.board.json") is BOARD
    assert neighbour_from_name("a.grooph.json") is None
    assert neighbour_from_value({"slug": 1, "root": 2, "tasks": 3}) is BOARD
    assert neighbour_from_value({"present": 1, "store": 2, "worktree": 3}) is EPISODES
    assert neighbour_from_value({"statuses": {}, "initial": []}, "yaml") is WORKFLOW
    assert neighbour_from_value({"statuses": {}, "initial": []}) is None  # a JSON file is no workflow


# ---- as you type (tolerant): broken text does not cascade ---------------------------------------

_FAULT = EXAMPLE.replace("target: done}", "target: dnoe}")


@pytest.mark.parametrize("edit", [
    ("    stored_as: review\n", "    stored_as: review\n    ru\n"),  # a key half typed
    ("run: {role: implementer, session: implementer}", "run: {role: implementer, sess"),  # an unclosed mapping
    ("      start: [{target: building}]", "      start: [{target: "),  # an unclosed transition
    ("dispatch:\n  tick: 30\n", "dispatch:\n  tick: 30\n  sta\n"),  # a required field half typed
], ids=["half-key", "unclosed-mapping", "unclosed-transition", "half-required-field"])
def test_a_half_typed_yaml_mapping_gives_one_syntax_error_and_keeps_the_rest(edit):
    text = _FAULT.replace(*edit)
    got = [(c, t) for c, _, t, _ in issues(text, tolerant=True)]
    assert got[0][0] == "E_SYNTAX" and got[1:] == [("E_WF_UNKNOWN_STATUS", "dnoe")]
    assert [c for c, *_ in issues(text)] == ["E_SYNTAX"]  # strict: the engine refuses the file


def test_a_tab_indenting_the_first_status_is_read_around():
    """A tab indenting the first status: that status is left out with its block (its siblings below give its
    level), and the fault elsewhere is still reported (issue 30 item 7; it was the syntax error alone)."""
    text = _FAULT.replace("statuses:\n  ready:\n", "statuses:\n\tready:\n")
    assert [(c, t) for c, _, t, _ in issues(text, tolerant=True)][1:] == [("E_WF_UNKNOWN_STATUS", "dnoe")]
    assert [c for c, *_ in issues(text, tolerant=True)][0] == "E_SYNTAX"
    assert [c for c, *_ in issues(text)] == ["E_SYNTAX"]  # strict: the engine refuses the file


def test_a_half_typed_json_task_does_not_cascade():
    board = (FIXTURES / "board" / "valid" / "checkout.board.json").read_text("utf-8").replace('"child": "t-3"',
                                                                                              '"child": "t-33"')
    text = board.replace('"title": "Write the migration",', '"title": "Write the migration", "la')
    codes = [c for c, *_ in issues(text, BOARD, tolerant=True)]
    assert codes[-1] == "E_BOARD_DANGLING_DEPENDENCY" and set(codes[:-1]) == {"E_SYNTAX"}
