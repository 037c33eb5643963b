"""Restart after a crash: claims written through the API of a real ``afterhack serve`` (its
embedded FalkorDB, its data dir), the app killed with -9, and the time until a new ``serve``
on the same data dir answers ``/api/health`` with FalkorDB loaded.

FalkorDB follows the killed app (it is told to exit with its parent) and flushes its
append-only file; the new ``serve`` starts it again and waits while it loads that file. The
floor is the same start on an empty data dir, measured in the same run. Beside the time,
the file as it was on disk (snapshot part and incremental part), FalkorDB's own load times
from its log, whether it compacted the file right after the load, and a check that every
acknowledged source, and a sample of the acknowledged claims, are served again.
"""

from __future__ import annotations

import asyncio
import os
import random
import re
import shutil
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, Literal, NamedTuple

import httpx
import redis.asyncio as aioredis
from redis.exceptions import RedisError

from afterhack_tools.bench.freeze import measure_freeze
from afterhack_tools.bench.records import (
    AofFiles,
    FreezeFigures,
    RestartCheck,
    RestartFigures,
    RestartSize,
)
from afterhack_tools.bench.serve import ServeProcess
from afterhack_tools.bench.synth import Vocabulary, source_text

# "redis-default" measures the file as FalkorDB kept it before afterhack set a rewrite
# policy (Redis's own: rewrite at 100 % growth and 64 MB), for the before/after figures.
AofPolicy = Literal["afterhack", "redis-default"]

_LOADED = re.compile(r"^(\d+):M .*DB loaded from (base file|incr file|append only file)"
                     r"(?: \S+)?: ([\d.]+) seconds")


def aof_files(data_dir: Path) -> AofFiles:
    """Bytes on disk of the append-only file's parts: the snapshot it starts from (base) and
    the commands appended since (incr)."""
    out: AofFiles = {"base_bytes": 0, "incr_bytes": 0, "files": 0}
    for f in (data_dir / "appendonlydir").glob("appendonly.aof.*"):
        if ".base." in f.name:
            out["base_bytes"] += f.stat().st_size
        elif f.name.endswith(".incr.aof"):
            out["incr_bytes"] += f.stat().st_size
        else:
            continue
        out["files"] += 1
    return out


def falkordb_load_times(data_dir: Path, pid: int | None) -> dict[str, float]:
    """FalkorDB's own load times (seconds) from its log, for the server with this pid."""
    out: dict[str, float] = {}
    try:
        lines = (data_dir / "falkordb.log").read_text(errors="replace").splitlines()
    except OSError:
        return out
    names = {"base file": "base_s", "incr file": "incr_s", "append only file": "total_s"}
    for line in lines:
        m = _LOADED.match(line)
        if m and (pid is None or int(m.group(1)) == pid):
            key = names[m.group(2)]
            out[key] = round(out.get(key, 0.0) + float(m.group(3)), 3)
    return out


async def _persistence(data_dir: Path) -> dict[str, Any]:
    client = aioredis.Redis.from_url((data_dir / "falkordb.url").read_text().strip(),
                                     decode_responses=True, socket_timeout=120)
    try:
        return dict(await client.info("persistence"))
    finally:
        await client.aclose()


def _log_size(data_dir: Path) -> int:
    try:
        return (data_dir / "falkordb.log").stat().st_size
    except OSError:
        return 0


def _restart_log(data_dir: Path, offset: int) -> dict[str, int]:
    """Loads finished and crashes in FalkorDB's log since ``offset``."""
    try:
        with open(data_dir / "falkordb.log", "rb") as f:
            f.seek(offset)
            text = f.read().decode(errors="replace")
    except OSError:
        return {"loads": 0, "crashes": 0}
    return {"loads": len(re.findall(r"DB loaded from append only file", text)),
            "crashes": len(re.findall(r"crashed by signal", text))}


def crashed(data_dir: Path, pid: int | None) -> bool:
    """Whether FalkorDB's log holds a crash report of the server with this pid."""
    try:
        log = (data_dir / "falkordb.log").read_text(errors="replace")
    except OSError:
        return False
    return re.search(rf"^{pid}:M .* crashed by signal", log, re.M) is not None


