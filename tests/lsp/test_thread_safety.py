"""One analysis read from several threads at once (issue 13 follow-up: the analysis worker, the request
worker and the event loop share each version's Analysis). Its lazy caches (line index, the source
map's lazily indexed nodes, the counted line offsets, width tables) must give every thread the same
answers a single thread gets, and never raise.

Each round: a large document (about 150k characters, a few broken edges so code actions have work),
edited between rounds; the reference answers come from one thread on a fresh analysis, then eight
threads ask the same questions, in different orders, of another fresh analysis of the same text,
with the interpreter switching threads every 10 µs to make interleavings likely."""

from __future__ import annotations

import json
import random
import sys
import threading

from grooph_core.ide.grooph import actions as core
from grooph_core.ide.grooph.analysis import analyze
from grooph_core.ide.grooph.completion import complete_at
from grooph_core.ide.grooph.formatting import format_edits
from grooph_core.ide.grooph.hover import hover_at
from grooph_core.ide.grooph.navigation import document_symbols
from tests.lsp.docs import END, HEAD

THREADS = 8


def _big_text(n: int) -> str:
    nodes = [{"id": f"n{i}", "kind": "agent", "name": f"Step {i}", "role": "builder", "brief": "Do it. " * 8,
              "outputs": [f"out{i}.txt"], "allow": ["edit-files"]} for i in range(n)] + [END]
    edges = [{"id": f"e{i}", "from": f"n{i}", "to": f"n{i + 1}" if i + 1 < n else "end"} for i in range(n)]
    edges += [{"id": f"x{i}", "from": f"n{i}", "to": f"ghost{i}"} for i in range(0, n, 97)]  # dangling: fixes
    return json.dumps({**HEAD, "nodes": nodes, "edges": edges, "loops": []}, indent=2)


def _offsets(text: str, rng: random.Random) -> list[int]:
    return sorted(rng.randrange(len(text)) for _ in range(40)) + [text.find('"n7"') + 2, len(text) // 2]


def _questions(analysis, offsets: list[int]) -> list:
    """Every answer a handler reads from the analysis, as plain comparable values."""
    lines = analysis.line_index
    out: list = []
    for i in offsets:
        out.append(("hover", i, repr(hover_at(analysis, i))))
        out.append(("complete", i, repr(complete_at(analysis, i))))
        out.append(("pointer", i, analysis.parsed.source_map.pointer_at(i), lines.position(i), lines.position(i, "utf-8")))
    out.append(("symbols", repr(document_symbols(analysis.value, analysis.kind))))
    out.append(("issues", [(i.code, analysis.span(i), lines.range(*analysis.span(i))) for i in analysis.issues]))
    out.append(("format", repr(format_edits(analysis))))
    offers = core.fix_offers(analysis, list(analysis.issues[:6]))
    out.append(("offers", [(o.title, o.issue.code) for o in offers]))
    out.append(("resolve", [repr(core.resolve_offer(analysis, o.issue, o.title)) for o in offers[:2]]))
    return out


def _threaded(text: str, offsets: list[int]) -> tuple[list[list], list[BaseException]]:
    analysis = analyze(text, name="big.grooph.json")
    answers: list[list] = [[] for _ in range(THREADS)]
    errors: list[BaseException] = []
    start = threading.Barrier(THREADS)

    def ask(k: int) -> None:
        try:
            order = offsets[k % 3:] + offsets[:k % 3] if k % 2 else offsets[::-1]
            start.wait()
            got = _questions(analysis, order)
            answers[k] = got
        except BaseException as e:  # noqa: BLE001 - the test reports every failure
            errors.append(e)

    threads = [threading.Thread(target=ask, args=(k,)) for k in range(THREADS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return answers, errors


def test_answers_from_many_threads_equal_one_threads():
    rng = random.Random(13)
    text = _big_text(300)
    assert len(text) > 100_000
    before = sys.getswitchinterval()
    try:
        for round_ in range(3):
            offsets = _offsets(text, rng)
            reference = {}
            for q in _questions(analyze(text, name="big.grooph.json"), offsets):
                reference[repr(q[:2])] = q
            sys.setswitchinterval(1e-5)
            answers, errors = _threaded(text, offsets)
            sys.setswitchinterval(before)
            assert errors == [], f"round {round_}: {errors[:3]}"
            for k, got in enumerate(answers):
                assert got, f"thread {k} gave no answers"
                for q in got:
                    assert q == reference[repr(q[:2])], f"round {round_}, thread {k}: {q[:2]} differs"
            # an edit between rounds: a title retyped somewhere, then a line inserted
            at = text.find('"Step ', rng.randrange(len(text) // 2))
            text = text[:at] + '"Retyped ' + text[at + 6:]
            at = text.find("\n", rng.randrange(len(text)))
            text = text[:at] + "\n" + text[at:]
    finally:
        sys.setswitchinterval(before)


def test_quick_fixes_stop_between_candidates():
    """A non-resolving client's quick fixes are checked in the request worker; a newer version or a
    cancelled request stops them (`stop()`), and a stop that never fires changes nothing."""
    import pytest

    from grooph_core.ops.repairs import Stopped

    analysis = analyze(_big_text(20), name="big.grooph.json")
    issues = list(analysis.issues)
    assert issues
    full = core.quick_fixes(analysis, issues)
    assert full
    assert core.quick_fixes(analysis, issues, stop=lambda: False) == full
    with pytest.raises(Stopped):
        core.quick_fixes(analysis, issues, stop=lambda: True)
