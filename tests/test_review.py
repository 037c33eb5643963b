"""Decisions and actions move only by compare-and-set on the revision the client saw."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests.support.api import add_source, run_agent
from tests.support.errors import assert_canonical_error
from tests.support.texts import JUNE


def _plan(client: TestClient, ws: str) -> dict[str, Any]:
    add_source(client, ws, JUNE, title="t")
    return run_agent(client, ws, "Plan the launch event")


def test_action_lifecycle_with_revisions(client: TestClient, ws: str) -> None:
    a = _plan(client, ws)["actions"][0]
    url = f"/api/workspaces/{ws}/actions/{a['id']}"
    r = client.patch(url, json={"op": "approve", "revision": a["revision"]})
    assert r.status_code == 200 and r.json()["status"] == "approved"
    assert r.json()["revision"] == a["revision"] + 1
    stale = client.patch(url, json={"op": "done", "revision": a["revision"]})
    assert_canonical_error(stale, 409)
    assert stale.json()["error"]["code"] == "stale_revision"
    r = client.patch(url, json={"op": "done", "revision": a["revision"] + 1})
    assert r.status_code == 200 and r.json()["status"] == "done"
    r = client.patch(url, json={"op": "cancel", "revision": a["revision"] + 2})
    assert_canonical_error(r, 409)
    assert r.json()["error"]["code"] == "invalid_transition"
    assert_canonical_error(client.patch(url, json={"op": "explode", "revision": 1}), 422)


def test_decision_accept_and_reject(client: TestClient, ws: str) -> None:
    run = _plan(client, ws)
    d, a = run["decision"], run["actions"][0]
    url = f"/api/workspaces/{ws}/decisions/{d['id']}"
    r = client.patch(url, json={"op": "accept", "revision": d["revision"]})
    assert r.status_code == 200 and r.json()["status"] == "accepted"
    assert_canonical_error(client.patch(url, json={"op": "accept", "revision": d["revision"]}),
                           409)
    r = client.patch(url, json={"op": "reject", "revision": d["revision"] + 1, "note": "no"})
    assert r.status_code == 200 and r.json()["status"] == "rejected"
    assert r.json()["actions"][0]["status"] == "cancelled"
    assert r.json()["review_reason"] == {"type": "rejected", "note": "no"}
    r = client.patch(url, json={"op": "reconfirm", "revision": d["revision"] + 2,
                                "claim_ids": [c["id"] for p in d["premises"]
                                              for c in p["claims"]]})
    assert r.json()["error"]["code"] == "invalid_transition"
    kinds = [e["kind"] for e in client.get(f"/api/workspaces/{ws}/audit").json()["items"]]
    assert kinds[:2] == ["decision.reject", "decision.accept"]
    assert client.get(f"/api/workspaces/{ws}/actions/{a['id']}").json()["status"] == "cancelled"


def test_reconfirm_needs_claims(client: TestClient, ws: str) -> None:
    d = _plan(client, ws)["decision"]
    r = client.patch(f"/api/workspaces/{ws}/decisions/{d['id']}",
                     json={"op": "reconfirm", "revision": d["revision"]})
    assert_canonical_error(r, 422)


def test_list_actions_by_status(client: TestClient, ws: str) -> None:
    a = _plan(client, ws)["actions"][0]
    items = client.get(f"/api/workspaces/{ws}/actions").json()["items"]
    assert [x["id"] for x in items] == [a["id"]]
    assert items[0]["decision_ids"] == a["decision_ids"]
    held = client.get(f"/api/workspaces/{ws}/actions", params={"status": "held"}).json()
    assert held["items"] == []
    assert_canonical_error(client.get(f"/api/workspaces/{ws}/actions",
                                      params={"status": "bogus"}), 422)
