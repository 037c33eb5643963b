"""Corrections through the API on the real FalkorDB: the journey, the support rules of
docs/rules.md, rule 5 (its worked examples), stale previews, repeats, retractions, and the
way back."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from afterhack.store.names import graph_name
from tests.support.api import (
    add_source,
    app_client,
    apply_correction,
    cited,
    correct_claim,
    new_workspace,
    preview_correction,
    run_agent,
)
from tests.support.graphs import load, snapshot, statuses, violations, write
from tests.support.monitor import received
from tests.support.settings import make_settings
from tests.support.texts import JULY, JUNE


def test_the_journey(client: TestClient, ws: str, falkordb: str) -> None:
    claim = add_source(client, ws, JUNE, title="Launch plan")["claims"][0]
    run = run_agent(client, ws, "Plan the launch event")
    decision, action = run["decision"], run["actions"][0]
    preview = preview_correction(client, ws, claim["id"], JULY)
    assert [f["decision_id"] for f in preview["flag"]] == [decision["id"]]
    # One premise per distinct fact, named by its statement (docs/rules.md, rule 5).
    assert preview["flag"][0]["reasons"] == [
        {"type": "premise_lost", "premise": JUNE, "claim_ids": [claim["id"]]}]
    assert [h["action_id"] for h in preview["hold"]] == [action["id"]]
    assert statuses(falkordb, ws)[decision["id"]] == "draft"  # preview wrote nothing

    r = apply_correction(client, ws, claim["id"], JULY, preview, reason="The venue moved the date.")
    assert r.status_code == 201, r.text
    out = r.json()
    assert out["status"] == "applied"
    assert out["flagged"] == [decision["id"]] and out["held"] == [action["id"]]
    rep = out["replacement"]
    assert rep["statement"] == JULY and rep["evidence_quote"] == JULY
    assert rep["confidence"] == 0.0 and rep["confidence_kind"] == "human_correction"
    assert rep["origin"]["type"] == "human_correction"
    assert rep["origin"]["name"] == "Workspace reviewer correction"
    assert [e["role"] for e in rep["evidence"]] == ["reviewer_correction"]
    assert rep["evidence"][0]["text"] == JULY
    assert rep["evidence"][0]["segments"] == [{"text": JULY, "highlight": True}]
    assert out["old_claim"]["status"] == "superseded"
    assert out["old_claim"]["superseded_by"]["id"] == rep["id"]
    assert out["correction"]["fragment"]["origin_type"] == "human_correction"

    s = statuses(falkordb, ws)
    assert s[decision["id"]] == "needs_review" and s[action["id"]] == "held"

    fresh = run_agent(client, ws, "When is the launch?")
    cited = [c["id"] for p in fresh["decision"]["premises"] for c in p["claims"]]
    assert cited == [rep["id"]]
    sources = client.get(f"/api/workspaces/{ws}/claims/{rep['id']}").json()["evidence"]
    assert [e["origin_type"] for e in sources] == ["human_correction"]
    assert all(JUNE not in e["text"] for e in sources)
    assert violations(falkordb, ws) == []


def test_repeat_is_already_applied_with_the_same_replacement(client: TestClient,
                                                             ws: str) -> None:
    claim = add_source(client, ws, JUNE, title="t")["claims"][0]
    preview = preview_correction(client, ws, claim["id"], JULY)
    first = apply_correction(client, ws, claim["id"], JULY, preview)
    again = apply_correction(client, ws, claim["id"], JULY, preview)
    assert first.status_code == 201 and again.status_code == 200
    assert again.json()["status"] == "already_applied"
    assert again.json()["replacement"]["id"] == first.json()["replacement"]["id"]
    assert again.json()["recheck"] == {"flagged": [], "held": []}
    other = apply_correction(client, ws, claim["id"], "It is in August.", preview)
    assert other.status_code == 409
    assert other.json()["error"]["code"] == "stale_correction_preview"


def test_a_change_in_the_impact_set_makes_a_preview_stale(client: TestClient,
                                                          ws: str) -> None:
    claim = add_source(client, ws, JUNE, title="t")["claims"][0]
    run = run_agent(client, ws, "Plan the launch event")
    preview = preview_correction(client, ws, claim["id"], JULY)
    # A change inside the impact set: the action is approved.
    action = run["actions"][0]
    r = client.patch(f"/api/workspaces/{ws}/actions/{action['id']}",
                     json={"op": "approve", "revision": action["revision"]})
    assert r.status_code == 200
    stale = apply_correction(client, ws, claim["id"], JULY, preview)
    assert stale.status_code == 409
    err = stale.json()["error"]
    assert err["code"] == "stale_correction_preview"
    assert err["details"]["seen"]["impact_token"] == preview["revisions"]["impact_token"]
    fresh = preview_correction(client, ws, claim["id"], JULY)
    assert fresh["hold"][0]["status"] == "approved"
    assert apply_correction(client, ws, claim["id"], JULY, fresh).status_code == 201


def test_writes_elsewhere_in_the_workspace_leave_a_preview_fresh(client: TestClient,
                                                                 ws: str) -> None:
    claim = add_source(client, ws, JUNE, title="t")["claims"][0]
    run = run_agent(client, ws, "Plan the launch event")
    preview = preview_correction(client, ws, claim["id"], JULY)
    # Every kind of write outside the impact set, between the preview and its apply: a
    # source, a run on another matter with its decision and action, a change of that
    # action, and a correction of another claim.
    other = add_source(client, ws, "The caterer is Mario's Kitchen.", title="other")
    caterer = other["claims"][0]
    elsewhere = run_agent(client, ws, "Book the caterer")
    assert cited(elsewhere) == [caterer["id"]]  # the matter is another
    r = client.patch(f"/api/workspaces/{ws}/actions/{elsewhere['actions'][0]['id']}",
                     json={"op": "approve", "revision": elsewhere["actions"][0]["revision"]})
    assert r.status_code == 200
    assert correct_claim(client, ws, caterer["id"], "The caterer is Luigi's.")["status"] == \
        "applied"
    applied = apply_correction(client, ws, claim["id"], JULY, preview)
    assert applied.status_code == 201, applied.text
    assert applied.json()["flagged"] == [run["decision"]["id"]]
    assert applied.json()["held"] == [run["actions"][0]["id"]]


def test_an_apply_writes_everything_in_one_query(falkordb: str, tmp_path: Path) -> None:
    """Rule 8 rests on FalkorDB running each query whole or not at all (docs/falkordb.md):
    the supersession, the replacement, the flags, the holds and the audit of an apply go to
    the server as one write query, so no crash can fall between them."""
    # Without vectors: their fill is a write of its own after the apply, by design.
    with app_client(make_settings(falkordb_url=falkordb, data_dir=tmp_path,
                                  embeddings=False)) as api:
        ws = new_workspace(api, "one write")
        claim = add_source(api, ws, JUNE, title="t")["claims"][0]
        run = run_agent(api, ws, "Plan the launch event")
        preview = preview_correction(api, ws, claim["id"], JULY)
        with received(falkordb) as commands:
            applied = apply_correction(api, ws, claim["id"], JULY, preview)
        assert applied.status_code == 201, applied.text
        assert applied.json()["flagged"] == [run["decision"]["id"]]
        assert applied.json()["held"] == [run["actions"][0]["id"]]
    graph = graph_name(ws)
    writes = [c for c in commands if c.split(" ", 2)[:2] == ["GRAPH.QUERY", graph]]
    assert len(writes) == 1, [w[:300] for w in writes]


def test_a_revision_that_is_not_an_integer_is_refused_and_changes_nothing(
        client: TestClient, ws: str, falkordb: str) -> None:
    claim = add_source(client, ws, JUNE, title="t")["claims"][0]
    run_agent(client, ws, "Plan the launch event")
    preview = preview_correction(client, ws, claim["id"], JULY)
    # JSON's true would read as this revision if booleans passed as integers.
    assert preview["revisions"]["claim_revision"] == 1
    before = snapshot(falkordb, ws)
    for revision in (True, "1", 1.0, [1], None):
        r = apply_correction(client, ws, claim["id"], JULY, {"revisions": {
            **preview["revisions"], "claim_revision": revision}})
        assert r.status_code == 422, (revision, r.text)
        err = r.json()["error"]
        assert err["code"] == "invalid_request"
        assert err["details"]["errors"][0]["loc"] == ["body", "claim_revision"], err
    assert snapshot(falkordb, ws) == before
    assert apply_correction(client, ws, claim["id"], JULY, preview).status_code == 201


def test_new_dependent_makes_preview_stale(client: TestClient, ws: str) -> None:
    claim = add_source(client, ws, JUNE, title="t")["claims"][0]
    preview = preview_correction(client, ws, claim["id"], JULY)
    run_agent(client, ws, "When is the launch?")
    r = apply_correction(client, ws, claim["id"], JULY, preview)
    assert r.status_code == 409


def _load_world(url: str, ws: str, *, claims: list[tuple[str, str]],
                decisions: list[dict[str, Any]],
                actions: Sequence[tuple[str, str]] = ()) -> None:
    srcs = sorted({s for _, s in claims})
    load(url, ws,
         sources=[{"id": s, "title": f"Source {s}"} for s in srcs],
         claims=[{"id": c, "statement": f"Claim {c} says something.", "source_id": s}
                 for c, s in claims],
         decisions=decisions,
         actions=[{"id": a, "description": f"do {a}", "decision_ids": [d]} for a, d in actions])


def _ids(n: int) -> list[str]:
    return [str(uuid.uuid4()) for _ in range(n)]


def _apply_as_previewed(client: TestClient, ws: str, claim_id: str) -> dict[str, Any]:
    """A correction of the claim whose flags and holds are those its preview showed; the
    preview."""
    preview = preview_correction(client, ws, claim_id, "A corrected statement.")
    r = apply_correction(client, ws, claim_id, "A corrected statement.", preview)
    assert r.status_code == 201, r.text
    out = r.json()
    assert sorted(f["decision_id"] for f in preview["flag"]) == out["flagged"]
    assert sorted(h["action_id"] for h in preview["hold"]) == out["held"]
    return preview


def test_alternative_from_another_source_keeps_the_decision(client: TestClient, ws: str,
                                                            falkordb: str) -> None:
    c1, c2, d, a, sa, sb = _ids(6)
    _load_world(falkordb, ws, claims=[(c1, sa), (c2, sb)],
                decisions=[{"id": d, "title": "D", "premises": {"when": [c1, c2]}}],
                actions=[(a, d)])
    preview = _apply_as_previewed(client, ws, c1)
    assert preview["flag"] == [] and preview["hold"] == []
    assert preview["stay"] == [{"decision_id": d, "title": "D",
                                "supported_by": [{"premise": "when", "claim_ids": [c2]}]}]
    assert statuses(falkordb, ws)[d] == "draft"
    assert violations(falkordb, ws) == []


def test_alternative_from_the_same_source_does_not_count(client: TestClient, ws: str,
                                                         falkordb: str) -> None:
    c1, c3, d, a, sa = _ids(5)
    _load_world(falkordb, ws, claims=[(c1, sa), (c3, sa)],
                decisions=[{"id": d, "title": "D", "premises": {"when": [c1, c3]}}],
                actions=[(a, d)])
    preview = _apply_as_previewed(client, ws, c1)
    assert [f["decision_id"] for f in preview["flag"]] == [d]
    s = statuses(falkordb, ws)
    assert s[d] == "needs_review" and s[a] == "held" and s[c3] == "proposed"


def test_each_premise_must_hold(client: TestClient, ws: str, falkordb: str) -> None:
    c1, c2, d, sa, sb = _ids(5)
    _load_world(falkordb, ws, claims=[(c1, sa), (c2, sb)],
                decisions=[{"id": d, "title": "D", "premises": {"p1": [c1], "p2": [c2]}}])
    preview = _apply_as_previewed(client, ws, c2)
    assert preview["flag"][0]["reasons"] == [
        {"type": "premise_lost", "premise": "p2", "claim_ids": [c2]}]


def test_chain_two_steps_deep_is_flagged_and_held(client: TestClient, ws: str,
                                                  falkordb: str) -> None:
    c1, c9, d1, d2, a1, a2, sa, sb = _ids(8)
    _load_world(falkordb, ws, claims=[(c1, sa), (c9, sb)],
                decisions=[{"id": d1, "title": "D1", "premises": {"p": [c1]}},
                           {"id": d2, "title": "D2", "premises": {"q": [c9]}, "depends_on": [d1]}],
                actions=[(a1, d1), (a2, d2)])
    preview = _apply_as_previewed(client, ws, c1)
    flags = {f["decision_id"]: f["reasons"] for f in preview["flag"]}
    assert flags[d2] == [{"type": "upstream_fell", "decision_id": d1}]
    s = statuses(falkordb, ws)
    assert (s[d1], s[d2], s[a1], s[a2]) == ("needs_review", "needs_review", "held", "held")
    assert violations(falkordb, ws) == []


def test_cycle_does_not_hold_itself_up(client: TestClient, ws: str, falkordb: str) -> None:
    c1, c4, d1, d2, sa, sb = _ids(6)
    _load_world(falkordb, ws, claims=[(c1, sa), (c4, sb)], decisions=[
        {"id": d1, "title": "D1", "premises": {"p": [c1, c4]}, "depends_on": [d2]},
        {"id": d2, "title": "D2", "premises": {"p": [c1, c4]}, "depends_on": [d1]}])
    preview = _apply_as_previewed(client, ws, c1)
    assert sorted(f["decision_id"] for f in preview["flag"]) == sorted([d1, d2])
    s = statuses(falkordb, ws)
    assert s[d1] == s[d2] == "needs_review"


def _retract_june(client: TestClient, ws: str) -> Any:
    """Add the June claim and retract it; the correction's answer."""
    claim = add_source(client, ws, JUNE, title="t")["claims"][0]
    preview = preview_correction(client, ws, claim["id"], "", kind="retract")
    r = apply_correction(client, ws, claim["id"], "", preview, kind="retract",
                         reason="No launch date was ever agreed.")
    assert r.status_code == 201, r.text
    return r.json()


