"""`python -m bench.bench_neighbour_ide`: completion and formatting of the neighbouring formats at 1M
characters (issue 15 point 5), in process CPU time (median of 3): completion at a workflow's last status
(the indentation scan walks back to `statuses:`), of a name there (the model of names runs on the whole
document), in the dispatcher; a 1M board's dependency completion and its formatting."""

from __future__ import annotations

import json

from bench.workflow_docs import _timed, workflow_text


def board_text(target: int = 1_000_000) -> str:
    tasks, deps, n, size = {}, [], 0, 0
    while size < target:
        t = {"id": f"t-{n}", "title": f"Task {n} — étape", "lane": ["todo", "running", "done"][n % 3],
             "workspace": {"kind": "worktree", "path": f"/w/{n}", "branch": f"b{n}"}, "priority": n % 5,
             "attempts": [{"id": f"a-{n}", "status": "done", "started_at": "2025-03-01T09:05:00Z",
                           "handoff": {"summary": "s", "metadata": {"z": 1, "a": [1.50, 2]}}}],
             "residue": {"hermes": "x"}}
        tasks[f"t-{n}"] = t
        if n:
            deps.append({"parent": f"t-{n - 1}", "child": f"t-{n}"})
        size += len(json.dumps(t)) + 60
        n += 1
    return json.dumps({"tasks": tasks, "slug": "big", "root": "/b", "dependencies": deps}, indent=1, ensure_ascii=False)


def main() -> None:
    from grooph_core.ide.grooph.formatting import format_edits
    from grooph_core.source.kinds import NEIGHBOUR_KINDS
    from grooph_core.ide.neighbours.completion import neighbour_complete_at
    from grooph_core.ide.neighbours.analysis import analyze_neighbour

    text = workflow_text()
    a = analyze_neighbour(text, NEIGHBOUR_KINDS["workflow"])
    last = text.rindex("    stored_as: review")
    target = text.rindex("target: ") + len("target: ")
    scope = text.index("scope: ") + len("scope: ")
    print(f"workflow: {len(text):,} characters")
    print(f"  keys of the last status    {_timed(lambda: neighbour_complete_at(a, last)) * 1000:7.1f} ms")
    print(f"  a target (statuses)        {_timed(lambda: neighbour_complete_at(a, target)) * 1000:7.1f} ms  "
          f"({len(neighbour_complete_at(a, target)):,} names)")
    print(f"  a cap's scope              {_timed(lambda: neighbour_complete_at(a, scope)) * 1000:7.1f} ms")
    print(f"  formatting (refused)       {_timed(lambda: format_edits(a)) * 1000:7.1f} ms")
    board = board_text()
    b = analyze_neighbour(board, NEIGHBOUR_KINDS["board"])
    parent = board.rindex('"parent": ') + len('"parent": ')
    lane = board.rindex('"lane": ') + len('"lane": ')
    print(f"board: {len(board):,} characters")
    print(f"  a dependency's parent      {_timed(lambda: neighbour_complete_at(b, parent)) * 1000:7.1f} ms  "
          f"({len(neighbour_complete_at(b, parent)):,} names)")
    print(f"  a lane                     {_timed(lambda: neighbour_complete_at(b, lane)) * 1000:7.1f} ms")
    print(f"  formatting                 {_timed(lambda: format_edits(b)) * 1000:7.1f} ms  "
          f"({len(format_edits(b)):,} edits)")


if __name__ == "__main__":
    main()
