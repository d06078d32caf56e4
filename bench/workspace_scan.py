"""The first workspace scan (issue 17): how long the real server takes to check every document of a
workspace nobody has opened, how much memory that costs, and whether it keeps answering meanwhile.

Usage (from the repository root):

    python bench/workspace_scan.py                 # 1,000 generated documents
    python bench/workspace_scan.py --documents 200 --out /tmp/scan.json

It writes N documents from bench/generate.py into a temporary folder (graphs of ~2k and ~24k
characters and maps of ~6k, half of them with faults, in folders of 50, plus a `.gitignore`d folder
and a `node_modules` that must be skipped), starts `python -m grooph_lsp` over stdio with that folder
as its workspace and workspace diagnostics off, reads its idle memory, then turns the setting on
(which starts the same scan the server runs at start-up) and measures, until the scan's
`$/progress` end: the wall time, the server's CPU time, the documents published, the peak resident
memory (VmHWM) and its growth over idle, and the slowest of the hovers sent every 100 ms during
the scan (the event loop must stay free). Nothing here asserts a timing.
"""

from __future__ import annotations

import argparse
import json
import os
import queue
import sys
import tempfile
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.generate import graph_document, map_document  # noqa: E402
from bench.lsp_client import LspServerProcess  # noqa: E402

PER_FOLDER = 50


def write_workspace(folder: Path, n: int) -> list[Path]:
    """N documents (a fixed mix), plus files the scan must skip."""
    templates = [graph_document(2_000), graph_document(2_000, faults=True), graph_document(24_000),
                 graph_document(24_000, faults=True), map_document(6_000), map_document(6_000, faults=True)]
    weights = [3, 3, 1, 1, 1, 1]  # mostly small graphs, as a real repository holds
    mix = [t for t, w in zip(templates, weights) for _ in range(w)]
    paths = []
    for i in range(n):
        doc = mix[i % len(mix)]
        suffix = ".grooph-map.json" if doc.kind == "map" else ".grooph.json"
        p = folder / f"part{i // PER_FOLDER:03}" / f"doc{i:05}{suffix}"
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(doc.text, encoding="utf-8")
        paths.append(p)
    (folder / ".gitignore").write_text("generated/\n", encoding="utf-8")
    for skipped in ("generated/x.grooph.json", "node_modules/pkg/y.grooph.json"):
        q = folder / skipped
        q.parent.mkdir(parents=True, exist_ok=True)
        q.write_text(templates[0].text, encoding="utf-8")
    (folder / "package.json").write_text('{"name": "not-grooph"}\n', encoding="utf-8")
    return paths


class WorkspaceServer(LspServerProcess):
    """The benchmark's server process, initialized with a workspace folder and progress support."""

    def __init__(self, cwd: str, root: Path, timeout: float = 600.0) -> None:
        self._root = root
        super().__init__(cwd, init_options={"grooph": {"debounceMs": 0, "workspaceDiagnostics": False}}, timeout=timeout)

    def request(self, method: str, params: dict):
        if method == "initialize":
            params = dict(params, rootUri=self._root.as_uri(),
                          workspaceFolders=[{"uri": self._root.as_uri(), "name": "bench"}])
            caps = dict(params["capabilities"])
            caps["window"] = {"workDoneProgress": True}
            params["capabilities"] = caps
        return super().request(method, params)


def measure(n: int, server_root: Path = ROOT) -> dict:
    """The figures of one first scan of `n` documents, by the server of the checkout `server_root`."""
    with tempfile.TemporaryDirectory(prefix="grooph-scan-") as tmp:
        root = Path(tmp)
        paths = write_workspace(root, n)
        total_chars = sum(len(p.read_text("utf-8")) for p in paths)
        first = paths[0]
        with WorkspaceServer(str(server_root), root) as server:
            time.sleep(0.5)
            idle = server.status("VmHWM")
            server.notify("textDocument/didOpen", {"textDocument": {
                "uri": first.as_uri(), "languageId": "grooph", "version": 1, "text": first.read_text("utf-8")}})
            cpu0 = server.cpu_seconds()
            t0 = server.notify("workspace/didChangeConfiguration", {"settings": {"grooph": {"workspaceDiagnostics": True}}})
            published: set[str] = set()
            hovers: list[float] = []
            next_hover = t0 + 0.1
            end_at = None
            reports = 0
            while end_at is None:
                if time.perf_counter() >= next_hover:
                    ms, _ = server.timed_request("textDocument/hover", {
                        "textDocument": {"uri": first.as_uri()}, "position": {"line": 2, "character": 5}})
                    hovers.append(ms)
                    next_hover = time.perf_counter() + 0.1
                try:
                    got = server.notifications.get(timeout=0.05)
                except queue.Empty:
                    if time.perf_counter() - t0 > server.timeout:
                        raise TimeoutError("the scan did not end")
                    continue
                m = got.message
                if m.get("method") == "textDocument/publishDiagnostics":
                    published.add(m["params"]["uri"])
                elif m.get("method") == "$/progress":
                    kind = m["params"]["value"].get("kind")
                    reports += kind == "report"
                    if kind == "end":
                        end_at = got.at
            cpu = server.cpu_seconds() - cpu0
            peak = server.status("VmHWM")
        skipped_reported = [u for u in published if "generated" in u or "node_modules" in u or "package.json" in u]
        return {
            "documents": n, "characters": total_chars, "scan_s": round(end_at - t0, 3), "server_cpu_s": round(cpu, 3),
            "per_document_ms": round((end_at - t0) * 1000 / n, 2), "published": len(published),
            "progress_reports": reports, "idle_hwm_kb": idle, "peak_hwm_kb": peak, "growth_kb": peak - idle,
            "hovers": len(hovers), "hover_max_ms": round(max(hovers), 1) if hovers else None,
            "hover_median_ms": round(sorted(hovers)[len(hovers) // 2], 1) if hovers else None,
            "skipped_but_reported": skipped_reported,
        }


def describe(result: dict) -> str:
    """The figures of `measure` as one paragraph."""
    text = (f"first workspace scan of {result['documents']:,} documents ({result['characters']:,} characters): "
            f"{result['scan_s']:.2f} s wall, {result['server_cpu_s']:.2f} s server CPU "
            f"({result['per_document_ms']:.1f} ms a document); {result['published']:,} published; "
            f"peak memory {result['peak_hwm_kb'] / 1024:.0f} MiB (+{result['growth_kb'] / 1024:.0f} MiB over idle); "
            f"{result['hovers']} hovers during the scan, slowest {result['hover_max_ms']} ms, median {result['hover_median_ms']} ms")
    if result["skipped_but_reported"]:
        text += f"\nignored files were reported: {result['skipped_but_reported']}"
    return text


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--documents", type=int, default=1000)
    ap.add_argument("--out", type=Path, default=None)
    args = ap.parse_args(argv)
    result = measure(args.documents)
    print(describe(result))
    if args.out:
        args.out.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
