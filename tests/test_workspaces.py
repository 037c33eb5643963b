from __future__ import annotations

import asyncio
import uuid

from fastapi.testclient import TestClient

from afterhack.store import admin
from afterhack.store.client import Graph
from afterhack.store.names import graph_name
from tests.support.graphs import graph_names, with_graph


def test_health_reports_falkordb_reachable(client: TestClient) -> None:
    body = client.get("/api/health").json()
    assert body["falkordb"]["reachable"] is True
    assert body["status"] == "ok"


def test_create_names_graph_from_server_uuid(client: TestClient, falkordb: str) -> None:
    r = client.post("/api/workspaces", json={"name": "Launch planning"})
    assert r.status_code == 201
    body = r.json()
    assert set(body) >= {"id", "name", "revision"}
    assert body["name"] == "Launch planning" and body["revision"] == 1
    assert graph_name(body["id"]) == "ws_" + uuid.UUID(body["id"]).hex
    assert "ws_" + uuid.UUID(body["id"]).hex in graph_names(falkordb)
    assert client.get(f"/api/workspaces/{body['id']}").json()["name"] == "Launch planning"
    listed = client.get("/api/workspaces", params={"limit": 1000}).json()["items"]
    assert body["id"] in [w["id"] for w in listed]


def test_request_cannot_choose_graph_name(client: TestClient, falkordb: str) -> None:
    chosen = str(uuid.uuid4())
    r = client.post("/api/workspaces", json={"name": "x", "id": chosen})
    assert r.status_code == 422
    assert r.json()["error"]["code"] == "invalid_request"
    r = client.post("/api/workspaces", json={"name": "ws_" + uuid.UUID(chosen).hex})
    assert r.status_code == 201
    assert r.json()["id"] != chosen
    assert "ws_" + uuid.UUID(chosen).hex not in graph_names(falkordb)


def test_unknown_and_malformed_ids_are_404_and_create_nothing(
    client: TestClient, falkordb: str
) -> None:
    before = set(graph_names(falkordb))
    missing = str(uuid.uuid4())
    for ws in (missing, "not-a-uuid", "ws_" + uuid.uuid4().hex, "../registry",
               missing.upper(), "afterhack_registry"):
        # The claim search checks its workspace beside its own reads, and before its
        # arguments: an unknown workspace is 404 there too, whatever else is wrong.
        for path in ("", "/sources", "/audit", f"/sources/{uuid.uuid4()}", "/claims",
                     "/claims?q=sky", "/claims?q=sky&mode=vector", "/claims?status=bogus",
                     "/claims?q=sky&as_of=yesterday", "/claims?q=sky&cursor=nonsense"):
            r = client.get(f"/api/workspaces/{ws}{path}")
            assert r.status_code == 404, (ws, path, r.text)
            err = r.json()["error"]
            assert err["code"] in ("workspace_not_found", "not_found")
            assert "ws_" not in err["message"]
        r = client.post(f"/api/workspaces/{ws}/sources", json={"text": "The sky is blue today."})
        assert r.status_code == 404
    assert set(graph_names(falkordb)) == before


def test_unknown_source_is_404(client: TestClient, ws: str) -> None:
    r = client.get(f"/api/workspaces/{ws}/sources/{uuid.uuid4()}")
    assert r.status_code == 404
    assert r.json()["error"]["code"] == "source_not_found"


def test_one_shared_index_exists_when_created(client: TestClient, falkordb: str) -> None:
    """A workspace graph has one label index, on Node: unique id and the range fields (an
    index per label cost about 100 KiB each, even when empty), and no full-text field."""
    from afterhack.store.client import Store

    ws = client.post("/api/workspaces", json={"name": "idx"}).json()["id"]

    async def check() -> None:
        store = Store(falkordb)
        try:
            cons = await admin.list_constraints(store, graph_name(ws))
            assert [(c["type"], c["label"], c["properties"]) for c in cons] == [
                ("UNIQUE", "Node", ["id"])]
            assert all(c["status"] == "OPERATIONAL" for c in cons)
            idx = list(await store.graph(graph_name(ws)).read(
                "CALL db.indexes() YIELD label, types, status RETURN label, types, status"))
            assert [r["label"] for r in idx] == ["Node"]
            assert idx[0]["status"] == "OPERATIONAL"
            assert idx[0]["types"] == {"id": ["RANGE"], "statement_key": ["RANGE"],
                                       "key": ["RANGE"], "terms": ["RANGE"],
                                       "vector_pending": ["RANGE"], "status": ["RANGE"]}
        finally:
            await store.close()

    asyncio.run(check())


def test_audit_records_creation(client: TestClient, ws: str) -> None:
    client.post(f"/api/workspaces/{ws}/sources", json={"title": "t", "text": "The sky is blue."})
    items = client.get(f"/api/workspaces/{ws}/audit").json()["items"]
    kinds = [e["kind"] for e in items]
    assert kinds[0] == "source.created" and kinds[-1] == "workspace.created"
    assert all(e["actor"] == "local" for e in items)


def test_a_search_answers_404_once_its_workspace_is_gone_or_not_ready(
    client: TestClient, falkordb: str
) -> None:
    # The claim search reads without a lookup first (its workspace check runs beside it).
    for gone in ("deleted", "not ready"):
        ws = client.post("/api/workspaces", json={"name": f"search-{gone}"}).json()["id"]
        r = client.post(f"/api/workspaces/{ws}/sources", json={"text": "The sky is blue today."})
        assert r.status_code == 201, r.text
        for q in ("?q=sky", "?q=sky&mode=text", ""):
            r = client.get(f"/api/workspaces/{ws}/claims{q}")
            assert r.status_code == 200 and r.json()["items"], (q, r.text)
        if gone == "deleted":
            assert client.delete(f"/api/workspaces/{ws}").status_code in (200, 204)
        else:
            async def unready(g: Graph) -> None:
                await g.write("MATCH (w:Workspace) SET w.ready = false")

            with_graph(falkordb, ws, unready)
        for q in ("?q=sky", "?q=sky&mode=text", "?q=sky&mode=vector", ""):
            r = client.get(f"/api/workspaces/{ws}/claims{q}")
            assert r.status_code == 404, (gone, q, r.text)
            assert r.json()["error"]["code"] == "workspace_not_found"
