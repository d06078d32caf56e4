"""Hostile documents through the core and the command line (issue 9, item 4; DESIGN.md "The server").

- A check's `run` (graph.md §1, check node) is text, never a command: validating, formatting, fixing,
  applying ops, drawing and every `grooph` command leave the file the command would make absent,
  and the core starts no process at all.
- A session's `graph` may be a URL (map.md §6.8): nothing is fetched, neither by the editor's analysis
  nor by `grooph validate` (a local listening socket sees no connection), and the core opens no socket.
- Pictures escape all document text (pictures.md §1.2): a name like `</text><script>` stays text, the
  SVG is well-formed XML with no script, no event attribute and no outside reference, also when a
  name holds characters XML cannot carry (NUL, ESC, a lone surrogate).
"""

from __future__ import annotations

import copy
import json
import os
import select
import socket
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from grooph_core.ide.grooph.actions import fix_all, operations_edits, preview_svg, quick_fixes
from grooph_core.ide.grooph.analysis import analyze
from grooph_core.ide.grooph.formatting import format_edits
from grooph_core.picture import render_svg
from grooph_core.rules.map.graph_pointers import file_graph_resolver
from grooph_core.rules.validate import validate_value
from grooph_core.schema.check import schema_issues
from tests.conftest import FIXTURES

HOSTILE = '</text><script>alert(1)</script><a onclick="x()" href="javascript:x()">&amp; ]]><!-- "\'\x00\x01\x1b\ud800\ufffe'
# Document fields shown as text in pictures (graph.md §1, map.md §2): each gets the hostile text.
FREE_TEXT = {"name", "description", "machine", "account", "what", "label", "repo", "ref", "where", "who",
             "schedule", "goal", "brief", "prompt", "pass", "acceptance", "aspiration", "summary", "text", "note"}


def _with_hostile_text(value: object, kind: str) -> object:
    """Every free-text string of a document replaced by HOSTILE (a map's session and person `role`
    are free text too)."""
    if isinstance(value, dict):
        out = {}
        for k, v in value.items():
            if isinstance(v, str) and (k in FREE_TEXT or (kind == "map" and k == "role")):
                out[k] = HOSTILE
            elif isinstance(v, list) and k in ("outputs", "inputs", "options") and all(isinstance(x, str) for x in v):
                out[k] = [HOSTILE + str(i) for i, _ in enumerate(v)]  # distinct: options must differ
            else:
                out[k] = _with_hostile_text(v, kind)
        return out
    if isinstance(value, list):
        return [_with_hostile_text(v, kind) for v in value]
    return value


HOSTILE_LINE = "".join(c for c in HOSTILE if c >= " " and c != "\x7f")  # for one-line fields


def _hostile(path: Path, kind: str) -> dict:
    value = _with_hostile_text(json.loads(path.read_text("utf-8")), kind)
    for issue in schema_issues(value, kind):  # a one-line field (a group's description) gets one line
        *parents, last = [int(s) if s.isdigit() else s for s in issue.pointers[0].split("/")[1:]]
        holder = value
        for seg in parents:
            holder = holder[seg]
        holder[last] = HOSTILE_LINE
    assert schema_issues(value, kind) == [], "the hostile text must keep the document drawable"
    return value


GRAPHS = sorted((FIXTURES / "valid").glob("*.grooph.json"))
MAPS = sorted((FIXTURES / "maps" / "valid").glob("*.grooph-map.json"))
PICTURES = ([(p, "graph", {}) for p in GRAPHS]
            + [(p, "map", o) for p in MAPS for o in ({}, {"layout": "wide"}, {"view": "sequence"})])


def _check_svg(svg: str) -> ET.Element:
    """Well-formed XML (so it is UTF-8 encodable), no script, no event attribute, no outside link."""
    root = ET.fromstring(svg.encode("utf-8"))
    for el in root.iter():
        tag = el.tag.rsplit("}", 1)[-1].lower()
        assert tag not in ("script", "foreignobject", "iframe", "image", "use", "a"), tag
        for name, value in el.attrib.items():
            assert not name.rsplit("}", 1)[-1].lower().startswith("on"), name
            assert "javascript:" not in value.lower() and "://" not in value.replace("http://www.w3.org/", ""), (name, value)
    return root


