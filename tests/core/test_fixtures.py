"""One test walks every fixture (DESIGN.md "Tests"): valid ones raise no error, each invalid one
raises the code its folder names, and a sidecar `.expect.json` fixes the exact issue list (code, at,
order), the by-hand list of a map, and, where given, the primary range of each issue."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from grooph_core.analysis import analyze
from grooph_core.kinds import kind_from_name
from grooph_core.line_index import LineIndex
from grooph_core.load import read_document
from grooph_core.validate import validate_value
from tests.conftest import FIXTURES, fixture_files, sidecar

SPEC = Path(__file__).resolve().parents[3] / "shared" / "spec"

VALID = fixture_files("valid") + fixture_files("maps", "valid")
INVALID = fixture_files("invalid") + fixture_files("maps", "invalid")


def _resolver(path: Path):
    if kind_from_name(path.name) != "map":
        return None
    from grooph_core.rules.map import file_graph_resolver

    return file_graph_resolver(str(path))


def _validate(path: Path, export: bool):
    doc = read_document(str(path))
    if doc.error is not None:
        return doc, [doc.error]
    return doc, validate_value(doc.value, doc.kind, export=export, resolver=_resolver(path))


def _id(p: Path) -> str:
    return str(p.relative_to(FIXTURES))


@pytest.mark.parametrize("path", VALID, ids=_id)
def test_valid_fixture_raises_no_error(path: Path):
    expect = sidecar(path) or {}
    doc, issues = _validate(path, expect.get("export", False))
    assert [i.line() for i in issues if i.severity == "error"] == []
    if "issues" in expect:
        assert [{"code": i.code, "at": list(i.at)} for i in issues] == [
            {"code": e["code"], "at": e["at"]} for e in expect["issues"]
        ]


@pytest.mark.parametrize("path", INVALID, ids=_id)
def test_invalid_fixture_raises_its_code(path: Path):
    code = path.parent.name
    expect = sidecar(path) or {}
    export = expect.get("export", False)
    doc, issues = _validate(path, export)
    assert code in [i.code for i in issues], [i.line() for i in issues]
    if "issues" in expect:
        assert [{"code": i.code, "at": list(i.at)} for i in issues] == [
            {"code": e["code"], "at": e["at"]} for e in expect["issues"]
        ]
    if "byHand" in expect:
        from grooph_core.rules.map.by_hand import by_hand

        assert by_hand(doc.value) == expect["byHand"]
    ranged = [e for e in expect.get("issues", []) if "range" in e]
    if ranged:
        text = path.read_text("utf-8")
        analysis = analyze(text, name=path.name, export=export, resolver=_resolver(path), tolerant=False)
        lines = LineIndex(text)
        got = []
        for issue in analysis.issues:
            s, e = analysis.span(issue)
            got.append([*lines.position(s), *lines.position(e)])
        for n, e in enumerate(expect["issues"]):
            if "range" in e:
                assert got[n] == e["range"], (n, e["code"])


@pytest.mark.parametrize("path", VALID + INVALID, ids=_id)
def test_every_pointer_resolves_to_a_span(path: Path):
    """Every issue of every fixture has a non-empty span inside the text."""
    text = path.read_text("utf-8")
    expect = sidecar(path) or {}
    analysis = analyze(text, name=path.name, export=expect.get("export", False), resolver=_resolver(path))
    for issue in analysis.issues:
        s, e = analysis.span(issue)
        assert 0 <= s <= e <= len(text), issue.line()
        if text.strip() and not (issue.code == "E_SYNTAX" and s == len(text.rstrip())):
            assert e > s, issue.line()  # only "missing at the end of the text" may be empty


def _spec_codes(name: str) -> set[str]:
    f = SPEC / name
    if not f.exists():
        pytest.skip("spec not beside the repository")
    return set(re.findall(r"^#+ .*`([EW]_[A-Z_]+)`", f.read_text("utf-8"), re.M))


@pytest.mark.parametrize("spec,folder", [("graph.md", FIXTURES / "invalid"), ("map.md", FIXTURES / "maps" / "invalid")])
def test_every_spec_code_has_a_failing_fixture(spec: str, folder: Path):
    codes = _spec_codes(spec)
    assert codes, spec
    missing = sorted(c for c in codes if not list((folder / c).glob("*.json")))
    assert missing == []
