"""The engine's reader decides (workflow.md §0, §2; board.md §1–2): the scalar module and the serde walk,
without the oracle (tests/core/test_engine_differential.py asks it about thousands of files)."""

from __future__ import annotations

import pytest

from grooph_core.ide.neighbours.analysis import analyze_neighbour, check_text
from grooph_core.source.kinds import NEIGHBOURS
from grooph_core.source.serde_scalars import json_number_is_float, json_spelling, resolve_plain, ryu

KINDS = {k.name: k for k in NEIGHBOURS}
BASE = "initial: [{target: ready}]\nstatuses:\n  ready: {on: {start: [{target: ready}]}}\ndispatch: {tick: 30, start: start}\n"


def _issues(text: str, kind: str = "workflow", tolerant: bool = False):
    a = analyze_neighbour(text, KINDS[kind], tolerant=tolerant)
    return [(i.code, i.pointers[0] if i.pointers else None, i.message) for i in a.issues], a


@pytest.mark.parametrize("text, kind, value", [
    ("0x10", "int", 16), ("-0x10", "int", -16), ("+5", "int", 5), ("010", "str", "010"), ("-00", "str", "-00"),
    ("0b101", "int", 5), ("0b2", "str", "0b2"), ("1.50", "float", 1.5), ("5.", "float", 5.0), (".5", "float", 0.5),
    ("1e400", "str", "1e400"), ("True", "bool", True), ("TRUE", "bool", True), ("tRUE", "str", "tRUE"),
    ("~", "null", None), ("", "null", None), ("Null", "null", None), ("inf", "str", "inf"), ("+.nan", "str", "+.nan"),
    ("1_0", "str", "1_0"), ("0x", "str", "0x"),
])
def test_plain_scalars_resolve_as_serde_yaml_resolves_them(text, kind, value):
    assert resolve_plain(text) == (kind, value)


@pytest.mark.parametrize("value, spelled", [
    (1.5, "1.5"), (1000.0, "1000.0"), (1e300, "1e300"), (1e16, "1e16"), (1e15, "1000000000000000.0"),
    (0.00001, "0.00001"), (1e-7, "1e-7"), (-0.0, "-0.0"), (5e-324, "5e-324"), (float("inf"), "null"),
    (True, "true"), (None, "null"), (16, "16"),
])
def test_an_expr_holds_a_literal_spelled_as_serde_json_writes_it(value, spelled):
    assert json_spelling(value) == spelled and (not isinstance(value, float) or ryu(value) == spelled)


def test_json_numbers_that_are_floats_for_serde():
    assert [json_number_is_float(t) for t in ("-0", "2.0", "1e2", "0", "-5", "18446744073709551616")] == [
        True, True, True, False, False, True]


def test_a_number_like_target_is_its_text_and_matches_a_status_of_that_text():
    text = BASE.replace("target: ready}]}}", "target: 0x10}]}}\n  0x10: {}") + "verbs: {go: [{target: 1.50}]}\n"
    issues, a = _issues(text)
    assert [c for c, _, _ in issues if c.startswith("E_")] == ["E_WF_UNKNOWN_STATUS"]
    assert issues[0][2].startswith("no status 1.50")  # never "1.5"
    assert a.value["statuses"]["ready"]["on"]["start"][0]["target"] == "0x10"


def test_null_for_an_option_is_absent_and_for_a_default_is_refused_in_serdes_words():
    issues, _ = _issues(BASE + "description: null\nlosses: null\n")
    assert [(c, p) for c, p, _ in issues] == [("E_WF_SCHEMA", "/losses")]
    assert "unit value" in issues[0][2] and "expected a list" in issues[0][2]
    issues, _ = _issues(BASE + "losses:\nroles:\n")  # an empty value is an empty list and map
    assert [c for c, _, _ in issues if c.startswith("E_")] == []


def test_null_read_into_a_string_is_the_text_null():
    text = BASE.replace("ready: {on:", "ready: {run: {role: null, session: ~}, on:")
    issues, a = _issues(text)
    assert ("E_WF_UNKNOWN_ROLE", "/statuses/ready/run/role", "ready: its run names no role null") in issues
    assert a.value["statuses"]["ready"]["run"]["session"] == "~"


