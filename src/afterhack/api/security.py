"""Who is calling over HTTP, and may they: the key check (access.py) before the body is
read, then each route's permission and workspace scope.

Order of checks for every ``/api`` route except health and the OpenAPI document:

1. ``Authenticate`` (ASGI middleware, before the body is read): no key, an unknown key or a
   revoked key is 401 ``unauthorized`` with one canonical body whichever it was; then the
   per-key rate limit (429 ``rate_limited`` with ``Retry-After``).
2. ``Allow(permission)`` (a dependency every route declares): a key of workspace A naming
   any other workspace gets exactly the 404 a missing workspace gets; then the role must
   allow the permission (403 ``forbidden``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from fastapi import APIRouter, Depends, Request
from fastapi.routing import APIRoute
from starlette.types import ASGIApp, Receive, Scope, Send

from afterhack import roles
from afterhack.access import Caller, KeyCheck
from afterhack.api.deps import get_caller
from afterhack.api.errors import error_response
from afterhack.config import Settings
from afterhack.errors import (
    ActionNotFound,
    AfterhackError,
    ClaimNotFound,
    ConflictNotFound,
    CorrectionNotFound,
    DecisionNotFound,
    ErasureNotFound,
    FileNotFound,
    KeyNotFound,
    NotFound,
    RunNotFound,
    SourceNotFound,
    WorkspaceNotFound,
)
from afterhack.model.ids import is_uuid
from afterhack.runtime.services import Services

# Open to anyone: liveness, and the API's own description (and its browsable page).
OPEN_PATHS = frozenset({"/api/health", "/api/ping", "/api/openapi.json", "/api/docs",
                        "/api/docs/oauth2-redirect"})
API_PREFIX = "/api"

# (METHOD, path as served) -> the permission it needs, None for the open ones.
Permissions = dict[tuple[str, str], roles.Permission | None]


def _bearer(scope: Scope) -> str | None:
    for name, value in scope.get("headers") or ():
        if name == b"authorization":
            scheme, _, token = value.decode("latin-1").partition(" ")
            token = token.strip()
            if scheme.lower() == "bearer" and token:
                return str(token)
            return None
    return None


class Authenticate:
    """Sets ``request.state.caller`` for every request under ``/api/`` (and under the other
    guarded prefixes the app names), or answers 401/429 itself."""

    def __init__(self, app: ASGIApp, settings: Settings,
                 guarded: tuple[str, ...] = (API_PREFIX + "/",)) -> None:
        self.app = app
        self.check = KeyCheck(settings)
        self.guarded = guarded

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path = scope.get("path", "") if scope["type"] == "http" else ""
        if not path.startswith(self.guarded) or path in OPEN_PATHS:
            await self.app(scope, receive, send)
            return
        services: Services = scope["app"].state.services
        try:
            caller = await self.check.caller(services.store, _bearer(scope))
            if caller.key_id is not None:
                await self.check.count(services.store, caller.key_id)
        except AfterhackError as exc:
            headers = {"WWW-Authenticate": "Bearer"} if exc.status == 401 else {}
            retry = exc.details.get("retry_after_s")
            if retry is not None:
                headers["Retry-After"] = str(retry)
            await error_response(exc, f"{scope.get('method')} {path}",
                                 headers or None)(scope, receive, send)
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
    "conflict_id": ConflictNotFound, "version_id": FileNotFound,
    "erasure_id": ErasureNotFound,
}


def check_path_ids(params: Mapping[str, object]) -> None:
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

    # A method, not __call__: FastAPI resolves a dependency's annotations in the globals of
    # the function it is given, and an instance has none (FastAPI 0.115 then took
    # ``request`` for a query parameter).
    async def check(self, request: Request) -> Caller:
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
    return Depends(Allow(permission).check)


def permission_of(dependency: object) -> roles.Permission | None:
    """The permission a route's dependency checks, if it is one of allow()'s."""
    owner = getattr(dependency, "__self__", None)
    return owner.permission if isinstance(owner, Allow) else None


def route_permissions(routers: Iterable[APIRouter], prefix: str = API_PREFIX) -> Permissions:
    """``(METHOD, path)`` of every route of these routers, as served under ``prefix`` → its
    permission. Refuses a route that declares no permission, or more than one, unless it is
    open."""
    table: Permissions = {}
    for router in routers:
        for route in router.routes:
            if not isinstance(route, APIRoute):
                continue
            path, methods = prefix + route.path, route.methods or set()
            found = [p for d in route.dependencies
                     if (p := permission_of(d.dependency)) is not None]
            unanswered = [n for n in re.findall(r"{(\w+)}", path) if n not in PATH_IDS]
            if unanswered:
                raise RuntimeError(f"{path}: path parameters {unanswered} need an entry in "
                                   "PATH_IDS")
            if path not in OPEN_PATHS and len(found) != 1:
                raise RuntimeError(f"{sorted(methods)} {path} must declare exactly one "
                                   "permission (dependencies=[allow(...)])")
            for method in methods:
                table[(method, path)] = found[0] if found else None
    return table


def document(schema: dict[str, Any], permissions: Permissions, *, bearer: bool) -> None:
    """Write each operation's permission (``x-permission``) into the OpenAPI document, and
    the bearer scheme it needs when keys are on."""
    schema.setdefault("components", {})["securitySchemes"] = {
        "bearer": {"type": "http", "scheme": "bearer",
                   "description": "An afterhack API key (ahk_...) or the admin key."}}
    for (method, path), permission in permissions.items():
        op = schema.get("paths", {}).get(path, {}).get(method.lower())
        if op is None or permission is None:
            continue
        op["x-permission"] = permission
        if bearer:
            op["security"] = [{"bearer": []}]
