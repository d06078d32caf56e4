"""The errors a handler answers with (LSP 3.17 "ResponseError"), and the log filter that keeps them
out of the log: a refusal is an answer to the user, not a fault of the server.

- `RequestRefused` (RequestFailed, -32803): the client shows the message to the user.
- `ContentModified` (-32801): the request was about a version the document no longer has; the client
  asks again. `check_request_version` raises it for a position request whose document changed
  between the request's arrival and its handler's start.
"""

from __future__ import annotations

import logging
from contextvars import ContextVar

from pygls.exceptions import JsonRpcException

log = logging.getLogger("grooph_lsp")

REQUEST_FAILED = -32803
CONTENT_MODIFIED = -32801


class RequestRefused(JsonRpcException):
    """An LSP error the client shows to the user (RequestFailed, LSP 3.17). pygls reads the class's
    `CODE` (a `code` class attribute would be overwritten by the instance's, -32603 InternalError)."""

    CODE = REQUEST_FAILED

    def __init__(self, message: str) -> None:
        super().__init__(message)
        log.info("refused: %s", message)


class ContentModified(RequestRefused):
    """ContentModified (LSP 3.17): the request was about a version the document no longer has (a code
    action resolved after the text changed); the client asks again."""

    CODE = CONTENT_MODIFIED


class QuietRefusals(logging.Filter):
    """pygls logs every exception a handler raises, traceback and all, at ERROR; a refusal is an
    answer to the user, not a fault of the server, so its record is dropped (issue 9: no traceback
    in the log for ordinary use)."""

    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info[1] if record.exc_info else None
        return not isinstance(exc, RequestRefused)


def quiet_refusals() -> None:
    """Install `QuietRefusals` on pygls's JSON-RPC logger (once per process)."""
    rpc_log = logging.getLogger("pygls.protocol.json_rpc")
    if not any(isinstance(f, QuietRefusals) for f in rpc_log.filters):
        rpc_log.addFilter(QuietRefusals())


# The version of the request's document when the request arrived (set by server.GroophProtocol): a
# handler's task starts after the notifications read with it, so a didChange may have come first.
REQUEST_VERSION: ContextVar[tuple[str, int] | None] = ContextVar("grooph_request_version", default=None)


def check_request_version(doc) -> None:
    """A position is about the version the request came at: when a change was applied before the
    handler ran, the answer would be about another text (ContentModified, LSP 3.17)."""
    asked = REQUEST_VERSION.get()
    if asked is not None and asked[0] == doc.uri and asked[1] != doc.version:
        raise ContentModified("The document changed before this request was answered; ask again.")
