"""Who is calling, and may they: API keys, roles, workspace scope and the rate limit.

Keys are on when ``AFTERHACK_REQUIRE_KEYS=true``, or when an admin key is set, unless
``AFTERHACK_REQUIRE_KEYS=false`` on a loopback address. With keys off every caller is the
single local user (actor ``local``, role ``admin``): that mode is only for one person on
their own machine, which is also why the CLI refuses to serve beyond loopback without keys.

Order of checks for every ``/api`` route except health and the OpenAPI document:

1. ``Authenticate`` (ASGI middleware, before the body is read): no key, an unknown key or a
   revoked key is 401 ``unauthorized`` with one canonical body whichever it was; then the
   per-key rate limit (429 ``rate_limited`` with ``Retry-After``).
2. ``Allow(permission)`` (a dependency every route declares): a key of workspace A naming
   any other workspace gets exactly the 404 a missing workspace gets; then the role must
   allow the permission (403 ``forbidden``).

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
import re
import time
from collections.abc import Awaitable, Callable
from typing import Any

from fastapi import Depends, FastAPI, Request
from fastapi.routing import APIRoute, iter_route_contexts
from starlette.types import ASGIApp, Receive, Scope, Send

from afterhack import roles
from afterhack.api.deps import Caller, get_caller
from afterhack.api.errors import error_response
from afterhack.config import Settings
from afterhack.errors import (
    ActionNotFound,
    AfterhackError,
    ClaimNotFound,
    ConflictNotFound,
    CorrectionNotFound,
    DecisionNotFound,
    KeyNotFound,
    NotFound,
    RateLimited,
    RunNotFound,
    SourceNotFound,
    Unauthorized,
    WorkspaceNotFound,
)
from afterhack.store import keys as store_keys
from afterhack.store.client import Store
from afterhack.store.names import is_uuid

# Open to anyone: liveness, and the API's own description (and its browsable page).
OPEN_PATHS = frozenset({"/api/health", "/api/ping", "/api/openapi.json", "/api/docs",
                        "/api/docs/oauth2-redirect"})
LOCAL_USER = Caller(actor="local", role="admin")
_WINDOW_S = 60


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


def _bearer(scope: Scope) -> str | None:
    for name, value in scope.get("headers") or ():
        if name == b"authorization":
            scheme, _, token = value.decode("latin-1").partition(" ")
            token = token.strip()
            if scheme.lower() == "bearer" and token:
                return str(token)
            return None
    return None


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
        if not secret.startswith(store_keys.KEY_PREFIX) or len(secret) > 200:
            raise Unauthorized()
        row = await store_keys.find_live_key(store, secret)
        if row is None:
            raise Unauthorized()
        return Caller(actor=row["name"], role=row["role"], workspace_id=row["workspace_id"],
                      key_id=row["id"])

    async def count(self, store: Store, key_id: str) -> None:
        now = time.time()
        window = int(now // _WINDOW_S)
        # The hash tag keeps one key's counters on one shard of a cluster.
        count = await store.rate_hit(f"afterhack:rl:{{{key_id}}}:{window}", 2 * _WINDOW_S)
        limit = self.settings.rate_limit_per_minute
        if count > limit:
            retry = max(1, math.ceil((window + 1) * _WINDOW_S - now))
            raise RateLimited(f"This key is over its limit of {limit} requests per minute.",
                              limit_per_minute=limit, retry_after_s=retry)


def key_resolver(settings: Settings,
                 store: Callable[[], Store]) -> Callable[[str | None], Awaitable[Caller]]:
    """The same key check for MCP callers (stdio, or HTTP without a checked request)."""
    check = KeyCheck(settings)

    async def resolve(secret: str | None) -> Caller:
        s = store()
        caller = await check.caller(s, secret)
        if caller.key_id is not None:
            await check.count(s, caller.key_id)
        return caller

    return resolve


# Paths outside /api that answer with workspace data, and so need a key as well.
GUARDED_PREFIXES = ("/api/", "/mcp")


class Authenticate:
    """Sets ``request.state.caller`` for every ``/api`` (and ``/mcp``) request, or answers
    401/429 itself."""

    def __init__(self, app: ASGIApp, settings: Settings) -> None:
        self.app = app
        self.check = KeyCheck(settings)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path = scope.get("path", "") if scope["type"] == "http" else ""
        if not path.startswith(GUARDED_PREFIXES) or path in OPEN_PATHS:
            await self.app(scope, receive, send)
            return
        store: Store = scope["app"].state.store
        try:
            caller = await self.check.caller(store, _bearer(scope))
            if caller.key_id is not None:
                await self.check.count(store, caller.key_id)
        except AfterhackError as exc:
            headers = {"WWW-Authenticate": "Bearer"} if exc.status == 401 else {}
            retry = exc.details.get("retry_after_s")
            if retry is not None:
                headers["Retry-After"] = str(retry)
            await error_response(exc, headers or None)(scope, receive, send)
            return
        scope.setdefault("state", {})["caller"] = caller
        await self.app(scope, receive, send)


# Every id in a path names a node, and every node id is a UUID the server made. Anything
# else (NUL bytes, lone surrogates, 10 KB strings, Cypher or RediSearch syntax) names
# nothing: it is answered as an unknown id before it can reach the store.
PATH_IDS: dict[str, type[NotFound]] = {
    "ws": WorkspaceNotFound, "source_id": SourceNotFound, "claim_id": ClaimNotFound,
    "decision_id": DecisionNotFound, "action_id": ActionNotFound, "run_id": RunNotFound,
    "correction_id": CorrectionNotFound, "key_id": KeyNotFound,
    "conflict_id": ConflictNotFound,
}


def check_path_ids(params: dict[str, Any]) -> None:
    for name, value in params.items():
        missing = PATH_IDS[name]  # route_permissions() refuses a route without an entry
        if not (isinstance(value, str) and is_uuid(value)):
            # The same code and message as an unknown id; a malformed one is not echoed.
            raise missing()


class Allow:
    """The permission a route needs; also keeps a workspace key inside its workspace, and
    answers any malformed id in the path as unknown."""

    def __init__(self, permission: roles.Permission) -> None:
        self.permission = permission

    async def __call__(self, request: Request) -> Caller:
        caller = await get_caller(request)
        check_path_ids(request.path_params)
        ws = request.path_params.get("ws")
        if ws is not None and caller.workspace_id is not None and ws != caller.workspace_id:
            # Byte for byte the answer for a workspace that does not exist.
            raise WorkspaceNotFound(ws)
        roles.require(caller.role, self.permission)
        return caller


def allow(permission: roles.Permission) -> Any:
    """``dependencies=[allow("read")]`` on a route."""
    return Depends(Allow(permission))


def route_permissions(app: FastAPI) -> dict[tuple[str, str], str | None]:
    """``(METHOD, path)`` of every /api route (as served, prefix included) → its permission,
    None for the open ones."""
    table: dict[tuple[str, str], str | None] = {}
    for ctx in iter_route_contexts(app.routes):
        if not isinstance(ctx.original_route, APIRoute):
            continue
        path = str(ctx.path_format)
        if not path.startswith("/api/"):
            continue
        found = [d.call.permission for d in ctx.dependant.dependencies
                 if isinstance(d.call, Allow)]
        unanswered = [n for n in re.findall(r"{(\w+)}", path) if n not in PATH_IDS]
        if unanswered:
            raise RuntimeError(f"{path}: path parameters {unanswered} need an entry in PATH_IDS")
        if path not in OPEN_PATHS and len(found) != 1:
            raise RuntimeError(f"{sorted(ctx.methods or ())} {path} must declare exactly one "
                               "permission (dependencies=[allow(...)])")
        for method in ctx.methods or ():
            table[(method, path)] = found[0] if found else None
    return table


def document(schema: dict[str, Any], app: FastAPI, settings: Settings) -> None:
    """Write each operation's permission (``x-permission``) into the OpenAPI document, and
    the bearer scheme it needs when keys are on."""
    schema.setdefault("components", {})["securitySchemes"] = {
        "bearer": {"type": "http", "scheme": "bearer",
                   "description": "An afterhack API key (ahk_...) or the admin key."}}
    bearer = keys_required(settings)
    for (method, path), permission in route_permissions(app).items():
        op = schema.get("paths", {}).get(path, {}).get(method.lower())
        if op is None or permission is None:
            continue
        op["x-permission"] = permission
        if bearer:
            op["security"] = [{"bearer": []}]
