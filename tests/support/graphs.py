"""Build arbitrary provenance graphs in a real workspace (through the store's bulk loader)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import redis

from afterhack.store.client import Graph, Store
from afterhack.store.invariants import check_workspace
from afterhack.store.workspaces import workspace_graph
from afterhack_tools.bulk import bulk_load

T = TypeVar("T")


def with_graph(url: str, ws: str, fn: Callable[[Graph], Awaitable[T]]) -> T:
    async def go() -> T:
        store = Store(url)
        try:
            return await fn(workspace_graph(store, ws))
        finally:
            await store.close()

    return asyncio.run(go())


def graph_names(url: str) -> set[str]:
    """Every graph the FalkorDB at ``url`` holds (GRAPH.LIST), read straight from it."""
    r = redis.Redis.from_url(url, decode_responses=True)
    try:
        return set(r.execute_command("GRAPH.LIST"))
    finally:
        r.close()


def load(url: str, ws: str, **parts: Any) -> None:
    with_graph(url, ws, lambda g: bulk_load(g, **parts))


def violations(url: str, ws: str) -> list[str]:
    return with_graph(url, ws, check_workspace)


def statuses(url: str, ws: str) -> dict[str, str]:
    async def read(g: Graph) -> dict[str, str]:
        rows = await g.read("MATCH (n) WHERE n:Decision OR n:Action OR n:Claim "
                            "RETURN n.id AS id, n.status AS status")
        return {r["id"]: r["status"] for r in rows}

    return with_graph(url, ws, read)
