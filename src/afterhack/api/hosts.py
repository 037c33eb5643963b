"""Which ``Host`` and ``Origin`` a request may carry: the guard against DNS rebinding and
cross-site requests, for every route the app serves (the API, MCP at ``/mcp``, the UI).

A web page the user visits can rebind its own name to 127.0.0.1 and then talk to a
loopback server as if it were its own site; its requests carry the page's name in ``Host``.
So ``Host`` must name this server: a loopback name, the address it is bound to, or a name
listed in ``AFTERHACK_ALLOWED_HOSTS``; anything else is 421 ``host_not_allowed``.

A page of another site can also send requests straight to 127.0.0.1 (a form post, a simple
fetch); the browser then adds that site's ``Origin``. An ``Origin`` is ours when it is this
request's own scheme-less authority (the UI served by this app, or a dev server proxying to
it) or is listed in ``AFTERHACK_ALLOWED_ORIGINS``. A foreign ``Origin`` is refused with 403
``origin_not_allowed`` on every request except a GET or HEAD that presents a key, when keys
are on: a browser never adds our key to another site's request by itself, and the key check
that follows decides the rest. Requests without ``Origin`` (the CLI, curl, agents) are not
cross-site requests from a browser and pass this check.
"""

from __future__ import annotations

import ipaddress
import json
from collections.abc import Iterable
from urllib.parse import urlsplit

from starlette.types import ASGIApp, Receive, Scope, Send

from afterhack.wire.errors import error_body

LOOPBACK_NAMES = frozenset({"localhost", "127.0.0.1", "::1"})
_SAFE_METHODS = frozenset({"GET", "HEAD"})


def split_host(value: str) -> str:
    """The name in a ``Host`` value, lowercased, without port or IPv6 brackets ('' if none)."""
    value = value.strip().lower()
    if value.startswith("["):
        end = value.find("]")
        return value[1:end] if end > 0 else ""
    name, _, _ = value.partition(":")
    return name.rstrip(".")


def _is_loopback_ip(name: str) -> bool:
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


class HostPolicy:
    """The names this server answers to and the origins it accepts besides its own."""

    def __init__(self, bind_host: str, allowed_hosts: Iterable[str] = (),
                 allowed_origins: Iterable[str] = (), keys_on: bool = False) -> None:
        names = set(LOOPBACK_NAMES)
        bind = split_host(bind_host)
        if bind and bind not in ("0.0.0.0", "::"):
            names.add(bind)
        extra = {split_host(h) if h.strip() != "*" else "*" for h in allowed_hosts if h.strip()}
        self.any_host = "*" in extra
        self.hosts = frozenset(names | (extra - {"*"}))
        self.origins = frozenset(o.strip().rstrip("/").lower() for o in allowed_origins
                                 if o.strip())
        self.keys_on = keys_on

    def host_allowed(self, host: str | None) -> bool:
        if host is None:
            return True  # HTTP/1.0 without Host: no browser sends that
        name = split_host(host)
        return self.any_host or name in self.hosts or _is_loopback_ip(name)

    def origin_allowed(self, origin: str, host: str | None) -> bool:
        origin = origin.strip().rstrip("/").lower()
        if origin in self.origins:
            return True
        parts = urlsplit(origin)
        if parts.scheme not in ("http", "https") or not parts.netloc:
            return False  # "null" (sandboxed frames, files) and anything odd
        return host is not None and parts.netloc == host.strip().lower()


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers") or ():
        if key == name:
            return str(value.decode("latin-1"))
    return None


class HostGuard:
    """ASGI middleware applying a HostPolicy before anything else reads the request."""

    def __init__(self, app: ASGIApp, policy: HostPolicy) -> None:
        self.app = app
        self.policy = policy

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        host = _header(scope, b"host")
        if not self.policy.host_allowed(host):
            await _refuse(send, 421, "host_not_allowed",
                          f"This server does not answer to the host {split_host(host or '')!r}; "
                          "add it to AFTERHACK_ALLOWED_HOSTS if it is really this server.")
            return
        origin = _header(scope, b"origin")
        if origin is not None and not self.policy.origin_allowed(origin, host):
            keyed_read = (self.policy.keys_on and scope.get("method") in _SAFE_METHODS
                          and _header(scope, b"authorization") is not None)
            if not keyed_read:
                await _refuse(send, 403, "origin_not_allowed",
                              "Requests from another site's pages are refused; list the "
                              "origin in AFTERHACK_ALLOWED_ORIGINS if it is yours.")
                return
        await self.app(scope, receive, send)


async def _refuse(send: Send, status: int, code: str, message: str) -> None:
    body = json.dumps(error_body(code, message)).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"),
                            (b"content-length", str(len(body)).encode()),
                            (b"connection", b"close")]})
    await send({"type": "http.response.body", "body": body})
