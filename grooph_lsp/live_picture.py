"""The live picture (issue 29 item 4; DESIGN.md "Preview"): a small page on the loopback that shows an
open document's picture and redraws it from the buffer's newest analysis, for any editor.

One aiohttp server on pygls's own loop, started by the first `grooph.preview` and closed at shutdown:
127.0.0.1 only, a port the system picks, a secret token as the first step of every path; a request
without the token, or whose `Host` (or a WebSocket's `Origin`) is not that address, gets 403. Each
document has a path of its own; its page holds a WebSocket on which the server pushes every new
picture (or the fault that keeps the text from being drawn) and the page asks for a map view or for
the editor to reveal a clicked element (`window/showDocument` with the id's definition as selection).
The page loads nothing but itself (Content-Security-Policy); the picture is drawn by the core and its
document text is escaped there (pictures.md §1.2). Whatever a document names is never fetched.
"""

from __future__ import annotations

import asyncio
import html
import json
import logging
import secrets
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from aiohttp import WSCloseCode, WSMsgType, web

from grooph_core.ide.refused import Refused
from grooph_core.picture import DRAWN
from grooph_core.picture.marks import MARKS
from grooph_lsp import convert
from grooph_lsp.convert import to_lsp_range

if TYPE_CHECKING:
    from grooph_core.ide.document import DocumentAnalysis
    from grooph_lsp.server import GroophServer

log = logging.getLogger("grooph_lsp")

LOOPBACK = "127.0.0.1"
VIEWS = (None, "wide", "sequence")
MAX_MESSAGE = 4096  # what a page sends (a view, a clicked id) is small; more is not ours


@dataclass(eq=False)
class Viewer:
    """One open page of one document: its socket, the map view it shows, and the newest analysis it
    has yet to be sent (drawn one at a time; a newer analysis replaces one not drawn yet)."""

    uri: str
    ws: web.WebSocketResponse
    view: str | None = None
    pending: "DocumentAnalysis | None" = None
    drawing: asyncio.Task | None = field(default=None, repr=False)


