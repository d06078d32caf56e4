"""No code asks which kind it holds (issue 22 item 2; DESIGN.md "Kinds"), read from the source.

Outside the one registration list (`grooph_core/ide/kinds.py`), nothing compares a kind with a
kind's name: no `kind == "map"`, `analysis.kind != "graph"`, `kind in ("workflow", "board")`, `"map" in
kinds`, `kind_from_value(v) == "map"`, `wf.name == "workflow"`. What differs by kind is a property or a
method of the kind (`grooph_core/ide/<family>/face.py`), or an entry of a table keyed by the kind. A comparison
with a word that is a field's value or name (`scope == "graph"`, `key == "episodes"`, an id's target
`occ.target`) is not about a document's kind and is not reported: the operand compared must name a kind
(an identifier with "kind" in it) or be a `.name`/`.title`.

And the protocol shell's request handlers never branch on the kind: they call one method of the
document's kind per request, import no per-kind module of the core, and say nothing of "neighbours".
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCANNED = (ROOT / "grooph_core", ROOT / "grooph_lsp")
REGISTRATION = ROOT / "grooph_core" / "ide" / "kinds.py"
# The shell's request handlers (server.FEATURES, server.COMMANDS) that answer one document.
HANDLERS = ("features.py", "actions.py")


def _kind_names() -> frozenset[str]:
    from grooph_core.ide.kinds import KINDS

    return frozenset(k.name for k in KINDS)


def _names_a_kind(node: ast.expr, names: frozenset[str]) -> bool:
    """A kind's name written as a literal: "map", or a tuple/list/set holding one."""
    if isinstance(node, ast.Constant):
        return node.value in names
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return any(isinstance(e, ast.Constant) and e.value in names for e in node.elts)
    return False


_KINDISH = re.compile(r"kind", re.IGNORECASE)


def _is_a_kind(node: ast.expr) -> bool:
    """An expression that holds a kind or its name: it mentions an identifier with "kind" in it
    (`kind`, `analysis.kind`, `kinds`, `kind_from_name(x)`), or it is a `.name` / `.title`."""
    if isinstance(node, ast.Attribute) and node.attr in ("name", "title"):
        return True
    for n in ast.walk(node):
        if isinstance(n, ast.Name) and _KINDISH.search(n.id):
            return True
        if isinstance(n, ast.Attribute) and _KINDISH.search(n.attr):
            return True
    return False


def kind_comparisons(paths: list[Path], names: frozenset[str]) -> list[str]:
    """`path:line: comparison` for every comparison of a kind with a kind's name in these files."""
    found = []
    for path in paths:
        tree = ast.parse(path.read_text("utf-8"), str(path))
        for node in sorted(ast.walk(tree), key=lambda n: getattr(n, "lineno", 0)):
            if not isinstance(node, ast.Compare):
                continue
            operands = [node.left, *node.comparators]
            if any(_names_a_kind(o, names) for o in operands) and any(
                    _is_a_kind(o) for o in operands if not _names_a_kind(o, names)):
                found.append(f"{path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}:{node.lineno}: {ast.unparse(node)}")
    return found


def _sources() -> list[Path]:
    return [p for root in SCANNED for p in sorted(root.rglob("*.py")) if p != REGISTRATION]


def test_nothing_outside_the_registration_compares_a_kind_with_a_kind_name() -> None:
    found = kind_comparisons(_sources(), _kind_names())
    assert found == [], "ask the kind (grooph_core/ide/kinds.py) instead:\n" + "\n".join(found)


def test_the_scan_finds_each_form_of_the_question_and_not_field_values(tmp_path: Path) -> None:
    p = tmp_path / "m.py"
    p.write_text(
        'if analysis.kind == "map": pass\n'
        'x = "map" if kind == "map" else "graph"\n'
        'if kind not in ("workflow", "board"): pass\n'
        'if "map" in kinds: pass\n'
        'if kind_from_value(v) == "map": pass\n'
        'if wf.name == "workflow": pass\n'
        'if facts.kind != "graph": pass\n'
        # not about a document's kind: field values and names that happen to be kind words
        'if scope == "graph": pass\n'
        'if key in ("episodes", "findings"): pass\n'
        'if occ.target not in ROOTS: pass\n'
        'if stop.kind == "human": pass\n')
    found = kind_comparisons([p], frozenset({"graph", "map", "workflow", "board", "episodes"}))
    assert [int(f.split(":")[-2]) for f in found] == [1, 2, 3, 4, 5, 6, 7]


def _handler_imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text("utf-8"))
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            out.update(f"{node.module}.{a.name}" for a in node.names)
        elif isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
    return out


# The core's modules that answer a request for some kinds only (the faces, ide/<family>/face.py, delegate to them).
PER_KIND = re.compile(r"grooph_core\.ide\.neighbours\.\w+"
                      r"|grooph_core\.ide\.grooph\.(hover|completion|refactor|formatting|navigation\.(document_symbols|folding_lines))\b"
                      r"|grooph_core\.ide\.grooph\.actions$"
                      r"|grooph_core\.ide\.grooph\.actions\.(quick_fixes|fix_offers|fix_all|resolve_offer|preview_svg|operations_edits)\b"
                      r"|grooph_core\.ide\.grooph\.analysis\.Analysis\b")


def test_the_request_handlers_ask_the_kind_and_never_which_kind() -> None:
    for name in HANDLERS:
        path = ROOT / "grooph_lsp" / name
        text = path.read_text("utf-8")
        assert "neighbour" not in text.lower(), f"{name} speaks of neighbours: ask the document's kind"
        assert "isinstance(analysis" not in text, f"{name} asks which analysis it holds"
        per_kind = sorted(m for m in _handler_imports(path) if PER_KIND.search(m))
        assert per_kind == [], f"{name} calls a kind's own module: {per_kind}"
        assert "document_kind" in text, f"{name} no longer asks the document's kind"
