"""Keystroke latency of grooph-lsp at every document size, side by side with a peer (issue 8).

Usage (from the repository root, after `.ci/setup`, which runs `npm ci` in bench/):

    python bench/run.py                 # the full run: 2k, 24k, 240k, 1M characters; a few minutes
    python bench/run.py --quick         # a fast sanity run: 2k and 24k, few repeats
    python bench/run.py --sizes 24000 1000000 --kinds graph --repeats 20 --out /tmp/r.json

For each generated document (bench/generate.py: graphs and maps, clean and with a few faults) it
measures, each as median and p95 over repeated runs:

- floor: `json.loads` of the text;
- peer:  vscode-json-languageservice (node, bench/peer.js) parsing the text and validating it against
         our published JSON Schema (grooph_core/schema/*.schema.json);
- (a) analysis: `grooph_core.ide.grooph.analysis.analyze` (parse, schema, every rule) plus the span and the
         line/column of every issue and of its related places, from the text, nothing cached;
- (b) round trip: one keystroke (a ranged didChange typing or deleting one character in the middle
         of the document) until the real server, started as `python -m grooph_lsp` over stdio with
         the default settings (its own wait before validating included), has published the
         diagnostics of that version; and continuous typing (a key every 25 ms): the longest time
         without a publish, and the last key's own diagnostics;
- (c) formatting: a textDocument/formatting request on the open document;
- (d) quick fix: a textDocument/codeAction request (only: quickfix) on the misspelt reference of a
         document with faults, from a client that resolves edits later (as VS Code), and the
         codeAction/resolve of the first action when the server left the edit for it;
- (f) responsiveness: a hover in a small second document, idle and sent right after a keystroke and
         a save in this one (a save validates at once, so it arrives during this document's analysis), and whether it was answered
         before this document's diagnostics came;
- (e) memory: the server's peak resident memory (VmHWM), once idle after initialize and once after
         everything above on this document (a fresh server per document).

The neighbouring documents of issue 15 (a workflow, YAML, and a board, JSON; bench/workflow_docs.py)
get a table of their own, at 24k and 1M characters: the floor (libyaml's `yaml.load` with CSafeLoader,
or `json.loads`), the peer for the board (its published schema), the full analysis of the text and of
a broken one, and through the real server: open -> first diagnostics, a keystroke -> diagnostics, a
keystroke that breaks the text (an unclosed `[` in the workflow, a stray `"` in the board) and the
one that repairs it, a hover and a completion in the middle; beside the graph of the same size.
The first workspace scan (bench/workspace_scan.py, issue 17) runs last (`--workspace N` documents), then
the live picture's redraw, a publish -> the page in headless Chromium has the new picture, at 24k
(bench/live_picture.py, issue 29; `--no-live-picture` skips it).

It prints one table (ratios ours/peer and ours/floor are of the medians of (a)) and writes every
figure to bench/results.json (not committed). Timings are wall-clock; the in-process ones are also
recorded as process CPU time (for node: `process.cpuUsage()`, which counts its GC threads too), and
the table compares floor, peer and analysis on CPU time by default (`--clock wall` for wall time):
on a machine shared with other work, wall time mostly measures the scheduler. Nothing here asserts
a timing.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench import held_memory  # noqa: E402
from bench.generate import Document, documents  # noqa: E402
from bench.lsp_client import LspServerProcess  # noqa: E402

SIZES = (2_000, 24_000, 240_000, 1_000_000)
QUICK_SIZES = (2_000, 24_000)
SCHEMAS = {"graph": ROOT / "grooph_core/schema/grooph-0.schema.json", "map": ROOT / "grooph_core/schema/grooph-map-0.schema.json",
           "board": ROOT / "grooph_core/schema/board.schema.json"}
NEIGHBOUR_SIZES = (24_000, 1_000_000)
NEIGHBOUR_KINDS = ("workflow", "board")
TARGETS = {
    "analysis_over_peer": 1.0,
    "round_trip_p50_ms": {24_000: 25.0, 1_000_000: 50.0},  # issue 33: a 1M keystroke in 50 ms (was 250)
    "typing_gap_ms": {1_000_000: 150.0},  # issue 33: the longest time without a publish while typing at 1M
    "per_char_spread": 2.0,
    "memory_over_text": 10.0,
    "workflow_round_trip_p50_ms": {24_000: 15.0, 1_000_000: 500.0},  # issue 24
}


# ---- statistics ------------------------------------------------------------------------------------


def summary(samples: list[float]) -> dict:
    """Median, p95 (nearest rank), min and count of a list of milliseconds."""
    s = sorted(samples)
    if not s:
        return {"n": 0, "p50": None, "p95": None, "min": None}
    rank = max(1, -(-95 * len(s) // 100))  # ceil(0.95 n)
    return {"n": len(s), "p50": statistics.median(s), "p95": s[rank - 1], "min": s[0]}


def repeats_for(chars: int, quick: bool, override: int | None) -> int:
    if override:
        return override
    if quick:
        return 5
    return 60 if chars < 10_000 else 30 if chars < 100_000 else 15 if chars < 500_000 else 11


def timed(fn, repeats: int, warmup: int = 2) -> tuple[list[float], list[float]]:
    """(wall ms, process CPU ms) of `fn()` over `repeats` runs, after `warmup` untimed runs."""
    for _ in range(warmup):
        fn()
    wall, cpu = [], []
    for _ in range(repeats):
        gc.collect()
        c = time.process_time()
        t = time.perf_counter()
        fn()
        wall.append((time.perf_counter() - t) * 1000)
        cpu.append((time.process_time() - c) * 1000)
    return wall, cpu


# ---- (a) and the floor, in this process ------------------------------------------------------------


def full_analysis(doc: Document):
    """What an editor needs from a text: every issue with the span and line/column of its target and
    of each related place (the same work the server does to build its diagnostics)."""
    from grooph_core.ide.grooph.analysis import analyze

    a = analyze(doc.text, name=doc.name)
    lines = a.line_index
    placed = []
    for issue in a.issues:
        s, e = a.span(issue)
        related = [lines.position(a.pointer_span(p)[0]) for p, _ in issue.related]
        placed.append((issue.code, lines.position(s), lines.position(e), related))
    return a, placed


def measure_in_process(doc: Document, repeats: int) -> dict:
    analysis, placed = full_analysis(doc)
    wall, cpu = timed(lambda: full_analysis(doc), repeats)
    floor_wall, floor_cpu = timed(lambda: json.loads(doc.text), repeats)
    return {
        "issues": [code for code, *_ in placed],
        "analysis": {"wall": summary(wall), "cpu": summary(cpu)},
        "floor": {"wall": summary(floor_wall), "cpu": summary(floor_cpu)},
    }


# ---- the peer --------------------------------------------------------------------------------------


def run_peer(docs: list[Document], files: dict[str, Path], repeats: dict[str, int], workdir: Path) -> dict:
    """Times of vscode-json-languageservice per document name, or {"error": why} when it cannot run."""
    node = shutil.which("node")
    if node is None:
        return {"error": "node is not installed"}
    if not (BENCH / "node_modules" / "vscode-json-languageservice").is_dir():
        return {"error": "bench/node_modules is missing: run `npm ci` in bench/ (or .ci/setup)"}
    job = {"schemas": {k: str(v) for k, v in SCHEMAS.items()},
           "docs": [{"file": str(files[d.name]), "kind": d.kind, "repeats": repeats[d.name], "warmup": max(5, repeats[d.name])}
                    for d in docs]}
    job_file = workdir / "peer-job.json"
    job_file.write_text(json.dumps(job), encoding="utf-8")
    proc = subprocess.run([node, str(BENCH / "peer.js"), str(job_file)], capture_output=True,
                          text=True, timeout=3600)
    if proc.returncode != 0:
        return {"error": f"peer.js failed: {proc.stderr.strip()[-2000:]}"}
    out = json.loads(proc.stdout)
    by_file = {r["file"]: r for r in out["results"]}
    results = {}
    for d in docs:
        r = by_file[str(files[d.name])]
        results[d.name] = {"wall": summary(r["wall_ms"]), "cpu": summary(r["cpu_ms"]),
                           "diagnostics": r["diagnostics"], "messages": r["messages"]}
    return {"version": out["version"], "node": out["node"], "results": results}


# ---- (b)-(e): the real server over stdio -----------------------------------------------------------


def _position(text: str, offset: int) -> dict:
    """LSP position (UTF-16 columns) of a character offset."""
    from grooph_core.source.line_index import LineIndex

    line, col = LineIndex(text).position(offset, "utf-16")
    return {"line": line, "character": col}


TYPING_GAP_MS = 25       # continuous typing: one key every 25 ms
TYPING_KEYS = 80         # for two seconds


def _publishes(server: LspServerProcess, uri: str, until: float) -> list[tuple[float, int]]:
    """(time, version) of every publishDiagnostics for `uri` read before `until` (perf_counter)."""
    import queue

    out = []
    while True:
        left = until - time.perf_counter()
        try:
            got = server.notifications.get(timeout=max(0.0, left)) if left > 0 else server.notifications.get_nowait()
        except queue.Empty:
            return out
        m = got.message
        if m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == uri:
            out.append((got.at, m["params"].get("version")))


def measure_server(doc: Document, repeats: int, workdir: Path, file: Path, *, server_root: Path = ROOT,
                   companion: tuple[Document, Path] | None = None) -> dict:
    """Everything through the real server, started with the settings a user has (no options)."""
    uri = file.as_uri()
    out: dict = {}
    lang = "grooph-map" if doc.kind == "map" else "grooph"
    with LspServerProcess(str(server_root), init_options={}) as server:
        out["idle_hwm_kb"] = server.status("VmHWM")
        version = 1
        t = server.notify("textDocument/didOpen", {"textDocument": {
            "uri": uri, "languageId": lang, "version": version, "text": doc.text}})
        got = server.wait_diagnostics(uri, version)
        out["open_ms"] = (got.at - t) * 1000
        diagnostics = got.message["params"]["diagnostics"]
        out["diagnostics"] = len(diagnostics)

        # (b) keystrokes, default settings (the server's own wait included): type one character in the
        # middle, then delete it, and so on, each time until that version's diagnostics arrive.
        at = _position(doc.text, doc.edit_at)
        after = {"line": at["line"], "character": at["character"] + 1}

        inserted = False

        def keystroke(_k: int = 0) -> float:
            """Type "x" in the middle, or delete the "x" typed before."""
            nonlocal version, inserted
            version += 1
            change = ({"range": {"start": at, "end": after}, "text": ""} if inserted
                      else {"range": {"start": at, "end": at}, "text": "x"})
            inserted = not inserted
            return server.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version},
                                                             "contentChanges": [change]})

        samples = []
        cpu_start = 0.0
        for k in range(repeats + 2):
            if k == 2:
                cpu_start = server.cpu_seconds()
            t = keystroke(k)
            got = server.wait_diagnostics(uri, version)
            if k >= 2:
                samples.append((got.at - t) * 1000)
        out["round_trip"] = summary(samples)
        # The server's own CPU per keystroke (mean; /proc counts in clock ticks): steadier than wall
        # time on a busy machine, so it is the figure to compare two versions of the code by.
        out["round_trip_server_cpu_ms"] = (server.cpu_seconds() - cpu_start) * 1000 / max(1, len(samples))

        # (b2) continuous typing: a key every TYPING_GAP_MS; the longest wait between two publishes
        # while typing (from the first key), and from the last key to its own diagnostics.
        keys = TYPING_KEYS if doc.chars < 500_000 else TYPING_KEYS // 2
        seen: list[tuple[float, int]] = []
        first = None
        for k in range(keys):
            t = keystroke(k)
            first = first or t
            seen += _publishes(server, uri, t + TYPING_GAP_MS / 1000)
        last_key, last_version = t, version
        own = [a for a, v in seen if v == last_version]
        last_at = own[0] if own else server.wait_diagnostics(uri, last_version).at
        during = [a for a, _ in seen if a <= last_key]
        marks = [first] + during + [last_key]
        out["typing"] = {"keys": keys, "gap_ms": TYPING_GAP_MS, "publishes_while_typing": len(during),
                         "longest_silence_ms": max(b - a for a, b in zip(marks, marks[1:])) * 1000,
                         "last_key_to_diagnostics_ms": (last_at - last_key) * 1000}
        if inserted:  # leave the text as generated
            keystroke()
            server.wait_diagnostics(uri, version)

        # (c) formatting of the open document.
        params = {"textDocument": {"uri": uri}, "options": {"tabSize": 2, "insertSpaces": True}}
        fmt = []
        edits = None
        for _ in range(max(3, repeats // 2)):
            ms, edits = server.timed_request("textDocument/formatting", params)
            fmt.append(ms)
        out["formatting"] = summary(fmt)
        out["formatting_edits"] = len(edits or [])

        # (d) a quick fix on the misspelt reference, as VS Code asks (resolveSupport for the edit), and
        # the codeAction/resolve of its first action when the server answers with titles only.
        if doc.dangling is not None:
            rng = {"start": _position(doc.text, doc.dangling[0]), "end": _position(doc.text, doc.dangling[1])}
            ctx = [d for d in diagnostics if d.get("code") == "E_DANGLING_REF"]
            params = {"textDocument": {"uri": uri}, "range": rng, "context": {"diagnostics": ctx, "only": ["quickfix"]}}
            fixes, resolves, actions = [], [], None
            for _ in range(max(3, repeats // 2)):
                ms, actions = server.timed_request("textDocument/codeAction", params)
                fixes.append(ms)
                first_action = (actions or [None])[0]
                if first_action is not None and "edit" not in first_action:
                    ms, resolved = server.timed_request("codeAction/resolve", first_action)
                    resolves.append(ms)
            out["quick_fix"] = summary(fixes)
            out["quick_fix_resolve"] = summary(resolves)
            out["quick_fix_titles"] = [a.get("title") for a in actions or []]

        # (f) a hover in another, small document sent right after a keystroke and a save here (a save
        # validates at once), so that it arrives while this document is being analysed: its answer time, beside the same hover when idle, and
        # whether it came before this document's diagnostics.
        if companion is not None:
            small, small_file = companion
            small_uri = small_file.as_uri()
            server.notify("textDocument/didOpen", {"textDocument": {
                "uri": small_uri, "languageId": "grooph-map" if small.kind == "map" else "grooph", "version": 1,
                "text": small.text}})
            server.wait_diagnostics(small_uri, 1)
            hp = {"textDocument": {"uri": small_uri}, "position": _position(small.text, small.edit_at)}
            idle, busy, first_count = [], [], 0
            for k in range(max(3, repeats // 2)):
                idle.append(server.timed_request("textDocument/hover", hp)[0])
                keystroke(k)
                # a save validates at once (no wait), so the hover lands while the analysis runs
                server.notify("textDocument/didSave", {"textDocument": {"uri": uri}})
                rid, t = server.send("textDocument/hover", hp)
                answer = server.answer(rid)
                published = server.wait_diagnostics(uri, version)
                busy.append((answer.at - t) * 1000)
                first_count += answer.at < published.at
            if inserted:
                keystroke()
                server.wait_diagnostics(uri, version)
            out["hover_idle"] = summary(idle)
            out["hover_during_analysis"] = summary(busy)
            out["hover_before_diagnostics"] = f"{first_count}/{len(busy)}"
        out["peak_hwm_kb"] = server.status("VmHWM")
        out["rss_kb"] = server.status("VmRSS")
    return out


# ---- the neighbouring documents (issue 15) ---------------------------------------------------------


@dataclass(frozen=True)
class NeighbourDoc:
    """A generated workflow or board and where the benchmark types, breaks, hovers and completes (all
    in the middle of the text): `edit_at` inside a text value (typing there changes no issue),
    `break_at` where one character breaks the syntax, `hover_at` on a key, `complete_at` where a name
    is expected (a transition's target status, a dependency's parent task)."""

    kind: str
    name: str
    text: str
    edit_at: int
    break_at: int
    break_char: str
    hover_at: int
    complete_at: int

    @property
    def chars(self) -> int:
        return len(self.text)

    @property
    def broken(self) -> str:
        return self.text[:self.break_at] + self.break_char + self.text[self.break_at:]


def neighbour_document(kind: str, size: int) -> NeighbourDoc:
    from bench.workflow_docs import board_text, workflow_text

    if kind == "workflow":
        text = workflow_text(size)
        mid = len(text) // 2
        note = text.index("Blocked step", mid) + len("Blocked")
        review = text.index("stored_as: review", mid) + len("stored_as: ")
        hover = text.index("stored_as:", mid) + 2
        target = text.index("target: ", mid) + len("target: ")
        return NeighbourDoc(kind, f"bench-{size}.workflow.yaml", text, note, review, "[", hover, target)
    text = board_text(size)
    mid = len(text) // 2
    title = text.index('"title": "Task', mid) + len('"title": "Task')
    lane = text.index('"lane"', mid) + 3
    parent = text.index('"parent": "', mid) + len('"parent": "')
    return NeighbourDoc(kind, f"bench-{size}.board.json", text, title, title + 2, '"', lane, parent)


def neighbour_analysis(text: str, kind: str) -> list:
    """What the editor needs: the analysis and the range of every issue (as `full_analysis`)."""
    from grooph_core.source.kinds import NEIGHBOURS
    from grooph_core.ide.neighbours.analysis import analyze_neighbour

    a = analyze_neighbour(text, next(k for k in NEIGHBOURS if k.name == kind))
    return [(i.code, a.issue_range(i)) for i in a.issues]


def measure_neighbour_in_process(doc: NeighbourDoc, repeats: int) -> dict:
    import yaml

    placed = neighbour_analysis(doc.text, doc.kind)
    broken = neighbour_analysis(doc.broken, doc.kind)
    wall, cpu = timed(lambda: neighbour_analysis(doc.text, doc.kind), repeats, warmup=1)
    bwall, bcpu = timed(lambda: neighbour_analysis(doc.broken, doc.kind), repeats, warmup=1)
    if doc.kind == "workflow":
        floor = lambda: yaml.load(doc.text, Loader=yaml.CSafeLoader)  # noqa: E731
    else:
        floor = lambda: json.loads(doc.text)  # noqa: E731
    fwall, fcpu = timed(floor, repeats, warmup=1)
    return {"issues": [c for c, _ in placed], "broken_issues": [c for c, _ in broken][:5],
            "analysis": {"wall": summary(wall), "cpu": summary(cpu)},
            "analysis_broken": {"wall": summary(bwall), "cpu": summary(bcpu)},
            "floor": {"wall": summary(fwall), "cpu": summary(fcpu)}}


def measure_neighbour_server(doc: NeighbourDoc, repeats: int, file: Path, *, server_root: Path = ROOT) -> dict:
    """Open, keystrokes (one that keeps the text valid, one that breaks it and the one that repairs
    it), a hover and a completion, through the real server with the default settings."""
    uri = file.as_uri()
    out: dict = {}
    lang = "yaml" if doc.kind == "workflow" else "json"
    with LspServerProcess(str(server_root), init_options={}) as server:
        out["idle_hwm_kb"] = server.status("VmHWM")
        version = 1
        t = server.notify("textDocument/didOpen", {"textDocument": {
            "uri": uri, "languageId": lang, "version": version, "text": doc.text}})
        got = server.wait_diagnostics(uri, version)
        out["open_ms"] = (got.at - t) * 1000
        out["diagnostics"] = len(got.message["params"]["diagnostics"])

        def change(offset: int, text: str, remove: int = 0) -> float:
            nonlocal version
            version += 1
            start = _position(current[0], offset)
            end = _position(current[0], offset + remove)
            current[0] = current[0][:offset] + text + current[0][offset + remove:]
            return server.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version},
                                                             "contentChanges": [{"range": {"start": start, "end": end}, "text": text}]})

        current = [doc.text]
        valid, broke, repaired, broken_diags = [], [], [], None
        for k in range(repeats + 2):  # type "x" in a text value, then delete it
            if k == 2:
                cpu_start = server.cpu_seconds()
            t = change(doc.edit_at, "x") if k % 2 == 0 else change(doc.edit_at, "", 1)
            got = server.wait_diagnostics(uri, version)
            if k >= 2:
                valid.append((got.at - t) * 1000)
        # the server's own CPU per keystroke: steadier than wall time on a shared machine
        out["round_trip_server_cpu_ms"] = (server.cpu_seconds() - cpu_start) * 1000 / max(1, len(valid))
        if current[0] != doc.text:
            change(doc.edit_at, "", 1)
            server.wait_diagnostics(uri, version)
        cpu_start = server.cpu_seconds()
        for k in range(max(3, repeats // 2)):  # break the syntax with one character, then repair it
            t = change(doc.break_at, doc.break_char)
            got = server.wait_diagnostics(uri, version)
            broke.append((got.at - t) * 1000)
            broken_diags = got.message["params"]["diagnostics"]
            t = change(doc.break_at, "", 1)
            got = server.wait_diagnostics(uri, version)
            repaired.append((got.at - t) * 1000)
        out["break_repair_server_cpu_ms"] = (server.cpu_seconds() - cpu_start) * 1000 / max(1, len(broke))
        out["round_trip"] = summary(valid)
        out["round_trip_broken"] = summary(broke)
        out["round_trip_repaired"] = summary(repaired)
        out["broken_first_diagnostic"] = (broken_diags or [{}])[0].get("message")
        hp = {"textDocument": {"uri": uri}, "position": _position(doc.text, doc.hover_at)}
        hovers, answer = [], None
        try:
            for _ in range(max(3, repeats // 2)):
                ms, answer = server.timed_request("textDocument/hover", hp)
                hovers.append(ms)
        except TimeoutError:  # recorded, not fatal: an older server may take that long
            out["hover_timeout_s"] = server.timeout
        out["hover"] = summary(hovers)
        out["hover_answered"] = answer is not None
        cp = {"textDocument": {"uri": uri}, "position": _position(doc.text, doc.complete_at)}
        completions, items = [], None
        try:
            for _ in range(max(3, repeats // 2)):
                ms, items = server.timed_request("textDocument/completion", cp)
                completions.append(ms)
        except TimeoutError:
            out["completion_timeout_s"] = server.timeout
        out["completion"] = summary(completions)
        out["completion_items"] = len(items.get("items", []) if isinstance(items, dict) else items or [])
        out["peak_hwm_kb"] = server.status("VmHWM")
    return out


def measure_yaml_peer(doc: NeighbourDoc, repeats: int, file: Path) -> dict:
    """The same open and keystrokes through yaml-language-server with our workflow schema (bench/yaml_peer.py)."""
    from bench import yaml_peer

    at = _position(doc.text, doc.edit_at)
    return yaml_peer.measure(doc.text, (at, {"line": at["line"], "character": at["character"] + 1}), file, repeats)


def neighbour_table(results: list[dict], graphs: list[dict], clock: str = "cpu") -> str:
    head = ("doc", "chars", "issues", "floor", "peer", "ours(a)", "a broken", "/graph", "open", "rt p50", "rt p95",
            "rt cpu", "/graph rt", "rt break", "rt repair", "b+r cpu", "hover", "compl", "items", "mem MB",
            "held/text", "yls open", "yls rt", "yls cpu", "/yls rt", "yls MB")
    rows = [head]
    for r in results:
        srv = r.get("server", {})
        a = r["analysis"][clock]["p50"]
        same = [g for g in graphs if g["kind"] == "graph" and not g["faults"] and g["size"] == r["size"]]
        g = same[0] if same else None
        g_rt = g.get("server", {}).get("round_trip", {}).get("p50") if g else None
        rt = srv.get("round_trip", {}).get("p50")
        mem = srv.get("peak_hwm_kb")
        yls = r.get("yaml_peer", {})
        yls_rt, yls_mem = yls.get("round_trip", {}).get("p50"), yls.get("peak_hwm_kb")
        rows.append((
            r["kind"], f"{r['chars']:,}", str(len(r["issues"])), _ms(r["floor"][clock]["p50"]),
            _ms(r.get("peer", {}).get(clock, {}).get("p50")), _ms(a), _ms(r["analysis_broken"][clock]["p50"]),
            _ratio(a, g["analysis"][clock]["p50"] if g else None), _ms(srv.get("open_ms")), _ms(rt),
            _ms(srv.get("round_trip", {}).get("p95")), _ms(srv.get("round_trip_server_cpu_ms")), _ratio(rt, g_rt),
            _ms(srv.get("round_trip_broken", {}).get("p50")), _ms(srv.get("round_trip_repaired", {}).get("p50")),
            _ms(srv.get("break_repair_server_cpu_ms")),
            f">{srv['hover_timeout_s']:.0f}s" if "hover_timeout_s" in srv else _ms(srv.get("hover", {}).get("p50")),
            f">{srv['completion_timeout_s']:.0f}s" if "completion_timeout_s" in srv
            else _ms(srv.get("completion", {}).get("p50")),
            str(srv.get("completion_items", "-")),
            "-" if mem is None else f"{mem / 1024:.0f} (+{(mem - srv['idle_hwm_kb']) / 1024:.0f})",
            _held(r), _ms(yls.get("open_ms")), _ms(yls_rt), _ms(yls.get("round_trip_server_cpu_ms")), _ratio(rt, yls_rt),
            "-" if yls_mem is None else f"{yls_mem / 1024:.0f} (+{(yls_mem - yls['idle_hwm_kb']) / 1024:.0f})",
        ))
    return _aligned(rows)


NEIGHBOUR_LEGEND = """\
neighbouring documents: floor = yaml.load with libyaml's CSafeLoader (workflow) or json.loads (board);
peer = vscode-json-languageservice against board.schema.json; ours(a) = analyze_neighbour (tolerant, as
the editor) plus the range of every issue; a broken = the same with one character that breaks the syntax;
/graph = over the clean graph of the same size (this run); open = didOpen -> first diagnostics; rt = a
keystroke in a text value -> its diagnostics (default settings); rt cpu = the server's CPU per keystroke;
rt break / rt repair = the keystroke that breaks the syntax and the one that removes it; b+r cpu = the
server's CPU for the pair; hover on a key, compl = a completion where a name is
expected (items = how many it offered); mem = server peak VmHWM (+ growth over idle); held/text = what the
server holds for it once analysed (tracemalloc) over its UTF-8 size; yls = the workflow's
second peer, yaml-language-server with workflow.schema.json (bench/yaml_peer.py): open -> diagnostics,
the same keystroke -> its next diagnostics (wall; its own 200 ms wait included), its CPU per keystroke,
/yls rt = our rt over its rt, and its peak VmHWM (+ growth over idle)."""


# ---- the table -------------------------------------------------------------------------------------


def _aligned(rows: list[tuple]) -> str:
    """Rows as text columns: the first left-aligned, the rest right-aligned, a rule under the head."""
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    lines = []
    for n, row in enumerate(rows):
        lines.append("  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(row, widths))))
        if n == 0:
            lines.append("  ".join("-" * w for w in widths))
    return "\n".join(lines)


def _ms(x) -> str:
    if x is None:
        return "-"
    return f"{x:.2f}" if x < 10 else f"{x:.1f}" if x < 100 else f"{x:.0f}"


def _held(r: dict) -> str:
    return f"{r['held']['over_text']:.1f}" if "held" in r else "-"


def _ratio(a, b) -> str:
    return "-" if a is None or not b else f"{a / b:.2f}"


def table(results: list[dict], clock: str = "cpu") -> str:
    head = ("doc", "chars", "issues", "floor", "peer", "ours(a)", "a p95", "/peer", "/floor",
            "rt p50", "rt p95", "rt cpu", "typing", "fmt", "fix", "resolve", "hover", "hover busy", "mem MB", "mem/text", "held/text")
    rows = [head]
    for r in results:
        a = r["analysis"][clock]
        floor = r["floor"][clock]["p50"]
        peer = r.get("peer", {}).get(clock, {}).get("p50")
        srv = r.get("server", {})
        mem = srv.get("peak_hwm_kb")
        growth = None if mem is None else mem - srv["idle_hwm_kb"]
        rows.append((
            f"{r['kind']}{' +faults' if r['faults'] else ''}", f"{r['chars']:,}", str(len(r["issues"])),
            _ms(floor), _ms(peer), _ms(a["p50"]), _ms(a["p95"]), _ratio(a["p50"], peer), _ratio(a["p50"], floor),
            _ms(srv.get("round_trip", {}).get("p50")), _ms(srv.get("round_trip", {}).get("p95")),
            _ms(srv.get("round_trip_server_cpu_ms")), _ms(srv.get("typing", {}).get("longest_silence_ms")),
            _ms(srv.get("formatting", {}).get("p50")), _ms(srv.get("quick_fix", {}).get("p50")),
            _ms(srv.get("quick_fix_resolve", {}).get("p50")), _ms(srv.get("hover_idle", {}).get("p50")),
            _ms(srv.get("hover_during_analysis", {}).get("p50")),
            "-" if mem is None else f"{mem / 1024:.0f} (+{growth / 1024:.0f})",
            "-" if mem is None else f"{growth * 1024 / r['bytes']:.1f}", _held(r),
        ))
    return _aligned(rows)


LEGEND = """\
times in ms, medians unless marked p95; floor = json.loads; peer = vscode-json-languageservice parse+validate;
ours(a) = full analysis with every issue placed; /peer, /floor = ours(a) median over theirs;
floor, peer and ours(a) are on the clock chosen with --clock (CPU time of the process by default);
rt = keystroke round trip didChange -> publishDiagnostics over stdio (wall), default settings (the
server's own wait included); rt cpu = the server's CPU time per keystroke (mean, from /proc);
typing = longest time without a publish while a key comes every 25 ms; fmt = formatting request;
fix = quick-fix codeAction request from a client with resolveSupport (as VS Code); resolve = the
codeAction/resolve of its first action (when the edit was left for it); hover = a hover in a small
document, idle; hover busy = the same sent right after a keystroke and a save in this document
(during its analysis); mem MB = server peak VmHWM (+ growth over the idle server);
mem/text = that growth over the document's UTF-8 size; held/text = what the server holds for the
document once analysed (tracemalloc, bench/held_memory.py: text, open document, analysis, diagnostics)
over its UTF-8 size."""


def verdicts(results: list[dict], clock: str = "cpu", neighbours: list[dict] = ()) -> list[str]:
    """One line per target of issues 8 and 33: met or not, with the figures that decide it. The analysis
    is held against the peer at every size for graphs, maps and boards (the board's peer ratio is in the
    neighbour table)."""
    out = []
    ratios = [(r["name"], r["analysis"][clock]["p50"] / r["peer"][clock]["p50"]) for r in [*results, *neighbours]
              if r.get("peer", {}).get(clock, {}).get("p50")]
    if ratios:
        worst = max(ratios, key=lambda x: x[1])
        kinds = sorted({r["kind"] for r in [*results, *neighbours] if r.get("peer", {}).get(clock, {}).get("p50")})
        over = sum(1 for _, x in ratios if x > TARGETS["analysis_over_peer"])
        out.append(f"analysis <= peer at every size ({', '.join(kinds)}): "
                   f"{'met' if worst[1] <= TARGETS['analysis_over_peer'] else 'NOT met'} "
                   f"(worst {worst[1]:.2f} on {worst[0]}; {over} of {len(ratios)} documents over)")
    for size, limit in TARGETS["round_trip_p50_ms"].items():
        rts = [(r["name"], r["server"]["round_trip"]["p50"]) for r in results if r["size"] == size and r.get("server")]
        if rts:
            worst = max(rts, key=lambda x: x[1])
            out.append(f"round trip p50 <= {limit:.0f} ms at {size:,}: {'met' if worst[1] <= limit else 'NOT met'} (worst {worst[1]:.1f} ms on {worst[0]})")
    for size, limit in TARGETS["typing_gap_ms"].items():
        gaps = [(r["name"], r["server"]["typing"]["longest_silence_ms"]) for r in results
                if r["size"] == size and "typing" in r.get("server", {})]
        if gaps:
            worst = max(gaps, key=lambda x: x[1])
            out.append(f"typing gap <= {limit:.0f} ms at {size:,} (a key every {TYPING_GAP_MS} ms): "
                       f"{'met' if worst[1] <= limit else 'NOT met'} (worst {worst[1]:.0f} ms on {worst[0]})")
    for kind in ("graph", "map"):
        for faults in (False, True):
            per = [(r["size"], r["analysis"][clock]["p50"] / r["chars"]) for r in results
                   if r["kind"] == kind and r["faults"] == faults and r["size"] >= 24_000]
            if len(per) >= 2:
                spread = max(p for _, p in per) / min(p for _, p in per)
                label = f"{kind}{' +faults' if faults else ''}"
                out.append(f"linear growth 24k..1M ({label}): {'met' if spread <= 2.0 else 'NOT met'} "
                           f"(time per character varies {spread:.2f}x)")
    mems = [(r["name"], (r["server"]["peak_hwm_kb"] - r["server"]["idle_hwm_kb"]) * 1024 / r["bytes"],
             r["server"]["peak_hwm_kb"] * 1024 / r["bytes"]) for r in results if r["size"] == 1_000_000 and r.get("server")]
    if mems:
        worst = max(mems, key=lambda x: x[1])
        out.append(f"server memory <= 10x text at 1M: growth {'met' if worst[1] <= 10 else 'NOT met'} "
                   f"(worst {worst[1]:.1f}x growth, {worst[2]:.1f}x counting the idle server, on {worst[0]})")
    return out


def neighbour_verdicts(results: list[dict], graphs: list[dict]) -> list[str]:
    """Issue 24's targets: the workflow's keystroke round trip at 24k and 1M, ahead of yaml-language-server;
    and issue 33's: what the server holds at 1M within 10x the UTF-8 size for every kind measured (graphs,
    maps, workflows, boards)."""
    out = []
    for size, limit in TARGETS["workflow_round_trip_p50_ms"].items():
        for r in results:
            rt = r.get("server", {}).get("round_trip", {}).get("p50")
            if r["kind"] != "workflow" or r["size"] != size or rt is None:
                continue
            peer = r.get("yaml_peer", {}).get("round_trip", {}).get("p50")
            ahead = "" if peer is None else f"; yaml-language-server {peer:.0f} ms, {'ahead' if rt < peer else 'NOT ahead'}"
            out.append(f"workflow keystroke p50 <= {limit:.0f} ms at {size:,}: {'met' if rt <= limit else 'NOT met'} "
                       f"({rt:.1f} ms wall, server CPU {r['server']['round_trip_server_cpu_ms']:.1f} ms{ahead})")
    held = [(r["name"], r["held"]["over_text"]) for r in graphs + results
            if r["size"] == 1_000_000 and "held" in r]
    if held:
        worst = max(held, key=lambda x: x[1])
        kinds = ", ".join(sorted({r["kind"] for r in graphs + results if r["size"] == 1_000_000 and "held" in r}))
        out.append(f"held memory <= {TARGETS['memory_over_text']:.0f}x text at 1M ({kinds}): "
                   f"{'met' if worst[1] <= TARGETS['memory_over_text'] else 'NOT met'} "
                   f"({', '.join(f'{n} {x:.1f}x' for n, x in held)})")
    return out


# ---- main ------------------------------------------------------------------------------------------


def _head_commit() -> str | None:
    """The checked-out commit (and whether the tree differs from it), to tell runs apart."""
    try:
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True,
                              timeout=10).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=ROOT, capture_output=True,
                               text=True, timeout=10).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return None
    return (head + ("+changes" if dirty else "")) or None


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="2k and 24k only, 5 repeats: a sanity run")
    ap.add_argument("--sizes", type=int, nargs="+", help="document sizes in characters (default 2k 24k 240k 1M)")
    ap.add_argument("--kinds", nargs="+", choices=("graph", "map") + NEIGHBOUR_KINDS,
                    default=["graph", "map", *NEIGHBOUR_KINDS])
    ap.add_argument("--neighbour-sizes", type=int, nargs="+",
                    help="sizes of the workflow and board in characters (default 24k 1M; --quick: 24k)")
    ap.add_argument("--workspace", type=int, default=None,
                    help="documents in the first-workspace-scan measure (default 1,000; --quick: 200; 0 skips it)")
    ap.add_argument("--repeats", type=int, help="timed runs per measure (default by size)")
    ap.add_argument("--no-server", action="store_true", help="skip (b)-(f), the measures through the server")
    ap.add_argument("--server-root", default=str(ROOT),
                    help="run the server from this checkout (e.g. an older one, for a before/after comparison)")
    ap.add_argument("--no-peer", action="store_true", help="skip the peer")
    ap.add_argument("--no-live-picture", action="store_true",
                    help="skip the live picture's redraw (bench/live_picture.py; needs Chromium)")
    ap.add_argument("--clock", choices=("cpu", "wall"), default="cpu",
                    help="clock of the floor/peer/analysis columns and ratios (round trips are always wall)")
    ap.add_argument("--out", default=str(BENCH / "results.json"), help="where to write the figures (JSON)")
    args = ap.parse_args(argv)

    sizes = tuple(args.sizes or (QUICK_SIZES if args.quick else SIZES))
    grooph_kinds = tuple(k for k in args.kinds if k in ("graph", "map"))
    neighbour_kinds = tuple(k for k in args.kinds if k in NEIGHBOUR_KINDS)
    neighbour_sizes = tuple(args.neighbour_sizes or (QUICK_SIZES[1:] if args.quick else NEIGHBOUR_SIZES))
    started = time.time()
    load_before = os.getloadavg()
    docs = documents(sizes, grooph_kinds) if grooph_kinds else []
    ndocs = [(size, neighbour_document(kind, size)) for kind in neighbour_kinds for size in neighbour_sizes]
    workdir = Path(tempfile.mkdtemp(prefix="grooph-bench-"))
    try:
        files = {}
        for d in docs:
            files[d.name] = workdir / d.name
            files[d.name].write_text(d.text, encoding="utf-8")
        for _, d in ndocs:
            files[d.name] = workdir / d.name
            files[d.name].write_text(d.text, encoding="utf-8")
        repeats = {d.name: repeats_for(d.chars, args.quick, args.repeats) for d in docs}
        repeats.update({d.name: repeats_for(d.chars, args.quick, args.repeats) for _, d in ndocs})
        from bench.generate import graph_document

        small = graph_document(2_000)
        small_file = workdir / ("companion-" + small.name)
        small_file.write_text(small.text, encoding="utf-8")
        companion = (small, small_file)
        peer_docs = docs + [d for _, d in ndocs if d.kind in SCHEMAS]
        peer = {"error": "skipped (--no-peer)"} if args.no_peer else run_peer(peer_docs, files, repeats, workdir)
        if "error" in peer:
            print(f"peer: {peer['error']}", file=sys.stderr)
        results = []
        for size, d in zip([s for _ in grooph_kinds for s in sizes for _ in (0, 1)], docs):
            print(f"measuring {d.name} ({d.chars:,} characters) ...", file=sys.stderr, flush=True)
            r = {"name": d.name, "kind": d.kind, "size": size, "faults": d.faults, "chars": d.chars,
                 "bytes": len(d.text.encode("utf-8")), "repeats": repeats[d.name]}
            r.update(measure_in_process(d, repeats[d.name]))
            r["held"] = held_memory.held(d.text, d.name)
            if "results" in peer:
                r["peer"] = peer["results"][d.name]
            if not args.no_server:
                r["server"] = measure_server(d, repeats[d.name], workdir, files[d.name],
                                             server_root=Path(args.server_root), companion=companion)
            results.append(r)
        neighbour_results = []
        for size, d in ndocs:
            print(f"measuring {d.name} ({d.chars:,} characters) ...", file=sys.stderr, flush=True)
            r = {"name": d.name, "kind": d.kind, "size": size, "chars": d.chars,
                 "bytes": len(d.text.encode("utf-8")), "repeats": repeats[d.name]}
            r.update(measure_neighbour_in_process(d, repeats[d.name]))
            r["held"] = held_memory.held(d.text, d.name)
            if "results" in peer and d.name in peer["results"]:
                r["peer"] = peer["results"][d.name]
            if not args.no_server:
                r["server"] = measure_neighbour_server(d, repeats[d.name], files[d.name],
                                                       server_root=Path(args.server_root))
            if d.kind == "workflow" and not args.no_peer:
                r["yaml_peer"] = measure_yaml_peer(d, repeats[d.name], files[d.name])
                if "error" in r["yaml_peer"]:
                    print(f"yaml-language-server: {r['yaml_peer']['error']}", file=sys.stderr)
            neighbour_results.append(r)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    scan = None
    documents_in_scan = args.workspace if args.workspace is not None else (200 if args.quick else 1000)
    if documents_in_scan and not args.no_server:
        from bench import workspace_scan

        print(f"measuring the first scan of a workspace of {documents_in_scan:,} documents ...", file=sys.stderr, flush=True)
        scan = workspace_scan.measure(documents_in_scan, server_root=Path(args.server_root))
    live = None
    if not (args.no_server or args.no_live_picture):
        from bench import live_picture

        print("measuring the live picture's redraw at 24k ...", file=sys.stderr, flush=True)
        live = live_picture.measure((24_000,), args.repeats or (5 if args.quick else 20))

    text = table(results, args.clock) if results else ""
    if results:
        print(text)
        print(LEGEND)
    lines = verdicts(results, args.clock, neighbour_results)
    for line in lines:
        print(line)
    ntext = neighbour_table(neighbour_results, results, args.clock) if neighbour_results else ""
    if ntext:
        print()
        print(ntext)
        print(NEIGHBOUR_LEGEND)
    nlines = neighbour_verdicts(neighbour_results, results)
    for line in nlines:
        print(line)
    if scan is not None:
        print()
        print(workspace_scan.describe(scan))
    if live is not None:
        print()
        print(live_picture.describe(live))
    report = {
        "command": " ".join([Path(sys.executable).name, "bench/run.py", *(argv if argv is not None else sys.argv[1:])]),
        "when": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(started)),
        "seconds": round(time.time() - started, 1),
        "clock": args.clock,
        "commit": _head_commit(),
        "machine": {"python": platform.python_version(), "platform": platform.platform(), "cpus": os.cpu_count(),
                    "load_before": load_before, "load_after": os.getloadavg()},
        "peer": {k: v for k, v in peer.items() if k != "results"},
        "targets": {**TARGETS, **{k: {str(size): v for size, v in TARGETS[k].items()}
                                   for k in ("round_trip_p50_ms", "typing_gap_ms", "workflow_round_trip_p50_ms")}},
        "verdicts": lines,
        "table": text,
        "results": results,
        "neighbour_table": ntext,
        "neighbour_results": neighbour_results,
        "neighbour_verdicts": nlines,
        "workspace_scan": scan,
        "live_picture": live,
    }
    Path(args.out).write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    print(f"figures written to {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