class LivePicture:
    """The pages of the open documents' pictures (one server for all of them, started when first asked)."""

    def __init__(self, ls: "GroophServer") -> None:
        self.ls = ls
        self.token = secrets.token_urlsafe(32)
        self.port: int | None = None
        self._runner: web.AppRunner | None = None
        self._starting = asyncio.Lock()
        self._keys: dict[str, str] = {}   # uri -> the document's path step
        self._uris: dict[str, str] = {}   # path step -> uri
        self._viewers: dict[str, set[Viewer]] = {}
        self._newest: dict[str, "DocumentAnalysis"] = {}  # of the documents a page shows
        self._sending: set[asyncio.Task] = set()
        # pictures are drawn here, beside the analyses and the requests, so neither waits for one
        self._painter = ThreadPoolExecutor(max_workers=1, thread_name_prefix="grooph-picture")

    # --- what the server asks ----------------------------------------------------------------------

    @property
    def origin(self) -> str:
        return f"http://{LOOPBACK}:{self.port}"

    async def url(self, uri: str, view: str | None = None) -> str:
        """The address of the document's page (the server is started on the first call)."""
        await self._start()
        key = self._keys.get(uri)
        if key is None:
            key = self._keys[uri] = f"d{len(self._keys) + 1}"
            self._uris[key] = uri
        return f"{self.origin}/{self.token}/{key}" + (f"?view={view}" if view else "")

    def watches(self, uri: str) -> bool:
        """A page shows this document now (its changes are analysed even for a client that pulls)."""
        return bool(self._viewers.get(uri))

    def published(self, uri: str, analysis: "DocumentAnalysis") -> None:
        """The document's newest analysis: every page of it redraws (called on the loop). Only a shown
        document's is held (a page that connects later asks for the current one)."""
        viewers = self._viewers.get(uri)
        if not viewers:
            return
        self._newest[uri] = analysis
        for viewer in viewers:
            self._draw(viewer, analysis)

    def theme_changed(self) -> None:
        """The `preview.theme` setting changed: every page takes it (the pictures are drawn `auto`)."""
        for viewers in self._viewers.values():
            for viewer in viewers:
                self._send(viewer, {"type": "theme", "theme": self.ls.settings.preview_theme})

    def closed(self, uri: str) -> None:
        """The editor closed the document: its pages keep the last picture and say so."""
        self._newest.pop(uri, None)
        for viewer in list(self._viewers.get(uri, ())):
            self._send(viewer, {"type": "fault", "message": "The document was closed in the editor; open it again to see it live."})

    async def close(self) -> None:
        """Close every page's socket and the port (shutdown)."""
        runner, self._runner = self._runner, None
        if runner is not None:
            await runner.cleanup()
        self._painter.shutdown(wait=False, cancel_futures=True)

    # --- the HTTP side -------------------------------------------------------------------------------

    async def _start(self) -> None:
        async with self._starting:
            if self._runner is not None:
                return
            app = web.Application(middlewares=[self._guard], client_max_size=MAX_MESSAGE)
            app.router.add_get("/{token}/{doc}", self._page)
            app.router.add_get("/{token}/{doc}/ws", self._socket)
            app.on_shutdown.append(self._close_sockets)
            runner = web.AppRunner(app, access_log=None, handle_signals=False)  # no log line carries the token
            await runner.setup()
            site = web.TCPSite(runner, LOOPBACK, 0)
            await site.start()
            self._runner = runner
            self.port = runner.addresses[0][1]
            _withhold_in_logs(self.token)
            log.info("live picture serving on %s (token withheld)", self.origin)

    @web.middleware
    async def _guard(self, request: web.Request, handler):
        """403 unless the path starts with the token and the request names this very address."""
        first = request.path.split("/", 2)[1] if request.path.startswith("/") else ""
        origin = request.headers.get("Origin")
        if (not secrets.compare_digest(first.encode(), self.token.encode())
                or request.headers.get("Host") != f"{LOOPBACK}:{self.port}"
                or (origin is not None and origin != self.origin)):
            raise web.HTTPForbidden(text="Forbidden.")
        response = await handler(request)
        response.headers.update(_SAFE_HEADERS)
        return response

    def _document(self, request: web.Request) -> str:
        uri = self._uris.get(request.match_info["doc"])
        if uri is None:
            raise web.HTTPNotFound(text="No such picture.")
        return uri

    async def _page(self, request: web.Request) -> web.Response:
        uri = self._document(request)
        doc = self.ls.store.get(uri)
        nonce = secrets.token_urlsafe(18)
        name = doc.name if doc is not None else uri.rsplit("/", 1)[-1]
        body = (_PAGE.replace("%NONCE%", nonce)
                .replace("%MARKED%", ",".join(f"[data-{m}]" for m in MARKS))
                .replace("%MARKS%", json.dumps(list(MARKS)))
                .replace("%TITLE%", html.escape(name)))  # last: the name is the document's, not ours
        return web.Response(text=body, content_type="text/html", charset="utf-8",
                            headers={"Content-Security-Policy": _policy(nonce, self.port)})

    async def _socket(self, request: web.Request) -> web.WebSocketResponse:
        uri = self._document(request)
        ws = web.WebSocketResponse(max_msg_size=MAX_MESSAGE, heartbeat=30)
        await ws.prepare(request)
        view = request.query.get("view")
        viewer = Viewer(uri, ws, view if view in VIEWS else None)
        self._viewers.setdefault(uri, set()).add(viewer)
        try:
            doc = self.ls.served(uri)
            if doc is None:
                self._send(viewer, {"type": "fault", "message": "The document is not open in the editor."})
            else:
                analysis = self._newest.get(uri) or await self.ls.analysed(doc)
                self._newest.setdefault(uri, analysis)
                drawn = DRAWN.get(analysis.kind)
                self._send(viewer, {"type": "hello", "views": bool(drawn and drawn.wide_and_sequence)})
                self._draw(viewer, self._newest[uri])
            async for msg in ws:
                if msg.type == WSMsgType.TEXT:
                    await self._from_page(viewer, msg.data)
        finally:
            left = self._viewers.get(uri, set())
            left.discard(viewer)
            if not left:
                self._newest.pop(uri, None)
            if viewer.drawing is not None:
                viewer.drawing.cancel()
        return ws

    async def _close_sockets(self, app: web.Application) -> None:
        for viewers in list(self._viewers.values()):
            for viewer in list(viewers):
                await viewer.ws.close(code=WSCloseCode.GOING_AWAY, message=b"the language server stopped")

    async def _from_page(self, viewer: Viewer, data: str) -> None:
        """A view picked on the page, or a click on a marked element (reveal it in the editor)."""
        try:
            msg = json.loads(data)
        except ValueError:
            return
        if not isinstance(msg, dict):
            return
        if msg.get("type") == "view" and msg.get("view") in VIEWS:
            viewer.view = msg["view"]
            if viewer.uri in self._newest:
                self._draw(viewer, self._newest[viewer.uri])
        elif msg.get("type") == "reveal" and isinstance(msg.get("mark"), str) and isinstance(msg.get("id"), str):
            await self._reveal(viewer, msg["mark"], msg["id"])

    async def _reveal(self, viewer: Viewer, mark: str, ident: str) -> None:
        """`window/showDocument` with the definition of the clicked element's id, in the current text."""
        doc = self.ls.served(viewer.uri)
        if doc is None:
            return
        analysis = await self.ls.analysed(doc)
        loop = asyncio.get_running_loop()
        span = await loop.run_in_executor(self._painter, analysis.document_kind.picture_target, analysis, mark, ident)
        if span is None:
            self._send(viewer, {"type": "note", "message": f'"{ident}" is not in the text as it is now.'})
            return
        rng = to_lsp_range(analysis.line_index, span, self.ls.encoding)
        if self.ls.shows_documents:
            self.ls.window_show_document(convert.show_document(viewer.uri, take_focus=True, selection=rng))
        else:
            self.ls.window_show_message(convert.info(
                f'"{ident}" is defined at line {rng.start.line + 1}, column {rng.start.character + 1} of {doc.name}.'))

    # --- drawing ---------------------------------------------------------------------------------------

    def _draw(self, viewer: Viewer, analysis: "DocumentAnalysis") -> None:
        viewer.pending = analysis
        if viewer.drawing is None or viewer.drawing.done():
            viewer.drawing = asyncio.get_running_loop().create_task(self._drawing(viewer))

    async def _drawing(self, viewer: Viewer) -> None:
        loop = asyncio.get_running_loop()
        while viewer.pending is not None and not viewer.ws.closed:
            analysis, viewer.pending = viewer.pending, None
            try:
                text = await loop.run_in_executor(self._painter, _message, analysis, viewer.view,
                                                  self.ls.settings.preview_theme)
            except RuntimeError:  # the painter was shut down: the server is stopping
                return
            except Exception as e:  # a fault of the drawing must not end the page
                log.exception("drawing the live picture of %s failed", viewer.uri)
                text = json.dumps({"type": "fault", "message": f"The picture could not be drawn: {type(e).__name__}: {e}"})
            await _send_text(viewer.ws, text)

    def _send(self, viewer: Viewer, message: dict) -> None:
        task = asyncio.get_running_loop().create_task(_send_text(viewer.ws, json.dumps(message)))
        self._sending.add(task)  # the loop holds tasks weakly
        task.add_done_callback(self._sending.discard)


