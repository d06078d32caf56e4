"""What the server holds for one open document once it is analysed (issue 24), measured with tracemalloc
in this process: its own copy of the text, the open document, and the scheduler's result for that
version (the analysis: parsed value, source map, line index, issues; and the diagnostics in LSP form),
built by the server's own `_compute`, as the worker thread builds it. The peak while a message is
decoded or a version is analysed is not in it (that is the VmHWM column); only the last version is
held (the scheduler drops the previous result when a change arrives).

`python -m bench.held_memory` prints the figures for the 1M graph, map and workflow.
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


def main() -> None:
    from bench.generate import graph_document, map_document
    from bench.workflow_docs import workflow_text

    for name, text in ((d.name, d.text) for d in (graph_document(1_000_000), map_document(1_000_000))):
        _print(name, text)
    _print("bench-1000000.workflow.yaml", workflow_text(1_000_000))


def _print(name: str, text: str) -> None:
    h = held(text, name)
    parts = ", ".join(f"{k} {v / 1e6:.1f} MB" for k, v in h["parts"].items())
    print(f"{name}: {len(text):,} characters; held {h['bytes'] / 1e6:.1f} MB = {h['over_text']:.1f}x the UTF-8 size "
          f"({parts}; {h['issues']} diagnostics)")


if __name__ == "__main__":
    main()
