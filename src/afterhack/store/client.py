"""The only place that talks to FalkorDB, on one server or a cluster of them.

Results are turned into plain rows here, once (store/reply.py names what a reply holds).
Reads go through ``GRAPH.RO_QUERY`` (which also cannot create a missing graph); every value
travels as a parameter. Every command names the key it is about, so on a cluster it goes to
the node holding that key (store/routing.py); the few keyless ones are sent to every
primary on purpose (``on_primaries``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import hiredis

from afterhack.errors import AfterhackError, NotReplicated, StoreUnavailable
from afterhack.store.deadlines import WaitBudget, current_budget, request_budget
from afterhack.store.params import params_header
from afterhack.store.plancache import QueryTexts
from afterhack.store.reply import NeedsSchema, QueryReply, Redirect, Schema, is_transient
from afterhack.store.resp import Command, Endpoint, Pool, ReplyError
from afterhack.store.routing import Nodes

log = logging.getLogger(__name__)

Row = dict[str, Any]

class GraphMissing(AfterhackError):
    """Raised (and turned into a domain 404 by callers) when a read hits a missing graph."""


class QueryFailed(AfterhackError):
    """Raised when FalkorDB rejects or aborts a query; the query has been rolled back."""


@dataclass(frozen=True)
class Probe:
    """How the server answered one PING: ``reason`` says why not (not_answering: connected
    but silent, e.g. frozen; unreachable; loading; error)."""

    answering: bool
    reason: str | None


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


# A server that cannot be reached, dropped the connection, or did not answer in time.
_UNAVAILABLE = (
    ConnectionError,
    OSError,
    EOFError,  # asyncio.IncompleteReadError
    hiredis.ProtocolError,
    TimeoutError,
)

# What a store call that got no answer in time was doing (StoreUnavailable's reason).
NOT_ANSWERING = "not_answering"
WRITE_OUTCOME_UNKNOWN = "write_outcome_unknown"
# Beyond the server's own cap on a query, the time a large reply may take to arrive.
DEADLINE_MARGIN_S = 2.0

# Redirections followed for one command before giving up (a slot moving twice at once).
_MAX_REDIRECTS = 5
# With replica reads on, how long this process reads a graph it wrote from the primary.
PRIMARY_AFTER_WRITE_S = 2.0


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
    """FalkorDB, at ``url``: one server, or any node of a cluster (detected on first use; a
    URL may list several, ``redis://host1:port1,host2:port2``, in case one is down).

    ``read_from_replicas``: on a cluster, read-only queries go to a replica of the graph's
    shard (which may lag its master by a moment). ``write_replicas``: each write waits
    (``WAIT``, on its own connection) until that many replicas have it, or raises
    NotReplicated after ``write_replicas_timeout_ms``. ``failover_wait_s``: on a cluster, how
    long a command waits for a shard whose master is gone to be taken over by a replica
    before it fails as unavailable.
    """

    def __init__(self, url: str, *, pool_size: int = 16, query_timeout_ms: int = 60_000,
                 read_from_replicas: bool = False, write_replicas: int = 0,
                 write_replicas_timeout_ms: int = 1000, failover_wait_s: float = 10.0,
                 deadline_s: float | None = None) -> None:
        self.url = url
        self.query_timeout_ms = query_timeout_ms
        self.write_replicas = write_replicas
        self.write_replicas_timeout_ms = write_replicas_timeout_ms
        self.failover_wait_s = failover_wait_s
        # The longest one call waits for its answer. By default, past the server's own caps:
        # it aborts a read at the query timeout and a write at twice it (TIMEOUT_MAX), so a
        # call given up on is one the server is not going to answer (a frozen server), not a
        # slow one. A write given up on after it was sent answers write_outcome_unknown.
        query_s = query_timeout_ms / 1000
        self.read_deadline_s = deadline_s or query_s + DEADLINE_MARGIN_S
        self.write_deadline_s = deadline_s or 2 * query_s + DEADLINE_MARGIN_S + (
            write_replicas_timeout_ms / 1000 if write_replicas else 0)
        self._nodes = Nodes(Endpoint.seeds_from_url(url), pool_size,
                            read_timeout_s=max(self.read_deadline_s, self.write_deadline_s),
                            replica_reads=read_from_replicas)
        # Calls waiting for an answer, by their deadlines: cut short all at once when the
        # server is found not answering (see declare_unresponsive).
        self._waiting: set[asyncio.Timeout] = set()
        # Why the server is taken as not answering (set by whoever watches it), or None:
        # meanwhile calls are refused at once instead of each waiting out its deadline.
        self.unresponsive: str | None = None
        self._schemas: dict[str, Schema] = {}
        # With replica reads: when this process last wrote each graph (see _on_primary).
        self._written: dict[str, float] = {}
        # Distinct query texts sent so far, against the server's plan cache.
        self.texts = QueryTexts()

    def graph(self, name: str) -> Graph:
        return Graph(self, name)

    def master_port(self, key: str) -> int | None:
        """The TCP port of the server that holds ``key`` as its master, as far as the store
        knows now (None before the first command, or on a unix socket)."""
        if self._nodes.cluster is None:
            return None
        endpoint = self._nodes.primary(key).endpoint
        return None if endpoint.unix_path else endpoint.port

    @property
    def is_cluster(self) -> bool | None:
        """Whether the URL named a cluster node (None until the first command)."""
        return self._nodes.cluster

    async def run(
        self,
        graph: str,
        cypher: str,
        params: Mapping[str, Any] | None = None,
        *,
        read_only: bool,
        primary: bool = False,
    ) -> Rows:
        """One query on ``graph``; ``primary`` keeps a read off the replicas."""
        if cypher not in self.texts.seen:
            self.texts.note(cypher)
        query = (params_header(params) if params else "") + cypher
        if read_only:
            cmd: Command = ("GRAPH.RO_QUERY", graph, query, "--compact",
                            "timeout", self.query_timeout_ms)
        else:
            cmd = ("GRAPH.QUERY", graph, query, "--compact")
        wait = self.write_replicas if not read_only else 0
        commands: list[Command] = [cmd]
        if wait:
            commands.append(("WAIT", wait, self.write_replicas_timeout_ms))
        try:
            replica_ok = read_only and not primary and self._replica_ok(graph)
            replies = await self.round_trip(graph, commands, write=not read_only,
                                            replica=replica_ok)
            if isinstance(replies[0], ReplyError):
                raise replies[0]
            reply = QueryReply.parse(replies[0])
        except ReplyError as exc:
            msg = str(exc)
            if "empty key" in msg:
                raise GraphMissing(graph) from exc
            if is_transient(msg):
                raise StoreUnavailable() from exc
            if "timed out" in msg.lower():
                # The server gave up on it and rolled it back; the caller may retry.
                raise StoreUnavailable("The graph store took too long to answer; retry.",
                                       reason="query_timeout") from exc
            log.warning("query failed on %s: %s\n%s", graph, msg, cypher)
            raise QueryFailed(msg) from exc
        if not read_only:
            self._wrote(graph)
        self._check_replicated(replies, wait)
        try:
            rows = reply.rows(self._schemas.get(graph))
        except NeedsSchema:
            self._schemas[graph] = await self._read_schema(graph)
            rows = reply.rows(self._schemas[graph])
        return Rows(rows, reply.stats)

    def _replica_ok(self, graph: str) -> bool:
        """Whether a read of ``graph`` may go to a replica: not while one this process wrote
        a moment ago may still be on its way there, so a client's next request reads its
        own write. (Across processes, AFTERHACK_WRITE_REPLICAS=1 gives the same: a write
        is acknowledged once the replica has it.)"""
        if not self._nodes.replica_reads:
            return True
        at = self._written.get(graph)
        return at is None or time.monotonic() - at > PRIMARY_AFTER_WRITE_S

    def _wrote(self, graph: str) -> None:
        if self._nodes.replica_reads:
            if len(self._written) > 100_000:
                self._written.clear()
            self._written[graph] = time.monotonic()

    async def _read_schema(self, graph: str) -> Schema:
        labels, types, keys = await concurrently(*(
            self.run(graph, f"CALL db.{proc}() YIELD {col} RETURN collect({col}) AS names",
                     read_only=True, primary=True)
            for proc, col in (("labels", "label"), ("relationshipTypes", "relationshipType"),
                              ("propertyKeys", "propertyKey"))))
        return Schema(tuple(labels.scalar()), tuple(types.scalar()), tuple(keys.scalar()))

    async def round_trip(self, key: str, commands: list[Command], *, write: bool,
                         replica: bool = False) -> list[Any]:
        """``commands`` in one round trip on one connection to the node that holds ``key``
        (a replica when ``replica`` and replica reads are on); returns their replies, error
        replies among them.

        Each attempt has a deadline (``read_deadline_s`` or ``write_deadline_s``), cut short
        when the server is declared not answering. A read that fails or gets no answer is
        sent again once; a write is not: one that was sent and got no answer, or lost its
        connection, surfaces as write_outcome_unknown (the server may have run it), and
        one that never left as plain unavailable. On a cluster, ``MOVED`` and ``ASK`` are
        followed, a read that a replica does not have yet goes to the master, and a shard
        without a reachable master (failing over) is waited for, up to ``failover_wait_s``,
        while the slot map is read again.
        """
        if self.unresponsive is not None:
            raise self._not_answering()
        budget = current_budget()
        if budget is not None and budget.left <= 0:
            raise self._not_answering()
        nodes = self._nodes
        if nodes.cluster is None:
            await self._discover()
        elif nodes.stale():
            with contextlib.suppress(*_UNAVAILABLE, ReplyError):
                await nodes.refresh()
        redirects = attempts = 0
        asking: Pool | None = None
        to_primary = not replica
        deadline: float | None = None
        wait_s = self.write_deadline_s if write else self.read_deadline_s
        if budget is not None:
            wait_s = min(wait_s, budget.left)
        while True:
            attempts += 1
            if asking is not None:
                pool, sent = asking, [("ASKING",), *commands]
            else:
                pool = nodes.primary(key) if to_primary else nodes.reader(key)
                sent = commands
            got = await self._call_once(pool, sent, wait_s, budget, write)
            if isinstance(got, BaseException):
                failure: BaseException = got
            else:
                replies = got
                if asking is not None:
                    replies, asking = replies[1:], None
                first = replies[0]
                if not isinstance(first, ReplyError):
                    return replies
                redirect = Redirect.of(first)
                if redirect is not None and redirects < _MAX_REDIRECTS:
                    redirects += 1
                    if redirect.ask:
                        asking = nodes.pool(f"{redirect.host}:{redirect.port}")
                    else:
                        nodes.moved(redirect.slot, redirect.host, redirect.port)
                        to_primary = True  # a replica sent us on: the master answers
                    continue
                if pool.readonly and "empty key" in str(first):
                    to_primary = True  # a graph this replica has not received yet
                    continue
                if not (nodes.cluster and is_transient(first)):
                    return replies
                failure = first  # refused for now (failing over): nothing ran
            if not nodes.cluster:
                if not write and attempts == 1:
                    continue  # once more, on a fresh connection
                raise StoreUnavailable(retry_after_s=1) from failure
            await self._await_failover(pool, failure, attempts, deadline)
            deadline = deadline or time.monotonic() + self.failover_wait_s

    async def _call_once(self, pool: Pool, sent: list[Command], wait_s: float,
                         budget: WaitBudget | None, write: bool) -> list[Any] | BaseException:
        """One attempt on one connection of ``pool``: the replies, or what left it without
        any (to be tried again or waited out). A write that was sent and lost its answer
        raises write_outcome_unknown, and an attempt past its wait while the server is
        declared not answering raises that."""
        conn = None
        expired = False
        started = time.monotonic()
        try:
            async with asyncio.timeout(wait_s) as limit:
                self._waiting.add(limit)
                try:
                    conn = await pool.acquire()
                    replies = await conn.call_many(sent, pool.read_timeout_s)
                finally:
                    self._waiting.discard(limit)
                    expired = limit.expired()
                    if budget is not None:
                        budget.spent += time.monotonic() - started
        except _UNAVAILABLE as exc:
            if conn is not None:
                pool.release(conn, broken=True)
                if write:
                    raise StoreUnavailable(
                        "The graph store did not confirm the write: it may or may not "
                        "have been made. Read before sending it again.",
                        reason=WRITE_OUTCOME_UNKNOWN) from exc
            if expired:
                raise self._not_answering() from exc
            return exc
        except BaseException:
            # Cancelled between the command and its reply: that reply would be read by
            # the next user of this connection.
            if conn is not None:
                pool.release(conn, broken=True)
            raise
        assert conn is not None
        pool.release(conn)
        return replies

    @contextlib.contextmanager
    def request_budget(self, *, write: bool) -> Iterator[WaitBudget]:
        """Within this block (one request), calls to the store wait at most one deadline
        in all: a write's when the request may write, else a read's."""
        with request_budget(self.write_deadline_s if write else self.read_deadline_s) as b:
            yield b

    def _not_answering(self) -> StoreUnavailable:
        return StoreUnavailable("The graph store did not answer in time; retry shortly.",
                                reason=NOT_ANSWERING, retry_after_s=2)

    def declare_unresponsive(self, reason: str = NOT_ANSWERING) -> None:
        """The server is not answering (its watcher says so): every call waiting for an
        answer gives up now, and calls are refused at once until declare_answering."""
        self.unresponsive = reason
        now = asyncio.get_running_loop().time()
        for limit in list(self._waiting):
            limit.reschedule(now)

    def declare_answering(self) -> None:
        self.unresponsive = None

    async def _await_failover(self, pool: Pool, failure: BaseException, attempts: int,
                              deadline: float | None) -> None:
        """Wait a moment for a shard's master to come back or be replaced; past the
        deadline, fail as unavailable with a hint when to retry."""
        if deadline is not None and time.monotonic() >= deadline:
            raise StoreUnavailable(
                "A shard of the graph store is unavailable (failing over); retry shortly.",
                reason="shard_unavailable", retry_after_s=2) from failure
        pool.drop_idle()
        with contextlib.suppress(*_UNAVAILABLE, ReplyError):
            await self._nodes.refresh()
        await asyncio.sleep(min(0.25, 0.02 * attempts))

    async def _discover(self) -> None:
        try:
            await self._nodes.discover()
        except (*_UNAVAILABLE, ReplyError) as exc:
            raise StoreUnavailable(retry_after_s=1) from exc

    async def command(self, key: str, *args: Any, read: bool = False) -> Any:
        """One command about ``key``, sent to the node that holds it (a write waits for
        replicas as queries do); an error reply raises QueryFailed (StoreUnavailable when it
        means "not now")."""
        wait = 0 if read else self.write_replicas
        commands: list[Command] = [args]
        if wait:
            commands.append(("WAIT", wait, self.write_replicas_timeout_ms))
        replies = await self.round_trip(key, commands, write=not read, replica=read)
        reply = replies[0]
        if isinstance(reply, ReplyError):
            if is_transient(reply):
                raise StoreUnavailable() from reply
            raise QueryFailed(str(reply)) from reply
        self._check_replicated(replies, wait)
        return reply

    def _check_replicated(self, replies: list[Any], wait: int) -> None:
        if wait and not (isinstance(replies[1], int) and replies[1] >= wait):
            raise NotReplicated(replicas_wanted=wait, replicas_acknowledged=replies[1],
                                timeout_ms=self.write_replicas_timeout_ms)

    async def on_primaries(self, *args: Any) -> list[Any]:
        """A keyless command (INFO, GRAPH.CONFIG, ...) sent to every primary, on purpose;
        their replies in slot order (one reply on a single server)."""
        if self.unresponsive is not None:
            raise self._not_answering()
        if self._nodes.cluster is None:
            await self._discover()
        out = []
        for pool in self._nodes.primaries():
            conn = None
            try:
                async with asyncio.timeout(self.read_deadline_s) as limit:
                    self._waiting.add(limit)
                    try:
                        conn = await pool.acquire()
                        reply = await conn.call(args, pool.read_timeout_s)
                    finally:
                        self._waiting.discard(limit)
            except ReplyError as exc:
                if conn is not None:
                    pool.release(conn)
                raise QueryFailed(str(exc)) from exc
            except BaseException as exc:
                if conn is not None:
                    pool.release(conn, broken=True)
                if isinstance(exc, _UNAVAILABLE):
                    raise StoreUnavailable(retry_after_s=1) from exc
                raise
            pool.release(conn)
            out.append(reply)
        return out

    async def topology(self) -> tuple[bool, str]:
        """Whether the URL names a cluster, and the address of the server it reached first
        (store/disk.py lists every node from there)."""
        if self._nodes.cluster is None:
            await self._discover()
        primaries = self._nodes.primaries()
        address = primaries[0].endpoint.address if primaries else self._nodes.seed.address
        return bool(self._nodes.cluster), address

    async def on_node(self, address: str, *args: Any, readonly: bool = False) -> Any:
        """One keyless command on the node at ``address`` (``host:port``, or the URL's unix
        socket), a replica included: what store/disk.py sends to every node on purpose.
        ``readonly``: on a connection that said ``READONLY`` (a cluster replica's graph
        commands). An error reply raises QueryFailed."""
        if self.unresponsive is not None:
            raise self._not_answering()
        if self._nodes.cluster is None:
            await self._discover()
        pool = self._nodes.pool(address, readonly=readonly)
        try:
            conn = await pool.acquire()
        except _UNAVAILABLE as exc:
            raise StoreUnavailable(retry_after_s=1) from exc
        try:
            # Cut short with every other call when the server is found not answering.
            async with asyncio.timeout(self.read_deadline_s) as limit:
                self._waiting.add(limit)
                try:
                    reply = await conn.call(args, pool.read_timeout_s)
                finally:
                    self._waiting.discard(limit)
        except ReplyError as exc:
            pool.release(conn)
            if is_transient(exc):
                raise StoreUnavailable(retry_after_s=1) from exc
            raise QueryFailed(str(exc)) from exc
        except BaseException as exc:
            pool.release(conn, broken=True)
            if isinstance(exc, _UNAVAILABLE):
                raise StoreUnavailable(retry_after_s=1) from exc
            raise
        pool.release(conn)
        return reply

    async def ping(self) -> bool:
        """Whether the server (every primary of a cluster) answers."""
        try:
            replies = await self.on_primaries("PING")
        except (AfterhackError, *_UNAVAILABLE):
            return False
        return all(r == "PONG" for r in replies)

    async def probe(self, timeout_s: float) -> Probe:
        """PING every primary (the URL's server before the first command) on a connection
        of its own, never queued behind calls waiting in the pools, within ``timeout_s``
        in all; what it says is how the server is now."""
        nodes = self._nodes
        endpoints = ([p.endpoint for p in nodes.primaries()] if nodes.cluster is not None
                     else [nodes.seed])
        try:
            async with asyncio.timeout(timeout_s):
                for endpoint in endpoints:
                    conn = await endpoint.connect(timeout_s)
                    try:
                        await conn.call(("PING",), timeout_s)
                    finally:
                        conn.close()
        except TimeoutError:
            return Probe(answering=False, reason=NOT_ANSWERING)
        except ReplyError as exc:
            loading = str(exc).startswith("LOADING")
            return Probe(answering=False, reason="loading" if loading else "error")
        except (*_UNAVAILABLE, ConnectionError):
            return Probe(answering=False, reason="unreachable")
        return Probe(answering=True, reason=None)

    async def delete_graph(self, name: str) -> None:
        self._schemas.pop(name, None)
        try:
            await self.command(name, "GRAPH.DELETE", name)
        except QueryFailed as exc:
            if "empty key" not in str(exc):
                raise

    async def close(self) -> None:
        self._nodes.close()


async def concurrently(*reads: Awaitable[Any]) -> list[Any]:
    """Independent reads at once (each on its own pooled connection); the first failure is
    raised after all have finished, so none is left running or unretrieved."""
    results = await asyncio.gather(*reads, return_exceptions=True)
    for r in results:
        if isinstance(r, BaseException):
            raise r
    return results
