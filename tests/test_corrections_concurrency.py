"""Racing applies from two app processes on one FalkorDB: exactly one winner."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest

from afterhack.runtime.embedded import EmbeddedFalkorDB
from afterhack.store.client import Graph, Row
from tests.support.graphs import violations, with_graph
from tests.support.procs import AppProcess
from tests.support.texts import JUNE

pytestmark = pytest.mark.slow


def test_twenty_racing_applies_give_one_replacement(tmp_path: Path) -> None:
    with EmbeddedFalkorDB(tmp_path / "fdb") as server:
        env = {"AFTERHACK_FALKORDB_URL": server.url or ""}
        with AppProcess(env, data_dir=tmp_path / "a", log_path=tmp_path / "a.log") as a, \
             AppProcess(env, data_dir=tmp_path / "b", log_path=tmp_path / "b.log") as b:
            ws = httpx.post(a.base_url + "/api/workspaces", json={"name": "race"}).json()["id"]
            claim = httpx.post(f"{a.base_url}/api/workspaces/{ws}/sources",
                               json={"title": "plan", "text": JUNE}).json()["claims"][0]
            httpx.post(f"{b.base_url}/api/workspaces/{ws}/agent-runs",
                       json={"task": "Plan the launch event"}, timeout=30)
            path = f"/api/workspaces/{ws}/claims/{claim['id']}/corrections"
            preview = httpx.post(a.base_url + path + "/preview",
                                 json={"statement": "The launch is on July 1."}).json()
            rev = preview["revisions"]
            barrier = threading.Barrier(20, timeout=60)

            def apply(i: int) -> tuple[int, dict[str, Any]]:
                base = (a if i % 2 else b).base_url
                body = {"statement": f"The product launch is planned for July {i + 1}.",
                        "claim_revision": rev["claim_revision"],
                        "impact_token": rev["impact_token"]}
                with httpx.Client(timeout=60) as http:
                    barrier.wait()
                    r = http.post(base + path, json=body)
                return r.status_code, r.json()

            with ThreadPoolExecutor(20) as pool:
                results = list(pool.map(apply, range(20)))
            codes = sorted(c for c, _ in results)
            assert codes == [201] + [409] * 19, codes
            assert all(body["error"]["code"] == "stale_correction_preview"
                       for code, body in results if code == 409)
            winner = next(body for code, body in results if code == 201)

            async def count(g: Graph) -> Row | None:
                rows = await g.read(
                    "MATCH (c:Claim {id:$id}) RETURN "
                    "size([(c)<-[s:SUPERSEDES]-(:Claim) | s]) AS replacements, "
                    "size([(c)<-[k:CORRECTS]-(:Correction) | k]) AS corrections",
                    {"id": claim["id"]})
                return rows.first()

            assert with_graph(server.url or "", ws, count) == {"replacements": 1,
                                                               "corrections": 1}
            # The winner's request, repeated, is a repeat, not a new correction.
            i = int(winner["replacement"]["statement"].rsplit(" ", 1)[1].rstrip(".")) - 1
            again = httpx.post(a.base_url + path, json={
                "statement": f"The product launch is planned for July {i + 1}.",
                "claim_revision": rev["claim_revision"], "impact_token": rev["impact_token"]})
            assert again.status_code == 200
            assert again.json()["status"] == "already_applied"
            assert again.json()["replacement"]["id"] == winner["replacement"]["id"]
            assert violations(server.url or "", ws) == []
