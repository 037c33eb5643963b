"""FalkorDB's files after an erasure, on the embedded server: words a write removed from a
graph are still in the append-only file until the scrubber rewrites it; then no byte of
them is left under the data dir, and none after a restart either. The scrubber marks
clean exactly what was pending before its rewrite began, and coalesces the requests that
arrive while one runs into the next single rewrite (runtime/scrub.py).

Each test runs its own embedded FalkorDB in a temporary data dir, so the scan reads only
what that test wrote. Its snapshots are written uncompressed (``rdbcompression no``):
Redis compresses the strings of an RDB file with LZF by default, and a graph's data
compressed is not found by searching bytes even while it holds the words
(tests/support/bytescan.py). The words are overwritten with a plain Cypher write here; an
erasure writes the same way (docs/decisions/0041-forgetting-on-disk.md).
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import redis

from afterhack.memory.workspaces import create_workspace
from afterhack.records.clock import now_ms
from afterhack.runtime import datadir
from afterhack.runtime.disk_scrub import ScrubTicket
from afterhack.runtime.embedded import EmbeddedFalkorDB
from afterhack.runtime.scrub import DiskScrubber, ScrubReport
from afterhack.store import erasure_disk
from afterhack.store.client import Graph, Store
from afterhack.store.workspaces import ensure_registry, workspace_graph
from tests.support.bytescan import files, scan
from tests.support.commands import command

SECRET = "Ana's number is +49 151 2345 6789"


@pytest.fixture
async def server(tmp_path: Path) -> AsyncIterator[EmbeddedFalkorDB]:
    fdb = EmbeddedFalkorDB(tmp_path / "fdb", die_with_parent=True)
    await asyncio.to_thread(fdb.start)
    with _client(fdb) as c:
        command(c, "CONFIG", "SET", "rdbcompression", "no")
    try:
        yield fdb
    finally:
        fdb.stop()


@pytest.fixture
async def store(server: EmbeddedFalkorDB) -> AsyncIterator[Store]:
    assert server.url is not None
    s = Store(server.url)
    await ensure_registry(s, now_ms())
    try:
        yield s
    finally:
        await s.close()


async def _workspace(store: Store) -> Graph:
    ws = await create_workspace(store, "scrub", "test")
    return workspace_graph(store, ws["id"])


async def _erasure(g: Graph, erasure_id: str) -> None:
    # As the graph side writes an applied erasure: no content, disk pending.
    await g.write("CREATE (:Erasure:Node {id: $id, status: 'applied', applied_at: 1, "
                  "disk: 'pending'})", {"id": erasure_id})


async def _disk(g: Graph, erasure_id: str) -> tuple[str, int | None]:
    rows = await g.read("MATCH (e:Node {id: $id}) WHERE e:Erasure "
                        "RETURN e.disk AS disk, e.disk_clean_at AS at", {"id": erasure_id})
    return rows[0]["disk"], rows[0]["at"]


def _scrubber(server: EmbeddedFalkorDB, store: Store) -> DiskScrubber:
    """As the app makes its scrubber for its embedded server."""
    return DiskScrubber(store, data_dir=server.data_dir, server_pid=lambda: server.pid)


def _text(reply: object) -> str:
    """Every string in a reply, joined (bytes read as UTF-8)."""
    if isinstance(reply, bytes):
        return reply.decode(errors="replace")
    if isinstance(reply, list | tuple):
        return "\n".join(_text(r) for r in reply)
    if isinstance(reply, dict):
        return "\n".join(_text(k) + "\n" + _text(v) for k, v in reply.items())
    return str(reply)


def _client(server: EmbeddedFalkorDB) -> redis.Redis:
    assert server.url is not None
    return redis.Redis(unix_socket_path=server.url.removeprefix("unix://"))


async def test_overwritten_words_stay_on_disk_until_the_rewrite_then_no_byte_is_left(
        server: EmbeddedFalkorDB, store: Store) -> None:
    g = await _workspace(store)
    await g.write("CREATE (:Claim:Node {id: 'c1', statement: $s, kept: 'the launch'})",
                  {"s": SECRET})
    await _erasure(g, "e1")
    data = server.data_dir
    assert [h.path.name for h in scan(data, SECRET)] == ["appendonly.aof.1.incr.aof"]
    # Gone from the graph, not from the file: the increment keeps every write.
    await g.write("MATCH (c:Node {id: 'c1'}) SET c.statement = '[erased]'")
    assert scan(data, SECRET) != []

    report = await _scrubber(server, store).scrub()

    assert scan(data, SECRET) == [], [str(h) for h in scan(data, SECRET)]
    assert any(p.name.endswith(".base.rdb") for p in files(data))  # the scan read the data
    assert report.marked_clean == 1 and [n.aof for n in report.nodes] == [True]
    disk, at = await _disk(g, "e1")
    assert disk == "clean" and at is not None and at >= report.started_at
    assert datadir.unlisted(data) == []

    await store.close()
    await asyncio.to_thread(server.stop)
    await asyncio.to_thread(server.start)
    assert scan(data, SECRET) == []
    with _client(server) as c:
        command(c, "CONFIG", "SET", "rdbcompression", "no")
    rows = await g.read("MATCH (c:Node {id: 'c1'}) RETURN c.statement AS s, c.kept AS k")
    assert (rows[0]["s"], rows[0]["k"]) == ("[erased]", "the launch")


async def test_a_stray_snapshot_and_a_dead_rewrites_file_are_removed(
        server: EmbeddedFalkorDB, store: Store) -> None:
    g = await _workspace(store)
    await g.write("CREATE (:Claim:Node {id: 'c1', statement: $s})", {"s": SECRET})
    with _client(server) as c:
        command(c, "SAVE")  # a dump.rdb, as an operator's SAVE would leave one
    data = server.data_dir
    dead = "temp-rewriteaof-bg-999999.aof"  # what a rewrite killed half-way leaves
    (data / dead).write_bytes(SECRET.encode())
    assert {h.path.name for h in scan(data, SECRET)} >= {"dump.rdb", dead}
    await g.write("MATCH (c:Node {id: 'c1'}) SET c.statement = '[erased]'")

    report = await _scrubber(server, store).scrub()

    assert sorted(report.removed) == ["dump.rdb", dead]
    assert scan(data, SECRET) == []


async def test_slow_logs_that_hold_a_query_s_parameters_are_emptied(
        server: EmbeddedFalkorDB, store: Store) -> None:
    g = await _workspace(store)
    with _client(server) as c:
        command(c, "CONFIG", "SET", "slowlog-log-slower-than", "0")
        # Slow enough for FalkorDB's own log of a graph's slowest queries.
        await g.read("UNWIND range(1, 300000) AS i WITH i WHERE i % 7 = 0 "
                     "RETURN count(i) AS n, $s AS s", {"s": SECRET})
        assert SECRET in _text(command(c, "SLOWLOG", "GET", "128"))
        assert SECRET in _text(command(c, "GRAPH.SLOWLOG", g.name))

        await _scrubber(server, store).scrub()

        assert SECRET not in _text(command(c, "SLOWLOG", "GET", "128"))
        assert command(c, "GRAPH.SLOWLOG", g.name) == []


async def test_falkordbs_log_of_recent_queries_is_turned_off_and_what_it_kept_dropped(
        server: EmbeddedFalkorDB, store: Store) -> None:
    with _client(server) as c:
        # The embedded server keeps none; an external one keeps FalkorDB's default (a
        # graph's log takes its length when the graph is made).
        assert command(c, "GRAPH.CONFIG", "GET", "MAX_INFO_QUERIES") == [
            b"MAX_INFO_QUERIES", 0]
        command(c, "GRAPH.CONFIG", "SET", "MAX_INFO_QUERIES", "1000")
        g = await _workspace(store)
        await g.write("CREATE (:Claim:Node {id: 'c1', statement: $s})", {"s": SECRET})
        stream = f"telemetry{{{g.name}}}"
        # FalkorDB copies its log into the stream now and then, as queries come.
        for _ in range(3000):
            if SECRET in _text(command(c, "XRANGE", stream, "-", "+")):
                break
            await g.read("RETURN 1 AS one")
            await asyncio.sleep(0.02)
        assert SECRET in _text(command(c, "XRANGE", stream, "-", "+"))
        await g.write("MATCH (c:Node {id: 'c1'}) SET c.statement = '[erased]'")

        await _scrubber(server, store).scrub()

        assert SECRET not in _text(command(c, "XRANGE", stream, "-", "+"))
        assert command(c, "GRAPH.CONFIG", "GET", "MAX_INFO_QUERIES") == [
            b"MAX_INFO_QUERIES", 0]
        assert scan(server.data_dir, SECRET) == []
        # And it keeps no query from then on: its next copy into the stream (which makes
        # the deleted stream again) holds nothing.
        await g.read("RETURN $s AS s", {"s": SECRET})
        for _ in range(3000):
            if command(c, "EXISTS", stream):
                break
            await g.read("RETURN 1 AS one")
            await asyncio.sleep(0.02)
        assert command(c, "EXISTS", stream) and command(c, "XLEN", stream) == 0


async def test_only_what_was_pending_before_the_rewrite_began_is_marked_clean(
        store: Store) -> None:
    g = await _workspace(store)
    await _erasure(g, "before")
    pending = await erasure_disk.pending(store)
    assert pending.erasures == {g.name: ["before"]}
    await _erasure(g, "after")  # applied once the rewrite had read what it serves

    assert await erasure_disk.mark_clean(store, pending, 123) == 1
    assert await _disk(g, "before") == ("clean", 123)
    assert await _disk(g, "after") == ("pending", None)
    # Marked once: a second mark of the same list changes nothing.
    assert await erasure_disk.mark_clean(store, pending, 456) == 0
    assert await _disk(g, "before") == ("clean", 123)


class GatedScrubber(DiskScrubber):
    """Holds its first rewrite until the test opens the gate; counts the rewrites."""

    def __init__(self, store: Store, server: EmbeddedFalkorDB) -> None:
        super().__init__(store, data_dir=server.data_dir, server_pid=lambda: server.pid)
        self.began = asyncio.Event()
        self.gate = asyncio.Event()
        self.rewrites = 0
        self.later: list[ScrubTicket] = []
        # Whether each of ``later`` counted as served when each rewrite began.
        self.served_at_start: list[list[bool]] = []

    async def scrub(self) -> ScrubReport:
        self.rewrites += 1
        self.served_at_start.append([self.done(t) for t in self.later])
        self.began.set()
        await self.gate.wait()
        return await super().scrub()


async def test_requests_during_a_rewrite_are_served_by_the_next_single_one(
        server: EmbeddedFalkorDB, store: Store) -> None:
    await _workspace(store)
    with _client(server) as c:
        before = int(c.info("persistence")["aof_rewrites"])
    scrubber = GatedScrubber(store, server)
    scrubber.start()
    try:
        first = scrubber.request()
        await asyncio.wait_for(scrubber.began.wait(), 60)
        later = [scrubber.request() for _ in range(10)]  # while the first one runs
        scrubber.later = later
        assert await scrubber.wait(first, 0.05) is False
        scrubber.gate.set()
        assert await scrubber.wait(first, 120)
        assert all([await scrubber.wait(t, 120) for t in later])
    finally:
        await scrubber.stop()
    # One rewrite for the first request, one for the ten taken while it ran: the first did
    # not count as serving them, since it began before they were taken.
    assert scrubber.rewrites == 2
    assert scrubber.served_at_start == [[], [False] * 10]
    with _client(server) as c:
        assert int(c.info("persistence")["aof_rewrites"]) - before == 2


async def test_a_pending_erasure_is_rewritten_at_start_up_unasked(
        server: EmbeddedFalkorDB, store: Store) -> None:
    g = await _workspace(store)
    await _erasure(g, "left-pending")
    scrubber = _scrubber(server, store)
    scrubber.start()
    try:
        for _ in range(6000):
            if (await _disk(g, "left-pending"))[0] == "clean":
                break
            await asyncio.sleep(0.02)
    finally:
        await scrubber.stop()
    assert (await _disk(g, "left-pending"))[0] == "clean"
    assert scrubber.last is not None and scrubber.last.marked_clean == 1


async def test_a_crash_reports_query_stays_out_of_the_app_log_and_the_data_dir(
        server: EmbeddedFalkorDB, store: Store) -> None:
    """FalkorDB's crash report names the query it was running, parameters included: what
    the app reads of the log to write into its own leaves it out, and the scrubber cuts it
    from the log file."""
    g = await _workspace(store)
    slow = asyncio.create_task(g.read(
        "UNWIND range(1, 200000000) AS i WITH i WHERE i % 7 = 0 RETURN count(i) AS n, $s AS s",
        {"s": SECRET}))
    with _client(server) as c:
        for _ in range(3000):
            if "200000000" in _text(command(c, "GRAPH.INFO", "RunningQueries")):
                break
            await asyncio.sleep(0.01)
    assert server.process is not None
    server.process.send_signal(signal.SIGSEGV)
    await asyncio.to_thread(server.process.wait, 60)
    with contextlib.suppress(Exception):
        await slow
    log = server.data_dir / "falkordb.log"
    assert SECRET in log.read_text(errors="replace")  # the report is there, query and all
    assert "graph_command:GRAPH.RO_QUERY (query left out)" in server.crash_report()
    assert SECRET not in server.crash_report() and SECRET not in server.log_tail(10_000)

    await asyncio.to_thread(server.restart)
    await _scrubber(server, store).scrub()

    assert scan(server.data_dir, SECRET) == []
    assert "graph_command:GRAPH.RO_QUERY (query left out)" in log.read_text(errors="replace")


async def test_falkordb_killed_during_a_rewrite_loses_nothing_and_the_next_one_cleans(
        server: EmbeddedFalkorDB, store: Store) -> None:
    """A rewrite that forked before the words were erased, its server killed half-way: its
    child, orphaned, goes on writing its temporary file from the data as it was at the
    fork. The next rewrite waits for that child to end and removes its file."""
    g = await _workspace(store)
    await g.write("CREATE (:Claim:Node {id: 'c1', statement: $s, kept: 'the launch'})",
                  {"s": SECRET})
    await _erasure(g, "e1")
    with _client(server) as c:
        # The child sleeps this long per key it writes, so it is still at work when its
        # server is killed.
        command(c, "CONFIG", "SET", "rdb-key-save-delay", "500000")
        command(c, "BGREWRITEAOF")
        assert int(c.info("persistence")["aof_rewrite_in_progress"])
    await g.write("MATCH (c:Node {id: 'c1'}) SET c.statement = '[erased]'")
    await asyncio.to_thread(server.kill)
    orphans = [p.name for p in server.data_dir.glob("temp-rewriteaof-*.aof")]
    assert len(orphans) == 1
    assert await _disk_after_restart(server, g) == ("pending", None)

    report = await _scrubber(server, store).scrub()

    assert report.removed == orphans and report.marked_clean == 1
    assert scan(server.data_dir, SECRET) == []
    rows = await g.read("MATCH (c:Node {id: 'c1'}) RETURN c.statement AS s, c.kept AS k")
    assert (rows[0]["s"], rows[0]["k"]) == ("[erased]", "the launch")


async def _disk_after_restart(server: EmbeddedFalkorDB, g: Graph) -> tuple[str, int | None]:
    await asyncio.to_thread(server.restart)
    with _client(server) as c:
        command(c, "CONFIG", "SET", "rdbcompression", "no")
    return await _disk(g, "e1")