def test_retract_rejects_the_claim_and_keeps_the_reason(client: TestClient, ws: str,
                                                        falkordb: str) -> None:
    out = _retract_june(client, ws)
    assert out["replacement"] is None
    assert out["old_claim"]["status"] == "rejected"
    assert out["correction"]["fragment"]["text"] == "No launch date was ever agreed."
    listed = client.get(f"/api/workspaces/{ws}/claims", params={"q": "launch"}).json()
    assert listed["items"] == []
    assert violations(falkordb, ws) == []


def test_reingest_does_not_resurrect_a_corrected_mistake(client: TestClient, ws: str) -> None:
    src = add_source(client, ws, JUNE, title="Launch plan")
    claim = src["claims"][0]
    preview = preview_correction(client, ws, claim["id"], JULY)
    rep = apply_correction(client, ws, claim["id"], JULY, preview).json()["replacement"]
    again = client.post(f"/api/workspaces/{ws}/sources",
                        json={"title": "Launch plan (copy)", "text": JUNE + " Doors open at 9."})
    back = next(c for c in again.json()["claims"] if c["statement"] == JUNE)
    assert back["status"] == "superseded"
    detail = client.get(f"/api/workspaces/{ws}/claims/{back['id']}").json()
    assert detail["superseded_by"]["id"] == rep["id"]
    newer = client.post(f"/api/workspaces/{ws}/sources", json={
        "source_id": src["source"]["id"], "text": "Update. " + JUNE})
    assert newer.status_code == 201
    assert [c["status"] for c in newer.json()["claims"] if c["statement"] == JUNE] == [
        "superseded"]
    run = run_agent(client, ws, "When is the launch?")
    cited = [c["id"] for p in run["decision"]["premises"] for c in p["claims"]]
    assert cited == [rep["id"]]


