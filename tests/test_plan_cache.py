"""FalkorDB's plan cache and its crash report, against the real server.

The embedded server keeps a plan for every query text the app sends, so it never evicts one
(in 4.16.3 an eviction can free a plan a concurrent reader still uses: a segfault under load);
the store warns when a process sends more texts than the server keeps; and when FalkorDB does
crash, the report we keep is the one that says where."""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import uuid
from pathlib import Path

import pytest

from afterhack.runtime.embedded import PLAN_CACHE_SIZE, EmbeddedFalkorDB
from afterhack.store import plancache
from afterhack.store.client import Store

OVERFLOW = "plan cache overflow"


def test_the_embedded_server_keeps_the_plans_of_many_more_texts_than_its_default(
        falkordb: str) -> None:
    async def go() -> tuple[int | None, list[float]]:
        store = Store(falkordb)
        g = store.graph("plans_" + uuid.uuid4().hex)
        try:
            size = await plancache.learn_limit(store)
            await g.write("CREATE (:X {id: 1})")
            # Four times FalkorDB's default of 25 distinct texts, values as parameters.
            texts = [f"MATCH (x:X) WHERE x.id = $id RETURN {i} AS n" for i in range(100)]
            first = await g.read(texts[0], {"id": 1})
            for text in texts[1:]:
                await g.read(text, {"id": 1})
            again = await g.read(texts[0], {"id": 2})
            return size, [first.stats["cached_execution"], again.stats["cached_execution"]]
        finally:
            await store.delete_graph(g.name)
            await store.close()

    size, cached = asyncio.run(go())
    assert size == PLAN_CACHE_SIZE
    # Planned once, then still cached after 99 other texts (and other parameter values).
    assert cached == [0.0, 1.0]


def test_the_store_warns_once_when_a_process_sends_more_texts_than_the_server_keeps(
        falkordb: str, caplog: pytest.LogCaptureFixture) -> None:
    def warnings() -> list[str]:
        return [r.getMessage() for r in caplog.records if OVERFLOW in r.getMessage()]

    async def go() -> tuple[list[str], list[str], list[str], int]:
        store = Store(falkordb)
        g = store.graph("plans_" + uuid.uuid4().hex)
        try:
            await g.write("CREATE (:X)")
            await plancache.learn_limit(store)
            store.texts.limit = 3
            for i in range(2):
                await g.read(f"RETURN {i} AS n")
            for _ in range(3):
                await g.read("RETURN 0 AS n", {"unused": 1})  # the same text: no new plan
            within = warnings()
            await g.read("RETURN 2 AS n")
            first = warnings()
            await g.read("RETURN 3 AS n")
            return within, first, warnings(), len(store.texts.seen)
        finally:
            await store.delete_graph(g.name)
            await store.close()

    with caplog.at_level(logging.WARNING, logger="afterhack.store.client"):
        within, first, later, texts = asyncio.run(go())
    assert within == []
    assert len(first) == 1 and "4 distinct query texts" in first[0] and "for 3 per" in first[0]
    assert later == first
    assert texts == 5


def test_a_crash_report_keeps_the_signal_and_the_stack_not_the_info_dump(
        tmp_path: Path) -> None:
    with EmbeddedFalkorDB(tmp_path / "fdb") as server:
        assert server.process is not None
        os.kill(server.process.pid, signal.SIGSEGV)
        assert server.process.wait(timeout=60) != 0
        report = server.crash_report()
        tail = server.log_tail(10_000)
    assert "crashed by signal: 11" in report and "STACK TRACE" in report
    assert "INFO OUTPUT" in tail and "# Commandstats" in tail
    # The INFO dump that filled the last 200 lines of the log is left out.
    assert "# Commandstats" not in report
    assert len(report.splitlines()) < len(tail.splitlines())
