"""A failing or slow model gateway, and every configured limit, answered clearly.

Agent runs against a scripted model that fails (500, 429), answers garbage or too late:
the run is stored as ``failed`` with its trail, the response is 502/504 with a clear code,
and no Decision or Action is written. Limits (body, source length, claims per source,
agent rounds, concurrent model calls) each give their documented answer.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from pydantic import SecretStr

from afterhack.config import Settings
from afterhack.llm.prompts import EXTRACTION_SCHEMA_NAME
from afterhack.runtime.embedded import free_loopback_port
from tests.support.api import app_client
from tests.support.errors import assert_canonical_error
from tests.support.fakellm import FakeLLM, Reply
from tests.support.graphs import load, snapshot
from tests.support.settings import make_settings

LAUNCH = "The launch is planned for June 12."


@pytest.fixture
def gw(falkordb: str, fakellm: FakeLLM, tmp_path: Path) -> Iterator[tuple[TestClient, FakeLLM]]:
    s = make_settings(falkordb_url=falkordb, data_dir=tmp_path, openai_base_url=fakellm.base_url,
                      openai_api_key=SecretStr("test-key"), llm_timeout_s=1.0, agent_max_rounds=4)
    with app_client(s) as c:
        yield c, fakellm


def _seeded(client: TestClient, falkordb: str) -> tuple[str, str]:
    ws = client.post("/api/workspaces", json={"name": "faults"}).json()["id"]
    sid, cid = str(uuid.uuid4()), str(uuid.uuid4())
    load(falkordb, ws, sources=[{"id": sid, "title": "Plan"}],
         claims=[{"id": cid, "statement": LAUNCH, "source_id": sid}])
    return str(ws), cid


def labels(falkordb: str, ws: str) -> dict[str, int]:
    out: dict[str, int] = {}
    for n in snapshot(falkordb, ws)["nodes"]:
        out[n["labels"][0]] = out.get(n["labels"][0], 0) + 1
    return out


SEARCH = Reply.tools(("search_claims", {"query": "launch"}))


def read(cid: str) -> Reply:
    return Reply.tools(("get_claim_sources", {"claim_ids": [cid]}))


def submit(cid: str) -> Reply:
    return Reply.tools(("submit_proposal", {"answer": "June 12", "claim_ids": [cid],
                                            "proposed_actions": ["Book the venue"]}))


def decision(cid: str, delay_s: float = 0.0) -> Reply:
    return Reply.json({"title": "Launch date", "summary": "June 12", "claim_ids": [cid],
                       "premises": [{"statement": "date", "claim_ids": [cid]}],
                       "actions": [{"description": "Book the venue"}]}, delay_s=delay_s)


CASES: dict[str, tuple[Any, int, str, int]] = {
    # name: (replies given the claim id, HTTP status, error code, handoffs on the trail)
    "analyst 500": (lambda c: [Reply.error(500)], 502, "llm_gateway_unavailable", 1),
    "analyst 429": (lambda c: [Reply.error(429, code="rate_limit_exceeded")], 502,
                    "llm_gateway_unavailable", 1),
    "analyst too slow": (lambda c: [Reply.tools(("search_claims", {"query": "x"}),
                                                delay_s=1.6)], 504, "llm_gateway_timeout", 1),
    "500 after reading the sources": (lambda c: [SEARCH, read(c), Reply.error(500)], 502,
                                      "llm_gateway_unavailable", 1),
    "coordinator 503": (lambda c: [SEARCH, read(c), submit(c), Reply.error(503)], 502,
                        "llm_gateway_unavailable", 1),
    "coordinator too slow": (lambda c: [SEARCH, read(c), submit(c), decision(c, 1.6)], 504,
                             "llm_gateway_timeout", 1),
}


@pytest.mark.parametrize("case", list(CASES))
def test_failed_model_call_fails_the_run_with_its_trail_and_writes_no_decision(
    gw: tuple[TestClient, FakeLLM], falkordb: str, case: str
) -> None:
    client, fake = gw
    ws, cid = _seeded(client, falkordb)
    replies, status, code, n_handoffs = CASES[case]
    fake.script(*replies(cid))
    before = labels(falkordb, ws)

    r = client.post(f"/api/workspaces/{ws}/agent-runs", json={"task": "When is the launch?"})

    assert_canonical_error_5xx(r, status, code)
    run_id = r.json()["error"]["details"]["run_id"]
    view = client.get(f"/api/workspaces/{ws}/agent-runs/{run_id}").json()
    assert view["run"]["status"] == "failed" and view["run"]["error"] == code
    assert view["decision"] is None and view["actions"] == []
    assert len(view["handoffs"]) == n_handoffs
    # The record keeps every call made before the failure and the failed one, timed.
    calls = view["run"]["model_calls"]
    failed_role = "coordinator" if "coordinator" in case else "analyst"
    assert calls[-1]["role"] == failed_role and calls[-1]["ok"] is False
    assert calls[-1]["error"] == code and calls[-1]["duration_ms"] > 0
    assert len(calls) == len(fake.requests)
    if "too slow" in case:
        assert calls[-1]["duration_ms"] >= 900  # the gateway's 1 s timeout
    if "reading" in case or "coordinator" in case:
        assert view["handoffs"][0]["retrieved_claim_ids"] == [cid]
    after = labels(falkordb, ws)
    assert "Decision" not in after and "Action" not in after
    assert after.get("AgentRun") == 1 and after["AuditEvent"] == before["AuditEvent"] + 1
    audit = client.get(f"/api/workspaces/{ws}/audit").json()["items"]
    assert audit[0]["kind"] == "agent_run.failed" and audit[0]["subject_id"] == run_id
    assert "test-key" not in r.text and fake.url not in r.text


def test_a_coordinator_that_answers_garbage_twice_ends_the_run_as_needs_review(
    gw: tuple[TestClient, FakeLLM], falkordb: str
) -> None:
    client, fake = gw
    ws, cid = _seeded(client, falkordb)
    fake.script(SEARCH, read(cid), submit(cid), Reply.text("Sure!"), Reply.text('{"title": '))

    r = client.post(f"/api/workspaces/{ws}/agent-runs", json={"task": "When is the launch?"})

    # The model answered, with nothing usable: an honest no-answer, not a gateway failure.
    assert r.status_code == 201, r.text
    view = r.json()
    assert view["run"]["status"] == "completed" and view["run"]["error"] is None
    d = view["decision"]
    assert d["status"] == "needs_review" and d["premises"] == [] and view["actions"] == []
    assert d["review_reason"] == {"type": "no_evidence",
                                  "detail": "coordinator_output_unusable"}
    assert "not a JSON object" in d["summary"]
    calls = view["run"]["model_calls"]
    assert [c["role"] for c in calls] == ["analyst"] * 3 + ["coordinator", "run"]
    assert calls[3]["ok"] is False and calls[3]["error"] == "llm_invalid_output"
    assert len(fake.requests) == 5 and fake.pending == 0
    assert [h["to_role"] for h in view["handoffs"]] == ["coordinator", "decision"]
    assert view["handoffs"][1]["proposal"] == {"error": "llm_invalid_output"}
    assert labels(falkordb, ws).get("Action") is None


def assert_canonical_error_5xx(r: Any, status: int, code: str) -> None:
    assert r.status_code == status, r.text
    body = r.json()
    assert set(body) == {"error"} and body["error"]["code"] == code
    assert body["error"]["message"] and isinstance(body["error"]["details"], dict)


def test_a_model_that_never_submits_is_stopped_after_the_round_limit(
    gw: tuple[TestClient, FakeLLM], falkordb: str
) -> None:
    client, fake = gw
    ws, _ = _seeded(client, falkordb)
    fake.on_request(lambda body: SEARCH)
    r = client.post(f"/api/workspaces/{ws}/agent-runs", json={"task": "When is the launch?"})
    assert r.status_code == 201, r.text
    view = r.json()
    analyst_calls = [c for c in view["run"]["model_calls"] if c["role"] == "analyst"]
    assert len(analyst_calls) == 4 == len(fake.requests)  # agent_max_rounds, no coordinator
    # It searched but never read a source: nothing is evidence.
    assert view["decision"]["status"] == "needs_review" and view["actions"] == []
    assert view["handoffs"][0]["dropped"] == []  # it cited nothing


def test_an_unreachable_gateway_is_502_for_runs_and_a_stored_source_for_ingest(
    falkordb: str, tmp_path: Path
) -> None:
    dead = f"http://127.0.0.1:{free_loopback_port()}/v1"
    s = make_settings(falkordb_url=falkordb, data_dir=tmp_path, openai_base_url=dead,
                      llm_timeout_s=1.0, fragment_max_chars=60)
    with app_client(s) as client:
        ws, _ = _seeded(client, falkordb)
        r = client.post(f"/api/workspaces/{ws}/agent-runs", json={"task": "When is the launch?"})
        assert_canonical_error_5xx(r, 502, "llm_gateway_unavailable")
        text = LAUNCH + " The venue is the harbour hall. Badges are blue."
        r = client.post(f"/api/workspaces/{ws}/sources", json={"title": "Memo", "text": text})
        assert r.status_code == 201, r.text
        body = r.json()
        src = client.get(f"/api/workspaces/{ws}/sources/{body['source']['id']}").json()
        frags = src["versions"][0]["fragments"]
        assert body["claims"] == [] and len(body["failed_fragments"]) == len(frags) >= 2
        assert {f["error"] for f in body["failed_fragments"]} == {"llm_gateway_unavailable"}
        assert "".join(f["text"] for f in frags) == text
        assert {f["extraction"] for f in frags} == {"failed"}
        assert "Decision" not in labels(falkordb, ws)


# -- limits -------------------------------------------------------------------------------


def test_source_over_its_length_limit_is_413_and_stores_nothing(falkordb: str,
                                                                tmp_path: Path) -> None:
    s = make_settings(falkordb_url=falkordb, data_dir=tmp_path, max_source_chars=100)
    with app_client(s) as client:
        ws = client.post("/api/workspaces", json={"name": "limits"}).json()["id"]
        before = snapshot(falkordb, ws)
        r = client.post(f"/api/workspaces/{ws}/sources", json={"text": "a" * 101})
        assert_canonical_error(r, 413)
        assert r.json()["error"]["code"] == "payload_too_large"
        assert r.json()["error"]["details"]["limit"] == 100
        assert snapshot(falkordb, ws) == before
        assert client.post(f"/api/workspaces/{ws}/sources",
                           json={"text": "a" * 100}).status_code == 201


def test_body_over_its_limit_is_413_with_or_without_content_length(client: TestClient,
                                                                   ws: str,
                                                                   settings: Settings) -> None:
    big = b'{"text": "' + b"a" * settings.max_body_bytes + b'"}'

    def chunks() -> Iterator[bytes]:
        for i in range(0, len(big), 65536):
            yield big[i : i + 65536]

    for content in (big, chunks()):
        r = client.post(f"/api/workspaces/{ws}/sources", content=content,
                        headers={"content-type": "application/json"})
        assert_canonical_error(r, 413)
        assert r.json()["error"]["code"] == "payload_too_large"


def test_claims_over_the_per_source_limit_are_dropped_as_over_limit(falkordb: str,
                                                                    tmp_path: Path) -> None:
    text = " ".join(f"The room {i} holds {i * 10} guests." for i in range(1, 6))
    s = make_settings(falkordb_url=falkordb, data_dir=tmp_path, max_claims_per_source=2)
    with app_client(s) as client:
        ws = client.post("/api/workspaces", json={"name": "limits"}).json()["id"]
        r = client.post(f"/api/workspaces/{ws}/sources", json={"title": "Rooms", "text": text})
        assert r.status_code == 201, r.text
        assert len(r.json()["claims"]) == 2
        assert r.json()["dropped"] == {"over_limit": 3}


def test_concurrent_model_calls_are_bounded(falkordb: str, fakellm: FakeLLM,
                                            tmp_path: Path) -> None:
    s = make_settings(falkordb_url=falkordb, data_dir=tmp_path, openai_base_url=fakellm.base_url,
                      openai_api_key=SecretStr("k"), llm_timeout_s=5.0, llm_concurrency=2,
                      fragment_max_chars=60)
    fakellm.on_request(lambda body: Reply.json({"claims": []}, delay_s=0.2))
    text = " ".join(f"Sentence number {i} is here and long enough." for i in range(8))
    with app_client(s) as client:
        ws = client.post("/api/workspaces", json={"name": "bound"}).json()["id"]
        r = client.post(f"/api/workspaces/{ws}/sources", json={"title": "t", "text": text})
        assert r.status_code == 201, r.text
    # The FalkorDB is shared: an app starting on it resumes other workspaces' pending checks
    # by meaning, whose judge calls come here too. This source's calls are its extractions.
    asked = [b for b in fakellm.bodies
             if b["response_format"]["json_schema"]["name"] == EXTRACTION_SCHEMA_NAME]
    assert len(asked) == 8
    assert fakellm.max_in_flight == 2
