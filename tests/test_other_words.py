"""The same mistake in other words (docs/rules.md, rules 4 and 9), through the API on the real
FalkorDB: a correction reaches the fact, not only its wording; every new claim is checked,
the replacement included; a conflict whose side is settled by something else closes."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.support.api import (
    add_source,
    apply_correction,
    preview_correction,
    resolve_conflict,
    run_agent,
)
from tests.support.conflicts import claims_of
from tests.support.graphs import statuses, violations

MEMO_A = "The product launch is planned for June 12."
NOTES_B = "Marketing confirmed the launch on June 12."
FIXED = "The product launch is planned for June 19."
ASK = "When is the product launch?"

ALICE = "Alice says the launch is on September 15."
BOB = "Bob says the launch is on October 1."
MINUTES = "The steering committee confirmed the launch for September 15."


def _only_claim(body: Mapping[str, Any]) -> dict[str, Any]:
    (claim,) = body["claims"]
    return dict(claim)


def _preview_leaving(client: TestClient, ws: str, claim_id: str, statement: str,
                     leave: list[str]) -> dict[str, Any]:
    r = client.post(f"/api/workspaces/{ws}/claims/{claim_id}/corrections/preview",
                    json={"statement": statement, "leave": leave})
    assert r.status_code == 200, r.text
    return dict(r.json())


def _cited(run: Mapping[str, Any]) -> dict[str, str]:
    """Claim id -> statement, of every claim the run's decision cites."""
    return {c["id"]: c["statement"] for p in run["decision"]["premises"] for c in p["claims"]}


def _reviewed_if_both(client: TestClient, ws: str, run: Mapping[str, Any]) -> None:
    """No decision cites June 19 and a current June 12 side by side without review."""
    cited = _cited(run)
    current = {i for i, s in statuses_of(client, ws, list(cited)).items()
               if s in ("proposed", "accepted")}
    says = {("19" if "June 19" in s else "12" if "June 12" in s else "") for i, s in
            cited.items() if i in current}
    if {"12", "19"} <= says:
        assert run["decision"]["status"] == "needs_review", run["decision"]
        assert run["decision"]["review_reason"]["type"] == "sources_disagree"
        assert run["actions"] == []


def statuses_of(client: TestClient, ws: str, ids: list[str]) -> dict[str, str]:
    return {i: client.get(f"/api/workspaces/{ws}/claims/{i}").json()["status"] for i in ids}


def test_notes_before_the_correction_are_corrected_with_it(client: TestClient, ws: str,
                                                           falkordb: str) -> None:
    a = _only_claim(add_source(client, ws, MEMO_A, title="Memo A"))
    notes = add_source(client, ws, NOTES_B, title="Notes B")
    b = _only_claim(notes)
    assert notes["conflicts"] == []  # the same fact, restated: no conflict
    before = run_agent(client, ws, ASK)
    assert set(_cited(before)) == {a["id"], b["id"]}

    preview = preview_correction(client, ws, a["id"], FIXED)
    (also,) = preview["also_states_this"]
    assert also["claim_id"] == b["id"] and also["in_other_words"] is True
    assert also["value_read"] == {"kind": "date", "value": "June 12", "in_claim": "June 12",
                                  "in_other": "June 12"}
    assert (also["statement"], also["evidence_quote"], also["source_title"]) == (
        NOTES_B, NOTES_B, "Notes B")
    assert also["left_out"] is False
    assert preview["revisions"]["impact"]["in_other_words"] == {b["id"]: 1}
    # A claim corrected together is never alternative support: the decision loses both.
    assert [f["decision_id"] for f in preview["flag"]] == [before["decision"]["id"]]

    r = apply_correction(client, ws, a["id"], FIXED, preview)
    assert r.status_code == 201, r.text
    out = r.json()
    rep = out["replacement"]["id"]
    assert out["also_corrected"] == [b["id"]] and out["conflicts"] == []
    assert out["flagged"] == [before["decision"]["id"]]
    s = statuses(falkordb, ws)
    assert s[a["id"]] == s[b["id"]] == "superseded"
    assert s[before["decision"]["id"]] == "needs_review"
    read = client.get(f"/api/workspaces/{ws}/claims/{b['id']}").json()
    assert read["superseded_by"]["id"] == rep
    assert [k["id"] for k in read["corrections"]] == [out["correction"]["id"]]

    fresh = run_agent(client, ws, ASK)
    assert set(_cited(fresh)) == {rep} and fresh["decision"]["status"] == "draft"
    _reviewed_if_both(client, ws, fresh)
    assert violations(falkordb, ws) == []


