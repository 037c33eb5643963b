"""A misbehaving model never gets a claim stored (docs/rules.md, rules 1 and 14).

The app runs on the real FalkorDB and reaches a scripted model over real HTTP. Whatever
the model does (paraphrase, invent, mismatch, garbage, 429, silence), the source is stored
whole, every bad claim is counted under its reason, and the graph holds only claims whose
quote is verbatim in their fragment, each with its SUPPORTED_BY edge.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from pydantic import SecretStr

from afterhack.config import Settings
from afterhack.rules.chunking import split_fragments
from tests.support.api import new_workspace
from tests.support.fakellm import FakeLLM, Reply
from tests.support.graphs import snapshot
from tests.support.settings import make_settings

FRAGMENT_MAX = 60  # small, so each sentence below is a fragment of its own


@pytest.fixture
def gateway_settings(falkordb: str, fakellm: FakeLLM, tmp_path: Path) -> Settings:
    return make_settings(falkordb_url=falkordb, data_dir=tmp_path,
                         openai_base_url=fakellm.base_url, openai_api_key=SecretStr("test-key"),
                         llm_timeout_s=1.0, fragment_max_chars=FRAGMENT_MAX)


def fragment_of(body: Any) -> str:
    """The fragment the app asked about (the prompt wraps it in marker lines)."""
    user = next(m["content"] for m in body["messages"] if m["role"] == "user")
    assert isinstance(user, str)
    return user.split("<<<FRAGMENT\n", 1)[1].rsplit("\nFRAGMENT>>>", 1)[0]


def claims(*pairs: tuple[str, str]) -> Reply:
    return Reply.json({"claims": [{"statement": s, "evidence_quote": q} for s, q in pairs]})


def graph_of(falkordb: str, ws: str) -> tuple[dict[str, list[dict[str, Any]]], list[Any]]:
    dump = snapshot(falkordb, ws)
    nodes: dict[str, list[dict[str, Any]]] = {}
    for n in dump["nodes"]:
        for label in n["labels"]:
            nodes.setdefault(label, []).append(n["properties"])
    return nodes, dump["edges"]


def assert_stored_whole(client: TestClient, falkordb: str, ws: str, body: dict[str, Any],
                        text: str) -> dict[str, list[dict[str, Any]]]:
    """The source, its one version and all its fragments are there, and every claim in
    the graph is one the response reported as kept, with its SUPPORTED_BY edge."""
    src = client.get(f"/api/workspaces/{ws}/sources/{body['source']['id']}").json()
    [version] = src["versions"]
    assert version["text"] == text
    expected = split_fragments(text, FRAGMENT_MAX)
    assert [(f["start"], f["end"]) for f in version["fragments"]] == [
        (s.start, s.end) for s in expected]
    assert "".join(f["text"] for f in version["fragments"]) == text

    nodes, edges = graph_of(falkordb, ws)
    assert len(nodes["Source"]) == 1 and len(nodes["SourceVersion"]) == 1
    assert len(nodes["SourceFragment"]) == len(expected)
    stored = nodes.get("Claim", [])
    assert sorted(c["id"] for c in stored) == sorted(c["id"] for c in body["claims"])
    supported = {(e["source"], e["target"]) for e in edges if e["type"] == "SUPPORTED_BY"}
    fragment_ids = {f["id"] for f in nodes["SourceFragment"]}
    for c in stored:
        assert (c["id"], c["fragment_id"]) in supported
        assert c["fragment_id"] in fragment_ids
        assert text[c["quote_start"]:c["quote_end"]] == c["evidence_quote"]
    return nodes


TEXT = "The launch is set for June 12 in Lisbon."

CASES = {
    "paraphrased quote": (
        [claims(("The launch is set for June 12 in Lisbon.",
                 "The launch will take place on June 12 in Lisbon."),
                # A near miss is a miss: one lower-case letter is enough.
                ("The launch is set for June 12 in Lisbon.",
                 "the launch is set for June 12 in Lisbon."))],
        {"quote_not_found": 2}, [], 1),
    "invented quote": (
        [claims(("The budget is 2 million euros.", "The budget is 2 million euros."))],
        {"quote_not_found": 1}, [], 1),
    "true quote, wrong statement": (
        [claims(("The launch is set for July 15 in Lisbon.", TEXT))],
        {"statement_not_in_quote": 1}, [], 1),
    "non-JSON twice": (
        [Reply.text("I found one claim: the launch is in June."), Reply.text("{claims: [}")],
        {"invalid_output": 1}, ["llm_invalid_output"], 2),
    "cut at max_tokens": (
        [Reply(content='{"claims": [{"statement": "The launch is set for June 12 in Lisbon.", '
                       '"evidence_quote": "The launch is set for June 12', finish_reason="length")],
        {"cut_at_max_tokens": 1}, ["llm_invalid_output"], 1),
    "rate limited": (
        [Reply.error(429, "Rate limit reached", code="rate_limit_exceeded")],
        {}, ["llm_gateway_unavailable"], 1),
    "timeout": (
        [Reply.json({"claims": [{"statement": TEXT, "evidence_quote": TEXT}]}, delay_s=1.5)],
        {}, ["llm_gateway_timeout"], 1),
}


@pytest.mark.parametrize("case", list(CASES))
def test_misbehaving_model_stores_no_claim(
    gateway_client: tuple[TestClient, FakeLLM], falkordb: str, case: str
) -> None:
    client, fakellm = gateway_client
    replies, dropped, failed, n_requests = CASES[case]
    fakellm.script(*replies)
    ws = new_workspace(client, "gateway extraction")

    r = client.post(f"/api/workspaces/{ws}/sources", json={"title": "Memo", "text": TEXT})

    assert r.status_code == 201, r.text
    body = r.json()
    assert body["claims"] == []
    assert body["dropped"] == dropped
    assert [f["error"] for f in body["failed_fragments"]] == failed
    assert len(fakellm.requests) == n_requests and fakellm.pending == 0
    [call] = body["model_calls"]
    assert call["role"] == "extractor" and call["ok"] is (not failed)
    # A failed call's time is recorded too (here the 1 s timeout at least).
    assert call["duration_ms"] >= (900 if case == "timeout" else 0.01)
    assert call.get("detail", {}).get("finish_reason") == (
        "length" if case == "cut at max_tokens" else None)
    nodes = assert_stored_whole(client, falkordb, ws, body, TEXT)
    assert "Claim" not in nodes
    [fragment] = nodes["SourceFragment"]
    assert fragment["extraction"] == ("failed" if failed else "done")
    assert "test-key" not in r.text and fakellm.url not in r.text


SENTENCES = [
    "The launch is set for June 12 in Lisbon. ",  # good
    "Acme ships the beta to 40 customers. ",  # paraphrased quote
    "The venue holds 300 guests at most. ",  # invented quote
    "Registration closes on May 30. ",  # true quote, wrong statement
    "Catering is handled by Bella Foods. ",  # not JSON, twice
    "Speakers arrive two days early. ",  # 429
    "Badges are printed on site by the volunteers.",  # too slow
]
MIXED = "".join(SENTENCES)


def mixed_model(body: Any) -> Reply:
    fragment = fragment_of(body)
    if "Lisbon" in fragment:
        return claims(("The launch is set for June 12 in Lisbon.",
                       "launch is set for June 12 in Lisbon"))
    if "Acme" in fragment:
        return claims(("Acme ships the beta to 40 customers.",
                       "Acme will ship the beta to 40 customers"))
    if "venue" in fragment:
        return claims(("The venue has free parking.", "The venue has free parking."))
    if "Registration" in fragment:
        return claims(("Registration closes on May 31.", "Registration closes on May 30."))
    if "Catering" in fragment:
        return Reply.text("Catering: Bella Foods (no JSON today)")
    if "Speakers" in fragment:
        return Reply.error(429, code="rate_limit_exceeded")
    # Badges: a good claim, but later than the 1 s timeout.
    return Reply.json({"claims": [{"statement": "Badges are printed on site.",
                                   "evidence_quote": "Badges are printed on site"}]},
                      delay_s=1.5)


def test_one_source_with_every_failure_keeps_only_the_good_claim(
    gateway_client: tuple[TestClient, FakeLLM], falkordb: str
) -> None:
    client, fakellm = gateway_client
    assert len(split_fragments(MIXED, FRAGMENT_MAX)) == len(SENTENCES)

    def model(body: Any) -> Reply:
        fragment = fragment_of(body)
        assert fragment in SENTENCES  # each fragment is sent exactly as stored
        return mixed_model(body)

    fakellm.on_request(model)
    ws = new_workspace(client, "gateway extraction")

    r = client.post(f"/api/workspaces/{ws}/sources", json={"title": "Offsite", "text": MIXED})

    assert r.status_code == 201, r.text
    body = r.json()
    assert fakellm.handler_errors == [] and fakellm.unscripted == 0
    assert len(fakellm.requests) == len(SENTENCES) + 1  # the non-JSON fragment was re-asked
    assert body["dropped"] == {"quote_not_found": 2, "statement_not_in_quote": 1,
                               "invalid_output": 1}
    assert [(f["seq"], f["error"]) for f in body["failed_fragments"]] == [
        (4, "llm_invalid_output"), (5, "llm_gateway_unavailable"), (6, "llm_gateway_timeout")]
    [kept] = body["claims"]
    quote = "launch is set for June 12 in Lisbon"
    assert kept["evidence_quote"] == quote
    assert (kept["quote_start"], kept["quote_end"]) == (MIXED.index(quote),
                                                        MIXED.index(quote) + len(quote))

    nodes = assert_stored_whole(client, falkordb, ws, body, MIXED)
    [claim] = nodes["Claim"]
    assert claim["statement"] == "The launch is set for June 12 in Lisbon."
    assert claim["status"] == "proposed" and claim["confidence_kind"] == "quote_match"
    by_seq = {f["seq"]: f for f in nodes["SourceFragment"]}
    assert claim["fragment_id"] == by_seq[0]["id"]
    assert [by_seq[i]["extraction"] for i in range(len(SENTENCES))] == (
        ["done"] * 4 + ["failed"] * 3)
    calls = body["model_calls"]
    assert sum(c["ok"] for c in calls) == 4
    assert sorted(c["error"] for c in calls if not c["ok"]) == [
        "llm_gateway_timeout", "llm_gateway_unavailable", "llm_invalid_output"]


EMOJI = "🚀🎉 Kick-off notes for the team offsite. The launch is set for June 12 in Lisbon."


def test_good_and_bad_claim_in_one_reply_keeps_the_good_one_at_code_point_offsets(
    gateway_client: tuple[TestClient, FakeLLM], falkordb: str
) -> None:
    client, fakellm = gateway_client
    assert len(split_fragments(EMOJI, FRAGMENT_MAX)) == 2
    quote = "launch is set for June 12 in Lisbon"

    def model(body: Any) -> Reply:
        if "Kick-off" in fragment_of(body):
            return claims()
        return claims(("The launch is set for June 12 in Lisbon.", quote),
                      ("The launch is set for June 12 in Porto.",
                       "launch is set for June 12 in Porto"))

    fakellm.on_request(model)
    ws = new_workspace(client, "gateway extraction")

    r = client.post(f"/api/workspaces/{ws}/sources", json={"title": "Kick-off", "text": EMOJI})

    assert r.status_code == 201, r.text
    body = r.json()
    assert body["dropped"] == {"quote_not_found": 1} and body["failed_fragments"] == []
    start = EMOJI.index(quote)
    # Code points, not UTF-16 units: the two emoji before the quote count once each.
    assert len(EMOJI[:start].encode("utf-16-le")) // 2 == start + 2
    [kept] = body["claims"]
    assert (kept["quote_start"], kept["quote_end"]) == (start, start + len(quote))

    nodes = assert_stored_whole(client, falkordb, ws, body, EMOJI)
    [claim] = nodes["Claim"]
    assert (claim["quote_start"], claim["quote_end"]) == (start, start + len(quote))
    assert EMOJI[claim["quote_start"]:claim["quote_end"]] == quote
    by_seq = {f["seq"]: f for f in nodes["SourceFragment"]}
    assert claim["fragment_id"] == by_seq[1]["id"] and by_seq[1]["start"] > 0
