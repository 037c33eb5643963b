"""The store's only way to reach FalkorDB: plain RESP connections, replies read by hiredis,
one small pool per server.

Queries are the app's hot path. redis-py's per-command layers (retry wrapper, timers, pool
metrics, health checks) were about a quarter of the app's CPU per request, measured under
preview load, so the store talks RESP itself, for queries and every other command alike.
Every connection, to the server in the URL or to any node of a cluster learnt from it, is
opened from an ``Endpoint``: one place for the address, the login and TLS.
"""

from __future__ import annotations

import asyncio
import ssl
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any
from urllib.parse import parse_qs, unquote, urlparse, urlunparse

import hiredis

Command = tuple[Any, ...]


class ReplyError(Exception):
    """An error reply from the server (``-ERR ...``, ``-MOVED ...``)."""


class LoginRefused(ConnectionError):
    """The server refused the URL's credentials: a set-up problem, not a failed query."""


_SCHEMES = {"redis": False, "falkor": False, "rediss": True, "falkors": True}


@dataclass(frozen=True)
class Endpoint:
    """One server's address, plus how to log in to it and whether to speak TLS."""

    host: str = "localhost"
    port: int = 6379
    unix_path: str | None = None
    tls: bool = False
    # ``?ssl_cert_reqs=none`` in the URL: TLS without checking the server's certificate.
    tls_verify: bool = True
    username: str | None = None
    password: str | None = None
    db: int = 0

    @classmethod
    def from_url(cls, url: str) -> Endpoint:
        """``redis://``, ``rediss://`` (TLS), ``falkor://``, ``falkors://`` or ``unix://``."""
        u = urlparse(url)
        query = parse_qs(u.query)
        user = unquote(u.username) if u.username else None
        password = unquote(u.password) if u.password else None
        if u.scheme == "unix":
            db = int(query.get("db", ["0"])[0])
            return cls(unix_path=u.path, username=user, password=password, db=db)
        if u.scheme not in _SCHEMES:
            raise ValueError(f"unsupported FalkorDB URL scheme {u.scheme!r}")
        path = u.path.strip("/")
        return cls(host=u.hostname or "localhost", port=u.port or 6379, tls=_SCHEMES[u.scheme],
                   tls_verify=query.get("ssl_cert_reqs", ["required"])[0] != "none",
                   username=user, password=password, db=int(path) if path else 0)

    @classmethod
    def seeds_from_url(cls, url: str) -> list[Endpoint]:
        """The servers a URL names: one, or several for a cluster
        (``redis://user:pass@host1:port1,host2:port2``), any of which will do."""
        u = urlparse(url)
        if u.scheme == "unix" or "," not in u.netloc:
            return [cls.from_url(url)]
        login, at, hosts = u.netloc.rpartition("@")
        return [cls.from_url(urlunparse(u._replace(netloc=login + at + h)))
                for h in hosts.split(",") if h]

    def at(self, host: str, port: int) -> Endpoint:
        """Another node of the same cluster: same login, same TLS."""
        return replace(self, host=host, port=port, unix_path=None)

    @property
    def address(self) -> str:
        return self.unix_path or f"{self.host}:{self.port}"

    def _tls_context(self) -> ssl.SSLContext | None:
        if not self.tls:
            return None
        ctx = ssl.create_default_context()
        if not self.tls_verify:
            ctx.check_hostname = False
            ctx.verify_mode = ssl.CERT_NONE
        return ctx

    async def connect(self, timeout_s: float, *, readonly: bool = False) -> Connection:
        """A logged-in connection (``READONLY`` too, for reads on a cluster replica)."""
        async with asyncio.timeout(timeout_s):
            if self.unix_path:
                reader, writer = await asyncio.open_unix_connection(self.unix_path)
            else:
                reader, writer = await asyncio.open_connection(
                    self.host, self.port, ssl=self._tls_context())
            conn = Connection(reader, writer)
            try:
                setup: list[Command] = []
                if self.password:
                    setup.append(("AUTH", self.username, self.password) if self.username
                                 else ("AUTH", self.password))
                if self.db:
                    setup.append(("SELECT", self.db))
                if readonly:
                    setup.append(("READONLY",))
                if setup:
                    replies = await conn.call_many(setup, timeout_s)
                    for cmd, reply in zip(setup, replies, strict=True):
                        if isinstance(reply, ReplyError):
                            if cmd[0] == "AUTH":
                                raise LoginRefused(f"FalkorDB refused the login: {reply}")
                            raise ConnectionError(f"FalkorDB refused {cmd[0]}: {reply}")
            except BaseException:
                conn.close()
                raise
        return conn


def _pack(commands: Sequence[Command]) -> bytes:
    out: list[bytes] = []
    for args in commands:
        out.append(b"*%d\r\n" % len(args))
        for a in args:
            b = a if isinstance(a, bytes) else str(a).encode("utf-8")
            out.append(b"$%d\r\n%s\r\n" % (len(b), b))
    return b"".join(out)


class Connection:
    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self._reader = reader
        self._writer = writer
        self._parser = hiredis.Reader(replyError=ReplyError, encoding="utf-8")

    def usable(self) -> bool:
        # A server that restarted or dropped us has closed the socket; the loop has seen it.
        return not (self._writer.is_closing() or self._reader.at_eof())

    async def call(self, args: Command, timeout_s: float) -> Any:
        """Send one command and return its reply; an error reply is raised as ReplyError
        (a run-time error of a query comes back inside the reply, not raised)."""
        [reply] = await self.call_many((args,), timeout_s)
        if isinstance(reply, ReplyError):
            raise reply
        return reply

    async def call_many(self, commands: Sequence[Command], timeout_s: float) -> list[Any]:
        """Send commands in one write and read one reply each, in order; error replies are
        returned in their places, as ReplyError values."""
        self._writer.write(_pack(commands))
        replies: list[Any] = []
        async with asyncio.timeout(timeout_s):
            await self._writer.drain()
            while len(replies) < len(commands):
                reply = self._parser.gets()
                while reply is False:
                    data = await self._reader.read(1 << 16)
                    if not data:
                        raise ConnectionError("FalkorDB closed the connection")
                    self._parser.feed(data)
                    reply = self._parser.gets()
                replies.append(reply)
        return replies

    def close(self) -> None:
        self._writer.close()


class Pool:
    """At most ``size`` connections to one server, reused last-in first-out; a broken one is
    dropped."""

    def __init__(self, endpoint: Endpoint, size: int, *, read_timeout_s: float,
                 connect_timeout_s: float = 5.0, readonly: bool = False) -> None:
        self.endpoint = endpoint
        self.readonly = readonly
        self._slots = asyncio.Semaphore(size)
        self._idle: list[Connection] = []
        self.read_timeout_s = read_timeout_s
        self._connect_timeout_s = connect_timeout_s
        self._closed = False

    async def acquire(self) -> Connection:
        await self._slots.acquire()
        try:
            while self._idle:
                conn = self._idle.pop()
                if conn.usable():
                    return conn
                conn.close()
            return await self.endpoint.connect(self._connect_timeout_s, readonly=self.readonly)
        except BaseException:
            self._slots.release()
            raise

    def release(self, conn: Connection, *, broken: bool = False) -> None:
        if broken or self._closed or not conn.usable():
            conn.close()
        else:
            self._idle.append(conn)
        self._slots.release()

    def drop_idle(self) -> None:
        """Close the idle connections (their server went away, or changed role)."""
        while self._idle:
            self._idle.pop().close()

    def close(self) -> None:
        self._closed = True
        self.drop_idle()