def test_notes_left_out_stand_in_an_open_conflict_with_the_correction(
        client: TestClient, ws: str, falkordb: str) -> None:
    a = _only_claim(add_source(client, ws, MEMO_A, title="Memo A"))
    b = _only_claim(add_source(client, ws, NOTES_B, title="Notes B"))
    preview = preview_correction(client, ws, a["id"], FIXED)
    chosen = _preview_leaving(client, ws, a["id"], FIXED, [b["id"]])
    assert [x["left_out"] for x in chosen["also_states_this"]] == [True]
    # What is left out does not change the picture the revisions name.
    assert chosen["revisions"] == preview["revisions"]

    r = apply_correction(client, ws, a["id"], FIXED, preview, leave=[b["id"]])
    assert r.status_code == 201, r.text
    out = r.json()
    rep = out["replacement"]["id"]
    assert out["also_corrected"] == []
    (k,) = out["conflicts"]
    assert k["status"] == "open" and k["kind"] == "date"
    assert [o["id"] for o in k["other"]] == [b["id"]]
    s = statuses(falkordb, ws)
    assert s[a["id"]] == "superseded" and s[b["id"]] == "proposed"
    listed = client.get(f"/api/workspaces/{ws}/conflicts", params={"status": "open"}).json()
    assert [{c["id"] for c in claims_of(x)} for x in listed["items"]] == [{rep, b["id"]}]

    run = run_agent(client, ws, ASK)
    assert set(_cited(run)) == {rep, b["id"]}
    assert run["decision"]["status"] == "needs_review"
    assert run["decision"]["review_reason"]["conflict_ids"] == [k["id"]]
    _reviewed_if_both(client, ws, run)
    assert violations(falkordb, ws) == []


def test_notes_after_the_correction_raise_a_conflict_with_it(client: TestClient, ws: str,
                                                             falkordb: str) -> None:
    a = _only_claim(add_source(client, ws, MEMO_A, title="Memo A"))
    preview = preview_correction(client, ws, a["id"], FIXED)
    assert preview["also_states_this"] == []
    r = apply_correction(client, ws, a["id"], FIXED, preview)
    assert r.status_code == 201, r.text
    rep = r.json()["replacement"]["id"]

    notes = add_source(client, ws, NOTES_B, title="Notes B")
    b = _only_claim(notes)
    (k,) = notes["conflicts"]
    assert {c["id"] for c in claims_of(k)} == {rep, b["id"]} and k["kind"] == "date"
    run = run_agent(client, ws, ASK)
    assert set(_cited(run)) == {rep, b["id"]}
    assert run["decision"]["status"] == "needs_review" and run["actions"] == []
    _reviewed_if_both(client, ws, run)
    assert violations(falkordb, ws) == []


def test_the_replacement_is_checked_against_what_it_did_not_correct(
        client: TestClient, ws: str, falkordb: str) -> None:
    """A current claim that gives another value for the same thing (and is not the same fact
    as the corrected claim) is in a conflict with the replacement in the same write: the
    replacement joins the dispute over that fact, which stays open with the corrected value
    superseded."""
    a = _only_claim(add_source(client, ws, MEMO_A, title="Memo A"))
    other = _only_claim(add_source(client, ws, "The launch happens on July 2.", title="Calendar"))
    ks = client.get(f"/api/workspaces/{ws}/conflicts", params={"status": "open"}).json()
    (first,) = ks["items"]
    preview = preview_correction(client, ws, a["id"], FIXED)
    r = apply_correction(client, ws, a["id"], FIXED, preview)
    assert r.status_code == 201, r.text
    out = r.json()
    assert out["settled"] == []  # June 19 and July 2 still disagree
    (k,) = out["conflicts"]
    assert k["id"] == first["id"] and [o["id"] for o in k["other"]] == [other["id"]]
    dispute = client.get(f"/api/workspaces/{ws}/conflicts/{first['id']}").json()
    assert [s["value"] for s in dispute["sides"]] == ["June 19", "July 2", "June 12"]
    assert [[c["status"] for c in s["claims"]] for s in dispute["sides"]] == [
        ["accepted"], ["proposed"], ["superseded"]]
    assert violations(falkordb, ws) == []


