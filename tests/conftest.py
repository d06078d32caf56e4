"""Shared test helpers: where the fixtures live and how to read a fixture with its sidecar."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"
DOC_SUFFIXES = (".grooph.json", ".grooph-map.json")


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
