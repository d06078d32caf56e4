"""No output path ever fails on any text (issue 30, "what to build" 1; docs/bad-input.md "Lone surrogate").

Any Unicode text, lone surrogates included, in any key or value of a document of any of the five kinds,
written escaped (`"\\ud800"`, all a file can hold) or raw (an editor's text can hold a lone surrogate: the
protocol's JSON carries it as `\\ud800`), goes through every output: the command line's text listing,
`--json`, `--format github`, SARIF, `fmt` and `shape` (in-process, on a UTF-8 stream that, like a real
one, cannot encode a lone surrogate; and a few cases through a real process), and the server's publish,
hover, completion, quick fixes, fix-all and formatting (the core functions the shell calls and the
shell's converters, serialized as the protocol writes them). Each gives a report, never an exception.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import tempfile
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lsprotocol import types as lsp
from pygls.protocol import default_converter

from grooph_core.cli import main
from grooph_core.ide.kinds import analyse
from grooph_lsp import convert
from tests.conftest import FIXTURES

BASES = {
    "plan.grooph.json": FIXTURES / "valid" / "plan-with-gate-before-publish.grooph.json",
    "shop.grooph-map.json": FIXTURES / "maps" / "valid" / "tiny-shop.grooph-map.json",
    "spec.workflow.yaml": FIXTURES / "workflow" / "valid" / "spec-example.workflow.yaml",
    "checkout.board.json": FIXTURES / "board" / "valid" / "checkout.board.json",
    "busy.episodes.json": FIXTURES / "episodes" / "valid" / "busy-store.episodes.json",
}
TEXTS = {name: path.read_text("utf-8") for name, path in BASES.items()}

# Any character, surrogates (Cs) drawn as often as the rest, and the halves of a pair side by side.
CHARS = st.characters(categories=["Cs", "Lu", "Ll", "Lo", "Nd", "Zs", "Po", "Ps", "So", "Cc", "Cf", "Mn", "Sm"])
ANY_TEXT = st.one_of(st.text(CHARS, min_size=1, max_size=6),
                     st.sampled_from(["\ud800", "\udc00", "\ud83d", "b\ud800ody", "ti\ud83dtle", "\ud83d\ude00"]))
CAPABILITIES = lsp.ClientCapabilities(text_document=lsp.TextDocumentClientCapabilities(
    hover=lsp.HoverClientCapabilities(content_format=[lsp.MarkupKind.Markdown]),
    completion=lsp.CompletionClientCapabilities(completion_item=lsp.ClientCompletionItemOptions(
        snippet_support=True, documentation_format=[lsp.MarkupKind.Markdown]))))
WIRE = default_converter()


def _escaped(s: str) -> str:
    """`s` inside a JSON (or YAML double-quoted) string, every character beyond ASCII an escape."""
    return json.dumps(s)[1:-1]


@st.composite
def documents(draw) -> tuple[str, str, bool]:
    """(file name, text, raw): a fixture with drawn text put into one of its keys or string values (or a
    new key), written escaped, or raw (an editor's text only)."""
    name = draw(st.sampled_from(sorted(TEXTS)))
    text = TEXTS[name]
    raw = draw(st.booleans())
    s = draw(ANY_TEXT)
    put = s if raw else _escaped(s)
    yaml = name.endswith(".yaml")
    quote = "" if yaml and raw else '"'
    # the places: a key (its quotes' inside) or a string value of the fixture, or a new key on line 2
    places = [i for i in range(len(text)) if text[i] in '"' + (":" if yaml else "")]
    where = draw(st.sampled_from(["key-or-value", "new-key"]))
    if where == "new-key" or not places:
        line = text.index("\n") + 1
        new = f'  "{put}": 1\n' if not yaml else f'"{put}": 1\n'
        text = text[:line] + (new if yaml else f'  "{put}": 1,\n') + text[line:]
    else:
        i = draw(st.sampled_from(places))
        if text[i] == '"':
            text = text[: i + 1] + put + text[i + 1:]
        else:  # YAML: a key's text gets the drawn text before its colon, quoted when escaped
            start = text.rfind("\n", 0, i) + 1
            indent = len(text[start:i]) - len(text[start:i].lstrip(" -"))
            key = text[start + indent: i]
            text = text[: start + indent] + f"{quote}{key}{put}{quote}" + text[i:]
    return name, text, raw


def _serialized(obj) -> str:
    """What the server writes: pygls's converter and `json.dumps` (its default, ASCII escapes)."""
    return json.dumps(WIRE.unstructure(obj))


def _editor(name: str, text: str) -> None:
    """Every editor output the shell builds from the core, made and serialized."""
    uri = f"file:///tmp/{name}"
    a = analyse(text, name=name)
    kind = a.document_kind
    lines = a.line_index
    diags = [convert.to_lsp_diagnostic(a, issue, uri, "utf-16", n) for n, issue in enumerate(a.issues)]
    json.loads(convert.publish_json(convert.publish(uri, diags, 1)))
    _serialized(convert.document_report(diags))
    for offset in sorted({0, len(text) // 3, len(text) // 2, len(text) - 1, *(a.span(i)[0] for i in a.issues[:4])}):
        h = kind.hover(a, offset)
        if h is not None:
            _serialized(convert.to_lsp_hover(h.markdown, h.span, lines, "utf-16", CAPABILITIES))
        found = kind.complete(a, offset)
        if found is not None:
            _serialized(convert.to_lsp_completions(found, offset, lines, "utf-16", CAPABILITIES))
    for fix in kind.quick_fixes(a, list(a.issues)):
        edit = convert.versioned_edit(uri, 1, lines, fix.edits, "utf-16")
        _serialized(convert.code_action(fix.title, lsp.CodeActionKind.QuickFix, diagnostic=diags[0] if diags else None,
                                        edit=edit))
    for offer in kind.fix_offers(a, list(a.issues)):
        kind.resolve_offer(a, offer.issue, offer.title)
    fix = kind.fix_all(a)
    if fix is not None:
        _serialized(convert.versioned_edit(uri, 1, lines, fix.edits, "utf-16"))
    formatted = kind.format(a)
    if isinstance(formatted, list):
        _serialized(convert.to_lsp_edits(lines, formatted, "utf-16"))
    outline = kind.outline(a)
    assert outline is None or isinstance(outline, list)


COMMANDS = (["validate"], ["validate", "--json"], ["validate", "--format", "github"], ["validate", "--format", "sarif"],
            ["fmt"], ["shape"])


def _command_line(path: Path) -> dict[str, tuple[int, str, str]]:
    """Each command on the file, in-process, its output on UTF-8 streams (strict, as a terminal's or a pipe's
    are): (exit code, stdout, stderr) by command."""
    out = {}
    for args in COMMANDS:
        stdout = io.TextIOWrapper(io.BytesIO(), encoding="utf-8", newline="")
        stderr = io.TextIOWrapper(io.BytesIO(), encoding="utf-8", newline="")
        with redirect_stdout(stdout), redirect_stderr(stderr):
            code = main([*args, str(path)])
        stdout.flush(), stderr.flush()
        out[" ".join(args)] = (code, stdout.buffer.getvalue().decode("utf-8"), stderr.buffer.getvalue().decode("utf-8"))
    return out


def _assert_reports(outputs: dict[str, tuple[int, str, str]]) -> None:
    for command, (code, stdout, stderr) in outputs.items():
        assert code in (0, 1) and "unexpected failure" not in stderr, f"grooph {command}: {stderr}"
        if "--json" in command or "sarif" in command:
            json.loads(stdout)  # one JSON value, a lone surrogate written as its escape
        elif command.startswith("validate"):
            assert stdout or stderr, f"grooph {command} said nothing"


@settings(max_examples=120, deadline=None, derandomize=bool(os.environ.get("CI")),
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(documents())
def test_any_text_in_any_key_or_value_gives_a_report_through_every_output(doc):
    name, text, raw = doc
    _editor(name, text)
    if raw:  # no UTF-8 file holds a lone surrogate; the editor's text does
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:
            return
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / name
        path.write_text(text, "utf-8")
        _assert_reports(_command_line(path))


# The cases of issue 30, through a real process (its own stdout and stderr, UTF-8 and strict).
BOARD = TEXTS["checkout.board.json"]
PROCESS_CASES = {
    "map key": BOARD.replace('"t-4": {', '"\\udc00": {', 1),
    "field key": BOARD.replace('"body": "After', '"b\\ud800ody": "After', 1),
    "required key": BOARD.replace('"title": "Old spike"', '"ti\\ud83dtle": "Old spike"', 1),
    "graph value": TEXTS["plan.grooph.json"].replace('"name": "', '"name": "\\udfff', 1),
}


@pytest.mark.parametrize("case", sorted(PROCESS_CASES))
def test_a_lone_surrogate_gives_a_report_from_the_real_command(case, tmp_path):
    name = "plan.grooph.json" if case.startswith("graph") else "x.board.json"
    (tmp_path / name).write_text(PROCESS_CASES[case], "utf-8")
    (tmp_path / "ok.board.json").write_text(BOARD, "utf-8")
    for args in COMMANDS[:4]:
        done = subprocess.run([sys.executable, "-m", "grooph_core", *args, str(tmp_path / name), str(tmp_path / "ok.board.json")],
                              capture_output=True, timeout=120, stdin=subprocess.DEVNULL)
        stdout, stderr = done.stdout.decode("utf-8"), done.stderr.decode("utf-8")
        assert done.returncode in (0, 1) and "unexpected failure" not in stderr, f"{args}: {stderr}"
        if "--json" in args:
            reports = json.loads(stdout)
            assert [r["file"] for r in reports] == [str(tmp_path / name), str(tmp_path / "ok.board.json")]
            first = reports[0]
            if case != "graph value":  # serde_json refuses the escape: E_SYNTAX at it, alone (strict)
                assert [i["code"] for i in first["issues"]] == ["E_SYNTAX"], first
                assert "\\u" in json.dumps(first["issues"][0]["message"])
            else:  # a graph reads it as JSON.parse does: valid
                assert first["ok"] is True, first
