"""The only place that talks to FalkorDB.

Results are turned into plain rows here, once: the client reports each header as
``[type, alias]`` and only the alias is a column name. Reads go through ``GRAPH.RO_QUERY``
(which also cannot create a missing graph); every value travels as a parameter.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlparse

import hiredis
import redis.asyncio as aioredis
import redis.exceptions as rx
from falkordb.asyncio import FalkorDB
from falkordb.asyncio.query_result import QueryResult
from falkordb.helpers import stringify_param_value

from afterhack.errors import AfterhackError, StoreUnavailable
from afterhack.store import resp

log = logging.getLogger(__name__)

Row = dict[str, Any]

_MAX_TEXTS = 4096
# Begins the store's warning; the load test (tools/) looks for these words in the apps' logs.
PLAN_CACHE_OVERFLOW = "plan cache overflow"


class GraphMissing(AfterhackError):
    """Raised (and turned into a domain 404 by callers) when a read hits a missing graph."""


class QueryFailed(AfterhackError):
    """Raised when FalkorDB rejects or aborts a query; the query has been rolled back."""


class Rows(Sequence[Row]):
    def __init__(self, rows: list[Row], stats: Mapping[str, float] | None = None) -> None:
        self._rows = rows
        self.stats = dict(stats or {})

    def __getitem__(self, i: int) -> Row:  # type: ignore[override]
        return self._rows[i]

    def __len__(self) -> int:
        return len(self._rows)

    def __iter__(self) -> Iterator[Row]:
        return iter(self._rows)

    def first(self) -> Row | None:
        return self._rows[0] if self._rows else None

    def column(self, name: str) -> list[Any]:
        return [r[name] for r in self._rows]

    def scalar(self) -> Any:
        row = self.first()
        return None if row is None else next(iter(row.values()))


_UNAVAILABLE = (
    rx.ConnectionError,
    rx.TimeoutError,
    rx.BusyLoadingError,
    ConnectionError,
    OSError,
    EOFError,  # asyncio.IncompleteReadError
    hiredis.ProtocolError,
    asyncio.TimeoutError,
)


def _is_unavailable_response(msg: str) -> bool:
    lowered = msg.lower()
    return any(
        s in lowered
        for s in ("loading", "oom command not allowed", "readonly you can't write", "tryagain")
    )


@contextlib.contextmanager
def _command_errors() -> Iterator[None]:
    """A Redis command's failure as the store reports it: the server unreachable, loading or
    out of memory is StoreUnavailable (503), any other error reply QueryFailed."""
    try:
        yield
    except _UNAVAILABLE as exc:
        raise StoreUnavailable() from exc
    except rx.ResponseError as exc:
        if _is_unavailable_response(str(exc)):
            raise StoreUnavailable() from exc
        raise QueryFailed(str(exc)) from exc


@dataclass(frozen=True)
class Graph:
    """A handle on one named graph; cheap to create per request."""

    store: Store
    name: str

    async def read(self, cypher: str, params: Mapping[str, Any] | None = None) -> Rows:
        return await self.store.run(self.name, cypher, params, read_only=True)

    async def write(self, cypher: str, params: Mapping[str, Any] | None = None) -> Rows:
        return await self.store.run(self.name, cypher, params, read_only=False)


class Store:
    def __init__(self, url: str, *, pool_size: int = 16, query_timeout_ms: int = 60_000) -> None:
        self.url = url
        self.query_timeout_ms = query_timeout_ms
        self._pool = _make_pool(url, pool_size, query_timeout_ms)
        # Queries go over their own plain connections (see store/resp.py); the same read
        # timeout as the pool's sockets.
        self._queries = resp.Pool(url, pool_size,
                                  read_timeout_s=2 * query_timeout_ms / 1000 + 30)
        self._db = FalkorDB(connection_pool=self._pool)
        # Distinct query texts sent so far, against the server's plan cache (see
        # embedded.PLAN_CACHE_SIZE): learnt by learn_plan_cache_size(), unknown until then.
        self.plan_cache_size: int | None = None
        self._texts: set[str] = set()
        self._texts_warned = False

    def graph(self, name: str) -> Graph:
        return Graph(self, name)

    async def run(
        self,
        graph: str,
        cypher: str,
        params: Mapping[str, Any] | None = None,
        *,
        read_only: bool,
    ) -> Rows:
        if cypher not in self._texts:
            self._new_text(cypher)
        query = (_params_header(params) if params else "") + cypher
        if read_only:
            args: tuple[Any, ...] = ("GRAPH.RO_QUERY", graph, query, "--compact",
                                     "timeout", self.query_timeout_ms)
        else:
            args = ("GRAPH.QUERY", graph, query, "--compact")
        try:
            reply = await self._send(args, retry_after_send=read_only)
            if reply and isinstance(reply[-1], rx.ResponseError):
                raise reply[-1]  # a run-time error: the query was rolled back
        except rx.ResponseError as exc:
            msg = str(exc)
            if "empty key" in msg:
                raise GraphMissing(graph) from exc
            if _is_unavailable_response(msg):
                raise StoreUnavailable() from exc
            if "timed out" in msg.lower():
                # The server gave up on it and rolled it back; the caller may retry.
                raise StoreUnavailable("The graph store took too long to answer; retry.",
                                       reason="query_timeout") from exc
            log.warning("query failed on %s: %s\n%s", graph, msg, cypher)
            raise QueryFailed(msg) from exc
        except _UNAVAILABLE as exc:
            raise StoreUnavailable() from exc
        if len(reply) == 1:
            return Rows([], _stats(reply[0]))
        header = [h[1] for h in reply[0]]
        try:
            rows = [dict(zip(header, [_value(c) for c in r], strict=True)) for r in reply[1]]
        except _NotPlain:
            rows = await self._library_rows(graph, reply, header)
        return Rows(rows, _stats(reply[-1]))

    def _new_text(self, cypher: str) -> None:
        # Values travel as parameters, so the set of texts is small and fixed; a text with a
        # value formatted into it would grow it without end, hence the bound.
        if len(self._texts) < _MAX_TEXTS:
            self._texts.add(cypher)
        limit = self.plan_cache_size
        if limit is not None and len(self._texts) > limit and not self._texts_warned:
            self._texts_warned = True
            log.warning(
                "%s: this process has sent %d distinct query texts and "
                "FalkorDB keeps plans for %d per graph; plans will be evicted and rebuilt, "
                "and FalkorDB before 4.18 can crash evicting one under concurrent reads. "
                "Raise its CACHE_SIZE.", PLAN_CACHE_OVERFLOW, len(self._texts), limit)

    @property
    def distinct_texts(self) -> int:
        return len(self._texts)

    async def learn_plan_cache_size(self) -> int | None:
        """Ask the server how many plans it caches per graph (None if it will not say)."""
        try:
            reply = await self.command("GRAPH.CONFIG", "GET", "CACHE_SIZE")
            self.plan_cache_size = int(reply[1])
        except (AfterhackError, rx.RedisError, IndexError, TypeError, ValueError):
            log.info("FalkorDB did not report its CACHE_SIZE", exc_info=True)
        return self.plan_cache_size

    async def _send(self, args: tuple[Any, ...], *, retry_after_send: bool) -> Any:
        """One command on a pooled plain connection (store/resp.py).

        A connection that fails is dropped. A read is tried once more on a fresh one; a
        write is not (the server may have run it), and surfaces as unavailable."""
        for attempt in (1, 2):
            conn = await self._queries.acquire()
            try:
                reply = await conn.call(args, self._queries.read_timeout_s)
            except rx.ResponseError:
                self._queries.release(conn)  # an error reply: the connection is in step
                raise
            except _UNAVAILABLE:
                self._queries.release(conn, broken=True)
                if attempt == 2 or not retry_after_send:
                    raise
                continue
            except BaseException:
                # Cancelled between the command and its reply: that reply would be read by
                # the next user of this connection.
                self._queries.release(conn, broken=True)
                raise
            self._queries.release(conn)
            return reply
        raise AssertionError("unreachable")

    async def _library_rows(self, graph: str, reply: Any, header: list[str]) -> list[Row]:
        """Rows with nodes, edges, paths or temporal values: the client library knows their
        schema lookups."""
        result = QueryResult(self._db.select_graph(graph))
        await result.parse(reply)
        return [dict(zip(header, r, strict=True)) for r in result.result_set]

    async def command(self, *args: Any) -> Any:
        with _command_errors():
            return await self._db.execute_command(*args)

    async def rate_hit(self, bucket: str, window_s: int) -> int:
        """Count one hit on ``bucket`` (a plain Redis key beside the graphs) and return the count.

        INCR and EXPIRE go in one MULTI so a counter never outlives its window; every app
        process sharing this FalkorDB shares the count.
        """
        with _command_errors():
            async with self._db.connection.pipeline(transaction=True) as pipe:
                pipe.incr(bucket)
                pipe.expire(bucket, window_s)
                count, _ = await pipe.execute()
        return int(count)

    async def ping(self) -> bool:
        try:
            return bool(await self._db.connection.ping())
        except (rx.RedisError, *_UNAVAILABLE):
            return False

    async def delete_graph(self, name: str) -> None:
        try:
            await self._db.select_graph(name).delete()
        except rx.ResponseError as exc:
            if "empty key" not in str(exc):
                raise QueryFailed(str(exc)) from exc
        except _UNAVAILABLE as exc:
            raise StoreUnavailable() from exc

    async def list_constraints(self, graph: str) -> list[dict[str, Any]]:
        try:
            return list(await self._db.select_graph(graph).list_constraints())
        except _UNAVAILABLE as exc:
            raise StoreUnavailable() from exc

    async def create_unique_constraint(self, graph: str, label: str, prop: str) -> None:
        g = self._db.select_graph(graph)
        try:
            await g.create_node_unique_constraint(label, prop)
        except rx.ResponseError as exc:
            if "already" not in str(exc).lower():
                raise QueryFailed(str(exc)) from exc
        except _UNAVAILABLE as exc:
            raise StoreUnavailable() from exc

    async def memory_usage(self, graph: str) -> int:
        """Bytes FalkorDB reports for one graph (GRAPH.MEMORY USAGE), 0 when unknown."""
        reply = await self.command("GRAPH.MEMORY", "USAGE", graph)
        # The client may hand back a map or a flat [name, value, ...] list; the unit is megabytes.
        pairs = (reply if isinstance(reply, dict)
                 else dict(zip(reply[::2], reply[1::2], strict=False)))
        mb = pairs.get("total_graph_sz_mb")
        return int(float(mb) * 1024 * 1024) if mb is not None else 0

    async def close(self) -> None:
        self._queries.close()
        try:
            await self._db.aclose()
            # A pool handed to the client is not closed with it.
            await self._pool.aclose()
        except Exception:  # pragma: no cover - best effort on shutdown
            log.debug("closing the FalkorDB pool failed", exc_info=True)


class _NotPlain(Exception):
    """A value the fast reader does not decode (node, edge, path, point, vector, time)."""


def _value(cell: list[Any]) -> Any:
    """One value of a compact reply: [type, value], as FalkorDB's compact format sends it."""
    t, v = cell
    if t == 2 or t == 3:  # string, integer
        return v
    if t == 1:
        return None
    if t == 10:  # map: key, [type, value], key, ...
        return {v[i]: _value(v[i + 1]) for i in range(0, len(v), 2)}
    if t == 6:
        return [_value(x) for x in v]
    if t == 4:
        return v == "true"
    if t == 5:
        return float(v)
    raise _NotPlain(t)


