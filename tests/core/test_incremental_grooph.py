"""The editor's analysis of a graph or map after an edit, made from the analysis before it (issue 33, item 2),
is the analysis of the text read afresh: the same issues at the same places, the same value, the same items
left out, the same spans for every pointer an issue names.

`analyze(text, previous=a)` reads the text from `a`'s last clean reading where the edit lies inside one value
(`source/json_splice.py`), else whole. Random chains of edits (seeded: characters typed and deleted, pastes,
lines deleted, edits in ids, in strings, at the edges of items, the syntax broken and repaired) run on the
fixtures and on the benchmark's documents; each version is analysed from the one before, as the server
does, and compared with `analyze(text)`. The shape follows the workflow's (`test_incremental_analysis.py`).
"""

from __future__ import annotations

import json
import random
import zlib
from pathlib import Path

import pytest

from bench.generate import graph_document, map_document
from grooph_core.ide.grooph.analysis import ITEM_LISTS, analyze
from grooph_core.source import json_splice
from grooph_core.source.json_reader import parse
from tests.core.test_incremental_analysis import _said

ROOT = Path(__file__).parents[2]
FIXTURES = sorted([*ROOT.glob("fixtures/valid/*.grooph.json"), *ROOT.glob("fixtures/invalid/*/*.grooph.json"),
                   *ROOT.glob("fixtures/maps/*/*.grooph-map.json"), *ROOT.glob("fixtures/maps/invalid/*/*.grooph-map.json")])
BENCH = {d.name: d.text for d in (graph_document(24_000), graph_document(24_000, faults=True),
                                  map_document(24_000), map_document(24_000, faults=True))}


def assert_same(got, fresh) -> None:
    """`got` (made from an earlier analysis) says and answers what `fresh` (read afresh) does."""
    assert _said(got) == _said(fresh)
    assert got.parsed.value == fresh.parsed.value
    assert (got.parsed.ok, got.parsed.problems, got.parsed.broken, got.parsed.open_at_end) == \
        (fresh.parsed.ok, fresh.parsed.problems, fresh.parsed.broken, fresh.parsed.open_at_end)
    assert got.pruned == fresh.pruned
    assert got.kind == fresh.kind
    value = fresh.parsed.value if isinstance(fresh.parsed.value, dict) else {}
    items = [f"/{k}/{i}" for k in ITEM_LISTS[fresh.kind] if isinstance(value.get(k), list) for i in range(len(value[k]))]
    for p in items + [p + "/id" for p in items]:  # every item of the top-level lists, where the rules' findings go
        assert got.parsed.source_map.value_span(p) == fresh.parsed.source_map.value_span(p), p
    for issue in fresh.issues:
        for p in (*issue.pointers, *(r[0] for r in issue.related)):
            assert got.pointer_span(p) == fresh.pointer_span(p), p
            assert got.pointer_span(p, key=True) == fresh.pointer_span(p, key=True), p


class _Splices:
    """How many readings were spliced (not read whole)."""

    def __init__(self, monkeypatch) -> None:
        self.count = 0
        real = json_splice.spliced

        def spliced(prev, text, **kw):
            got = real(prev, text, **kw)
            self.count += got is not None
            return got

        monkeypatch.setattr(json_splice, "spliced", spliced)


_LETTERS = "abcxyz019-_ "
_MARKS = '"\\,:{}[]\n'


def _char(rng: random.Random) -> str:
    return rng.choice(_LETTERS) if rng.random() < 0.75 else rng.choice(_MARKS)


def _inside(rng: random.Random, text: str, mark: str) -> int | None:
    """An offset a little after a random occurrence of `mark` (inside the value it starts, mostly)."""
    found, i = [], text.find(mark)
    while i >= 0:
        found.append(i)
        i = text.find(mark, i + 1)
    if not found:
        return None
    return max(0, min(len(text), rng.choice(found) + len(mark) + rng.randint(-1, 4)))


def _reads(text: str) -> bool:
    try:
        json.loads(text)
    except ValueError:
        return False
    return True