def test_reingest_of_a_retracted_mistake_is_born_rejected(client: TestClient, ws: str,
                                                          falkordb: str) -> None:
    _retract_june(client, ws)
    # In one source: the mistake again, and a sentence no correction touched.
    again = client.post(f"/api/workspaces/{ws}/sources", json={
        "title": "copy", "text": "Doors open at 9. " + JUNE + " The venue is Hall B."}).json()
    status = {c["statement"]: c["status"] for c in again["claims"]}
    assert status == {JUNE: "rejected", "Doors open at 9.": "proposed",
                      "The venue is Hall B.": "proposed"}, status
    back = next(c for c in again["claims"] if c["statement"] == JUNE)
    detail = client.get(f"/api/workspaces/{ws}/claims/{back['id']}").json()
    assert detail["status"] == "rejected" and detail["superseded_by"] is None
    assert violations(falkordb, ws) == []


def test_reviewer_way_back(client: TestClient, ws: str, falkordb: str) -> None:
    claim = add_source(client, ws, JUNE, title="t")["claims"][0]
    run = run_agent(client, ws, "Plan the launch event")
    d, a = run["decision"], run["actions"][0]
    r = client.patch(f"/api/workspaces/{ws}/actions/{a['id']}",
                     json={"op": "approve", "revision": a["revision"]})
    assert r.status_code == 200
    preview = preview_correction(client, ws, claim["id"], JULY)
    rep = apply_correction(client, ws, claim["id"], JULY, preview).json()["replacement"]
    held = client.get(f"/api/workspaces/{ws}/actions/{a['id']}").json()
    assert held["status"] == "held" and held["held_from"] == "approved"
    # A held action cannot move until its decision is back in good standing.
    r = client.patch(f"/api/workspaces/{ws}/actions/{a['id']}",
                     json={"op": "done", "revision": held["revision"]})
    assert r.status_code == 409 and r.json()["error"]["code"] == "invalid_transition"
    r = client.patch(f"/api/workspaces/{ws}/actions/{a['id']}",
                     json={"op": "release", "revision": held["revision"]})
    assert r.status_code == 409
    cur = client.get(f"/api/workspaces/{ws}/decisions/{d['id']}").json()
    r = client.patch(f"/api/workspaces/{ws}/decisions/{d['id']}",
                     json={"op": "accept", "revision": cur["revision"]})
    assert r.status_code == 409 and r.json()["error"]["code"] == "decision_unsupported"
    r = client.patch(f"/api/workspaces/{ws}/decisions/{d['id']}",
                     json={"op": "reconfirm", "revision": cur["revision"] - 1,
                           "claim_ids": [rep["id"]]})
    assert r.status_code == 409 and r.json()["error"]["code"] == "stale_revision"
    r = client.patch(f"/api/workspaces/{ws}/decisions/{d['id']}",
                     json={"op": "reconfirm", "revision": cur["revision"],
                           "claim_ids": [claim["id"]]})
    assert r.status_code == 409 and r.json()["error"]["code"] == "decision_unsupported"
    r = client.patch(f"/api/workspaces/{ws}/decisions/{d['id']}",
                     json={"op": "reconfirm", "revision": cur["revision"],
                           "claim_ids": [rep["id"]]})
    assert r.status_code == 200, r.text
    back = r.json()
    assert back["status"] == "accepted"
    assert [c["id"] for p in back["premises"] for c in p["claims"]] == [rep["id"]]
    assert back["actions"][0]["status"] == "approved"  # returns to where it was
    assert violations(falkordb, ws) == []