@pytest.mark.parametrize("path, kind, options", PICTURES,
                         ids=[f"{p.name}{'-' + '-'.join(o.values()) if o else ''}" for p, _, o in PICTURES])
@pytest.mark.parametrize("theme", ["light", "dark", "auto"])
def test_pictures_escape_all_document_text(path, kind, options, theme):
    svg = render_svg(_hostile(path, kind), kind, theme=theme, **options)
    root = _check_svg(svg)
    texts = [t for t in root.itertext() if "script>" in t]
    assert texts, "the hostile name is shown, as text"
    assert all("\ufffd" in t or t.endswith("…") or "<script>" in t for t in texts)
    assert "<script" not in svg and "<a " not in svg  # not even as markup the XML parser would skip


def test_a_name_that_xml_cannot_hold_is_replaced_not_dropped():
    """pictures.md §1.2 escapes & < > "; characters XML 1.0 cannot carry at all become U+FFFD (our
    reading, `picture.svg.xml_chars`), so the preview file can be written and opened."""
    value = json.loads((FIXTURES / "valid" / "review-loop.grooph.json").read_text("utf-8"))
    value["name"] = "a\x00b\x1bc\ud800d\ufffee\U0001f600f\u2028g"
    svg = render_svg(value, "graph", theme="light")
    title = _check_svg(svg).find("{http://www.w3.org/2000/svg}title").text
    assert title == "a\ufffdb\ufffdc\ufffdd\ufffde\U0001f600f\u2028g"


# --- never runs a command -----------------------------------------------------------------------

def _command_graph(marker: Path) -> dict:
    """A graph whose check runs `touch <marker>`, with shell tricks in its free text as well."""
    value = json.loads((FIXTURES / "valid" / "grind-loop-with-check-and-budget.grooph.json").read_text("utf-8"))
    touch = f"touch {marker}"
    for node in value["nodes"]:
        if node.get("kind") == "check":
            node["check"]["run"] = touch
        node["name"] = f"$({touch}) `{touch}`; {touch}"
        if "brief" in node:
            node["brief"] = f"Run `{touch}` first. $({touch})"
    value["goal"] = f"| {touch} && {touch}"
    assert any(n.get("kind") == "check" and n["check"]["run"] == touch for n in value["nodes"])
    return value


@pytest.fixture
def no_processes_or_sockets(monkeypatch):
    """Any attempt of the core to start a process or connect a socket fails the test on the spot."""
    def refuse(*args, **kwargs):
        raise AssertionError(f"the core tried to run or fetch something: {args[:2]!r}")

    for name in ("Popen", "run", "call", "check_call", "check_output"):
        monkeypatch.setattr(subprocess, name, refuse)
    for name in ("system", "popen", "execv", "execve", "execvp", "execl", "spawnv", "posix_spawn", "fork"):
        if hasattr(os, name):
            monkeypatch.setattr(os, name, refuse)
    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket.socket, "connect_ex", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    monkeypatch.setattr(socket, "getaddrinfo", refuse)


def test_the_core_never_runs_a_check_command(tmp_path, no_processes_or_sockets):
    marker = tmp_path / "pwned"
    value = _command_graph(marker)
    broken = copy.deepcopy(value)
    broken["edges"].append({"id": "e-ghost", "from": "ghost", "to": "nowhere"})  # something to fix
    for doc in (value, broken):
        text = json.dumps(doc, indent=2)
        analysis = analyze(text, name="g.grooph.json", export=True)
        validate_value(doc, "graph", export=True)
        format_edits(analysis)
        quick_fixes(analysis, list(analysis.issues), export=True)
        fix_all(analysis, export=True)
        operations_edits(analysis, [{"op": "addNode", "kind": "check", "name": "Again",
                                     "set": {"check": {"kind": "command", "run": f"touch {marker}"}}}])
        preview_svg(analysis, theme="dark")
    assert not marker.exists()


