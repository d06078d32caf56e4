"""The VS Code extension in a real VS Code, as a user runs it (issue 12, item 2).

code-server 4.100.3 (VS Code 1.100.3) runs on this machine; Debian's Chromium shows its workbench and
playwright-core (tests/editors/vscode_e2e/driver.mjs) types and reads the screen. The extension is
the packaged .vsix, built from this checkout (`npm run package -- --offline`: the server and its
libraries bundled inside), installed with `code-server --install-extension`, and the server is the
one it bundles, started with the machine's own python3: no grooph-lsp on PATH, nothing installed.
One code-server and one workbench page serve the whole session (each page load starts an extension
host and a server that live until code-server stops). Every assertion is on what a person sees
(the Problems panel, squiggles, menus, hovers, the preview) or on the file saved on disk.

GROOPH_E2E_TRACE=1 logs the protocol messages in the extension's output channel (server_log); a
failed test leaves a screenshot, FAILED-<test>.png, in the session's temp folder.

The installs come from .ci/setup-vscode-e2e. Without them the tests are skipped, saying what is
missing, except in CI (CI=true), where a missing install fails them.
"""

from __future__ import annotations

import base64
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
import zipfile
from dataclasses import dataclass
from pathlib import Path

import pytest

from grooph_core.model import field_info
from tests.conftest import FIXTURES, ROOT, sidecar

E2E = Path(__file__).with_name("vscode_e2e")
EXTENSION = ROOT / "editors" / "vscode"
CODE_SERVER = E2E / "node_modules" / ".bin" / "code-server"
DRIVER = E2E / "driver.mjs"
CHROMIUM = os.environ.get("GROOPH_E2E_CHROMIUM", "/usr/bin/chromium")
# The screenshots go to the session's temp folder; GROOPH_E2E_PICTURES=1 writes them to docs/pictures
# (vscode-quick-fix.png, vscode-preview.png), as README shows them.
PICTURES = ROOT / "docs" / "pictures"
GROOPH = [sys.executable, "-m", "grooph_core"]
# The machine's own programs only: the server must come from the .vsix, not from this checkout's venv.
PATH = os.pathsep.join(dict.fromkeys([str(Path(shutil.which("node") or "/usr/bin/node").parent), "/usr/local/bin", "/usr/bin", "/bin"]))

DANGLING = FIXTURES / "invalid" / "E_DANGLING_REF" / "misspelled-node.grooph.json"
HANDOFF = FIXTURES / "maps" / "invalid" / "E_HANDOFF_NO_CARRIER" / "missing-carrier.grooph-map.json"
VALID = FIXTURES / "valid" / "grind-loop-with-check-and-budget.grooph.json"
WORKFLOW = FIXTURES / "workflow" / "valid" / "spec-example.workflow.yaml"
# In the workspace before VS Code starts, and never opened (issue 17): the server's scan finds it.
NEVER_OPENED = Path("untouched") / "never-opened.grooph.json"
# The Problems panel's filter box (a list shows only the rows that fit on screen: a person narrows it).
PROBLEMS_FILTER = ".part.panel .viewpane-filter input"

SETTINGS = {
    "workbench.startupEditor": "none",
    "workbench.tips.enabled": False,
    "workbench.enableExperiments": False,
    "telemetry.telemetryLevel": "off",
    "security.workspace.trust.enabled": False,
    "extensions.autoCheckUpdates": False,
    "extensions.autoUpdate": False,
    "update.mode": "none",
    "files.autoSave": "off",
    "window.confirmBeforeClose": "never",
}
TIMINGS: dict[str, float] = {}
LOADED = [0.0]  # when the workbench had loaded (time.monotonic)


def missing_installs() -> list[str]:
    """What .ci/setup-vscode-e2e should have installed and did not."""
    missing = []
    failed = E2E / "SETUP-FAILED"
    if failed.exists():
        missing += [f"setup-vscode-e2e said: {line}" for line in failed.read_text().splitlines() if line]
    if shutil.which("node") is None:
        missing.append("node (Node 20)")
    if not Path(CHROMIUM).exists():
        missing.append(f"{CHROMIUM} (Debian: apt-get install chromium)")
    if not CODE_SERVER.exists() or not (E2E / "node_modules" / "playwright-core").exists():
        missing.append(f"code-server and playwright-core in {E2E.relative_to(ROOT)}/node_modules")
    if not all((EXTENSION / "node_modules" / ".bin" / tool).exists() for tool in ("vsce", "esbuild")):
        missing.append("the extension's npm packages (cd editors/vscode && npm ci)")
    if not list((EXTENSION / ".wheelhouse").glob("constraints-*.txt")):
        missing.append("the wheels the .vsix bundles (python3 editors/vscode/scripts/bundle_server.py --download-only)")
    return missing


def until(probe, timeout: float, what, interval: float = 0.2):
    """Calls `probe` until it returns something true; fails saying `what` (a text, or a function
    giving it) was awaited."""
    deadline = time.monotonic() + timeout
    last = None
    while time.monotonic() < deadline:
        last = probe()
        if last:
            return last
        time.sleep(interval)
    pytest.fail(f"waited {timeout:.0f} s for {what() if callable(what) else what}; last seen: {last!r}")


