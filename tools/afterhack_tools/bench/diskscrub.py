"""What rewriting FalkorDB's files after an erasure costs as the data grows
(docs/decisions/0041-forgetting-on-disk.md).

One embedded FalkorDB and the app, as every section has them (harness.py). The floor,
measured in the same run: a plain ``BGREWRITEAOF`` of the same data, polled to its end as
the scrubber polls, and once on the server before anything is loaded. At each size a
synthetic workspace is bulk-loaded, then, each round, one claim's statement is overwritten
and an ``Erasure`` written pending beside it (as an erasure's apply leaves them), and
timed: the scrubber's whole rewrite (runtime/scrub.py) on the embedded server, the same on
a server it also writes a snapshot for (any FalkorDB but the embedded one: its replicas
keep one), and a workspace deleted with ``?wait=disk`` through the app, whose scrubber sees
the server as such a one. The append-only file's parts on disk are read before and after
the size's first rewrite.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable

from afterhack.records.ids import new_id
from afterhack.runtime.embedded import EmbeddedFalkorDB
from afterhack.runtime.scrub import DiskScrubber
from afterhack.store import disk
from afterhack.store.names import graph_name
from afterhack_tools.bench.harness import Harness
from afterhack_tools.bench.load import load_workspace
from afterhack_tools.bench.records import DiskScrubFigures, DiskScrubSize
from afterhack_tools.bench.restart import aof_files
from afterhack_tools.bench.stats import summary
from afterhack_tools.bench.synth import Vocabulary, build_workspace

SIZES = (10_000, 100_000)
QUICK_SIZES = (1000,)
# Rounds of each measure at a size: a rewrite of the largest takes seconds.
ROUNDS = {10_000: 5, 100_000: 3}
DEFAULT_ROUNDS = 3

Log = Callable[[str], None]


async def _ms(step: Callable[[], Awaitable[object]]) -> float:
    t0 = time.perf_counter()
    await step()
    return (time.perf_counter() - t0) * 1000


async def _plain_rewrite(h: Harness) -> None:
    assert h.store is not None
    for node in await disk.disk_nodes(h.store):
        await disk.rewrite_aof(h.store, node)


async def _erase_one(h: Harness, ws_id: str, claim_id: str) -> None:
    """What an erasure's apply leaves for the scrubber: a statement overwritten and an
    Erasure pending."""
    assert h.store is not None
    await h.store.graph(graph_name(ws_id)).write(
        "MATCH (c:Node {id: $claim}) SET c.statement = '[erased]' "
        "CREATE (:Erasure:Node {id: $id, status: 'applied', applied_at: timestamp(), "
        "disk: 'pending'})", {"claim": claim_id, "id": new_id()})


async def _delete_wait(h: Harness) -> None:
    assert h.http is not None
    ws = (await h.http.post("/api/workspaces", json={"name": "doomed"})).json()["id"]
    r = await h.http.delete(f"/api/workspaces/{ws}", params={"wait": "disk"})
    r.raise_for_status()
    if r.json()["disk"] != "clean":
        raise RuntimeError(f"the deletion's files were not clean in time: {r.text}")


async def measure(log: Log, sizes: tuple[int, ...] = SIZES,
                  rounds: int | None = None) -> DiskScrubFigures:
    async with Harness() as h:
        assert h.store is not None and h.http is not None and isinstance(h.fdb, EmbeddedFalkorDB)
        data_dir = h.fdb.data_dir
        fdb = h.fdb
        on_disk = DiskScrubber(h.store, data_dir=data_dir, server_pid=lambda: fdb.pid)
        with_snapshot = DiskScrubber(h.store)
        n_rounds = {n: rounds or ROUNDS.get(n, DEFAULT_ROUNDS) for n in sizes}
        empty = [await _ms(lambda: _plain_rewrite(h)) for _ in range(max(n_rounds.values()))]
        log(f"[disk-scrub] BGREWRITEAOF before any load: p50 {summary(empty)['p50']:.1f} ms")
        vocab = Vocabulary()
        out: list[DiskScrubSize] = []
        for n in sizes:
            ws = build_workspace(n, vocab=vocab)
            ws_id, load = await load_workspace(h, ws, f"scrub {n}")
            claims = [c["id"] for c in ws.claims]
            log(f"[disk-scrub] {n:,} claims loaded in {load['seconds']} s")
            k = n_rounds[n]
            await _erase_one(h, ws_id, claims[0])
            before = aof_files(data_dir)
            first = await _ms(on_disk.scrub)
            after = aof_files(data_dir)
            scrub = [first]
            for i in range(1, k):
                await _erase_one(h, ws_id, claims[i])
                scrub.append(await _ms(on_disk.scrub))
            plain = []
            for _ in range(k):
                plain.append(await _ms(lambda: _plain_rewrite(h)))
            snapshot = []
            for i in range(k):
                await _erase_one(h, ws_id, claims[k + i])
                snapshot.append(await _ms(with_snapshot.scrub))
            deleted = [await _ms(lambda: _delete_wait(h)) for _ in range(k)]
            p, s, ss, d = summary(plain), summary(scrub), summary(snapshot), summary(deleted)
            log(f"[disk-scrub] {n:,} claims: plain rewrite p50 {p['p50']:.0f} ms, scrub "
                f"{s['p50']:.0f} ms, with a snapshot {ss['p50']:.0f} ms, DELETE ?wait=disk "
                f"{d['p50']:.0f} ms; AOF {before['base_bytes'] + before['incr_bytes']:,} -> "
                f"{after['base_bytes'] + after['incr_bytes']:,} bytes")
            out.append({
                "claims": n, "load_seconds": load["seconds"],
                "aof_before": before, "aof_after": after,
                "plain_rewrite": p, "scrub": s, "scrub_with_snapshot": ss,
                "delete_wait_disk": d,
                "scrub_over_plain": round(s["p50"] / p["p50"], 2),
                "scrub_with_snapshot_over_plain": round(ss["p50"] / p["p50"], 2),
                "delete_over_plain": round(d["p50"] / p["p50"], 2),
            })
            (await h.http.delete(f"/api/workspaces/{ws_id}")).raise_for_status()
        return {"rounds": {str(n): k for n, k in n_rounds.items()},
                "empty_rewrite": summary(empty), "sizes": out}
