"""The conflict judge through a gateway (docs/rules.md, rules 9 and 14): one call per
candidate pair, reasoning before the verdict, only ``contradicts`` raises, counted in
model_calls; a judge that fails or answers garbage raises nothing and the source is stored
anyway. The model is scripted over real HTTP; the store is the real FalkorDB."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fastapi.testclient import TestClient

from tests.support.api import add_source
from tests.support.conflicts import claims_of
from tests.support.fakellm import FakeLLM, Reply
from tests.support.texts import JUNE12, JUNE19


def _role(body: Any) -> str:
    system = next(m["content"] for m in body["messages"] if m["role"] == "system")
    return "judge" if "contradict" in system else "extractor"


def _user(body: Any) -> str:
    return str(next(m["content"] for m in body["messages"] if m["role"] == "user"))


def _extract(body: Any) -> Reply:
    text = _user(body).split("<<<FRAGMENT\n", 1)[1].rsplit("\nFRAGMENT>>>", 1)[0]
    return Reply.json({"claims": [{"statement": s.strip(), "evidence_quote": s.strip()}
                                  for s in text.replace(". ", ".\n").splitlines() if s.strip()]})


def _judge_always(verdict: dict[str, str],
                  asked: list[str] | None = None) -> Callable[[Any], Reply]:
    """A model that extracts each sentence as a claim and, asked about a pair, always gives
    ``verdict``; what it was asked about goes into ``asked``."""
    def handler(body: Any) -> Reply:
        if _role(body) == "extractor":
            return _extract(body)
        if asked is not None:
            asked.append(_user(body))
        return Reply.json(verdict)
    return handler


def test_the_judge_decides_each_candidate_pair(
        gateway_client: tuple[TestClient, FakeLLM]) -> None:
    client, llm = gateway_client
    verdicts = [
        {"reasoning": "Both give the launch date; June 12 is not June 19.",
         "verdict": "contradicts", "kind": "date"},
    ]

    def handler(body: Any) -> Reply:
        if _role(body) == "extractor":
            return _extract(body)
        user = _user(body)
        assert "<<<A" in user and "<<<B" in user  # both statements, marked as data
        return Reply.json(verdicts.pop(0)) if verdicts else Reply.text("not json at all")

    llm.on_request(handler)
    ws = client.post("/api/workspaces", json={"name": "judge"}).json()["id"]
    add_source(client, ws, JUNE12, title="March")
    april = add_source(client, ws, JUNE19, title="April")
    (k,) = april["conflicts"]
    assert k["kind"] == "date" and k["detected_by"] == "gpt-4o-mini"
    assert k["reason"] == "Both give the launch date; June 12 is not June 19."
    judge_calls = [m for m in april["model_calls"] if m["role"] == "conflict_judge"]
    assert len(judge_calls) == 1 and judge_calls[0]["ok"]
    assert judge_calls[0]["prompt_tokens"] == 21
    sent = [b for b in llm.bodies if _role(b) == "judge"]
    assert len(sent) == 1 and sent[0]["response_format"]["type"] == "json_schema"
    schema = sent[0]["response_format"]["json_schema"]["schema"]
    assert next(iter(schema["properties"])) == "reasoning"

    # A pair without a shared type of value is not worth a call; a garbage answer raises
    # nothing, and the claims are stored whatever the judge did.
    before = len([b for b in llm.bodies if _role(b) == "judge"])
    other = add_source(client, ws, "The launch venue is the Grand Hotel.", title="Venue")
    assert other["conflicts"] == [] and len(other["claims"]) == 1
    assert len([b for b in llm.bodies if _role(b) == "judge"]) == before
    third = add_source(client, ws, "The launch moves to June 26.", title="May")
    assert third["conflicts"] == [] and len(third["claims"]) == 1
    failed = [m for m in third["model_calls"] if m["role"] == "conflict_judge"]
    assert failed and not any(m["ok"] for m in failed)
    assert llm.unscripted == 0


def test_the_judge_is_asked_about_a_pair_found_by_meaning_alone(
        gateway_client: tuple[TestClient, FakeLLM]) -> None:
    """Two statements whose subjects share no word, near in meaning: the detector's reading
    would not call them the same thing, so the model is asked, and its verdict raises the
    conflict. A pair whose values agree is not asked about."""
    client, llm = gateway_client
    asked: list[str] = []

    llm.on_request(_judge_always({
        "reasoning": "The release is the launch; June 12 is not June 19.",
        "verdict": "contradicts", "kind": "date"}, asked))
    ws = client.post("/api/workspaces", json={"name": "meaning"}).json()["id"]
    launch = add_source(client, ws, JUNE12)
    release = add_source(client, ws, "The release goes live on June 19.", title="Release notes")
    (k,) = release["conflicts"]
    assert {c["id"] for c in claims_of(k)} == {launch["claims"][0]["id"],
                                               release["claims"][0]["id"]}
    assert k["reason"] == "The release is the launch; June 12 is not June 19."
    assert len(asked) == 1 and JUNE12 in asked[0]
    embedded = [m for m in release["model_calls"] if m["role"] == "embedder"]
    assert embedded and all(m["ok"] for m in embedded)
    same = add_source(client, ws, "The release goes live on June 12.", title="Calendar")
    assert not any(JUNE12 in a for a in asked[1:])
    assert [{c["statement"] for c in claims_of(x)} for x in same["conflicts"]] == [
        {"The release goes live on June 19.", "The release goes live on June 12."}]


def test_a_judge_that_calls_everything_a_contradiction_raises_only_what_the_reading_backs(
        gateway_client: tuple[TestClient, FakeLLM]) -> None:
    client, llm = gateway_client
    asked: list[str] = []

    llm.on_request(_judge_always(
        {"reasoning": "They differ.", "verdict": "contradicts", "kind": "date"}, asked))
    ws = client.post("/api/workspaces", json={"name": "judge says yes"}).json()["id"]
    add_source(client, ws, "The conference starts on May 3.", title="Dates")
    # Another attribute of the same subject: worth asking (both dates), not a contradiction.
    ends = add_source(client, ws, "The conference ends on May 5.", title="End")
    assert len(asked) == 1 and ends["conflicts"] == []
    [call] = [m for m in ends["model_calls"] if m["role"] == "conflict_judge"]
    assert call["ok"] and call["detail"]["verdict"] == "contradicts"
    assert call["detail"]["overruled"] is True
    # The same attribute with another value: the reading backs it, and it stands.
    moved = add_source(client, ws, "The conference starts on May 10.", title="Moved")
    [k] = moved["conflicts"]
    assert k["kind"] == "date" and k["reason"] == "They differ."
    overruled = [m["detail"].get("overruled", False) for m in moved["model_calls"]
                 if m["role"] == "conflict_judge"]
    assert overruled.count(False) == 1
    open_conflicts = client.get(f"/api/workspaces/{ws}/conflicts").json()["items"]
    assert len(open_conflicts) == 1


def test_a_judge_that_calls_everything_the_same_fact_clears_nothing_the_reading_flags(
        gateway_client: tuple[TestClient, FakeLLM]) -> None:
    client, llm = gateway_client

    llm.on_request(_judge_always(
        {"reasoning": "Same thing.", "verdict": "same_fact", "kind": "other"}))
    ws = client.post("/api/workspaces", json={"name": "judge says same"}).json()["id"]
    add_source(client, ws, JUNE12, title="March")
    april = add_source(client, ws, JUNE19, title="April")
    # June 12 and June 19 are not the same fact: the reading's verdict stands.
    [k] = april["conflicts"]
    assert k["kind"] == "date" and k["reason"].startswith("The judge said these state the same")
    [call] = [m for m in april["model_calls"] if m["role"] == "conflict_judge"]
    assert call["detail"]["verdict"] == "same_fact" and call["detail"]["overruled"] is True
