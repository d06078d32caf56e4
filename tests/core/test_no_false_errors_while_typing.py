"""No false finding from one keystroke-sized break, over every item of every valid fixture (issue 13).

For each object in a top-level list (a node, an edge, a loop, a session, a handoff…): its closing brace
deleted, a stray character typed inside it, a new object being typed after it, the comma after it
deleted, its `id` string left open, the text cut right after it or in its middle. The tolerant analysis must report
a syntax error, and beyond it only findings the intact document has too (same code and pointer): an
object in doubt may lose findings, it never causes one about something else."""

from __future__ import annotations

from pathlib import Path

import pytest

from grooph_core.ide.grooph.analysis import ITEM_LISTS, analyze

FIXTURES = Path(__file__).parents[2] / "fixtures"
DOCS = sorted((FIXTURES / "valid").glob("*.grooph.json")) + sorted((FIXTURES / "maps" / "valid").glob("*.grooph-map.json"))


def _items(path: Path):
    text = path.read_text(encoding="utf-8")
    a = analyze(text, name=path.name)
    for key in ITEM_LISTS[a.kind]:
        for i, item in enumerate(a.value.get(key) or []):
            if isinstance(item, dict):
                yield text, a, f"/{key}/{i}"


def _breaks(text: str, a, pointer: str):
    start, end = a.parsed.source_map.value_span(pointer)
    yield "closing brace deleted", text[: end - 1] + text[end:]
    yield "stray character", text[: start + 1] + "#" + text[start + 1:]
    yield "new object being typed after it", text[:end] + ',\n    {"id": "typing", "na' + text[end:]
    if text[end] == ",":
        yield "comma after it deleted", text[:end] + text[end + 1:]
    ids = a.parsed.source_map.value_span(pointer + "/id")
    if ids is not None:
        yield "id left open", text[: ids[1] - 1] + text[ids[1]:]
    # the text cut short there (a paste, a file still being written: issue 21)
    yield "text cut right after it", text[: end + 1]
    yield "text cut in the middle of it", text[: (start + end) // 2]


CASES = [(p, ptr) for p in DOCS for _, _, ptr in _items(p)]


@pytest.mark.parametrize(("path", "pointer"), CASES, ids=[f"{p.name.split('.')[0]}{ptr}" for p, ptr in CASES])
def test_one_break_causes_no_finding_the_intact_text_lacks(path, pointer):
    text = path.read_text(encoding="utf-8")
    a = analyze(text, name=path.name)
    intact = {(i.code, i.pointers[:1]) for i in a.issues}
    for what, broken in _breaks(text, a, pointer):
        b = analyze(broken, name=path.name)
        assert any(i.code == "E_SYNTAX" for i in b.issues), what
        extra = [(i.code, i.pointers[:1], i.message) for i in b.issues
                 if i.code != "E_SYNTAX" and (i.code, i.pointers[:1]) not in intact]
        assert extra == [], what
