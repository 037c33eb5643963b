"""Where a correction preview's time goes, so the distance to its floor can be read from
the benchmark itself: the region read through the store (wall time from a client, and
FalkorDB's own execution time of its first query), and the app's CPU per preview against
its CPU per ping (read from /proc, Linux only), all in one interleaved loop."""

from __future__ import annotations

import os
from functools import partial
from pathlib import Path
from typing import Any

from afterhack.bench.harness import Harness
from afterhack.bench.stats import summary, timed
from afterhack.store import repair as store_repair
from afterhack.store.names import graph_name


def _cpu_s(pid: int) -> float | None:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def measure_preview_parts(h: Harness, ws_id: str, claims: list[str],
                                rounds: int) -> dict[str, Any]:
    """Previews of claims already corrected are refused before any work, so pass claims
    that are still current (read-only: nothing here writes)."""
    assert h.http is not None and h.store is not None and h.app is not None
    http, store, pid = h.http, h.store, h.app.pid
    g = store.graph(graph_name(ws_id))
    url = f"/api/workspaces/{ws_id}/claims/{{}}/corrections/preview"
    out: dict[str, list[float]] = {"preview": [], "ping": [], "region_read": [],
                                   "first_query_in_falkordb": []}
    cpu = {"preview": 0.0, "ping": 0.0}
    measured_cpu = True
    for i in range(rounds):
        claim = claims[i % len(claims)]
        for name, call in (
                ("ping", partial(http.get, "/api/ping")),
                ("preview", partial(http.post, url.format(claim),
                                    json={"statement": "A statement to preview."}))):
            before = _cpu_s(pid)
            ms, r = await timed(call)
            after = _cpu_s(pid)
            r.raise_for_status()
            out[name].append(ms)
            if before is None or after is None:
                measured_cpu = False
            else:
                cpu[name] += after - before
        ms, _ = await timed(partial(store_repair.claim_region, g, claim, workspace_id=ws_id))
        out["region_read"].append(ms)
        out["first_query_in_falkordb"].append(await store.execution_ms(
            g.name, store_repair.CLAIM_REGION_IN_WORKSPACE, {"id": claim, "ws": ws_id}))
    result: dict[str, Any] = {k: summary(v) for k, v in out.items()}
    result["app_cpu_ms_per_request"] = (
        {k: round(v / rounds * 1000, 3) for k, v in cpu.items()} if measured_cpu else None)
    return result
