"""Reading a document file for the command line: bytes → text → strict JSON value, or one clear issue.

Every command reads files through `read_document` so that a file that is not UTF-8, empty, not JSON,
too deep or too large gets the same single `E_SCHEMA` "not valid JSON" issue (graph.md §3.2 step 1),
never a traceback. The text is read by `json_reader.parse_strict` (the editor's reader in strict mode, with
its depth limit `json_reader.CLI_MAX_DEPTH`); the byte limit of a file, `MAX_FILE_BYTES`, is defined here.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from grooph_core.issues import Issue
from grooph_core.source.json_reader import CLI_MAX_DEPTH as MAX_DEPTH
from grooph_core.source.json_reader import not_json_issue, parse_strict
from grooph_core.source.kinds import Kind, detect_kind, kind_from_name

# MAX_DEPTH and parse_strict are the reader's (source.py); named here too for the command line's modules.
__all__ = ["MAX_DEPTH", "MAX_FILE_BYTES", "Loaded", "NoSuchFile", "decode", "parse_strict", "read_document"]

MAX_FILE_BYTES = 64 * 1024 * 1024  # the command line reads no bigger file


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


def decode(data: bytes) -> tuple[str | None, Issue | None]:
    """UTF-8 bytes to text, or the issue that says where the bytes stop being UTF-8."""
    try:
        return data.decode("utf-8"), None
    except UnicodeDecodeError as e:
        return None, not_json_issue(f"the file is not UTF-8 text (byte 0x{data[e.start]:02x} at offset {e.start})")


def read_document(path: str) -> Loaded:
    """Read and strictly parse one file; raise NoSuchFile when it cannot be read at all."""
    p = Path(path)
    try:
        if p.is_dir():
            raise NoSuchFile(path)
        size = p.stat().st_size
        if size > MAX_FILE_BYTES:
            err = not_json_issue(f"the file is {size} bytes, over the {MAX_FILE_BYTES}-byte limit")
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