def test_rejecting_a_decision_cancels_its_actions_and_flags_dependents(
        client: TestClient, ws: str, falkordb: str) -> None:
    c1, c2, d1, d2, a1, a2, sa, sb = _ids(8)
    _load_world(falkordb, ws, claims=[(c1, sa), (c2, sb)],
                decisions=[{"id": d1, "title": "D1", "premises": {"p": [c1]}},
                           {"id": d2, "title": "D2", "premises": {"q": [c2]}, "depends_on": [d1]}],
                actions=[(a1, d1), (a2, d2)])
    r = client.patch(f"/api/workspaces/{ws}/decisions/{d1}",
                     json={"op": "reject", "revision": 1, "note": "wrong call"})
    assert r.status_code == 200, r.text
    s = statuses(falkordb, ws)
    assert (s[d1], s[a1], s[d2], s[a2]) == ("rejected", "cancelled", "needs_review", "held")
    assert violations(falkordb, ws) == []


def test_preview_before_any_decision_exists_does_not_make_later_applies_stale(
    client: TestClient, ws: str
) -> None:
    # FalkorDB caches a read plan that names a relationship type the graph does not have
    # yet, and the cached plan keeps matching nothing after the type appears. A preview in a
    # fresh workspace must not poison every later correction of a claim with decisions.
    claim = add_source(client, ws, JUNE, title="Launch plan")["claims"][0]
    preview_correction(client, ws, claim["id"], JULY)
    client.get(f"/api/workspaces/{ws}/claims/{claim['id']}")
    run = run_agent(client, ws, "Plan the launch event")
    client.post(f"/api/workspaces/{ws}/agent-runs",
                json={"task": "Plan the launch party", "builds_on": [run["decision"]["id"]]})
    preview = preview_correction(client, ws, claim["id"], JULY)
    assert run["decision"]["id"] in {f["decision_id"] for f in preview["flag"]}
    r = apply_correction(client, ws, claim["id"], JULY, preview)
    assert r.status_code == 201, r.text


