"""A conflict is a dispute over one fact (docs/rules.md, rule 9), and the newest word comes
first (rule 3): through the API of the real app, on the real FalkorDB."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest
import redis
from falkordb.helpers import stringify_param_value
from fastapi.testclient import TestClient

from afterhack.store.client import Rows, Store
from afterhack.store.names import graph_name
from tests.support.api import add_source, cited, run_agent
from tests.support.chat import MINUTE, T0, Chat
from tests.support.commands import command
from tests.support.conflicts import claims_of
from tests.support.graphs import violations

SOURCES, NOTES = 100, 8


def _notes(s: int) -> str:
    """A source of notes that each give the budget another value."""
    return " ".join(f"Note {s}-{i} says the budget is {s * 10 + i} euros."
                    for i in range(1, NOTES + 1))


def _open(client: TestClient, ws: str) -> list[dict[str, Any]]:
    r = client.get(f"/api/workspaces/{ws}/conflicts", params={"status": "open", "limit": 50})
    assert r.status_code == 200, r.text
    return list(r.json()["items"])


def _plan(url: str, graph: str, how: str, cypher: str, params: Mapping[str, Any]) -> list[str]:
    """FalkorDB's plan of a query (``GRAPH.EXPLAIN``), or its profile (``GRAPH.PROFILE``:
    run, for a read)."""
    header = "CYPHER " + "".join(f"{k}={stringify_param_value(v)} " for k, v in params.items())
    r = redis.Redis.from_url(url, decode_responses=True)
    try:
        return list(command(r, how, graph, header + cypher))
    finally:
        r.close()


def _produced(line: str) -> int:
    return int(line.split("Records produced: ")[1].split(",")[0])


def test_a_hundred_sources_of_one_budget_are_one_dispute(
        client: TestClient, ws: str, falkordb: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """800 notes that each give the budget another value leave at most 5 open conflicts
    (one, here), each value a side of its own; and a write that joins the dispute when it
    is 800 claims large reads none of them: no step of its queries on the conflicts sees
    more rows than the write's own claims bring, and its write joins edge by edge."""
    for s in range(1, SOURCES + 1):
        r = client.post(f"/api/workspaces/{ws}/sources",
                        json={"title": f"Notes {s}", "text": _notes(s)})
        assert r.status_code == 201, r.text
    listed = _open(client, ws)
    assert 1 <= len(listed) <= 5
    (dispute,) = listed
    assert dispute["kind"] == "amount" and dispute["n_sides"] == dispute["n_claims"]
    assert dispute["n_claims"] >= (SOURCES - 1) * NOTES

    sent: list[tuple[str, str, Mapping[str, Any]]] = []
    run = Store.run

    async def recording(self: Store, graph: str, cypher: str,
                        params: Mapping[str, Any] | None = None, *, read_only: bool,
                        primary: bool = False) -> Rows:
        if "BETWEEN" in cypher and graph == graph_name(ws):
            sent.append(("read" if read_only else "write", cypher, dict(params or {})))
        return await run(self, graph, cypher, params, read_only=read_only, primary=primary)

    monkeypatch.setattr(Store, "run", recording)
    one_more = client.post(f"/api/workspaces/{ws}/sources",
                           json={"title": "Notes 101", "text": _notes(SOURCES + 1)})
    monkeypatch.undo()
    assert one_more.status_code == 201, one_more.text
    (joined,) = one_more.json()["conflicts"]
    assert joined["id"] == dispute["id"] and not joined["complete"]
    assert joined["n_claims"] == dispute["n_claims"] + NOTES
    assert [kind for kind, _, _ in sent].count("write") == 1
    for kind, cypher, params in sent:
        if kind == "write":
            # Its claims join the dispute edge by edge, each between a conflict and a claim
            # both found by id: no step walks from the conflict to its claims.
            plan = _plan(falkordb, graph_name(ws), "GRAPH.EXPLAIN", cypher, params)
            steps = [line for line in plan if "BETWEEN" in line]
            assert steps and all("Expand Into" in line for line in steps), plan
            continue
        profile = _plan(falkordb, graph_name(ws), "GRAPH.PROFILE", cypher, params)
        worst = max(_produced(line) for line in profile if "Records produced" in line)
        assert worst < 5 * NOTES * NOTES, (cypher, profile)
    assert violations(falkordb, ws) == []


