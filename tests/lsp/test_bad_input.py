"""docs/bad-input.md is true: each row's example through `grooph validate` and through the server.

For every row of the table: the command line's exit status, codes and quoted messages are the ones the
row states; the server publishes exactly the codes the row states (or nothing, when it says "not
served"); formatting is refused or done as the row says.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from grooph_core.cli import main as grooph
from grooph_core.source.load import MAX_FILE_BYTES
from tests.conftest import ROOT
from tests.lsp.stdio_client import StdioServer, editor_capabilities

TABLE = ROOT / "docs" / "bad-input.md"
G = '{"grooph": 0, "id": "g", "name": "G", "version": 1, "nodes": [], "edges": [], "loops": []%s}'
B = '{"slug": "b", "root": "/b", "tasks": {"t": {"id": "t", "title": "T", "lane": "todo", "workspace": {"kind": "dir"}, "b\\ud800ody": "x"}}}'
CODE = re.compile(r"\b[EW]_[A-Z_]+\b")

# Row name -> (file name, the file's bytes for the command line, the editor's text for the server).
# None for the bytes: a file over the size limit, made sparse.
EXAMPLES: dict[str, tuple[str, bytes | None, str]] = {
    "Empty": ("e.grooph.json", b"  \n", ""),
    "Not JSON": ("n.grooph.json", b'{"grooph": 0, "id": "g",, "name": "G"}', '{"grooph": 0, "id": "g",, "name": "G"}'),
    "Cut off": ("c.grooph.json", b'{"grooph": 0, "id": "g", "name": "G", "version": 1, "nodes": [',
                '{"grooph": 0, "id": "g", "name": "G", "version": 1, "nodes": ['),
    "Byte-order mark": ("b.grooph.json", b"\xef\xbb\xbf" + (G % "").encode(), "\ufeff" + G % ""),
    "Comments, trailing comma, single quotes": ("k.grooph.json", (G % " // note\n").encode(), G % " // note\n"),
    "NaN, Infinity": ("nan.grooph.json", (G % ', "x": NaN').encode(), G % ', "x": NaN'),
    "Two values, trailing text": ("t.grooph.json", (G % "" + " {}").encode(), G % "" + " {}"),
    "Duplicate key": ("d.grooph.json", (G % ', "name": "H"').encode(), G % ', "name": "H"'),
    "Number a double cannot hold": ("h.grooph.json", G.replace('"version": 1', '"version": 12345678901234567890').encode() % b"",
                                    G.replace('"version": 1', '"version": 12345678901234567890') % ""),
    "Control character in a string": ("cc.grooph.json", (G % ', "x": "a\x00b"').encode(), G % ', "x": "a\x00b"'),
    "NUL outside a string": ("z.grooph.json", (G % "\x00").encode(), G % "\x00"),
    "Escaped NUL, lone surrogate": ("s.grooph.json", (G % ', "x": "a\\u0000\\ud800"').encode(), G % ', "x": "a\\u0000\\ud800"'),
    "Lone surrogate (the rule for every kind)": ("s.board.json", B.encode(), B),
    "Invalid escape": ("i.grooph.json", (G % ', "x": "\\x41"').encode(), G % ', "x": "\\x41"'),
    "Not UTF-8": ("u.grooph.json", (G % ', "x": "caf\xe9"').encode("latin-1"), G % ', "x": "caf\ufffd"'),
    "Too large": ("l.grooph.json", None, G % (', "x": "' + "x" * 5_000_000 + '"')),
    "Too deep": ("p.grooph.json", (G % (', "x": ' + "[" * 600 + "]" * 600)).encode(), G % (', "x": ' + "[" * 100 + "]" * 100)),
    "Root not an object": ("r.grooph.json", b"[]", "[]"),
    "Unknown kind of document": ("plain.json", b'{"a": 1}', '{"a": 1}'),
    "Unknown node kind": ("k2.grooph.json", G.replace('"nodes": []', '"nodes": [{"id": "r", "kind": "robot", "name": "R"}]').encode() % b"",
                          G.replace('"nodes": []', '"nodes": [{"id": "r", "kind": "robot", "name": "R"}]') % ""),
    "Another format version": ("v.grooph.json", G.replace('"grooph": 0', '"grooph": 1').encode() % b"",
                               G.replace('"grooph": 0', '"grooph": 1') % ""),
    "Unknown key": ("x.grooph.json", (G % ', "colour": "red"').encode(), G % ', "colour": "red"'),
}


def table_rows() -> list[tuple[str, str, str]]:
    """(bad input, command line cell, server cell) of each row of the doc's table."""
    rows = []
    for line in TABLE.read_text("utf-8").splitlines():
        if not line.startswith("| ") or line.startswith("| Bad input") or line.startswith("|---"):
            continue
        cells = [c.strip() for c in re.split(r"(?<!\\)\|", line)[1:-1]]
        rows.append((cells[0], cells[2].replace("\\|", "|"), cells[3]))
    return rows


ROWS = table_rows()


def test_every_row_has_an_example():
    assert [r[0] for r in ROWS] == list(EXAMPLES)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    folder = tmp_path_factory.mktemp("server")
    s = StdioServer(folder, log_file=folder / "server.log", stderr_file=folder / "server.stderr",
                    env={"XDG_CACHE_HOME": str(folder / "cache")})
    s.initialize(editor_capabilities(), {"grooph": {"debounceMs": 0}})
    yield s
    assert s.shutdown() == 0
    assert "Traceback" not in (folder / "server.log").read_text("utf-8")


@pytest.mark.parametrize("name, cli_cell, server_cell", ROWS, ids=[r[0] for r in ROWS])
def test_the_row_holds(name, cli_cell, server_cell, tmp_path, capsys, server):
    file_name, data, text = EXAMPLES[name]
    path = tmp_path / file_name
    if data is None:
        with open(path, "wb") as f:
            f.truncate(MAX_FILE_BYTES + 1)
    else:
        path.write_bytes(data)

    # the command line
    status = grooph(["validate", str(path)])
    out = capsys.readouterr()
    said = out.out + out.err
    assert "Traceback" not in said
    assert f"exit {status}" in cli_cell, said
    assert set(CODE.findall(said)) == set(CODE.findall(cli_cell)), said
    for quoted in re.findall(r"`(/[^`]*)`", cli_cell):
        for part in quoted.split("…"):
            assert part.strip() in said, (part, said)

    # the server
    uri = path.as_uri()
    language = "json" if file_name == "plain.json" else "grooph"
    server.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": language, "version": 1, "text": text}})

    def published():
        return [n for n in server.notifications if n.message.get("method") == "textDocument/publishDiagnostics"
                and n.message["params"]["uri"] == uri]
    if "not served" in server_cell:
        with pytest.raises(AssertionError):
            server.wait_until(published, 2, "diagnostics of a document the server does not serve")
        codes: set[str] = set()
    else:
        codes = {d["code"] for d in server.wait_until(published, 60, name)[-1].message["params"]["diagnostics"]}
    expected = set(CODE.findall(server_cell))
    if "The same" in server_cell or "the same" in server_cell.split(";")[0]:
        expected |= set(CODE.findall(cli_cell))
    assert codes == expected, (codes, server_cell)
    answer = server.request("textDocument/formatting", {"textDocument": {"uri": uri}, "options": {"tabSize": 2, "insertSpaces": True}})
    if "formatting" in server_cell and "refused" in server_cell or "not served" in server_cell:
        assert answer["result"] is None, answer
    if "formatted" in server_cell:
        assert answer["result"], answer
    server.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
