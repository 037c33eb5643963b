"""Conversations read as people talk, and memos compared across languages (docs/rules.md,
rules 9 and 11): through the API, on the real FalkorDB, with the offline model and its
embeddings."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests.support.chat import MINUTE, T0, Chat
from tests.support.chat import claim_said as _claim
from tests.support.chat import post as _post
from tests.support.conflicts import claims_of
from tests.support.graphs import violations


def _open_conflicts(client: TestClient, ws: str) -> list[dict[str, Any]]:
    return list(client.get(f"/api/workspaces/{ws}/conflicts?status=open").json()["items"])


OFFSITE = "The team offsite is on March 14."
CORRECTION = "Correction: the team offsite is on March 21, not March 14."


def test_a_spoken_correction_conflicts_with_what_it_corrects(client: TestClient, ws: str,
                                                              falkordb: str) -> None:
    chat = Chat(client, ws)
    first = chat.say("Tom", OFFSITE, T0)
    fixed = chat.say("Tom", CORRECTION, T0 + MINUTE)
    [conflict] = fixed["conflicts"]
    march14, march21 = _claim(first, OFFSITE), _claim(fixed, CORRECTION)
    assert {c["id"] for c in claims_of(conflict)} == {march14["id"], march21["id"]}
    assert conflict["kind"] == "date" and conflict["status"] == "open"
    assert conflict["newer_claim_id"] == march21["id"] and conflict["same_speaker"] is True
    # Under review nothing is superseded: the reviewer decides.
    assert client.get(f"/api/workspaces/{ws}/claims/{march14['id']}").json()[
        "status"] == "proposed"
    assert violations(falkordb, ws) == []


def test_under_latest_wins_a_spoken_correction_supersedes_at_once(
        client: TestClient, ws: str, falkordb: str) -> None:
    assert client.patch(f"/api/workspaces/{ws}", json={"updates": "latest_wins"}
                        ).status_code == 200
    chat = Chat(client, ws)
    first = chat.say("Tom", OFFSITE, T0)
    fixed = chat.say("Tom", CORRECTION, T0 + MINUTE)
    march14, march21 = _claim(first, OFFSITE), _claim(fixed, CORRECTION)
    [conflict] = fixed["conflicts"]
    assert conflict["status"] == "resolved" and conflict["kept_claim_id"] == march21["id"]
    assert fixed["retired"] == [{"claim_id": march14["id"], "statement": OFFSITE,
                                 "status": "superseded", "superseded_by": march21["id"]}]
    current = client.get(f"/api/workspaces/{ws}/claims").json()["items"]
    assert [c["statement"] for c in current] == [CORRECTION]
    assert violations(falkordb, ws) == []


def test_my_flight_is_the_speakers_and_a_follow_up_is_read_with_its_sentence(
        client: TestClient, ws: str, falkordb: str) -> None:
    chat = Chat(client, ws)
    ana = chat.say("Ana", "My flight lands at 7:40.", T0)
    ben = chat.say("Ben", "My flight lands at 11:00.", T0 + MINUTE)
    assert ben["conflicts"] == []  # Ben's flight is not Ana's
    moved = chat.say("Ana", "I changed my flight. It lands at 9:15 now.", T0 + 2 * MINUTE)
    # The follow-up is read with the sentence before it: one claim, its quote both, exact.
    [claim] = moved["claims"]
    assert claim["statement"] == claim["evidence_quote"] == \
        "I changed my flight. It lands at 9:15 now."
    version = moved["source"]["versions"][0]
    assert version["text"][claim["quote_start"]:claim["quote_end"]] == claim["evidence_quote"]
    [conflict] = moved["conflicts"]
    sides = {c["id"] for c in claims_of(conflict)}
    assert sides == {_claim(ana, "My flight lands at 7:40.")["id"], claim["id"]}
    assert conflict["kind"] == "time" and conflict["newer_claim_id"] == claim["id"]
    assert conflict["same_speaker"] is True
    ben_claim = _claim(ben, "My flight lands at 11:00.")["id"]
    assert all(ben_claim not in {c["id"] for c in claims_of(k)}
               for k in _open_conflicts(client, ws))
    assert violations(falkordb, ws) == []


def _memo(client: TestClient, ws: str, title: str, text: str) -> dict[str, Any]:
    return _post(client, f"/api/workspaces/{ws}/sources", {"title": title, "text": text})


def test_memos_in_english_german_and_chinese_on_one_fact_conflict(
        client: TestClient, ws: str, falkordb: str) -> None:
    _memo(client, ws, "Plan", "The product launch is on June 12. "
                              "The event budget is 40,000 euros.")
    german = _memo(client, ws, "Plan (de)", "Das Budget der Veranstaltung beträgt 50.000 Euro.")
    [budget_de] = german["conflicts"]
    assert budget_de["kind"] == "amount"
    chinese = _memo(client, ws, "Plan (zh)", "产品发布定于6月19日。活动预算为五万欧元。")
    kinds = sorted(c["kind"] for c in chinese["conflicts"])
    english = {"The product launch is on June 12.", "The event budget is 40,000 euros."}
    against_english = [c for c in chinese["conflicts"]
                       if english & {s["statement"] for s in claims_of(c)}]
    assert sorted(c["kind"] for c in against_english) == ["amount", "date"], kinds
    # The German and the Chinese budgets agree: one value, one side of the dispute.
    budget = client.get(f"/api/workspaces/{ws}/conflicts/{budget_de['id']}").json()
    assert {s["value"]: {c["statement"] for c in s["claims"]} for s in budget["sides"]} == {
        "EUR 50,000": {"Das Budget der Veranstaltung beträgt 50.000 Euro.", "活动预算为五万欧元。"},
        "EUR 40,000": {"The event budget is 40,000 euros."}}
    assert violations(falkordb, ws) == []


def test_the_same_fact_in_another_language_raises_nothing(client: TestClient,
                                                          ws: str) -> None:
    _memo(client, ws, "Plan", "The product launch is on June 12.")
    assert _memo(client, ws, "Plan (zh)", "产品发布定于6月12日。")["conflicts"] == []
    assert _memo(client, ws, "Plan (de)", "Der Produktlaunch ist am 12. Juni.")[
        "conflicts"] == []


def test_a_message_that_opens_on_a_pronoun_is_read_with_the_speakers_previous_one(
        client: TestClient, ws: str, falkordb: str) -> None:
    chat = Chat(client, ws)
    ana = chat.say("Ana", "My flight lands at 7:40.", T0)
    chat.say("Ben", "My flight lands at 11:00.", T0 + MINUTE)
    moved = chat.say("Ana", "It lands at 9:15 now.", T0 + 2 * MINUTE)
    [claim] = moved["claims"]
    # The statement says what "it" is; the quote stays the message's own words.
    assert claim["statement"] == "My flight lands at 9:15 now."
    assert claim["evidence_quote"] == "It lands at 9:15 now."
    [conflict] = moved["conflicts"]
    assert {c["id"] for c in claims_of(conflict)} == {
        _claim(ana, "My flight lands at 7:40.")["id"], claim["id"]}
    # Within one request too: the speaker's earlier message, not another speaker's.
    other = Chat(client, ws)
    made = other.say("Tom", "The shuttle leaves at 6:30.", T0)
    both = _post(client, f"/api/workspaces/{ws}/sources/{other.id}/messages", {"messages": [
        {"speaker": "Lena", "text": "My train departs at 8:05.", "at": T0 + MINUTE},
        {"speaker": "Tom", "text": "It leaves at 7:00 now.", "at": T0 + 2 * MINUTE}]})
    tom = next(c for c in both["claims"] if c["said_by"] == "Tom")
    assert tom["statement"] == "The shuttle leaves at 7:00 now."
    [moved_shuttle] = [k for k in both["conflicts"] if tom["id"] in {c["id"] for c in claims_of(k)}]
    assert _claim(made, "The shuttle leaves at 6:30.")["id"] in {
        c["id"] for c in claims_of(moved_shuttle)}
    assert violations(falkordb, ws) == []
