"""Limits on a request's head (its request line and headers), refused with 431 before
anything else reads the request, authentication included; a request line that names
another server, refused with 421; and the headers every response carries.

Two layers. ``HeadLimitedHttpTools`` is the HTTP protocol ``afterhack serve`` runs: it counts
the bytes of a request head as they arrive and answers 431 as soon as they pass the limit,
so a giant header is never buffered and parsed (the parser's work grows faster than the
header). It also reads the request target as sent: httptools hands the app only the path of
an absolute-form target (``GET http://evil.example/api/... HTTP/1.1``), so the authority it
names can be checked only here (docs/decisions/0020-one-reading-of-host.md). ``HeaderLimit``
is ASGI middleware that refuses too many headers, and too large a head under any other
server (tests' in-process clients, an operator's own uvicorn).

``ResponseHeaders`` adds ``X-Content-Type-Options: nosniff`` to every response (a browser
then never reads a JSON body or a kept original as HTML or script), and to the UI's page and
its assets a Content-Security-Policy that allows only the app's own scripts, styles and
connections.
"""

from __future__ import annotations

import json
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from afterhack.api.hosts import HostPolicy, host_refusal
from afterhack.config import Settings
from afterhack.wire.errors import error_body

_END_OF_HEAD = b"\r\n\r\n"
NOSNIFF = (b"x-content-type-options", b"nosniff")
# The UI is one page of the app's own scripts and styles (no inline script: Vite writes
# none), talking to this server only; its icon is a data: URL. React sets styles through
# the DOM's style properties, which style-src does not govern.
UI_POLICY = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
             "font-src 'self'; connect-src 'self'; manifest-src 'self'; base-uri 'none'; "
             "form-action 'self'; frame-ancestors 'none'")
_CSP = b"content-security-policy"


def refusal(max_bytes: int, max_count: int) -> tuple[bytes, bytes]:
    """The 431 answer's content type and body."""
    body = json.dumps(error_body(
        "request_header_fields_too_large",
        "The request's headers are too large or too many.",
        {"limit_bytes": max_bytes, "limit_count": max_count})).encode()
    return b"application/json", body


class HeadLimitedHttpTools(HttpToolsProtocol):
    """uvicorn's httptools protocol, refusing a head over ``max_head_bytes`` with 431 and a
    request target naming a host ``hosts`` does not allow with 421."""

    max_head_bytes = 64 * 1024
    max_headers = 100
    hosts: HostPolicy | None = None

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._reading_head = True
        self._head_bytes = 0
        self._target = b""
        # Once a request is refused the connection closes; what the parser still holds of
        # it (its body, requests pipelined after it) is not for the app.
        self._refused = False

    def data_received(self, data: bytes) -> None:
        if self._refused:
            return
        if self._reading_head:
            end = data.find(_END_OF_HEAD)
            self._head_bytes += len(data) if end < 0 else end
            if self._head_bytes > self.max_head_bytes:
                ctype, body = refusal(self.max_head_bytes, self.max_headers)
                self._refuse(b"431 Request Header Fields Too Large", ctype, body)
                return
        super().data_received(data)

    def on_message_begin(self) -> None:
        self._target = b""
        super().on_message_begin()

    def on_url(self, url: bytes) -> None:
        self._target += url
        super().on_url(url)

    def on_headers_complete(self) -> None:
        self._reading_head = False
        self._head_bytes = 0
        if self._refused:
            return
        if self.hosts is not None and not self.hosts.target_allowed(self._target):
            self._refuse(b"421 Misdirected Request", b"application/json", host_refusal())
            return
        super().on_headers_complete()

    def on_body(self, body: bytes) -> None:
        if not self._refused:
            super().on_body(body)

    def on_message_complete(self) -> None:
        if not self._refused:
            super().on_message_complete()
        self._reading_head = True

    def _refuse(self, status: bytes, ctype: bytes, body: bytes) -> None:
        self._refused = True
        self.transport.write(
            b"HTTP/1.1 " + status + b"\r\ncontent-type: " + ctype
            + b"\r\ncontent-length: " + str(len(body)).encode()
            + b"\r\n" + b": ".join(NOSNIFF) + b"\r\nconnection: close\r\n\r\n" + body)
        self.transport.close()


def http_protocol(settings: Settings) -> type[HttpToolsProtocol]:
    """The protocol class to give uvicorn (its ``http`` setting) for these settings' limits
    and hosts."""
    return type("HeadLimitedHttpTools", (HeadLimitedHttpTools,),
                {"max_head_bytes": settings.max_header_bytes,
                 "max_headers": settings.max_headers,
                 "hosts": HostPolicy(settings.host, settings.allowed_hosts)})


class HeaderLimit:
    """Refuses, with 431, a request with more than ``max_count`` headers or a head larger
    than ``max_bytes`` (counted as the request line's path and query plus every name and
    value)."""

    def __init__(self, app: ASGIApp, max_bytes: int, max_count: int) -> None:
        self.app = app
        self.max_bytes = max_bytes
        self.max_count = max_count

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            headers = scope.get("headers") or ()
            size = len(scope.get("raw_path") or b"") + len(scope.get("query_string") or b"")
            size += sum(len(k) + len(v) + 4 for k, v in headers)
            if len(headers) > self.max_count or size > self.max_bytes:
                ctype, body = refusal(self.max_bytes, self.max_count)
                await send({"type": "http.response.start", "status": 431,
                            "headers": [(b"content-type", ctype),
                                        (b"content-length", str(len(body)).encode()),
                                        (b"connection", b"close")]})
                await send({"type": "http.response.body", "body": body})
                return
        await self.app(scope, receive, send)


def _is_ui(path: str) -> bool:
    return path == "/" or path.startswith("/assets/")


class ResponseHeaders:
    """ASGI middleware, outermost: ``nosniff`` on every response, and the UI's policy on the
    UI's page and assets."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        ui = _is_ui(scope.get("path", ""))

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = [(k, v) for k, v in message.get("headers", ())
                           if k.lower() not in (NOSNIFF[0], _CSP)]
                headers.append(NOSNIFF)
                if ui:
                    headers.append((_CSP, UI_POLICY.encode()))
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_with_headers)
