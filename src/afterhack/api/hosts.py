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

import json
import re
from collections.abc import Iterable
from urllib.parse import urlsplit

from starlette.types import ASGIApp, Receive, Scope, Send

from afterhack.wire.errors import error_body
from afterhack.wire.hostnames import host_name, loopback_ip

LOOPBACK_NAMES = frozenset({"localhost", "127.0.0.1", "::1"})
_SAFE_METHODS = frozenset({"GET", "HEAD"})


class HostPolicy:
    """The names this server answers to and the origins it accepts besides its own."""

    def __init__(self, bind_host: str, allowed_hosts: Iterable[str] = (),
                 allowed_origins: Iterable[str] = (), keys_on: bool = False) -> None:
        names = set(LOOPBACK_NAMES)
        bind = host_name(bind_host) or host_name(f"[{bind_host}]")
        if bind and bind not in ("0.0.0.0", "::"):
            names.add(bind)
        extra = [h.strip() for h in allowed_hosts if h.strip()]
        self.any_host = "*" in extra
        for entry in extra:
            if entry != "*":
                name = host_name(entry)
                if name is None:
                    raise ValueError(f"not a host[:port]: {entry!r}")
                names.add(name)
        self.hosts = frozenset(names)
        self.origins = frozenset(o.strip().rstrip("/").lower() for o in allowed_origins
                                 if o.strip())
        self.keys_on = keys_on

    def host_allowed(self, host: str | None) -> bool:
        """Whether a ``Host`` value names this server: a host[:port] (hostnames.py) whose
        name is one of ours exactly, or a loopback address."""
        if host is None:
            return True  # HTTP/1.0 without Host: no browser sends that
        if self.any_host:
            return True
        name = host_name(host)
        return name is not None and (name in self.hosts or loopback_ip(name))

    def target_allowed(self, target: bytes) -> bool:
        """Whether a request target names this server: the origin form (``/path``) and
        ``*`` name none; the absolute form (``http://host/path``) and the authority form
        (``host:port``) must name an allowed host, as ``Host`` must (RFC 9112: the
        target's authority, not ``Host``, is the one the request is for)."""
        if target.startswith(b"/") or target == b"*":
            return True
        try:
            text = target.decode("ascii")
        except UnicodeDecodeError:
            return False
        scheme, sep, rest = text.partition("://")
        if sep:
            if scheme.lower() not in ("http", "https"):
                return False
            authority = re.split(r"[/?#]", rest, maxsplit=1)[0]
        else:
            authority = text
        # No userinfo: "127.0.0.1:80@evil.example" is no host[:port], and is refused there.
        return self.host_allowed(authority)

    def origin_allowed(self, origin: str, host: str | None) -> bool:
        origin = origin.strip().rstrip("/").lower()
        if origin in self.origins:
            return True
        parts = urlsplit(origin)
        if parts.scheme not in ("http", "https") or not parts.netloc:
            return False  # "null" (sandboxed frames, files) and anything odd
        return host is not None and parts.netloc == host.strip().lower()


def _headers(scope: Scope, name: bytes) -> list[str]:
    return [value.decode("latin-1") for key, value in scope.get("headers") or ()
            if key == name]


def _header(scope: Scope, name: bytes) -> str | None:
    found = _headers(scope, name)
    return found[0] if found else None


class HostGuard:
    """ASGI middleware applying a HostPolicy before anything else reads the request."""

    def __init__(self, app: ASGIApp, policy: HostPolicy) -> None:
        self.app = app
        self.policy = policy

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        hosts = _headers(scope, b"host")
        host = hosts[0] if hosts else None
        # Two Host headers are two answers to "which server?": the request names none.
        # h11 keeps an absolute-form target whole in raw_path; httptools keeps only its
        # path there, and afterhack serve's protocol checks the target itself (headers.py).
        if (len(hosts) > 1 or not self.policy.host_allowed(host)
                or not self.policy.target_allowed(scope.get("raw_path") or b"/")):
            await refuse_host(send)
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


HOST_REFUSAL = ("This server does not answer to the host this request names; add it to "
                "AFTERHACK_ALLOWED_HOSTS if it is really this server.")


def host_refusal() -> bytes:
    """The 421 answer's body."""
    return json.dumps(error_body("host_not_allowed", HOST_REFUSAL)).encode()


async def refuse_host(send: Send) -> None:
    await _refuse(send, 421, "host_not_allowed", HOST_REFUSAL)


async def _refuse(send: Send, status: int, code: str, message: str) -> None:
    body = json.dumps(error_body(code, message)).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"),
                            (b"content-length", str(len(body)).encode()),
                            (b"connection", b"close")]})
    await send({"type": "http.response.body", "body": body})
