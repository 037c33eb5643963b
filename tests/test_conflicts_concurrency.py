"""Racing resolutions of one conflict from two app processes on one FalkorDB: exactly one
applies; the others are repeats of it (already_applied) or refused (409)."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from pathlib import Path
from typing import Any

import httpx
import pytest

from afterhack.runtime.embedded import EmbeddedFalkorDB
from afterhack.store.client import Graph, Row
from tests.support.conflicts import claims_of
from tests.support.graphs import violations, with_graph
from tests.support.procs import AppProcess
from tests.support.timing import until

pytestmark = pytest.mark.slow


def test_racing_resolutions_give_one_winner(tmp_path: Path) -> None:
    with EmbeddedFalkorDB(tmp_path / "fdb") as server:
        env = {"AFTERHACK_FALKORDB_URL": server.url or ""}
        with AppProcess(env, data_dir=tmp_path / "a", log_path=tmp_path / "a.log") as a, \
             AppProcess(env, data_dir=tmp_path / "b", log_path=tmp_path / "b.log") as b:
            ws = httpx.post(a.base_url + "/api/workspaces", json={"name": "race"}).json()["id"]
            base = f"/api/workspaces/{ws}"
            march = httpx.post(a.base_url + base + "/sources", json={
                "title": "March", "text": "The product launch is planned for June 12."}).json()
            httpx.post(b.base_url + base + "/agent-runs",
                       json={"task": "Plan the launch event"}, timeout=30)
            april = httpx.post(b.base_url + base + "/sources", json={
                "title": "April", "text": "The launch moves to June 19."}).json()
            (conflict,) = april["conflicts"]
            sides = [march["claims"][0]["id"], april["claims"][0]["id"]]
            choices: list[dict[str, Any]] = [{"keep": sides[0]}, {"keep": sides[1]},
                                             {"dismiss": True}]
            previews = [httpx.post(a.base_url + base + f"/conflicts/{conflict['id']}/preview",
                                   json=c).json() for c in choices]
            barrier = threading.Barrier(18, timeout=60)

            def resolve(i: int) -> tuple[int, dict[str, Any], int]:
                k = i % 3
                app = a if i % 2 else b
                body = {**choices[k], "reason": f"racer {i}",
                        "conflict_revision": previews[k]["revisions"]["conflict_revision"],
                        "impact_token": previews[k]["revisions"]["impact_token"]}
                with httpx.Client(timeout=60) as http:
                    barrier.wait()
                    r = http.post(app.base_url + base + f"/conflicts/{conflict['id']}/resolve",
                                  json=body)
                return r.status_code, r.json(), k

            with ThreadPoolExecutor(18) as pool:
                results = list(pool.map(resolve, range(18)))
            wins = [(body, k) for code, body, k in results if code == 201]
            assert len(wins) == 1, [code for code, _, _ in results]
            winner, wk = wins[0]
            for code, body, k in results:
                if code == 200:
                    assert k == wk and body["status"] == "already_applied"
                elif code != 201:
                    assert code == 409, body
                    assert body["error"]["code"] in ("stale_correction_preview",
                                                     "conflict_closed")

            async def count(g: Graph) -> Row:
                rows = await g.read(
                    "MATCH (k:Conflict {id:$id}) RETURN k.status AS status, k.revision AS rev, "
                    "size([(k)<-[r:RESOLVES]-(:Correction) | r]) AS resolutions",
                    {"id": conflict["id"]})
                [row] = rows
                return row

            state = with_graph(server.url or "", ws, count)
            assert state["rev"] == 2
            if wk == 2:
                assert state == {"status": "dismissed", "rev": 2, "resolutions": 0}
            else:
                assert state == {"status": "resolved", "rev": 2, "resolutions": 1}
                assert winner["superseded"] == [sides[1 - wk]]
            assert violations(server.url or "", ws) == []


def _under_way(worker: threading.Thread, resolved_one: threading.Event) -> bool:
    return resolved_one.is_set() or not worker.is_alive()


def test_kill_falkordb_during_resolutions(tmp_path: Path) -> None:
    """All or nothing: FalkorDB killed at random moments of a loop of resolutions; after
    each restart every invariant holds (a resolved conflict has its correction and no
    current claim of its losing side) and every acknowledged resolution is there."""
    import random
    import time
    import uuid

    from tests.support.graphs import load

    rng = random.Random(7)
    n = 60
    with EmbeddedFalkorDB(tmp_path / "fdb") as server:
        url = server.url or ""
        env = {"AFTERHACK_FALKORDB_URL": url}
        with AppProcess(env, data_dir=tmp_path / "a", log_path=tmp_path / "a.log") as app:
            ws = httpx.post(app.base_url + "/api/workspaces", json={"name": "crash"}).json()["id"]
            base = f"{app.base_url}/api/workspaces/{ws}"

            def memo(day: int) -> str:
                return " ".join(f"Project Kestrel{i} launches on June {day}." for i in range(n))

            a = httpx.post(base + "/sources", json={"title": "A", "text": memo(12)},
                           timeout=60).json()
            b = httpx.post(base + "/sources", json={"title": "B", "text": memo(19)},
                           timeout=60).json()
            assert len(b["conflicts"]) == n
            decisions = [{"id": str(uuid.uuid4()), "title": f"D{i}",
                          "premises": {"when": [a["claims"][i]["id"]]}} for i in range(n)]
            load(url, ws, decisions=decisions,
                 actions=[{"id": str(uuid.uuid4()), "description": f"A{i}",
                           "decision_ids": [d["id"]]} for i, d in enumerate(decisions)])
            todo = [k["id"] for k in b["conflicts"]]
            acked: dict[str, str] = {}

            def resolver(stop: threading.Event, resolved_one: threading.Event) -> None:
                with httpx.Client(timeout=10) as http:
                    while todo and not stop.is_set():
                        kid = todo[-1]
                        try:
                            k = http.get(f"{base}/conflicts/{kid}").json()
                            if k.get("status") != "open":
                                todo.pop()
                                continue
                            keep = claims_of(k)[1]["id"]
                            p = http.post(f"{base}/conflicts/{kid}/preview",
                                          json={"keep": keep}).json()
                            r = http.post(f"{base}/conflicts/{kid}/resolve", json={
                                "keep": keep, **{x: p["revisions"][x] for x in (
                                    "conflict_revision", "impact_token")}})
                        except (httpx.HTTPError, KeyError, ValueError):
                            return
                        if r.status_code in (200, 201):
                            acked[kid] = r.json()["correction"]["id"]
                            todo.pop()
                            resolved_one.set()
                        elif r.status_code != 409:
                            return

            for _ in range(4):
                stop, resolved_one = threading.Event(), threading.Event()
                worker = threading.Thread(target=resolver, args=(stop, resolved_one),
                                          daemon=True)
                worker.start()
                # Kill while resolutions are under way: once the loop's first resolution is
                # answered (or none is left), at a moment the seed picks.
                until(partial(_under_way, worker, resolved_one), timeout_s=120,
                      what="a resolution answered")
                time.sleep(rng.uniform(0.0, 0.5))  # the kill's moment is the scenario
                server.kill()
                stop.set()
                worker.join(timeout=30)
                server.restart()
                assert violations(url, ws) == []

                async def resolved(g: Graph) -> dict[str, tuple[str, str | None]]:
                    rows = await g.read("MATCH (k:Conflict) RETURN k.id AS id, "
                                        "k.status AS status, k.correction_id AS c")
                    return {r["id"]: (r["status"], r["c"]) for r in rows}

                found = with_graph(url, ws, resolved)
                for kid, cid in acked.items():
                    assert found[kid] == ("resolved", cid), kid
            assert acked, "the loop never got going"
