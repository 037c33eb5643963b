"""Request bodies: refused over the configured size before they are parsed, and read as
UTF-8 only (every body this app takes is JSON, which RFC 8259 makes UTF-8; Python's JSON
reader would otherwise also take UTF-16 and UTF-32), except a file upload's: a multipart
body to the files route, whose parts are a file's own bytes, under a limit of its own."""

from __future__ import annotations

import asyncio
import codecs
import contextlib
import json

from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from afterhack.wire.errors import error_body
from afterhack.wire.sizes import size_words

# A refused body is still read to its end (up to this much, for this long) before the answer:
# a client that writes its whole body before reading (Python's http.client, urllib) would
# otherwise meet a connection reset instead of the 413.
DRAIN_MAX_BYTES = 64 * 1024 * 1024
DRAIN_TIMEOUT_S = 10.0


async def drain(receive: Receive, limit: int = DRAIN_MAX_BYTES) -> None:
    """Read and drop the rest of a request body (bounded in bytes and time)."""
    seen = 0

    async def read_all() -> None:
        nonlocal seen
        while seen <= limit:
            msg = await receive()
            if msg["type"] != "http.request":
                return
            seen += len(msg.get("body", b""))
            if not msg.get("more_body", False):
                return

    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(read_all(), DRAIN_TIMEOUT_S)


def _header(scope: Scope, name: bytes) -> bytes | None:
    for key, value in scope.get("headers") or ():
        if key == name:
            return bytes(value)
    return None


# The setting each limit comes from, named in the refusal so a person knows what to change.
BODY_SETTING = "AFTERHACK_MAX_BODY_BYTES"
FILE_SETTING = "AFTERHACK_MAX_FILE_BYTES"


class BodyLimit:
    def __init__(self, app: ASGIApp, max_bytes: int,
                 overrides: dict[str, tuple[int, str]] | None = None,
                 file_paths: tuple[str, str] | None = None,
                 max_file_bytes: int | None = None) -> None:
        self.app = app
        self.default_max = max_bytes
        # Exact paths with their own limit and its setting (a restore body is a whole
        # workspace).
        self.overrides = overrides or {}
        # The files route: a path with this start and end takes a multipart file upload.
        self.file_paths = file_paths
        self.max_file_bytes = max_file_bytes or max_bytes

    def _is_upload(self, scope: Scope, path: str) -> bool:
        if self.file_paths is None:
            return False
        start, end = self.file_paths
        if not (path.startswith(start) and path.endswith(end)):
            return False
        content_type = (_header(scope, b"content-type") or b"").lower()
        return content_type.startswith(b"multipart/form-data")

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path = scope.get("path", "")
        upload = self._is_upload(scope, path)
        max_bytes, setting = ((self.max_file_bytes, FILE_SETTING) if upload
                              else self.overrides.get(path, (self.default_max, BODY_SETTING)))
        declared = _header(scope, b"content-length")
        if declared is not None:
            try:
                too_big = int(declared) > max_bytes
            except ValueError:
                too_big = False
            if too_big:
                # A client that asked to wait for "100 Continue" has not sent the body and
                # will not: reading it would only invite it to.
                if (_header(scope, b"expect") or b"").lower() != b"100-continue":
                    await drain(receive)
                await self._refuse(send, max_bytes, setting)
                return
        seen = 0
        utf8 = codecs.getincrementaldecoder("utf-8")()

        async def checked_receive() -> Message:
            nonlocal seen
            msg = await receive()
            if msg["type"] == "http.request":
                chunk = msg.get("body", b"")
                seen += len(chunk)
                more = msg.get("more_body", False)
                if seen > max_bytes:
                    if more:
                        await drain(receive)
                    # An HTTPException survives FastAPI's body parsing (anything else
                    # becomes a 400) and is mapped to the canonical 413 body.
                    raise HTTPException(413, self._message(max_bytes, setting))
                try:
                    if not upload:
                        utf8.decode(chunk, final=not more)
                except UnicodeDecodeError:
                    if more:
                        await drain(receive)
                    # FastAPI's 400 for a body it cannot decode: answered as 422 (api/errors).
                    raise HTTPException(400, "The request body is not UTF-8.") from None
            return msg

        await self.app(scope, checked_receive, send)

    @staticmethod
    def _message(max_bytes: int, setting: str) -> str:
        return (f"The request body is over the limit of {size_words(max_bytes)} "
                f"({max_bytes} bytes), which {setting} sets.")

    async def _refuse(self, send: Send, max_bytes: int, setting: str) -> None:
        body = json.dumps(error_body(
            "payload_too_large", self._message(max_bytes, setting),
            {"limit_bytes": max_bytes, "setting": setting})).encode()
        await send({"type": "http.response.start", "status": 413,
                    "headers": [(b"content-type", b"application/json"),
                                (b"content-length", str(len(body)).encode()),
                                (b"connection", b"close")]})
        await send({"type": "http.response.body", "body": body})