_STATS = {"Nodes created": "nodes_created", "Relationships created": "relationships_created",
          "Cached execution": "cached_execution",
          "Properties set": "properties_set", "Nodes deleted": "nodes_deleted"}


def _stats(raw: list[str]) -> dict[str, float]:
    out = dict.fromkeys(_STATS.values(), 0.0)
    for line in raw:
        name, _, rest = line.partition(": ")
        key = _STATS.get(name)
        if key is not None:
            out[key] = float(rest.split(" ")[0])
    return out


def _params_header(params: Mapping[str, Any]) -> str:
    # As the client library writes it: values in its own encoding (strings quoted and
    # escaped); names are this package's constants, backquoted.
    return "CYPHER " + "".join(f"`{k}`={stringify_param_value(v)} " for k, v in params.items())


async def concurrently(*reads: Awaitable[Any]) -> list[Any]:
    """Independent reads at once (each on its own pooled connection); the first failure is
    raised after all have finished, so none is left running or unretrieved."""
    results = await asyncio.gather(*reads, return_exceptions=True)
    for r in results:
        if isinstance(r, BaseException):
            raise r
    return results


def _make_pool(url: str, size: int, query_timeout_ms: int) -> aioredis.BlockingConnectionPool:
    parsed = urlparse(url)
    common: dict[str, Any] = {
        "max_connections": size,
        "timeout": 10,
        "decode_responses": True,
        "socket_connect_timeout": 5,
        # redis-py gives up reading after 5 s by default, but a write it gave up on still
        # commits on the server: the app would answer 503 for a write that happened. Wait
        # as long as the server may run a query (TIMEOUT_MAX is twice the default), plus
        # the time to read a large reply.
        "socket_timeout": 2 * query_timeout_ms / 1000 + 30,
        "health_check_interval": 30,
    }
    if parsed.scheme == "unix":
        return aioredis.BlockingConnectionPool(
            connection_class=aioredis.UnixDomainSocketConnection, path=parsed.path, **common
        )
    if parsed.scheme in ("falkor", "falkors"):
        url = ("rediss://" if parsed.scheme == "falkors" else "redis://") + url.split("://", 1)[1]
    pool = aioredis.BlockingConnectionPool.from_url(url, **common)
    return pool