def test_what_may_be_left_out_is_checked_like_a_revision(client: TestClient, ws: str,
                                                         falkordb: str) -> None:
    a = _only_claim(add_source(client, ws, MEMO_A, title="Memo A"))
    b = _only_claim(add_source(client, ws, NOTES_B, title="Notes B"))
    twin = _only_claim(add_source(client, ws, MEMO_A, title="Memo A (copy)"))
    unrelated = _only_claim(add_source(client, ws, "The launch venue is the Grand Hotel.",
                                       title="Venue"))
    preview = preview_correction(client, ws, a["id"], FIXED)
    assert {(x["claim_id"], x["in_other_words"]) for x in preview["also_states_this"]} == {
        (b["id"], True), (twin["id"], False)}
    # From the copy's side the same: the notes were linked to one copy, and reach both.
    from_twin = preview_correction(client, ws, twin["id"], FIXED)
    assert {(x["claim_id"], x["in_other_words"]) for x in from_twin["also_states_this"]} == {
        (b["id"], True), (a["id"], False)}
    before = statuses(falkordb, ws)
    for leave in ([unrelated["id"]], [twin["id"]], [b["id"], "no-such-claim"]):
        for path in ("/preview", ""):
            refused = client.post(
                f"/api/workspaces/{ws}/claims/{a['id']}/corrections{path}", json={
                    "statement": FIXED, "leave": leave,
                    **({} if path else {"claim_revision": 1,
                                        "impact_token": preview["revisions"]["impact_token"]})})
            assert refused.status_code == 422, (leave, path, refused.text)
            assert refused.json()["error"]["code"] == "claim_not_listed"
    assert statuses(falkordb, ws) == before

    # Another claim in other words since the preview: the list was chosen from another
    # picture, so the apply is stale.
    add_source(client, ws, "The board confirmed the product launch for June 12.", title="Board")
    r = apply_correction(client, ws, a["id"], FIXED, preview, leave=[b["id"]])
    assert r.status_code == 409 and r.json()["error"]["code"] == "stale_correction_preview"
    assert statuses(falkordb, ws).items() >= before.items()
    fresh = preview_correction(client, ws, a["id"], FIXED)
    assert len([x for x in fresh["also_states_this"] if x["in_other_words"]]) == 2
    r = apply_correction(client, ws, a["id"], FIXED, fresh, leave=[b["id"]])
    assert r.status_code == 201, r.text
    assert sorted(r.json()["also_corrected"]) == sorted(
        [twin["id"], *(x["claim_id"] for x in fresh["also_states_this"]
                       if x["in_other_words"] and x["claim_id"] != b["id"])])
    assert violations(falkordb, ws) == []


def test_a_retraction_takes_the_fact_in_other_words_with_it(client: TestClient, ws: str,
                                                            falkordb: str) -> None:
    a = _only_claim(add_source(client, ws, MEMO_A, title="Memo A"))
    b = _only_claim(add_source(client, ws, NOTES_B, title="Notes B"))
    p = client.post(f"/api/workspaces/{ws}/claims/{a['id']}/corrections/preview",
                    json={"kind": "retract"}).json()
    assert [x["claim_id"] for x in p["also_states_this"]] == [b["id"]]
    r = client.post(f"/api/workspaces/{ws}/claims/{a['id']}/corrections", json={
        "kind": "retract", "reason": "No launch date is set.",
        "claim_revision": p["revisions"]["claim_revision"],
        "impact_token": p["revisions"]["impact_token"]})
    assert r.status_code == 201, r.text
    s = statuses(falkordb, ws)
    assert s[a["id"]] == s[b["id"]] == "rejected"
    assert violations(falkordb, ws) == []


@pytest.mark.parametrize(("one", "other", "kind"), [
    ("Das Budget der Messe beträgt 120.000 Euro.", "Die Messe hat ein Budget von 90.000 Euro.",
     "amount"),
    ("Der Produktlaunch ist am 15. September geplant.",
     "Der Produktlaunch findet am 1. Oktober statt.", "date"),
    ("产品发布定于九月十五日。", "产品发布改在十月一日。", "date"),
    ("项目预算为12万元。", "项目预算是十五万元。", "amount"),
])
def test_german_and_chinese_memos_that_disagree_raise_conflicts(
        client: TestClient, ws: str, one: str, other: str, kind: str) -> None:
    first = _only_claim(add_source(client, ws, one, title="Memo 1"))
    second = add_source(client, ws, other, title="Memo 2")
    (k,) = second["conflicts"]
    assert k["kind"] == kind and k["status"] == "open"
    assert {c["id"] for c in claims_of(k)} == {first["id"], _only_claim(second)["id"]}


