"""What was said, by whom, when (docs/rules.md, rule 11): conversations through the API on
the real FalkorDB."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests.support.conflicts import claims_of
from tests.support.fakellm import FakeLLM, Reply
from tests.support.graphs import violations

T0 = 1_780_000_000_000  # 2026-05-28, a fixed moment the messages are said at
MINUTE = 60_000

THREE = [
    {"speaker": "Ana", "text": "Hi all. The launch is on June 12.", "at": T0},
    {"speaker": "Ben", "text": "Thanks Ana. The venue is the Grand Hotel.", "at": T0 + MINUTE},
    {"speaker": "Ana", "text": "The budget is 12,000 euros.", "at": T0 + 2 * MINUTE},
]


def _post(client: TestClient, path: str, body: dict[str, Any], status: int = 201
          ) -> dict[str, Any]:
    r = client.post(path, json=body)
    assert r.status_code == status, r.text
    return dict(r.json())


def _claim(body: dict[str, Any], statement: str) -> dict[str, Any]:
    return next(c for c in body["claims"] if c["statement"] == statement)


def test_three_messages_claims_quote_their_message_with_speaker_and_time(
        client: TestClient, ws: str, falkordb: str) -> None:
    made = _post(client, f"/api/workspaces/{ws}/sources",
                 {"title": "Launch chat", "messages": THREE})
    source = made["source"]
    assert source["kind"] == "conversation" and source["message_count"] == 3
    [version] = source["versions"]
    frags = version["fragments"]
    assert [(f["speaker"], f["said_at"], f["message_index"]) for f in frags] == [
        ("Ana", T0, 0), ("Ben", T0 + MINUTE, 1), ("Ana", T0 + 2 * MINUTE, 2)]
    # Each fragment is exactly its message, at its offsets in the version text.
    for f, m in zip(frags, THREE, strict=True):
        assert f["text"] == m["text"] == version["text"][f["start"]:f["end"]]
    launch = _claim(made, "The launch is on June 12.")
    assert launch["said_by"] == "Ana" and launch["said_at"] == T0
    assert launch["valid_from"] == T0  # valid from when it was said
    venue = _claim(made, "The venue is the Grand Hotel.")
    assert venue["said_by"] == "Ben" and venue["said_at"] == T0 + MINUTE
    for c in made["claims"]:
        frag = next(f for f in frags if f["id"] == c["fragment_id"])
        assert frag["start"] <= c["quote_start"] < c["quote_end"] <= frag["end"]
        assert version["text"][c["quote_start"]:c["quote_end"]] == c["evidence_quote"]
    read = client.get(f"/api/workspaces/{ws}/claims/{venue['id']}").json()
    assert read["said_by"] == "Ben" and read["said_at"] == T0 + MINUTE
    [ev] = read["evidence"]
    assert ev["speaker"] == "Ben" and ev["said_at"] == T0 + MINUTE and ev["message_index"] == 1
    assert [s["text"] for s in ev["segments"] if s["highlight"]] == [
        "The venue is the Grand Hotel."]
    assert "".join(s["text"] for s in ev["segments"]) == THREE[1]["text"]
    assert violations(falkordb, ws) == []


def test_appending_a_moved_date_raises_a_newer_same_speaker_conflict_and_reads_only_it(
        client: TestClient, ws: str, falkordb: str) -> None:
    made = _post(client, f"/api/workspaces/{ws}/sources",
                 {"title": "Launch chat", "messages": THREE})
    sid = made["source"]["id"]
    first = made["source"]["versions"][0]
    moved = _post(client, f"/api/workspaces/{ws}/sources/{sid}/messages",
                  {"messages": [{"speaker": "Ana",
                                 "text": "Sorry, a change. The launch is on June 19.",
                                 "at": T0 + 10 * MINUTE}]})
    # Only the new message was read: one extraction call, for its one fragment.
    assert [m["role"] for m in moved["model_calls"]].count("extractor") == 1
    assert moved["source"]["message_count"] == 4
    [v2] = moved["source"]["versions"]
    assert v2["version"] == 2 and [f["message_index"] for f in v2["fragments"]] == [3]
    june19 = _claim(moved, "The launch is on June 19.")
    assert june19["said_by"] == "Ana" and june19["said_at"] == T0 + 10 * MINUTE
    [conflict] = moved["conflicts"]
    june12 = _claim(made, "The launch is on June 12.")
    assert conflict["status"] == "open" and conflict["kind"] == "date"
    assert conflict["newer_claim_id"] == june19["id"] and conflict["same_speaker"] is True
    sides = {c["id"]: c for c in claims_of(conflict)}
    assert sides[june12["id"]]["said_at"] == T0 and sides[june19["id"]]["said_by"] == "Ana"
    # The earlier messages are unchanged: the first version is as it was.
    whole = client.get(f"/api/workspaces/{ws}/sources/{sid}").json()
    assert whole["versions"][0] == first
    # An answer holds the source as a read of it does (an append's, its new version alone).
    assert made["source"] == {**whole, "revision": 1, "latest_version": 1,
                              "message_count": 3, "versions": [first]}
    assert moved["source"] == {**whole, "versions": whole["versions"][1:]}
    assert [f["message_index"] for v in whole["versions"] for f in v["fragments"]] == [
        0, 1, 2, 3]
    # Without latest_wins, nothing is superseded: a reviewer decides.
    assert client.get(f"/api/workspaces/{ws}/claims/{june12['id']}").json()[
        "status"] == "proposed"
    assert violations(falkordb, ws) == []


def test_a_different_speaker_is_marked_and_a_document_is_not_a_speaker(
        client: TestClient, ws: str) -> None:
    made = _post(client, f"/api/workspaces/{ws}/sources",
                 {"title": "Offices", "messages": [
                     {"speaker": "Ana", "text": "The team office is in Berlin.", "at": T0}]})
    sid = made["source"]["id"]
    other = _post(client, f"/api/workspaces/{ws}/sources/{sid}/messages",
                  {"messages": [{"speaker": "Ben", "text": "The team office is in Munich.",
                                 "at": T0 - MINUTE}]})
    [conflict] = other["conflicts"]
    berlin = _claim(made, "The team office is in Berlin.")
    assert conflict["same_speaker"] is False
    assert conflict["newer_claim_id"] == berlin["id"]  # Ben spoke first, by his time


def test_bad_conversations_are_refused_and_change_nothing(client: TestClient,
                                                          ws: str) -> None:
    base = f"/api/workspaces/{ws}/sources"
    for body in ({"title": "x", "messages": []},
                 {"title": "x", "messages": [{"speaker": "", "text": "Hi there all."}]},
                 {"title": "x", "messages": [{"speaker": "A", "text": "Hi.", "at": True}]},
                 {"title": "x", "messages": [{"speaker": "A", "text": "Hi.", "at": "soon"}]},
                 {"title": "x", "text": "Both.", "messages": [{"speaker": "A", "text": "Hi."}]},
                 {"title": "x"}):
        r = client.post(base, json=body)
        assert r.status_code == 422, (body, r.text)
        assert r.json()["error"]["code"] == "invalid_request"
    doc = _post(client, base, {"title": "Memo", "text": "The launch is on June 12."})
    r = client.post(f"{base}/{doc['source']['id']}/messages",
                    json={"messages": [{"speaker": "A", "text": "Hello there everyone."}]})
    assert r.status_code == 409 and r.json()["error"]["code"] == "source_kind_mismatch"
    chat = _post(client, base, {"title": "Chat", "messages": [
        {"speaker": "A", "text": "Hello there everyone."}]})
    r = client.post(base, json={"title": "Chat", "text": "Replaced text here.",
                                "source_id": chat["source"]["id"]})
    assert r.status_code == 409 and r.json()["error"]["code"] == "source_kind_mismatch"
    r = client.post(f"{base}/00000000-0000-4000-8000-000000000000/messages",
                    json={"messages": [{"speaker": "A", "text": "Hello there everyone."}]})
    assert r.status_code == 404 and r.json()["error"]["code"] == "source_not_found"
    listed = client.get(base).json()["items"]
    assert [s["title"] for s in listed] == ["Memo", "Chat"]
    assert [s["kind"] for s in listed] == ["text", "conversation"]


def test_a_message_without_a_time_takes_the_time_it_was_received(client: TestClient,
                                                                  ws: str) -> None:
    before = client.get("/api/ping").status_code and __import__("time").time_ns() // 10**6
    made = _post(client, f"/api/workspaces/{ws}/sources",
                 {"title": "Chat", "messages": [{"speaker": "Ana",
                                                  "text": "The launch is on June 12."}]})
    after = __import__("time").time_ns() // 10**6
    [frag] = made["source"]["versions"][0]["fragments"]
    assert before <= frag["said_at"] <= after
    assert made["claims"][0]["said_at"] == frag["said_at"]


def test_latest_wins_supersedes_a_speakers_older_statement_at_once(
        client: TestClient, ws: str, falkordb: str) -> None:
    r = client.patch(f"/api/workspaces/{ws}", json={"updates": "latest_wins"})
    assert r.status_code == 200 and r.json()["updates"] == "latest_wins", r.text
    base = f"/api/workspaces/{ws}/sources"
    made = _post(client, base, {"title": "Ana's notes", "messages": [
        {"speaker": "Ana", "text": "My office is in Berlin.", "at": T0}]})
    berlin = _claim(made, "My office is in Berlin.")
    run = _post(client, f"/api/workspaces/{ws}/agent-runs",
                {"task": "Where is the office?"})
    decision = run["decision"]
    assert [c["id"] for p in decision["premises"] for c in p["claims"]] == [berlin["id"]]
    assert decision["status"] == "draft"
    before = client.get(f"/api/workspaces/{ws}/timeline").json()["now"]

    moved = _post(client, f"{base}/{made['source']['id']}/messages", {"messages": [
        {"speaker": "Ana", "text": "My office is in Munich.", "at": T0 + MINUTE}]})
    munich = _claim(moved, "My office is in Munich.")
    [conflict] = moved["conflicts"]
    assert conflict["status"] == "resolved" and conflict["resolved_by"] == "policy"
    assert conflict["kept_claim_id"] == munich["id"] and conflict["same_speaker"] is True
    assert moved["retired"] == [{"claim_id": berlin["id"], "statement": berlin["statement"],
                                 "status": "superseded", "superseded_by": munich["id"]}]
    assert moved["flagged"] == [decision["id"]]
    assert [f["decision_id"] for f in moved["flag"]] == [decision["id"]]

    now_berlin = client.get(f"{base[:-8]}/claims/{berlin['id']}").json()
    assert now_berlin["status"] == "superseded"
    assert now_berlin["superseded_by"]["id"] == munich["id"]
    [corr] = now_berlin["corrections"]
    assert corr["kind"] == "supersede" and corr["reviewer"] == "policy"
    flagged = client.get(f"/api/workspaces/{ws}/decisions/{decision['id']}").json()
    assert flagged["status"] == "needs_review"
    assert flagged["review_reason"]["type"] == "conflict_resolved"
    audit = client.get(f"/api/workspaces/{ws}/audit").json()["items"]
    resolved = [e for e in audit if e["kind"] == "conflict.resolved"]
    assert [e["detail"]["reviewer"] for e in resolved] == ["policy"]
    assert resolved[0]["detail"]["superseded"] == [berlin["id"]]

    # As of before the append, Berlin is the current claim and the decision stands.
    then = client.get(f"{base[:-8]}/claims/{berlin['id']}?as_of={before}").json()
    assert then["status"] == "proposed" and then["superseded_by"] is None
    assert client.get(f"/api/workspaces/{ws}/decisions/{decision['id']}?as_of={before}"
                      ).json()["status"] == "draft"
    listed = client.get(f"{base[:-8]}/claims?q=office&as_of={before}").json()["items"]
    assert [c["id"] for c in listed] == [berlin["id"]]
    assert violations(falkordb, ws) == []


def test_latest_wins_leaves_another_speakers_statement_to_a_reviewer(
        client: TestClient, ws: str) -> None:
    assert client.patch(f"/api/workspaces/{ws}", json={"updates": "latest_wins"}
                        ).status_code == 200
    base = f"/api/workspaces/{ws}/sources"
    made = _post(client, base, {"title": "Chat", "messages": [
        {"speaker": "Ana", "text": "The launch is on June 12.", "at": T0}]})
    other = _post(client, f"{base}/{made['source']['id']}/messages", {"messages": [
        {"speaker": "Ben", "text": "The launch is on June 19.", "at": T0 + MINUTE}]})
    [conflict] = other["conflicts"]
    assert conflict["status"] == "open" and conflict["same_speaker"] is False
    assert other["retired"] == []
    # The same statement in a document is not Ana's to take back either.
    _post(client, base, {"title": "Memo", "text": "The launch is on June 19."})
    again = _post(client, f"{base}/{made['source']['id']}/messages", {"messages": [
        {"speaker": "Ben", "text": "The launch is on June 26.", "at": T0 + 2 * MINUTE}]})
    assert again["retired"] == []
    assert {k["status"] for k in again["conflicts"]} == {"open"}


def test_updates_takes_only_its_two_words(
        client: TestClient, ws: str) -> None:
    for body in ({"updates": "newest"}, {"updates": True}, {}, {"updates": "review", "x": 1}):
        r = client.patch(f"/api/workspaces/{ws}", json=body)
        assert r.status_code == 422, (body, r.text)
    assert client.get(f"/api/workspaces/{ws}").json()["updates"] == "review"


def test_messages_of_one_request_are_compared_with_each_other(
        client: TestClient, ws: str, falkordb: str) -> None:
    made = _post(client, f"/api/workspaces/{ws}/sources", {"title": "Transcript", "messages": [
        {"speaker": "Ana", "text": "The launch is on June 12.", "at": T0},
        {"speaker": "Ben", "text": "The venue is the Grand Hotel.", "at": T0 + MINUTE},
        {"speaker": "Ana", "text": "The launch is on June 19.", "at": T0 + 2 * MINUTE}]})
    [conflict] = made["conflicts"]
    june19 = _claim(made, "The launch is on June 19.")
    assert conflict["kind"] == "date" and conflict["status"] == "open"
    assert conflict["newer_claim_id"] == june19["id"] and conflict["same_speaker"] is True
    assert violations(falkordb, ws) == []


def test_latest_wins_within_one_request(client: TestClient, ws: str, falkordb: str) -> None:
    assert client.patch(f"/api/workspaces/{ws}", json={"updates": "latest_wins"}
                        ).status_code == 200
    made = _post(client, f"/api/workspaces/{ws}/sources", {"title": "Moves", "messages": [
        {"speaker": "Ana", "text": "My office is in Berlin.", "at": T0},
        {"speaker": "Ana", "text": "My office is in Munich.", "at": T0 + MINUTE},
        {"speaker": "Ana", "text": "My office is in Hamburg.", "at": T0 + 2 * MINUTE}]})
    hamburg = _claim(made, "My office is in Hamburg.")
    assert {r["statement"] for r in made["retired"]} == {
        "My office is in Berlin.", "My office is in Munich."}
    assert all(r["superseded_by"] == hamburg["id"] for r in made["retired"])
    current = client.get(f"/api/workspaces/{ws}/claims").json()["items"]
    assert [c["statement"] for c in current] == [hamburg["statement"]]
    assert violations(falkordb, ws) == []


def test_a_message_read_again_after_a_failed_extraction_keeps_its_speaker(
        gateway_client: tuple[TestClient, FakeLLM]) -> None:
    client, fakellm = gateway_client
    ws = client.post("/api/workspaces", json={"name": "retry"}).json()["id"]
    fakellm.script(Reply.error(429, "Rate limit reached", code="rate_limit_exceeded"))
    made = _post(client, f"/api/workspaces/{ws}/sources", {"title": "Chat", "messages": [
        {"speaker": "Ana", "text": "The launch is on June 12.", "at": T0}]})
    assert made["claims"] == [] and len(made["failed_fragments"]) == 1
    fakellm.script(Reply.json({"claims": [{"statement": "The launch is on June 12.",
                                           "evidence_quote": "The launch is on June 12."}]}))
    again = client.post(f"/api/workspaces/{ws}/sources/{made['source']['id']}/extract")
    assert again.status_code == 200, again.text
    [claim] = again.json()["claims"]
    assert claim["said_by"] == "Ana" and claim["said_at"] == T0 and claim["valid_from"] == T0
