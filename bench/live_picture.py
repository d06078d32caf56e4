"""How soon the live picture shows a new version (issue 29 item 4: within 100 ms of a publish at 24k).

Usage (from the repository root; needs Debian's Chromium, /usr/bin/chromium):

    python bench/live_picture.py                       # a 24k graph, 20 keystrokes
    python bench/live_picture.py --sizes 24000 240000 --repeats 30

The real server (`python -m grooph_lsp`, stdio, default settings) has a generated graph open
(bench/generate.py) and its live page (`grooph.preview`) open in headless Chromium (bench/headless_page.py).
Each keystroke (a ranged didChange typing or deleting a character in a node's name in the middle) is
timed from the moment the client has read that version's `publishDiagnostics` to the moment the page
has the new picture in its DOM (a MutationObserver on the picture's holder, `Date.now()`), and to the
page's next frame after it (drawn). Client and browser read the same clock. Also in-process: the
server's part alone, drawing the picture and writing its message (`live_picture._message`).
Nothing here asserts a timing.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.generate import graph_document  # noqa: E402
from bench.headless_page import CHROMIUM, HeadlessPage  # noqa: E402
from bench.lsp_client import LspServerProcess  # noqa: E402

TARGET_MS = 100.0
OBSERVE = """(function () {
  window.__shown = [];
  new MutationObserver(function () {
    var dom = Date.now();
    requestAnimationFrame(function () { setTimeout(function () { window.__shown.push([dom, Date.now()]); }, 0); });
  }).observe(document.getElementById('holder'), {childList: true});
  return true;
}())"""


def _stats(values: list[float]) -> dict:
    ordered = sorted(values)
    return {"median": statistics.median(ordered), "p95": ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))],
            "max": ordered[-1], "n": len(ordered)}


def server_part(text: str, name: str, repeats: int) -> dict:
    """The server's own work per redraw, in-process: the picture of the analysis and its JSON message."""
    from grooph_core.ide.kinds import analyse
    from grooph_lsp.live_picture import _message

    analysis = analyse(text, name=name)
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        _message(analysis, None, "auto")
        times.append((time.perf_counter() - t) * 1000)
    return _stats(times)


async def _keystrokes(server: LspServerProcess, uri: str, at_line: int, at_col: int, url: str, repeats: int) -> dict:
    page = await HeadlessPage().start()
    try:
        await page.open(url)
        await page.until("!!document.querySelector('#holder > svg')", timeout=60, what="the first picture")
        await page.evaluate(OBSERVE)
        offset_ms = (time.time() - time.perf_counter()) * 1000  # perf_counter stamps -> the wall clock
        dom, drawn = [], []
        for n in range(repeats):
            version = n + 2
            typing = n % 2 == 0
            start = {"line": at_line, "character": at_col}
            change = ({"range": {"start": start, "end": start}, "text": "x"} if typing else
                      {"range": {"start": start, "end": {"line": at_line, "character": at_col + 1}}, "text": ""})
            server.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version},
                                                     "contentChanges": [change]})
            got = await asyncio.to_thread(server.wait_diagnostics, uri, version)
            published = got.at * 1000 + offset_ms
            shown = await page.until(f"window.__shown.length > {n} && window.__shown[{n}]", timeout=30,
                                     what=f"picture {n + 1}")
            dom.append(shown[0] - published)
            drawn.append(shown[1] - published)
        return {"dom_ms": _stats(dom), "drawn_ms": _stats(drawn),
                "csp_or_script_errors": [e for e in page.logs if "Content Security Policy" in e or "exception" in e]}
    finally:
        await page.close()


def measure(sizes: tuple[int, ...] = (24_000,), repeats: int = 20) -> dict:
    """Per size: the publish -> page latencies and the server's part, or why it was not measured."""
    if not HeadlessPage.available():
        return {"skipped": f"{CHROMIUM} is not installed (Debian: apt-get install chromium)"}
    out = {}
    for size in sizes:
        doc = graph_document(size)
        with tempfile.TemporaryDirectory() as tmp:
            uri = (Path(tmp) / doc.name).as_uri()
            with LspServerProcess(tmp) as server:
                server.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "json", "version": 1,
                                                                        "text": doc.text}})
                server.wait_diagnostics(uri, 1)
                url = server.request("workspace/executeCommand", {"command": "grooph.preview", "arguments": [uri]})["url"]
                before = doc.text[:doc.edit_at]
                line = before.count("\n")
                col = len(before[before.rfind("\n") + 1:].encode("utf-16-le")) // 2
                row = asyncio.run(_keystrokes(server, uri, line, col, url, repeats))
        row["chars"] = doc.chars
        row["server_part_ms"] = server_part(doc.text, doc.name, max(5, repeats // 2))
        out[str(size)] = row
    return out


def describe(result: dict) -> str:
    if "skipped" in result:
        return f"live picture: not measured: {result['skipped']}"
    lines = ["live picture (issue 29): a publish -> the page has the new picture (median / p95 / max ms)",
             f"{'size':>10} {'in the DOM':>22} {'drawn (next frame)':>22} {'server part':>14}  target <= {TARGET_MS:.0f} ms"]
    for size, r in result.items():
        d, f, s = r["dom_ms"], r["drawn_ms"], r["server_part_ms"]
        lines.append(f"{int(size):>10,} {d['median']:>8.1f} /{d['p95']:>6.1f} /{d['max']:>6.1f} "
                     f"{f['median']:>8.1f} /{f['p95']:>6.1f} /{f['max']:>6.1f} {s['median']:>14.1f}"
                     + ("" if f["median"] <= TARGET_MS else "  (over the target)"))
        if r["csp_or_script_errors"]:
            lines.append(f"{'':>10} page errors: {r['csp_or_script_errors'][:3]}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[24_000])
    ap.add_argument("--repeats", type=int, default=20)
    ap.add_argument("--out", help="also write the figures here (JSON)")
    args = ap.parse_args(argv)
    result = measure(tuple(args.sizes), args.repeats)
    print(describe(result))
    if args.out:
        Path(args.out).write_text(json.dumps(result, indent=2) + "\n", "utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
