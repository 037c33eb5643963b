"""The vector worker stops when asked, whenever the stop comes (the app's shutdown awaits it)."""

from __future__ import annotations

import asyncio

from afterhack.llm.embeddings import OfflineEmbedder
from afterhack.retrieval.vectors import Vectors, Worker
from afterhack.store.client import Store


async def test_a_stop_that_comes_as_work_arrives_ends_the_worker(falkordb: str) -> None:
    store = Store(falkordb)
    try:
        for _ in range(5):
            worker = Worker(store, Vectors(OfflineEmbedder()), rescan_s=3600.0)
            worker.start()
            await asyncio.sleep(0.05)  # past its first rescan: it waits on its queue
            # The queue hands out a name (a workspace that is not there: nothing to embed)
            # in the same turn as the stop is asked for.
            worker.notify("ws_" + "0" * 32)
            stopping = asyncio.create_task(worker.stop())
            done, _ = await asyncio.wait({stopping}, timeout=5)
            assert stopping in done, "the worker went on after it was stopped"
    finally:
        await store.close()
