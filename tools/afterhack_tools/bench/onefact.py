"""One fact, many values: sources of notes that each give the same budget another value
("Note 12-3 says the budget is 123 euros."), written through the API of a real ``afterhack
serve`` (its embedded FalkorDB, its data dir), every note a claim of its own.

Measured: how many conflicts are open at the end (one dispute per fact: the promise is at
most 5), the write rate over the first and the last 50 sources (at 100 sources, the promise
is the last 50 within 1.5x of the first 50's time; at the full size, the same figure), the
graph's memory and the append-only file, and the time until a new ``serve`` on the data dir
answers after the app is killed with -9 (the promise is 10 s), against the same start on an
empty data dir. A check reads the dispute back after the restart.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import httpx

from afterhack.store import admin
from afterhack.store.client import Store
from afterhack.store.names import graph_name
from afterhack_tools.bench.records import OneFactFigures, OneFactRates
from afterhack_tools.bench.restart import aof_files
from afterhack_tools.bench.serve import ServeProcess

NOTES = 8
WINDOW = 50  # sources in each of the first and last windows


def notes(s: int) -> str:
    """Source ``s``: eight notes, each giving the budget a value no other note gives."""
    return " ".join(f"Note {s}-{i} says the budget is {s * 10 + i} euros."
                    for i in range(1, NOTES + 1))


def cpu_s(pids: list[int | None]) -> float:
    """Seconds the processes have spent on a CPU (every thread, those ended included)."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0
    for pid in pids:
        if pid is None:
            continue
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / tick


def rates(walls: list[float], cpus: list[float]) -> OneFactRates:
    """The first and last WINDOW sources of ``walls`` (seconds each, on the clock) and
    ``cpus`` (seconds the app and FalkorDB spent on a CPU for each)."""
    first, last = walls[:WINDOW], walls[-WINDOW:]
    first_cpu, last_cpu = sum(cpus[:WINDOW]), sum(cpus[-WINDOW:])
    return {"sources": len(walls),
            "first_s": round(sum(first), 2), "last_s": round(sum(last), 2),
            "first_sources_per_s": round(len(first) / sum(first), 2),
            "last_sources_per_s": round(len(last) / sum(last), 2),
            "last_over_first": round(sum(last) / sum(first), 2),
            "first_cpu_s": round(first_cpu, 2), "last_cpu_s": round(last_cpu, 2),
            "last_over_first_cpu": round(last_cpu / first_cpu, 2) if first_cpu else 0.0}


async def _graph_memory(data: Path, ws: str) -> int:
    store = Store((data / "falkordb.url").read_text().strip())
    try:
        return await admin.memory_usage(store, graph_name(ws))
    finally:
        await store.close()


async def _open(http: httpx.AsyncClient, base: str, ws: str) -> tuple[int, int, int]:
    """Open conflicts, all conflicts, and the largest open one's claims."""
    r = await http.get(f"{base}/api/workspaces/{ws}/conflicts",
                       params={"status": "open", "limit": 20})
    r.raise_for_status()
    page = r.json()
    everything = (await http.get(f"{base}/api/workspaces/{ws}/conflicts",
                                 params={"status": "all", "limit": 1})).json()["total"]
    largest = max((k["n_claims"] for k in page["items"]), default=0)
    return int(page["total"]), int(everything), int(largest)


async def _write(http: httpx.AsyncClient, base: str, ws: str, sources: int,
                 pids: list[int | None], log: Callable[[str], None]
                 ) -> tuple[list[float], list[float]]:
    """Each source's time on the clock, and on a CPU of the app and FalkorDB (the vector
    worker's embedding of what was written before included: it runs meanwhile)."""
    walls: list[float] = []
    cpus: list[float] = []
    for s in range(1, sources + 1):
        t0, c0 = time.perf_counter(), cpu_s(pids)
        r = await http.post(f"{base}/api/workspaces/{ws}/sources",
                            json={"title": f"Notes {s}", "text": notes(s)})
        walls.append(time.perf_counter() - t0)
        cpus.append(cpu_s(pids) - c0)
        if r.status_code != 201:
            raise RuntimeError(f"ingest answered {r.status_code}: {r.text[:300]}")
        if s % 250 == 0:
            log(f"[one fact] {s} sources, the last 50 at "
                f"{WINDOW / sum(walls[-WINDOW:]):.1f} sources/s")
    return walls, cpus


async def _floor(root: Path, http: httpx.AsyncClient) -> float:
    """``serve`` on an empty data dir, until it answers: what any start costs."""
    empty = ServeProcess(root / "empty", root / "serve-empty.log")
    empty.data_dir.mkdir()
    empty.start()
    try:
        return await empty.wait_healthy(http, 600)
    finally:
        empty.stop()


async def measure_one_fact(claims: int = 10_000,
                           log: Callable[[str], None] = print) -> OneFactFigures:
    sources = -(-claims // NOTES)
    root = Path(tempfile.mkdtemp(prefix="afterhack-onefact-"))
    data = root / "data"
    async with httpx.AsyncClient(timeout=600) as http:
        floor = await _floor(root, http)
        first = ServeProcess(data, root / "serve-first.log")
        first.start()
        try:
            await first.wait_healthy(http, 600)
            base = first.base_url
            ws = (await http.post(base + "/api/workspaces", json={"name": "one fact"})
                  ).json()["id"]
            pids = [first.proc.pid if first.proc else None, first.falkordb_pid()]
            walls, cpus = await _write(http, base, ws, sources, pids, log)
            open_n, all_n, largest = await _open(http, base, ws)
            memory = await _graph_memory(data, ws)
            log(f"[one fact] {sources} sources: {open_n} open conflicts ({all_n} in all), "
                f"the largest of {largest} claims; graph {memory / 2**20:.1f} MiB")
            first.kill()
        finally:
            first.stop()
        on_disk = aof_files(data)
        again = ServeProcess(data, root / "serve-restart.log")
        again.start()
        try:
            restart_s = await again.wait_healthy(http, 3600)
            after_open, _, after_largest = await _open(http, again.base_url, ws)
        finally:
            again.stop()
    log(f"[one fact] restart after kill -9: {restart_s:.1f} s (an empty start {floor:.1f} s)")
    await asyncio.to_thread(shutil.rmtree, root, True)
    return {"claims": sources * NOTES, "notes_per_source": NOTES,
            "at_100": rates(walls[:100], cpus[:100]), "at_all": rates(walls, cpus),
            "open_conflicts": open_n, "conflicts": all_n, "largest_conflict_claims": largest,
            "graph_memory_bytes": memory, "aof_at_kill": on_disk,
            "restart_s": round(restart_s, 2), "floor_s": round(floor, 2),
            "restart_ratio": round(restart_s / floor, 2),
            "served_after_restart": after_open == open_n and after_largest == largest}
