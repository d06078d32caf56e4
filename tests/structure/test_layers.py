"""The layers of DESIGN.md hold: the core never loads the protocol, and every module imports on its own.

A module that only imports after another one was imported first hides an import cycle; importing each
module alone in a fresh interpreter finds it.
"""

from __future__ import annotations

import pkgutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _modules(package: str) -> list[str]:
    pkg = __import__(package)
    names = [package]
    for info in pkgutil.walk_packages(pkg.__path__, prefix=f"{package}."):
        if info.name.endswith("__main__"):
            continue
        names.append(info.name)
    return sorted(names)


def _run(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=600)


def test_the_core_loads_no_protocol_library() -> None:
    code = (
        "import sys, pkgutil, importlib, grooph_core\n"
        "for m in pkgutil.walk_packages(grooph_core.__path__, prefix='grooph_core.'):\n"
        "    if not m.name.endswith('__main__'): importlib.import_module(m.name)\n"
        "bad = sorted(n for n in sys.modules if n.split('.')[0] in ('pygls', 'lsprotocol'))\n"
        "print(','.join(bad))\n"
    )
    result = _run(code)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "", f"grooph_core loaded {result.stdout.strip()}"


@pytest.mark.parametrize("package", ["grooph_core", "grooph_lsp"])
def test_every_module_imports_alone_in_a_fresh_interpreter(package: str) -> None:
    # One interpreter per module would take ~100 × 0.3 s; a child per module is forked from one warm parent
    # that has imported nothing of ours, which is just as fresh for the module under test.
    modules = _modules(package)
    code = (
        "import importlib, os, sys, traceback\n"
        f"mods = {modules!r}\n"
        "failed = []\n"
        "for name in mods:\n"
        "    pid = os.fork()\n"
        "    if pid == 0:\n"
        "        try:\n"
        "            importlib.import_module(name)\n"
        "        except BaseException:\n"
        "            traceback.print_exc()\n"
        "            os._exit(1)\n"
        "        os._exit(0)\n"
        "    _, status = os.waitpid(pid, 0)\n"
        "    if status != 0: failed.append(name)\n"
        "print('FAILED:' + ','.join(failed))\n"
    )
    result = _run(code)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().endswith("FAILED:"), result.stdout + result.stderr