async def _apply_policy(data_dir: Path, policy: AofPolicy) -> None:
    if policy == "redis-default":
        client = aioredis.Redis.from_url((data_dir / "falkordb.url").read_text().strip(),
                                         decode_responses=True)
        try:
            # After the app has turned its own policy on (it starts with rewrites off).
            deadline = time.monotonic() + 120
            while (await client.config_get("auto-aof-rewrite-percentage")
                   ).get("auto-aof-rewrite-percentage") == "0":
                if time.monotonic() > deadline:
                    raise RuntimeError("the app never turned AOF rewrites on")
                await asyncio.sleep(0.1)
            await client.config_set("auto-aof-rewrite-percentage", 100)
            await client.config_set("auto-aof-rewrite-min-size", 64 * 1024 * 1024)
        finally:
            await client.aclose()


def _gone(pid: int | None, timeout_s: float) -> None:
    deadline = time.monotonic() + timeout_s
    while pid is not None and time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return
        time.sleep(0.05)
    if pid is not None:
        raise RuntimeError(f"FalkorDB (pid {pid}) outlived its killed app")


class _Written(NamedTuple):
    workspace: str
    # source id -> the ids of its claims, as the write acknowledged them
    acked: dict[str, list[str]]
    seconds: float


async def _write(http: httpx.AsyncClient, base: str, claims: int, per_source: int,
                 vocab: Vocabulary) -> _Written:
    ws = (await http.post(base + "/api/workspaces", json={"name": "restart"})).json()["id"]
    acked: dict[str, list[str]] = {}
    t0 = time.perf_counter()
    for i in range(-(-claims // per_source)):
        n = min(per_source, claims - i * per_source)
        text = source_text(n, seed=5000 + i, vocab=vocab, serial_base=20_000_000 + i * per_source)
        r = await http.post(f"{base}/api/workspaces/{ws}/sources",
                            json={"title": f"Restart source {i}", "text": text})
        if r.status_code != 201:
            raise RuntimeError(f"ingest answered {r.status_code}: {r.text[:300]}")
        body = r.json()
        acked[body["source"]["id"]] = [c["id"] for c in body["claims"]]
    return _Written(ws, acked, round(time.perf_counter() - t0, 1))


async def _check(http: httpx.AsyncClient, base: str, ws: str, acked: dict[str, list[str]],
                 claim_samples: int) -> RestartCheck:
    """Every acknowledged source read back, and a random sample of acknowledged claims; the
    status of each answer that was not the acknowledged row."""
    sources_ok = 0
    failures: dict[str, int] = {}
    for sid in acked:
        r = await http.get(f"{base}/api/workspaces/{ws}/sources/{sid}")
        sources_ok += r.status_code == 200
        if r.status_code != 200:
            failures[str(r.status_code)] = failures.get(str(r.status_code), 0) + 1
    everything = [(sid, cid) for sid, cids in acked.items() for cid in cids]
    picked = random.Random(17).sample(everything, min(claim_samples, len(everything)))
    claims_ok = 0
    for sid, cid in picked:
        r = await http.get(f"{base}/api/workspaces/{ws}/claims/{cid}")
        good = r.status_code == 200 and r.json()["source_id"] == sid
        claims_ok += good
        if not good:
            failures[str(r.status_code)] = failures.get(str(r.status_code), 0) + 1
    return {"sources_acknowledged": len(acked), "sources_served": sources_ok,
            "claims_sampled": len(picked), "claims_sampled_served": claims_ok,
            "failed_answers_by_status": failures}


async def _one_size(root: Path, http: httpx.AsyncClient, claims: int, *, per_source: int,
                    claim_samples: int, policy: AofPolicy, vocab: Vocabulary, floor: float,
                    log: Callable[[str], None]) -> RestartSize:
    data = root / f"data-{claims}"
    first = ServeProcess(data, root / f"serve-{claims}-first.log")
    first.start()
    try:
        await first.wait_healthy(http, 600)
        await _apply_policy(data, policy)
        written = await _write(http, first.base_url, claims, per_source, vocab)
        n = sum(len(v) for v in written.acked.values())
        before = await _persistence(data)
        log(f"[restart {claims}] wrote {n} claims in {len(written.acked)} sources in "
            f"{written.seconds} s; {before['aof_rewrites']} AOF rewrites meanwhile")
        fdb_pid = first.falkordb_pid()
        first.kill()
        await asyncio.to_thread(_gone, fdb_pid, 300)
    finally:
        first.stop()
    on_disk = aof_files(data)
    log(f"[restart {claims}] killed with -9; AOF on disk: base {on_disk['base_bytes']:,} B, "
        f"incremental {on_disk['incr_bytes']:,} B")
    log_at = _log_size(data)
    again = ServeProcess(data, root / f"serve-{claims}-restart.log")
    again.start()
    try:
        seconds = await again.wait_healthy(http, 4 * 3600)
        load = falkordb_load_times(data, again.falkordb_pid())
        # A server that crashed at the end of a load is started again by serve.
        attempts = _restart_log(data, log_at)
        log(f"[restart {claims}] serve answered health {seconds:.1f} s after its start "
            f"(FalkorDB's load: {load})")
        check = await _check(http, again.base_url, written.workspace, written.acked,
                             claim_samples)
        fdb_pid = again.falkordb_pid()
        try:
            after: dict[str, Any] = await _persistence(data)
        except (OSError, RedisError):
            after = {}
    finally:
        again.stop()
    if crashed(data, fdb_pid):
        log(f"[restart {claims}] FalkorDB crashed after the restart (see its log)")
    restart_s = round(seconds, 2)
    return {
        "claims": n,
        "sources": len(written.acked),
        "claims_per_source": per_source,
        "write_s": written.seconds,
        "aof_rewrites_while_writing": int(before["aof_rewrites"]),
        "aof_at_kill": on_disk,
        "restart_s": restart_s,
        "falkordb_load": load,
        # A file that was mostly increments is rewritten right after the load.
        "rewrote_after_load": int(after.get("aof_rewrites", 0)) > 0
        or bool(int(after.get("aof_rewrite_in_progress", 0))),
        "falkordb_crashed_after_restart": crashed(data, fdb_pid),
        "falkordb_loads_to_come_back": attempts["loads"],
        "falkordb_crashes_before_it_came_back": attempts["crashes"],
        "check": check,
        "restart_ratio": round(restart_s / floor, 2),
    }


async def measure_restart(sizes: tuple[int, ...], *, per_source: int = 5000,
                          claim_samples: int = 500, policy: AofPolicy = "afterhack",
                          vocab: Vocabulary | None = None,
                          log: Callable[[str], None] = print,
                          with_freeze: bool = True) -> RestartFigures:
    vocab = vocab or Vocabulary()
    root = Path(tempfile.mkdtemp(prefix="afterhack-restart-"))
    try:
        async with httpx.AsyncClient(timeout=600) as http:
            # The floor: the same start on an empty data dir (imports, FalkorDB's start).
            floors = []
            for k in range(2):
                empty = ServeProcess(root / f"empty-{k}", root / f"serve-empty-{k}.log")
                empty.data_dir.mkdir()
                empty.start()
                try:
                    floors.append(await empty.wait_healthy(http, 600))
                finally:
                    empty.stop()
            floor = min(floors)
            log(f"[restart] floor: serve on an empty data dir answers health in {floor:.1f} s")
            out = []
            for n in sizes:
                out.append(await _one_size(root, http, n, per_source=per_source,
                                           claim_samples=claim_samples, policy=policy,
                                           vocab=vocab, floor=floor, log=log))
            freeze = await measure_freeze(root, http, log=log) if with_freeze else None
    except BaseException:
        log(f"[restart] kept its data dirs and logs for a look: {root}")
        raise
    if all(_whole(s) for s in out) and (freeze is None or _whole_after_freeze(freeze)):
        await asyncio.to_thread(shutil.rmtree, root, True)
    else:
        log(f"[restart] something was not served or FalkorDB crashed; kept {root}")
    return {"policy": policy, "floor_s": round(floor, 2), "sizes": out, "freeze": freeze}


def _whole_after_freeze(freeze: FreezeFigures) -> bool:
    return all(run["acknowledged_served"] == run["acknowledged"]
               for run in (freeze["sigcont"], freeze["restart"]))


def _whole(size: RestartSize) -> bool:
    c = size["check"]
    return (c["sources_served"] == c["sources_acknowledged"]
            and c["claims_sampled_served"] == c["claims_sampled"]
            and not size["falkordb_crashed_after_restart"])
