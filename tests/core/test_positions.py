"""Positions (issue 3): every issue of every invalid fixture lands on the same token when the text
is re-written with CRLF line endings, with tabs, with emoji and CJK before the fault, and on one
line. Columns are checked through LSP's rules (lines break on \\n, \\r\\n, \\r only; UTF-16 units),
converted back by an independent reading of the text in this test."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from grooph_core.ide.grooph.analysis import analyze
from grooph_core.source.kinds import kind_from_name
from grooph_core.source.line_index import LineIndex
from tests.conftest import FIXTURES, fixture_files, sidecar

INVALID = [p for p in fixture_files("invalid") + fixture_files("maps", "invalid")]


def _resolver(path: Path):
    if kind_from_name(path.name) != "map":
        return None
    from grooph_core.rules.map import file_graph_resolver

    return file_graph_resolver(str(path))


def _lsp_offset(text: str, line: int, col16: int) -> int:
    """Offset of an LSP position, computed independently of the code under test."""
    starts = [0] + [m.end() for m in re.finditer(r"\r\n|\r|\n", text)]
    start = starts[line]
    units = 0
    i = start
    while units < col16:
        units += 2 if ord(text[i]) > 0xFFFF else 1
        i += 1
    return i


def _tokens(path: Path, text: str, export: bool) -> list[tuple[str, str, bool]]:
    a = analyze(text, name=path.name, export=export, resolver=_resolver(path), tolerant=False)
    lines = LineIndex(text)
    out = []
    for issue in a.issues:
        s, e = a.span(issue)
        (sl, sc), (el, ec) = lines.position(s), lines.position(e)
        s2, e2 = _lsp_offset(text, sl, sc), _lsp_offset(text, el, ec)
        assert (s2, e2) == (s, e), issue.line()
        tok = text[s:e]
        is_key = text[e:].lstrip(" \t\r\n").startswith(":")
        out.append((issue.code, re.sub(r"\s+", "", tok), is_key))
    return out


def _variants(text: str, value) -> dict[str, str]:
    v = {
        "crlf": text.replace("\n", "\r\n"),
        "cr": text.replace("\n", "\r"),
        "tabs": re.sub(r"(?m)^((?:  )+)", lambda m: "\t" * (len(m.group(1)) // 2), text),
    }
    if isinstance(value, dict) and isinstance(value.get("name"), str) and '"name": ' in text:
        i = text.index('"name": "') + len('"name": "')
        v["emoji-cjk-name"] = text[:i] + "🚀 発射 𝄞 " + text[i:]
    return v


@pytest.mark.parametrize("path", INVALID, ids=lambda p: str(p.relative_to(FIXTURES)))
def test_issue_tokens_survive_line_endings_tabs_and_wide_characters(path: Path):
    text = path.read_text("utf-8")
    export = (sidecar(path) or {}).get("export", False)
    try:
        value = json.loads(text)
    except ValueError:
        pytest.skip("not JSON: the syntax tests cover it")
    original = _tokens(path, text, export)
    for name, variant in _variants(text, value).items():
        got = _tokens(path, variant, export)
        if name == "emoji-cjk-name":
            # the name grew: W_DOC_TOO_LARGE may measure differently; everything else is the same
            got = [t for t in got if t[0] != "W_DOC_TOO_LARGE"]
            want = [t for t in original if t[0] != "W_DOC_TOO_LARGE"]
        else:
            want = original
        assert got == want, name


@pytest.mark.parametrize("path", INVALID, ids=lambda p: str(p.relative_to(FIXTURES)))
def test_scalar_tokens_survive_a_one_line_document_with_emoji_first(path: Path):
    text = path.read_text("utf-8")
    export = (sidecar(path) or {}).get("export", False)
    try:
        value = json.loads(text)
    except ValueError:
        pytest.skip("not JSON")
    if not isinstance(value, dict) or not isinstance(value.get("name"), str):
        pytest.skip("no name to put wide characters in")
    original = _tokens(path, text, export)
    wide = dict(value)
    wide["name"] = "🚀 発射 𝄞 " + value["name"]
    one_line = json.dumps(wide, ensure_ascii=False)
    got = _tokens(path, one_line, export)
    assert [c for c, _, _ in got if c != "W_DOC_TOO_LARGE"] == [c for c, _, _ in original if c != "W_DOC_TOO_LARGE"]
    for (code, tok, is_key), (_, tok2, _) in zip(original, got):
        if code == "W_DOC_TOO_LARGE" or is_key or tok[:1] in "[{":
            continue
        assert tok2 == tok, code
