"""Plain connections to FalkorDB for the store's queries: one RESP request, one reply read by
hiredis, a small pool.

Queries are the app's hot path. redis-py's per-command layers (retry wrapper, timers, pool
metrics, health checks) were about a quarter of the app's CPU per request, measured under
preview load, so queries skip them; other commands (rate counters, constraints, PING) still
go through redis-py.
"""

from __future__ import annotations

import asyncio
import ssl
from typing import Any
from urllib.parse import unquote, urlparse

import hiredis
import redis.exceptions as rx


class ReplyError(rx.ResponseError):
    """An error reply from the server (a redis-py ResponseError, so one handler fits both)."""


def _pack(args: tuple[Any, ...]) -> bytes:
    out = [b"*%d\r\n" % len(args)]
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

    async def call(self, args: tuple[Any, ...], timeout_s: float) -> Any:
        """Send one command and return its reply; an error reply is raised as ReplyError
        (a run-time error of a query comes back inside the reply, not raised)."""
        self._writer.write(_pack(args))
        async with asyncio.timeout(timeout_s):
            await self._writer.drain()
            reply = self._parser.gets()
            while reply is False:
                data = await self._reader.read(1 << 16)
                if not data:
                    raise ConnectionError("FalkorDB closed the connection")
                self._parser.feed(data)
                reply = self._parser.gets()
        if isinstance(reply, ReplyError):
            raise reply
        return reply

    def close(self) -> None:
        self._writer.close()


class Pool:
    """At most ``size`` connections, reused last-in first-out; a broken one is dropped."""

    def __init__(self, url: str, size: int, *, read_timeout_s: float,
                 connect_timeout_s: float = 5.0) -> None:
        self._url = urlparse(url)
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
            return await self._connect()
        except BaseException:
            self._slots.release()
            raise

    def release(self, conn: Connection, *, broken: bool = False) -> None:
        if broken or self._closed or not conn.usable():
            conn.close()
        else:
            self._idle.append(conn)
        self._slots.release()

    def close(self) -> None:
        self._closed = True
        while self._idle:
            self._idle.pop().close()

    async def _connect(self) -> Connection:
        u = self._url
        async with asyncio.timeout(self._connect_timeout_s):
            if u.scheme == "unix":
                reader, writer = await asyncio.open_unix_connection(u.path)
            else:
                tls = ssl.create_default_context() if u.scheme in ("rediss", "falkors") else None
                reader, writer = await asyncio.open_connection(u.hostname or "localhost",
                                                               u.port or 6379, ssl=tls)
            conn = Connection(reader, writer)
            try:
                if u.password:
                    user = unquote(u.username) if u.username else None
                    auth = ("AUTH", user, unquote(u.password)) if user else (
                        "AUTH", unquote(u.password))
                    try:
                        await conn.call(auth, self._connect_timeout_s)
                    except ReplyError as exc:  # a setup problem, not a failed query
                        raise ConnectionError(f"FalkorDB refused the login: {exc}") from exc
                db = u.path.strip("/") if u.scheme != "unix" else ""
                if db and db != "0":
                    await conn.call(("SELECT", db), self._connect_timeout_s)
            except BaseException:
                conn.close()
                raise
        return conn
