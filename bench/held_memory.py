"""What the server holds for one open document once it is analysed (issue 24), measured with tracemalloc
in this process: its own copy of the text, the open document, and the scheduler's result for that
version (the analysis: parsed value, source map, line index, issues; and the diagnostics in LSP form),
built by the server's own `_compute`, as the worker thread builds it. The peak while a message is
decoded or a version is analysed is not in it (that is the VmHWM column); only the last version is
held (the scheduler drops the previous result when a change arrives).

`python -m bench.held_memory` prints the figures for the 1M graph, map and workflow; for the graph and map
also once a keystroke's analysis was made from the first one's (issue 33 item 2: the new reading shares
the unchanged items with the first one, which is dropped, as the scheduler drops it).
"""

from __future__ import annotations

import gc
import tracemalloc


def _grown(make) -> tuple[object, int]:
    gc.collect()
    before = tracemalloc.get_traced_memory()[0]
    made = make()
    gc.collect()
    return made, tracemalloc.get_traced_memory()[0] - before


def held(text: str, name: str) -> dict:
    """Bytes held for `text` (opened as `name`), in parts, and over its UTF-8 size."""
    from grooph_lsp.documents import OpenDocument
    from grooph_lsp.scheduler import Snapshot
    from grooph_lsp.server import GroophServer

    server = GroophServer()
    settings = server.settings
    uri = "untitled:" + name  # not a file: the workspace has nothing to read for it
    tracemalloc.start()
    try:
        own, text_bytes = _grown(lambda: "".join([text[:1], text[1:]]))  # the copy the JSON-RPC message made
        doc, doc_bytes = _grown(lambda: OpenDocument(uri, own, 1, ""))
        snap = Snapshot(uri, 1, own, name, (1, len(own), settings.complete, settings.max_chars, 0))
        (analysis, diagnostics), result_bytes = _grown(lambda: server._compute(snap))
        _, lines_bytes = _grown(lambda: doc.use_lines(analysis.line_index))  # type: ignore[union-attr]
    finally:
        tracemalloc.stop()
    total = text_bytes + doc_bytes + result_bytes + lines_bytes
    utf8 = len(text.encode("utf-8"))
    return {"bytes": total, "over_text": total / utf8, "issues": len(diagnostics),
            "parts": {"text": text_bytes, "open document": doc_bytes + lines_bytes,
                      "analysis and diagnostics": result_bytes}}


def held_after_keystroke(text: str, name: str, at: int) -> dict:
    """Bytes held for the document once a key typed at `at` was analysed from the first analysis (the
    first analysis and text dropped), over its UTF-8 size."""
    from grooph_lsp.documents import OpenDocument
    from grooph_lsp.scheduler import Snapshot
    from grooph_lsp.server import GroophServer

    server = GroophServer()
    settings = server.settings
    uri = "untitled:" + name
    tracemalloc.start()
    try:
        gc.collect()
        before = tracemalloc.get_traced_memory()[0]
        own = "".join([text[:1], text[1:]])
        doc = OpenDocument(uri, own, 1, "")
        first, _ = server._compute(Snapshot(uri, 1, own, name, (1, len(own), settings.complete, settings.max_chars, 0)))
        typed = own[:at] + "x" + own[at:]
        doc.set_text(typed)
        snap = Snapshot(uri, 2, typed, name, (2, len(typed), settings.complete, settings.max_chars, 0), first)
        (analysis, diagnostics) = server._compute(snap)
        del first, snap, own
        doc.use_lines(analysis.line_index)  # type: ignore[union-attr]
        gc.collect()
        total = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    return {"bytes": total, "over_text": total / len(text.encode("utf-8")), "issues": len(diagnostics)}


def main() -> None:
    from bench.generate import graph_document, map_document
    from bench.workflow_docs import workflow_text

    for d in (graph_document(1_000_000), map_document(1_000_000)):
        _print(d.name, d.text)
        h = held_after_keystroke(d.text, d.name, d.edit_at)
        print(f"{d.name} after a keystroke analysed from the first analysis: held {h['bytes'] / 1e6:.1f} MB = "
              f"{h['over_text']:.1f}x the UTF-8 size ({h['issues']} diagnostics)")
    _print("bench-1000000.workflow.yaml", workflow_text(1_000_000))


def _print(name: str, text: str) -> None:
    h = held(text, name)
    parts = ", ".join(f"{k} {v / 1e6:.1f} MB" for k, v in h["parts"].items())
    print(f"{name}: {len(text):,} characters; held {h['bytes'] / 1e6:.1f} MB = {h['over_text']:.1f}x the UTF-8 size "
          f"({parts}; {h['issues']} diagnostics)")


if __name__ == "__main__":
    main()
