"""Per-request costs that benchmarks found and that must not come back unnoticed."""

from __future__ import annotations

import asyncio
import inspect

from afterhack.api import deps
from afterhack.store.client import Store


def test_dependencies_do_not_hop_threads() -> None:
    # FastAPI runs a plain `def` dependency in a worker thread: ~0.15 ms a hop, per request.
    for fn in (deps.get_settings, deps.get_store, deps.get_services, deps.get_caller,
               deps.get_workspace, deps.get_workspace_ref):
        assert inspect.iscoroutinefunction(fn), fn.__name__


def test_store_parses_replies_with_hiredis(falkordb: str) -> None:
    # The pure-Python RESP parser cost about a third of a correction's store time.
    async def parser() -> str:
        store = Store(falkordb)
        try:
            await store.ping()
            conn = await store._pool.get_connection()
            try:
                return type(conn._parser).__name__
            finally:
                await store._pool.release(conn)
        finally:
            await store.close()

    assert asyncio.run(parser()) == "_AsyncHiredisParser"
