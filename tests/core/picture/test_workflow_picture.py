"""The picture of a board workflow (issue 15 point 6; layout rules in grooph_core/picture/workflow_picture.py):
card order, row labels, the dashed run-time mark, the run machine panel, escaping, themes, determinism,
well-formed XML, and the refusal of a workflow that fails E_WF_SCHEMA."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from grooph_core.picture import PictureError, render_svg
from grooph_core.source.yaml_reader import parse_yaml
from tests.conftest import FIXTURES

NS = "{http://www.w3.org/2000/svg}"
EXAMPLE = parse_yaml((FIXTURES / "workflow" / "valid" / "spec-example.workflow.yaml").read_text("utf-8")).value

RUNNING = """
description: 'Runs <fast> & "well"'
roles: {implementer: card.assignee}
initial: [{target: todo}]
verbs:
  cancel: [{from: [todo, doing], target: gone}]
on:
  park: [{target: "{{event.where}}"}]
statuses:
  lost: {}
  gone: {}
  doing:
    on: {finish: [{}]}
  todo:
    on: {go: [{target: doing}]}
dispatch: {tick: 30, start: go}
run:
  initial: starting
  on: {kill: [{target: dead}]}
  outcomes: {ok: [{target: gone}]}
  states:
    dead: {}
    starting: {on: {up: [{target: live}]}}
    live: {on: {crash: [{target: "{{event.next}}"}]}}
"""


def _svg(value, theme="light"):
    svg = render_svg(value, "workflow", theme=theme)
    return svg, ET.fromstring(svg)


def _statuses(root, within=None):
    return [g.get("data-status") for g in (within if within is not None else root).iter(f"{NS}g") if g.get("data-status")]


def test_cards_come_breadth_first_from_the_initial_target_unreachable_last():
    _, root = _svg(EXAMPLE)
    assert _statuses(root) == ["ready", "building", "review", "blocked", "done"]
    _, root = _svg(parse_yaml(RUNNING).value)
    panel = root.find(f".//{NS}g[@data-run-machine]")
    card_order = [s for s in _statuses(root) if s not in _statuses(root, panel)]
    assert card_order == ["todo", "doing", "gone", "lost"]  # lost: no transition reaches it
    lost = root.find(f".//{NS}g[@data-status='lost']")
    assert "unreachable" in "".join(lost.itertext())


def test_rows_are_labelled_with_their_event_verbs_and_global_on_from_every_source():
    _, root = _svg(parse_yaml(RUNNING).value)

    def rows(name):
        g = root.find(f".//{NS}g[@data-status='{name}']")
        return [t.text for t in g.findall(f"{NS}text")][1:]

    assert rows("todo") == ["go", "→ doing", "cancel", "→ gone", "park", "→ {{event.where}}"]
    assert rows("doing") == ["finish", "stays", "cancel", "→ gone", "park", "→ {{event.where}}"]
    assert rows("gone") == ["park", "→ {{event.where}}"]  # not a source of cancel
    # every row with a target has an arrow: new card 1, todo 3, doing 2, gone 1, lost 1; run: 5
    assert len(root.findall(f".//{NS}g[@data-arrow]")) == 8 + 5


def test_template_targets_go_to_a_dashed_run_time_mark():
    svg, root = _svg(parse_yaml(RUNNING).value)
    marks = root.findall(f".//{NS}g[@data-run-time]")
    assert len(marks) == 2  # one in the statuses panel, one in the run machine's
    assert all(m.find(f"{NS}rect").get("stroke-dasharray") for m in marks)
    assert "decided at run time" in "".join(marks[0].itertext())
    dashed = [g for g in root.findall(f".//{NS}g[@data-arrow]") if g.find(f"{NS}path").get("stroke-dasharray")]
    assert len(dashed) == 4 + 1  # park from each of the 4 statuses, crash in the run machine
    _, plain = _svg(EXAMPLE)
    assert plain.findall(f".//{NS}g[@data-run-time]") == []


def test_the_run_machine_has_a_panel_of_its_own():
    _, root = _svg(parse_yaml(RUNNING).value)
    panel = root.find(f".//{NS}g[@data-run-machine]")
    assert _statuses(root, panel) == ["starting", "live", "dead"]
    words = "".join(panel.itertext())
    assert "Run machine (starts in starting)" in words and "outcome ok → gone" in words
    assert "kill" in words
    _, plain = _svg(EXAMPLE)
    assert plain.find(f".//{NS}g[@data-run-machine]") is None


def test_every_text_is_escaped_and_the_picture_is_well_formed():
    value = parse_yaml(RUNNING).value
    value["statuses"]['x"><script>'] = {"stored_as": "<b>&"}
    svg, root = _svg(value)
    assert "<script" not in svg and "&lt;script&gt;" in svg and "&lt;b&gt;&amp;" in svg
    assert root.find(f"{NS}title").text == 'Workflow: Runs <fast> & "well"'
    assert any(g.get("data-status") == 'x"><script>' for g in root.iter(f"{NS}g"))


@pytest.mark.parametrize("theme", ["light", "dark", "auto"])
def test_themes_and_same_bytes_run_to_run(theme):
    value = parse_yaml(RUNNING).value
    a, root = _svg(value, theme)
    assert a == render_svg(parse_yaml(RUNNING).value, "workflow", theme=theme)
    assert root.get("data-picture") == "workflow" and a.endswith("</svg>\n")
    if theme == "auto":
        assert "var(--gp-surface)" in a and "<style>" in a
    else:
        assert "var(--gp-" not in a and ("#fdfefe" if theme == "light" else "#1b201e") in a


def test_a_workflow_that_serde_refuses_is_not_drawn():
    with pytest.raises(PictureError) as e:
        render_svg({"initial": 3, "statuses": {}, "dispatch": {"tick": 1, "start": "s"}}, "workflow")
    assert "board workflow" in e.value.message and "initial" in e.value.message
    with pytest.raises(PictureError):
        render_svg(EXAMPLE, "workflow", layout="wide")


def test_grooph_image_draws_a_workflow_and_refuses_a_broken_one_and_a_board(capsys, tmp_path):
    from grooph_core.cli import main

    good = FIXTURES / "workflow" / "valid" / "spec-example.workflow.yaml"
    assert main(["image", str(good), "--theme", "light"]) == 0
    assert 'data-status="review"' in capsys.readouterr().out
    out = tmp_path / "wf.png"
    assert main(["image", str(good), "--out", str(out)]) == 0 and out.read_bytes()[:4] == b"\x89PNG"
    capsys.readouterr()
    bad = tmp_path / "bad.workflow.yaml"
    bad.write_text("statuses: [\n", "utf-8")
    assert main(["image", str(bad)]) == 1
    err = capsys.readouterr().err
    assert "not a workflow grooph can draw" in err and "E_SYNTAX" in err
    assert main(["image", str(good), "--layout", "wide"]) == 1
    assert "a workflow has one picture" in capsys.readouterr().err
    board = FIXTURES / "board" / "valid" / "checkout.board.json"
    assert main(["image", str(board)]) == 1
    assert "a neighbouring format" in capsys.readouterr().err
