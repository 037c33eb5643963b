"""The vector worker stops when asked, whenever the stop comes (the app's shutdown awaits it)."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from afterhack.llm.embeddings import OfflineEmbedder
from afterhack.retrieval.vectors import Vectors, Worker
from afterhack.runtime.embedded import EmbeddedFalkorDB
from afterhack.store.client import Rows, Store
from afterhack.store.names import REGISTRY_GRAPH


class RegistryReads(Store):
    """A store that says when a read of the workspace registry (the worker's rescan) has
    ended, whatever it found."""

    def __init__(self, url: str) -> None:
        super().__init__(url)
        self.rescanned = asyncio.Event()

    async def run(self, graph: str, cypher: str, params: Mapping[str, Any] | None = None, *,
                  read_only: bool, primary: bool = False) -> Rows:
        try:
            return await super().run(graph, cypher, params, read_only=read_only,
                                     primary=primary)
        finally:
            if graph == REGISTRY_GRAPH:
                self.rescanned.set()


async def test_a_stop_that_comes_as_work_arrives_ends_the_worker(tmp_path: Path) -> None:
    # A FalkorDB of its own, with no workspaces: after its rescan the worker has nothing to
    # drain and goes straight to its queue, in the same turn as the rescan's read ends.
    with EmbeddedFalkorDB(tmp_path / "fdb") as server:
        store = RegistryReads(server.url or "")
        try:
            for _ in range(5):
                worker = Worker(store, Vectors(OfflineEmbedder()), rescan_s=3600.0)
                store.rescanned.clear()
                worker.start()
                await asyncio.wait_for(store.rescanned.wait(), timeout=60)
                # The queue hands out a name (a workspace that is not there: nothing to
                # embed) in the same turn as the stop is asked for.
                worker.notify("ws_" + "0" * 32)
                stopping = asyncio.create_task(worker.stop())
                done, _ = await asyncio.wait({stopping}, timeout=60)  # a hang guard
                assert stopping in done, "the worker went on after it was stopped"
        finally:
            await store.close()