def test_region_deeper_than_one_query_walks_is_read_whole(client: TestClient, ws: str,
                                                          falkordb: str) -> None:
    # The first query reads two levels itself (store.repair._CLAIM_AND_REGION); a lattice
    # of two decisions per level, 12 levels deep, plus a cycle back to the top, must still
    # be read to its last level, each decision once, with its in-degree right.
    from afterhack.store import repair as store_repair
    from tests.support.graphs import with_graph

    depth = 10
    c1, c2, sa, sb = _ids(4)
    levels = [_ids(2) for _ in range(depth)]
    decisions = [{"id": d, "title": f"L0-{i}", "premises": {"p": [c1, c2]}}
                 for i, d in enumerate(levels[0])]
    for n in range(1, depth):
        decisions += [{"id": d, "title": f"L{n}-{i}", "premises": {"q": [c2]},
                       "depends_on": list(levels[n - 1])} for i, d in enumerate(levels[n])]
    decisions[0]["depends_on"] = [levels[-1][0]]  # a cycle from the top back to the bottom
    _load_world(falkordb, ws, claims=[(c1, sa), (c2, sb)], decisions=decisions)

    claim, snap = with_graph(falkordb, ws, lambda g: store_repair.claim_region(g, c2))
    assert claim is not None and claim["n_users"] == 2 * depth
    assert set(snap.decisions) == {d for lv in levels for d in lv}
    assert snap.decisions[levels[-1][0]].n_dependents == 1
    assert snap.decisions[levels[3][1]].n_dependents == 2

    # Correcting c2 takes the one premise of every level above the first; L0-0 then rests on
    # its own cycle, and only L0-1, whose premise keeps c1 from another source, stands.
    preview = _apply_as_previewed(client, ws, c2)
    assert [s["decision_id"] for s in preview["stay"]] == [levels[0][1]]
    assert sorted(f["decision_id"] for f in preview["flag"]) == sorted(
        d for lv in levels for d in lv if d != levels[0][1])


