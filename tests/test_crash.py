"""kill -9 the app, or FalkorDB, at random moments during a loop of corrections: after a
restart every invariant holds and every acknowledged apply is there, whole."""

from __future__ import annotations

import random
import threading
import time
import uuid
from pathlib import Path
from typing import Any

import httpx
import pytest

from afterhack.runtime.embedded import EmbeddedFalkorDB
from afterhack.store.client import Graph
from tests.support.graphs import load, violations, with_graph
from tests.support.procs import AppProcess

pytestmark = pytest.mark.slow


def _world(rng: random.Random, n_claims: int = 240) -> dict[str, Any]:
    sources = [{"id": str(uuid.uuid4()), "title": f"Source {i}"} for i in range(12)]
    claims = [{"id": str(uuid.uuid4()), "statement": f"Fact number {i} is true.",
               "source_id": rng.choice(sources)["id"]} for i in range(n_claims)]
    decisions: list[dict[str, Any]] = []
    actions: list[dict[str, Any]] = []
    for i in range(n_claims // 2):
        prem = {f"p{k}": [c["id"] for c in rng.sample(claims, rng.randint(1, 3))]
                for k in range(rng.randint(1, 2))}
        ups = [d["id"] for d in rng.sample(decisions, min(len(decisions), rng.randint(0, 2)))]
        did = str(uuid.uuid4())
        decisions.append({"id": did, "title": f"D{i}", "premises": prem, "depends_on": ups})
        if rng.random() < 0.6:
            actions.append({"id": str(uuid.uuid4()), "description": f"A{i}",
                            "status": rng.choice(["proposed", "approved"]),
                            "decision_ids": [did]})
    return {"sources": sources, "claims": claims, "decisions": decisions, "actions": actions}


class Corrector(threading.Thread):
    """Previews and applies corrections one after another, recording every acknowledgement."""

    def __init__(self, base_url: str, ws: str, claims: list[str], acked: dict[str, str]) -> None:
        super().__init__(daemon=True)
        self.base_url, self.ws, self.claims, self.acked = base_url, ws, claims, acked
        self.stop = threading.Event()
        self.acked_one = threading.Event()  # this worker has had an apply acknowledged

    def run(self) -> None:
        with httpx.Client(base_url=self.base_url, timeout=10) as http:
            while not self.stop.is_set() and self.claims:
                cid = self.claims[-1]
                path = f"/api/workspaces/{self.ws}/claims/{cid}/corrections"
                body = {"statement": f"Corrected fact {cid[:8]}."}
                try:
                    p = http.post(path + "/preview", json=body)
                    if p.status_code == 503:
                        time.sleep(0.2)
                        continue
                    if p.status_code == 409:  # already corrected before a crash
                        self.claims.pop()
                        continue
                    rev = p.json()["revisions"]
                    r = http.post(path, json={**body, "claim_revision": rev["claim_revision"],
                                              "impact_token": rev["impact_token"]})
                except (httpx.HTTPError, KeyError, ValueError):
                    return  # the app died under us
                if r.status_code in (200, 201):
                    self.acked[cid] = r.json()["correction"]["id"]
                    self.claims.pop()
                    self.acked_one.set()
                elif r.status_code == 409:
                    continue  # stale after a crash: preview again
                elif r.status_code == 503:
                    time.sleep(0.2)  # the store is reconnecting to a restarted FalkorDB
                else:
                    return


def _acked_present(url: str, ws: str, acked: dict[str, str]) -> None:
    async def read(g: Graph) -> dict[str, tuple[Any, ...]]:
        rows = await g.read(
            "MATCH (k:Correction)-[:CORRECTS]->(c:Claim) RETURN k.id AS k, c.id AS c, "
            "c.status AS status, c.status_history AS history, c.status_since AS since, "
            "k.created_at AS at")
        return {r["c"]: (r["k"], r["status"], r["history"], r["since"], r["at"])
                for r in rows}

    found = with_graph(url, ws, read)
    for cid, kid in acked.items():
        assert found.get(cid, (None,))[0] == kid, f"acknowledged correction of {cid} lost"
        _, status, history, since, at = found[cid]
        assert status == "superseded"
        # The change and its history were written together, at the correction's time.
        assert history == ["proposed", "superseded"] and since[-1] == at


def _run_with_crashes(tmp_path: Path, *, kill_falkordb: bool, rounds: int) -> None:
    rng = random.Random(1234 + int(kill_falkordb))
    with EmbeddedFalkorDB(tmp_path / "fdb") as server:
        url = server.url or ""
        env = {"AFTERHACK_FALKORDB_URL": url}
        app = AppProcess(env, data_dir=tmp_path / "app", log_path=tmp_path / "app.log").start()
        try:
            ws = httpx.post(app.base_url + "/api/workspaces", json={"name": "crash"}).json()["id"]
            world = _world(rng)
            load(url, ws, **world)
            todo = [c["id"] for c in world["claims"]]
            rng.shuffle(todo)
            acked: dict[str, str] = {}
            for _ in range(rounds):
                worker = Corrector(app.base_url, ws, todo, acked)
                worker.start()
                # Kill while applies are under way, not before the first one of the round has
                # had its chance (a loaded machine can take longer than the random delay).
                worker.acked_one.wait(60)
                time.sleep(rng.uniform(0.0, 0.5))
                if kill_falkordb:
                    server.kill()
                    worker.stop.set()
                    worker.join(timeout=30)
                    server.restart()
                else:
                    app.kill()
                    worker.stop.set()
                    worker.join(timeout=30)
                    app = AppProcess(env, data_dir=tmp_path / "app",
                                     log_path=tmp_path / "app.log").start()
                assert violations(url, ws) == []
                _acked_present(url, ws, acked)
            assert len(acked) >= rounds, "the loop never got going"
        finally:
            app.stop()


def test_kill_app_during_applies(tmp_path: Path) -> None:
    _run_with_crashes(tmp_path, kill_falkordb=False, rounds=6)


def test_kill_falkordb_during_applies(tmp_path: Path) -> None:
    _run_with_crashes(tmp_path, kill_falkordb=True, rounds=6)
