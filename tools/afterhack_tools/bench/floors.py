"""The floors every figure is divided by, measured in the same run as the figures.

* ``falkordb``: ``RETURN 1`` through the store's own async client (one round trip, no data);
* ``http``: ``GET /api/ping`` on the app, which touches neither FalkorDB nor settings;
* ``http_plus_falkordb``: their sum, the least any request that reads the graph once can
  cost. API figures are compared with it, store figures with ``falkordb``.

Each is measured two ways. ``tight``: a loop of nothing but that request, the best the
machine does (caches hot, nothing else running). ``interleaved``: one ping and one
``RETURN 1`` taken just before each sample of a figure, so the floor sees the same machine
state (and the same noise of a shared host) as the figure it divides.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TypeVar

from afterhack_tools.bench.harness import Harness
from afterhack_tools.bench.records import FloorPair, Summary
from afterhack_tools.bench.stats import sample, summary, timed

T = TypeVar("T")


def _pair(falkordb: Summary, http: Summary) -> FloorPair:
    return {
        "falkordb": falkordb,
        "http": http,
        "http_plus_falkordb": {"p50": round(falkordb["p50"] + http["p50"], 3),
                               "p95": round(falkordb["p95"] + http["p95"], 3)},
    }


class Floors:
    """Floor probes against one graph and the app; also the interleaved sampler."""

    def __init__(self, h: Harness, graph: str) -> None:
        assert h.store is not None and h.http is not None
        self._g = h.store.graph(graph)
        self._http = h.http
        self.falkordb: list[float] = []
        self.ping: list[float] = []

    async def return_one(self) -> None:
        if (await self._g.read("RETURN 1 AS one")).scalar() != 1:
            raise RuntimeError("RETURN 1 did not return 1")

    async def ping_app(self) -> None:
        (await self._http.get("/api/ping")).raise_for_status()

    async def tick(self) -> None:
        """One interleaved sample of each floor (call it before each sample of a figure)."""
        ms, _ = await timed(self.return_one)
        self.falkordb.append(ms)
        ms, _ = await timed(self.ping_app)
        self.ping.append(ms)

    async def tight(self, n: int) -> FloorPair:
        return _pair(summary(await sample(self.return_one, n, warmup=20)),
                     summary(await sample(self.ping_app, n, warmup=20)))

    async def around(self, n: int, figure: Callable[[], Awaitable[T]]) -> tuple[T, FloorPair]:
        """Run ``figure()`` between two tight-loop floor blocks of n samples each and return
        its result with the floors of both blocks together: a tight floor taken next to the
        figure in time, so a host that speeds up or slows down between them moves both."""
        db = await sample(self.return_one, n, warmup=20)
        http = await sample(self.ping_app, n, warmup=20)
        result = await figure()
        db += await sample(self.return_one, n, warmup=20)
        http += await sample(self.ping_app, n, warmup=20)
        return result, _pair(summary(db), summary(http))

    def interleaved(self) -> FloorPair:
        return _pair(summary(self.falkordb), summary(self.ping))


def ratio(value: float, floor: float) -> float:
    return round(value / floor, 2) if floor > 0 else 0.0
