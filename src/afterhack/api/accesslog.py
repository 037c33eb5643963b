"""The access log: one line per request with its method, the route it matched, its status
and how long it took, and nothing the caller sent.

A request's query string holds what it asks for (``?q=`` is the words searched), and a
path may hold whatever a caller typed where an id goes: words erased from the memory must
not live on in the log (docs/design.md, "Forgetting on disk"). So the line names the
route's template (``/api/workspaces/{ws}/claims``) rather than the path, and uvicorn's own
access log, which writes the full path and query string, is turned off.
"""

from __future__ import annotations

import logging
import time

from starlette.types import ASGIApp, Message, Receive, Scope, Send

log = logging.getLogger("afterhack.access")

# The logger uvicorn writes its access lines to.
UVICORN_ACCESS = "uvicorn.access"


def _drop(_: logging.LogRecord) -> bool:
    return False


def silence_uvicorn_access() -> None:
    """Drop every line of uvicorn's access log, however uvicorn was started (``afterhack
    serve`` turns it off too; an operator's own uvicorn does not)."""
    logger = logging.getLogger(UVICORN_ACCESS)
    if _drop not in logger.filters:
        logger.addFilter(_drop)


def route_of(scope: Scope) -> str:
    """The template of the route the request matched, under the prefix its router was
    mounted at (``/api``); for a request that matched none, its first path segment alone."""
    parts = str(scope.get("path", "")).strip("/").split("/")
    template = getattr(scope.get("route"), "path", None)
    if isinstance(template, str) and template.startswith("/"):
        # A route's own path leaves out the prefix it was included under: the segments
        # before it are the prefix's (every template here has a fixed number of segments).
        own = template.strip("/").split("/") if template != "/" else []
        prefix = parts[: max(len(parts) - len(own), 0)]
        return "/" + "/".join([*prefix, *own])
    return "/" + parts[0] + ("/…" if len(parts) > 1 else "")


class AccessLog:
    """Pure ASGI middleware: after each HTTP request, one INFO line."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        status = 0
        t0 = time.perf_counter()

        async def sent(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = int(message["status"])
            await send(message)

        try:
            await self.app(scope, receive, sent)
        finally:
            log.info("%s %s %d %.1f ms", scope.get("method", "?"), route_of(scope), status,
                     (time.perf_counter() - t0) * 1000)
