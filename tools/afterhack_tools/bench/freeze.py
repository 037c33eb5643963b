"""A frozen FalkorDB (SIGSTOP) under a running ``afterhack serve``: how fast health and the
other requests answer meanwhile, how soon service is back, and whether anything
acknowledged was lost.

Two runs, each on its own data dir and app: the server is frozen for ``freeze_s`` and then
continued (SIGCONT), with the app's stuck restart set beyond the freeze; and frozen for good,
so that the app itself stops it by its pid and starts it again. Writers, a reader and a
health poller run throughout; afterwards every acknowledged source is read back.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import httpx

from afterhack_tools.bench.records import Answers, FreezeAnswers, FreezeFigures, FreezeRun
from afterhack_tools.bench.serve import ServeProcess
from afterhack_tools.bench.stats import summary

# A short query timeout makes the deadlines short (a read's is the timeout plus a margin,
# a write's twice it plus the margin: store/client.py), so the figures come quickly.
QUERY_TIMEOUT_MS = 1000
READ_DEADLINE_S = 3.0
WRITE_DEADLINE_S = 4.0


@dataclass
class _Seen:
    kind: str
    started: float
    seconds: float
    status: int
    code: str | None


@dataclass
class _Traffic:
    base: str
    ws: str
    seen: list[_Seen] = field(default_factory=list)
    acked: list[str] = field(default_factory=list)
    stop: asyncio.Event = field(default_factory=asyncio.Event)

    async def _one(self, http: httpx.AsyncClient, kind: str, method: str, path: str,
                   body: object = None) -> httpx.Response | None:
        t0 = time.monotonic()
        try:
            r = await http.request(method, self.base + path, json=body, timeout=120)
        except httpx.HTTPError:
            self.seen.append(_Seen(kind, t0, time.monotonic() - t0, 0, "transport_error"))
            return None
        code = None
        if r.status_code >= 300:
            with contextlib.suppress(ValueError, KeyError, TypeError):
                err = r.json()["error"]
                code = (err.get("details") or {}).get("reason") or err["code"]
        self.seen.append(_Seen(kind, t0, time.monotonic() - t0, r.status_code, code))
        return r

    async def writer(self, http: httpx.AsyncClient, n: int) -> None:
        i = 0
        while not self.stop.is_set():
            i += 1
            r = await self._one(http, "write", "POST", f"/api/workspaces/{self.ws}/sources",
                                {"title": f"w{n}-{i}-{uuid.uuid4().hex[:6]}",
                                 "text": f"The depot opens at {i % 12 + 1} am."})
            if r is not None and r.status_code == 201:
                self.acked.append(r.json()["source"]["id"])
            await asyncio.sleep(0.05)

    async def reader(self, http: httpx.AsyncClient) -> None:
        while not self.stop.is_set():
            await self._one(http, "read", "GET", f"/api/workspaces/{self.ws}/claims?q=depot")
            await asyncio.sleep(0.05)

    async def health(self, http: httpx.AsyncClient) -> None:
        while not self.stop.is_set():
            await self._one(http, "health", "GET", "/api/health")
            await asyncio.sleep(0.2)


async def _back(http: httpx.AsyncClient, base: str, ws: str, limit_s: float = 300) -> float:
    t0 = time.monotonic()
    while time.monotonic() - t0 < limit_s:
        with contextlib.suppress(httpx.HTTPError):
            r = await http.post(f"{base}/api/workspaces/{ws}/sources", timeout=60,
                                json={"title": f"back-{uuid.uuid4().hex[:6]}",
                                      "text": "The depot opens at 7 am."})
            if r.status_code == 201:
                return time.monotonic()
        await asyncio.sleep(0.1)
    raise RuntimeError("service did not come back after the freeze")


def _figures(seen: list[_Seen], frozen_at: float, back_at: float) -> FreezeAnswers:
    during = [s for s in seen if frozen_at <= s.started <= back_at]

    def answers(kind: str) -> Answers:
        mine = [s for s in during if s.kind == kind]
        codes: dict[str, int] = {}
        for s in mine:
            key = str(s.status) + (f" {s.code}" if s.code else "")
            codes[key] = codes.get(key, 0) + 1
        return {"answers": len(mine),
                "seconds": summary([s.seconds for s in mine]) if mine else None,
                "max_s": round(max((s.seconds for s in mine), default=0.0), 3),
                "by_status": codes}

    return {"health": answers("health"), "read": answers("read"), "write": answers("write")}


async def _one_run(root: Path, http: httpx.AsyncClient, name: str, *, freeze_s: float,
                   cont: bool, env: dict[str, str], log: Callable[[str], None]
                   ) -> FreezeRun:
    serve = ServeProcess(root / name, root / f"serve-{name}.log", env=env)
    serve.data_dir.mkdir()
    serve.start()
    pid = None
    try:
        await serve.wait_healthy(http, 600)
        ws = (await http.post(serve.base_url + "/api/workspaces",
                              json={"name": "freeze"})).json()["id"]
        traffic = _Traffic(serve.base_url, ws)
        tasks = [asyncio.create_task(t) for t in (
            traffic.writer(http, 0), traffic.writer(http, 1), traffic.reader(http),
            traffic.health(http))]
        await asyncio.sleep(2.0)
        pid = serve.falkordb_pid()
        assert pid is not None
        os.kill(pid, signal.SIGSTOP)
        frozen_at = time.monotonic()
        if cont:
            await asyncio.sleep(freeze_s)
            os.kill(pid, signal.SIGCONT)
            continued_at = time.monotonic()
        back_at = await _back(http, serve.base_url, ws)
        await asyncio.sleep(1.0)
        traffic.stop.set()
        await asyncio.gather(*tasks)
        served = 0
        for sid in traffic.acked:
            r = await http.get(f"{serve.base_url}/api/workspaces/{ws}/sources/{sid}")
            served += r.status_code == 200
        health = (await http.get(serve.base_url + "/api/health")).json()
        out: FreezeRun = {
            "frozen_for_s": freeze_s if cont else None,
            "back_after_freeze_s": round(back_at - frozen_at, 2),
            "back_after_sigcont_s": round(back_at - continued_at, 2) if cont else None,
            "acknowledged": len(traffic.acked), "acknowledged_served": served,
            "falkordb_restarts": health["falkordb"]["restarts"],
            "stuck_restarts": health["falkordb"]["stuck_restarts"],
            **_figures(traffic.seen, frozen_at, back_at),
        }
        log(f"[freeze] {name}: back {out['back_after_freeze_s']} s after the freeze; "
            f"health max {out['health']['max_s']} s, reads max {out['read']['max_s']} s, "
            f"writes max {out['write']['max_s']} s; {served}/{len(traffic.acked)} served")
        return out
    finally:
        if pid is not None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGCONT)
        serve.stop()


async def measure_freeze(root: Path, http: httpx.AsyncClient, *, freeze_s: float = 20.0,
                         log: Callable[[str], None] = print) -> FreezeFigures:
    base = {"AFTERHACK_FALKORDB_QUERY_TIMEOUT_MS": str(QUERY_TIMEOUT_MS),
            "AFTERHACK_EMBEDDING_WORKER": "false"}
    sigcont = await _one_run(root, http, "freeze-sigcont", freeze_s=freeze_s, cont=True, env={
        **base, "AFTERHACK_FALKORDB_UNRESPONSIVE_S": "5",
        "AFTERHACK_FALKORDB_STUCK_RESTART_S": str(int(freeze_s * 10))}, log=log)
    stuck = await _one_run(root, http, "freeze-restart", freeze_s=freeze_s, cont=False, env={
        **base, "AFTERHACK_FALKORDB_UNRESPONSIVE_S": "5",
        "AFTERHACK_FALKORDB_STUCK_RESTART_S": "15"}, log=log)
    return {"read_deadline_s": READ_DEADLINE_S, "write_deadline_s": WRITE_DEADLINE_S,
            "unresponsive_s": 5, "stuck_restart_s": 15, "sigcont": sigcont, "restart": stuck}
