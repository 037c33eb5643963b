"""Build arbitrary provenance graphs in a real workspace (through the store's bulk loader)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

import redis
from falkordb.helpers import stringify_param_value

from afterhack.model.workspaces import GraphSnapshot
from afterhack.store.client import Graph, Rows, Store
from afterhack.store.export import snapshot_graph
from afterhack.store.invariants import check_workspace
from afterhack.store.workspaces import workspace_graph
from afterhack_tools.bulk import bulk_load
from tests.support.commands import command

T = TypeVar("T")


@dataclass(frozen=True)
class RecordingGraph(Graph):
    """A graph handle that keeps each read's query and parameters, to read their plans."""

    seen: list[tuple[str, dict[str, Any]]] = field(default_factory=list)

    async def read(self, cypher: str, params: Mapping[str, Any] | None = None) -> Rows:
        self.seen.append((cypher, dict(params or {})))
        return await super().read(cypher, params)


def explain(url: str, graph: str, cypher: str, params: Mapping[str, Any]) -> str:
    """FalkorDB's plan for the query with these parameters (GRAPH.EXPLAIN)."""
    header = "CYPHER " + "".join(f"{k}={stringify_param_value(v)} " for k, v in params.items())
    r = redis.Redis.from_url(url, decode_responses=True)
    try:
        return "\n".join(command(r, "GRAPH.EXPLAIN", graph, header + cypher))
    finally:
        r.close()


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
        return set(command(r, "GRAPH.LIST"))
    finally:
        r.close()


def snapshot(url: str, ws: str) -> GraphSnapshot:
    """Every node and edge of a workspace graph, read straight from FalkorDB."""
    return with_graph(url, ws, snapshot_graph)


def write(url: str, ws: str, cypher: str, params: Mapping[str, Any] | None = None) -> None:
    """A write straight to a workspace graph, around the app: a state it would not make."""
    async def go(g: Graph) -> None:
        await g.write(cypher, params)

    with_graph(url, ws, go)


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
