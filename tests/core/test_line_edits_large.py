"""`line_edits` on large texts (issue 8): formatting a big document replaces only the lines that
change, in the time of a few passes, and every diff applies back exactly."""

from __future__ import annotations

import json
import random

from grooph_core.ide.text_edits import apply_edits, line_edits


def _doc(n: int, order: str) -> str:
    items = []
    for i in range(n):
        item = {"id": f"n-{i}", "kind": "agent", "name": f"Step {i}", "brief": "Do it.", "outputs": ["a.md"]}
        if order == "reversed" and i % 50 == 7:  # a few objects whose keys move, as formatting does
            item = dict(reversed(list(item.items())))
        items.append(item)
    return json.dumps({"nodes": items}, indent=2) + "\n"


def test_reordered_keys_in_a_large_document_touch_only_those_objects():
    old, new = _doc(3000, "reversed"), _doc(3000, "canonical")
    assert old.count("\n") > 20_000  # past the size where a whole-document edit used to be sent
    edits = line_edits(old, new)
    assert apply_edits(old, edits) == new
    moved = sum(1 for i in range(3000) if i % 50 == 7)
    # each reordered object differs in at most its 7 member lines; nothing else is rewritten
    assert len(edits) <= 2 * moved
    assert sum(e.end - e.start for e in edits) <= moved * 7 * 40


def test_random_line_changes_apply_back_exactly():
    rng = random.Random(8)
    pool = ["{\n", "}\n", "},\n", "  ],\n", '  "x": 1,\n']
    for _ in range(60):
        lines = [rng.choice(pool + [f'  "id": "n-{rng.randint(0, 400)}",\n']) for _ in range(rng.randint(0, 1500))]
        new = list(lines)
        for _ in range(rng.randint(0, 40)):
            k = rng.randint(0, len(new))
            r = rng.random()
            if r < 0.35:
                new.insert(k, rng.choice(pool + ['  "y": 2,\n']))
            elif r < 0.7 and new:
                new.pop(min(k, len(new) - 1))
            elif new:
                new[min(k, len(new) - 1)] = '  "z": 3,\n'
        old_text, new_text = "".join(lines), "".join(new)
        edits = line_edits(old_text, new_text)
        assert apply_edits(old_text, edits) == new_text
        assert all(a.end <= b.start for a, b in zip(edits, edits[1:]))  # in order, not overlapping
