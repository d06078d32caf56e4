"""Lifecycle (issue 4 item 1): --version, --log-file, --tcp, and a clean shutdown/exit."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time

from grooph_core import __version__


def test_version():
    r = subprocess.run([sys.executable, "-m", "grooph_lsp", "--version"], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0 and r.stdout.strip() == f"grooph-lsp {__version__}"


def _frame(msg: dict) -> bytes:
    body = json.dumps(msg).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def _read(stream_read) -> dict:
    header = b""
    while not header.endswith(b"\r\n\r\n"):
        chunk = stream_read(1)
        if not chunk:
            raise EOFError
        header += chunk
    length = int([l for l in header.split(b"\r\n") if l.lower().startswith(b"content-length")][0].split(b":")[1])
    body = b""
    while len(body) < length:
        body += stream_read(length - len(body))
    return json.loads(body)


def _session(write, read) -> list[dict]:
    write(_frame({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"processId": None, "rootUri": None, "capabilities": {}}}))
    got = []
    while True:
        msg = read()
        got.append(msg)
        if msg.get("id") == 1:
            break
    write(_frame({"jsonrpc": "2.0", "method": "initialized", "params": {}}))
    write(_frame({"jsonrpc": "2.0", "id": 2, "method": "shutdown", "params": None}))
    while True:
        msg = read()
        if msg.get("id") == 2:
            break
    write(_frame({"jsonrpc": "2.0", "method": "exit", "params": None}))
    return got


def test_stdio_session_shuts_down_cleanly(tmp_path):
    log = tmp_path / "server.log"
    p = subprocess.Popen([sys.executable, "-m", "grooph_lsp", "--log-file", str(log)], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    try:
        def write(b):
            p.stdin.write(b)
            p.stdin.flush()
        got = _session(write, lambda: _read(p.stdout.read))
        caps = got[-1]["result"]["capabilities"]
        assert caps["documentFormattingProvider"] and caps["renameProvider"] and caps["codeActionProvider"]
        assert "grooph.preview" in caps["executeCommandProvider"]["commands"]
        assert got[-1]["result"]["serverInfo"] == {"name": "grooph-lsp", "version": __version__}
        assert p.wait(timeout=30) == 0
    finally:
        p.kill()
    assert log.exists()
    assert "Traceback" not in log.read_text()


def test_tcp_session(tmp_path):
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    p = subprocess.Popen([sys.executable, "-m", "grooph_lsp", "--tcp", f"127.0.0.1:{port}"])
    try:
        deadline = time.time() + 30
        while True:
            try:
                conn = socket.create_connection(("127.0.0.1", port), timeout=5)
                break
            except OSError:
                if time.time() > deadline:
                    raise
                time.sleep(0.1)
        f = conn.makefile("rb")
        got = _session(conn.sendall, lambda: _read(f.read))
        assert got[-1]["result"]["capabilities"]["hoverProvider"]
        conn.close()
    finally:
        p.kill()
        p.wait(timeout=10)


def test_bad_tcp_address_is_a_clear_error():
    r = subprocess.run([sys.executable, "-m", "grooph_lsp", "--tcp", "nonsense"], capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and "HOST:PORT" in r.stderr