class Driver:
    """The playwright-core driver (vscode_e2e/driver.mjs): one JSON request and answer a line."""

    def __init__(self, log: Path):
        self.proc = subprocess.Popen(
            ["node", str(DRIVER)], cwd=E2E, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=log.open("w"), text=True, env={**os.environ, "GROOPH_E2E_CHROMIUM": CHROMIUM},
        )

    def __call__(self, op: str, **args):
        assert self.proc.stdin and self.proc.stdout
        self.proc.stdin.write(json.dumps({"op": op, **args}) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            pytest.fail(f"the browser driver stopped (op {op})")
        answer = json.loads(line)
        if not answer["ok"]:
            raise RuntimeError(f"{op} {args}: {answer['error']}")
        return answer["value"]

    def stop(self) -> None:
        if self.proc.poll() is None:
            try:
                self.proc.stdin.write(json.dumps({"op": "close"}) + "\n")
                self.proc.stdin.flush()
                self.proc.wait(timeout=20)
            except (OSError, subprocess.TimeoutExpired):
                self.proc.kill()
                self.proc.wait()


@dataclass
class VSCode:
    """The workbench page, with the steps a person takes."""

    drive: Driver
    workspace: Path
    user_data: Path
    extensions: Path
    pictures: Path = PICTURES
    problems_filter: str = ""  # what the Problems panel's filter box holds
    scratch: Path | None = None  # the session's temp folder

    def open(self, name: str, analysed: bool = True) -> None:
        """Quick Open (Ctrl+P) the file; with `analysed`, wait until the server has read it: the
        breadcrumbs show the document's outline (its symbols come from the server)."""
        listed = lambda: any(name in t for t in self.drive("texts", selector=".quick-input-list .monaco-list-row"))  # noqa: E731
        for attempt in range(6):  # a file written a moment ago is listed once the file watcher saw it
            self.drive("press", keys="Escape")
            self.drive("press", keys="Control+P")
            self.drive("wait", selector=".quick-input-widget .quick-input-box input")
            self.drive("type", text=name)
            deadline = time.monotonic() + 5
            while not listed() and time.monotonic() < deadline:
                time.sleep(0.2)
            if listed():
                break
        else:
            pytest.fail(f"{name} never appeared in Quick Open")
        self.drive("press", keys="Enter")
        self.drive("wait", selector=f'.tabs-container .tab.active[aria-label^="{name}"]')
        self.drive("wait", selector=".editor-instance .monaco-editor.focused", timeout=10000)
        if analysed:
            until(lambda: len(self.drive("texts", selector=".monaco-breadcrumbs .monaco-breadcrumb-item")) >= 2, 60,
                  f"the outline of {name} in the breadcrumbs")

    def problems(self, name: str | None = None) -> list[str]:
        """The rows of the Problems panel (opened when closed), each as its text. With `name`, the panel
        is filtered to that file (`**/name` typed in its filter box, as a person narrows a long list):
        the server checks every document of the workspace (issue 17), so the panel lists many files,
        and a list draws only the rows that fit on screen."""
        if not self.drive("count", selector=".markers-panel"):
            self.drive("press", keys="Control+Shift+M")
            self.drive("wait", selector=".markers-panel")
            self.drive("press", keys="Control+1")  # back to the editor, as a person clicks back into it
        wanted = f"**/{name}" if name else ""
        if self.problems_filter != wanted:
            # Typed again when keys went elsewhere (the workbench still settling moves the focus).
            for _ in range(3):
                self.drive("click", selector=PROBLEMS_FILTER)
                # Only once the box has the focus: Ctrl+A and the typing sent to the editor instead
                # replaced the document's text (seen once in CI on a quiet machine).
                if not self.has_focus("input", within=2):
                    continue
                self.drive("press", keys="Control+A")
                if wanted:
                    self.drive("type", text=wanted)
                else:
                    self.drive("press", keys="Backspace")
                if self.drive("values", selector=PROBLEMS_FILTER) == [wanted]:
                    break
            seen = self.drive("values", selector=PROBLEMS_FILTER)
            assert seen == [wanted], f"the Problems filter holds {seen}, not {wanted!r}"
            self.problems_filter = wanted
            self.drive("hover", selector=".markers-panel")  # off the box: its tooltip is a hover too
            self.drive("press", keys="Control+1")
            time.sleep(0.5)  # the panel applies its filter after a pause
        return [row["text"] for row in self.problem_rows()]

    def has_focus(self, tag: str, within: float) -> bool:
        """Whether an element of `tag` has the keyboard focus within `within` seconds (the editor's is a
        textarea, a filter or quick-open box an input)."""
        deadline = time.monotonic() + within
        while True:
            if str(self.drive("focused")).startswith(tag + "."):
                return True
            if time.monotonic() > deadline:
                return False
            time.sleep(0.1)

    def problem_rows(self) -> list[dict]:
        """The Problems panel's tree rows: `level` 1 is a file's heading (its name, then its folder and
        count: `never-opened.grooph.jsonuntouched 1`, no space after the name), level 2 one of its
        problems (`message grooph E_CODE [Ln 46, Col 13]`); `text` as shown, on one line."""
        rows = self.drive("rows", selector=".markers-panel .monaco-list-row")
        return [{"level": r["level"], "text": " ".join(r["text"].split())} for r in rows]

    def problems_of(self, name: str) -> list[str]:
        """The problem rows under one file's heading in the Problems panel (filtered to that file)."""
        self.problems(name)
        rows, current = [], None
        for row in self.problem_rows():
            if row["level"] == 1:
                current = name if row["text"].startswith(name) else row["text"]
            elif row["level"] == 2 and current == name:
                rows.append(row["text"])
        return rows

    def problem(self, code: str, name: str, timeout: float = 60) -> str:
        """The first row of `name`'s problems with `code`, once the Problems panel shows one."""
        return until(lambda: next((row for row in self.problems_of(name) if code in row), None), timeout,
                     f"{code} of {name} in the Problems panel")

    def goto(self, line: int, column: int) -> None:
        """Ctrl+G to a 1-based line and column, then back in the editor."""
        self.drive("press", keys="Control+G")
        self.drive("wait", selector=".quick-input-widget .quick-input-box input")
        self.drive("type", text=f"{line}:{column}")
        self.drive("press", keys="Enter")
        until(lambda: f"Ln {line}, Col {column}" in " ".join(self.drive("texts", selector=".statusbar-item[id$='status.editor.selection']")),
              10, f"the cursor at {line}:{column}")

    def save(self, name: str) -> None:
        self.drive("press", keys="Control+S")
        until(lambda: self.drive("count", selector=f'.tabs-container .tab.dirty[aria-label^="{name}"]') == 0, 20, f"{name} saved")

    def run_command(self, title: str) -> None:
        self.drive("press", keys="Escape")
        self.drive("press", keys="F1")
        self.drive("wait", selector=".quick-input-widget .quick-input-box input")
        self.drive("type", text=title)
        until(lambda: any(title in t for t in self.drive("texts", selector=".quick-input-list .monaco-list-row")), 20, f"{title!r} in the command palette")
        self.drive("press", keys="Enter")

    def close_all(self) -> None:
        self.run_command("View: Close All Editors")
        until(lambda: self.drive("count", selector=".tabs-container .tab") == 0, 20, "every editor closed")

    def error_popups(self) -> list[str]:
        """Error notifications on screen and in the notification centre."""
        rows = self.drive("texts", selector=".notification-list-item:has(.codicon-error)")
        return [r.replace("\n", " ") for r in rows]

    def lines(self) -> list[dict]:
        """The editor's visible lines with their boxes."""
        return self.drive("boxes", selector=".editor-instance .view-lines .view-line")

    def screenshot(self, name: str) -> Path:
        self.pictures.mkdir(parents=True, exist_ok=True)
        return Path(self.drive("screenshot", path=str(self.pictures / name)))

    def server_log(self) -> str:
        """The extension's output channel (the "grooph" log VS Code keeps for each extension host)."""
        return "\n".join(p.read_text("utf-8") for p in sorted(self.user_data.glob("logs/*/exthost*/output_logging_*/*-grooph.log")))


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _run(command: list[str], cwd: Path, env: dict, timeout: int, what: str) -> float:
    start = time.monotonic()
    done = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout, stdin=subprocess.DEVNULL)
    assert done.returncode == 0, f"{what} failed ({done.returncode}):\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return time.monotonic() - start


