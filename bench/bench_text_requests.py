"""`python -m bench.bench_text_requests`: what the editor draws into the text (issue 31 items 3, 5, 6) on a
graph, a map and a workflow of about 24k and 1M characters, in process CPU time (median of 5, each on a
fresh analysis of the text, so that every lazy index the request needs is built inside the timing):
inlay hints and semantic tokens of a screenful (60 lines in the middle), semantic tokens of the whole
text (the core's tokens and their LSP integers), a delta after one edit, and the document links.
Targets: a screenful ≤ 5 ms at 24k and ≤ 100 ms at 1M."""

from __future__ import annotations

import argparse
import time

from bench.generate import graph_document, map_document
from bench.workflow_docs import workflow_text
from grooph_core.ide.kinds import kind_of_file
from grooph_lsp import convert

SCREEN = 60


def _median(fn, read, repeats: int) -> tuple[float, object]:
    times, out = [], None
    for _ in range(repeats):
        analysis = read()
        t0 = time.process_time()
        out = fn(analysis)
        times.append(time.process_time() - t0)
    return sorted(times)[len(times) // 2], out


def _screen(analysis) -> tuple[int, int]:
    lines = analysis.line_index
    first = lines.line_count // 2
    return lines.line_start(first), lines.line_start(min(first + SCREEN, lines.line_count - 1))


def _full_data(analysis) -> list[int]:
    return convert.token_data(analysis.document_kind.semantic_tokens(analysis), analysis.line_index, "utf-16")


def _delta(analysis, before: list[int]):
    return convert.semantic_tokens_delta(before, _full_data(analysis), "r")


def bench(name: str, text: str, repeats: int) -> list[tuple[str, float, str]]:
    kind = kind_of_file(name)
    read = lambda: kind.read(text, name=name)  # noqa: E731
    # one reference in the middle misspelt: its token is marked, what follows it on its line moves
    mark = "target: " if name.endswith(".yaml") else '"to": "'
    at = text.index(mark, len(text) // 2) + len(mark)
    edited = text[:at] + "z" + text[at:]
    read_edited = lambda: kind.read(edited, name=name)  # noqa: E731
    rows = []
    t, hints = _median(lambda a: a.document_kind.inlay_hints(a, *_screen(a)), read, repeats)
    rows.append(("inlay hints, a screenful", t, f"{len(hints)} hints"))
    t, toks = _median(lambda a: a.document_kind.semantic_tokens(a, *_screen(a)), read, repeats)
    rows.append(("semantic tokens, a screenful", t, f"{len(toks)} tokens"))
    t, data = _median(_full_data, read, repeats)
    rows.append(("semantic tokens, full", t, f"{len(data) // 5:,} tokens"))
    t, delta = _median(lambda a: _delta(a, data), read_edited, repeats)
    rows.append(("semantic tokens, delta after an edit", t, f"{sum(len(e.data) for e in delta.edits)} integers sent"))
    t, links = _median(lambda a: a.document_kind.document_links(a, None), read, repeats)
    rows.append(("document links", t, f"{len(links)} links"))
    return rows


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--sizes", type=int, nargs="+", default=[24_000, 1_000_000])
    p.add_argument("--repeats", type=int, default=5)
    args = p.parse_args()
    for size in args.sizes:
        docs = [("bench.grooph.json", graph_document(size).text), ("bench.grooph-map.json", map_document(size).text),
                ("bench.workflow.yaml", workflow_text(size))]
        for name, text in docs:
            print(f"{name} ({len(text):,} characters)")
            for what, t, note in bench(name, text, args.repeats):
                print(f"  {what:<38} {t * 1000:8.1f} ms  ({note})")


if __name__ == "__main__":
    main()
