"""Where a correction preview's time goes, so the distance to its floor can be read from
the benchmark itself: the region read through the store (wall time from a client, and
FalkorDB's own execution time of its first query), and the CPU each process spends per
request (this benchmark's HTTP client, the app, FalkorDB) for a preview and for the two
floor requests, all in one interleaved loop. CPU of other processes is read from /proc
(Linux only)."""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from functools import partial
from pathlib import Path
from typing import Any

from afterhack.store import repair as store_repair
from afterhack.store.names import graph_name
from afterhack_tools.bench.falkor import execution_ms
from afterhack_tools.bench.harness import Harness
from afterhack_tools.bench.records import PreviewParts
from afterhack_tools.bench.stats import summary, timed

PROCESSES = ("client", "app", "falkordb")
REQUESTS = ("ping", "return_one", "preview")


def cpu_s(pid: int | None) -> float | None:
    """Seconds on a CPU, all threads of the process (FalkorDB runs queries on worker
    threads), from each thread's schedstat: nanoseconds, where /proc/<pid>/stat counts
    10 ms ticks, too coarse for one request."""
    if pid is None:
        return None
    total = 0
    try:
        for task in Path(f"/proc/{pid}/task").iterdir():
            try:
                total += int((task / "schedstat").read_text().split()[0])
            except FileNotFoundError:
                continue  # a thread that ended since the listing
    except (OSError, ValueError, IndexError):
        return None
    return total / 1e9


async def measure_preview_parts(h: Harness, ws_id: str, claims: list[str],
                                rounds: int) -> PreviewParts:
    """Previews of claims already corrected are refused before any work, so pass claims
    that are still current (read-only: nothing here writes)."""
    assert h.http is not None and h.store is not None and h.app is not None
    http, store = h.http, h.store
    g = store.graph(graph_name(ws_id))
    pids = {"app": h.app.pid, "falkordb": h.falkordb_pid(g.name)}
    url = f"/api/workspaces/{ws_id}/claims/{{}}/corrections/preview"
    out: dict[str, list[float]] = {"preview": [], "ping": [], "return_one": [],
                                   "region_read": [], "first_query_in_falkordb": []}
    cpu = {r: dict.fromkeys(PROCESSES, 0.0) for r in REQUESTS}
    measured = True

    async def return_one() -> None:
        await g.read("RETURN 1 AS one")

    for i in range(rounds):
        claim = claims[i % len(claims)]
        steps: tuple[tuple[str, Callable[[], Awaitable[Any]]], ...] = (
            ("ping", partial(http.get, "/api/ping")),
            ("return_one", return_one),
            ("preview", partial(http.post, url.format(claim),
                                json={"statement": "A statement to preview."})))
        for name, call in steps:
            before = {p: cpu_s(pid) for p, pid in pids.items()}
            mine = time.process_time()
            ms, r = await timed(call)
            cpu[name]["client"] += time.process_time() - mine
            after = {p: cpu_s(pid) for p, pid in pids.items()}
            if r is not None:
                r.raise_for_status()
            out[name].append(ms)
            for p in pids:
                b, a = before[p], after[p]
                if a is None or b is None:
                    measured = False
                else:
                    cpu[name][p] += a - b
        ms, _ = await timed(partial(store_repair.claim_region, g, claim, workspace_id=ws_id))
        out["region_read"].append(ms)
        out["first_query_in_falkordb"].append(await execution_ms(
            store.url, g.name, store_repair.CLAIM_REGION_IN_WORKSPACE, {"id": claim, "ws": ws_id},
            cluster=h.cluster))
    return {
        "preview": summary(out["preview"]),
        "ping": summary(out["ping"]),
        "return_one": summary(out["return_one"]),
        "region_read": summary(out["region_read"]),
        "first_query_in_falkordb": summary(out["first_query_in_falkordb"]),
        "cpu_ms_per_request": (
            {r: {p: round(s / rounds * 1000, 3) for p, s in by.items()}
             for r, by in cpu.items()} if measured else None),
    }