@pytest.fixture(scope="module")
def vscode(tmp_path_factory):
    missing = missing_installs()
    if missing:
        reason = "the real-VS-Code tests need .ci/setup-vscode-e2e's installs; missing: " + "; ".join(missing)
        if os.environ.get("CI") == "true":
            pytest.fail(reason)
        pytest.skip(reason)
    base = tmp_path_factory.mktemp("vscode")
    dirs = {name: base / name for name in ("home", "config", "data", "cache", "tmp", "user-data", "extensions", "workspace")}
    for d in dirs.values():
        d.mkdir()
    (dirs["user-data"] / "User").mkdir()
    settings = {**SETTINGS, "grooph.trace.server": "messages"} if os.environ.get("GROOPH_E2E_TRACE") == "1" else SETTINGS
    (dirs["user-data"] / "User" / "settings.json").write_text(json.dumps(settings, indent=2))
    never_opened = dirs["workspace"] / NEVER_OPENED
    never_opened.parent.mkdir()
    never_opened.write_text(DANGLING.read_text("utf-8"), "utf-8")
    env = {
        "HOME": str(dirs["home"]), "PATH": PATH, "LANG": "C.UTF-8", "TMPDIR": str(dirs["tmp"]),
        "XDG_CONFIG_HOME": str(dirs["config"]), "XDG_DATA_HOME": str(dirs["data"]), "XDG_CACHE_HOME": str(dirs["cache"]),
    }

    # The .vsix a user installs, built from this checkout with the server bundled (wheels from the cache).
    # GROOPH_E2E_VSIX names an already built .vsix instead (to rerun the tests quickly while working on them).
    if os.environ.get("GROOPH_E2E_VSIX"):
        vsix = Path(os.environ["GROOPH_E2E_VSIX"])
    else:
        build_env = {**os.environ, "PYTHON": sys.executable, "npm_config_update_notifier": "false",
                     "npm_config_cache": str(base / "npm-cache"), "PIP_NO_CACHE_DIR": "1"}  # nothing written to ~
        TIMINGS["package .vsix"] = _run(["node", "scripts/package.mjs", "--offline"], EXTENSION, build_env, 600, "npm run package")
        target = json.loads((EXTENSION / "bundled" / "manifest.json").read_text())["target"]
        vsix = EXTENSION / f"grooph-{target}-{json.loads((EXTENSION / 'package.json').read_text())['version']}.vsix"
    # The bundled .vsix (issue 32): the extension is one esbuild file, no node_modules ship, and fewer than 60
    # files lie outside the bundled server.
    with zipfile.ZipFile(vsix) as packed:
        names = packed.namelist()
    outside = [n for n in names if not n.startswith("extension/bundled/")]
    assert "extension/dist/extension.js" in names and not any("node_modules/" in n for n in names), outside
    assert len(outside) < 60 and "extension/icon.png" in names and "extension/changelog.md" in names, outside
    TIMINGS["install .vsix"] = _run(
        [str(CODE_SERVER), "--user-data-dir", str(dirs["user-data"]), "--extensions-dir", str(dirs["extensions"]),
         "--install-extension", str(vsix)], E2E, env, 120, "code-server --install-extension")

    port = _free_port()
    log = (base / "code-server.log").open("w")
    start = time.monotonic()
    server = subprocess.Popen(
        [str(CODE_SERVER), "--bind-addr", f"127.0.0.1:{port}", "--auth", "none", "--disable-telemetry",
         "--disable-update-check", "--disable-workspace-trust", "--disable-getting-started-override",
         "--user-data-dir", str(dirs["user-data"]), "--extensions-dir", str(dirs["extensions"]), str(dirs["workspace"])],
        cwd=E2E, env=env, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
    )
    drive = None
    try:
        def answers() -> bool:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2) as r:
                    return r.status == 200
            except OSError:
                assert server.poll() is None, (base / "code-server.log").read_text()
                return False

        until(answers, 60, "code-server to answer")
        TIMINGS["code-server start"] = time.monotonic() - start
        drive = Driver(base / "driver.log")
        start = time.monotonic()
        drive("goto", url=f"http://127.0.0.1:{port}/?folder={dirs['workspace']}")
        TIMINGS["workbench load"] = time.monotonic() - start
        LOADED[0] = time.monotonic()
        pictures = PICTURES if os.environ.get("GROOPH_E2E_PICTURES") == "1" else base / "pictures"
        yield VSCode(drive, dirs["workspace"], dirs["user-data"], dirs["extensions"], pictures, scratch=base)
    finally:
        if drive:
            drive.stop()
        server.terminate()
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
        log.close()
        print("\nreal VS Code timings (s): " + ", ".join(f"{k} {v:.1f}" for k, v in TIMINGS.items()), file=sys.stderr)


