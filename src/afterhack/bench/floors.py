"""The floors every figure is divided by, measured in the same run as the figures.

* ``falkordb``: ``RETURN 1`` through the store's own async client (one round trip, no data);
* ``http``: ``GET /api/ping`` on the app, which touches neither FalkorDB nor settings;
* ``http_plus_falkordb``: their sum at p50, the least any request that reads the graph
  once can cost. API figures are compared with it, store figures with ``falkordb``.
"""

from __future__ import annotations

from typing import Any

from afterhack.bench.harness import Harness
from afterhack.bench.stats import sample, summary


async def measure_floors(h: Harness, graph: str, n: int) -> dict[str, Any]:
    assert h.store is not None and h.http is not None
    g = h.store.graph(graph)
    http = h.http

    async def return_one() -> None:
        if (await g.read("RETURN 1 AS one")).scalar() != 1:
            raise RuntimeError("RETURN 1 did not return 1")

    async def ping() -> None:
        r = await http.get("/api/ping")
        r.raise_for_status()

    falkordb = summary(await sample(return_one, n, warmup=20))
    app = summary(await sample(ping, n, warmup=20))
    return {
        "falkordb": falkordb,
        "http": app,
        "http_plus_falkordb": {"p50": round(falkordb["p50"] + app["p50"], 3),
                               "p95": round(falkordb["p95"] + app["p95"], 3)},
    }


def ratio(value: float, floor: float) -> float:
    return round(value / floor, 2) if floor > 0 else 0.0