def test_a_duplicated_field_is_refused_at_the_later_copy_and_a_duplicated_map_key_warns():
    text = BASE.replace("dispatch: {tick: 30, start: start}", "dispatch: {tick: 30, start: start, tick: 5}")
    text += "roles: {a: x, a: y}\n"
    issues, a = _issues(text)
    assert ("E_WF_SCHEMA", "/dispatch/tick") in [(c, p) for c, p, _ in issues]
    assert "duplicate field `tick`" in next(m for c, p, m in issues if p == "/dispatch/tick")
    assert ("W_DUPLICATE_KEY", "/roles/a") in [(c, p) for c, p, _ in issues]
    span = a.span(next(i for i in a.issues if i.code == "E_WF_SCHEMA"))
    assert text[span[0]:span[1]] == "tick" and span[0] == text.index("tick: 5")


def test_an_earlier_copy_of_a_map_key_is_read_too():
    issues, _ = _issues(BASE + "roles: {a: [x], a: y}\n")
    assert [c for c, _, _ in issues if c.startswith("E_")] == ["E_WF_SCHEMA"]


def test_flattened_after_items_take_only_real_strings():
    text = BASE.replace("ready: {on:", "ready: {after: [{after: 5, target: 5}, {after: 5, target: '5'}], on:")
    issues, _ = _issues(text)
    assert [(c, p) for c, p, _ in issues if c == "E_WF_SCHEMA"] == [("E_WF_SCHEMA", "/statuses/ready/after/0/target")]


@pytest.mark.parametrize("field", ["from", "by", "validate", "actions"])
def test_an_empty_list_field_in_a_flattened_after_item_is_refused(field):
    """Issue 30 item 5: serde buffers a flattened item, and an empty value there is a unit it refuses where a
    list is read ("invalid type: unit value, expected a sequence"); outside such an item it is an empty list."""
    status = f"ready:\n    after:\n      - after: 5\n        target: ready\n        {field}:\n    on: {{start: [{{target: ready}}]}}"
    issues, _ = _issues(BASE.replace("ready: {on: {start: [{target: ready}]}}", status))
    assert [(c, p) for c, p, _ in issues if c == "E_WF_SCHEMA"] == [("E_WF_SCHEMA", f"/statuses/ready/after/0/{field}")]
    block = BASE.replace("ready: {on: {start: [{target: ready}]}}", f"ready:\n    on:\n      start:\n        - target: ready\n          {field}:")
    issues, _ = _issues(block)
    assert [c for c, _, _ in issues if c.startswith("E_")] == []


def test_tags_and_integers_beyond_64_bits():
    issues, _ = _issues(BASE + "params: {a: 123456789012345678901234, b: !x 1, c: !!int x}\ndescription: !x 5\n")
    assert [p for c, p, _ in issues if c == "E_WF_SCHEMA"] == ["/params/a", "/params/b", "/params/c"]


def test_a_byte_order_mark_is_a_syntax_error_at_the_mark_and_nothing_else():
    issues, a = _issues("\ufeff" + BASE)
    assert [c for c, _, _ in issues] == ["E_SYNTAX"] and a.span(a.issues[0]) == (0, 1)


def test_too_deep_a_value_is_refused_at_the_value():
    """With the command line's limits (the editor's own stop at 64 levels, E_DOC_LIMIT)."""
    def codes(text):
        return [(i.code, i.message) for i in check_text("x.workflow.yaml", text, KINDS["workflow"])[1]]

    ok = codes(BASE + "params: {a: " + "[" * 126 + "]" * 126 + "}\n")
    deep = codes(BASE + "params: {a: " + "[" * 127 + "]" * 127 + "}\n")
    ignored = codes(BASE + "zzz: " + "[" * 200 + "]" * 200 + "\n")
    assert not [c for c, _ in ok if c.startswith("E_")] and not [c for c, _ in ignored if c.startswith("E_")]
    assert [c for c, m in deep if "recursion limit" in m] == ["E_WF_SCHEMA"]


TASK = {"id": '"a"', "title": '"A"', "lane": '"todo"', "workspace": '{"kind": "dir"}'}


def _board(**fields: str) -> str:
    """A one-task board whose task has these fields, each given as raw JSON (`colour` unknown to the model)."""
    task = {**TASK, **fields}
    body = ", ".join(f'"{k}": {v}' for k, v in task.items())
    return '{"slug": "b", "root": "/b", "tasks": {"a": {' + body + "}}}"


