"""Reading a document file for the command line: bytes → text → strict JSON value, or one clear issue.

Every command reads files through `read_document` so that a file that is not UTF-8, empty, not JSON,
too deep or too large gets the same single `E_SCHEMA` "not valid JSON" issue (graph.md §3.2 step 1),
never a traceback.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from grooph_core.issues import Issue
from grooph_core.kinds import Kind, detect_kind, kind_from_name

MAX_FILE_BYTES = 64 * 1024 * 1024
MAX_DEPTH = 512


@dataclass(frozen=True)
class Loaded:
    """A file as read: `value` is set when the text is valid JSON; otherwise `error` says why."""

    path: str
    text: str | None
    value: object
    kind: Kind
    error: Issue | None


class NoSuchFile(Exception):
    """The path names no readable file (cli.md §0.2: `grooph: no such file: <path>`)."""


def not_json(explanation: str) -> Issue:
    """graph.md §3.2 step 1: one E_SCHEMA whose message starts `/: not valid JSON`, `at` empty."""
    from grooph_core.schema_check import not_json_issue

    return not_json_issue(explanation)


def _reject_constant(name: str):
    raise ValueError(f"{name} is not a JSON number")


def _depth_exceeds(text: str, limit: int) -> bool:
    """True when brackets nest deeper than `limit` outside strings (cheap pre-check, no recursion)."""
    if text.count("[") + text.count("{") <= limit:
        return False
    depth = 0
    in_str = esc = False
    for ch in text:
        if in_str:
            if esc:
                esc = False
            elif ch == "\\":
                esc = True
            elif ch == '"':
                in_str = False
        elif ch == '"':
            in_str = True
        elif ch in "[{":
            depth += 1
            if depth > limit:
                return True
        elif ch in "]}":
            depth -= 1
    return False


def _line_col(text: str, pos: int) -> tuple[int, int]:
    line = text.count("\n", 0, pos) + 1
    col = pos - (text.rfind("\n", 0, pos) + 1) + 1
    return line, col


def parse_strict(text: str) -> tuple[object, Issue | None]:
    """Strict JSON as the reference parses it: NaN/Infinity, a BOM and trailing text are errors."""
    if text.strip() == "":
        return None, not_json("the document is empty")
    if text.startswith("\ufeff"):
        return None, not_json("a byte-order mark (U+FEFF) at the start is not JSON")
    if _depth_exceeds(text, MAX_DEPTH):
        return None, not_json(f"nested deeper than {MAX_DEPTH} levels")
    try:
        return json.loads(text, parse_constant=_reject_constant), None
    except json.JSONDecodeError as e:
        return None, not_json(_explain(text, e))
    except ValueError as e:  # NaN / Infinity
        return None, not_json(str(e))
    except RecursionError:
        return None, not_json(f"nested too deeply")


def _explain(text: str, e: json.JSONDecodeError) -> str:
    """The first syntax problem as the editor reports it (same words, same place as `--locations`
    and the language server), falling back to Python's explanation."""
    from grooph_core.line_index import LineIndex
    from grooph_core.source import parse

    try:
        first = next((p for p in parse(text).problems if p.code == "E_SYNTAX"), None)
    except Exception:  # the tolerant reader never raises; this only guards the explanation
        first = None
    if first is None or not first.data.get("span"):
        return f"{e.msg} at line {e.lineno}, column {e.colno}"
    line, col = LineIndex(text).position(first.data["span"][0])
    return f"{first.message} (line {line + 1}, column {col + 1})"


def decode(data: bytes) -> tuple[str | None, Issue | None]:
    """UTF-8 bytes to text, or the issue that says where the bytes stop being UTF-8."""
    try:
        return data.decode("utf-8"), None
    except UnicodeDecodeError as e:
        return None, not_json(f"the file is not UTF-8 text (byte 0x{data[e.start]:02x} at offset {e.start})")


def read_document(path: str) -> Loaded:
    """Read and strictly parse one file; raise NoSuchFile when it cannot be read at all."""
    p = Path(path)
    try:
        if p.is_dir():
            raise NoSuchFile(path)
        size = p.stat().st_size
        if size > MAX_FILE_BYTES:
            err = not_json(f"the file is {size} bytes, over the {MAX_FILE_BYTES}-byte limit")
            return Loaded(path, None, None, kind_from_name(path) or "graph", err)
        data = p.read_bytes()
    except (FileNotFoundError, NotADirectoryError, PermissionError, IsADirectoryError, OSError) as e:
        raise NoSuchFile(path) from e
    text, err = decode(data)
    if err is None:
        value, err = parse_strict(text)  # type: ignore[arg-type]
    else:
        value = None
    return Loaded(path, text, value, detect_kind(path, value) if err is None else (kind_from_name(path) or "graph"), err)
