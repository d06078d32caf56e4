"""Mid-typing states through the server (issue 13): while a document is being written, the editor shows the
syntax error at its exact spot and a real fault elsewhere, and nothing about objects intact in the text.

The states are the core test's (tests/core/test_typing_states.py); here they travel as a person's edits:
whole-text changes for each state, and a node typed key by key at the end of the nodes."""

from __future__ import annotations

from lsprotocol import types as lsp

from grooph_core.ide.grooph.analysis import analyze
from tests.core.test_typing_states import (FIRST_EDGE_FAULT, GRAPH, GRAPH_STATES, MAP, WORKFLOW, WORKFLOW_CUTS,
                                          WORKFLOW_TEXT, YAML_SLIPS, _node_close)
from tests.lsp.conftest import change_text, diagnostics_for, open_text, wait_for


def _position(text: str, offset: int) -> tuple[int, int]:
    """(line, column) of an offset; the fixtures are ASCII, so columns in UTF-16 are characters."""
    line = text.count("\n", 0, offset)
    return line, offset - (text.rfind("\n", 0, offset) + 1)


def _shown(client, uri: str) -> list[tuple[str, str]]:
    return [(str(d.code), d.message) for d in client.diagnostics.get(uri, [])]


async def _settle(client, uri: str, predicate) -> list[lsp.Diagnostic]:
    await wait_for(lambda: predicate(client.diagnostics.get(uri, [])))
    return list(client.diagnostics[uri])


def _only_the_fault(diags) -> bool:
    return [d.code for d in diags] == ["E_DANGLING_REF"]


async def test_each_typing_state_shows_the_syntax_error_and_the_real_fault(client, tmp_path):
    uri = (tmp_path / "typing.grooph.json").as_uri()
    open_text(client, uri, GRAPH)
    diags = await diagnostics_for(client, uri)
    assert [d.code for d in diags] == ["E_DANGLING_REF"]
    (fault_line, _) = _position(GRAPH, GRAPH.index('"nowhere"'))
    version = 1
    for name, make in GRAPH_STATES.items():
        text, expected = make()
        version += 1
        change_text(client, uri, version, text)
        messages = [m for m, _ in expected]
        diags = await _settle(client, uri, lambda ds: [d.message for d in ds if d.code == "E_SYNTAX"] == messages)
        syntax = [d for d in diags if d.code == "E_SYNTAX"]
        for d, (_, (start, end)) in zip(syntax, expected):
            assert (d.range.start.line, d.range.start.character) == _position(text, start), name
            assert (d.range.end.line, d.range.end.character) == _position(text, end), name
        other = [d for d in diags if d.code != "E_SYNTAX"]
        assert [d.code for d in other] == ["E_DANGLING_REF"], (name, _shown(client, uri))
        assert other[0].range.start.line == _position(text, text.index('"nowhere"'))[0]
        assert 'unknown node "nowhere"' in other[0].message
        # back to the whole text: only the fault again (so the next state is told apart)
        version += 1
        change_text(client, uri, version, GRAPH)
        diags = await _settle(client, uri, _only_the_fault)
        assert diags[0].range.start.line == fault_line


async def test_a_node_typed_key_by_key_never_turns_its_siblings_red(client, tmp_path):
    """Typing `,\n    {"id": "extra", "kind": "agent", ` one character at a time at the end of the nodes:
    after every keystroke the editor shows syntax errors and the real fault, nothing else."""
    uri = (tmp_path / "keys.grooph.json").as_uri()
    open_text(client, uri, GRAPH)
    await diagnostics_for(client, uri)
    at = _node_close(GRAPH, '"id": "done"') + 1
    typed = ',\n    {"id": "extra", "kind": "agent", '
    line, col = _position(GRAPH, at)
    seen: list[list[tuple[str, str]]] = []
    for i, ch in enumerate(typed):
        change_text(client, uri, i + 2, ch, lsp.Range(start=lsp.Position(line=line, character=col),
                                                      end=lsp.Position(line=line, character=col)))
        if ch == "\n":
            line, col = line + 1, 0
        else:
            col += 1
        text = GRAPH[:at] + typed[: i + 1] + GRAPH[at:]
        # wait for this version's answer: its syntax errors sit where this text has them
        want = [i.message for i in analyze(text, name="keys.grooph.json").issues if i.code == "E_SYNTAX"]
        diags = await _settle(client, uri, lambda ds: [d.message for d in ds if d.code == "E_SYNTAX"] == want)
        seen.append(_shown(client, uri))
        assert [d.code for d in diags if d.code != "E_SYNTAX"] == ["E_DANGLING_REF"], (typed[: i + 1], seen[-1])


