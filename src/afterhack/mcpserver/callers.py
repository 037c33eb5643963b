"""Who is calling an MCP tool: the same keys and roles as the HTTP API.

A ``KeyResolver`` turns the key a caller presented (or none) into a ``Caller``. Over HTTP
the caller the HTTP API's own key check left on ``request.state.caller`` wins; otherwise the
bearer key is resolved. Over stdio the key is ``AFTERHACK_API_KEY``. Wiring the real key
check (api/security.py) is passing its resolver to ``mount_mcp`` / ``serve_stdio``.
"""

from __future__ import annotations

import hmac
from collections.abc import Awaitable, Callable
from typing import Any

from afterhack.api.deps import Caller
from afterhack.config import Settings
from afterhack.errors import Unauthorized

KeyResolver = Callable[[str | None], Awaitable[Caller]]
# Given the HTTP request (None over stdio or in-process), who is calling.
CallerSource = Callable[[Any], Awaitable[Caller]]

LOCAL_ADMIN = Caller(actor="local", role="admin")


def keys_on(settings: Settings) -> bool:
    # The same rule as ``serve``'s refusal to bind beyond loopback: an admin key that is set
    # (and not empty) turns keys on unless AFTERHACK_REQUIRE_KEYS=false.
    admin = settings.admin_key.get_secret_value() if settings.admin_key else ""
    return bool(admin) and settings.require_keys is not False


def settings_keys(settings: Settings) -> KeyResolver:
    """Until per-workspace keys are wired in: keys off means the single local user (admin);
    keys on means only the admin key from the environment is accepted."""

    async def resolve(key: str | None) -> Caller:
        if not keys_on(settings):
            return LOCAL_ADMIN
        admin = settings.admin_key.get_secret_value() if settings.admin_key else ""
        if key and hmac.compare_digest(key.encode(), admin.encode()):
            return Caller(actor="admin", role="admin")
        raise Unauthorized()

    return resolve


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