class _Withheld(logging.Filter):
    """Writes the token as `<token>` in every log record (pygls logs each message it sends, and the
    showDocument request and the command's answer carry the page's address)."""

    def __init__(self, token: str) -> None:
        super().__init__()
        self.token = token

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        if self.token in message:
            record.msg, record.args = message.replace(self.token, "<token>"), None
        return True


def _withhold_in_logs(token: str) -> None:
    """The token never reaches a log file: a filter on every handler of the root logger, through which
    every library's records pass (a logger's own filter would miss its children's)."""
    for handler in logging.getLogger().handlers:
        handler.addFilter(_Withheld(token))


async def _send_text(ws: web.WebSocketResponse, text: str) -> None:
    """Send to a page unless it has gone (a closed tab is not a fault)."""
    if ws.closed:
        return
    try:
        await ws.send_str(text)
    except (ConnectionError, RuntimeError):
        pass


def _message(analysis: "DocumentAnalysis", view: str | None, theme: str) -> str:
    """What a page is sent for an analysis (in the painter thread): the picture in the `auto` theme (the
    page picks light or dark by the setting or the system's scheme), or the fault that keeps it from being
    drawn (the page keeps the last picture beside it)."""
    kind = analysis.document_kind
    drawn = DRAWN.get(analysis.kind)
    svg = kind.picture(analysis, view=view if drawn and drawn.wide_and_sequence else None, theme="auto")
    if svg is None:
        return json.dumps({"type": "fault", "message": f"{kind.title[:1].upper()}{kind.title[1:]} has no picture."})
    if isinstance(svg, Refused):
        return json.dumps({"type": "fault", "message": svg.message, "theme": theme})
    return json.dumps({"type": "picture", "svg": svg, "view": view, "theme": theme}, ensure_ascii=False)


