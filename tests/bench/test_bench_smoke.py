"""Smoke test of the benchmark (issue 8): the generator is deterministic and plants the faults it
promises, and one tiny run of `bench/run.py` produces the table and the figures file with every
measure in place. Structure only: timings are never asserted (DESIGN.md "Tests")."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from bench import run
from bench.generate import documents, graph_document, map_document
from grooph_core.ide.grooph.analysis import analyze

BENCH = Path(run.__file__).resolve().parent


def test_documents_are_deterministic_and_near_their_size():
    first = documents((2_000, 24_000))
    again = documents((2_000, 24_000))
    assert [d.text for d in first] == [d.text for d in again]
    assert [(d.kind, d.faults) for d in first] == [("graph", False), ("graph", True)] * 2 + [("map", False), ("map", True)] * 2
    for d in first:
        target = 2_000 if "-2000" in d.name else 24_000
        assert target * 0.85 <= d.chars <= target * 1.5, (d.name, d.chars)


def test_clean_documents_have_no_errors_and_faulty_ones_have_the_planted_faults():
    for make, planted in ((graph_document, {"E_DANGLING_REF", "W_UNKNOWN_KEY", "E_DUPLICATE_ID"}),
                          (map_document, {"E_DANGLING_REF", "W_UNKNOWN_KEY", "E_HANDOFF_NO_CARRIER"})):
        clean = make(24_000)
        assert [i.code for i in analyze(clean.text, name=clean.name).issues if i.severity == "error"] == []
        faulty = make(24_000, faults=True)
        codes = {i.code for i in analyze(faulty.text, name=faulty.name).issues}
        assert planted <= codes, (faulty.name, codes)
        s, e = faulty.dangling  # the span of the misspelt reference a dangling-ref issue points at
        spans = {a.span(i) for a in [analyze(faulty.text, name=faulty.name)] for i in a.issues if i.code == "E_DANGLING_REF"}
        assert (s, e) in spans, (faulty.name, (s, e), spans)
        # the keystroke spot is inside a string value, so typing there keeps the document valid JSON
        assert faulty.text[faulty.edit_at - 1] == '"' and faulty.text[faulty.edit_at - 9:faulty.edit_at] == '"name": "'


def test_a_tiny_run_writes_the_table_and_every_measure(tmp_path, capsys):
    out = tmp_path / "results.json"
    argv = ["--sizes", "2000", "--kinds", "graph", "--repeats", "2", "--no-live-picture", "--out", str(out)]
    peer_ready = shutil.which("node") is not None and (BENCH / "node_modules" / "vscode-json-languageservice").is_dir()
    if not peer_ready:
        argv.append("--no-peer")
    assert run.main(argv) == 0
    printed = capsys.readouterr().out
    assert "ours(a)" in printed and "rt p50" in printed and "/peer" in printed
    report = json.loads(out.read_text("utf-8"))
    assert report["table"] in printed
    rows = report["results"]
    assert [(r["kind"], r["faults"]) for r in rows] == [("graph", False), ("graph", True)]
    for r in rows:
        for measure in ("analysis", "floor"):
            for clock in ("wall", "cpu"):
                assert r[measure][clock]["n"] == 2 and r[measure][clock]["p50"] > 0
                assert r[measure][clock]["p95"] >= r[measure][clock]["p50"]
        server = r["server"]
        assert server["round_trip"]["n"] == 2 and server["formatting"]["n"] >= 3
        assert server["peak_hwm_kb"] >= server["idle_hwm_kb"] > 0
        assert server["diagnostics"] == len(r["issues"])
        if peer_ready:
            assert r["peer"]["wall"]["n"] == 2
    faulty = rows[1]
    assert "E_DANGLING_REF" in faulty["issues"]
    assert any("test-0" in t for t in faulty["server"]["quick_fix_titles"]), faulty["server"]["quick_fix_titles"]
    assert "quick_fix" not in rows[0]["server"]
    if peer_ready:  # the peer agrees with the structural check: no schema fault is planted
        assert [r["peer"]["diagnostics"] for r in rows] == [r["issues"].count("E_SCHEMA") for r in rows] == [0, 0]
    assert any(line.startswith("analysis <= peer") for line in report["verdicts"]) == peer_ready


def test_a_short_run_of_every_other_section_produces_its_figures(tmp_path, capsys):
    """Issue 22 item 4: the neighbouring documents (in process, through the server, and the workflow's
    second peer, yaml-language-server, when node and bench/node_modules have it), what the server holds
    (tracemalloc) and the first workspace scan, each in a short run: every section has its figures
    (counts and presence, never their values). It crashed unnoticed once (`lsp_range` after a rename)."""
    from bench import yaml_peer

    out = tmp_path / "results.json"
    argv = ["--kinds", "workflow", "board", "--neighbour-sizes", "6000", "--repeats", "2", "--workspace", "12",
            "--out", str(out)]
    yls_ready = yaml_peer.unavailable() is None
    if not yls_ready:
        argv.append("--no-peer")
    assert run.main(argv) == 0
    printed = capsys.readouterr().out
    report = json.loads(out.read_text("utf-8"))
    assert report["neighbour_table"] in printed and "yls rt" in printed and "held/text" in printed
    rows = report["neighbour_results"]
    assert [r["kind"] for r in rows] == ["workflow", "board"]
    for r in rows:
        for measure in ("analysis", "analysis_broken", "floor"):
            for clock in ("wall", "cpu"):
                assert r[measure][clock]["n"] == 2 and r[measure][clock]["p50"] > 0, (r["kind"], measure)
        assert r["held"]["bytes"] > len(r["name"]) and r["held"]["over_text"] > 0
        assert set(r["held"]["parts"]) == {"text", "open document", "analysis and diagnostics"}
        server = r["server"]
        assert server["open_ms"] > 0 and server["diagnostics"] == len(r["issues"])
        for measure in ("round_trip", "round_trip_broken", "round_trip_repaired", "hover", "completion"):
            assert server[measure]["n"] >= 2, (r["kind"], measure)
        assert server["round_trip_server_cpu_ms"] >= 0 and server["break_repair_server_cpu_ms"] >= 0
        assert server["broken_first_diagnostic"], r["kind"]
        assert server["peak_hwm_kb"] >= server["idle_hwm_kb"] > 0
    workflow, board = rows
    assert "W_UNKNOWN_KEY" in workflow["issues"]  # every blocked status has a note the model does not have
    assert "yaml_peer" not in board
    if yls_ready:
        peer = workflow["yaml_peer"]
        assert peer["version"] and peer["open_ms"] > 0 and peer["round_trip"]["n"] == 2
        assert peer["peak_hwm_kb"] >= peer["idle_hwm_kb"] > 0
    scan = report["workspace_scan"]
    assert scan["documents"] == 12 and scan["published"] >= 1 and scan["server_cpu_s"] >= 0
    assert "first workspace scan of 12 documents" in printed
    live = report["live_picture"]  # issue 29: a publish -> the page in Chromium has the new picture
    if "skipped" not in live:
        row = live["24000"]
        assert row["dom_ms"]["n"] == row["drawn_ms"]["n"] == 2 and row["server_part_ms"]["n"] >= 2
        assert row["csp_or_script_errors"] == [] and "live picture (issue 29)" in printed