def test_a_new_value_joins_and_a_restated_one_joins_its_side(client: TestClient, ws: str,
                                                             falkordb: str) -> None:
    add_source(client, ws, "The event budget is 40,000 euros.", title="Plan")
    second = add_source(client, ws, "The event budget is 50,000 euros.", title="Finance")
    (k,) = second["conflicts"]
    third = add_source(client, ws, "The event budget is 60,000 euros.", title="Venue")
    (joined,) = third["conflicts"]
    assert joined["id"] == k["id"]
    again = add_source(client, ws, "Finance confirmed a budget of EUR 50k.", title="Minutes")
    (restated,) = again["conflicts"]
    assert restated["id"] == k["id"]
    read = client.get(f"/api/workspaces/{ws}/conflicts/{k['id']}").json()
    assert {s["value"]: len(s["claims"]) for s in read["sides"]} == {
        "EUR 40,000": 1, "EUR 50,000": 2, "EUR 60,000": 1}
    assert read["n_sides"] == 3 and read["n_claims"] == 4
    assert len(_open(client, ws)) == 1
    # A run that finds two of its values does not pick one.
    run = run_agent(client, ws, "What is the event budget?")
    assert run["decision"]["status"] == "needs_review"
    assert run["decision"]["review_reason"]["conflict_ids"] == [k["id"]]
    # Keeping one value supersedes every claim of the others, in one resolution.
    keep = next(c["id"] for s in read["sides"] if s["value"] == "EUR 50,000"
                for c in s["claims"])
    p = client.post(f"/api/workspaces/{ws}/conflicts/{k['id']}/preview",
                    json={"keep": keep}).json()
    assert {x["statement"] for x in p["supersede"]} == {
        "The event budget is 40,000 euros.", "The event budget is 60,000 euros."}
    r = client.post(f"/api/workspaces/{ws}/conflicts/{k['id']}/resolve", json={
        "keep": keep, "conflict_revision": p["revisions"]["conflict_revision"],
        "impact_token": p["revisions"]["impact_token"]})
    assert r.status_code == 201, r.text
    assert len(r.json()["superseded"]) == 2 and r.json()["conflict"]["status"] == "resolved"
    again_r = client.post(f"/api/workspaces/{ws}/conflicts/{k['id']}/resolve", json={
        "keep": keep, "conflict_revision": p["revisions"]["conflict_revision"],
        "impact_token": p["revisions"]["impact_token"]})
    assert again_r.status_code == 200 and again_r.json()["status"] == "already_applied"
    assert violations(falkordb, ws) == []


def test_dismissing_a_dispute_keeps_every_value_and_raises_none_of_it_again(
        client: TestClient, ws: str, falkordb: str) -> None:
    add_source(client, ws, "The event budget is 40,000 euros.", title="Plan")
    (k,) = add_source(client, ws, "The event budget is 50,000 euros.",
                      title="Finance")["conflicts"]
    p = client.post(f"/api/workspaces/{ws}/conflicts/{k['id']}/preview",
                    json={"dismiss": True}).json()
    r = client.post(f"/api/workspaces/{ws}/conflicts/{k['id']}/resolve", json={
        "dismiss": True, "reason": "Two budgets: the event's and the party's.",
        "conflict_revision": p["revisions"]["conflict_revision"],
        "impact_token": p["revisions"]["impact_token"]})
    assert r.status_code == 201, r.text
    # Either value said again raises nothing: both were held together by a reviewer.
    assert add_source(client, ws, "The event budget is 50,000 euros.",
                      title="Finance again")["conflicts"] == []
    assert _open(client, ws) == []
    assert violations(falkordb, ws) == []


@pytest.mark.parametrize("updates", ["latest_wins", "review"])
def test_the_newest_word_comes_first(client: TestClient, ws: str, updates: str) -> None:
    """"When does Ana land?" gives the 9:15 claim first: under latest_wins the 7:40 is
    superseded and out of the answer; under review both are current, the newest first. A
    question about now is answered from the newest value alone, by a search and by a run;
    the superseded value is there when a status asks for it."""
    assert client.patch(f"/api/workspaces/{ws}", json={"updates": updates}).status_code == 200
    chat = Chat(client, ws)
    chat.say("Ana", "My flight lands at 7:40.", T0)
    chat.say("Ben", "My flight lands at 11:00.", T0 + MINUTE)
    moved = chat.say("Ana", "I changed my flight. It lands at 9:15 now.", T0 + 2 * MINUTE)
    (nine,) = moved["claims"]
    base = f"/api/workspaces/{ws}/claims"
    hits = client.get(base, params={"q": "When does Ana land?"}).json()["items"]
    statements = [h["statement"] for h in hits]
    assert statements[0] == nine["statement"], statements
    if updates == "latest_wins":
        assert "My flight lands at 7:40." not in statements
        everything = client.get(base, params={"q": "When does Ana land?", "status": "all"}
                                ).json()["items"]
        assert "My flight lands at 7:40." in [h["statement"] for h in everything]
    else:
        assert statements.index(nine["statement"]) < statements.index(
            "My flight lands at 7:40.")
    now = [h["statement"] for h in client.get(
        base, params={"q": "When does Ana's flight land now?"}).json()["items"]]
    assert nine["statement"] in now and "My flight lands at 7:40." not in now
    run = run_agent(client, ws, "When does Ana's flight land now?")
    assert nine["id"] in cited(run) and run["decision"]["status"] != "needs_review"
    statuses = {c["statement"] for p in run["decision"]["premises"] for c in p["claims"]}
    assert "My flight lands at 7:40." not in statuses


def test_a_question_not_about_now_sees_both_values_in_review(client: TestClient,
                                                             ws: str) -> None:
    chat = Chat(client, ws)
    chat.say("Tom", "The team offsite is on March 14.", T0)
    chat.say("Tom", "Correction: the team offsite is on March 21, not March 14.", T0 + MINUTE)
    hits = [h["statement"] for h in client.get(
        f"/api/workspaces/{ws}/claims", params={"q": "team offsite"}).json()["items"]]
    assert hits[:2] == ["Correction: the team offsite is on March 21, not March 14.",
                        "The team offsite is on March 14."]
    run = run_agent(client, ws, "When is the team offsite?")
    assert run["decision"]["status"] == "needs_review"
    assert run["decision"]["review_reason"]["type"] == "sources_disagree"
    listed = client.get(f"/api/workspaces/{ws}/conflicts").json()["items"]
    assert [len(claims_of(k)) for k in listed] == [2]