def test_region_read_keeps_shared_actions_and_self_dependencies(client: TestClient, ws: str,
                                                                falkordb: str) -> None:
    # An action requiring a decision of the region and one outside it is held with both in
    # its decision_ids; a decision depending on itself (only a restore or the bulk loader
    # can make one) is its own upstream, so it cannot prop itself up, and its in-degree
    # counts that edge as the apply guard does, so the apply is not refused as stale.
    c1, c2, d_in, d_out, d_self, a, sa, sb = _ids(8)
    load(falkordb, ws,
         sources=[{"id": s, "title": s} for s in (sa, sb)],
         claims=[{"id": c1, "statement": "Claim one says a thing.", "source_id": sa},
                 {"id": c2, "statement": "Claim two says a thing.", "source_id": sb}],
         decisions=[{"id": d_in, "title": "In", "premises": {"p": [c1]}},
                    {"id": d_out, "title": "Out", "premises": {"p": [c2]}},
                    {"id": d_self, "title": "Self", "premises": {"p": [c1, c2]},
                     "depends_on": [d_self]}],
         actions=[{"id": a, "description": "do it", "decision_ids": [d_in, d_out]}])
    preview = _apply_as_previewed(client, ws, c1)
    assert [h["decision_ids"] for h in preview["hold"]] == [sorted([d_in, d_out])]
    assert sorted(f["decision_id"] for f in preview["flag"]) == sorted([d_in, d_self])
    reasons = {f["decision_id"]: f["reasons"] for f in preview["flag"]}
    assert reasons[d_self] == [{"type": "upstream_fell", "decision_id": d_self}]
    assert statuses(falkordb, ws)[d_out] == "draft"
    assert violations(falkordb, ws) == []


