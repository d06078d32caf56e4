"""The core's packages import downward only (DESIGN.md "Layers", ARCHITECTURE.md "Code map").

DESIGN.md's order, top to bottom: `cli/` → `ide/` → `picture/` → `ops/` → `rules/` → `semantics/` →
`model/`, `schema/` → `source/` and `issues.py`. A module may import its own package and any package
below it, never one above. `workspace/` (a folder's files and the links between maps and graphs) reads
`ide/` and is read only by the shell, so it shares the top rank with `cli/`, as does `docs/` (the
generator of the user reference, which reads the models, the codes and the operations). The imports are
read from the source (every `import` statement, at module level or inside a function), so a lazy import
cannot hide an upward arrow.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CORE = ROOT / "grooph_core"

# Top first; packages on one line share a rank (neither is above the other).
ORDER: list[tuple[str, ...]] = [
    ("cli", "workspace", "docs"),
    ("ide",),
    ("picture",),
    ("ops",),
    ("rules",),
    ("semantics",),
    ("model", "schema"),
    ("source", "issues"),
]
RANK = {name: rank for rank, names in enumerate(ORDER) for name in names}


def _layer(module: str) -> str | None:
    """`grooph_core.rules.graph.ids` -> `rules`; the package root itself (`grooph_core`: the version) -> None."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[0] == "grooph_core" else None


def _imports(path: Path) -> list[tuple[int, str]]:
    tree = ast.parse(path.read_text("utf-8"), str(path))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            if node.module == "grooph_core":  # `from grooph_core import issues` names a module
                found += [(node.lineno, f"grooph_core.{a.name}") for a in node.names]
            else:
                found.append((node.lineno, node.module))
        elif isinstance(node, ast.Import):
            found += [(node.lineno, a.name) for a in node.names]
    return found


def _own_layer(path: Path, core: Path = CORE) -> str | None:
    rel = path.relative_to(core)
    return rel.parts[0].removesuffix(".py") if rel.parts[0] not in ("__init__.py", "__main__.py") else None


def _upward(core: Path) -> list[str]:
    found = []
    for path in sorted(core.rglob("*.py")):
        own = _own_layer(path, core)
        if own is None:
            continue
        for line, module in _imports(path):
            target = _layer(module)
            if target is None or target == own or target not in RANK or own not in RANK:
                continue
            if RANK[target] < RANK[own]:
                found.append(f"{path.relative_to(core.parent)}:{line} ({own}) imports {module} ({target})")
    return found


def test_every_package_of_the_core_has_its_place_in_the_order() -> None:
    packages = {p.name for p in CORE.iterdir() if (p / "__init__.py").exists()} | {"issues"}
    assert packages == set(RANK), "a package of the core is missing from ORDER (or ORDER names one that is gone)"


def test_no_module_of_a_lower_layer_imports_a_higher_one() -> None:
    upward = _upward(CORE)
    assert upward == [], "imports against the layers:\n" + "\n".join(upward)


def test_an_upward_import_is_found_even_inside_a_function(tmp_path: Path) -> None:
    core = tmp_path / "grooph_core"
    (core / "semantics").mkdir(parents=True)
    (core / "semantics" / "names.py").write_text(
        "from grooph_core.source.text import pointer_join\n"  # down: fine
        "from grooph_core.semantics.references import rewrite_id\n"  # its own layer: fine
        "def rename():\n    from grooph_core.ide.refused import Refused\n")  # up
    (core / "issues.py").write_text("from grooph_core import rules\n")  # up, by module name
    assert _upward(core) == [
        "grooph_core/issues.py:1 (issues) imports grooph_core.rules (rules)",
        "grooph_core/semantics/names.py:4 (semantics) imports grooph_core.ide.refused (ide)",
    ]
