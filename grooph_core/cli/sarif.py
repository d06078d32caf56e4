"""`grooph validate --format sarif`: a SARIF 2.1.0 log for code-scanning tools (OASIS SARIF 2.1.0
errata 01; the test validates it against that schema).

One run: `tool.driver` lists every code of the registry as a rule (title, usual repair, the page that
documents it, default level); each issue is a result with its rule, level, message and the region it
points at (1-based lines and columns, UTF-16 code units: `columnKind`). Inputs that could not be
checked (no such file, a folder without documents, a proposal set) are tool execution notifications.
"""

from __future__ import annotations

import os
from pathlib import Path
from urllib.parse import quote

from grooph_core import __version__
from grooph_core.cli.check_files import FileResult
from grooph_core.ide.code_docs import PAGE, page_uri
from grooph_core.issues import CODES

SCHEMA_URI = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
SRCROOT = "%SRCROOT%"
_RULE_INDEX = {code: i for i, code in enumerate(CODES)}


def rules() -> list[dict]:
    """The registry's codes as SARIF reporting descriptors, in registry order."""
    out = []
    for c in CODES.values():
        out.append({
            "id": c.code,
            "name": "".join(w.capitalize() for w in c.code.split("_")[1:]),
            "shortDescription": {"text": c.title},
            "fullDescription": {"text": f"{c.title}. Specified in {c.spec}." if c.spec else f"{c.title}."},
            "help": {"text": c.repair, "markdown": f"**Usual repair:** {c.repair}"},
            "helpUri": page_uri(c.code),
            "defaultConfiguration": {"level": c.severity},
            "properties": {"tags": list(c.applies_to) + (["export"] if c.export_only else [])},
        })
    return out


def artifact_location(path: str) -> dict:
    """A path as typed: relative ones against %SRCROOT% (the folder grooph ran in), absolute ones as
    file URIs."""
    if os.path.isabs(path):
        return {"uri": Path(path).as_uri()}
    rel = os.path.normpath(path).replace(os.sep, "/")
    return {"uri": quote(rel, safe="/"), "uriBaseId": SRCROOT}


def _region(rng) -> dict:
    start, end = rng["start"], rng["end"]
    return {"startLine": start["line"] + 1, "startColumn": start["character"] + 1,
            "endLine": end["line"] + 1, "endColumn": end["character"] + 1}


def results(result: FileResult) -> list[dict]:
    """The SARIF results of one file's issues, in validation order."""
    out = []
    for issue, rng in zip(result.issues, result.ranges or ()):
        out.append({
            "ruleId": issue.code,
            "ruleIndex": _RULE_INDEX[issue.code],
            "level": issue.severity,
            "message": {"text": issue.message},
            "locations": [{"physicalLocation": {"artifactLocation": artifact_location(result.path),
                                                "region": _region(rng)}}],
            "properties": {"at": list(issue.at)},
        })
    return out


def notification(message: str, path: str | None = None) -> dict:
    """An input that could not be checked, as a tool execution notification (level error)."""
    note: dict = {"level": "error", "message": {"text": message}}
    if path is not None:
        note["locations"] = [{"physicalLocation": {"artifactLocation": artifact_location(path)}}]
    return note


def sarif_log(found: list[dict], notifications: list[dict], cwd: str | None = None) -> dict:
    """The whole log: one run of grooph with `found` results; `executionSuccessful` is false when an
    input could not be checked."""
    root = Path(cwd or os.getcwd()).resolve().as_uri().rstrip("/") + "/"
    return {
        "$schema": SCHEMA_URI,
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {"name": "grooph", "version": __version__, "semanticVersion": __version__,
                                "informationUri": PAGE.as_uri(), "rules": rules()}},
            "invocations": [{"executionSuccessful": not notifications, "toolExecutionNotifications": notifications}],
            "originalUriBaseIds": {SRCROOT: {"uri": root}},
            "columnKind": "utf16CodeUnits",
            "results": found,
        }],
    }
