"""Published diagnostics are written to JSON by the shell itself (convert.publish_json,
GroophProtocol.notify_json; issue 24), not by pygls's converter: the bytes on the wire must stay the
ones the converter wrote (the same fields, values, order and framing), for every kind of diagnostic."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from lsprotocol import types as lsp
from pygls.protocol import default_converter

from grooph_lsp import convert
from grooph_lsp.documents import analyse_text
from grooph_lsp.server import create_server
from tests.conftest import FIXTURES
from tests.lsp.conftest import diagnostics_for, open_text
from tests.lsp.stdio_client import StdioServer, editor_capabilities

GRAPH = FIXTURES / "invalid" / "E_DANGLING_REF" / "misspelled-node.grooph.json"
WORKFLOW = FIXTURES / "workflow" / "invalid" / "W_DUPLICATE_KEY" / "duplicated-status.workflow.yaml"


def _range(a: int, b: int, c: int, d: int) -> lsp.Range:
    return lsp.Range(start=lsp.Position(line=a, character=b), end=lsp.Position(line=c, character=d))


# Every field a Diagnostic has, set and unset; text that JSON must escape; an int code.
DIAGNOSTICS = [
    lsp.Diagnostic(
        range=_range(1, 2, 3, 4), message='say "hi" \\ é 🚀\n\u2028\x00', severity=lsp.DiagnosticSeverity.Warning,
        code="W_X", code_description=lsp.CodeDescription(href="file:///docs/codes.md#w_x"), source="grooph",
        tags=[lsp.DiagnosticTag.Unnecessary, lsp.DiagnosticTag.Deprecated],
        related_information=[
            lsp.DiagnosticRelatedInformation(location=lsp.Location(uri="file:///a%20b/ü.json", range=_range(0, 0, 0, 1)),
                                             message="first copy"),
            lsp.DiagnosticRelatedInformation(location=lsp.Location(uri="file:///c", range=_range(5, 6, 7, 8)), message=""),
        ],
        data={"index": 3, "code": "W_X", "at": ["n1", "é"], "pointers": ["/nodes/0"], "none": None, "f": 1.5, "t": True},
    ),
    lsp.Diagnostic(range=_range(0, 0, 0, 0), message=""),
    lsp.Diagnostic(range=_range(9, 0, 9, 3), message="m", severity=lsp.DiagnosticSeverity.Error, code=17,
                   tags=[], related_information=[], data={}),
    lsp.Diagnostic(range=_range(2, 1, 2, 2), message="m", severity=lsp.DiagnosticSeverity.Hint, source="other", data=[1, "x"]),
]


class _Writer:
    def __init__(self) -> None:
        self.frames: list[bytes] = []

    def write(self, data: bytes) -> None:
        self.frames.append(data)

    def close(self) -> None:
        pass


@pytest.mark.parametrize("version", [None, 0, 7])
@pytest.mark.parametrize("count", [0, 1, len(DIAGNOSTICS)])
def test_the_params_are_the_converters_json(version, count):
    params = convert.publish("file:///tmp/é x.grooph.json", DIAGNOSTICS[:count], version)
    assert convert.publish_json(params) == json.dumps(default_converter().unstructure(params))


def test_the_frame_is_the_one_pygls_writes():
    """The whole message, header included, byte for byte as `notify` frames it."""
    params = convert.publish("file:///tmp/g.grooph.json", DIAGNOSTICS, 4)
    ours, theirs = create_server(), create_server()
    ours.protocol.set_writer(w_ours := _Writer())
    theirs.protocol.set_writer(w_theirs := _Writer())
    ours.publish_diagnostics(params)
    theirs.text_document_publish_diagnostics(params)
    assert w_ours.frames == w_theirs.frames and len(w_ours.frames) == 1


def test_published_wire_form_through_the_server(tmp_path: Path):
    """Over stdio: each publish's params are what the converter makes of the lsprotocol objects they
    read back as (a graph with a dangling reference, a workflow with a key written twice: related
    information), with the version, for a name that must be escaped in a URI."""
    s = StdioServer(tmp_path, log_file=tmp_path / "server.log", stderr_file=tmp_path / "server.stderr",
                    env={"XDG_CACHE_HOME": str(tmp_path / "cache")})
    try:
        s.initialize(editor_capabilities(), {"grooph": {"debounceMs": 0}})
        uris = {}
        for n, src in enumerate((GRAPH, WORKFLOW)):
            uri = (tmp_path / f"é {n}.{src.name.split('.', 1)[1]}").as_uri()
            uris[uri] = src
            s.notify("textDocument/didOpen", {"textDocument": {
                "uri": uri, "languageId": "json", "version": 5, "text": src.read_text("utf-8")}})

        def published():
            got = {n.message["params"]["uri"]: n.message for n in s.notifications
                   if n.message.get("method") == "textDocument/publishDiagnostics"}
            return got if set(got) == set(uris) else None

        messages = s.wait_until(published, 30, "the diagnostics of both documents")
    finally:
        assert s.shutdown() == 0
    converter = default_converter()
    for uri, message in messages.items():
        params = message["params"]
        assert params["version"] == 5 and params["diagnostics"]
        assert message["jsonrpc"] == "2.0"
        again = converter.unstructure(converter.structure(params, lsp.PublishDiagnosticsParams))
        assert again == params
    workflow = next(m["params"] for u, m in messages.items() if uris[u] == WORKFLOW)
    duplicate = next(d for d in workflow["diagnostics"] if d["code"] == "W_DUPLICATE_KEY")
    assert duplicate["relatedInformation"][0]["location"]["uri"] == next(u for u in uris if uris[u] == WORKFLOW)
    assert "Traceback" not in (tmp_path / "server.log").read_text("utf-8")


async def test_a_pushed_diagnostic_reads_back_as_the_server_built_it(client, tmp_path):
    """pytest-lsp's client reads the hand-written JSON back into exactly the lsprotocol diagnostics
    `convert.to_lsp_diagnostic` builds for the same text."""
    for src in (GRAPH, WORKFLOW):
        text = src.read_text("utf-8")
        uri = (tmp_path / src.name).as_uri()
        open_text(client, uri, text, language_id="yaml" if src.suffix == ".yaml" else "json")
        got = await diagnostics_for(client, uri)
        a = analyse_text(uri, src.name, text, export=False, max_chars=10**9)
        built = [convert.to_lsp_diagnostic(a, issue, uri, "utf-16", n) for n, issue in enumerate(a.issues)]
        unstructure = default_converter().unstructure  # the client reads lists as tuples: compare their JSON
        assert [unstructure(d) for d in got] == [unstructure(d) for d in built]
        assert any(d.related_information for d in got) == (src == WORKFLOW)