def test_action_of_a_fallen_decision_is_held_when_it_also_requires_a_deep_one(
        client: TestClient, ws: str, falkordb: str) -> None:
    # The region is read in more than one query (levels past the first two come later); an
    # action required by a decision of the first read and one of a later read must keep
    # both, or the later read's view hides that one of its decisions fell.
    c, alt, d0, da, db, dc, dd, a, sa, sb = _ids(10)
    _load_world(falkordb, ws, claims=[(c, sa), (alt, sb)], decisions=[
        {"id": d0, "title": "Falls", "premises": {"p": [c]}},
        {"id": da, "title": "Stands", "premises": {"p": [c, alt]}},
        {"id": db, "title": "B", "premises": {"p": [alt]}, "depends_on": [da]},
        {"id": dc, "title": "C", "premises": {"p": [alt]}, "depends_on": [db]},
        {"id": dd, "title": "D", "premises": {"p": [alt]}, "depends_on": [dc]}])
    load(falkordb, ws, actions=[{"id": a, "description": "both", "decision_ids": [d0, dd]}])
    preview = _apply_as_previewed(client, ws, c)
    assert [f["decision_id"] for f in preview["flag"]] == [d0]
    assert preview["hold"] == [{"action_id": a, "description": "both", "status": "proposed",
                                "decision_ids": sorted([d0, dd])}]
    assert violations(falkordb, ws) == []


def test_invariants_catch_a_replacement_citing_another_fragment(client: TestClient, ws: str,
                                                               falkordb: str) -> None:
    # The check reads two lists off each claim's fragments; when both comprehensions named
    # their node alike, FalkorDB gave the second nothing and this check could never fire.

    c1, d, sa = _ids(3)
    _load_world(falkordb, ws, claims=[(c1, sa)],
                decisions=[{"id": d, "title": "D", "premises": {"p": [c1]}}])
    _apply_as_previewed(client, ws, c1)
    assert violations(falkordb, ws) == []
    write(falkordb, ws, "MATCH (:Claim {confidence_kind: 'human_correction'})-[:SUPPORTED_BY]->"
                        "(f:SourceFragment) SET f.source_id = 'elsewhere'")
    assert any("cites another correction's fragment" in v for v in violations(falkordb, ws))


def test_invariants_catch_a_region_edge_between_other_labels(client: TestClient, ws: str,
                                                             falkordb: str) -> None:
    # The region query follows USED_CLAIM and DEPENDS_ON without checking labels.

    c1, d, sa = _ids(3)
    _load_world(falkordb, ws, claims=[(c1, sa)],
                decisions=[{"id": d, "title": "D", "premises": {"p": [c1]}}])
    assert violations(falkordb, ws) == []
    write(falkordb, ws,
          "MATCH (c:Claim {id: $c}), (d:Decision {id: $d}) CREATE (c)-[:DEPENDS_ON]->(d)",
          {"c": c1, "d": d})
    assert "1 DEPENDS_ON edges do not join a Decision to a Decision" in violations(falkordb, ws)


def test_preview_checks_the_workspace_in_its_own_read(client: TestClient, ws: str,
                                                      falkordb: str) -> None:
    c1, d, sa = _ids(3)
    _load_world(falkordb, ws, claims=[(c1, sa)],
                decisions=[{"id": d, "title": "D", "premises": {"p": [c1]}}])
    missing_ws = str(uuid.uuid4())
    body = {"statement": "Another statement."}
    r = client.post(f"/api/workspaces/{missing_ws}/claims/{c1}/corrections/preview", json=body)
    assert r.status_code == 404 and r.json()["error"]["code"] == "workspace_not_found"
    r = client.post(f"/api/workspaces/{ws}/claims/{_ids(1)[0]}/corrections/preview", json=body)
    assert r.status_code == 404 and r.json()["error"]["code"] == "claim_not_found"

    # A workspace whose graph exists but is not ready (being created or restored) is absent.
    from tests.support.graphs import with_graph

    async def unready(g: Any) -> None:
        await g.write("MATCH (w:Workspace) SET w.ready = false")

    with_graph(falkordb, ws, unready)
    r = client.post(f"/api/workspaces/{ws}/claims/{c1}/corrections/preview", json=body)
    assert r.status_code == 404 and r.json()["error"]["code"] == "workspace_not_found"
