"""A raw JSON-RPC client for the real `grooph-lsp` over stdio that records every message.

The fuzzed session (test_fuzz_session.py) and the security tests need what pytest-lsp's client hides:
every message in arrival order (to check that diagnostics never go back to an older version), each
request's exact answer or error (never silence), `$/cancelRequest` for a request in flight, and the
server's own requests (`workspace/applyEdit`) handed to the test to answer. The bench has its own
timing client (bench/lsp_client.py); this one trades its timestamps for recording.

Messages are written with `ensure_ascii=True`, so a lone surrogate in a document travels as `\\udXXX`,
as an editor written in JavaScript sends it.
"""

from __future__ import annotations

import itertools
import json
import os
import queue
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable


@dataclass
class Arrived:
    """One message from the server and its place in the arrival order."""

    seq: int
    message: dict
    at: float = field(default_factory=time.monotonic)


@dataclass
class Pending:
    """A request the client sent: what the test needs to judge its answer."""

    id: int
    method: str
    params: Any
    context: dict = field(default_factory=dict)
    sent: float = field(default_factory=time.monotonic)
    cancelled: bool = False
    answers: list[Arrived] = field(default_factory=list)


class StdioServer:
    """`python -m grooph_lsp` as a child process: send requests and notifications, record everything.

    A reader thread parses frames. Responses are filed under their request; notifications are kept in
    order; the server's requests are answered at once by `answer_server_request` (configuration,
    registration, showDocument …) or, for `workspace/applyEdit`, queued for the test (`server_requests`).
    A writer thread alone writes to the server, so neither the test nor the reader ever blocks on a pipe.
    """

    def __init__(self, cwd: str | Path, *, log_file: str | Path, stderr_file: str | Path,
                 env: dict[str, str] | None = None, configuration: dict | None = None,
                 log_level: str = "WARNING") -> None:
        self.configuration = configuration or {}
        self._stderr = open(stderr_file, "wb")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "grooph_lsp", "--log-file", str(log_file), "--log-level", log_level],
            cwd=str(cwd), stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self._stderr,
            env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1", **(env or {})},
        )
        self._ids = itertools.count(1)
        self._seq = itertools.count(1)
        self._lock = threading.Condition()
        self._outbox: queue.Queue[bytes | None] = queue.Queue()
        self.pending: dict[int, Pending] = {}
        self.notifications: list[Arrived] = []
        self.stray: list[Arrived] = []  # responses to ids never sent, or malformed frames
        self.server_requests: queue.Queue[Arrived] = queue.Queue()
        self.answered_server_requests: list[Arrived] = []
        self.last_seq = 0
        self.closed = False
        self.on_notification: Callable[[Arrived], None] | None = None
        self._reader = threading.Thread(target=self._read_loop, name="lsp-reader", daemon=True)
        self._reader.start()
        self._writer = threading.Thread(target=self._write_loop, name="lsp-writer", daemon=True)
        self._writer.start()

    # -- the wire -------------------------------------------------------------------------------

    def _write(self, message: dict) -> None:
        """Queue a message for the writer thread. Nobody else writes to the pipe: a reader that wrote
        its answers itself could block on a full pipe while the server blocks writing to it, and
        neither would ever read again."""
        body = json.dumps(message, ensure_ascii=True, separators=(",", ":")).encode("ascii")
        self._outbox.put(b"Content-Length: %d\r\n\r\n" % len(body) + body)

    def _write_loop(self) -> None:
        while True:
            frame = self._outbox.get()
            if frame is None:
                return
            try:
                self.proc.stdin.write(frame)
                self.proc.stdin.flush()
            except (BrokenPipeError, ValueError, OSError):
                return  # the server is gone; `alive()` tells the test

    def _read_loop(self) -> None:
        out = self.proc.stdout
        try:
            while True:
                length = None
                while True:
                    line = out.readline()
                    if not line:
                        return
                    line = line.strip()
                    if not line:
                        break
                    name, _, value = line.partition(b":")
                    if name.strip().lower() == b"content-length":
                        length = int(value)
                body = out.read(length or 0)
                try:
                    message = json.loads(body)
                except ValueError:
                    with self._lock:
                        self.stray.append(Arrived(next(self._seq), {"unparsable": body[:200].decode("utf-8", "replace")}))
                    continue
                self._dispatch(message)
        finally:
            with self._lock:
                self.closed = True
                self._lock.notify_all()

    def _dispatch(self, message: dict) -> None:
        arrived = Arrived(next(self._seq), message)
        self.last_seq = arrived.seq
        if "method" in message and "id" in message:
            if message["method"] == "workspace/applyEdit":
                self.server_requests.put(arrived)
            else:
                self.answered_server_requests.append(arrived)
                self.respond(message["id"], self.answer_server_request(message))
            return
        with self._lock:
            if "method" in message:
                self.notifications.append(arrived)
            else:
                p = self.pending.get(message.get("id"))
                if p is None:
                    self.stray.append(arrived)
                else:
                    p.answers.append(arrived)
            self._lock.notify_all()
        if "method" in message and self.on_notification is not None:
            self.on_notification(arrived)

    def answer_server_request(self, request: dict) -> Any:
        """What an editor answers to the server's own requests."""
        method = request["method"]
        if method == "workspace/configuration":
            return [self.configuration.get(item.get("section", "")) for item in request.get("params", {}).get("items", [])]
        if method == "window/showDocument":
            return {"success": True}
        return None

    # -- the API --------------------------------------------------------------------------------

    def respond(self, msg_id: Any, result: Any) -> None:
        self._write({"jsonrpc": "2.0", "id": msg_id, "result": result})

    def notify(self, method: str, params: Any) -> None:
        self._write({"jsonrpc": "2.0", "method": method, "params": params})

    def send(self, method: str, params: Any, **context: Any) -> Pending:
        """Send a request without waiting; its answer is filed under the returned `Pending`."""
        rid = next(self._ids)
        p = Pending(rid, method, params, context)
        with self._lock:
            self.pending[rid] = p
        self._write({"jsonrpc": "2.0", "id": rid, "method": method, "params": params})
        return p

    def cancel(self, p: Pending | int) -> None:
        """`$/cancelRequest` for a request (or any id, sent or not)."""
        rid = p.id if isinstance(p, Pending) else p
        if isinstance(p, Pending):
            p.cancelled = True
        self.notify("$/cancelRequest", {"id": rid})

    def wait(self, p: Pending, timeout: float = 60.0) -> dict:
        """The answer to a request; AssertionError when none comes (silence) or the server died."""
        deadline = time.monotonic() + timeout
        with self._lock:
            while not p.answers:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"no answer to request {p.id} ({p.method}) within {timeout:.0f} s")
                if self.closed:
                    raise AssertionError(f"the server closed its output before answering {p.id} ({p.method})")
                self._lock.wait(min(left, 0.5))
            return p.answers[0].message

    def request(self, method: str, params: Any, timeout: float = 60.0) -> dict:
        """Send and wait: the whole response message (`result` or `error`)."""
        return self.wait(self.send(method, params), timeout)

    def wait_until(self, predicate: Callable[[], Any], timeout: float, what: str) -> Any:
        deadline = time.monotonic() + timeout
        with self._lock:
            while True:
                value = predicate()
                if value:
                    return value
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"timed out after {timeout:.0f} s waiting for {what}")
                if self.closed:
                    raise AssertionError(f"the server closed its output while waiting for {what}")
                self._lock.wait(min(left, 0.5))

    def unanswered(self) -> list[Pending]:
        with self._lock:
            return [p for p in self.pending.values() if not p.answers]

    def alive(self) -> bool:
        return self.proc.poll() is None and not self.closed

    def initialize(self, capabilities: dict, options: dict | None = None, root: Path | None = None) -> dict:
        answer = self.request("initialize", {
            "processId": os.getpid(),
            "rootUri": root.as_uri() if root else None,
            "capabilities": capabilities,
            "initializationOptions": options or {},
        })
        self.notify("initialized", {})
        return answer

    def shutdown(self, timeout: float = 20.0) -> int | None:
        """shutdown + exit; the exit code (None when the process had to be killed)."""
        code = None
        try:
            if self.alive():
                self.request("shutdown", None, timeout=timeout)
                self.notify("exit", None)
            code = self.proc.wait(timeout=timeout)
        except (AssertionError, subprocess.TimeoutExpired):
            self.proc.kill()
            self.proc.wait()
        finally:
            self._outbox.put(None)
            self._stderr.close()
        return code

    def peak_memory_kb(self) -> int | None:
        """The server's peak resident memory (VmHWM) while it is running, in kB."""
        try:
            with open(f"/proc/{self.proc.pid}/status", encoding="ascii") as f:
                for line in f:
                    if line.startswith("VmHWM:"):
                        return int(line.split()[1])
        except OSError:
            return None
        return None


def editor_capabilities() -> dict:
    """What a full editor offers: pushed diagnostics with versions, code action literals, apply-edit,
    configuration, showDocument, hierarchical symbols, prepareRename; UTF-16 positions."""
    return {
        "general": {"positionEncodings": ["utf-16"]},
        "workspace": {
            "applyEdit": True,
            "configuration": True,
            "workspaceEdit": {"documentChanges": True},
            "didChangeConfiguration": {"dynamicRegistration": False},
        },
        "textDocument": {
            "synchronization": {"didSave": True},
            "publishDiagnostics": {"relatedInformation": True, "versionSupport": True},
            "hover": {"contentFormat": ["markdown", "plaintext"]},
            "completion": {"completionItem": {"documentationFormat": ["markdown"]}},
            "codeAction": {
                "codeActionLiteralSupport": {"codeActionKind": {"valueSet": ["quickfix", "source.fixAll"]}},
                "isPreferredSupport": True,
            },
            "rename": {"prepareSupport": True},
            "documentSymbol": {"hierarchicalDocumentSymbolSupport": True},
            "foldingRange": {},
            "formatting": {},
        },
        "window": {"showDocument": {"support": True}},
    }
