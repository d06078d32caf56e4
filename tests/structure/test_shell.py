"""The protocol shell's shape (issue 14 item 5), read from the source: lsprotocol objects are built in
convert.py only; grooph_lsp's modules import one another without a cycle (function-body imports
included); no module reaches into another's private names; each LSP method is registered once."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SHELL = ROOT / "grooph_lsp"


def _tree(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"), str(path))


def _type_checking_blocks(tree: ast.Module) -> set[int]:
    """ids of the nodes under `if TYPE_CHECKING:` (imports for annotations only, never run)."""
    out: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING":
            out.update(id(n) for n in ast.walk(node))
    return out


def lsp_constructions(path: Path) -> list[str]:
    """`lsp.Something(...)` calls: an lsprotocol class instantiated."""
    found = []
    for node in ast.walk(_tree(path)):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and isinstance(node.func.value, ast.Name)
                and node.func.value.id == "lsp" and node.func.attr[:1].isupper()):
            found.append(f"{path.name}:{node.lineno} lsp.{node.func.attr}")
    return found


def shell_imports(path: Path) -> set[str]:
    """The grooph_lsp modules a module imports, anywhere in it but under TYPE_CHECKING."""
    tree = _tree(path)
    skip = _type_checking_blocks(tree)
    out: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == "grooph_lsp":
            if node.module == "grooph_lsp":
                out.update(f"grooph_lsp.{a.name}" for a in node.names)
            else:
                out.add(node.module)
        elif isinstance(node, ast.Import):
            out.update(a.name for a in node.names if a.name.startswith("grooph_lsp."))
    return out


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    found: list[list[str]] = []
    state: dict[str, int] = {}

    def visit(n: str, path: list[str]) -> None:
        state[n] = 1
        for m in sorted(graph.get(n, ())):
            if state.get(m) == 1:
                found.append(path[path.index(m):] + [m] if m in path else [n, m])
            elif m not in state:
                visit(m, path + [m])
        state[n] = 2

    for n in sorted(graph):
        if n not in state:
            visit(n, [n])
    return found


def private_crossings(paths: list[Path]) -> list[str]:
    """Names with one leading underscore used from outside the module that defines them: imported
    (`from m import _x`), or read as an attribute of anything but `self`, `cls` or `super()` when the
    module itself never defines an attribute of that name."""
    out = []
    for path in paths:
        tree = _tree(path)
        own = {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute) and isinstance(n.ctx, ast.Store)}
        own |= {n.name for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}
        own |= {t.id for n in ast.walk(tree) if isinstance(n, ast.AnnAssign) for t in [n.target] if isinstance(t, ast.Name)}
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                out += [f"{path}:{node.lineno} imports {node.module}.{a.name}" for a in node.names
                        if a.name.startswith("_") and not a.name.startswith("__")]
            elif isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__"):
                base = node.value
                if isinstance(base, ast.Name) and base.id in ("self", "cls"):
                    continue
                if isinstance(base, ast.Call) and isinstance(base.func, ast.Name) and base.func.id == "super":
                    continue
                if ast.unparse(node) == "sys._getframe" or node.attr in own:
                    continue
                out.append(f"{path}:{node.lineno} {ast.unparse(node)}")
    return out


def test_lsprotocol_objects_are_built_in_convert_only() -> None:
    built = [c for p in sorted(SHELL.glob("*.py")) if p.name != "convert.py" for c in lsp_constructions(p)]
    assert built == []
    assert lsp_constructions(SHELL / "convert.py"), "the scan finds constructions where there are some"


def test_the_shell_modules_import_one_another_without_a_cycle() -> None:
    graph = {f"grooph_lsp.{p.stem}": shell_imports(p) for p in SHELL.glob("*.py") if p.stem != "__init__"}
    assert "grooph_lsp.features" in graph["grooph_lsp.server"]
    assert cycles(graph) == []
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == [["a", "b", "c", "a"]]  # the walk finds one


def test_no_module_reaches_into_another_modules_private_names() -> None:
    paths = sorted(SHELL.rglob("*.py")) + sorted((ROOT / "grooph_core").rglob("*.py"))
    assert private_crossings(paths) == []


def test_the_scan_sees_a_private_name_crossed(tmp_path: Path) -> None:
    p = tmp_path / "m.py"
    p.write_text("from grooph_core.ide.grooph.hover import _field_hover\n\ndef f(doc):\n    return doc._lines\n")
    assert len(private_crossings([p])) == 2


def test_each_lsp_method_and_command_is_registered_once_from_the_list() -> None:
    from grooph_lsp.server import COMMANDS, FEATURES, create_server

    methods = [m for m, _, _ in FEATURES]
    assert len(methods) == len(set(methods))
    server = create_server()
    assert set(server.protocol.fm.features) == set(methods)
    assert set(server.protocol.fm.commands) == {name for name, _ in COMMANDS}
