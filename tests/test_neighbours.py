"""The nearest current claims a check compares a statement with (docs/rules.md, rule 9):
found by words and by meaning, fused as search fuses them, bounded whatever the workspace
holds; claims whose vectors are pending are found by words. On the real FalkorDB, with the
offline embedding model."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from pydantic import SecretStr

from afterhack.app import create_app
from afterhack.llm.embeddings import OfflineEmbedder
from afterhack.retrieval import neighbours
from afterhack.retrieval import vectors as vector_worker
from afterhack.retrieval.neighbours import Neighbour, Probe
from afterhack.store import vectors as store_vectors
from afterhack.store.client import Graph
from tests.support import LOCAL
from tests.support.api import add_source
from tests.support.conflicts import claims_of
from tests.support.fakellm import FakeLLM, Reply
from tests.support.graphs import with_graph
from tests.support.settings import make_settings

LAUNCH = "The product launch is planned for June 12."
RELEASE = "The release goes live on June 19."


async def _vector(statement: str) -> list[float]:
    vecs, _ = await OfflineEmbedder().embed([statement], "passage")
    return vecs[0]


def _near(falkordb: str, ws: str, probe_text: str, subject: tuple[str, ...],
          **kw: Any) -> list[Neighbour]:
    async def go(g: Graph) -> list[Neighbour]:
        vec = await _vector(probe_text)
        (found,) = await neighbours.nearest(g, [Probe(subject=subject, vector=vec)], **kw)
        return found

    return with_graph(falkordb, ws, go)


def test_a_claim_in_other_words_is_found_by_meaning(client: TestClient, ws: str,
                                                     falkordb: str) -> None:
    launch = add_source(client, ws, LAUNCH, title="Plan")["claims"][0]
    add_source(client, ws, "The catering is done by Mario's Kitchen.", title="Venue")
    found = _near(falkordb, ws, RELEASE, ("release", "live"), max_distance=0.22)
    by_id = {n.id: n for n in found}
    assert launch["id"] in by_id
    hit = by_id[launch["id"]]
    assert not hit.by_words and hit.distance is not None and hit.distance < 0.2
    # The same probe by words alone finds nothing: its subject shares no word with it.
    assert _near(falkordb, ws, RELEASE, ("release", "live"), max_distance=0.0) == []


def test_words_find_what_meaning_cannot_and_both_rank_first(client: TestClient, ws: str,
                                                            falkordb: str) -> None:
    launch = add_source(client, ws, LAUNCH, title="Plan")["claims"][0]

    async def drop_vectors(g: Graph) -> int:
        return await store_vectors.reset_space(g)

    # No vector at all now (a re-embed under way): found by its words.
    assert with_graph(falkordb, ws, drop_vectors) >= 1
    found = _near(falkordb, ws, "The launch moves to June 19.", ("launch",))
    assert [(n.id, n.by_words, n.distance) for n in found] == [(launch["id"], True, None)]


def test_the_neighbour_read_is_bounded(client: TestClient, ws: str, falkordb: str) -> None:
    text = " ".join(f"The launch rehearsal number {i} is on June {i % 28 + 1}."
                    for i in range(40))
    assert len(add_source(client, ws, text, title="Rehearsals")["claims"]) == 40
    found = _near(falkordb, ws, "The launch rehearsal is on June 30.",
                  ("launch", "rehearsal"), k=3)
    # At most k by each ranking, fused.
    assert 1 <= len(found) <= 6
    assert sum(n.by_words for n in found) <= 3
    assert sum(n.distance is not None and not n.by_words for n in found) <= 3


def _judge_says_contradicts(body: Any) -> Reply:
    system = next(m["content"] for m in body["messages"] if m["role"] == "system")
    if "contradict" not in system:  # the extractor: each sentence a claim
        user = next(m["content"] for m in body["messages"] if m["role"] == "user")
        text = str(user).split("<<<FRAGMENT\n", 1)[1].rsplit("\nFRAGMENT>>>", 1)[0]
        return Reply.json({"claims": [{"statement": s.strip(), "evidence_quote": s.strip()}
                                      for s in text.replace(". ", ".\n").splitlines()
                                      if s.strip()]})
    return Reply.json({"reasoning": "The release is the launch; the dates differ.",
                       "verdict": "contradicts", "kind": "date"})


@pytest.fixture
def worker_gateway(falkordb: str, fakellm: FakeLLM, tmp_path: Path) -> Iterator[TestClient]:
    """The app as it ships (vectors filled in by the worker after the write), its model the
    scripted gateway, its embeddings the offline model."""
    settings = make_settings(falkordb_url=falkordb, data_dir=tmp_path,
                             openai_base_url=fakellm.base_url,
                             openai_api_key=SecretStr("test-key"), llm_timeout_s=2.0)
    assert settings.embedding_worker
    fakellm.on_request(_judge_says_contradicts)
    with TestClient(create_app(settings), base_url=LOCAL) as c:
        yield c


def test_the_worker_checks_by_meaning_what_it_embeds(
        worker_gateway: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """A claim that was checked by words alone at its ingest (here: no statement is
    embedded in the request) is compared by meaning once the worker has embedded it, and
    the conflict is raised then, with the judge's calls on an audit event."""
    monkeypatch.setattr(vector_worker, "CHECK_EMBED_MAX", 0)
    c = worker_gateway
    ws = c.post("/api/workspaces", json={"name": "worker checks"}).json()["id"]
    launch = add_source(c, ws, LAUNCH)["claims"][0]
    release = add_source(c, ws, RELEASE, title="Release notes")
    assert release["conflicts"] == []  # no word in common, and nothing embedded yet
    assert all(m.get("detail", {}).get("purpose") != "conflict_check"
               for m in release["model_calls"])
    deadline = time.monotonic() + 240
    while True:
        listed = c.get(f"/api/workspaces/{ws}/conflicts", params={"status": "open"}).json()
        if listed["items"]:
            break
        assert time.monotonic() < deadline, "the worker raised nothing"
        time.sleep(0.3)
    (k,) = listed["items"]
    assert {x["id"] for x in claims_of(k)} == {launch["id"], release["claims"][0]["id"]}
    assert k["reason"] == "The release is the launch; the dates differ."
    events = c.get(f"/api/workspaces/{ws}/audit").json()["items"]
    checked = [e for e in events if e["kind"] == "conflicts.checked_by_meaning"]
    assert checked and checked[0]["actor"] == "vector-worker"
    assert any(m["role"] == "conflict_judge" for m in checked[0]["detail"]["model_calls"])
