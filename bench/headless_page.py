"""Debian's Chromium, headless, driven over the Chrome DevTools Protocol with aiohttp's WebSocket client:
what the live picture's browser test (tests/editors/test_live_picture.py) and its benchmark
(bench/live_picture.py) open the page in. Nothing here fetches anything but the page it is told to open."""

from __future__ import annotations

import asyncio
import itertools
import json
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import aiohttp

CHROMIUM = os.environ.get("GROOPH_CHROMIUM", "/usr/bin/chromium")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--disable-default-apps", "--mute-audio",
         "--remote-debugging-port=0", "--window-size=1200,900"]


class HeadlessPage:
    """One Chromium process with one page; `call` sends a CDP command and waits for its answer; the
    page's console and log entries are kept in `logs`."""

    def __init__(self, executable: str = CHROMIUM) -> None:
        self.executable = executable
        self.logs: list[str] = []
        self._ids = itertools.count(1)
        self._waiting: dict[int, asyncio.Future] = {}
        self._profile: str | None = None
        self._proc: subprocess.Popen | None = None
        self._session: aiohttp.ClientSession | None = None
        self._ws = None
        self._reader: asyncio.Task | None = None

    @staticmethod
    def available(executable: str = CHROMIUM) -> bool:
        return Path(executable).exists() or shutil.which(executable) is not None

    async def start(self, timeout: float = 60.0) -> "HeadlessPage":
        self._profile = tempfile.mkdtemp(prefix="grooph-chromium-")
        self._proc = subprocess.Popen([self.executable, *FLAGS, f"--user-data-dir={self._profile}", "about:blank"],
                                      stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        active = Path(self._profile) / "DevToolsActivePort"
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while not (active.exists() and len(active.read_text().splitlines()) >= 2):
            if self._proc.poll() is not None or loop.time() > end:
                raise RuntimeError(f"{self.executable} did not start its DevTools endpoint (exit {self._proc.poll()})")
            await asyncio.sleep(0.05)
        port = int(active.read_text().splitlines()[0])
        self._session = aiohttp.ClientSession()
        while True:
            async with self._session.get(f"http://127.0.0.1:{port}/json/list") as r:
                pages = [t for t in await r.json() if t.get("type") == "page"]
            if pages:
                break
            if loop.time() > end:
                raise RuntimeError("Chromium opened no page")
            await asyncio.sleep(0.05)
        self._ws = await self._session.ws_connect(pages[0]["webSocketDebuggerUrl"], max_msg_size=0)
        self._reader = loop.create_task(self._read())
        await self.call("Runtime.enable")
        await self.call("Log.enable")
        await self.call("Page.enable")
        return self

    async def _read(self) -> None:
        async for msg in self._ws:
            if msg.type != aiohttp.WSMsgType.TEXT:
                continue
            data = json.loads(msg.data)
            fut = self._waiting.pop(data.get("id"), None)
            if fut is not None and not fut.done():
                fut.set_result(data)
            elif data.get("method") == "Log.entryAdded":
                self.logs.append(data["params"]["entry"].get("text", ""))
            elif data.get("method") == "Runtime.consoleAPICalled":
                self.logs.append(" ".join(str(a.get("value", a.get("description", ""))) for a in data["params"]["args"]))
            elif data.get("method") == "Runtime.exceptionThrown":
                self.logs.append("exception: " + json.dumps(data["params"]["exceptionDetails"])[:500])

    async def call(self, method: str, timeout: float = 30.0, **params) -> dict:
        n = next(self._ids)
        fut = asyncio.get_running_loop().create_future()
        self._waiting[n] = fut
        await self._ws.send_str(json.dumps({"id": n, "method": method, "params": params}))
        answer = await asyncio.wait_for(fut, timeout)
        if "error" in answer:
            raise RuntimeError(f"{method}: {answer['error']}")
        return answer.get("result", {})

    async def evaluate(self, expression: str):
        """The value of a JavaScript expression in the page (promises awaited)."""
        result = await self.call("Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True)
        if "exceptionDetails" in result:
            raise RuntimeError(f"{expression}: {result['exceptionDetails']}")
        return result["result"].get("value")

    async def until(self, expression: str, timeout: float = 20.0, what: str = ""):
        """Poll a JavaScript expression until it is truthy; its value."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while True:
            value = await self.evaluate(expression)
            if value:
                return value
            if loop.time() > end:
                raise AssertionError(f"waited {timeout:.0f} s for {what or expression}; last: {value!r}")
            await asyncio.sleep(0.05)

    async def open(self, url: str) -> None:
        await self.call("Page.navigate", url=url)

    async def click(self, selector: str) -> None:
        """A real mouse click (pressed, released) at the middle of the first element `selector` finds."""
        box = await self.evaluate(
            f"(function () {{ var el = document.querySelector({json.dumps(selector)}); if (!el) return null;"
            " el.scrollIntoView({block: 'center', inline: 'center'}); var r = el.getBoundingClientRect();"
            " return [r.left + r.width / 2, r.top + r.height / 2]; }())")
        if not box:
            raise AssertionError(f"nothing on the page matches {selector}")
        x, y = box
        for kind in ("mousePressed", "mouseReleased"):
            await self.call("Input.dispatchMouseEvent", type=kind, x=x, y=y, button="left", clickCount=1)

    async def close(self) -> None:
        if self._reader is not None:
            self._reader.cancel()
        if self._ws is not None:
            await self._ws.close()
        if self._session is not None:
            await self._session.close()
        if self._proc is not None and self._proc.poll() is None:
            self._proc.terminate()
            try:
                self._proc.wait(10)
            except subprocess.TimeoutExpired:
                self._proc.kill()
                self._proc.wait()
        if self._profile is not None:
            shutil.rmtree(self._profile, ignore_errors=True)
