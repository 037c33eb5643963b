"""FalkorDB's own view of a query, for the benchmark: what the app's store never needs."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import redis.asyncio as aioredis
from falkordb.helpers import stringify_param_value
from redis.asyncio.cluster import RedisCluster

from afterhack.store.resp import Endpoint


def redis_client(url: str, *, cluster: bool, decode_responses: bool = False
                 ) -> aioredis.Redis | RedisCluster:
    """redis-py's client for the store's URL (on a cluster, through its first node)."""
    if not cluster:
        return aioredis.Redis.from_url(url, decode_responses=decode_responses)
    seed = Endpoint.seeds_from_url(url)[0]
    return RedisCluster(host=seed.host, port=seed.port, password=seed.password,
                        username=seed.username, ssl=seed.tls,
                        decode_responses=decode_responses)


async def execution_ms(url: str, graph: str, cypher: str,
                       params: Mapping[str, Any] | None = None, *,
                       cluster: bool = False) -> float:
    """FalkorDB's "internal execution time" of a read, on a connection of its own."""
    header = ("CYPHER " + "".join(f"`{k}`={stringify_param_value(v)} "
                                  for k, v in params.items())) if params else ""
    client = redis_client(url, cluster=cluster)
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