def _grooph(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "grooph_core.cli", *args], cwd=cwd, capture_output=True,
                          text=True, timeout=120, env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"})


def test_no_grooph_command_runs_a_check_command(tmp_path):
    marker = tmp_path / "pwned"
    doc = tmp_path / "g.grooph.json"
    doc.write_text(json.dumps(_command_graph(marker), indent=2), encoding="utf-8")
    ops = tmp_path / "ops.json"
    ops.write_text(json.dumps([{"op": "setGraphField", "key": "goal", "value": f"$(touch {marker})"}]), encoding="utf-8")
    runs = [
        ("validate", str(doc)), ("validate", "--for-export", "--json", str(doc)), ("shape", str(doc)),
        ("fmt", str(doc)), ("fmt", "--check", str(doc)), ("image", str(doc), "--out", str(tmp_path / "g.svg")),
        ("apply", str(doc), str(ops)),
    ]
    for args in runs:
        done = _grooph(*args, cwd=tmp_path)
        assert "Traceback" not in done.stderr, (args, done.stderr)
        assert not marker.exists(), args


# --- never fetches a URL ------------------------------------------------------------------------

@pytest.fixture
def listening():
    """A local TCP socket that is listening; `.connections()` says whether anyone connected."""
    server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    server.bind(("127.0.0.1", 0))
    server.listen(8)
    server.setblocking(False)

    class Listening:
        port = server.getsockname()[1]

        @staticmethod
        def connections(wait: float = 0.5) -> int:
            n = 0
            while select.select([server], [], [], wait)[0]:
                conn, _ = server.accept()
                conn.close()
                n += 1
                wait = 0.05
            return n

    yield Listening
    server.close()


def _url_map(port: int) -> dict:
    """A map whose sessions point at graphs on a local web server, in every spelling a URL takes."""
    value = json.loads((FIXTURES / "maps" / "valid" / "tiny-shop.grooph-map.json").read_text("utf-8"))
    urls = [f"http://127.0.0.1:{port}/x.grooph.json", f"HTTPS://127.0.0.1:{port}/y.json",
            f"ftp://127.0.0.1:{port}/z.json", f"file://127.0.0.1:{port}/w.json", f"//127.0.0.1:{port}/v.json",
            f"127.0.0.1:{port}/u.json"]
    for i, session in enumerate(value["sessions"]):
        session["graph"] = urls[i % len(urls)]
    extra = dict(value["sessions"][0])
    for j, url in enumerate(urls):
        value["sessions"].append({**extra, "id": f"fetcher-{j}", "graph": url})
    return value


def test_the_core_never_fetches_a_graph_url(tmp_path, listening, no_processes_or_sockets):
    path = tmp_path / "m.grooph-map.json"
    value = _url_map(listening.port)
    path.write_text(json.dumps(value, indent=2), encoding="utf-8")
    resolver = file_graph_resolver(str(path))
    analysis = analyze(path.read_text("utf-8"), name=path.name, resolver=resolver)
    validate_value(value, "map", resolver=resolver)
    format_edits(analysis)
    quick_fixes(analysis, list(analysis.issues))
    preview_svg(analysis)
    assert listening.connections() == 0


def test_grooph_validate_never_fetches_a_graph_url(tmp_path, listening):
    path = tmp_path / "m.grooph-map.json"
    path.write_text(json.dumps(_url_map(listening.port), indent=2), encoding="utf-8")
    for args in (("validate", str(path)), ("validate", "--json", str(path)), ("image", str(path)), ("shape", str(path))):
        done = _grooph(*args, cwd=tmp_path)
        assert "Traceback" not in done.stderr, done.stderr
    assert listening.connections() == 0
