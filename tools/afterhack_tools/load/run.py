"""Run a bounded load test on loopback and check the graph afterwards.

By default it starts its own FalkorDB (embedded, in a temporary directory; or, with
``cluster``, a local 3-master, 3-replica cluster) and two app processes sharing it (three on
the cluster), with keys on: every client uses a reviewer key of its workspace, so
authentication, workspace scope and the shared rate-limit counter are all under load. Or
point it at an app already running on loopback (``--url``, plus ``--falkordb-url`` for the
checks). It never targets anything beyond loopback.
"""

from __future__ import annotations

import asyncio
import json
import os
import secrets
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Iterable
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import httpx

from afterhack.access import is_loopback
from afterhack.cluster.local import LocalCluster
from afterhack.runtime.embedded import EmbeddedFalkorDB, free_loopback_port
from afterhack_tools.load.verify import verify
from afterhack_tools.load.workload import TOPICS, Log, Shared, run_clients

MAX_CLIENTS = 500
# The words the app's store logs when it sends more distinct query texts than FalkorDB keeps
# plans for; tests/test_plan_cache.py checks the store still says exactly this.
PLAN_CACHE_OVERFLOW = "plan cache overflow"
MAX_DURATION_S = 600.0


@dataclass
class Options:
    clients: int = 50
    duration_s: float = 60.0
    workspaces: int = 4
    apps: int = 2
    seed: int = 1
    url: str | None = None
    falkordb_url: str | None = None
    admin_key: str | None = None
    json_out: Path | None = None
    cluster: bool = False


def _check(opts: Options) -> None:
    if not 1 <= opts.clients <= MAX_CLIENTS:
        raise ValueError(f"clients must be 1..{MAX_CLIENTS}")
    if not 0 < opts.duration_s <= MAX_DURATION_S:
        raise ValueError(f"duration must be at most {MAX_DURATION_S:g} s")
    if opts.url is not None:
        host = urlparse(opts.url).hostname or ""
        if not is_loopback(host):
            raise ValueError(f"refusing to load {host}: the load test runs on loopback only")
        if not opts.falkordb_url:
            raise ValueError("--url needs --falkordb-url, to check the graph afterwards")


class _App:
    def __init__(self, env: dict[str, str], log_path: Path) -> None:
        self.port = free_loopback_port()
        self.url = f"http://127.0.0.1:{self.port}"
        with open(log_path, "ab") as log:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "afterhack.cli", "serve", "--host", "127.0.0.1",
                 "--port", str(self.port), "--log-level", "warning"],
                env={**os.environ, **env}, stdout=log, stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"app exited; see {log_path}")
            try:
                if httpx.get(self.url + "/api/health", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"app did not start; see {log_path}")

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


def _setup(app: str, admin: str | None, n: int) -> list[Shared]:
    """Workspaces with a reviewer key each (when keys are on) and a few sources."""
    h = {"Authorization": f"Bearer {admin}"} if admin else {}
    out = []
    with httpx.Client(base_url=app, headers=h, timeout=60) as c:
        for i in range(n):
            r = c.post("/api/workspaces", json={"name": f"load {i}"})
            r.raise_for_status()
            ws = r.json()["id"]
            headers = dict(h)
            if admin:
                key = c.post(f"/api/workspaces/{ws}/keys",
                             json={"role": "reviewer", "name": f"load client {i}"})
                key.raise_for_status()
                headers = {"Authorization": f"Bearer {key.json()['key']}"}
            shared = Shared(ws=ws, headers=headers)
            for t in TOPICS:
                r = c.post(f"/api/workspaces/{ws}/sources", headers=headers, json={
                    "title": f"Seed {t}", "text": f"The {t} seed is planned for day 1."})
                r.raise_for_status()
                shared.sources.append(r.json()["source"]["id"])
                shared.claims.extend((x["id"], x["statement"]) for x in r.json()["claims"])
            out.append(shared)
    return out


def summarize(log: Log, duration_s: float) -> dict[str, Any]:
    by_route: dict[str, list[float]] = defaultdict(list)
    statuses: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for s in log.samples:
        by_route[s.route].append(s.ms)
        statuses[s.route][str(s.status)] += 1
    routes = {}
    for route, ms in sorted(by_route.items()):
        ms.sort()
        routes[route] = {
            "requests": len(ms), "per_s": round(len(ms) / duration_s, 1),
            "p50_ms": round(statistics.median(ms), 1),
            "p95_ms": round(ms[min(len(ms) - 1, int(0.95 * len(ms)))], 1),
            "max_ms": round(ms[-1], 1), "statuses": dict(statuses[route])}
    conflicts: dict[str, int] = defaultdict(int)
    for c in log.conflicts:
        conflicts[f"{c['kind']} {c['code']}"] += 1
    return {"requests": len(log.samples), "per_s": round(len(log.samples) / duration_s, 1),
            "routes": routes, "writes_acknowledged": {
                "sources": len(log.sources), "runs": len(log.runs),
                "corrections": len(log.corrections)},
            "conflicts": dict(conflicts)}


