"""The VS Code extension builds, lints clean and passes its node unit tests (issue 7, "Done when").

VS Code itself cannot be downloaded here, so the extension's VS Code-facing part is only compiled and
linted; its pure parts (server resolution, command arguments, the preview page and its CSP) are tested
under node by `npm test`. Skipped when node or npm is missing.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.conftest import ROOT
from tests.editors.vscode_build import EXTENSION, NPM, npm

NODE = shutil.which("node")

pytestmark = pytest.mark.skipif(
    NPM is None or NODE is None, reason="node and npm are needed to build the VS Code extension (Node 20+)"
)


def test_extension_builds_lints_and_passes_its_unit_tests():
    npm("ci", "--no-audit", "--no-fund", "--loglevel=error")
    npm("run", "compile")
    # The generated schemas were copied for `jsonValidation`, and they are the generated ones.
    for name in ("grooph-0.schema.json", "grooph-map-0.schema.json"):
        copied = EXTENSION / "schemas" / name
        assert copied.read_bytes() == (ROOT / "grooph_core" / "schema" / name).read_bytes()
    assert (EXTENSION / "out" / "src" / "extension.js").exists()
    npm("run", "lint")
    tested = npm("test")
    out = tested.stdout
    passed = re.search(r"^# pass (\d+)$", out, re.M)
    failed = re.search(r"^# fail (\d+)$", out, re.M)
    assert passed and failed, out[-2000:]
    assert int(failed.group(1)) == 0
    assert int(passed.group(1)) >= 30, "the unit tests did not all run"


def test_manifest_contributes_what_the_issue_lists():
    """package.json: both languages, the settings, the three commands, format on save by default,
    the schema association, and a main that the build produces."""
    manifest = json.loads((EXTENSION / "package.json").read_text("utf-8"))
    contributes = manifest["contributes"]
    languages = {lang["id"]: lang["extensions"] for lang in contributes["languages"]}
    # A workflow gets its own YAML language id by its double suffix only (issue 15 point 7), so other
    # YAML files stay plain YAML; boards and episode records stay JSON, matched by pattern.
    assert languages == {
        "grooph": [".grooph.json"],
        "grooph-map": [".grooph-map.json"],
        "grooph-workflow": [".workflow.yaml"],
    }
    for suffix in ("workflow.yaml", "board.json", "episodes.json"):
        assert f"workspaceContains:**/*.{suffix}" in manifest["activationEvents"], suffix
    settings = contributes["configuration"]["properties"]
    for key in ("grooph.server.command", "grooph.server.pythonPath", "grooph.complete", "grooph.debounceMs", "grooph.preview.theme"):
        assert key in settings, key
    assert settings["grooph.complete"]["default"] is False
    assert settings["grooph.debounceMs"]["default"] == 150
    assert settings["grooph.preview.theme"]["enum"] == ["auto", "light", "dark"]
    titles = {c["command"]: c["title"] for c in contributes["commands"]}
    assert titles == {
        "grooph.showPreview": "Preview picture",
        "grooph.askAndApplyOperations": "Apply operations…",
        "grooph.restartServer": "Restart server",
    }
    extension_id = f"{manifest['publisher']}.{manifest['name']}"
    for language in ("[grooph]", "[grooph-map]"):
        defaults = contributes["configurationDefaults"][language]
        assert defaults["editor.formatOnSave"] is True
        assert defaults["editor.defaultFormatter"] == extension_id
        assert defaults["files.eol"] == "\n"  # a new graph or map starts with LF, as graph.md §6.1 wants
    # A plain YAML value is a string to VS Code, where quick suggestions are off by default: a workflow's
    # statuses, roles and words (issue 15 point 5) pop up as you type only with `strings` on (VS Code 1.100's
    # schema: each of other/comments/strings is true/false or "on"/"inline"/"off"). No format on save: the
    # server does not format a workflow (grooph_core.ide.neighbours.face.WORKFLOW_NOT_FORMATTED).
    workflow = contributes["configurationDefaults"]["[grooph-workflow]"]
    assert workflow["editor.quickSuggestions"] == {"other": "on", "comments": "off", "strings": "on"}
    assert "editor.formatOnSave" not in workflow
    validation = {v["fileMatch"]: v["url"] for v in contributes["jsonValidation"]}
    assert validation == {
        "*.grooph.json": "./schemas/grooph-0.schema.json",
        "*.grooph-map.json": "./schemas/grooph-map-0.schema.json",
    }
    restricted = manifest["capabilities"]["untrustedWorkspaces"]["restrictedConfigurations"]
    assert {"grooph.server.command", "grooph.server.pythonPath"} <= set(restricted)
    assert manifest["main"] == "./dist/extension.js"  # made by esbuild (`npm run bundle`, issue 32)
    assert (EXTENSION / "package-lock.json").exists()
    # Everything the extension runs is bundled: no runtime dependency ships as node_modules.
    assert not manifest.get("dependencies") and "vscode-languageclient" in manifest["devDependencies"]
    assert "esbuild" in manifest["devDependencies"] and "npm run bundle" in manifest["scripts"]["vscode:prepublish"]
    assert manifest["repository"]["url"].startswith("https://") and (EXTENSION / manifest["icon"]).is_file()
    assert (EXTENSION / "CHANGELOG.md").is_file()
    assert not _tracked(EXTENSION / "schemas"), "the schemas are copied at build time, never committed twice"


def _tracked(path: Path) -> bool:
    """True when git tracks files under `path` (the schemas must stay a build-time copy)."""
    if shutil.which("git") is None:
        return False
    proc = subprocess.run(["git", "ls-files", str(path)], cwd=ROOT, capture_output=True, text=True)
    return proc.returncode == 0 and proc.stdout.strip() != ""


# What `vsce ls` may list besides the bundled server (bundled/): the bundle, the manifest, what it names, and
# the readme, changelog and licence.
PACKED = {"package.json", "dist/extension.js", "icon.png", "language-configuration.json", "README.md", "CHANGELOG.md",
          "LICENSE", "syntaxes/grooph.tmLanguage.json", "syntaxes/grooph-map.tmLanguage.json",
          "schemas/grooph-0.schema.json", "schemas/grooph-map-0.schema.json"}


def test_the_bundle_is_one_file_and_vsce_lists_only_what_the_extension_needs():
    """esbuild makes dist/extension.js (the extension and vscode-languageclient) needing only `vscode` and node's
    own modules; `vsce ls` lists exactly PACKED and the bundled server, never sources, tests or node_modules."""
    if not (EXTENSION / "node_modules" / ".bin" / "esbuild").exists():
        npm("ci", "--no-audit", "--no-fund", "--loglevel=error")
    npm("run", "copy-schemas")
    npm("run", "bundle")
    bundle = EXTENSION / "dist" / "extension.js"
    required = set(re.findall(r"""require\(["']([^"']+)["']\)""", bundle.read_text("utf-8")))
    from_node = {r for r in required if r.startswith("node:") or r in _NODE_BUILTINS}
    assert required - from_node == {"vscode"}, f"the bundle requires {sorted(required - from_node)} at run time"
    listed = npm("exec", "--", "vsce", "ls").stdout.split()
    outside = {p for p in listed if not p.startswith("bundled/")}
    assert outside == PACKED, f"vsce ls lists {sorted(outside ^ PACKED)} beyond or short of what the extension needs"
    assert len(outside) < 60
    assert not any("__pycache__" in p or p.endswith(".pyc") for p in listed)


_NODE_BUILTINS = {"assert", "buffer", "child_process", "crypto", "events", "fs", "net", "os", "path", "process",
                  "stream", "string_decoder", "url", "util", "tty"}