async def test_an_unclosed_map_session_keeps_its_handoffs(client, tmp_path):
    uri = (tmp_path / "shop.grooph-map.json").as_uri()
    open_text(client, uri, MAP)
    assert [d.code for d in await diagnostics_for(client, uri)] == ["E_DANGLING_REF"]
    close = _node_close(MAP, '"id": "planner"')
    text = MAP[:close] + MAP[close + 1:]
    change_text(client, uri, 2, text)
    diags = await _settle(client, uri, lambda ds: any(d.code == "E_SYNTAX" for d in ds))
    assert [d.code for d in diags] == ["E_SYNTAX", "E_DANGLING_REF"]
    assert diags[0].message.startswith("unclosed object started at line")
    assert 'ends at' in diags[1].message and '"nobody"' in diags[1].message
    assert not [d for d in diags[1:] if '"planner"' in d.message or '"coder"' in d.message]


async def test_the_first_brace_of_a_new_file_is_calm(client, tmp_path):
    uri = (tmp_path / "new.grooph.json").as_uri()
    open_text(client, uri, "{")
    diags = await diagnostics_for(client, uri)
    assert [(d.code, d.message) for d in diags] == [
        ("E_SYNTAX", "unclosed object started at line 1"),
        ("E_SCHEMA", '/: missing required properties "grooph", "id", "name", "version", "nodes", "edges", "loops"'),
    ]


# ---- a text cut short, a YAML slip (issue 21 item 3) --------------------------------------------------


async def test_a_graph_an_agent_is_still_writing_never_misses_what_may_follow(client, tmp_path):
    """The file arrives ten lines at a time (an agent writing it, a paste cut short): no "missing required"
    while the text ends inside the document, and the dangling edge is shown once it is complete."""
    uri = (tmp_path / "agent.grooph.json").as_uri()
    lines = FIRST_EDGE_FAULT.splitlines(keepends=True)
    open_text(client, uri, "".join(lines[:10]))
    version = 1
    for n in range(10, len(lines), 10):
        text = "".join(lines[:n])
        if version > 1:
            change_text(client, uri, version, text)
        want = [(i.code, i.message) for i in analyze(text, name="agent.grooph.json").issues]
        diags = await _settle(client, uri, lambda ds: [(str(d.code), d.message) for d in ds] == want)
        assert not [d for d in diags if "missing required" in d.message], (n, _shown(client, uri))
        complete_edge = text.find('"to": "testz"\n    }') >= 0
        assert [d.code for d in diags if d.code != "E_SYNTAX"] == (["E_DANGLING_REF"] if complete_edge else []), n
        version += 1


async def test_a_workflow_with_a_dedented_status_still_shows_its_fault_elsewhere(client, tmp_path):
    uri = (tmp_path / "board.workflow.yaml").as_uri()
    open_text(client, uri, WORKFLOW, language_id="yaml")
    diags = await diagnostics_for(client, uri)
    assert [d.code for d in diags] == ["E_WF_UNKNOWN_STATUS"]
    version = 1
    for slip in ("a status key dedented by a column", "a tab indenting a status key", "an open flow mapping"):
        version += 1
        change_text(client, uri, version, WORKFLOW.replace(*YAML_SLIPS[slip], 1))
        diags = await _settle(client, uri, lambda ds: any(d.code == "E_SYNTAX" for d in ds))
        assert [d.code for d in diags] == ["E_SYNTAX", "E_WF_UNKNOWN_STATUS"], (slip, _shown(client, uri))
        assert "no status redy" in diags[1].message
        version += 1
        change_text(client, uri, version, WORKFLOW)
        await _settle(client, uri, lambda ds: [d.code for d in ds] == ["E_WF_UNKNOWN_STATUS"])


async def test_a_workflow_cut_after_its_statuses_is_calm(client, tmp_path):
    uri = (tmp_path / "cut.workflow.yaml").as_uri()
    open_text(client, uri, WORKFLOW_CUTS["after its statuses"](), language_id="yaml")
    assert list(await diagnostics_for(client, uri)) == []
    whole = WORKFLOW_TEXT.replace("initial:\n  - target: ready\n", "", 1)  # finished, without its initial
    change_text(client, uri, 2, whole)
    diags = await _settle(client, uri, lambda ds: bool(ds))
    assert [(d.code, d.message) for d in diags] == [("E_WF_SCHEMA", 'Workflow is missing the required field "initial"')]
