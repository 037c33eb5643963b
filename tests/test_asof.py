"""Memory remembers when (docs/rules.md, rule 10): every read as of a moment of the two-memo story
(before the second memo, between, after a correction and a resolved conflict) answers what
the same read answered at that moment, on the real FalkorDB."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from fastapi.testclient import TestClient

from tests.support.api import add_source, claim_named, correct_claim, resolve_conflict, run_agent
from tests.support.graphs import violations
from tests.support.moments import compare_at, moment, world
from tests.support.texts import APRIL, JUNE12, JUNE19, MARCH, VENUE


def test_reads_as_of_each_moment_of_the_two_memos(client: TestClient, ws: str,
                                                  falkordb: str) -> None:
    snapshots: list[tuple[int, dict[str, Any]]] = []
    empty = moment()
    march = add_source(client, ws, MARCH, title="March memo")
    plan = run_agent(client, ws, "Plan the launch event")
    before_april = moment()
    snapshots.append((before_april, world(client, ws)))
    april = add_source(client, ws, APRIL, title="April memo")
    [conflict] = april["conflicts"]
    snapshots.append((moment(), world(client, ws)))
    correct_claim(client, ws, claim_named(march, VENUE)["id"],
                  "The launch venue is the Park Pavilion.", reason="The hotel cancelled.")
    snapshots.append((moment(), world(client, ws)))
    _, r = resolve_conflict(client, ws, conflict["id"], keep=claim_named(april, JUNE19)["id"])
    assert r.status_code == 201, r.text
    snapshots.append((moment(), world(client, ws)))
    compare_at(client, ws, snapshots)
    assert violations(falkordb, ws) == []

    base = f"/api/workspaces/{ws}"
    june12 = claim_named(march, JUNE12)["id"]
    # Before the April memo: June 12 current, no conflict, the plan in good standing.
    then = client.get(f"{base}/claims/{june12}", params={"as_of": before_april}).json()
    assert then["status"] == "proposed" and then["conflicts"] == []
    assert then["superseded_by"] is None
    d = client.get(f"{base}/decisions/{plan['decision']['id']}",
                   params={"as_of": before_april}).json()
    assert d["status"] == "draft" and all(a["status"] == "proposed" for a in d["actions"])
    # Before anything: nothing existed.
    assert client.get(f"{base}/claims", params={"as_of": empty}).json()["items"] == []
    gone = client.get(f"{base}/claims/{june12}", params={"as_of": empty})
    assert gone.status_code == 404 and gone.json()["error"]["code"] == "claim_not_found"
    assert client.get(f"{base}/decisions/{plan['decision']['id']}",
                      params={"as_of": empty}).status_code == 404
    # Search as of then finds what was current then, with its status then.
    hits = client.get(f"{base}/claims", params={"q": "launch", "as_of": before_april}).json()
    assert june12 in [h["id"] for h in hits["items"]]
    assert hits["search"]["as_of"] == before_april
    now = client.get(f"{base}/claims", params={"q": "launch"}).json()
    assert june12 not in [h["id"] for h in now["items"]]


# Digits that are not ASCII (fullwidth, Arabic-Indic: Python's int() reads both), an empty
# value, and spaces around a time: each is refused, never read as a time or as "now".
NOT_A_TIME = ("\uff11\uff12\uff13", "\u0663", "", " ", " 123", "123 ",
              "\uff12\uff10\uff12\uff16-03-03", "2026-03-03T0\u0669:30:00Z")


def test_as_of_takes_iso_times_and_epoch_ms(client: TestClient, ws: str) -> None:
    base = f"/api/workspaces/{ws}"
    march = add_source(client, ws, MARCH, title="March memo")
    run = run_agent(client, ws, "Plan the launch event")
    for when in ("2999-01-01T00:00:00Z", "2999-01-01T00:00:00+02:00", "2999-01-01",
                 "32503680000000"):
        r = client.get(f"{base}/claims", params={"as_of": when})
        assert r.status_code == 200 and len(r.json()["items"]) == 2, (when, r.text)
    assert client.get(f"{base}/claims", params={"as_of": "2001-01-01"}).json()["items"] == []
    for bad in ("yesterday", "2026-13-01", "1e9", "-5", "99999999999999999",
                "2026-03-03T25:00", *NOT_A_TIME):
        r = client.get(f"{base}/claims", params={"as_of": bad})
        assert r.status_code == 422, (bad, r.text)
        assert r.json()["error"]["code"] == "invalid_request"
    conflict = add_source(client, ws, APRIL, title="April memo")["conflicts"][0]
    for path in ("/claims", "/claims?q=launch", "/graph", "/graph?view=internal",
                 "/conflicts", f"/conflicts/{conflict['id']}",
                 f"/decisions/{run['decision']['id']}", f"/actions/{run['actions'][0]['id']}",
                 f"/claims/{march['claims'][0]['id']}"):
        for bad in ("not a time", *NOT_A_TIME):
            sep = "&" if "?" in path else "?"
            r = client.get(f"{base}{path}{sep}as_of={quote(bad)}")
            assert r.status_code == 422, (path, bad, r.text)
            assert r.json()["error"]["code"] == "invalid_request"
    for wrong in (*NOT_A_TIME, True, 1.5):
        r = client.post(f"{base}/agent-runs", json={"task": "Plan the launch", "as_of": wrong})
        assert r.status_code == 422, (wrong, r.text)


def test_why_then_why_now(client: TestClient, ws: str) -> None:
    base = f"/api/workspaces/{ws}"
    march = add_source(client, ws, MARCH, title="March memo")
    plan = run_agent(client, ws, "Plan the launch event")
    before_april = moment()
    april = add_source(client, ws, APRIL, title="April memo")
    venue = claim_named(march, VENUE)["id"]
    correction = correct_claim(client, ws, venue, "The launch venue is the Park Pavilion.",
                               reason="The hotel cancelled.")
    _, r = resolve_conflict(client, ws, april["conflicts"][0]["id"],
                            keep=claim_named(april, JUNE19)["id"])
    decision = f"{base}/decisions/{plan['decision']['id']}"

    support = client.get(decision).json()["support"]
    assert support["decided_at"] == plan["decision"]["created_at"]
    by_premise = {p["premise"]: p for p in support["premises"]}
    assert set(by_premise) == {JUNE12, VENUE}
    assert all(p["held_then"] and not p["holds_now"] for p in by_premise.values())
    [lost_date] = by_premise[JUNE12]["fell"]
    assert lost_date["by"] == "conflict"
    assert lost_date["conflict_id"] == april["conflicts"][0]["id"]
    assert lost_date["correction_id"] == r.json()["correction"]["id"]
    assert lost_date["replaced_by"]["id"] == claim_named(april, JUNE19)["id"]
    assert lost_date["reason"] == "The April memo is the latest word."
    [lost_venue] = by_premise[VENUE]["fell"]
    assert lost_venue["by"] == "correction"
    assert lost_venue["correction_id"] == correction["correction"]["id"]
    assert lost_venue["replaced_by"]["statement"] == "The launch venue is the Park Pavilion."
    assert support["decided_at"] < lost_venue["at"] < lost_date["at"] <= support["at"]

    # As of before the April memo, "now" is then: every premise still held.
    then = client.get(decision, params={"as_of": before_april}).json()["support"]
    assert then["at"] == before_april
    assert all(p["holds_now"] and p["fell"] == [] for p in then["premises"])
