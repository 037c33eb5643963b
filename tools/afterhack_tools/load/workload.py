"""The clients of a load run: reads, ingests, agent runs, corrections and reviews.

Each client is an asyncio task with its own HTTP connection, bound to one app process and
one workspace. Every request is timed under its route template; every acknowledged write
and every 409 is recorded with what the client had seen, so verify.py can prove afterwards
that the write is there and that the conflict was real.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections import deque
from dataclasses import dataclass, field
from typing import Any

import httpx

TOPICS = ("shipment", "venue", "budget", "caterer", "badges", "speakers", "hotel", "printer",
          "catalogue", "webinar")
WEIGHTS = {"read": 45, "ingest": 20, "run": 15, "correct": 15, "review": 5}


@dataclass
class Sample:
    route: str
    status: int
    ms: float
    code: str = ""


@dataclass
class Shared:
    """What all clients know about one workspace (one event loop: no locks needed)."""

    ws: str
    headers: dict[str, str]
    claims: deque[tuple[str, str]] = field(default_factory=lambda: deque(maxlen=400))
    sources: deque[str] = field(default_factory=lambda: deque(maxlen=200))
    decisions: deque[str] = field(default_factory=lambda: deque(maxlen=200))
    actions: deque[str] = field(default_factory=lambda: deque(maxlen=200))


@dataclass
class Log:
    samples: list[Sample] = field(default_factory=list)
    sources: list[dict[str, Any]] = field(default_factory=list)
    runs: list[dict[str, Any]] = field(default_factory=list)
    corrections: list[dict[str, Any]] = field(default_factory=list)
    conflicts: list[dict[str, Any]] = field(default_factory=list)
    unexpected: list[dict[str, Any]] = field(default_factory=list)


class Client:
    def __init__(self, http: httpx.AsyncClient, shared: Shared, log: Log, rng: random.Random,
                 n: int) -> None:
        self.http, self.s, self.log, self.rng, self.n = http, shared, log, rng, n
        self.i = 0

    async def call(self, method: str, route: str, url: str, *, ok: tuple[int, ...] = (),
                   **kw: Any) -> httpx.Response:
        t0 = time.perf_counter()
        r = await self.http.request(method, url, headers=self.s.headers, **kw)
        ms = (time.perf_counter() - t0) * 1000
        code = ""
        if r.status_code >= 400:
            try:
                code = str(r.json()["error"]["code"])
            except (ValueError, KeyError, TypeError):
                code = "unreadable"
        self.log.samples.append(Sample(f"{method} {route}", r.status_code, ms, code))
        if r.status_code >= 400 and r.status_code not in ok and r.status_code != 409:
            self.log.unexpected.append({"route": f"{method} {route}", "status": r.status_code,
                                        "body": r.text[:500]})
        return r

    async def loop(self, deadline: float) -> None:
        ops = list(WEIGHTS)
        weights = list(WEIGHTS.values())
        while time.monotonic() < deadline:
            self.i += 1
            op = self.rng.choices(ops, weights)[0]
            try:
                await getattr(self, op)()
            except httpx.HTTPError as exc:
                self.log.unexpected.append({"route": op, "status": 0, "body": repr(exc)})

    # -- operations -----------------------------------------------------------------------

    def _pick(self, pool: deque[Any]) -> Any | None:
        return pool[self.rng.randrange(len(pool))] if pool else None

    async def read(self) -> None:
        ws = self.s.ws
        base = f"/api/workspaces/{ws}"
        choice = self.rng.randrange(8)
        claim, source, decision = (self._pick(self.s.claims), self._pick(self.s.sources),
                                   self._pick(self.s.decisions))
        if choice == 0:
            await self.call("GET", "/workspaces/{ws}", base)
        elif choice == 1:
            await self.call("GET", "/workspaces/{ws}/claims", base + "/claims",
                            params={"q": f"{self.rng.choice(TOPICS)} day"})
        elif choice == 2 and claim:
            await self.call("GET", "/workspaces/{ws}/claims/{id}", f"{base}/claims/{claim[0]}")
        elif choice == 3 and source:
            await self.call("GET", "/workspaces/{ws}/sources/{id}", f"{base}/sources/{source}")
        elif choice == 4 and decision:
            await self.call("GET", "/workspaces/{ws}/decisions/{id}",
                            f"{base}/decisions/{decision}")
        elif choice == 5:
            await self.call("GET", "/workspaces/{ws}/graph", base + "/graph",
                            params={"limit": 500})
        elif choice == 6:
            await self.call("GET", "/workspaces/{ws}/audit", base + "/audit",
                            params={"limit": 50})
        else:
            await self.call("GET", "/workspaces/{ws}/decisions", base + "/decisions",
                            params={"limit": 50})

    async def ingest(self) -> None:
        tag = f"c{self.n}i{self.i}"
        topics = self.rng.sample(TOPICS, 3)
        text = " ".join(f"The {t} {tag} is planned for day {self.rng.randrange(1, 300)}."
                        for t in topics)
        body: dict[str, Any] = {"title": f"Memo {tag}", "text": text}
        source = self._pick(self.s.sources)
        if source and self.rng.random() < 0.15:
            body = {"source_id": source, "text": text}
        r = await self.call("POST", "/workspaces/{ws}/sources",
                            f"/api/workspaces/{self.s.ws}/sources", json=body)
        if r.status_code in (200, 201):
            out = r.json()
            sid = out["source"]["id"]
            self.log.sources.append({"ws": self.s.ws, "source_id": sid,
                                     "version": out.get("version"),
                                     "claims": [c["id"] for c in out["claims"]]})
            self.s.sources.append(sid)
            for c in out["claims"]:
                self.s.claims.append((c["id"], c["statement"]))

    async def run(self) -> None:
        task = f"Plan the {self.rng.choice(TOPICS)}"
        body: dict[str, Any] = {"task": task}
        decision = self._pick(self.s.decisions)
        if decision and self.rng.random() < 0.2:
            body["builds_on"] = [decision]
        t0 = time.time() * 1000
        r = await self.call("POST", "/workspaces/{ws}/agent-runs",
                            f"/api/workspaces/{self.s.ws}/agent-runs", json=body, ok=(404,))
        if r.status_code == 201:
            view = r.json()
            self.log.runs.append({"ws": self.s.ws, "run_id": view["run"]["id"],
                                  "decision_id": view["decision"]["id"],
                                  "actions": [a["id"] for a in view["actions"]]})
            self.s.decisions.append(view["decision"]["id"])
            self.s.actions.extend(a["id"] for a in view["actions"])
        elif r.status_code == 409:
            self.log.conflicts.append({"ws": self.s.ws, "kind": "run", "code": _code(r),
                                       "started": t0, "ended": time.time() * 1000})

    async def correct(self) -> None:
        # A third of the corrections go to the five newest claims, so clients collide.
        pool = self.s.claims
        if not pool:
            return
        hot = self.rng.random() < 0.33
        i = len(pool) - 1 - self.rng.randrange(min(5, len(pool))) if hot \
            else self.rng.randrange(len(pool))
        claim_id, statement = pool[i]
        base = f"/api/workspaces/{self.s.ws}/claims/{claim_id}/corrections"
        new = statement.rstrip(".") + f", moved by reviewer {self.n}."
        p = await self.call("POST", "/workspaces/{ws}/claims/{id}/corrections/preview",
                            base + "/preview", json={"statement": new})
        if p.status_code == 409:
            self.log.conflicts.append({"ws": self.s.ws, "kind": "preview", "code": _code(p),
                                       "claim_id": claim_id, "at": time.time() * 1000})
            return
        if p.status_code != 200:
            return
        seen = p.json()["revisions"]
        body = {"statement": new, "claim_revision": seen["claim_revision"],
                "impact_token": seen["impact_token"]}
        r = await self.call("POST", "/workspaces/{ws}/claims/{id}/corrections", base, json=body)
        if r.status_code in (200, 201):
            out = r.json()
            self.log.corrections.append({
                "ws": self.s.ws, "claim_id": claim_id, "status": out["status"],
                "correction_id": out["correction"]["id"],
                "replacement_id": out["replacement"]["id"] if out["replacement"] else None})
            if out["replacement"]:
                self.s.claims.append((out["replacement"]["id"], new))
        elif r.status_code == 409:
            again = await self.call("POST", "/workspaces/{ws}/claims/{id}/corrections/preview",
                                    base + "/preview", json={"statement": new})
            self.log.conflicts.append({
                "ws": self.s.ws, "kind": "apply", "code": _code(r), "claim_id": claim_id,
                "seen": seen, "at": time.time() * 1000,
                "details": r.json()["error"]["details"],
                "again": again.json().get("revisions") if again.status_code == 200 else
                {"code": _code(again)}})

    async def review(self) -> None:
        base = f"/api/workspaces/{self.s.ws}"
        if self.rng.random() < 0.5:
            did = self._pick(self.s.decisions)
            if not did:
                return
            g = await self.call("GET", "/workspaces/{ws}/decisions/{id}",
                                f"{base}/decisions/{did}")
            if g.status_code != 200 or g.json()["status"] not in ("draft", "needs_review"):
                return
            seen = g.json()
            r = await self.call("PATCH", "/workspaces/{ws}/decisions/{id}",
                                f"{base}/decisions/{did}",
                                json={"op": "accept", "revision": seen["revision"]})
            kind, url = "decision", f"{base}/decisions/{did}"
        else:
            aid = self._pick(self.s.actions)
            if not aid:
                return
            g = await self.call("GET", "/workspaces/{ws}/actions/{id}", f"{base}/actions/{aid}")
            if g.status_code != 200 or g.json()["status"] != "proposed":
                return
            seen = g.json()
            r = await self.call("PATCH", "/workspaces/{ws}/actions/{id}", f"{base}/actions/{aid}",
                                json={"op": "approve", "revision": seen["revision"]})
            kind, url = "action", f"{base}/actions/{aid}"
        if r.status_code == 409:
            again = await self.http.get(url, headers=self.s.headers)
            ups = []
            if kind == "action" and again.status_code == 200:
                for d in again.json().get("decision_ids", []):
                    dr = await self.http.get(f"{base}/decisions/{d}", headers=self.s.headers)
                    ups.append(dr.json().get("status") if dr.status_code == 200 else None)
            self.log.conflicts.append({"ws": self.s.ws, "kind": kind, "code": _code(r),
                                       "seen": {"revision": seen["revision"],
                                                "status": seen["status"]},
                                       "again": again.json() if again.status_code == 200
                                       else None, "decision_statuses": ups})


def _code(r: httpx.Response) -> str:
    try:
        return str(r.json()["error"]["code"])
    except (ValueError, KeyError, TypeError):
        return "unreadable"


async def run_clients(apps: list[str], shared: list[Shared], *, clients: int,
                      duration_s: float, seed: int) -> Log:
    """``clients`` clients for ``duration_s``: half on the first workspace, the rest spread
    over the others; client i talks to app i mod len(apps)."""
    log = Log()
    deadline = time.monotonic() + duration_s
    limits = httpx.Limits(max_connections=1, max_keepalive_connections=1)
    https = [httpx.AsyncClient(base_url=apps[i % len(apps)], timeout=120, limits=limits)
             for i in range(clients)]
    try:
        tasks = []
        for i, http in enumerate(https):
            ws = shared[0] if i % 2 == 0 or len(shared) == 1 else \
                shared[1 + (i // 2) % (len(shared) - 1)]
            c = Client(http, ws, log, random.Random(seed * 1000 + i), i)
            tasks.append(asyncio.create_task(c.loop(deadline)))
        await asyncio.gather(*tasks)
    finally:
        await asyncio.gather(*(h.aclose() for h in https))
    return log
