"""The store's own RESP connections against redis-py's, on the preview's read.

The store could have given way to redis-py (``redis.asyncio.Redis`` on one server,
``redis.asyncio.RedisCluster`` on a cluster) instead of routing its own connections: this
measures both on the same reads, so the choice rests on figures. The read is the preview's
(``claim_region``: a claim and its region) on a workspace of decisions that use the claim;
each client sends the same command and its reply is decoded the same way, so only the
transport differs. ``RETURN 1`` through the store is the floor. Latency on an idle loopback
hides what a transport costs under load, so each also gets the app process's CPU time per
call (``cpu_us``), on the preview read and on ``RETURN 1``.

    python -m afterhack_tools.bench.clients redis://127.0.0.1:PORT [--samples 400]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import time
import uuid
from collections.abc import Awaitable, Callable
from typing import Any

import redis.asyncio as aioredis
from redis.asyncio.cluster import RedisCluster

from afterhack.memory.workspaces import create_workspace
from afterhack.store import repair as store_repair
from afterhack.store.client import Store
from afterhack.store.resp import Command, ReplyError
from afterhack.store.workspaces import delete_workspace, workspace_graph
from afterhack_tools.bench.falkor import redis_client
from afterhack_tools.bench.stats import sample, summary
from afterhack_tools.bulk import bulk_load


class RedisPyStore(Store):
    """The store with redis-py as its transport (reads only; enough for the comparison)."""

    def __init__(self, url: str, client: aioredis.Redis | RedisCluster) -> None:
        super().__init__(url)
        self.client = client

    async def round_trip(self, key: str, commands: list[Command], *, write: bool,
                         replica: bool = False) -> list[Any]:
        out: list[Any] = []
        for cmd in commands:
            try:
                out.append(await self.client.execute_command(*cmd))
            except aioredis.ResponseError as exc:
                out.append(ReplyError(str(exc)))
        return out


async def _world(store: Store) -> tuple[str, str]:
    ws = str((await create_workspace(store, "clients-bench", "bench"))["id"])
    sources = [{"id": str(uuid.uuid4()), "title": f"s{i}"} for i in range(20)]
    claims = [{"id": str(uuid.uuid4()), "statement": f"Fact {i} holds.",
               "source_id": sources[i % 20]["id"]} for i in range(200)]
    target = claims[0]["id"]
    decisions = [{"id": str(uuid.uuid4()), "title": f"D{i}",
                  "premises": {"p": [target, claims[1 + i % 199]["id"]]}} for i in range(20)]
    actions = [{"id": str(uuid.uuid4()), "description": f"A{i}",
                "decision_ids": [decisions[i]["id"]]} for i in range(20)]
    await bulk_load(workspace_graph(store, ws), sources=sources, claims=claims,
                    decisions=decisions, actions=actions)
    return ws, target


async def compare(url: str, samples: int) -> dict[str, Any]:
    own = Store(url)
    await own.ping()
    cluster = bool(own.is_cluster)
    lib = redis_client(url, cluster=cluster, decode_responses=True)
    theirs = RedisPyStore(url, lib)
    ws, claim = await _world(own)
    try:
        def preview_read(store: Store) -> Callable[[], Awaitable[Any]]:
            g = workspace_graph(store, ws)

            async def go() -> Any:
                found, snap = await store_repair.claim_region(g, claim, workspace_id=ws)
                assert found is not None and len(snap.decisions) == 20
                return found

            return go

        async def floor() -> None:
            await workspace_graph(own, ws).read("RETURN 1 AS one")

        figures: dict[str, list[float]] = {"floor": [], "own": [], "redis_py": []}
        # Alternating blocks, so a shared host's slow moments fall on both alike.
        for _ in range(4):
            figures["floor"] += await sample(floor, samples // 4, warmup=20)
            figures["own"] += await sample(preview_read(own), samples // 4, warmup=20)
            figures["redis_py"] += await sample(preview_read(theirs), samples // 4, warmup=20)
        out = {k: summary(v) for k, v in figures.items()}
        base = out["floor"]["p50"]
        cpu = {}
        for name, store in (("own", own), ("redis_py", theirs)):
            cpu[name] = {"preview_read": await _cpu_us(preview_read(store), samples),
                         "return_1": await _cpu_us(_return_one(store, ws), samples)}
        return {"url": url, "cluster": cluster, "samples": samples,
                "redis_py_client": type(lib).__name__, **out,
                "ratio_p50": {k: round(out[k]["p50"] / base, 2) for k in ("own", "redis_py")},
                "cpu_us": cpu}
    finally:
        await delete_workspace(own, ws)
        await lib.aclose()
        await own.close()


def _return_one(store: Store, ws: str) -> Callable[[], Awaitable[Any]]:
    g = workspace_graph(store, ws)

    async def go() -> Any:
        return await g.read("RETURN 1 AS one")

    return go


async def _cpu_us(fn: Callable[[], Awaitable[Any]], n: int) -> float:
    for _ in range(20):
        await fn()
    t0 = time.process_time()
    for _ in range(n):
        await fn()
    return round((time.process_time() - t0) / n * 1e6, 1)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("url")
    p.add_argument("--samples", type=int, default=400)
    args = p.parse_args()
    print(json.dumps(asyncio.run(compare(args.url, args.samples)), indent=1))


if __name__ == "__main__":
    main()
