from __future__ import annotations

from fastapi.testclient import TestClient

JUNE = "The product launch is planned for June 12."
JULY = "The product launch is planned for July 15."


def test_product_view_shows_the_chain_and_the_correction(client: TestClient, ws: str) -> None:
    src = client.post(f"/api/workspaces/{ws}/sources",
                      json={"title": "Launch plan", "text": JUNE}).json()
    claim = src["claims"][0]
    run = client.post(f"/api/workspaces/{ws}/agent-runs",
                      json={"task": "Plan the launch event"}).json()
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
    client.post(f"/api/workspaces/{ws}/agent-runs", json={"task": "When is the launch?"})
    g = client.get(f"/api/workspaces/{ws}/graph", params={"view": "internal"}).json()
    types = {n["type"] for n in g["nodes"]}
    assert {"Workspace", "Source", "SourceVersion", "SourceFragment", "Claim", "AgentRun",
            "Handoff", "Decision", "AuditEvent"} <= types
    assert {"HAS_VERSION", "HAS_FRAGMENT", "SUPPORTED_BY", "USED_CLAIM", "HAS_HANDOFF",
            "PRODUCED"} <= {e["type"] for e in g["edges"]}
