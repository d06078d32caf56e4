"""One test walks every fixture (DESIGN.md "Tests"): valid ones raise no error, each invalid one
raises the code its folder names, and a sidecar `.expect.json` fixes the exact issue list (code, at,
order), the by-hand list of a map, and, where given, the primary range of each issue."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from grooph_core.ide.grooph.analysis import analyze
from grooph_core.rules.validate import validate_value
from grooph_core.source.kinds import kind_from_name
from grooph_core.source.line_index import LineIndex
from grooph_core.source.load import read_document
from tests.conftest import FIXTURES, fixture_files, sidecar

# The spec beside the repository (/work/main -> /work/shared), or beside the worktrees' folder.
SPEC = next((p / "shared" / "spec" for p in Path(__file__).resolve().parents[3:5] if (p / "shared" / "spec").exists()),
            Path(__file__).resolve().parents[3] / "shared" / "spec")

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
        from grooph_core.semantics.by_hand import by_hand

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


# ---- the neighbouring formats (workflow.md, board.md, episodes.md) -----------------------------------
#
# fixtures/<kind>/valid/ and fixtures/<kind>/invalid/<CODE>/, each invalid file with a sidecar fixing the
# command line's (strict) issue list: code, `at` (the JSON pointer) and range, in order; "tolerant" fixes the
# editor's list where it differs.

from grooph_core.ide.neighbours.analysis import analyze_neighbour  # noqa: E402
from grooph_core.source.kinds import NEIGHBOURS, NeighbourKind  # noqa: E402


def _neighbour_files(kind: NeighbourKind, part: str) -> list[Path]:
    base = FIXTURES / kind.name / part
    return sorted(p for p in base.rglob("*") if p.name.endswith(kind.suffixes)) if base.exists() else []


def _neighbour_cases(part: str) -> list[tuple[NeighbourKind, Path]]:
    return [(k, p) for k in NEIGHBOURS for p in _neighbour_files(k, part)]


def _neighbour_sidecar(kind: NeighbourKind, path: Path) -> dict | None:
    name = path.name
    for suf in kind.suffixes:
        if name.endswith(suf):
            name = name[: -len(suf)]
    side = path.with_name(name + ".expect.json")
    return json.loads(side.read_text("utf-8")) if side.exists() else None


def _listing(kind: NeighbourKind, text: str, tolerant: bool) -> list[dict]:
    a = analyze_neighbour(text, kind, tolerant=tolerant)
    out = []
    for issue in a.issues:
        s, e = a.span(issue)
        out.append({"code": issue.code, "at": list(issue.at), "range": [*a.line_index.position(s), *a.line_index.position(e)]})
    return out


def _nid(case) -> str:
    return str(case[1].relative_to(FIXTURES)) if isinstance(case, tuple) else str(case)


@pytest.mark.parametrize("case", _neighbour_cases("valid"), ids=_nid)
def test_neighbour_valid_fixture_is_clean(case):
    """workflow.md §5, episodes.md §4, and our board: clean in both modes (not even a warning)."""
    kind, path = case
    text = path.read_text("utf-8")
    assert _listing(kind, text, tolerant=False) == []
    assert _listing(kind, text, tolerant=True) == []


@pytest.mark.parametrize("case", _neighbour_cases("invalid"), ids=_nid)
def test_neighbour_invalid_fixture_gives_its_sidecar(case):
    kind, path = case
    text = path.read_text("utf-8")
    expect = _neighbour_sidecar(kind, path)
    assert expect is not None, f"{path.name} has no sidecar"
    strict = _listing(kind, text, tolerant=False)
    assert path.parent.name in [i["code"] for i in strict]
    assert strict == expect["issues"]
    assert _listing(kind, text, tolerant=True) == expect.get("tolerant", expect["issues"])
    for row in strict:  # only a missing character at a spot is an empty range (workflow.md §0)
        if row["code"] != "E_SYNTAX":
            assert row["range"][:2] != row["range"][2:], row


def _neighbour_spec_codes(kind: NeighbourKind) -> set[str]:
    """The codes of the spec's §3 tables (the first cell of each row)."""
    f = SPEC / f"{kind.name}.md"
    if not f.exists():
        pytest.skip("spec not beside the repository")
    text = f.read_text("utf-8")
    section = text[text.index("## 3."):text.index("## 4.")]
    codes = {c for line in section.splitlines() if line.startswith("| `")
             for c in re.findall(r"`([EW]_[A-Z_]+)`", line.split("|")[1])}
    if kind.syntax == "yaml":  # workflow.md §0 "Reading": the YAML reader's W_DUPLICATE_KEY (a map's later copy)
        codes.add("W_DUPLICATE_KEY")
    return codes


@pytest.mark.parametrize("kind", NEIGHBOURS, ids=lambda k: k.name)
def test_every_neighbour_code_has_a_fixture_giving_exactly_it(kind: NeighbourKind):
    """issue 15 "Done when": every code of the three specs has a failing fixture that gives exactly it."""
    codes = _neighbour_spec_codes(kind)
    assert len(codes) >= 12, codes
    folder = FIXTURES / kind.name / "invalid"
    missing = []
    for code in sorted(codes):
        files = [p for p in (folder / code).glob("*") if p.name.endswith(kind.suffixes)]
        if not any({i["code"] for i in _listing(kind, p.read_text("utf-8"), tolerant=False)} == {code} for p in files):
            missing.append(code)
    assert missing == []
    assert sorted(p.name for p in folder.iterdir()) == sorted(codes)  # no folder for a code the spec lacks