@pytest.mark.parametrize("field, raw, refused", [
    ("priority", "-0", True), ("priority", "2.0", True), ("priority", "1e2", True), ("priority", "3", False),
    ("residue", '{"x": 1e400}', True), ("colour", "1e400", False), ("title", '"\\ud800"', True),
    ("colour", '"\\ud800"', False), ("lane", '{"ready": null}', False), ("lane", '{"ready": 1}', True),
    ("workspace", '["dir"]', False), ("workspace", "[]", True), ("skills", "null", True), ("body", "null", False),
    ("lane", '"done", "lane": "todo"', True),
])
def test_a_board_is_refused_exactly_where_serde_json_refuses_it(field, raw, refused):
    issues, _ = _issues(_board(**{field: raw}), "board")
    structural = [c for c, _, _ in issues if c in ("E_SYNTAX", "E_BOARD_SCHEMA")]
    assert bool(structural) == refused, issues


def test_tolerant_mode_reports_the_same_structural_errors_and_runs_the_rules_on_the_rest():
    text = BASE.replace("target: ready}]}}", "target: nowhere}]}}") + "losses: null\n"
    strict, _ = _issues(text)
    tolerant, _ = _issues(text, tolerant=True)
    assert [i for i in strict if i[0] == "E_WF_SCHEMA"] == [i for i in tolerant if i[0] == "E_WF_SCHEMA"]
    assert "E_WF_UNKNOWN_STATUS" in [c for c, _, _ in tolerant] and "E_WF_UNKNOWN_STATUS" not in [c for c, _, _ in strict]


def test_hover_on_a_field_says_whether_it_may_be_null():
    from grooph_core.ide.neighbours.hover import neighbour_hover_at

    text = BASE.replace("ready: {on:", "ready: {run: {role: r, session: s}, stored_as: ready, on:") + "losses: []\n"
    a = analyze_neighbour(text, KINDS["workflow"])

    def hover(word: str) -> str:
        return neighbour_hover_at(a, text.index(word) + 1).markdown

    assert hover("stored_as").endswith("May be null: the same as leaving it out.")
    assert hover("losses").endswith("May not be null: the engine refuses it (leave the field out for its default).")
    assert hover("role").endswith('`null` here is the text "null" (quote it or leave the field out).')
    assert hover("tick").endswith("May be null: the literal `null`.")
    board = _board(skills="[]")
    b = analyze_neighbour(board, KINDS["board"])
    md = neighbour_hover_at(b, board.index('"skills"') + 2).markdown
    assert md.endswith("May not be null: the engine refuses it (leave the field out for its default).")


@pytest.mark.parametrize("kind, text, field, fixed", [
    ("workflow", BASE + "losses: null\n", "losses", BASE),
    ("workflow", BASE.replace("start: start}", "start: start, capacity: ~}"), "capacity", BASE),
    ("workflow", BASE.replace("{tick: 30, start", "{capacity: null, tick: 30, start"), "capacity", BASE),
    ("board", _board(skills="null"), "skills", _board()),
])
def test_a_null_in_a_defaulted_field_is_fixed_by_removing_the_field(kind, text, field, fixed):
    from grooph_core.ide.neighbours.repairs import neighbour_fixes
    from grooph_core.ide.text_edits import apply_edits

    a = analyze_neighbour(text, KINDS[kind])
    (issue,) = [i for i in a.issues if i.code.endswith("_SCHEMA")]
    (fix,) = neighbour_fixes(a, [issue])
    assert fix.title == "Remove the field" and issue.pointers[0].endswith(field)
    assert apply_edits(text, list(fix.edits)) == fixed


def test_a_collection_as_a_key_is_refused_where_read_at_the_key_and_not_inside_an_unknown_keys_value():
    issues, a = _issues(BASE + "roles: {[a]: x}\ncolour: {[b]: 1}\n")
    (refused,) = [i for i in a.issues if i.code == "E_WF_SCHEMA"]
    text = BASE + "roles: {[a]: x}\ncolour: {[b]: 1}\n"
    assert refused.pointers == ("/roles",) and text[slice(*a.span(refused))] == "[a]"
    assert "expected a string" in refused.message
