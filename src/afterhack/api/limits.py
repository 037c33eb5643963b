"""Refuse request bodies over the configured size before they are parsed."""

from __future__ import annotations

import json

from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from afterhack.api.errors import error_body


class BodyLimit:
    def __init__(self, app: ASGIApp, max_bytes: int,
                 overrides: dict[str, int] | None = None) -> None:
        self.app = app
        self.default_max = max_bytes
        # Exact paths with their own limit (a restore body is a whole workspace).
        self.overrides = overrides or {}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        max_bytes = self.overrides.get(scope.get("path", ""), self.default_max)
        declared = dict(scope.get("headers") or []).get(b"content-length")
        if declared is not None:
            try:
                too_big = int(declared) > max_bytes
            except ValueError:
                too_big = False
            if too_big:
                await self._refuse(send, max_bytes)
                return
        seen = 0

        async def limited_receive() -> Message:
            nonlocal seen
            msg = await receive()
            if msg["type"] == "http.request":
                seen += len(msg.get("body", b""))
                if seen > max_bytes:
                    # An HTTPException survives FastAPI's body parsing (anything else
                    # becomes a 400) and is mapped to the canonical 413 body.
                    raise HTTPException(413, self._message(max_bytes))
            return msg

        await self.app(scope, limited_receive, send)

    @staticmethod
    def _message(max_bytes: int) -> str:
        return f"The request body is over the limit of {max_bytes} bytes."

    async def _refuse(self, send: Send, max_bytes: int) -> None:
        body = json.dumps(error_body(
            "payload_too_large", self._message(max_bytes),
            {"limit_bytes": max_bytes})).encode()
        await send({"type": "http.response.start", "status": 413,
                    "headers": [(b"content-type", b"application/json"),
                                (b"content-length", str(len(body)).encode()),
                                (b"connection", b"close")]})
        await send({"type": "http.response.body", "body": body})

