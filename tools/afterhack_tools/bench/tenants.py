"""Many empty workspaces: what each costs in memory, and whether reads slow down with them.

Runs first, on a fresh FalkorDB: one workspace, ``GET /api/workspaces/{ws}`` sampled; then
the rest are created through the API, and the same request is sampled again (on the first
workspace and on random ones). Memory is FalkorDB's ``GRAPH.MEMORY USAGE`` summed over the
new graphs (it reports whole megabytes, so an empty graph reads 0) and Redis's
``used_memory`` before and after (on a cluster, summed over the masters, and the graphs each
master holds are counted). Floors are taken on the registry graph. The extra
workspaces are deleted afterwards, so the sized workspaces meet a server like a fresh one.
"""

from __future__ import annotations

import asyncio
import random
from collections import Counter

from afterhack.store import admin
from afterhack.store.names import REGISTRY_GRAPH, graph_name
from afterhack.store.workspaces import delete_workspace
from afterhack_tools.bench.floors import Floors
from afterhack_tools.bench.harness import Harness
from afterhack_tools.bench.load import create_workspace
from afterhack_tools.bench.records import Summary, TenantFigures
from afterhack_tools.bench.stats import sample, summary, timed

_CONCURRENCY = 4


async def _sample_get(h: Harness, ids: list[str], n: int, seed: int,
                      floors: Floors) -> Summary:
    assert h.http is not None
    http = h.http
    rng = random.Random(seed)

    async def get() -> None:
        r = await http.get(f"/api/workspaces/{rng.choice(ids)}")
        r.raise_for_status()

    return summary(await sample(get, n, warmup=50, before=floors.tick))


async def measure_tenants(h: Harness, count: int, n: int) -> TenantFigures:
    assert h.store is not None
    floors = Floors(h, REGISTRY_GRAPH)
    tight = await floors.tight(n)
    first = await create_workspace(h, "tenant 0")
    one = await _sample_get(h, [first], n, seed=1, floors=floors)
    before = await h.used_memory()
    created: list[str] = []
    create_ms: list[float] = []
    gate = asyncio.Semaphore(_CONCURRENCY)

    async def make(i: int) -> None:
        async with gate:
            ms, ws = await timed(lambda: create_workspace(h, f"tenant {i}"))
            create_ms.append(ms)
            created.append(ws)

    await asyncio.gather(*(make(i) for i in range(1, count)))
    after = await h.used_memory()
    graph_bytes = 0
    for ws in created:
        graph_bytes += await admin.memory_usage(h.store, graph_name(ws))
    many_first = await _sample_get(h, [first], n, seed=2, floors=floors)
    many_any = await _sample_get(h, [first, *created], n, seed=3, floors=floors)
    extra = max(1, len(created))
    per_master = Counter(str(h.store.master_port(graph_name(ws))) for ws in [first, *created])
    store = h.store

    async def drop(ws: str) -> None:
        async with gate:
            await delete_workspace(store, ws)

    await asyncio.gather(*(drop(ws) for ws in [first, *created]))
    return {
        "graphs_per_master": dict(sorted(per_master.items())) if h.cluster else None,
        "workspaces": count,
        "floors": {"tight": tight, "interleaved": floors.interleaved()},
        "create": summary(create_ms) if create_ms else None,
        "get_with_1": one,
        "get_with_all_same": many_first,
        "get_with_all_random": many_any,
        "used_memory_per_workspace_bytes": round((after - before) / extra),
        "graph_memory_usage_sum_bytes": graph_bytes,
    }