@pytest.fixture
def code(vscode: VSCode, request):
    """The workbench with no editor open, checked for error pop-ups after the test. A failed test
    leaves a screenshot of the workbench as it was (FAILED-<test>.png in the session's temp folder)."""
    vscode.close_all()
    yield vscode
    report = getattr(request.node, "outcome_call", None)
    if report is not None and report.failed:
        shot = (vscode.scratch or vscode.workspace.parent) / f"FAILED-{request.node.name}.png"
        try:
            vscode.drive("screenshot", path=str(shot))
            print(f"\nscreenshot of the failure: {shot}", file=sys.stderr)
        except RuntimeError as e:  # the page went away with the failure
            print(f"\nno screenshot of the failure: {e}", file=sys.stderr)
    assert vscode.error_popups() == [], "an error pop-up was shown"


def put(vscode: VSCode, name: str, text: str) -> Path:
    path = vscode.workspace / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, "utf-8")
    return path


def problem_position(fixture: Path) -> tuple[str, int, int]:
    """The fixture's expected issue (code, 1-based line, 1-based column) from its sidecar."""
    (issue,) = sidecar(fixture)["issues"]
    line, column = issue["range"][0], issue["range"][1]
    return issue["code"], line + 1, column + 1


def grooph(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([*GROOPH, *args], cwd=ROOT, capture_output=True, text=True, timeout=60)


def squiggle_lines(vscode: VSCode) -> list[str]:
    """The text of each visible line that carries an error squiggle."""
    lines = vscode.lines()
    squiggles = vscode.drive("boxes", selector=".editor-instance .squiggly-error")
    hit = []
    for s in squiggles:
        for line in lines:
            if line["y"] - 2 <= s["y"] <= line["y"] + line["height"]:
                hit.append(line["text"].replace("\u00a0", " "))
    return hit


def test_a_problem_of_a_file_never_opened_is_shown(code: VSCode):
    """Issue 17: the server checks every document of the workspace. untouched/never-opened.grooph.json
    was in the folder before VS Code started and is never opened: its dangling edge is a row of the
    Problems panel all the same, at its line and column. The first test of the module: the time from
    the workbench load to the row is the server's start and its workspace scan."""
    name = NEVER_OPENED.name
    wanted, line, column = problem_position(DANGLING)
    row = code.problem(wanted, name, timeout=90)
    TIMINGS["a never-opened file's problem, from the workbench load"] = time.monotonic() - LOADED[0]
    assert 'unknown node "reviwer"' in row and f"[Ln {line}, Col {column}]" in row, row
    assert code.drive("count", selector=f'.tabs-container .tab[aria-label^="{name}"]') == 0, "the file was opened"


def test_server_starts_from_the_bundle(code: VSCode):
    """The extension (activated by the graphs in the workspace) finds no grooph-lsp anywhere and runs
    the server it bundles with python3; a graph opened gets its diagnostic."""
    put(code, "first.grooph.json", DANGLING.read_text("utf-8"))
    code.open("first.grooph.json", analysed=False)
    start = time.monotonic()
    code.problem("E_DANGLING_REF", "first.grooph.json", timeout=90)
    TIMINGS["first diagnostic, from the first file's tab (server started with the workbench)"] = time.monotonic() - start
    log = code.server_log()
    started = re.search(r"Starting (\S+) -I (\S+) \(from bundled\)", log)
    assert started, log
    assert Path(started.group(2)).is_relative_to(code.extensions)
    assert started.group(2).endswith("bundled/grooph_server.py")


def test_dangling_reference_in_problems_with_a_squiggle(code: VSCode):
    put(code, "dangling.grooph.json", DANGLING.read_text("utf-8"))
    code.open("dangling.grooph.json", analysed=False)
    start = time.monotonic()
    wanted, line, column = problem_position(DANGLING)
    row = code.problem(wanted, "dangling.grooph.json")
    TIMINGS["diagnostic, from a file's tab (server running)"] = time.monotonic() - start
    assert wanted == "E_DANGLING_REF"
    assert 'unknown node "reviwer"' in row and f"[Ln {line}, Col {column}]" in row, row
    code.goto(line, column)
    assert any('"to": "reviwer"' in text for text in squiggle_lines(code)), ("no squiggle under the misspelt id", code.lines(), code.drive("boxes", selector=".editor-instance .squiggly-error"))


def test_handoff_without_carrier_in_problems(code: VSCode):
    put(code, "shop.grooph-map.json", HANDOFF.read_text("utf-8"))
    code.open("shop.grooph-map.json")
    wanted, line, column = problem_position(HANDOFF)
    row = code.problem(wanted, "shop.grooph-map.json")
    assert wanted == "E_HANDOFF_NO_CARRIER" and f"[Ln {line}, Col {column}]" in row, row
    code.goto(line, column)
    assert any('"id": "h-task"' in text for text in squiggle_lines(code))


def choose_quick_fix(code: VSCode, line: int, column: int, containing: str, screenshot: str | None = None) -> list[str]:
    """Ctrl+. at the problem, then the fix whose title contains `containing`; the menu's titles."""
    code.goto(line, column)
    code.drive("press", keys="Control+.")
    seen: list[list[str]] = [[]]

    def offered() -> list[str]:
        seen[0] = code.drive("texts", selector=".action-widget .monaco-list-row")
        return [t for t in seen[0] if containing in t]

    menu = until(offered, 30, lambda: f"a quick fix with {containing!r} (the menu: {seen[0]})")
    titles = code.drive("texts", selector=".action-widget .monaco-list-row")
    if screenshot:
        code.screenshot(screenshot)
    # Down until the wanted fix is the highlighted one, then Enter.
    for _ in range(len(titles)):
        if containing in " ".join(code.drive("texts", selector=".action-widget .monaco-list-row.focused")):
            break
        code.drive("press", keys="ArrowDown")
    assert menu[0] in code.drive("texts", selector=".action-widget .monaco-list-row.focused")
    code.drive("press", keys="Enter")
    until(lambda: code.drive("count", selector=".action-widget .monaco-list-row") == 0, 10, "the menu to close")
    return titles


def test_quick_fix_of_a_handoff_without_carrier(code: VSCode):
    path = put(code, "fix-shop.grooph-map.json", HANDOFF.read_text("utf-8"))
    code.open("fix-shop.grooph-map.json")
    wanted, line, column = problem_position(HANDOFF)
    code.problem(wanted, "fix-shop.grooph-map.json")
    titles = choose_quick_fix(code, line, column, "by session message", screenshot="vscode-quick-fix.png")
    assert any("by pull request" in t for t in titles), titles
    # the edit comes on codeAction/resolve: a person sees the fault go, then saves
    until(lambda: not any(wanted in row for row in code.problems_of("fix-shop.grooph-map.json")), 30,
          f"{wanted} gone from the Problems panel")
    until(lambda: code.drive("count", selector='.tabs-container .tab.dirty[aria-label^="fix-shop.grooph-map.json"]') > 0, 30,
          "the quick fix's edit in the editor")
    code.save("fix-shop.grooph-map.json")
    saved = json.loads(path.read_text("utf-8"))
    assert saved["handoffs"][0]["carrier"]["kind"] == "session-message"
    checked = grooph("validate", str(path))
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_quick_fix_of_a_dangling_edge(code: VSCode):
    path = put(code, "fix-flow.grooph.json", DANGLING.read_text("utf-8"))
    code.open("fix-flow.grooph.json")
    wanted, line, column = problem_position(DANGLING)
    code.problem(wanted, "fix-flow.grooph.json")
    choose_quick_fix(code, line, column, "at node reviewer")
    until(lambda: not any(wanted in row for row in code.problems_of("fix-flow.grooph.json")), 30,
          f"{wanted} gone from the Problems panel")
    until(lambda: code.drive("count", selector='.tabs-container .tab.dirty[aria-label^="fix-flow.grooph.json"]') > 0, 30,
          "the quick fix's edit in the editor")
    code.save("fix-flow.grooph.json")
    saved = json.loads(path.read_text("utf-8"))
    assert saved["edges"][0] == {"id": "e1", "from": "drafter", "to": "reviewer"}
    checked = grooph("validate", str(path))
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_format_on_save_writes_what_grooph_fmt_prints(code: VSCode):
    one_line = json.dumps(json.loads(VALID.read_text("utf-8")), separators=(",", ":"), ensure_ascii=False)
    path = put(code, "one-line.grooph.json", one_line)
    code.open("one-line.grooph.json")
    code.problems()
    # A person's edit before saving: a space typed at the end of the line (JSON ignores it).
    code.drive("press", keys="Control+End")
    code.drive("type", text=" ")
    code.save("one-line.grooph.json")
    expected = grooph("fmt", str(VALID))
    assert expected.returncode == 0, expected.stderr
    until(lambda: path.read_bytes() == expected.stdout.encode("utf-8"), 20, "the file on disk to be grooph fmt's output")


def test_rename_of_a_node_id_rewrites_every_reference(code: VSCode):
    text = VALID.read_text("utf-8")
    graph = json.loads(text)
    old = graph["nodes"][0]["id"]
    assert text.count(f'"{old}"') >= 3, "the fixture should reference the node more than once"
    path = put(code, "rename.grooph.json", text)
    code.open("rename.grooph.json")
    code.problems()
    line_no = next(n for n, line in enumerate(text.splitlines(), 1) if f'"id": "{old}"' in line)
    code.goto(line_no, text.splitlines()[line_no - 1].index(f'"{old}"') + 2)
    code.drive("press", keys="F2")
    code.drive("wait", selector=".rename-box input:focus")
    code.drive("press", keys="Control+A")  # in the rename box: its text, not the document
    code.drive("type", text="maker")
    code.drive("press", keys="Enter")
    until(lambda: code.drive("count", selector=".rename-box input") == 0, 10, "the rename box to close")
    until(lambda: code.drive("count", selector='.tabs-container .tab.dirty[aria-label^="rename.grooph.json"]'), 20,
          "the renamed document (its tab marked changed)")
    code.save("rename.grooph.json")
    saved = until(lambda: (t := path.read_text("utf-8")) != text and t, 20, "the file saved")
    assert f'"{old}"' not in saved
    assert saved.count('"maker"') == text.count(f'"{old}"')
    assert grooph("validate", str(path)).returncode == 0


def test_hover_on_a_key_shows_its_documentation(code: VSCode):
    text = DANGLING.read_text("utf-8")
    put(code, "hover.grooph.json", text)
    code.open("hover.grooph.json")
    code.problems()
    line_no = next(n for n, line in enumerate(text.splitlines(), 1) if '"role"' in line)
    code.goto(line_no, text.splitlines()[line_no - 1].index('"role"') + 3)
    code.drive("press", keys="Control+K")
    code.drive("press", keys="Control+I")
    shown = until(lambda: " ".join(code.drive("texts", selector=".monaco-hover:not(.hidden) .hover-contents")), 20, "the hover")
    documented = field_info("graph", json.loads(text), "/nodes/0/role").description
    assert "role" in shown and documented in shown.replace("\n", " "), shown


def preview_svg(code: VSCode) -> str:
    """The SVG the preview webview shows (its <img> holds it as a data: URI)."""
    for img in code.drive("frameHtml", selector="img#picture"):
        src = re.search(r'src="data:image/svg\+xml;base64,([^"]+)"', img)
        if src and " hidden" not in img.split(">")[0]:
            return base64.b64decode(src.group(1)).decode("utf-8")
    return ""


def test_preview_shows_the_picture_and_follows_the_document(code: VSCode):
    text = VALID.read_text("utf-8")
    graph = json.loads(text)
    name = graph["nodes"][0]["name"]
    put(code, "preview.grooph.json", text)
    code.open("preview.grooph.json")
    code.problems()
    code.run_command("grooph: Preview picture")
    first = until(lambda: preview_svg(code), 60, "the picture in the preview")
    assert "<svg" in first and name in first
    # Rename the first node's display name in the editor, without saving: the picture follows.
    line_no = next(n for n, line in enumerate(text.splitlines(), 1) if f'"name": "{name}"' in line)
    code.drive("click", selector='.tabs-container .tab[aria-label^="preview.grooph.json"]')
    code.goto(line_no, text.splitlines()[line_no - 1].index(f'"{name}"') + 2 + len(name))
    code.drive("type", text=" on call")
    until(lambda: f"{name} on call" in preview_svg(code), 30, "the preview to redraw with the new name")
    code.drive("press", keys="Escape")
    code.screenshot("vscode-preview.png")
    code.save("preview.grooph.json")


def test_typing_a_graph_raises_no_error_and_ends_clean(code: VSCode):
    path = put(code, "typed.grooph.json", "")
    code.open("typed.grooph.json", analysed=False)
    typed = ('{"grooph": 0, "id": "t", "name": "T", "version": 1, "nodes": [{"id": "w", "kind": "agent", "name": "W", '
             '"role": "builder", "brief": "Go.", "outputs": ["o.md"], "allow": ["edit-files"]}, {"id": "end", "kind": "stop", '
             '"name": "End"}], "edges": [{"id": "e1", "from": "w", "to": "end"}], "loops": []}')
    code.drive("type", text=typed, delay=15)
    code.save("typed.grooph.json")
    assert json.loads(path.read_text("utf-8")) == json.loads(typed), "what was typed is not what was saved"
    time.sleep(1)
    until(lambda: code.problems_of("typed.grooph.json") == [], 30, "no problems left for typed.grooph.json")
    assert code.error_popups() == []


def test_a_file_written_and_deleted_on_disk_comes_and_goes_in_problems(code: VSCode):
    """Issue 17: files created or deleted on disk while VS Code runs are followed (the server's file
    watchers, registered with VS Code through workspace/didChangeWatchedFiles): a graph another
    program writes shows its problem without being opened; deleted, its row goes. The same for a
    graph in a folder made the moment before (VS Code sends an event for the folder only)."""
    path = put(code, "later.grooph.json", DANGLING.read_text("utf-8"))
    start = time.monotonic()
    wanted, line, column = problem_position(DANGLING)
    row = code.problem(wanted, "later.grooph.json", timeout=60)
    TIMINGS["a file written on disk: its problem shown"] = time.monotonic() - start
    assert f"[Ln {line}, Col {column}]" in row, row
    assert code.drive("count", selector='.tabs-container .tab[aria-label^="later.grooph.json"]') == 0
    path.unlink()
    until(lambda: code.problems_of("later.grooph.json") == [], 60, "the deleted file's problem gone from the Problems panel")
    # A folder made and filled at once (a checkout, a copy): VS Code reports the folder only.
    copied = put(code, "copied/deeper/copied.grooph.json", DANGLING.read_text("utf-8"))
    row = code.problem(wanted, "copied.grooph.json", timeout=60)
    assert f"[Ln {line}, Col {column}]" in row, row
    shutil.rmtree(copied.parent.parent)
    until(lambda: code.problems_of("copied.grooph.json") == [], 60, "the deleted folder's problem gone from the Problems panel")


def test_workflow_misspelt_status_quick_fix(code: VSCode):
    """Issue 15 point 7: a board workflow whose transition names a misspelt status shows
    E_WF_UNKNOWN_STATUS (workflow.md) in the Problems panel at the status; the quick fix
    "Change to review" repairs it, and the saved file is workflow.md §5's example again, byte for
    byte (the rest of the YAML keeps its bytes)."""
    original = WORKFLOW.read_text("utf-8")
    text = original.replace("handed_off: [{target: review}]", "handed_off: [{target: reviw}]")
    assert text != original
    path = put(code, "board.workflow.yaml", text)
    expected = json.loads(grooph("validate", "--json", str(path)).stdout)["issues"]
    assert [i["code"] for i in expected if i["severity"] == "error"] == ["E_WF_UNKNOWN_STATUS"], expected
    start = expected[0]["range"]["start"]
    line, column = start["line"] + 1, start["character"] + 1
    code.open("board.workflow.yaml", analysed=False)
    row = code.problem("E_WF_UNKNOWN_STATUS", "board.workflow.yaml")
    assert "no status reviw; did you mean review?" in row and f"[Ln {line}, Col {column}]" in row, row
    titles = choose_quick_fix(code, line, column + 1, "Change to review")
    assert any("Add status reviw" in t for t in titles), titles
    until(lambda: not any("E_WF_UNKNOWN_STATUS" in r for r in code.problems_of("board.workflow.yaml")), 30,
          "E_WF_UNKNOWN_STATUS gone from the Problems panel")
    until(lambda: code.drive("count", selector='.tabs-container .tab.dirty[aria-label^="board.workflow.yaml"]') > 0, 30,
          "the quick fix's edit in the editor")
    code.save("board.workflow.yaml")
    assert path.read_text("utf-8") == original
    checked = grooph("validate", str(path))
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_format_on_save_of_a_crlf_graph_writes_lf(code: VSCode):
    """Issue 12: the canonical form has LF line endings only (graph.md §6.1). A graph written with
    CRLF (and four-space indents) is saved with format on save: the status bar goes from CRLF to LF
    and the file on disk is byte-equal to `grooph fmt`'s output, with no carriage return left."""
    graph = json.loads(VALID.read_text("utf-8"))
    crlf = json.dumps(graph, indent=4, ensure_ascii=False).replace("\n", "\r\n") + "\r\n"
    path = code.workspace / "crlf.grooph.json"
    path.write_bytes(crlf.encode("utf-8"))
    code.open("crlf.grooph.json")
    eol = lambda: " ".join(code.drive("texts", selector=".statusbar-item[id$='status.editor.eol']"))  # noqa: E731
    until(lambda: "CRLF" in eol(), 10, "CRLF in the status bar")
    code.drive("press", keys="Control+End")
    code.drive("type", text=" ")
    code.save("crlf.grooph.json")
    expected = grooph("fmt", str(VALID))
    assert expected.returncode == 0, expected.stderr
    until(lambda: path.read_bytes() == expected.stdout.encode("utf-8"), 20, "the file on disk to be grooph fmt's output")
    assert b"\r" not in path.read_bytes()
    until(lambda: "CRLF" not in eol() and "LF" in eol(), 10, "LF in the status bar")


def test_completion_inside_a_half_typed_string(code: VSCode):
    """Issue 21 item 5: the items inside a string are edits after the quote typed, filtered by the word
    between the quotes. `te` typed between the quotes of an edge's `to`, then Ctrl+Space: VS Code (which
    filters by the text from the edit's start to the cursor) lists the node id `tests` alone, and Enter
    completes the string."""
    text = (FIXTURES / "valid" / "review-loop.grooph.json").read_text("utf-8")
    assert text.count('"to": "tests"') == 1
    path = put(code, "complete.grooph.json", text.replace('"to": "tests"', '"to": ""'))
    code.open("complete.grooph.json")
    line_no = next(n for n, line in enumerate(text.splitlines(), 1) if '"to": "tests"' in line)
    code.goto(line_no, text.splitlines()[line_no - 1].index('"to": "tests"') + len('"to": "') + 1)
    code.drive("type", text="te")
    code.drive("press", keys="Control+Space")
    rows = lambda: code.drive("texts", selector=".suggest-widget .monaco-list-row")  # noqa: E731
    shown = until(rows, 30, "the suggestions")
    assert len(shown) == 1 and shown[0].startswith("tests"), shown
    code.drive("press", keys="Enter")
    until(lambda: code.drive("count", selector=".suggest-widget .monaco-list-row") == 0, 10, "the suggestions to close")
    code.save("complete.grooph.json")
    assert json.loads(path.read_text("utf-8")) == json.loads(text)


REVIEW_LOOP = FIXTURES / "valid" / "review-loop.grooph.json"


def sidebar_rows(code: VSCode) -> list[str]:
    """The rows of the tree in the side bar (a view's list), each as its text on one line (a row's label
    and its description run together, as the page holds them)."""
    return [" ".join(t.split()) for t in code.drive("texts", selector=".part.sidebar .monaco-list-row")]


def test_show_call_hierarchy_of_a_node(code: VSCode):
    """Issue 31 item 2: "Calls: Show Call Hierarchy" on a node lists the nodes whose edges lead to it, each
    described by the edge (its id, its `when`, a loop's back edge marked) and by what the node is; "Show
    Outgoing Calls" the node it leads to."""
    text = REVIEW_LOOP.read_text("utf-8")
    put(code, "calls.grooph.json", text)
    code.open("calls.grooph.json")
    lines = text.splitlines()
    line_no = next(n for n, line in enumerate(lines, 1) if '"id": "build"' in line)
    code.goto(line_no, lines[line_no - 1].index('"build"') + 3)
    code.run_command("Calls: Show Call Hierarchy")
    root = "build" + "Build · agent · builder"
    callers = [root,
               "plan" + "always · plan-build — Plan · agent · planner",
               "tests" + "when fail · back edge of fix-tests · tests-failed — Tests · check",
               "review" + "when fail · back edge of review-loop · review-failed — Review · agent · critic"]
    until(lambda: sidebar_rows(code) == callers, 60, lambda: f"the callers of build in the call hierarchy: {callers}")
    code.screenshot("vscode-call-hierarchy.png")
    code.run_command("Calls: Show Outgoing Calls")
    called = [root, "tests" + "always · build-tests — Tests · check"]
    until(lambda: sidebar_rows(code) == called, 30, lambda: f"the calls build makes: {called}")


def test_inlay_hints_say_what_a_reference_names_and_a_loops_brakes(code: VSCode):
    """Issue 31 item 3: in the editor's lines, after an edge's `"to": "tests"` its node's name and kind
    (`Tests · check`), and at a loop's `stops` its brakes in words, drawn by VS Code from the server's
    inlay hints (the text itself is unchanged)."""
    text = (FIXTURES / "valid" / "review-loop.grooph.json").read_text("utf-8")
    path = put(code, "hints.grooph.json", text)
    code.open("hints.grooph.json")
    lines = text.splitlines()
    to_tests = next(n for n, line in enumerate(lines, 1) if '"to": "tests"' in line)
    code.goto(to_tests, 1)
    seen = lambda: [l["text"].replace("\u00a0", " ") for l in code.lines()]  # noqa: E731 (VS Code draws spaces as no-break ones)
    shown = lambda: [t for t in seen() if '"to": "tests"' in t]  # noqa: E731
    hinted = until(lambda: [t for t in shown() if "Tests · check" in t], 30, lambda: f"the hint after the reference in {shown()}")
    assert hinted[0].split('"to": "tests"')[1].strip() == "Tests · check", hinted
    stops = next(n for n, line in enumerate(lines, 1) if '"stops": [' in line)
    code.goto(stops, 1)
    brakes = lambda: [t for t in seen() if '"stops":' in t]  # noqa: E731
    until(lambda: any("≤ 4 rounds · 12 dispatches" in t for t in brakes()), 30, lambda: f"the loop's brakes in {brakes()}")
    code.screenshot("vscode-inlay-hints.png")
    assert path.read_text("utf-8") == text
