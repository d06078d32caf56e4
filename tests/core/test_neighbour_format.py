"""Formatting of the neighbouring formats (issue 15 point 5): a board and an episode record in the form the
seed's program writes them (serde_json pretty over the seed's structs: declared fields in the struct's
order, maps sorted, two-space layout), keeping every unknown key and every number as written; a workflow
is not formatted (YAML has no canonical form here)."""

from __future__ import annotations

import json

import pytest

from grooph_core.ide.grooph.formatting import format_edits
from grooph_core.ide.neighbours.analysis import analyze_neighbour
from grooph_core.ide.neighbours.face import WORKFLOW_NOT_FORMATTED
from grooph_core.ide.neighbours.format import record_text
from grooph_core.ide.refused import Refused
from grooph_core.ide.text_edits import apply_edits
from grooph_core.model.compiled import root_type
from grooph_core.model.episodes import episode_schema, record_schema
from grooph_core.source.kinds import NEIGHBOUR_KINDS
from tests.conftest import FIXTURES

BOARD = (FIXTURES / "board" / "valid" / "checkout.board.json").read_text("utf-8")
WORKFLOW = (FIXTURES / "workflow" / "valid" / "spec-example.workflow.yaml").read_text("utf-8")


def _format(text: str, kind: str):
    result = format_edits(analyze_neighbour(text, NEIGHBOUR_KINDS[kind]))
    return result if isinstance(result, Refused) else apply_edits(text, result)


def _keys_in_text_order(text: str, obj_start: str) -> list[str]:
    """The keys of the object whose text starts with `obj_start`, as written, at its first level."""
    i = text.index(obj_start) + len(obj_start)
    pairs = json.JSONDecoder(object_pairs_hook=lambda p: p).raw_decode(text[i - 1:])[0]
    return [k for k, _ in pairs]


def test_board_fields_in_the_structs_order_tasks_sorted_unknown_keys_kept_after():
    board = json.loads(BOARD)
    task = board["tasks"]["t-2"]
    task["zeta"], task["alpha"] = 1, {"b": 2, "a": 1}
    scrambled = {"tasks": dict(reversed(list(board["tasks"].items()))), "extra": True,
                 **{k: v for k, v in reversed(list(board.items())) if k != "tasks"}}
    text = json.dumps(scrambled, indent=1, ensure_ascii=False)
    out = _format(text, "board")
    assert json.loads(out) == json.loads(text)  # nothing lost, nothing added
    assert list(json.loads(out)) == ["slug", "name", "root", "tasks", "dependencies", "extra"]
    assert list(json.loads(out)["tasks"]) == sorted(board["tasks"])
    declared = list(root_type("board").by_name["tasks"].type.value.by_name)
    keys = _keys_in_text_order(out, '"t-2": {')
    assert keys == [k for k in declared if k in task] + ["alpha", "zeta"]
    assert '"alpha": {\n        "a": 1,\n        "b": 2\n      }' in out  # free JSON: keys sorted
    assert out.endswith("}\n") and "\r" not in out and "\t" not in out
    assert _format(out, "board") == out  # idempotent


def test_numbers_are_kept_as_written():
    text = ('{"slug": "s", "root": "/r", "tasks": {"a": {"id": "a", "priority": 2.0, "residue": '
            '{"big": 12345678901234567890123, "e": 1E2, "neg": -0.0, "f": 0.10}}}}')
    out = _format(text, "board")
    for written in ('"priority": 2.0', '"big": 12345678901234567890123', '"e": 1E2', '"neg": -0.0', '"f": 0.10'):
        assert written in out, written
    # and the issue serde would raise on 2.0 stays visible after formatting
    codes = [i.code for i in analyze_neighbour(out, NEIGHBOUR_KINDS["board"]).issues]
    assert codes == [i.code for i in analyze_neighbour(text, NEIGHBOUR_KINDS["board"]).issues] and "E_BOARD_SCHEMA" in codes


def test_strings_escaped_as_serde_json_does():
    text = '{"slug": "a\\u00e9\\/\\u001f\\t\\"\\u2028", "root": "\\ud800", "tasks": {}}'
    out = _format(text, "board")
    assert '"slug": "aé/\\u001f\\t\\"\u2028"' in out and '"root": "\\ud800"' in out
    assert json.loads(out) == json.loads(text)


def test_episode_record_in_its_schemas_order():
    for path in sorted((FIXTURES / "episodes" / "valid").glob("*.episodes.json")):
        text = path.read_text("utf-8")
        assert _format(text, "episodes") == text  # the seed's examples, written in this form already
    record = json.loads((FIXTURES / "episodes" / "valid" / "busy-store.episodes.json").read_text("utf-8"))
    record["episodes"][0] = dict(reversed(list(record["episodes"][0].items())), custom=[3, 1])
    scrambled = json.dumps(dict(reversed(list(record.items()))), separators=(",", ":"))
    out = _format(scrambled, "episodes")
    assert list(json.loads(out)) == [k for k in record_schema()["properties"] if k in record]
    row = _keys_in_text_order(out, '"episodes": [\n    {')
    assert row == [k for k in episode_schema()["properties"] if k in record["episodes"][0]] + ["custom"]
    assert json.loads(out)["episodes"][0]["custom"] == [3, 1]  # arrays keep their order


def test_crlf_documents_keep_crlf():
    text = json.dumps({"tasks": {}, "root": "/r", "slug": "s"}, indent=2).replace("\n", "\r\n")
    out = _format(text, "board")
    assert out == '{\r\n  "slug": "s",\r\n  "root": "/r",\r\n  "tasks": {}\r\n}\r\n'


def test_what_is_not_formatted_and_why():
    assert _format(WORKFLOW, "workflow") == Refused(WORKFLOW_NOT_FORMATTED, standing=True)
    assert "comments" in WORKFLOW_NOT_FORMATTED and "Nothing was changed" in WORKFLOW_NOT_FORMATTED
    broken = _format('{"slug": "s",\n "root": }', "board")
    assert isinstance(broken, Refused) and broken.message.startswith("Not formatted: the text is not valid JSON (line 2")
    dup = _format('{"present": true, "present": false, "store": "s", "worktree": "w"}', "episodes")
    assert isinstance(dup, Refused) and "duplicate key" in dup.message and "remove one copy" in dup.message


@pytest.mark.parametrize("value", [
    [1, 2], "x", None, 3.5, {"tasks": [{"a": 1}], "slug": {"z": 1, "a": [{}]}}, {"episodes": {"x": 1}},
    {"tasks": {"t": {"attempts": [{"handoff": {"metadata": {"b": [1, {"d": 1, "c": 2}]}}}]}}},
    {"deep": json.loads("[" * 400 + "]" * 400)},
])
def test_any_json_value_is_written_without_loss(value):
    for kind in ("board", "episodes"):
        text = json.dumps(value)
        out = record_text(json.loads(text), kind, text)
        assert json.loads(out) == value
        assert record_text(json.loads(out), kind, out) == out
