from __future__ import annotations

from fastapi.testclient import TestClient

from tests.support.api import add_source, run_agent
from tests.support.texts import JULY, JUNE


def test_product_view_shows_the_chain_and_the_correction(client: TestClient, ws: str) -> None:
    src = add_source(client, ws, JUNE, title="Launch plan")
    claim = src["claims"][0]
    run = run_agent(client, ws, "Plan the launch event")
    p = client.post(f"/api/workspaces/{ws}/claims/{claim['id']}/corrections/preview",
                    json={"statement": JULY}).json()
    out = client.post(f"/api/workspaces/{ws}/claims/{claim['id']}/corrections", json={
        "statement": JULY, "claim_revision": p["revisions"]["claim_revision"],
        "impact_token": p["revisions"]["impact_token"]}).json()
    g = client.get(f"/api/workspaces/{ws}/graph").json()
    types = {n["id"]: n["type"] for n in g["nodes"]}
    assert sorted(set(types.values())) == ["action", "claim", "correction", "decision", "source"]
    edges = {(e["source"], e["target"], e["type"]) for e in g["edges"]}
    sid, did, aid = src["source"]["id"], run["decision"]["id"], run["actions"][0]["id"]
    rid, kid = out["replacement"]["id"], out["correction"]["id"]
    assert (sid, claim["id"], "SUPPORTS") in edges
    assert (claim["id"], did, "INFORMS") in edges
    assert (did, aid, "ENABLES") in edges
    assert (kid, claim["id"], "CORRECTS") in edges
    assert (rid, claim["id"], "REPLACES") in edges
    assert (kid, rid, "SUPPORTS") in edges
    status = {n["id"]: n["status"] for n in g["nodes"]}
    assert status[claim["id"]] == "superseded" and status[did] == "needs_review"
    assert status[aid] == "held"
    assert {e["type"] for e in g["edges"]} <= {"SUPPORTS", "INFORMS", "ENABLES", "CORRECTS",
                                               "REPLACES"}


def test_internal_view_shows_everything_stored(client: TestClient, ws: str) -> None:
    client.post(f"/api/workspaces/{ws}/sources", json={"title": "t", "text": JUNE})
    run_agent(client, ws, "When is the launch?")
    g = client.get(f"/api/workspaces/{ws}/graph", params={"view": "internal"}).json()
    types = {n["type"] for n in g["nodes"]}
    assert {"Workspace", "Source", "SourceVersion", "SourceFragment", "Claim", "AgentRun",
            "Handoff", "Decision", "AuditEvent"} <= types
    assert {"HAS_VERSION", "HAS_FRAGMENT", "SUPPORTED_BY", "USED_CLAIM", "HAS_HANDOFF",
            "PRODUCED"} <= {e["type"] for e in g["edges"]}


def test_a_view_cut_at_its_limit_says_how_much_it_draws_out_of_how_much(
        client: TestClient, ws: str) -> None:
    text = " ".join(f"Crate {i} is stored in hall {i}." for i in range(7))
    client.post(f"/api/workspaces/{ws}/sources", json={"title": "Store", "text": text})
    client.post(f"/api/workspaces/{ws}/agent-runs", json={"task": "Where is crate 3?"})
    whole = client.get(f"/api/workspaces/{ws}/graph").json()
    assert whole["truncated"] is False
    held = {t["type"]: (t["drawn"], t["total"]) for t in whole["totals"]}
    assert held == {"source": (1, 1), "correction": (0, 0), "claim": (7, 7),
                    "decision": (1, 1), "action": (0, 0)}

    cut = client.get(f"/api/workspaces/{ws}/graph", params={"limit": 3}).json()
    assert cut["truncated"] is True
    counts = {t["type"]: (t["drawn"], t["total"]) for t in cut["totals"]}
    assert counts["claim"] == (3, 7)
    assert counts["source"] == (1, 1) and counts["decision"] == (1, 1)
    assert sum(n["type"] == "claim" for n in cut["nodes"]) == 3

    inner = client.get(f"/api/workspaces/{ws}/graph",
                       params={"view": "internal", "limit": 5}).json()
    [nodes] = inner["totals"]
    assert nodes["type"] == "node" and nodes["drawn"] == 5 and nodes["total"] > 5
    assert inner["truncated"] is True


def test_a_view_cut_at_a_past_moment_counts_what_was_there_then(
        client: TestClient, ws: str) -> None:
    first = client.post(f"/api/workspaces/{ws}/sources", json={
        "title": "First", "text": "Crate 1 is stored in hall 1. Crate 2 is stored in hall 2. "
                                  "Crate 3 is stored in hall 3."}).json()
    [added] = client.get(f"/api/workspaces/{ws}/timeline").json()["events"]
    assert added["subject_id"] == first["source"]["id"]
    then = added["at"]
    client.post(f"/api/workspaces/{ws}/sources", json={
        "title": "Second", "text": "Crate 4 is stored in hall 4. Crate 5 is stored in hall 5."})
    past = client.get(f"/api/workspaces/{ws}/graph",
                      params={"limit": 2, "as_of": then}).json()
    counts = {t["type"]: (t["drawn"], t["total"]) for t in past["totals"]}
    assert counts["claim"] == (2, 3)
    assert counts["source"] == (1, 1)
    now = client.get(f"/api/workspaces/{ws}/graph", params={"limit": 2}).json()
    assert {t["type"]: (t["drawn"], t["total"]) for t in now["totals"]}["claim"] == (2, 5)


def test_the_same_question_twice_gives_two_decisions_told_apart(
        client: TestClient, ws: str) -> None:
    client.post(f"/api/workspaces/{ws}/sources", json={"title": "Plan", "text": JUNE})
    question = "When is the launch, and when should the press release go out?"
    runs = [client.post(f"/api/workspaces/{ws}/agent-runs", json={"task": question}).json()
            for _ in range(2)]
    g = client.get(f"/api/workspaces/{ws}/graph").json()
    decisions = [n for n in g["nodes"] if n["type"] == "decision"]
    assert [d["label"] for d in decisions] == [question, question]
    assert {d["data"]["run_id"] for d in decisions} == {r["run"]["id"] for r in runs}
    made = sorted(d["data"]["created_at"] for d in decisions)
    assert made == sorted(r["decision"]["created_at"] for r in runs)