_SAFE_HEADERS = {
    "Cache-Control": "no-store",
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Cross-Origin-Resource-Policy": "same-origin",
}


def _policy(nonce: str, port: int | None) -> str:
    """The page's Content-Security-Policy: its own script (by nonce), inline styles (the picture's colours
    are style attributes and, in the auto theme, a style element), its socket; nothing else at all."""
    return "; ".join([
        "default-src 'none'",
        f"script-src 'nonce-{nonce}'",
        "style-src 'unsafe-inline'",
        f"connect-src ws://{LOOPBACK}:{port}",
        "img-src 'none'",
        "font-src 'none'",
        "frame-ancestors 'none'",
        "form-action 'none'",
        "base-uri 'none'",
    ])


_PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>%TITLE% · grooph</title>
<style>
  :root { color-scheme: light dark; --bg: #f1f4f3; --bar: #e8edeb; --ink: #1a201e; --ink-3: #5f6764;
          --warn-bg: #fcf0d9; --warn: #955500; --line: #dce1df; --accent: #1f5f4a; }
  @media (prefers-color-scheme: dark) {
    :root:not([data-theme="light"]) { --bg: #111514; --bar: #242a27; --ink: #ebefed; --ink-3: #99a19e;
          --warn-bg: #362a15; --warn: #f0b35a; --line: #2d3331; --accent: #5dbb94; }
  }
  :root[data-theme="dark"] { --bg: #111514; --bar: #242a27; --ink: #ebefed; --ink-3: #99a19e;
          --warn-bg: #362a15; --warn: #f0b35a; --line: #2d3331; --accent: #5dbb94; }
  html, body { margin: 0; height: 100%; background: var(--bg); color: var(--ink);
               font: 13px system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif; }
  body { display: flex; flex-direction: column; }
  .bar { display: flex; gap: 4px; align-items: center; padding: 4px 8px; background: var(--bar);
         border-bottom: 1px solid var(--line); }
  .bar button { font: inherit; color: var(--ink); background: transparent; border: 1px solid var(--line);
                border-radius: 4px; padding: 2px 8px; cursor: pointer; }
  .bar button[aria-pressed="true"] { border-color: var(--accent); color: var(--accent); font-weight: 600; }
  .grow { flex: 1; }
  #status { color: var(--ink-3); }
  #fault { padding: 6px 10px; background: var(--warn-bg); color: var(--warn); border-bottom: 1px solid var(--line);
           white-space: pre-wrap; }
  #stage { flex: 1; overflow: auto; }
  #holder { padding: 8px; }
  #holder > svg { display: block; margin: 0 auto; }
  #holder.fit > svg { width: 100%; height: auto; }
  %MARKED% { cursor: pointer; }
  [hidden] { display: none !important; }
</style>
</head>
<body>
<div class="bar">
  <span id="views" hidden>
    <button type="button" data-view="">Phone</button><button type="button" data-view="wide">Wide</button><button type="button" data-view="sequence">Sequence</button>
  </span>
  <span class="grow"></span>
  <span id="status" role="status">Connecting…</span>
  <button type="button" id="out" title="Smaller">−</button>
  <button type="button" id="fit" aria-pressed="true" title="Fit the picture to the window">Fit</button>
  <button type="button" id="in" title="Larger">+</button>
</div>
<div id="fault" role="alert" hidden></div>
<div id="stage"><div id="holder" class="fit"></div></div>
<script nonce="%NONCE%">
(function () {
  "use strict";
  var MARKS = %MARKS%;
  var stage = document.getElementById("stage"), holder = document.getElementById("holder");
  var fault = document.getElementById("fault"), status = document.getElementById("status");
  var fitButton = document.getElementById("fit");
  var params = new URLSearchParams(location.search);
  var view = params.get("view") || "";
  var zoom = 1, fit = true, theme = "auto", pictures = 0, ws = null;

  function applyTheme() {
    if (theme === "light" || theme === "dark") { document.documentElement.setAttribute("data-theme", theme); }
    else { document.documentElement.removeAttribute("data-theme"); }
    var svg = holder.firstElementChild;
    if (!svg) { return; }
    if (theme === "light" || theme === "dark") { svg.setAttribute("data-theme", theme); }
    else { svg.removeAttribute("data-theme"); }
  }
  function applyZoom() {
    holder.classList.toggle("fit", fit);
    fitButton.setAttribute("aria-pressed", String(fit));
    var svg = holder.firstElementChild;
    if (!svg || fit) { if (svg) { svg.style.width = ""; svg.style.height = ""; } return; }
    var w = parseFloat(svg.getAttribute("width")) || 400, h = parseFloat(svg.getAttribute("height")) || 400;
    svg.style.width = (w * zoom) + "px";
    svg.style.height = (h * zoom) + "px";
  }
  function showViews() {
    document.querySelectorAll("#views button").forEach(function (b) {
      b.setAttribute("aria-pressed", String((b.getAttribute("data-view") || "") === view));
    });
  }
  function showPicture(text) {
    var parsed = new DOMParser().parseFromString(text, "image/svg+xml");
    var root = parsed.documentElement;
    if (!root || root.namespaceURI !== "http://www.w3.org/2000/svg" || root.localName !== "svg") {
      showFault("The server sent something that is not a picture."); return;
    }
    var x = stage.scrollLeft, y = stage.scrollTop;
    holder.replaceChildren(document.importNode(root, true));
    applyTheme(); applyZoom();
    stage.scrollLeft = x; stage.scrollTop = y;
    pictures += 1;
    document.body.setAttribute("data-pictures", String(pictures));
  }
  function showFault(message) {
    fault.textContent = message || "";
    fault.hidden = !message;
  }
  function send(message) {
    if (ws && ws.readyState === WebSocket.OPEN) { ws.send(JSON.stringify(message)); }
  }
  function connect() {
    var url = location.href.split("#")[0].split("?")[0].replace(/^http/, "ws") + "/ws" + (view ? "?view=" + encodeURIComponent(view) : "");
    ws = new WebSocket(url);
    ws.onopen = function () { status.textContent = "Live"; };
    ws.onmessage = function (event) {
      var m;
      try { m = JSON.parse(event.data); } catch (e) { return; }
      if (m.theme) { theme = m.theme; applyTheme(); }
      if (m.type === "hello") { document.getElementById("views").hidden = !m.views; showViews(); }
      else if (m.type === "picture") { showPicture(m.svg); showFault(""); status.textContent = "Live"; }
      else if (m.type === "fault") { showFault(m.message); status.textContent = pictures ? "Showing the last picture that could be drawn" : ""; }
      else if (m.type === "note") { status.textContent = m.message; }
    };
    ws.onclose = function () {
      status.textContent = "Not live: the language server stopped or closed this page's connection.";
      document.body.setAttribute("data-closed", "");
    };
  }
  document.querySelectorAll("#views button").forEach(function (b) {
    b.addEventListener("click", function () {
      view = b.getAttribute("data-view") || "";
      showViews();
      send({ type: "view", view: view || null });
    });
  });
  document.getElementById("in").addEventListener("click", function () { if (fit) { zoom = 1; } fit = false; zoom = Math.min(zoom * 1.25, 8); applyZoom(); });
  document.getElementById("out").addEventListener("click", function () { if (fit) { zoom = 1; } fit = false; zoom = Math.max(zoom / 1.25, 0.1); applyZoom(); });
  fitButton.addEventListener("click", function () { fit = !fit; applyZoom(); });
  holder.addEventListener("click", function (event) {
    var target = event.target instanceof Element ? event.target : null;
    for (var el = target; el && el !== holder; el = el.parentElement) {
      for (var i = 0; i < MARKS.length; i++) {
        var id = el.getAttribute("data-" + MARKS[i]);
        if (id !== null) { send({ type: "reveal", mark: MARKS[i], id: id }); return; }
      }
    }
  });
  showViews();
  connect();
}());
</script>
</body>
</html>
"""
