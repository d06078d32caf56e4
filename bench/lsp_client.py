"""A small JSON-RPC client that drives the real `grooph-lsp` over stdio, for the benchmark.

Hand-written on purpose: a reader thread stamps each message with the clock the moment its body has
been read, so a measured round trip is the server's time plus the pipe, not a client framework's
scheduling. The client answers the server's own requests (configuration, registration) with empty
results, or with the sections it was given (`configuration`, for a peer that pulls its settings), and
never sends anything the benchmark did not ask for.
"""

from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Received:
    """One message from the server and the `time.perf_counter()` at which it had been read whole."""

    at: float
    message: dict


class LspServerProcess:
    """`python -m grooph_lsp` (or `command`, e.g. the server under a profiler) as a child process, with
    request/notify and waiting for messages."""

    def __init__(self, cwd: str, *, init_options: dict | None = None, timeout: float = 120.0,
                 command: list[str] | None = None, resolve: bool = True, configuration: dict | None = None) -> None:
        self.timeout = timeout
        self.configuration = configuration or {}  # section -> what workspace/configuration answers for it
        self.proc = subprocess.Popen(
            command or [sys.executable, "-m", "grooph_lsp"], cwd=cwd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL, env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"},
        )
        self._next_id = 0
        self._responses: dict[int, Received] = {}
        self._cond = threading.Condition()
        self._write_lock = threading.Lock()
        self.notifications: queue.Queue[Received] = queue.Queue()
        self._reader = threading.Thread(target=self._read_loop, name="lsp-reader", daemon=True)
        self._reader.start()
        self.init_result = self.request("initialize", {
            "processId": os.getpid(),
            "rootUri": None,
            "capabilities": {
                "general": {"positionEncodings": ["utf-16"]},
                "textDocument": {
                    "publishDiagnostics": {"relatedInformation": True, "versionSupport": True},
                    # as VS Code: a code action's edit may come later, on codeAction/resolve
                    "codeAction": {"codeActionLiteralSupport": {"codeActionKind": {"valueSet": ["quickfix", "source.fixAll"]}},
                                   **({"dataSupport": True, "resolveSupport": {"properties": ["edit"]}} if resolve else {})},
                    "hover": {"contentFormat": ["markdown"]},
                    "formatting": {},
                },
                "workspace": {"workspaceEdit": {"documentChanges": True}},
            },
            "initializationOptions": init_options or {},
        })
        self.notify("initialized", {})

    @property
    def pid(self) -> int:
        return self.proc.pid

    # -- wire -------------------------------------------------------------------------------------

    def _write(self, message: dict) -> None:
        body = json.dumps(message, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
        with self._write_lock:
            self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
            self.proc.stdin.flush()

    def _read_loop(self) -> None:
        out = self.proc.stdout
        while True:
            length = None
            while True:
                line = out.readline()
                if not line:
                    return  # the server exited
                line = line.strip()
                if not line:
                    break
                name, _, value = line.partition(b":")
                if name.lower() == b"content-length":
                    length = int(value)
            body = out.read(length or 0)
            at = time.perf_counter()
            message = json.loads(body)
            if "id" in message and "method" in message:  # a request from the server: answer it
                self._answer(message)
                continue
            if "id" in message:
                with self._cond:
                    self._responses[message["id"]] = Received(at, message)
                    self._cond.notify_all()
            else:
                self.notifications.put(Received(at, message))

    def _answer(self, request: dict) -> None:
        method = request["method"]
        result: Any = None
        if method == "workspace/configuration":
            result = [self.configuration.get(item.get("section")) for item in request.get("params", {}).get("items", [])]
        self._write({"jsonrpc": "2.0", "id": request["id"], "result": result})

    # -- API --------------------------------------------------------------------------------------

    def notify(self, method: str, params: dict) -> float:
        """Send a notification; returns the clock just before it was written."""
        t = time.perf_counter()
        self._write({"jsonrpc": "2.0", "method": method, "params": params})
        return t

    def request(self, method: str, params: dict) -> Any:
        """Send a request and wait for its result (raises on an error response)."""
        return self.timed_request(method, params)[1]

    def timed_request(self, method: str, params: dict) -> tuple[float, Any]:
        """(milliseconds from writing the request to having read its response, result)."""
        self._next_id += 1
        rid = self._next_id
        t = time.perf_counter()
        self._write({"jsonrpc": "2.0", "id": rid, "method": method, "params": params})
        deadline = t + self.timeout
        with self._cond:
            while rid not in self._responses:
                left = deadline - time.perf_counter()
                if left <= 0 or self.proc.poll() is not None:
                    raise TimeoutError(f"no answer to {method} within {self.timeout:.0f} s")
                self._cond.wait(min(left, 1.0))
            got = self._responses.pop(rid)
        if "error" in got.message:
            raise RuntimeError(f"{method} failed: {got.message['error']}")
        return (got.at - t) * 1000, got.message.get("result")

    def send(self, method: str, params: dict) -> tuple[int, float]:
        """Send a request without waiting: (its id, the clock just before it was written)."""
        self._next_id += 1
        rid = self._next_id
        t = time.perf_counter()
        self._write({"jsonrpc": "2.0", "id": rid, "method": method, "params": params})
        return rid, t

    def answer(self, rid: int) -> Received:
        """The response to request `rid` (waits for it)."""
        deadline = time.perf_counter() + self.timeout
        with self._cond:
            while rid not in self._responses:
                left = deadline - time.perf_counter()
                if left <= 0 or self.proc.poll() is not None:
                    raise TimeoutError(f"no answer to request {rid} within {self.timeout:.0f} s")
                self._cond.wait(min(left, 1.0))
            return self._responses.pop(rid)

    def wait_diagnostics(self, uri: str, version: int | None) -> Received:
        """The next publishDiagnostics for `uri` at `version` (older ones are skipped); `None` takes the
        next one without a version (a server that sends none, as yaml-language-server)."""
        deadline = time.perf_counter() + self.timeout
        while True:
            left = deadline - time.perf_counter()
            if left <= 0:
                raise TimeoutError(f"no diagnostics for version {version} within {self.timeout:.0f} s")
            try:
                got = self.notifications.get(timeout=min(left, 1.0))
            except queue.Empty:
                if self.proc.poll() is not None:
                    raise RuntimeError("the server exited") from None
                continue
            m = got.message
            if m.get("method") == "textDocument/publishDiagnostics":
                p = m["params"]
                if p["uri"] == uri and p.get("version") == version:
                    return got

    def status(self, field: str) -> int:
        """A memory figure of the server process from /proc (kB), e.g. VmHWM (peak) or VmRSS."""
        with open(f"/proc/{self.pid}/status", encoding="ascii") as f:
            for line in f:
                if line.startswith(field + ":"):
                    return int(line.split()[1])
        raise KeyError(field)

    def cpu_seconds(self) -> float:
        """User + system CPU time the server process has used so far (/proc/<pid>/stat, clock ticks)."""
        with open(f"/proc/{self.pid}/stat", encoding="ascii") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def close(self) -> None:
        """shutdown + exit; kill the process if it does not go within a few seconds."""
        try:
            if self.proc.poll() is None:
                self.request("shutdown", {})
                self.notify("exit", {})
                self.proc.wait(timeout=10)
        except Exception:
            pass
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
                self.proc.wait()
            for pipe in (self.proc.stdin, self.proc.stdout):
                try:
                    pipe.close()
                except Exception:
                    pass

    def __enter__(self) -> "LspServerProcess":
        return self

    def __exit__(self, *exc) -> None:
        self.close()
