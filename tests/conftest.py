"""Shared test helpers: where the fixtures live, how to read a fixture with its sidecar, the Hypothesis
profiles (derandomized unless `HYPOTHESIS_PROFILE=explore`) and the guard on the user's home."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

import pytest
from hypothesis import settings

from tests import home_guard

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"
DOC_SUFFIXES = (".grooph.json", ".grooph-map.json")

# The property tests (Hypothesis) run the same examples on every run, in CI and on a landing alike:
# derandomized (each test's seed comes from the test itself), no example database, no deadline (speed is
# measured with bench/). `HYPOTHESIS_PROFILE=explore` draws new examples each run instead, keeps what
# fails in .hypothesis/ and prints the blob that replays it; a find becomes an `@example` (issue 25).
settings.register_profile("pinned", derandomize=True, database=None, deadline=None, print_blob=True)
settings.register_profile("explore", deadline=None, print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE") or "pinned")


def fixture_files(*parts: str) -> list[Path]:
    base = FIXTURES.joinpath(*parts)
    if not base.exists():
        return []
    return sorted(p for p in base.rglob("*.json") if p.name.endswith(DOC_SUFFIXES))


def sidecar(path: Path) -> dict | None:
    """The `<name>.expect.json` beside a fixture, or None."""
    name = path.name
    for suf in DOC_SUFFIXES:
        if name.endswith(suf):
            name = name[: -len(suf)]
    side = path.with_name(name + ".expect.json")
    return json.loads(side.read_text("utf-8")) if side.exists() else None


# Where programs the tests start put caches, data, state and settings (the server's previews, Neovim's
# log, pip's cache, a browser's profile): a temp folder for the session, never the user's home.
SESSION_XDG = ("XDG_CACHE_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CONFIG_HOME")
# npm keeps its cache and its logs in ~/.npm, not under XDG: the npm the tests start (the VS Code
# extension's build) keeps them in a temp folder that outlives the session, so `npm ci` finds it warm.
NPM_CACHE = Path(tempfile.gettempdir()) / "grooph-tests" / "npm-cache"


@pytest.fixture(scope="session", autouse=True)
def nothing_written_into_home(tmp_path_factory: pytest.TempPathFactory):
    """Points the XDG folders into a temp folder for the whole session, and fails the session when
    a file under ~ was created, changed or removed anyway (tests/home_guard.py says what is watched)."""
    home = Path.home()
    before = home_guard.snapshot(home)
    base = tmp_path_factory.mktemp("xdg")
    saved = {name: os.environ.get(name) for name in (*SESSION_XDG, "PIP_CONFIG_FILE", "npm_config_cache", "RUSTUP_HOME")}
    user_pip_config = Path(os.environ.get("XDG_CONFIG_HOME") or home / ".config") / "pip" / "pip.conf"
    for name in SESSION_XDG:
        os.environ[name] = str(base / name.lower())
    if not saved["npm_config_cache"]:
        os.environ["npm_config_cache"] = str(NPM_CACHE)
    if not saved["RUSTUP_HOME"]:
        # rustup's rustc and cargo (pip runs `rustc --version` for its user agent, the engine oracle's build
        # runs cargo) read ~/.rustup and make it under another HOME (an empty one): they are told where the
        # installed toolchains are, or an empty folder of the session's when there are none
        os.environ["RUSTUP_HOME"] = str(home_guard.installed_rustup_home() or base / "rustup")
    if user_pip_config.is_file() and not saved["PIP_CONFIG_FILE"]:
        os.environ["PIP_CONFIG_FILE"] = str(user_pip_config)  # pip still reads where packages come from
    yield base
    for name, value in saved.items():
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value
    found = home_guard.changes(before, home_guard.snapshot(home))
    if found:
        pytest.fail(f"the test session wrote into the user's home ({home}); tests must use tmp_path or "
                    "the session's XDG folders (a program running beside the tests may have written there "
                    "too):\n  " + "\n  ".join(found[:40]), pytrace=False)


@pytest.fixture
def fixtures_dir() -> Path:
    return FIXTURES


def pytest_addoption(parser: pytest.Parser) -> None:
    """`--fuzz-edits N` / `--fuzz-seed S`: the fuzzed editing session's length and seed
    (tests/lsp/test_fuzz_session.py; the CI run does 2,000 edits, a long run 20,000)."""
    group = parser.getgroup("grooph fuzz")
    group.addoption("--fuzz-edits", type=int, default=None, metavar="N",
                    help="edits in the fuzzed editing session (default 2000; 20000 for the long run)")
    group.addoption("--fuzz-seed", default="grooph-9", metavar="SEED",
                    help="seed of the fuzzed editing session (the same seed replays the same session)")
