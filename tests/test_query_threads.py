"""The embedded FalkorDB runs one query at a time (embedded.QUERY_THREADS).

FalkorDB 4.16.3 segfaults when one query reads a label matrix while another on the same graph
rebuilds GraphBLAS state on it. The hammer below is that race in miniature: one writer adds
labelled nodes linked to existing ones, readers check the label and walk the link. With the
server's default of one query thread per core it crashed the server in every try here; the
test fails if the embedded server ever goes back to it.
"""

from __future__ import annotations

import random
import threading
import time
from pathlib import Path

import redis

from afterhack.runtime.embedded import QUERY_THREADS, EmbeddedFalkorDB
from tests.support.commands import command

GRAPH = "race"
READERS = 8
# Bounds: the hammer stops at whichever comes first.
HAMMER_S = 30.0
MAX_WRITES = 100_000


def test_the_embedded_server_runs_one_query_thread(tmp_path: Path) -> None:
    with EmbeddedFalkorDB(tmp_path / "fdb") as server:
        client = redis.Redis.from_url(server.url or "")
        name, value = command(client, "GRAPH.CONFIG", "GET", "THREAD_COUNT")
        assert (name, value) == (b"THREAD_COUNT", QUERY_THREADS) and QUERY_THREADS == 1


def _hammer(url: str) -> tuple[int, int, list[str]]:
    """Write and read for a while; return (writes, reads, errors)."""
    seed = redis.Redis.from_url(url)
    command(seed, "GRAPH.QUERY", GRAPH, "CREATE INDEX FOR (n:Node) ON (n.id)")
    command(seed, "GRAPH.QUERY", GRAPH, "UNWIND range(0, 2999) AS i "
                                        "CREATE (:Node:Source {id: 's' + toString(i)})")
    stop = time.monotonic() + HAMMER_S
    made = [0]
    reads = [0]
    errors: list[str] = []

    def writer() -> None:
        client = redis.Redis.from_url(url)
        while time.monotonic() < stop and not errors and made[0] < MAX_WRITES:
            first = made[0]
            try:
                command(client,
                        "GRAPH.QUERY", GRAPH,
                        f"UNWIND range({first}, {first + 49}) AS i "
                        "MATCH (s:Node {id: 's' + toString(i % 3000)}) "
                        "CREATE (s)<-[:FROM]-(:Node:Claim {id: 'c' + toString(i)})")
            except redis.RedisError as exc:
                errors.append(f"write: {exc!r}")
                return
            made[0] += 50

    def reader(seed: int) -> None:
        client = redis.Redis.from_url(url)
        rng = random.Random(seed)
        while time.monotonic() < stop and not errors and made[0] < MAX_WRITES:
            ids = [f"c{rng.randrange(max(made[0], 1))}" for _ in range(20)]
            try:
                command(client,
                        "GRAPH.RO_QUERY", GRAPH,
                        f"CYPHER ids={ids!r} MATCH (c:Node) WHERE c:Claim AND c.id IN $ids "
                        "MATCH (c)-[:FROM]->(s:Source) RETURN count(s)")
            except redis.RedisError as exc:
                errors.append(f"read: {exc!r}")
                return
            reads[0] += 1

    threads = [threading.Thread(target=writer)]
    threads += [threading.Thread(target=reader, args=(i,)) for i in range(READERS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return made[0], reads[0], errors


def test_concurrent_label_reads_beside_writes_do_not_crash_the_server(tmp_path: Path) -> None:
    with EmbeddedFalkorDB(tmp_path / "fdb") as server:
        writes, reads, errors = _hammer(server.url or "")
        alive = server.process is not None and server.process.poll() is None
        assert alive and not errors, (errors, server.crash_report())
        assert writes > 1_000 and reads > 100, (writes, reads)
