"""The core is grouped by layer (issue 14 item 3; DESIGN.md "Layers"; ARCHITECTURE.md "Code map").

Only `issues.py` (with `__init__`/`__main__`) stays at the top of grooph_core/; each package says in its
`__init__` docstring what it holds; every path the code map names exists.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CORE = ROOT / "grooph_core"


def test_the_top_of_the_core_holds_only_the_issues():
    assert sorted(p.name for p in CORE.glob("*.py")) == ["__init__.py", "__main__.py", "issues.py"]


def test_every_package_says_what_it_holds():
    for init in sorted(CORE.glob("*/__init__.py")):
        doc = ast.get_docstring(ast.parse(init.read_text("utf-8")))
        assert doc and len(doc.split()) >= 8, f"{init.relative_to(ROOT)} has no docstring saying what it holds"


def test_every_path_the_code_map_names_exists():
    text = (ROOT / "ARCHITECTURE.md").read_text("utf-8")
    table = text.split("# Code map", 1)[1].split("\n## ", 1)[0]
    named = re.findall(r"`((?:grooph_core|grooph_lsp)/[\w/]*(?:\.py)?)`", table)
    assert named
    for rel in named:
        assert (ROOT / rel).exists(), rel
