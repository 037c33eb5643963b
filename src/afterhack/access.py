"""Who is calling: API keys, the keyless local user and the per-key rate limit.

One key check for both transports: the HTTP API runs it in its middleware
(api/security.py), the MCP tools through a ``KeyResolver`` (mcpserver/callers.py), so a key,
its role, its workspace and its limit mean the same over either.

Keys are on when ``AFTERHACK_REQUIRE_KEYS=true``, or when an admin key is set, unless
``AFTERHACK_REQUIRE_KEYS=false`` on a loopback address. With keys off every caller is the
single local user (actor ``local``, role ``admin``): that mode is only for one person on
their own machine, which is also why the CLI refuses to serve beyond loopback without keys.

Keys are looked up in the registry on every request, with no cache, so a revoked key stops
working on its next request, in every app process. The limit counts per key per minute in
FalkorDB's Redis, so every app process sharing that FalkorDB shares the count. The keyless
local user is not limited: there is one of them, on loopback, and throttling it would only
slow down its own demos and load tests.
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import math
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from afterhack.config import Settings
from afterhack.errors import RateLimited, Unauthorized
from afterhack.model.vocab import Role
from afterhack.store import keys as store_keys
from afterhack.store import ratelimit
from afterhack.store.client import Store

_WINDOW_S = 60
# Every workspace key starts with this; anything else is not looked up.
KEY_PREFIX = "ahk_"


@dataclass(frozen=True)
class Caller:
    actor: str
    role: Role
    workspace_id: str | None = None  # None: not bound to one workspace (admin, local user)
    key_id: str | None = None  # the key this call came with; None for the keyless local user


LOCAL_USER = Caller(actor="local", role="admin")

# Turns the key a caller presented (or none) into a Caller, counting it against its limit.
KeyResolver = Callable[[str | None], Awaitable[Caller]]


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def keys_required(settings: Settings) -> bool:
    if settings.require_keys is True:
        return True
    if settings.require_keys is False and is_loopback(settings.host):
        return False
    has_admin = settings.admin_key is not None and bool(settings.admin_key.get_secret_value())
    return has_admin or not is_loopback(settings.host)


def refuse_to_serve(settings: Settings) -> str | None:
    """Why ``serve`` must not start with these settings (None when it may).

    Beyond loopback, keys must be configured on purpose: an admin key, or
    ``AFTERHACK_REQUIRE_KEYS=true`` with keys made earlier; ``false`` there is refused.
    """
    if is_loopback(settings.host):
        return None
    if settings.require_keys is False:
        return (f"Refusing to serve on {settings.host} with AFTERHACK_REQUIRE_KEYS=false: "
                "keys can only be off on loopback (127.0.0.1).")
    has_admin = settings.admin_key is not None and bool(settings.admin_key.get_secret_value())
    if settings.require_keys is True or has_admin:
        return None
    return (f"Refusing to serve on {settings.host} without keys: set AFTERHACK_ADMIN_KEY "
            "(and AFTERHACK_REQUIRE_KEYS=true), or bind to 127.0.0.1.")


def new_secret() -> str:
    """``ahk_`` and 43 url-safe characters (256 random bits)."""
    return KEY_PREFIX + secrets.token_urlsafe(32)


def key_hash(secret: str) -> str:
    """What the registry keeps of a key: its sha256, never the key."""
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


def _digest(secret: str) -> bytes:
    return hashlib.sha256(secret.encode("utf-8")).digest()


class KeyCheck:
    """Turns the key a caller presented into a Caller, and counts it against its limit."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.enabled = keys_required(settings)
        admin = settings.admin_key.get_secret_value() if settings.admin_key else ""
        self._admin_digest = _digest(admin) if admin else None
        # Counted per admin secret, so apps (or test runs) sharing one FalkorDB with
        # different admin keys do not spend one another's requests per minute.
        self._admin_key_id = (f"admin-{self._admin_digest.hex()[:16]}"
                              if self._admin_digest else None)

    async def caller(self, store: Store, secret: str | None) -> Caller:
        if not self.enabled:
            return LOCAL_USER
        if not secret:
            raise Unauthorized()
        if self._admin_digest is not None and hmac.compare_digest(_digest(secret),
                                                                   self._admin_digest):
            return Caller(actor="admin", role="admin", key_id=self._admin_key_id)
        if not secret.startswith(KEY_PREFIX) or len(secret) > 200:
            raise Unauthorized()
        row = await store_keys.find_live_key(store, key_hash(secret))
        if row is None:
            raise Unauthorized()
        return Caller(actor=row["name"], role=row["role"], workspace_id=row["workspace_id"],
                      key_id=row["id"])

    async def count(self, store: Store, key_id: str) -> None:
        now = time.time()
        window = int(now // _WINDOW_S)
        # The hash tag keeps one key's counters on one shard of a cluster.
        count = await ratelimit.hit(store, f"afterhack:rl:{{{key_id}}}:{window}", 2 * _WINDOW_S)
        limit = self.settings.rate_limit_per_minute
        if count > limit:
            retry = max(1, math.ceil((window + 1) * _WINDOW_S - now))
            raise RateLimited(f"This key is over its limit of {limit} requests per minute.",
                              limit_per_minute=limit, retry_after_s=retry)


def key_resolver(settings: Settings, store: Callable[[], Store]) -> KeyResolver:
    """The key check as one call: who the key is, counted against its limit."""
    check = KeyCheck(settings)

    async def resolve(secret: str | None) -> Caller:
        s = store()
        caller = await check.caller(s, secret)
        if caller.key_id is not None:
            await check.count(s, caller.key_id)
        return caller

    return resolve