def table(summary: dict[str, Any]) -> str:
    lines = [f"{'route':58} {'n':>6} {'req/s':>7} {'p50 ms':>8} {'p95 ms':>8} {'max ms':>8}"]
    for route, r in summary["routes"].items():
        lines.append(f"{route:58} {r['requests']:>6} {r['per_s']:>7} {r['p50_ms']:>8} "
                     f"{r['p95_ms']:>8} {r['max_ms']:>8}")
    lines.append(f"{'all':58} {summary['requests']:>6} {summary['per_s']:>7}")
    return "\n".join(lines)


def _log_lines(logs: Iterable[Path], marker: str) -> list[str]:
    return [f"{log.name}: {line}" for log in sorted(logs)
            for line in log.read_text(errors="replace").splitlines() if marker in line]


def _keep_logs(tmp: Path) -> None:
    """Copy FalkorDB's and the apps' logs out of the temporary directory before it goes."""
    keep = Path(os.environ.get("AFTERHACK_LOAD_LOGS", "test-artifacts/load"))
    keep.mkdir(parents=True, exist_ok=True)
    for log in [*tmp.glob("*.log"), *tmp.glob("fdb/*.log")]:
        shutil.copy(log, keep / log.name)
    for log in tmp.glob("fdb/node-*/redis.log"):
        shutil.copy(log, keep / f"{log.parent.name}.log")


def run(opts: Options) -> dict[str, Any]:
    """Run the load, verify, and return the report (``problems`` empty when all is well)."""
    _check(opts)
    with ExitStack() as stack:
        tmp = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="afterhack-load-")))
        server: EmbeddedFalkorDB | None = None
        cluster: LocalCluster | None = None
        if opts.url:
            apps, fdb, admin = [opts.url], opts.falkordb_url or "", opts.admin_key
        else:
            if opts.cluster:
                cluster = LocalCluster(tmp / "fdb", die_with_parent=True)
                stack.callback(cluster.down)
                fdb = cluster.up()
            else:
                server = stack.enter_context(EmbeddedFalkorDB(tmp / "fdb"))
                fdb = server.url or ""
            admin = secrets.token_urlsafe(24)
            env = {"AFTERHACK_FALKORDB_URL": fdb, "AFTERHACK_ADMIN_KEY": admin,
                   "AFTERHACK_RATE_LIMIT_PER_MINUTE": "10000000",
                   "AFTERHACK_DATA_DIR": str(tmp / "data")}
            apps = []
            for i in range(opts.apps):
                app = _App(env, tmp / f"app{i}.log")
                stack.callback(app.stop)
                apps.append(app.url)
        shared = _setup(apps[0], admin, opts.workspaces)
        t0 = time.monotonic()
        log = asyncio.run(run_clients(apps, shared, clients=opts.clients,
                                      duration_s=opts.duration_s, seed=opts.seed))
        elapsed = time.monotonic() - t0
        checked = time.monotonic()
        if server is not None and server.process is not None and server.process.poll() is not None:
            # FalkorDB itself died under the load: keep its own account of why.
            crash = server.crash_report()
            _keep_logs(tmp)
            raise RuntimeError(f"FalkorDB exited with {server.process.returncode} under load; "
                               f"its report:\n{crash}")
        if cluster is not None:
            down = [n.port for n in cluster.status() if not n.running]
            if down:
                _keep_logs(tmp)
                raise RuntimeError(f"FalkorDB cluster nodes {down} exited under load; see "
                                   "their redis.log")
        problems = asyncio.run(verify(fdb, [s.ws for s in shared], log))
        if not opts.url:
            overflow = _log_lines(tmp.glob("app*.log"), PLAN_CACHE_OVERFLOW)
            if overflow:
                problems["plan_cache"] = overflow
        if problems:
            _keep_logs(tmp)
        report = {**summarize(log, elapsed), "clients": opts.clients, "apps": len(apps),
                  "workspaces": len(shared), "duration_s": round(elapsed, 1),
                  "verify_s": round(time.monotonic() - checked, 1), "problems": problems}
    if opts.json_out:
        opts.json_out.write_text(json.dumps(report, indent=2))
    return report
