"""Sources that disagree (docs/rules.md, rule 9), corrections of a statement (rule 4) and new
versions of a source, through the API on the real FalkorDB."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from afterhack.store import claims as store_claims
from afterhack.store.client import Graph
from afterhack.store.conflicts import open_conflict_ids
from afterhack.store.moment import NOW
from afterhack.store.names import graph_name
from tests.support.api import (
    add_source,
    cited,
    claim_named,
    correct_claim,
    resolve_conflict,
    run_agent,
)
from tests.support.conflicts import claims_of
from tests.support.graphs import RecordingGraph, explain, snapshot, statuses, violations, with_graph
from tests.support.texts import APRIL, JUNE12, JUNE19, MARCH


def test_two_memos_end_to_end(client: TestClient, ws: str, falkordb: str) -> None:
    march = add_source(client, ws, MARCH, title="March memo")
    assert march["conflicts"] == []
    plan = run_agent(client, ws, "Plan the launch event")  # before April: June 12 only
    june12 = claim_named(march, JUNE12)
    assert sorted(cited(plan)) == sorted(c["id"] for c in march["claims"])
    assert plan["decision"]["status"] == "draft" and plan["actions"]

    april = add_source(client, ws, APRIL, title="April memo")
    june19 = claim_named(april, JUNE19)
    assert len(april["conflicts"]) == 1, april["conflicts"]
    conflict = april["conflicts"][0]
    assert conflict["kind"] == "date" and conflict["status"] == "open"
    assert {c["id"] for c in claims_of(conflict)} == {june12["id"], june19["id"]}
    assert {c["source_title"] for c in claims_of(conflict)} == {"March memo", "April memo"}
    assert any(m["role"] == "conflict_judge" for m in april["model_calls"])

    listed = client.get(f"/api/workspaces/{ws}/conflicts?status=open").json()["items"]
    assert [k["id"] for k in listed] == [conflict["id"]]
    assert client.get(f"/api/workspaces/{ws}/conflicts?status=resolved").json()["items"] == []
    read = client.get(f"/api/workspaces/{ws}/claims/{june12['id']}").json()
    assert [k["id"] for k in read["conflicts"]] == [conflict["id"]]
    assert [o["id"] for o in read["conflicts"][0]["other"]] == [june19["id"]]
    hits = client.get(f"/api/workspaces/{ws}/claims", params={"q": "launch"}).json()["items"]
    by_id = {h["id"]: h["open_conflict_ids"] for h in hits}
    assert by_id[june12["id"]] == [conflict["id"]] and by_id[june19["id"]] == [conflict["id"]]
    graph = client.get(f"/api/workspaces/{ws}/graph").json()
    dashed = [e for e in graph["edges"] if e["type"] == "CONFLICTS"]
    assert len(dashed) == 1 and dashed[0]["data"]["conflict_id"] == conflict["id"]
    assert {dashed[0]["source"], dashed[0]["target"]} == {june12["id"], june19["id"]}

    # The run does not pick a side.
    ask = run_agent(client, ws, "When is the launch?")
    d = ask["decision"]
    assert d["status"] == "needs_review" and ask["actions"] == []
    assert d["review_reason"]["type"] == "sources_disagree"
    assert d["review_reason"]["conflict_ids"] == [conflict["id"]]
    assert {june12["id"], june19["id"]} <= set(cited(ask))

    # Keep June 19: June 12 is superseded by it; only what lost support is flagged.
    preview, r = resolve_conflict(client, ws, conflict["id"], keep=june19["id"])
    assert [s["claim_id"] for s in preview["supersede"]] == [june12["id"]]
    assert [f["decision_id"] for f in preview["flag"]] == [plan["decision"]["id"]]
    assert [h["action_id"] for h in preview["hold"]] == [a["id"] for a in plan["actions"]]
    assert r.status_code == 201, r.text
    out = r.json()
    assert out["status"] == "applied" and out["conflict"]["status"] == "resolved"
    assert out["superseded"] == [june12["id"]]
    assert out["correction"]["kind"] == "supersede"
    assert out["correction"]["fragment"] is None  # the kept claim's own source is evidence
    assert out["kept"]["id"] == june19["id"]
    assert out["flagged"] == [plan["decision"]["id"]]
    s = statuses(falkordb, ws)
    assert s[june12["id"]] == "superseded" and s[june19["id"]] == "proposed"
    assert s[plan["decision"]["id"]] == "needs_review"
    assert all(s[a["id"]] == "held" for a in plan["actions"])
    superseded = client.get(f"/api/workspaces/{ws}/claims/{june12['id']}").json()
    assert superseded["superseded_by"]["id"] == june19["id"]

    fresh = run_agent(client, ws, "When is the launch?")
    assert fresh["decision"]["status"] == "draft"
    assert june19["id"] in cited(fresh) and june12["id"] not in cited(fresh)
    # Re-ingesting the losing statement comes back superseded by the kept claim.
    again = add_source(client, ws, JUNE12, title="March memo, again")
    assert again["claims"][0]["status"] == "superseded" and again["conflicts"] == []
    assert violations(falkordb, ws) == []


def test_twins_are_corrected_together(client: TestClient, ws: str, falkordb: str) -> None:
    first = add_source(client, ws, JUNE12, title="Plan")
    second = add_source(client, ws, JUNE12, title="Plan (copy)")
    a, b = first["claims"][0]["id"], second["claims"][0]["id"]
    run = run_agent(client, ws, "Plan the launch event")
    # Two copies of one fact are alternatives of one premise.
    premises = run["decision"]["premises"]
    assert len(premises) == 1 and sorted(c["id"] for c in premises[0]["claims"]) == sorted([a, b])
    base = f"/api/workspaces/{ws}/claims/{a}/corrections"
    p = client.post(base + "/preview", json={"statement": "The launch is on July 3."}).json()
    assert [t["claim_id"] for t in p["also_states_this"]] == [b]
    assert p["also_states_this"][0]["source_title"] == "Plan (copy)"
    assert [f["decision_id"] for f in p["flag"]] == [run["decision"]["id"]]  # not a support
    r = client.post(base, json={"statement": "The launch is on July 3.",
                                "claim_revision": p["revisions"]["claim_revision"],
                                "impact_token": p["revisions"]["impact_token"]})
    assert r.status_code == 201, r.text
    out = r.json()
    assert out["also_corrected"] == [b]
    rep = out["replacement"]["id"]
    s = statuses(falkordb, ws)
    assert s[a] == s[b] == "superseded" and s[run["decision"]["id"]] == "needs_review"
    twin = client.get(f"/api/workspaces/{ws}/claims/{b}").json()
    assert twin["superseded_by"]["id"] == rep
    # A third ingest of the refuted sentence stays refuted.
    third = add_source(client, ws, JUNE12, title="Plan (third)")
    assert third["claims"][0]["status"] == "superseded"
    fresh = run_agent(client, ws, "When is the launch?")
    assert cited(fresh) == [rep]
    assert violations(falkordb, ws) == []


def test_new_version_retires_what_the_source_no_longer_says(client: TestClient, ws: str,
                                                            falkordb: str) -> None:
    v1 = add_source(client, ws, MARCH, title="Plan")
    june12 = claim_named(v1, JUNE12)
    venue = claim_named(v1, "The launch venue is the Grand Hotel.")
    run = run_agent(client, ws, "Plan the launch event")
    text2 = "The product launch is planned for July 3. The launch venue is the Grand Hotel."
    preview = add_source(client, ws, text2, title="Plan", source_id=v1["source"]["id"],
                         preview=True)
    assert preview["status"] == "preview"
    assert [r["claim_id"] for r in preview["retired"]] == [june12["id"]]
    assert preview["flagged"] == [run["decision"]["id"]]
    assert statuses(falkordb, ws)[june12["id"]] == "proposed"  # the preview wrote nothing
    assert client.get(f"/api/workspaces/{ws}/sources/{v1['source']['id']}").json()[
        "latest_version"] == 1

    v2 = add_source(client, ws, text2, title="Plan", source_id=v1["source"]["id"])
    assert v2["status"] == "versioned"
    july = claim_named(v2, "The product launch is planned for July 3.")
    assert [c["statement"] for c in v2["claims"]] == [july["statement"]]  # no churn
    assert v2["retired"] == [{"claim_id": june12["id"], "statement": JUNE12,
                              "status": "superseded", "superseded_by": july["id"]}]
    assert v2["flagged"] == [run["decision"]["id"]]
    assert v2["held"] == [a["id"] for a in run["actions"]]
    assert v2["conflicts"] == []  # the source changed its mind; it does not disagree with itself
    s = statuses(falkordb, ws)
    assert s[june12["id"]] == "superseded" and s[venue["id"]] == "proposed"
    assert s[run["decision"]["id"]] == "needs_review"
    assert all(s[a["id"]] == "held" for a in run["actions"])
    # A version that drops a sentence without restating it withdraws its claim.
    v3 = add_source(client, ws, "The product launch is planned for July 3.", title="Plan",
                    source_id=v1["source"]["id"])
    assert v3["retired"] == [{"claim_id": venue["id"], "statement": venue["statement"],
                              "status": "rejected", "superseded_by": None}]
    assert violations(falkordb, ws) == []


def test_a_statement_another_source_holds_is_not_retired(client: TestClient, ws: str,
                                                         falkordb: str) -> None:
    v1 = add_source(client, ws, JUNE12, title="Plan")
    other = add_source(client, ws, JUNE12, title="Calendar")
    v2 = add_source(client, ws, "The launch venue is the Grand Hotel.", title="Plan",
                    source_id=v1["source"]["id"])
    assert v2["retired"] == []
    s = statuses(falkordb, ws)
    assert s[v1["claims"][0]["id"]] == s[other["claims"][0]["id"]] == "proposed"


def test_dismissed_pair_is_never_raised_again(client: TestClient, ws: str,
                                              falkordb: str) -> None:
    add_source(client, ws, "The team offsite is in Berlin.", title="Berlin")
    k = add_source(client, ws, "The team offsite is in Lisbon.", title="Lisbon")["conflicts"][0]
    assert k["kind"] == "place"
    preview, r = resolve_conflict(client, ws, k["id"], dismiss=True)
    assert preview["flag"] == [] and preview["supersede"] == []
    assert r.status_code == 201 and r.json()["conflict"]["status"] == "dismissed"
    before = statuses(falkordb, ws)
    again = add_source(client, ws, "The team offsite is in Lisbon.", title="Lisbon (copy)")
    assert again["conflicts"] == []
    assert statuses(falkordb, ws).items() >= before.items()
    assert [x["id"] for x in client.get(f"/api/workspaces/{ws}/conflicts",
                                        params={"status": "all"}).json()["items"]] == [k["id"]]


def test_repeat_and_stale_resolutions(client: TestClient, ws: str) -> None:
    a = add_source(client, ws, JUNE12, title="A")["claims"][0]
    k = add_source(client, ws, JUNE19, title="B")["conflicts"][0]
    base = f"/api/workspaces/{ws}/conflicts/{k['id']}"
    preview = client.post(base + "/preview", json={"keep": a["id"]}).json()
    run_agent(client, ws, "When is the launch?")  # a new user of the losing side: stale
    body = {"keep": a["id"], "conflict_revision": preview["revisions"]["conflict_revision"],
            "impact_token": preview["revisions"]["impact_token"]}
    stale = client.post(base + "/resolve", json=body)
    assert stale.status_code == 409
    assert stale.json()["error"]["code"] == "stale_correction_preview"
    preview = client.post(base + "/preview", json={"keep": a["id"]}).json()
    body["impact_token"] = preview["revisions"]["impact_token"]
    first = client.post(base + "/resolve", json=body)
    again = client.post(base + "/resolve", json=body)
    assert first.status_code == 201 and again.status_code == 200
    assert again.json()["status"] == "already_applied"
    assert again.json()["correction"]["id"] == first.json()["correction"]["id"]


def test_bad_resolutions_change_nothing(client: TestClient, ws: str, falkordb: str) -> None:
    a = add_source(client, ws, JUNE12, title="A")["claims"][0]
    k = add_source(client, ws, JUNE19, title="B")["conflicts"][0]
    outsider = add_source(client, ws, "The caterer is Mario's Kitchen.", title="C")["claims"][0]
    base = f"/api/workspaces/{ws}/conflicts"
    before = statuses(falkordb, ws)

    def err(r: Any, status: int, code: str) -> None:
        assert r.status_code == status, r.text
        body = r.json()
        assert set(body) == {"error"} and set(body["error"]) == {"code", "message", "details"}
        assert body["error"]["code"] == code

    err(client.post(f"{base}/{k['id']}/preview", json={"keep": outsider["id"]}), 422,
        "claim_not_in_conflict")
    err(client.post(f"{base}/{k['id']}/resolve", json={
        "keep": outsider["id"], "conflict_revision": 1, "impact_token": "imp_x"}), 422,
        "claim_not_in_conflict")
    err(client.post(f"{base}/00000000-0000-4000-8000-000000000000/preview",
                    json={"dismiss": True}), 404, "conflict_not_found")
    err(client.post(f"{base}/{k['id']}/preview", json={}), 422, "invalid_request")
    err(client.post(f"{base}/{k['id']}/preview", json={"keep": a["id"], "dismiss": True}),
        422, "invalid_request")
    err(client.get(f"{base}", params={"status": "closed"}), 422, "invalid_request")
    assert statuses(falkordb, ws) == before
    _, r = resolve_conflict(client, ws, k["id"], dismiss=True)
    assert r.status_code == 201
    err(client.post(f"{base}/{k['id']}/preview", json={"keep": a["id"]}), 409,
        "conflict_closed")
    err(client.post(f"{base}/{k['id']}/resolve", json={
        "keep": a["id"], "conflict_revision": 2, "impact_token": "imp_x"}), 409,
        "conflict_closed")
    assert statuses(falkordb, ws) == before
    assert violations(falkordb, ws) == []


def test_booleans_and_integers_are_not_each_other_and_change_nothing(
        client: TestClient, ws: str, falkordb: str) -> None:
    a = add_source(client, ws, JUNE12, title="A")["claims"][0]
    k = add_source(client, ws, JUNE19, title="B")["conflicts"][0]
    base = f"/api/workspaces/{ws}/conflicts/{k['id']}"

    def revisions(choice: dict[str, Any]) -> dict[str, Any]:
        seen = client.post(base + "/preview", json=choice).json()["revisions"]
        return {k: seen[k] for k in ("conflict_revision", "impact_token")}

    keep, dismiss = revisions({"keep": a["id"]}), revisions({"dismiss": True})
    # JSON's true would read as this revision, and 0 as "do not dismiss", were they let pass.
    assert keep["conflict_revision"] == dismiss["conflict_revision"] == 1
    before = snapshot(falkordb, ws)
    refused = [
        ("/preview", {"dismiss": 1}), ("/preview", {"keep": a["id"], "dismiss": 0}),
        ("/preview", {"dismiss": "true"}),
        ("/resolve", {"keep": a["id"], "dismiss": 0, **keep}),
        ("/resolve", {"dismiss": 1, **dismiss}),
        ("/resolve", {"keep": a["id"], **keep, "conflict_revision": True}),
        ("/resolve", {"dismiss": True, **dismiss, "conflict_revision": True}),
        ("/resolve", {"dismiss": True, **dismiss, "conflict_revision": "1"}),
        ("/resolve", {"dismiss": True, **dismiss, "valid_times": [
            {"claim_id": a["id"], "valid_from": True}]}),
    ]
    for path, body in refused:
        r = client.post(base + path, json=body)
        assert r.status_code == 422, (path, body, r.text)
        err = r.json()["error"]
        # Refused for its type, not for anything else the body holds.
        types = {e["type"] for e in err["details"]["errors"]}
        assert err["code"] == "invalid_request"
        assert types and types <= {"bool_type", "int_type", "string_type"}, err
    assert snapshot(falkordb, ws) == before
    r = client.post(base + "/resolve", json={"keep": a["id"], "dismiss": False, **keep})
    assert r.status_code == 201, r.text


def test_re_extraction_raises_conflicts_too(client: TestClient, ws: str) -> None:
    add_source(client, ws, JUNE12, title="March")
    later = add_source(client, ws, JUNE19, title="April", extract=False)
    assert later["claims"] == [] and later["conflicts"] == []
    r = client.post(f"/api/workspaces/{ws}/sources/{later['source']['id']}/extract")
    assert r.status_code == 200, r.text
    body = r.json()
    assert [c["statement"] for c in body["claims"]] == [JUNE19]
    assert len(body["conflicts"]) == 1 and body["conflicts"][0]["kind"] == "date"


@pytest.mark.parametrize("cap", [None, 1])
def test_a_search_shows_each_claims_open_conflicts_twins_included(
        client: TestClient, ws: str, falkordb: str, cap: int | None,
        monkeypatch: pytest.MonkeyPatch) -> None:
    # The search reads the open conflicts once and matches them by statement key; the
    # claim's own read walks from the claim. Both must say the same, for a claim in a
    # conflict, its twin in another source, and claims of a dismissed conflict. With more
    # pairs than the search reads beside its rankings (cap 1; the open conflict holds two
    # claims), the page's are looked up by key.
    if cap is not None:
        monkeypatch.setattr(store_claims, "OPEN_PAIRS_CAP", cap)
    march = add_source(client, ws, MARCH, title="March memo")
    april = add_source(client, ws, APRIL, title="April memo")
    conflict = april["conflicts"][0]
    twin = claim_named(add_source(client, ws, MARCH, title="March memo (copy)"), JUNE12)
    add_source(client, ws, "The launch offsite is in Berlin.", title="Berlin")
    lisbon = add_source(client, ws, "The launch offsite is in Lisbon.", title="Lisbon")
    dismissed = lisbon["conflicts"][0]
    _, r = resolve_conflict(client, ws, dismissed["id"], dismiss=True)
    assert r.status_code == 201, r.text
    hits = client.get(f"/api/workspaces/{ws}/claims",
                      params={"q": "launch", "limit": 50}).json()["items"]

    async def walked(g: Graph) -> dict[str, list[str]]:
        rows = await g.read(f"UNWIND $ids AS id MATCH (c:Claim {{id: id}}) "
                            f"RETURN c.id AS id, {open_conflict_ids(NOW)} AS k",
                            {"ids": [h["id"] for h in hits]})
        return {r["id"]: sorted(r["k"]) for r in rows}

    expected = with_graph(falkordb, ws, walked)
    assert {h["id"]: sorted(h["open_conflict_ids"]) for h in hits} == expected
    assert conflict["id"] in expected[twin["id"]]
    assert conflict["id"] in expected[claim_named(march, JUNE12)["id"]]
    assert all(dismissed["id"] not in k for k in expected.values())
    assert len(hits) >= 6


def test_the_page_conflicts_lookup_starts_from_the_claims(
        client: TestClient, ws: str, falkordb: str) -> None:
    # In one pattern FalkorDB planned this lookup from every open node (the status index)
    # and took a hundred times longer at 100k claims: the plan must start from the keys.
    add_source(client, ws, MARCH, title="March memo")
    add_source(client, ws, APRIL, title="April memo")
    seen: list[tuple[str, dict[str, Any]]] = []

    async def lookup(g: Graph) -> dict[str, list[str]]:
        key = (await g.read("MATCH (c:Claim {statement: $s}) RETURN c.statement_key AS k",
                            {"s": JUNE12})).first()
        assert key is not None
        return (await store_claims.open_conflicts_of_keys(
            RecordingGraph(g.store, g.name, seen), [key["k"]])).by_key

    found = with_graph(falkordb, ws, lookup)
    assert [len(ids) for ids in found.values()] == [1]  # the one open conflict, by its key
    [(cypher, params)] = seen
    plan = explain(falkordb, graph_name(ws), cypher, params)
    assert "Node By Index Scan | (t:Node)" in plan, plan
    assert "Node By Index Scan | (k:Node)" not in plan, plan


def test_a_side_corrected_meanwhile_settles_the_conflict(client: TestClient, ws: str,
                                                         falkordb: str) -> None:
    """A side corrected by hand after a resolution's preview, to the other side's value:
    the replacement joins that side, so one value is left held and the correction closes
    the conflict in its own write, as resolved, naming itself; the resolution previewed
    before is refused (conflict_closed) and changes nothing."""
    march = add_source(client, ws, MARCH, title="March memo")
    april = add_source(client, ws, APRIL, title="April memo")
    (k,) = april["conflicts"]
    june12 = claim_named(march, JUNE12)["id"]
    base = f"/api/workspaces/{ws}/conflicts/{k['id']}"
    preview = client.post(base + "/preview", json={"keep": june12}).json()
    applied = correct_claim(client, ws, june12, "The product launch is planned for June 19.")
    assert applied["settled"] == [k["id"]]
    closed = client.get(base).json()
    assert closed["status"] == "resolved" and closed["revision"] == k["revision"] + 2
    assert closed["settled_by"] == {"kind": "correction", "id": applied["correction"]["id"],
                                    "note": 'Corrected to "The product launch is planned '
                                            'for June 19."'}
    assert closed["resolution"] is None and closed["correction_id"] is None
    assert applied["conflicts"] == []
    assert [[c["status"] for c in s["claims"]] for s in closed["sides"]] == [
        ["proposed", "accepted"], ["superseded"]]
    assert client.get(f"/api/workspaces/{ws}/conflicts",
                      params={"status": "open"}).json()["items"] == []
    stale = {"keep": june12, "conflict_revision": preview["revisions"]["conflict_revision"],
             "impact_token": preview["revisions"]["impact_token"]}
    before = statuses(falkordb, ws)
    r = client.post(base + "/resolve", json=stale)
    assert r.status_code == 409 and r.json()["error"]["code"] == "conflict_closed", r.text
    assert statuses(falkordb, ws) == before
    assert violations(falkordb, ws) == []


def test_a_side_corrected_to_a_third_value_leaves_the_dispute_open(
        client: TestClient, ws: str, falkordb: str) -> None:
    """Corrected to a value neither side gave, the replacement is a new side of the same
    dispute: it stays open (the corrected value superseded on its side), and a resolution
    previewed before it is stale."""
    march = add_source(client, ws, MARCH, title="March memo")
    april = add_source(client, ws, APRIL, title="April memo")
    (k,) = april["conflicts"]
    june12 = claim_named(march, JUNE12)["id"]
    june19 = claim_named(april, JUNE19)["id"]
    base = f"/api/workspaces/{ws}/conflicts/{k['id']}"
    preview = client.post(base + "/preview", json={"keep": june19}).json()
    applied = correct_claim(client, ws, june12, "The product launch is planned for June 14.")
    assert applied["settled"] == []
    (joined,) = applied["conflicts"]
    assert joined["id"] == k["id"] and [o["id"] for o in joined["other"]] == [june19]
    read = client.get(base).json()
    assert read["status"] == "open" and read["n_sides"] == 3
    assert [s["value"] for s in read["sides"]] == ["June 14", "June 19", "June 12"]
    r = client.post(base + "/resolve", json={
        "keep": june19, "conflict_revision": preview["revisions"]["conflict_revision"],
        "impact_token": preview["revisions"]["impact_token"]})
    assert r.status_code == 409, r.text
    assert r.json()["error"]["code"] == "stale_correction_preview"
    _, kept = resolve_conflict(client, ws, k["id"], keep=june19)
    assert kept.status_code == 201, kept.text
    assert kept.json()["superseded"] == [applied["replacement"]["id"]]
    assert violations(falkordb, ws) == []
