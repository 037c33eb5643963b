"""Who is calling an MCP tool: the same keys and roles as the HTTP API (access.py).

Over HTTP the caller the app's key check left on ``request.state.caller`` wins (see
afterhack/app.py); otherwise the bearer key is resolved with the same check. Over stdio the
key is ``AFTERHACK_API_KEY``.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from afterhack.access import LOCAL_USER, Caller, KeyResolver

# Given the HTTP request (None over stdio or in-process), who is calling.
CallerSource = Callable[[Any], Awaitable[Caller]]

LOCAL_ADMIN = LOCAL_USER

__all__ = ["LOCAL_ADMIN", "CallerSource", "KeyResolver", "bearer", "fixed_key_caller",
           "http_caller"]


def bearer(header: str | None) -> str | None:
    if not header:
        return None
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer":
        return None
    return token.strip() or None


def http_caller(resolve: KeyResolver) -> CallerSource:
    async def source(request: Any) -> Caller:
        if request is None:
            return await resolve(None)
        caller = getattr(request.state, "caller", None)
        if isinstance(caller, Caller):
            return caller
        return await resolve(bearer(request.headers.get("authorization")))

    return source


def fixed_key_caller(resolve: KeyResolver, key: str | None) -> CallerSource:
    """stdio: one key for the whole session, resolved on every call so a revoked key stops."""

    async def source(_request: Any) -> Caller:
        return await resolve(key)

    return source
