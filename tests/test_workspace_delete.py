"""Deleting a workspace (``DELETE /api/workspaces/{ws}``): the graph and its registry entry
go (the entry holds the workspace's name), FalkorDB's files are rewritten, and the answer
says whether the disk is clean yet. Once it says so, no byte of the workspace's words or
name is under the data dir, and none after the app and its FalkorDB start again.

The app runs its own embedded FalkorDB here, in a temporary data dir; the test turns off
the compression of its snapshot files so a search of their bytes can see what they hold
(tests/support/bytescan.py), and shows the search finds the words before the deletion.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import redis
from fastapi.testclient import TestClient

from afterhack.config import Settings
from afterhack.records.clock import now_ms
from afterhack.store import deletions
from afterhack.store.client import Store
from afterhack.store.names import REGISTRY_GRAPH, graph_name
from tests.support.api import add_source, app_client
from tests.support.bytescan import scan
from tests.support.commands import command
from tests.support.errors import assert_canonical_error
from tests.support.settings import EMBED_INLINE, make_settings

SECRET = "Ana's number is +49 151 2345 6789"
NAME = "Ana Lindqvist private notes"


def _settings(data: Path) -> Settings:
    return make_settings(falkordb_url=None, data_dir=data, **EMBED_INLINE)


def _url(data: Path) -> str:
    return (data / "falkordb.url").read_text()


def _uncompressed(data: Path) -> None:
    with redis.Redis(unix_socket_path=_url(data).removeprefix("unix://")) as c:
        command(c, "CONFIG", "SET", "rdbcompression", "no")


def _once_clean(client: TestClient, ws: str, timeout_s: float = 120.0) -> dict[str, Any]:
    """The deletion's record, polled until it says the disk is clean."""
    deadline = time.monotonic() + timeout_s
    while True:
        found: dict[str, Any] = client.get(f"/api/workspaces/{ws}/deletion").json()
        if found["disk"] == "clean" or time.monotonic() > deadline:
            assert found["disk"] == "clean", found
            return found
        time.sleep(0.02)


def _fill(client: TestClient) -> str:
    ws = client.post("/api/workspaces", json={"name": NAME}).json()["id"]
    add_source(client, ws, f"The launch is on June 12. {SECRET}.", title="Contacts")
    r = client.post(f"/api/workspaces/{ws}/sources", json={
        "title": "Chat", "messages": [{"speaker": "Ana", "text": f"By the way, {SECRET}."}]})
    assert r.status_code == 201, r.text
    assert client.get(f"/api/workspaces/{ws}/claims", params={"q": SECRET}).status_code == 200
    return str(ws)


def test_a_deleted_workspace_leaves_no_byte_on_disk_once_clean_nor_after_a_restart(
        tmp_path: Path) -> None:
    data = tmp_path / "data"
    with app_client(_settings(data)) as client:
        _uncompressed(data)
        ws = _fill(client)
        assert {h.path.parent.name for h in scan(data, SECRET)} == {"appendonlydir"}
        assert scan(data, NAME) != []

        r = client.delete(f"/api/workspaces/{ws}", params={"wait": "disk"})

        assert r.status_code == 200, r.text
        deleted = r.json()
        assert deleted["id"] == ws and deleted["disk"] == "clean"
        assert deleted["requested_at"] <= deleted["deleted_at"] <= deleted["disk_clean_at"]
        assert set(deleted) == {"id", "requested_at", "deleted_at", "disk", "disk_clean_at"}
        assert scan(data, SECRET) == [] and scan(data, NAME) == []
        assert client.get(f"/api/workspaces/{ws}/deletion").json() == deleted
        assert_canonical_error(client.get(f"/api/workspaces/{ws}"), 404)
    with app_client(_settings(data)) as client:
        assert scan(data, SECRET) == [] and scan(data, NAME) == []
        assert client.get(f"/api/workspaces/{ws}/deletion").json() == deleted
        assert client.get("/api/workspaces").json()["items"] == []


def test_the_answer_says_pending_and_the_deletion_record_says_when_clean(
        tmp_path: Path) -> None:
    with app_client(_settings(tmp_path / "data")) as client:
        ws = client.post("/api/workspaces", json={"name": "soon gone"}).json()["id"]
        r = client.delete(f"/api/workspaces/{ws}")
        assert r.status_code == 200 and r.json()["disk"] == "pending"
        assert r.json()["disk_clean_at"] is None
        later = _once_clean(client, ws)
        assert later["disk_clean_at"] >= later["deleted_at"]
        assert_canonical_error(client.delete(f"/api/workspaces/{ws}"), 404)
        never = client.post("/api/workspaces", json={"name": "kept"}).json()["id"]
        assert_canonical_error(client.get(f"/api/workspaces/{never}/deletion"), 404)


def test_a_deletion_cut_short_is_finished_and_rewritten_at_the_next_start(
        tmp_path: Path) -> None:
    data = tmp_path / "data"
    with app_client(_settings(data)) as client:
        _uncompressed(data)
        ws = _fill(client)

        async def cut_short() -> None:
            # As far as a crash lets a deletion get: written down, nothing deleted yet.
            store = Store(_url(data))
            try:
                await deletions.begin(store, ws, now_ms())
            finally:
                await store.close()

        asyncio.run(cut_short())
        assert scan(data, SECRET) != []
    with app_client(_settings(data)) as client:
        found = _once_clean(client, ws)
        assert found["deleted_at"] is not None
        assert_canonical_error(client.get(f"/api/workspaces/{ws}"), 404)
        assert scan(data, SECRET) == [] and scan(data, NAME) == []
        with redis.Redis(unix_socket_path=_url(data).removeprefix("unix://")) as c:
            assert graph_name(ws).encode() not in command(c, "GRAPH.LIST")
            assert REGISTRY_GRAPH.encode() in command(c, "GRAPH.LIST")
