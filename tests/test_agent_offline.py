"""The evidence-gated agent with the offline model, end to end through the API."""

from __future__ import annotations

import asyncio
import threading
import time
import uuid
from typing import Any

from fastapi.testclient import TestClient

from afterhack.agents.gate import Evidence, gate
from afterhack.agents.offline import OfflineAnalyst
from afterhack.agents.tools import RunTools
from afterhack.model.calls import ModelCall
from afterhack.model.runs import ClaimSources, SearchHit
from afterhack.store.client import Store
from tests.support.api import add_source, run_agent
from tests.support.texts import JUNE


def test_when_is_the_launch_cites_the_claim_with_trail(client: TestClient, ws: str) -> None:
    claim = add_source(client, ws, JUNE, title="Launch plan")["claims"][0]
    r = client.post(f"/api/workspaces/{ws}/agent-runs", json={"task": "When is the launch?"})
    assert r.status_code == 201, r.text
    view = r.json()
    assert view["run"]["status"] == "completed"
    decision = view["decision"]
    assert decision["status"] == "draft"
    assert [c["id"] for p in decision["premises"] for c in p["claims"]] == [claim["id"]]
    assert view["actions"] == []
    first = view["handoffs"][0]
    assert (first["from_role"], first["to_role"]) == ("analyst", "coordinator")
    assert claim["id"] in first["searched_claim_ids"]
    assert claim["id"] in first["retrieved_claim_ids"]
    names = [t["name"] for t in first["tool_calls"]]
    assert names[:2] == ["search_claims", "get_claim_sources"]
    again = client.get(f"/api/workspaces/{ws}/agent-runs/{view['run']['id']}").json()
    assert again == view


def test_plan_task_proposes_an_action(client: TestClient, ws: str) -> None:
    add_source(client, ws, JUNE, title="Launch plan")
    view = run_agent(client, ws, "Plan the launch event")
    assert len(view["actions"]) == 1
    action = view["actions"][0]
    assert action["status"] == "proposed"
    assert action["decision_ids"] == [view["decision"]["id"]]
    got = client.get(f"/api/workspaces/{ws}/actions/{action['id']}").json()
    assert got["decision_ids"] == [view["decision"]["id"]]


def test_no_evidence_is_an_honest_needs_review(client: TestClient, ws: str) -> None:
    add_source(client, ws, JUNE, title="Launch plan")
    view = run_agent(client, ws, "Order ten crates of bananas for the zoo")
    d = view["decision"]
    assert d["status"] == "needs_review"
    assert d["title"] == "No source-backed answer yet"
    assert d["premises"] == [] and view["actions"] == []


def test_builds_on_links_only_decisions_in_good_standing(client: TestClient, ws: str) -> None:
    add_source(client, ws, JUNE, title="Launch plan")
    first = run_agent(client, ws, "When is the launch?")["decision"]
    bad = run_agent(client, ws, "Buy zebras")["decision"]
    view = client.post(f"/api/workspaces/{ws}/agent-runs", json={
        "task": "Plan the launch event", "builds_on": [first["id"], bad["id"]]}).json()
    d = view["decision"]
    assert [x["id"] for x in d["depends_on"]] == [first["id"]]
    assert view["run"]["builds_on_skipped"] == [{"decision_id": bad["id"],
                                                 "status": "needs_review"}]
    r = client.post(f"/api/workspaces/{ws}/agent-runs",
                    json={"task": "x", "builds_on": [str(uuid.uuid4())]})
    assert r.status_code == 404 and r.json()["error"]["code"] == "decision_not_found"


def test_parallel_runs_do_not_share_evidence(client: TestClient, ws: str) -> None:
    # Two sources, so neither claim is the other's neighbour in a search.
    add_source(client, ws, JUNE, title="Launch plan")
    add_source(client, ws, "The venue is Hall 7 in Berlin.", title="Launch plan")
    results: dict[str, dict[str, Any]] = {}

    def run(task: str) -> None:
        results[task] = client.post(f"/api/workspaces/{ws}/agent-runs",
                                    json={"task": task}).json()

    threads = [threading.Thread(target=run, args=(t,))
               for t in ("When is the launch?", "Where is the venue?")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    launch = results["When is the launch?"]["handoffs"][0]
    venue = results["Where is the venue?"]["handoffs"][0]
    assert set(launch["searched_claim_ids"]).isdisjoint(venue["searched_claim_ids"])
    assert set(launch["retrieved_claim_ids"]).isdisjoint(venue["retrieved_claim_ids"])


def test_gate_drops_unsearched_and_unretrieved_ids() -> None:
    ev = Evidence()
    ev.saw(["a", "b"])
    ev.read(["a", "c"])
    out = gate({"answer": "x", "claim_ids": ["a", "b", "c", "zz", 7],
                "premises": [{"statement": "p", "claim_ids": ["b"]}]}, ev,
               actions_key="proposed_actions")
    assert out.claim_ids == ["a"]
    assert [p.claim_ids for p in out.premises] == [["a"]]
    assert {d["claim_id"]: d["reason"] for d in out.dropped} == {
        "b": "not_retrieved", "c": "not_searched", "zz": "not_searched"}
    assert gate("garbage", ev, actions_key="actions").empty


def test_offline_analyst_records_its_own_time_not_its_tools(falkordb: str) -> None:
    """Model time on a run is the model's: the store reads its tools make are not in it."""
    tools_took: list[float] = []

    class SlowTools(RunTools):
        async def _slow(self) -> None:
            # Tools that take their time are the scenario; how long they took is measured.
            t0 = time.monotonic()
            await asyncio.sleep(0.5)
            tools_took.append(time.monotonic() - t0)

        async def search_claims(self, query: object) -> list[SearchHit]:
            await self._slow()
            return [{"claim_id": "c1", "statement": "The launch is in June.",
                     "status": "proposed", "open_conflict_ids": []}]

        async def get_claim_sources(self, claim_ids: object) -> list[ClaimSources]:
            await self._slow()
            return [{"claim_id": "c1", "status": "proposed", "fragments": [
                {"fragment_id": "f1", "text": "The launch is in June.", "origin_type": "text",
                 "origin_name": None, "quote_start": 0, "quote_end": 22, "start": 0,
                 "end": 22}]}]

    async def run() -> tuple[object, list[ModelCall]]:
        store = Store(falkordb)
        try:
            tools = SlowTools(store.graph("unused-" + uuid.uuid4().hex), Evidence())
            return await OfflineAnalyst().run(tools, "When is the launch?", 8)
        finally:
            await store.close()

    proposal, calls = asyncio.run(run())
    assert isinstance(proposal, dict) and proposal["claim_ids"] == ["c1"]
    assert [c.role for c in calls] == ["analyst"]
    assert len(tools_took) == 2
    # An order, not a time: were the tools' time counted, the model's would exceed it.
    assert 0 <= calls[0].duration_ms < 1000 * sum(tools_took)