def test_three_memos_on_one_fact_are_one_dispute(client: TestClient, ws: str,
                                                 falkordb: str) -> None:
    """A third memo on the fact joins the open conflict over it, on the side of the value it
    restates; keeping that value supersedes the other side, and a read as of before the
    third memo shows the dispute as it was then."""
    alice = _only_claim(add_source(client, ws, ALICE, title="Alice"))
    bob_memo = add_source(client, ws, BOB, title="Bob")
    bob = _only_claim(bob_memo)
    (dispute,) = bob_memo["conflicts"]
    assert {c["id"] for c in claims_of(dispute)} == {alice["id"], bob["id"]}
    before = client.get(f"/api/workspaces/{ws}/conflicts/{dispute['id']}").json()
    minutes_memo = add_source(client, ws, MINUTES, title="Steering minutes")
    minutes = _only_claim(minutes_memo)
    (joined,) = minutes_memo["conflicts"]
    assert joined["id"] == dispute["id"] and joined["revision"] == dispute["revision"] + 1
    read = client.get(f"/api/workspaces/{ws}/conflicts/{dispute['id']}").json()
    assert read["n_sides"] == 2 and read["n_claims"] == 3 and read["complete"]
    by_value = {s["value"]: {c["id"] for c in s["claims"]} for s in read["sides"]}
    assert by_value == {"September 15": {alice["id"], minutes["id"]},
                        "October 1": {bob["id"]}}
    then = client.get(f"/api/workspaces/{ws}/conflicts/{dispute['id']}",
                      params={"as_of": str(before["sides"][0]["claims"][0]["joined_at"])}
                      ).json()
    assert {c["id"] for c in claims_of(then)} == {alice["id"], bob["id"]}

    _, r = resolve_conflict(client, ws, dispute["id"], keep=minutes["id"],
                            reason="The committee confirmed Alice's date.")
    assert r.status_code == 201, r.text
    out = r.json()
    assert out["superseded"] == [bob["id"]] and out["settled"] == []
    assert out["conflict"]["status"] == "resolved"
    assert client.get(f"/api/workspaces/{ws}/conflicts",
                      params={"status": "open"}).json()["items"] == []
    s = statuses(falkordb, ws)
    assert s[bob["id"]] == "superseded" and s[minutes["id"]] == s[alice["id"]] == "proposed"
    assert violations(falkordb, ws) == []


def test_a_new_version_settles_the_conflicts_of_what_it_retires(client: TestClient, ws: str,
                                                                falkordb: str) -> None:
    memo = add_source(client, ws, MEMO_A, title="Plan")
    calendar = add_source(client, ws, "The launch happens on July 2.", title="Calendar")
    (k,) = calendar["conflicts"]
    r = client.post(f"/api/workspaces/{ws}/sources", json={
        "title": "Plan", "text": "The launch venue is the Grand Hotel.",
        "source_id": memo["source"]["id"]})
    assert r.status_code == 201, r.text
    assert [x["claim_id"] for x in r.json()["retired"]] == [_only_claim(memo)["id"]]
    (v2,) = [v for v in r.json()["source"]["versions"] if v["version"] == 2]
    closed = client.get(f"/api/workspaces/{ws}/conflicts/{k['id']}").json()
    assert closed["status"] == "resolved"
    assert closed["settled_by"] == {"kind": "version", "id": v2["id"],
                                    "note": 'No longer said in version 2 of "Plan"'}
    assert violations(falkordb, ws) == []


def test_a_speakers_newer_value_supersedes_their_older_and_the_dispute_goes_on(
        client: TestClient, ws: str, falkordb: str) -> None:
    """Under latest_wins, a speaker's newer value supersedes their older one at once (a
    policy's supersede correction), and joins the dispute over the fact, which stays open
    over the values still held (the memo's, and the speaker's newest), for a reviewer."""
    assert client.patch(f"/api/workspaces/{ws}", json={"updates": "latest_wins"}
                        ).status_code == 200
    base = f"/api/workspaces/{ws}/sources"
    at = 1_780_000_000_000
    chat = client.post(base, json={"title": "Chat", "messages": [
        {"speaker": "Ana", "text": "The launch is on June 12.", "at": at}]}).json()
    june12 = _only_claim(chat)
    memo = add_source(client, ws, "The launch is on June 19.", title="Memo")
    (with_memo,) = memo["conflicts"]
    r = client.post(f"{base}/{chat['source']['id']}/messages", json={"messages": [
        {"speaker": "Ana", "text": "The launch is on July 1.", "at": at + 60_000}]})
    assert r.status_code == 201, r.text
    moved = r.json()
    july = _only_claim(moved)
    (k,) = moved["conflicts"]
    assert k["id"] == with_memo["id"] and k["status"] == "open"
    assert [x["claim_id"] for x in moved["retired"]] == [june12["id"]]
    read = client.get(f"/api/workspaces/{ws}/conflicts/{k['id']}").json()
    assert {s["value"]: [c["status"] for c in s["claims"]] for s in read["sides"]} == {
        "July 1": ["proposed"], "June 19": ["proposed"], "June 12": ["superseded"]}
    # The newest word is the newest side's (the memo was added after the chat was said).
    assert read["newer_claim_id"] == read["sides"][0]["claims"][0]["id"]
    older = client.get(f"/api/workspaces/{ws}/claims/{june12['id']}").json()
    assert older["superseded_by"]["id"] == july["id"]
    assert violations(falkordb, ws) == []
