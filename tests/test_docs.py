"""The user reference stands on its own (issue 32): the generated pages equal a fresh generation, every link
a user can follow resolves inside the repository, nothing a user reads points outside it, `grooph help
apply` lists every operation, and README's first command checks every kind."""

from __future__ import annotations

import ast
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from grooph_core.cli import COMMANDS, command_help, overview
from grooph_core.docs import generate
from grooph_core.ops.table import OPS

ROOT = Path(__file__).resolve().parents[1]
USER_PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")), *sorted((ROOT / "grooph_core" / "docs").glob("*.md")),
              ROOT / "editors" / "vscode" / "README.md", ROOT / "editors" / "vscode" / "CHANGELOG.md", ROOT / "CHANGELOG.md"]
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)|<(?:img|a)\b[^>]*\b(?:src|href)=\"([^\"]+)\"")
OUTSIDE = re.compile(r"\.\./shared|/work/shared|\bspec/[\w-]+\.md")


def _slug(heading: str) -> str:
    """GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def _prose(path: Path) -> str:
    """The page without its code blocks and code spans (what they hold is not a link)."""
    return re.sub(r"`[^`\n]*`", "", re.sub(r"```.*?```", "", path.read_text("utf-8"), flags=re.S))


def _anchors(path: Path) -> set[str]:
    text = re.sub(r"```.*?```", "", path.read_text("utf-8"), flags=re.S)
    return {_slug(m) for m in re.findall(r"^#+ (.*)$", text, flags=re.M)}


def _links(path: Path) -> list[str]:
    text = _prose(path)
    return [a or b for a, b in LINK.findall(text)]


@pytest.mark.parametrize("path", list(generate.pages()), ids=lambda p: p.name)
def test_generated_pages_match_a_fresh_generation(path):
    assert path.read_text("utf-8") == generate.pages()[path], (
        f"{path.relative_to(ROOT)} drifted from the code: run `python -m grooph_core.docs.generate` and commit it")


@pytest.mark.parametrize("path", [p for p in USER_PAGES if p.exists()], ids=lambda p: str(p.relative_to(ROOT)))
def test_every_link_resolves_inside_the_repository(path):
    bad = []
    for target in _links(path):
        if target.startswith("https://"):
            continue  # a public URL (never fetched here)
        if target.startswith(("http:", "file:", "/")):
            bad.append(f"{target} (not a path inside the repository)")
            continue
        file, _, anchor = target.partition("#")
        dest = (path.parent / file).resolve() if file else path
        if not dest.is_relative_to(ROOT) or not dest.exists():
            bad.append(f"{target} (no such file in the repository)")
        elif anchor and dest.suffix == ".md" and anchor not in _anchors(dest):
            bad.append(f"{target} (no heading with that anchor)")
    assert not bad, f"{path.relative_to(ROOT)}: " + "; ".join(bad)


def test_a_broken_link_is_found(tmp_path):
    """The link finder itself: a markdown link, an image and an anchor, as the test above reads them."""
    page = tmp_path / "p.md"
    page.write_text('# Top\n[a](x.md#y) ![b](pic.png) <img src="c.png" width="9"> `[not](a-link.md)`\n', "utf-8")
    assert _links(page) == ["x.md#y", "pic.png", "c.png"]
    assert _anchors(page) == {"top"}


def _help_pages() -> dict[str, str]:
    return {"overview": overview(), **{name: command_help(name) for name in COMMANDS}}


def test_nothing_a_user_reads_points_outside_the_repository():
    """README, docs/, the shipped pages, help pages and every string the code shows (docstrings and
    comments aside: developers may cite the specification's sections) never send anyone to ../shared or
    a spec/ file. docs/engine-reader.md is a contributor note about the engine oracle, which may."""
    found = []
    for path in USER_PAGES:
        if path.exists() and path.name != "engine-reader.md":
            found += [f"{path.relative_to(ROOT)}: {m}" for m in OUTSIDE.findall(path.read_text("utf-8"))]
    found += [f"grooph help {n}: {m}" for n, text in _help_pages().items() for m in OUTSIDE.findall(text)]
    for package in ("grooph_core", "grooph_lsp"):
        for py in sorted((ROOT / package).rglob("*.py")):
            tree = ast.parse(py.read_text("utf-8"))
            docs = {id(n.body[0].value) for n in ast.walk(tree) if isinstance(
                n, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and n.body and isinstance(
                n.body[0], ast.Expr) and isinstance(n.body[0].value, ast.Constant)}
            for node in ast.walk(tree):
                if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs:
                    found += [f"{py.relative_to(ROOT)}:{node.lineno}: {m}" for m in OUTSIDE.findall(node.value)]
    assert not found, "\n".join(found)


def test_every_path_a_help_page_names_exists():
    for name, text in _help_pages().items():
        for path in re.findall(r"(/\S+\.md)\b", text):
            assert Path(path).is_file(), f"grooph help {name} names {path}, which does not exist"


def test_help_apply_lists_every_operation_one_line_each():
    text = command_help("apply")
    lines = text.split("Operations (name, arguments, what it does):\n", 1)[1].split("\n\n", 1)[0].splitlines()
    assert [line.split()[0] for line in lines] == [o.name for o in OPS]
    for line, o in zip(lines, OPS):
        assert line.rstrip().endswith(o.summary) and " ".join(o.args) in line
    assert str(generate.OPS_PAGE) in text


def test_every_operation_has_a_section_with_its_arguments_and_example():
    text = generate.OPS_PAGE.read_text("utf-8")
    for o in OPS:
        section = text.split(f"\n## {o.name}\n", 1)[1].split("\n## ", 1)[0]
        for a in o.args:
            assert f"| `{a}` |" in section
        assert "```diff\n@@" in section, f"{o.name}'s example changes nothing"


def test_an_operation_example_runs_as_the_page_shows_it(tmp_path):
    """The page's command line, run: the op list applies to the shipped graph (a dry run)."""
    text = generate.OPS_PAGE.read_text("utf-8")
    line = text.split("\n## connect\n", 1)[1].split("```sh\n", 1)[1].split("\n", 1)[0]
    ops = shlex.split(line.split("|")[0])[1]
    done = subprocess.run([sys.executable, "-m", "grooph_core", "apply", generate.EXAMPLE_GRAPH, "--ops", "-"],
                          input=ops, cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "applied 1 op;" in done.stdout and "not written (dry run" in done.stdout


def test_every_kind_page_has_fields_codes_and_an_example():
    for page in generate.PAGES:
        text = (generate.HERE / page.file).read_text("utf-8")
        assert "| Field | Type | Required | Allowed words | Description |" in text
        assert "## Codes" in text and "](codes.md#" in text
        assert (ROOT / page.example).read_text("utf-8").rstrip("\n") in text


def test_readme_first_command_checks_every_kind_and_draws_a_picture(tmp_path):
    """README's first command, run as written (in a copy of the paths, the picture into tmp): every kind's
    shipped documents are checked clean, and a total closes the output on stderr."""
    readme = (ROOT / "README.md").read_text("utf-8")
    block = readme.split("```sh\n", 1)[1].split("```", 1)[0]
    line = next(x for x in block.splitlines() if "grooph validate" in x)
    validate, image = line[line.index("grooph validate"):].split(" && ")
    args = validate.split()[2:]
    paths = [str(p.relative_to(ROOT)) for a in args for p in sorted(ROOT.glob(a))]
    done = subprocess.run([sys.executable, "-m", "grooph_core", "validate", *paths], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    for suffix in (".grooph.json", ".grooph-map.json", ".workflow.yaml", ".board.json", ".episodes.json"):
        assert re.search(re.escape(suffix) + r": no issues$", done.stdout, flags=re.M), suffix
    assert re.fullmatch(r"checked \d+ documents: 0 errors, 0 warnings\n", done.stderr)
    image_args = image.split()[2:]
    out = tmp_path / "picture.svg"
    image_args[image_args.index("--out") + 1] = str(out)
    done = subprocess.run([sys.executable, "-m", "grooph_core", "image", *image_args], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert out.read_text("utf-8").startswith("<svg")