def _edit(rng: random.Random, text: str, history: list, broken: bool) -> str:
    """One random edit of `text`; now and then (more often while it is broken) one taken back instead
    (`history`: the texts before)."""
    if history and broken and rng.random() < 0.4:  # the syntax repaired: back to the last text that read
        while len(history) > 1 and not _reads(history[-1]):
            history.pop()
        return history.pop()
    if history and rng.random() < 0.1:
        return history.pop()
    history.append(text)
    n = len(text)
    kind = rng.choices(["string", "id", "number", "edge", "type", "delete", "paste", "line", "break"],
                       [40, 10, 5, 10, 10, 5, 5, 5, 5])[0]
    at = rng.randrange(n + 1)
    mark = {"string": '": "', "id": '"id": "', "number": '": 1', "edge": "},"}.get(kind)
    if mark is not None:
        at = _inside(rng, text, mark)
        if at is None:
            return text
        if rng.random() < 0.3 and at < n:
            return text[:at] + text[at + 1:]
        return text[:at] + (rng.choice("0123456789") if kind == "number" else _char(rng)) + text[at:]
    if kind == "type":
        return text[:at] + _char(rng) + text[at:]
    if kind == "delete" and n:
        at = min(at, n - 1)
        return text[:at] + text[at + rng.randint(1, 3):]
    if kind == "paste":
        a = rng.randrange(n)
        return text[:at] + text[a:a + rng.randint(1, 80)] + text[at:]
    if kind == "line":
        a = text.rfind("\n", 0, at) + 1
        b = text.find("\n", at)
        return text[:a] + text[b + 1:] if b >= 0 else text[:a]
    # the syntax broken: a bracket or a quote typed (taken back by a later step, now and then)
    return text[:at] + rng.choice('{["},') + text[at:]


def _chain(text: str, name: str, seed: int, steps: int) -> None:
    rng = random.Random(seed)
    previous = analyze(text, name=name)
    history: list[str] = []
    for step in range(steps):
        text = _edit(rng, text, history, not previous.parsed.ok)
        got = analyze(text, name=name, previous=previous)
        try:
            assert_same(got, analyze(text, name=name))
        except AssertionError as e:
            raise AssertionError(f"seed {seed}, step {step}") from e
        previous = got


@pytest.mark.parametrize("path", FIXTURES, ids=[p.name for p in FIXTURES])
def test_random_edits_of_a_fixture_read_as_afresh(path, monkeypatch):
    splices = _Splices(monkeypatch)
    text = path.read_text("utf-8")
    _chain(text, path.name, seed=zlib.crc32(path.name.encode()), steps=40)
    clean = parse(text)
    assert splices.count > 0 or not clean.ok or clean.problems or type(clean.value) is not dict


@pytest.mark.parametrize("name", list(BENCH))
@pytest.mark.parametrize("seed", range(3))
def test_random_edits_of_a_benchmark_document_read_as_afresh(name, seed, monkeypatch):
    splices = _Splices(monkeypatch)
    _chain(BENCH[name], name, seed, steps=80)
    assert splices.count >= 20  # (about a third to a half of the versions read clean and are spliced)


def test_a_broken_text_keeps_the_last_clean_reading_as_its_base(monkeypatch):
    """While the text does not read (a quote typed into an id runs the string on), the last clean reading
    stays the base, and the first keystroke after the repair is spliced from it."""
    name, text = "g.grooph.json", BENCH["bench-24000.grooph.json"]
    at = text.index('"id": "', len(text) // 2) + 8
    clean = analyze(text, name=name)
    broken = analyze(text[:at] + '"' + text[at:], name=name, previous=clean)
    assert not broken.parsed.ok and broken.base is clean.parsed and broken.reusable
    still = analyze(text[:at] + '"x' + text[at:], name=name, previous=broken)
    assert still.base is clean.parsed
    splices = _Splices(monkeypatch)
    repaired = text[:at] + "x" + text[at:]
    got = analyze(repaired, name=name, previous=still)
    assert splices.count == 1
    assert_same(got, analyze(repaired, name=name))
    assert got.base is got.parsed
    # an edit undone gives the base reading back as it is
    assert analyze(text, name=name, previous=got).parsed.value == clean.parsed.value
    assert analyze(text, name=name, previous=broken).parsed is clean.parsed
