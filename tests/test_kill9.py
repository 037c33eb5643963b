"""kill -9 of the app in the middle of writes: a source, or a correction, is whole or absent.

The app runs as a real process against an external FalkorDB (its own EmbeddedFalkorDB) so
killing the app never touches the database. Writers hammer it from threads; the app is
killed at random moments, restarted, and hammered again. Afterwards every acknowledged
(2xx) write is there, nothing is half there, and the whole-graph invariants hold. A 503 is
the app saying it does not know a write's outcome (its database went away): not an
acknowledgement, like a dropped connection. The database itself is restarted from its
append-only file if it crashed under the hammering (support/dbwatch.py), and the same checks
then cover that crash too.
"""

from __future__ import annotations

import random
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest

from afterhack.runtime.embedded import EmbeddedFalkorDB
from afterhack.store.client import Graph
from afterhack.store.invariants import check_sources, check_workspace
from tests.support.dbwatch import WatchedServer
from tests.support.graphs import load, with_graph
from tests.support.procs import AppProcess
from tests.support.timing import until

pytestmark = pytest.mark.slow

ROUNDS = 5


@pytest.fixture
def server(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[WatchedServer]:
    with EmbeddedFalkorDB(tmp_path / "fdb") as s:
        yield WatchedServer(s, request.node.name)


@dataclass
class Hammer:
    """Threads calling ``work(client, i)`` until stopped; records acknowledged results."""

    base_url: str
    work: Callable[[httpx.Client, int], Any]
    threads: int = 4
    # Whether any work is left to do (a round with none acknowledges nothing).
    left: Callable[[], bool] = lambda: True
    acked: list[Any] = field(default_factory=list)
    attempts: int = 0
    _stop: threading.Event = field(default_factory=threading.Event)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def _loop(self) -> None:
        with httpx.Client(base_url=self.base_url, timeout=60) as c:
            while not self._stop.is_set():
                with self._lock:
                    self.attempts += 1
                    i = self.attempts
                try:
                    out = self.work(c, i)
                except httpx.HTTPError:
                    continue  # the app died under us: this one is not acknowledged
                if out is not None:
                    with self._lock:
                        self.acked.append(out)

    def run_until_killed(self, app: AppProcess, after_s: float) -> None:
        """Kill the app ``after_s`` after the round's first acknowledgement: while work is
        under way, however slowly the machine starts it."""
        self._stop.clear()
        before = len(self.acked)
        workers = [threading.Thread(target=self._loop) for _ in range(self.threads)]
        for w in workers:
            w.start()
        until(lambda: len(self.acked) > before or not self.left(), timeout_s=120,
              what="a write acknowledged")
        time.sleep(after_s)  # where the kill falls is the scenario
        app.kill()
        self._stop.set()
        for w in workers:
            w.join(timeout=60)


def _big_text(i: int) -> str:
    # Distinct per request (its number is in every sentence), ~40k characters in ~35
    # fragments; long sentences keep the claim count (and the final check) moderate.
    return " ".join(f"Item {i}-{k} costs {k} euros in batch {i}, shipped from the north "
                    "warehouse with the standard two-year warranty of its vendor."
                    for k in range(300))


def test_kill9_during_large_ingests_leaves_each_source_whole_or_absent(
    server: WatchedServer, tmp_path: Path
) -> None:
    url = server.server.url or ""
    env = {"AFTERHACK_FALKORDB_URL": url}
    rng = random.Random(7)

    def ingest(c: httpx.Client, i: int) -> Any:
        # Every other one without extraction: a bigger write of fragments alone.
        r = c.post(f"/api/workspaces/{ws}/sources",
                   json={"title": f"big {i}", "text": _big_text(i), "extract": i % 2 == 0})
        if r.status_code == 503:
            return None
        assert r.status_code == 201, r.text
        body = r.json()
        return {"title": f"big {i}", "source_id": body["source"]["id"],
                "claims": [x["id"] for x in body["claims"]]}

    ws = ""
    hammer = Hammer("", ingest)
    for n in range(ROUNDS):
        server.ensure_serving()
        app = AppProcess(env, data_dir=tmp_path / f"app{n}", log_path=tmp_path / f"a{n}.log")
        app.start()
        if not ws:
            ws = httpx.post(app.base_url + "/api/workspaces", json={"name": "crash"}).json()["id"]
        hammer.base_url = app.base_url
        hammer.run_until_killed(app, rng.uniform(0.4, 2.5))

    async def state(g: Graph) -> dict[str, Any]:
        rows = await g.read("MATCH (s:Source) RETURN s.id AS id, s.title AS title")
        claims = await g.read("MATCH (c:Claim) RETURN c.id AS id")
        return {"sources": {r["id"]: r["title"] for r in rows},
                "claims": {r["id"] for r in claims},
                "violations": await check_workspace(g) + await check_sources(g)}

    server.ensure_serving()
    got = with_graph(url, ws, state)
    assert got["violations"] == []
    assert len(hammer.acked) >= ROUNDS  # the test did ingest something each round
    for ack in hammer.acked:
        assert got["sources"].get(ack["source_id"]) == ack["title"]
        assert set(ack["claims"]) <= got["claims"]
    # Sources beyond the acknowledged ones were in flight at a kill: whole (checked above).
    assert len(got["sources"]) <= hammer.attempts


def test_kill9_during_corrections_applies_each_all_or_nothing(
    server: WatchedServer, tmp_path: Path
) -> None:
    url = server.server.url or ""
    env = {"AFTERHACK_FALKORDB_URL": url}
    rng = random.Random(11)
    app = AppProcess(env, data_dir=tmp_path / "app", log_path=tmp_path / "a.log").start()
    ws = httpx.post(app.base_url + "/api/workspaces", json={"name": "crash"}).json()["id"]
    # 60 claims from 60 sources; each is the only support of 100 decisions with an action,
    # so every apply flags 100 decisions and holds 100 actions in its one query.
    sources = [{"id": str(uuid.uuid4()), "title": f"s{i}"} for i in range(60)]
    claims = [{"id": str(uuid.uuid4()), "statement": f"Fact {i} holds.",
               "source_id": sources[i]["id"]} for i in range(60)]
    decisions: list[dict[str, Any]] = [
        {"id": str(uuid.uuid4()), "title": f"D{i}-{k}",
         "premises": {"p": [claims[i]["id"]]}} for i in range(60) for k in range(100)]
    actions = [{"id": str(uuid.uuid4()), "description": f"A{d['id']}",
                "decision_ids": [d["id"]]} for d in decisions]
    load(url, ws, sources=sources, claims=claims, decisions=decisions, actions=actions)
    queue = [c["id"] for c in claims]
    taken: dict[str, dict[str, Any]] = {}  # claim id -> the apply body sent
    lock = threading.Lock()

    def correct(c: httpx.Client, i: int) -> Any:
        with lock:
            if not queue:
                time.sleep(0.05)
                return None
            cid = queue.pop()
        statement = f"Fact {cid[:8]} was wrong."
        p = c.post(f"/api/workspaces/{ws}/claims/{cid}/corrections/preview",
                   json={"statement": statement})
        if p.status_code == 503:
            with lock:
                queue.append(cid)  # nothing was sent to apply: a later round takes it
            return None
        assert p.status_code == 200, p.text
        body = {"statement": statement,
                "claim_revision": p.json()["revisions"]["claim_revision"],
                "impact_token": p.json()["revisions"]["impact_token"]}
        with lock:
            taken[cid] = body
        r = c.post(f"/api/workspaces/{ws}/claims/{cid}/corrections", json=body)
        if r.status_code == 503:
            return None  # in flight when the database went away: applied or not, whole
        assert r.status_code == 201, r.text
        return {"claim_id": cid, "correction_id": r.json()["correction"]["id"]}

    hammer = Hammer(app.base_url, correct, left=lambda: bool(queue))
    for n in range(ROUNDS):
        if n:
            server.ensure_serving()
            app = AppProcess(env, data_dir=tmp_path / f"app{n}",
                             log_path=tmp_path / f"a{n}.log").start()
            hammer.base_url = app.base_url
        hammer.run_until_killed(app, rng.uniform(0.8, 2.5))

    users = {c["id"]: [d["id"] for d in decisions if d["premises"]["p"] == [c["id"]]]
             for c in claims}

    async def state(g: Graph) -> dict[str, Any]:
        rows = await g.read(
            "MATCH (c:Claim) WHERE c.confidence_kind = 'quote_match' "
            "RETURN c.id AS id, c.status AS status, "
            "[(c)<-[:CORRECTS]-(k:Correction) | k.id] AS corrections")
        st = await g.read("MATCH (d) WHERE d:Decision OR d:Action "
                          "RETURN d.id AS id, d.status AS status")
        return {"claims": {r["id"]: r for r in rows},
                "status": {r["id"]: r["status"] for r in st},
                "violations": await check_workspace(g)}

    server.ensure_serving()
    got = with_graph(url, ws, state)
    assert got["violations"] == []
    acked = {a["claim_id"]: a["correction_id"] for a in hammer.acked}
    assert len(acked) >= 3
    applied = 0
    for cid in taken:
        claim = got["claims"][cid]
        dstatus = {got["status"][d] for d in users[cid]}
        if claim["status"] == "superseded":
            applied += 1
            assert len(claim["corrections"]) == 1 and dstatus == {"needs_review"}
        else:  # not applied at all: nothing of it was written
            assert cid not in acked
            assert claim["status"] == "proposed" and claim["corrections"] == []
            assert dstatus == {"draft"}
        if cid in acked:
            assert claim["corrections"] == [acked[cid]]
    assert applied >= len(acked)
    # A retry of an apply that was in flight at a kill finishes it, or says it was done.
    app = AppProcess(env, data_dir=tmp_path / "last", log_path=tmp_path / "last.log").start()
    try:
        for cid, body in taken.items():
            r = httpx.post(f"{app.base_url}/api/workspaces/{ws}/claims/{cid}/corrections",
                           json=body, timeout=60)
            assert r.status_code in (200, 201), r.text
            assert r.json()["status"] == ("applied" if cid not in acked and
                                          got["claims"][cid]["status"] == "proposed"
                                          else "already_applied")
    finally:
        app.stop()
    assert with_graph(url, ws, check_workspace) == []
