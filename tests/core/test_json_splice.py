"""The reading of an edited graph or map made from the clean reading before it (issue 33, item 2;
`source/json_splice.py`): where it splices, it reads what `json.loads` reads, keeps every top-level
member and every item it did not re-read as the very same object, and its source map answers every
pointer and offset as a fresh map of the new text does; everywhere its docstring does not allow, it
declines (None: the caller reads the text whole).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bench.generate import graph_document, map_document
from grooph_core.source.json_reader import MAX_DEPTH, parse
from grooph_core.source.json_splice import reading, spliced
from grooph_core.source.source_map import SourceMap
from grooph_core.source.text import edited_span, pointer_escape
from tests.core.test_incremental_analysis import _pointers

ROOT = Path(__file__).parents[2]
REVIEW_LOOP = (ROOT / "fixtures" / "valid" / "review-loop.grooph.json").read_text("utf-8")
BAKERY = (ROOT / "fixtures" / "maps" / "valid" / "bakery-ops.grooph-map.json").read_text("utf-8")
GRAPH_24K = graph_document(24_000).text
MAP_24K = map_document(24_000).text


def assert_same_map(got: SourceMap, text: str, pointers, offsets) -> None:
    """`got` answers the pointers and offsets as a fresh map of `text` does."""
    fresh = SourceMap.for_valid(text)
    for p in pointers:
        assert (got.value_span(p), got.key_span(p)) == (fresh.value_span(p), fresh.key_span(p)), p
    for o in offsets:
        assert got.pointer_at(o) == fresh.pointer_at(o), o
        assert got.enclosing_object(o) == fresh.enclosing_object(o), o


def _replaced(text: str, old: str, new: str, nth: int = 0) -> str:
    at = -1
    for _ in range(nth + 1):
        at = text.index(old, at + 1)
    return text[:at] + new + text[at + len(old):]


def _edited_items(text: str, value: dict, new: str) -> tuple[str, int | None, int | None]:
    """(member, j1, j2) of what the edit changed, found with a fresh map of `text`: the top-level member
    whose value it lies strictly inside, and when that is an array, its items j1 .. j2 - 1 (those
    ending before the edit's start are before j1, those starting after its end from j2 on)."""
    a, b, _ = edited_span(text, new)
    sm = SourceMap.for_valid(text)
    for k, v in value.items():
        vs, ve = sm.value_span("/" + pointer_escape(k))
        if vs < a and b < ve:
            if type(v) is not list:
                return k, None, None
            spans = [sm.value_span(f"/{pointer_escape(k)}/{i}") for i in range(len(v))]
            j1 = sum(1 for s, e in spans if e < a)
            j2 = next((i for i, (s, e) in enumerate(spans) if s > b), len(v))
            return k, j1, j2
    raise AssertionError("the edit is not inside one value")


def check_spliced(text: str, new: str, *, asked_before: bool = True):
    """Splice `new` from the reading of `text` and check the whole contract; returns the new reading."""
    prev = parse(text)
    if asked_before:  # the analysis placed issues: the map's top level is indexed
        prev.source_map.pointer_at(len(text) // 2)
    got = spliced(prev, new)
    assert got is not None
    fresh = json.loads(new)
    assert got.value == fresh and list(got.value) == list(fresh)
    assert got.ok and not got.problems and not got.broken and not got.open_at_end and got.text is new
    member, j1, j2 = _edited_items(text, prev.value, new)
    assert type(got.value) is dict and got.value is not prev.value
    for k, v in prev.value.items():
        if k != member:
            assert got.value[k] is v, k
        elif j1 is not None:  # an array: it is new, every item the edit left alone the same object
            now = got.value[k]
            assert now is not v
            assert all(now[i] is v[i] for i in range(j1))
            assert all(now[len(now) - len(v) + i] is v[i] for i in range(j2, len(v)))
    # the pointers of the edited items (or value) and their neighbours, a sample of all of them, offsets
    near = []
    if j1 is None:
        bases = ["/" + pointer_escape(member)]
    else:
        bases = [f"/{pointer_escape(member)}/{i}" for i in range(j1 - 1, j2 + len(got.value[member]) - len(prev.value[member]) + 1)]
    for base in bases:
        near += [p for p in _pointers(fresh) if p == base or p.startswith(base + "/")]
    everything = list(_pointers(fresh))
    sample = everything[:: max(1, len(everything) // 300)]
    offsets = range(0, len(new) + 1, max(1, len(new) // 300))
    assert_same_map(got.source_map, new, near + sample, offsets)
    # around the edit, every offset
    a, _, b = edited_span(text, new)
    assert_same_map(got.source_map, new, [], range(max(0, a - 40), min(len(new), b + 40) + 1))
    return got


def _whole_items(text: str, how: str | None) -> str:
    """Edits of whole items, found with a fresh map: the 3rd node emptied, the 5th edge deleted with its
    comma, a list emptied, the 2nd and 3rd session pasted after the 6th."""
    sm = SourceMap.for_valid(text)
    if how is None:  # the 3rd node emptied: everything between its braces deleted
        a, b = sm.value_span("/nodes/2")
        return text[:a + 1] + text[b - 1:]
    if how == "edge":
        a, b = sm.value_span("/edges/4")[0], sm.value_span("/edges/5")[0]
        return text[:a] + text[b:]
    if how == "paste":
        a, b = sm.value_span("/sessions/1")[0], sm.value_span("/sessions/3")[0]
        at = sm.value_span("/sessions/6")[0]
        return text[:at] + text[a:b] + text[at:]
    a, b = sm.value_span("/" + how)
    return text[:a] + "[]" + text[b:]


ACCEPTED = {
    "a character typed in a node's name": (REVIEW_LOOP, '"name": "Plan"', '"name": "Planx"'),
    "a character deleted from a node's id": (REVIEW_LOOP, '"id": "build"', '"id": "buld"'),
    "a field pasted into a node": (REVIEW_LOOP, '"effort": "high",', '"effort": "high",\n      "note": "pasted",'),
    "a line deleted inside a node": (REVIEW_LOOP, '      "effort": "high",\n', ""),
    "an edge's end renamed": (GRAPH_24K, '"to": "', '"to": "x'),
    "a digit typed inside a number": (REVIEW_LOOP, '"limit": 12', '"limit": 152'),
    "the description (a top-level string)": (REVIEW_LOOP, '"description": "A planner', '"description": "A xplanner'),
    "inside the target (a top-level object)": (REVIEW_LOOP, '"harness": "claude-code"', '"harness": "claude-codex"'),
    "an item emptied to {}": (GRAPH_24K, None, None),
    "a session's name in a map": (MAP_24K, '"name": "', '"name": "yy'),
    "a handoff in a map": (BAKERY, '"handoffs": [\n    {', '"handoffs": [\n    {"note": 1,'),
    "a string item of a list inside an item": (REVIEW_LOOP, '"PLAN.md"', '"PLAN.mdx"'),
    "a key renamed inside an item": (REVIEW_LOOP, '"effort": "high"', '"efort": "high"'),
    "a line break typed inside a string value's item": (REVIEW_LOOP, '"role": "planner",', '"role": "planner",\n'),
}


# Edits between items of a top-level list, or across item edges, that leave a valid text: the items
# between the last one before the edit and the first one after it are read again, the rest kept.
ACCEPTED.update({
    "`}, {` typed inside an item (two items now)": (REVIEW_LOOP, '"effort": "high",', '"effort": "high"}, {"id": "z",'),
    "an item added between items": (REVIEW_LOOP, '\n    },\n    {\n      "id": "build"', '\n    },\n    {},\n    {\n      "id": "build"'),
    "an item added first": (REVIEW_LOOP, '"nodes": [\n', '"nodes": [{"id": "first"},\n'),
    "an item added last": (REVIEW_LOOP, '"scope": "graph"\n    }\n  ]', '"scope": "graph"\n    }, {"id": "last"}\n  ]'),
    "an edge deleted whole": (GRAPH_24K, None, "edge"),
    "a list emptied": (BAKERY, None, "lanes"),
    "items pasted between items of a map": (MAP_24K, None, "paste"),
})


@pytest.mark.parametrize("case", list(ACCEPTED.values()), ids=list(ACCEPTED))
@pytest.mark.parametrize("asked_before", [True, False], ids=["indexed", "lazy"])
def test_an_edit_inside_one_value_is_spliced(case, asked_before):
    text, old, new = case
    edited = _replaced(text, old, new) if old is not None else _whole_items(text, new)
    check_spliced(text, edited, asked_before=asked_before)


def test_a_chain_of_splices_carries_the_map():
    """Each keystroke's reading is spliced from the one before (the carried map included), in items
    before and after the one edited before; every version answers as a fresh map."""
    text = GRAPH_24K
    prev = parse(text)
    prev.source_map.value_span("/edges/3/id")
    marks = [text.index('"name": "', text.index('"nodes"')), text.index('"to": "', len(text) // 2),
             text.index('"name": "', len(text) // 3)]
    for n in range(12):
        at = marks[n % 3] + 9 + (n // 3)
        new = text[:at] + "k" + text[at:]
        got = spliced(prev, new)
        assert got is not None, n
        assert got.value == json.loads(new)
        marks = [m + 1 if m > at else m for m in marks]
        text, prev = new, got
    assert_same_map(prev.source_map, text, list(_pointers(prev.value)), range(0, len(text) + 1, 7))


REFUSED = {
    "a quote that lets a string run past the item": (REVIEW_LOOP, '"role": "planner"', '"role": "planner\\"'),
    "the comma between two items": (REVIEW_LOOP, '\n    },\n    {\n      "id": "build"', '\n    }\n    {\n      "id": "build"'),
    "an item's opening brace": (REVIEW_LOOP, '{\n      "id": "build"', '[\n      "id": "build"'),
    "an item's closing brace": (REVIEW_LOOP, '"PLAN.md"\n      ],\n      "allow": [\n        "read-files",\n        "write-outputs"\n      ]\n    }',
                                '"PLAN.md"\n      ],\n      "allow": [\n        "read-files",\n        "write-outputs"\n      ]\n    ]'),
    "a trailing comma typed before a list's end": (REVIEW_LOOP, '"scope": "graph"\n    }\n  ]', '"scope": "graph"\n    },\n  ]'),
    "two items with no comma between": (REVIEW_LOOP, '\n    },\n    {\n      "id": "build"', '\n    },\n    {}\n    {\n      "id": "build"'),
    "a comma before a list's first item": (REVIEW_LOOP, '"nodes": [\n', '"nodes": [,\n'),
    "a list's bracket": (REVIEW_LOOP, '"nodes": [\n', '"nodes": {\n'),
    "a top-level key renamed": (REVIEW_LOOP, '"goal":', '"goals":'),
    "a top-level member added": (REVIEW_LOOP, '"goal":', '"extra": 1, "goal":'),
    "a key written twice in an item": (REVIEW_LOOP, '"effort": "high",', '"effort": "high", "effort": "low",'),
    "a number a double cannot hold": (REVIEW_LOOP, '"effort": "high",', '"effort": "high", "n": 12345678901234567890,'),
    "NaN": (REVIEW_LOOP, '"effort": "high",', '"effort": NaN,'),
    "a syntax fault inside an item": (REVIEW_LOOP, '"effort": "high",', '"effort": "high",,'),
    "a control character in a string": (REVIEW_LOOP, '"role": "planner"', '"role": "plan\tner"'),
    "a number made two numbers": (REVIEW_LOOP, '"limit": 12', '"limit": 1 2'),
    "a digit typed after a number's last digit": (REVIEW_LOOP, '"version": 3', '"version": 34'),
    "the root's closing brace": (REVIEW_LOOP, None, None),
}


@pytest.mark.parametrize("case", list(REFUSED.values()), ids=list(REFUSED))
def test_an_edit_that_is_not_one_value_read_alone_is_declined(case):
    text, old, new = case
    edited = text.rstrip() + "x" if old is None else _replaced(text, old, new)
    assert spliced(parse(text), edited) is None
    got, whole = reading(edited, earlier=parse(text)), parse(edited)  # read whole: the same reading
    assert (got.value, got.ok, got.problems, got.broken) == (whole.value, whole.ok, whole.problems, whole.broken)


def test_nesting_past_the_limit_inside_an_item_is_declined():
    """An item nesting deeper than the whole reading allows at its level (the root 1, the list 2, the
    item 3) is not spliced: the whole reading says E_DOC_LIMIT. One level less is spliced."""
    deep = "[" * (MAX_DEPTH - 2) + "]" * (MAX_DEPTH - 2)
    ok = "[" * (MAX_DEPTH - 3) + "]" * (MAX_DEPTH - 3)
    marker = '"effort": "high",'
    assert check_spliced(REVIEW_LOOP, _replaced(REVIEW_LOOP, marker, f'"effort": "high", "n": {ok},'))
    too_deep = _replaced(REVIEW_LOOP, marker, f'"effort": "high", "n": {deep},')
    assert spliced(parse(REVIEW_LOOP), too_deep) is None
    assert [p.code for p in parse(too_deep).problems] == ["E_DOC_LIMIT"]


def test_only_a_clean_reading_of_an_object_is_a_base():
    """A reading with a problem (a duplicate key elsewhere), a broken one, or one whose root is not an
    object is no base: the next version is read whole."""
    dup = _replaced(REVIEW_LOOP, '"goal":', '"name": "again", "goal":')
    assert parse(dup).ok and parse(dup).problems
    assert spliced(parse(dup), _replaced(dup, '"role": "planner"', '"role": "plannerx"')) is None
    broken = REVIEW_LOOP.replace('"goal":', '"goal"', 1)
    assert spliced(parse(broken), _replaced(broken, '"role": "planner"', '"role": "plannerx"')) is None
    array = "[" + REVIEW_LOOP + "]"
    assert spliced(parse(array), _replaced(array, '"role": "planner"', '"role": "plannerx"')) is None
    assert spliced(parse(REVIEW_LOOP), REVIEW_LOOP) is None  # the same text: nothing to splice


def test_reading_gives_the_earlier_reading_back_for_the_same_text_and_reads_whole_past_the_limit():
    base = parse(REVIEW_LOOP)
    assert reading(REVIEW_LOOP, earlier=base) is base
    longer = _replaced(REVIEW_LOOP, '"role": "planner"', '"role": "plannerx"')
    limited = reading(longer, max_chars=len(REVIEW_LOOP), earlier=base)
    assert [p.code for p in limited.problems] == ["E_DOC_LIMIT"]


def test_edited_span_is_the_longest_common_prefix_then_suffix():
    """`edited_span` (blocks matched in place, shrinking) agrees with a character-by-character search,
    on short and long texts, ASCII and wider characters, edits at the ends and in the middle."""
    import random

    def slow(old: str, new: str):
        n = min(len(old), len(new))
        p = 0
        while p < n and old[p] == new[p]:
            p += 1
        s = 0
        while s < n - p and old[len(old) - 1 - s] == new[len(new) - 1 - s]:
            s += 1
        return p, len(old) - s, len(new) - s

    rng = random.Random(33)
    for k in range(120):
        old = "".join(rng.choice("ab\u00e9\U0001f600") for _ in range(rng.choice((0, 3, 70, 2100, 9000, 140_000))))
        new = list(old)
        for _ in range(rng.randint(0, 3)):
            i = rng.randint(0, len(new))
            if rng.random() < 0.5:
                new[i:i] = rng.choice("abc")
            elif new:
                del new[min(i, len(new) - 1)]
        new = "".join(new)
        assert edited_span(old, new) == slow(old, new), k


@pytest.mark.parametrize("text", [REVIEW_LOOP, BAKERY], ids=["graph", "map"])
def test_whenever_a_random_edit_is_spliced_it_is_the_whole_reading(text):
    """Random edits (characters typed and deleted anywhere, JSON's own marks included, pieces pasted):
    where `spliced` answers, the whole reading is clean and holds the same value, and the map answers
    every pointer alike; where the whole reading has any problem, `spliced` never answered."""
    import random

    rng = random.Random(7)
    prev = parse(text)
    answered = 0
    for _ in range(800):
        at = rng.randrange(len(text))
        roll = rng.random()
        if roll < 0.4:
            new = text[:at] + rng.choice('ab1 "\\{}[],:-.e\n') + text[at:]
        elif roll < 0.7:
            new = text[:at] + text[at + rng.randint(1, 4):]
        else:
            a = rng.randrange(len(text))
            new = text[:at] + text[a:a + rng.randint(1, 30)] + text[at:]
        got = spliced(prev, new)
        whole = parse(new)
        if got is None:
            continue
        answered += 1
        assert whole.ok and not whole.problems, new[max(0, at - 30):at + 30]
        assert got.value == whole.value
        assert_same_map(got.source_map, new, list(_pointers(whole.value)), ())
    assert answered > 50
