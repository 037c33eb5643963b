"""Reads as of a time against reads now, and what status histories cost (docs/rules.md,
rule 10).

The same synthetic workspace is loaded twice: ``A`` as the app writes it now (every claim,
decision and action with its status history) and ``B`` in the shape of a graph written
before histories existed (the lists removed: the app reads such a node as "this status
since it was created"). Then every claim of both changes status once (proposed to
accepted): on A through the one helper that writes the history (store/history.change), on
B by the plain SET the app wrote before. ``early`` is a moment before those changes, so a
read as of it finds every claim changed since and reads its history; ``late`` is after.

Figures, each sampled in one round-robin with the others (so all see the same machine):

* search (``GET /claims?q=``), a page of the claim list, one claim, one decision: now on A,
  now on B, and as of ``early`` and ``late`` on A;
* correction preview on A and on B (the same claims);
* memory: GRAPH.MEMORY USAGE and Redis's used_memory, A against B after loading (each
  node's first history entry) and across the status changes (bytes per change).
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Awaitable, Callable
from typing import Any

from afterhack.store import admin
from afterhack.store.client import Graph
from afterhack.store.history import change
from afterhack.store.names import graph_name
from afterhack_tools.bench.floors import ratio
from afterhack_tools.bench.harness import Harness
from afterhack_tools.bench.load import load_workspace
from afterhack_tools.bench.records import AsofFigures, AsofMemory
from afterhack_tools.bench.stats import summary, timed
from afterhack_tools.bench.synth import Workspace, correction_targets, search_queries

BATCH = 5000
LIMIT = 20


async def _each_batch(g: Graph, cypher: str, **params: Any) -> None:
    """Run a write over every claim, a batch at a time."""
    while True:
        rows = await g.write(cypher + " RETURN count(*) AS n", {"batch": BATCH, **params})
        if not rows or not rows[0]["n"]:
            return


async def _change_all(g: Graph, *, with_history: bool) -> int:
    """Every proposed claim becomes accepted; returns the time before the first change."""
    before = int(time.time() * 1000)
    setter = (change("c", "'accepted'") if with_history else "c.status = 'accepted'")
    await _each_batch(g, "MATCH (c:Claim) WHERE c.status = 'proposed' "
                         f"WITH c LIMIT $batch SET {setter}, c.revision = c.revision + 1 "
                         "WITH c", now=before + 1)
    return before


async def _strip_histories(g: Graph) -> None:
    for label in ("Claim", "Decision", "Action"):
        await _each_batch(g, f"MATCH (n:{label}) WHERE n.status_history IS NOT NULL "
                             "WITH n LIMIT $batch REMOVE n.status_history, n.status_since "
                             "WITH n")


async def _memory(h: Harness, ws_id: str) -> dict[str, int]:
    assert h.store is not None
    return {"graph": await admin.memory_usage(h.store, graph_name(ws_id)),
            "used": await h.used_memory()}


Probe = Callable[[], Awaitable[Any]]


async def _round_robin(probes: dict[str, Probe], n: int, warmup: int = 5
                       ) -> dict[str, list[float]]:
    for _ in range(warmup):
        for fn in probes.values():
            await fn()
    out: dict[str, list[float]] = {k: [] for k in probes}
    for _ in range(n):
        for name, fn in probes.items():
            ms, _ = await timed(fn)
            out[name].append(ms)
    return out


async def measure_asof(h: Harness, ws: Workspace, n_samples: int,
                       log: Callable[[str], None]) -> AsofFigures:
    assert h.store is not None and h.http is not None
    http = h.http
    n = len(ws.claims)
    a_id, load_a = await load_workspace(h, ws, f"as of A {n}")
    b_id, load_b = await load_workspace(h, ws, f"as of B {n}")
    b_graph = h.store.graph(graph_name(b_id))
    a_graph = h.store.graph(graph_name(a_id))
    before_strip = await _memory(h, b_id)
    await _strip_histories(b_graph)
    after_strip = await _memory(h, b_id)
    log(f"[{n}] loaded twice ({load_a['seconds']} s, {load_b['seconds']} s); histories "
        "stripped from B")
    mem_a0 = await _memory(h, a_id)
    early = await _change_all(a_graph, with_history=True)
    mem_a1 = await _memory(h, a_id)
    await _change_all(b_graph, with_history=False)
    late = int(time.time() * 1000) + 1
    memory: AsofMemory = {
        "claims": n,
        "first_entry_bytes_per_node_graph": round(
            (before_strip["graph"] - after_strip["graph"]) / n, 1),
        "per_status_change_bytes_graph": round((mem_a1["graph"] - mem_a0["graph"]) / n, 1),
        "per_status_change_bytes_used_memory": round((mem_a1["used"] - mem_a0["used"]) / n, 1),
        "graph_bytes_with_history": mem_a1["graph"],
        "graph_bytes_without_history": (await _memory(h, b_id))["graph"],
    }
    log(f"[{n}] history: {memory['per_status_change_bytes_graph']} B per status change "
        f"(GRAPH.MEMORY), {memory['per_status_change_bytes_used_memory']} B (used_memory)")

    queries = itertools.cycle(search_queries(ws, 64))
    claims = itertools.cycle(correction_targets(ws, 64))
    decisions = itertools.cycle([d["id"] for d in ws.decisions[:64]])
    targets = itertools.cycle(correction_targets(ws, 64, seed=9))

    def search(ws_id: str, at: int | None) -> Probe:
        async def probe() -> None:
            p: dict[str, Any] = {"q": " ".join(next(queries)), "limit": LIMIT}
            if at is not None:
                p["as_of"] = at
            (await http.get(f"/api/workspaces/{ws_id}/claims", params=p)).raise_for_status()
        return probe

    def listing(ws_id: str, at: int | None) -> Probe:
        async def probe() -> None:
            p: dict[str, Any] = {"limit": LIMIT, "offset": 1000}
            if at is not None:
                p["as_of"] = at
            (await http.get(f"/api/workspaces/{ws_id}/claims", params=p)).raise_for_status()
        return probe

    def one(ws_id: str, kind: str, ids: itertools.cycle[str], at: int | None) -> Probe:
        async def probe() -> None:
            p = {} if at is None else {"as_of": at}
            r = await http.get(f"/api/workspaces/{ws_id}/{kind}/{next(ids)}", params=p)
            r.raise_for_status()
        return probe

    def preview(ws_id: str) -> Probe:
        async def probe() -> None:
            r = await http.post(f"/api/workspaces/{ws_id}/claims/{next(targets)}"
                                "/corrections/preview", json={"statement": "A preview."})
            r.raise_for_status()
        return probe

    probes: dict[str, Probe] = {
        "search_now_a": search(a_id, None), "search_now_b": search(b_id, None),
        "search_asof_early": search(a_id, early), "search_asof_late": search(a_id, late),
        "list_now_a": listing(a_id, None), "list_now_b": listing(b_id, None),
        "list_asof_early": listing(a_id, early), "list_asof_late": listing(a_id, late),
        "claim_now_a": one(a_id, "claims", claims, None),
        "claim_asof_early": one(a_id, "claims", claims, early),
        "decision_now_a": one(a_id, "decisions", decisions, None),
        "decision_now_b": one(b_id, "decisions", decisions, None),
        "decision_asof_early": one(a_id, "decisions", decisions, early),
        "preview_a": preview(a_id), "preview_b": preview(b_id),
    }
    samples = await _round_robin(probes, n_samples)
    lat = {k: summary(v) for k, v in samples.items()}

    def r(x: str, y: str) -> float:
        return ratio(lat[x]["p50"], lat[y]["p50"])

    ratios = {
        "search_now_with_vs_without_history": r("search_now_a", "search_now_b"),
        "preview_with_vs_without_history": r("preview_a", "preview_b"),
        "list_now_with_vs_without_history": r("list_now_a", "list_now_b"),
        "decision_now_with_vs_without_history": r("decision_now_a", "decision_now_b"),
        "search_asof_early_vs_now": r("search_asof_early", "search_now_a"),
        "search_asof_late_vs_now": r("search_asof_late", "search_now_a"),
        "list_asof_early_vs_now": r("list_asof_early", "list_now_a"),
        "list_asof_late_vs_now": r("list_asof_late", "list_now_a"),
        "claim_asof_early_vs_now": r("claim_asof_early", "claim_now_a"),
        "decision_asof_early_vs_now": r("decision_asof_early", "decision_now_a"),
    }
    log(f"[{n}] search p50 now {lat['search_now_a']['p50']} ms (without histories "
        f"{lat['search_now_b']['p50']} ms), as of before every change "
        f"{lat['search_asof_early']['p50']} ms ({ratios['search_asof_early_vs_now']}x); "
        f"preview {lat['preview_a']['p50']} ms vs {lat['preview_b']['p50']} ms")
    return {"claims": n, "memory": memory, "latency": lat, "ratios": ratios,
            "load": {"a": load_a, "b": load_b}}
