"""The documentation page of every code (`grooph_core/docs/codes.md`), generated from the registry.

Diagnostics link to it (`codeDescription`); it ships inside the package so the link works wherever
the server is installed. `python -m grooph_core.ide.code_docs` rewrites it; a test fails on drift.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from grooph_core.issues import CODES

PAGE = Path(__file__).resolve().parents[1] / "docs" / "codes.md"

_WHERE = {"graph": "graphs", "map": "operation maps", "editor": "graphs and maps in the editor only (the reference never reports it)",
          "workflow": "workflows (*.workflow.yaml)", "board": "boards (*.board.json)",
          "episodes": "episode records (*.episodes.json)"}


def anchor(code: str) -> str:
    return code.lower()


@cache
def page_uri(code: str) -> str:
    """The code's link (one string per code: every diagnostic of a code shares it)."""
    return PAGE.as_uri() + "#" + anchor(code)


def render() -> str:
    out = [
        "# grooph codes",
        "",
        "Every code the validator and the editor report: its severity, what it means and the usual repair.",
        "\"Specified in\" names the section of the grooph format specification the rule comes from (for",
        "whoever compares with it; it is not needed to use this page). The fields each kind takes are in",
        "[graphs.md](graphs.md), [maps.md](maps.md), [workflows.md](workflows.md), [boards.md](boards.md)",
        "and [episode-records.md](episode-records.md). Generated from `grooph_core/issues.py` by",
        "`python -m grooph_core.ide.code_docs`.",
        "",
    ]
    for c in CODES.values():
        out += [
            f"## {c.code}",
            "",
            f"- **Severity:** {c.severity}" + (" (export check only: `--for-export` / `grooph.complete`)" if c.export_only else ""),
            f"- **Reported for:** " + ", ".join(_WHERE[a] for a in c.applies_to),
            f"- **Meaning:** {c.title}.",
            f"- **Usual repair:** {c.repair}",
            f"- **Specified in:** {c.spec}",
            "",
        ]
    return "\n".join(out)


if __name__ == "__main__":
    PAGE.parent.mkdir(parents=True, exist_ok=True)
    PAGE.write_text(render(), encoding="utf-8")
    print(f"wrote {PAGE}")
