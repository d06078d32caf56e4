"""The core's modules import one another without a cycle (issue 31), read from the source: every `import`
statement at module level or inside a function counts (a lazy import hides a cycle from Python, not from
this test); only imports under `if TYPE_CHECKING:` (annotations, never run) do not. A cycle is named by
its modules, in the order they import one another."""

from __future__ import annotations

import ast
from pathlib import Path

from tests.structure.test_shell import _type_checking_blocks, cycles

ROOT = Path(__file__).resolve().parents[2]
CORE = ROOT / "grooph_core"


def _module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def import_graph(core: Path) -> dict[str, set[str]]:
    """Module -> the modules of the package it imports (`from p import m` names module `p.m` when there is
    one, else `p`; relative imports resolved)."""
    root = core.parent
    paths = {_module_name(p, root): p for p in sorted(core.rglob("*.py"))}
    graph: dict[str, set[str]] = {}
    for module, path in paths.items():
        tree = ast.parse(path.read_text("utf-8"), str(path))
        skip = _type_checking_blocks(tree)
        package = module if path.name == "__init__.py" else module.rpartition(".")[0]
        found: set[str] = set()
        for node in ast.walk(tree):
            if id(node) in skip:
                continue
            if isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    up = package.split(".")[:len(package.split(".")) - node.level + 1]
                    base = ".".join(up + ([node.module] if node.module else []))
                for alias in node.names:
                    found.add(f"{base}.{alias.name}" if f"{base}.{alias.name}" in paths else base)
            elif isinstance(node, ast.Import):
                found.update(alias.name for alias in node.names)
        graph[module] = {m for m in found if m in paths and m != module}
    return graph


def core_cycles(core: Path = CORE) -> list[str]:
    return [" -> ".join(c) for c in cycles(import_graph(core))]


def test_the_core_has_no_import_cycle() -> None:
    found = core_cycles()
    assert found == [], "import cycles in grooph_core (break them; a lazy import does not):\n" + "\n".join(found)


def test_no_module_of_ide_imports_the_registration() -> None:
    """`ide/kinds.py` sits on top of `ide` (ARCHITECTURE.md "Code map"): a face or an analysis that asked
    it would close a cycle again; only the package (`ide/__init__`, which makes the faces) imports it."""
    graph = import_graph(CORE)
    askers = sorted(m for m, targets in graph.items()
                    if m.startswith("grooph_core.ide.") and "grooph_core.ide.kinds" in targets)
    assert askers == [], f"modules of ide importing ide.kinds: {askers}"


def test_a_cycle_through_a_function_level_import_is_found(tmp_path: Path) -> None:
    core = tmp_path / "grooph_core"
    (core / "ide" / "kinds").mkdir(parents=True)
    for p in (core / "__init__.py", core / "ide" / "__init__.py"):
        p.write_text("")
    (core / "ide" / "analysis.py").write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from grooph_core.ide.refused import Refused\n"  # annotations only: no arrow
        "def kind():\n    from grooph_core.ide.kinds import kind_named\n")
    (core / "ide" / "kinds" / "__init__.py").write_text("from .graph import GRAPH\n")
    (core / "ide" / "kinds" / "graph.py").write_text("from grooph_core.ide import analysis\n")
    (core / "ide" / "refused.py").write_text("from grooph_core.ide.analysis import kind\n")
    assert core_cycles(core) == [
        "grooph_core.ide.analysis -> grooph_core.ide.kinds -> grooph_core.ide.kinds.graph -> grooph_core.ide.analysis"]
