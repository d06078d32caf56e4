"""Names of the neighbouring formats (workflow.md §4, board.md §4): definition, references, rename that
edits only the names and keeps every other byte, refusals of taken, empty and invalid names."""

from grooph_core.ide.neighbours.analysis import analyze_neighbour
from grooph_core.ide.refused import Refused
from grooph_core.ide.text_edits import apply_edits
from grooph_core.ide.neighbours import names as nn
from grooph_core.source.kinds import neighbour_from_name
from tests.conftest import FIXTURES

WORKFLOW = (FIXTURES / "workflow" / "valid" / "spec-example.workflow.yaml").read_text("utf-8")
BOARD = (FIXTURES / "board" / "valid" / "checkout.board.json").read_text("utf-8")


def _wf(text: str):
    return analyze_neighbour(text, neighbour_from_name("x.workflow.yaml"))


def test_status_definition_and_references():
    a = _wf(WORKFLOW)
    at = WORKFLOW.index("target: review") + len("target: ")
    key = WORKFLOW.index("  review:") + 2
    assert nn.definition_at(a, at) == [(key, key + 6)]
    assert sorted(nn.references_at(a, at)) == sorted([(key, key + 6), (at, at + 6)])
    assert nn.references_at(a, at, include_declaration=False) == [(at, at + 6)]


def test_rename_role_touches_only_the_names_and_keeps_comments():
    text = WORKFLOW.replace("statuses:\n", "statuses:  # the card's places\n")
    a = _wf(text)
    at = text.index("reviewer: \"'")
    new = apply_edits(text, nn.rename_at(a, at, "checker"))
    assert new == text.replace("reviewer: \"'", "checker: \"'").replace("role: reviewer", "role: checker").replace(
        "by: [reviewer]", "by: [checker]")
    assert _wf(new).issues == ()


def test_rename_refusals():
    a = _wf(WORKFLOW)
    at = WORKFLOW.index("target: review") + len("target: ")
    assert isinstance(nn.rename_at(a, at, "done"), Refused)
    assert isinstance(nn.rename_at(a, at, ""), Refused)
    assert isinstance(nn.rename_at(a, at, "two words"), Refused)
    assert nn.prepare_rename_at(a, WORKFLOW.index("Build")) is None  # a description is no name
    assert isinstance(nn.rename_at(a, WORKFLOW.index("Build"), "x"), Refused)


def test_board_task_rename_changes_key_id_and_references():
    a = analyze_neighbour(BOARD, neighbour_from_name("x.board.json"))
    site = next(s for s in nn.sites(a) if s.key)
    span = nn.name_span(a, site)
    edits = nn.rename_at(a, span[0], "renamed-task")
    assert not isinstance(edits, Refused)
    new = apply_edits(BOARD, edits)
    b = analyze_neighbour(new, neighbour_from_name("x.board.json"))
    assert [i.code for i in b.issues] == [i.code for i in a.issues]
    assert site.name not in {s.name for s in nn.sites(b)} and "renamed-task" in {s.name for s in nn.sites(b)}
