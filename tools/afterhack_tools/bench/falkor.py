"""FalkorDB's own view of a query, for the benchmark: what the app's store never needs."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import redis.asyncio as aioredis
from falkordb.helpers import stringify_param_value
from redis.asyncio.cluster import RedisCluster


async def execution_ms(url: str, graph: str, cypher: str,
                       params: Mapping[str, Any] | None = None, *,
                       cluster: bool = False) -> float:
    """FalkorDB's "internal execution time" of a read, on a connection of its own."""
    header = ("CYPHER " + "".join(f"`{k}`={stringify_param_value(v)} "
                                  for k, v in params.items())) if params else ""
    client = RedisCluster.from_url(url) if cluster else aioredis.Redis.from_url(url)
    try:
        reply = await client.execute_command(  # type: ignore[no-untyped-call,unused-ignore]
            "GRAPH.RO_QUERY", graph, header + cypher, "--compact")
    finally:
        await client.aclose()
    for line in reply[-1]:
        text = line.decode() if isinstance(line, bytes) else str(line)
        name, _, rest = text.partition(": ")
        if name == "Query internal execution time":
            return float(rest.split(" ")[0])
    raise RuntimeError("FalkorDB reported no execution time")
