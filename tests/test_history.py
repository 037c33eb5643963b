"""Status histories (store/history.py) on the real FalkorDB: written with every change, read
back as of any time, carried by graphs written before them, checked by the invariants."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from afterhack.errors import InvalidRequest
from afterhack.store.client import Graph
from afterhack.store.history import held_from_at, status_at_in
from afterhack.store.history import status_at as status_at_cypher
from afterhack.temporal.moments import parse_as_of, status_at, valid_at
from tests.support.api import add_source, claim_named, correct_claim, resolve_conflict, run_agent
from tests.support.graphs import violations, with_graph, write
from tests.support.moments import moment
from tests.support.texts import APRIL, JUNE12, JUNE19, MARCH, VENUE


def _histories(url: str, ws: str) -> dict[str, tuple[list[str], list[int], int]]:
    async def read(g: Graph) -> dict[str, tuple[list[str], list[int], int]]:
        rows = await g.read("MATCH (n) WHERE n:Claim OR n:Decision OR n:Action OR n:Conflict "
                            "RETURN n.id AS id, n.status_history AS h, n.status_since AS s, "
                            "n.created_at AS c")
        return {r["id"]: (r["h"], r["s"], r["c"]) for r in rows}

    return with_graph(url, ws, read)


def test_every_change_of_the_two_memos_is_in_the_history(client: TestClient, ws: str,
                                                          falkordb: str) -> None:
    march = add_source(client, ws, MARCH, title="March memo")
    plan = run_agent(client, ws, "Plan the launch event")
    april = add_source(client, ws, APRIL, title="April memo")
    fix = correct_claim(client, ws, claim_named(march, VENUE)["id"],
                        "The launch venue is the Park Pavilion.", reason="The hotel cancelled.")
    conflict = april["conflicts"][0]["id"]
    resolve_conflict(client, ws, conflict, keep=claim_named(april, JUNE19)["id"])
    h = _histories(falkordb, ws)
    assert h[claim_named(march, JUNE12)["id"]][0] == ["proposed", "superseded"]
    assert h[claim_named(march, VENUE)["id"]][0] == ["proposed", "superseded"]
    assert h[fix["replacement"]["id"]][0] == ["accepted"]
    assert h[claim_named(april, JUNE19)["id"]][0] == ["proposed"]
    # Flagged by the correction; flagging again on the conflict adds a second entry.
    assert h[plan["decision"]["id"]][0][:2] == ["draft", "needs_review"]
    assert h[plan["actions"][0]["id"]][0] == ["proposed", "held"]
    assert h[conflict][0] == ["open", "resolved"]
    for node, (statuses, since, created) in h.items():
        assert len(statuses) == len(since) and since[0] == created, node
        assert since == sorted(since), node
    assert violations(falkordb, ws) == []


def test_release_and_reconfirm_keep_what_was(client: TestClient, ws: str,
                                             falkordb: str) -> None:
    base = f"/api/workspaces/{ws}"
    march = add_source(client, ws, MARCH, title="March memo")
    plan = run_agent(client, ws, "Plan the launch event")
    d, action = plan["decision"], plan["actions"][0]
    correct_claim(client, ws, claim_named(march, VENUE)["id"],
                  "The launch venue is the Park Pavilion.", reason="The hotel cancelled.")
    flagged = moment()
    # A reviewer re-confirms the decision on the June 12 claim alone: the held action is
    # released to what it was, and the decision rests on one premise from now on.
    now = client.get(f"{base}/decisions/{d['id']}").json()
    r = client.patch(f"{base}/decisions/{d['id']}", json={
        "op": "reconfirm", "revision": now["revision"],
        "claim_ids": [claim_named(march, JUNE12)["id"]]})
    assert r.status_code == 200, r.text
    assert _histories(falkordb, ws)[action["id"]][0] == ["proposed", "held", "proposed"]
    assert _histories(falkordb, ws)[d["id"]][0] == ["draft", "needs_review", "accepted"]
    after = client.get(f"{base}/decisions/{d['id']}").json()
    assert [p["premise"] for p in after["premises"]] == ["main"]
    then = client.get(f"{base}/decisions/{d['id']}", params={"as_of": flagged}).json()
    assert then["status"] == "needs_review"
    assert {p["premise"] for p in then["premises"]} == {JUNE12, VENUE}
    held = client.get(f"{base}/actions/{action['id']}", params={"as_of": flagged}).json()
    assert held["status"] == "held" and held["held_from"] == "proposed"
    # Why then: the premises it was made on; why now: the one it was re-confirmed on.
    support = after["support"]
    assert [t for t in support["reconfirmed"]] and support["reconfirmed"][0] > flagged
    by = {p["premise"]: p for p in support["premises"]}
    assert by[VENUE]["held_then"] and by[VENUE]["now"] == []
    assert by["main"]["then"] == [] and by["main"]["holds_now"]
    assert violations(falkordb, ws) == []


def test_a_graph_written_before_histories_reads_and_changes(client: TestClient, ws: str,
                                                            falkordb: str) -> None:
    base = f"/api/workspaces/{ws}"
    march = add_source(client, ws, MARCH, title="March memo")
    plan = run_agent(client, ws, "Plan the launch event")
    write(falkordb, ws, "MATCH (n) REMOVE n.status_history, n.status_since")
    assert violations(falkordb, ws) == []
    t = moment()
    june12 = claim_named(march, JUNE12)["id"]
    # Read as "this status since it was created".
    assert client.get(f"{base}/claims/{june12}", params={"as_of": t}).json()["status"] == \
        "proposed"
    created = plan["decision"]["created_at"]
    assert client.get(f"{base}/decisions/{plan['decision']['id']}",
                      params={"as_of": created - 1}).status_code == 404
    correct_claim(client, ws, june12, "The product launch is planned for June 30.",
                  reason="The hotel cancelled.")
    h = _histories(falkordb, ws)
    assert h[june12][0] == ["proposed", "superseded"]
    assert h[june12][1][0] == h[june12][2]
    assert h[plan["decision"]["id"]][0] == ["draft", "needs_review"]
    assert client.get(f"{base}/claims/{june12}", params={"as_of": t}).json()["status"] == \
        "proposed"
    assert violations(falkordb, ws) == []


def test_the_invariants_see_a_status_written_without_its_history(client: TestClient, ws: str,
                                                                  falkordb: str) -> None:
    march = add_source(client, ws, MARCH, title="March memo")
    cid = march["claims"][0]["id"]
    write(falkordb, ws, "MATCH (c:Claim {id:$id}) SET c.status = 'accepted'", {"id": cid})
    assert any("history ends proposed" in v for v in violations(falkordb, ws))
    write(falkordb, ws, "MATCH (c:Claim {id:$id}) SET c.status_since = [1, 0]", {"id": cid})
    problems = violations(falkordb, ws)
    assert any("differ in length" in v for v in problems), problems


def test_a_restore_refuses_a_history_that_is_not_its_status(client: TestClient, ws: str
                                                            ) -> None:
    add_source(client, ws, MARCH, title="March memo")
    doc = client.get(f"/api/workspaces/{ws}/export").json()
    assert client.delete(f"/api/workspaces/{ws}").status_code == 200
    claim = next(n for n in doc["nodes"] if n["labels"] == ["Claim"])["properties"]
    assert claim["status_history"] == ["proposed"]
    claim["status_history"] = ["accepted"]
    r = client.post("/api/workspaces/restore", json=doc)
    assert r.status_code == 422 and "history" in r.json()["error"]["message"], r.text
    claim["status_history"] = ["believed"]
    r = client.post("/api/workspaces/restore", json=doc)
    assert r.status_code == 422 and "status_history" in r.json()["error"]["message"], r.text
    claim["status_history"] = ["proposed"]
    assert client.post("/api/workspaces/restore", json=doc).status_code == 201


HELD = "['held']"


@settings(max_examples=25, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(steps=st.lists(st.tuples(st.sampled_from(["proposed", "held", "approved"]),
                                st.integers(0, 3)), min_size=1, max_size=5),
       probes=st.lists(st.integers(-2, 20), min_size=1, max_size=6))
def test_cypher_and_python_read_a_history_alike(falkordb: str, ws: str,
                                                 steps: list[tuple[str, int]],
                                                 probes: list[int]) -> None:
    history = [s for s, _ in steps]
    since: list[int] = []
    for _, gap in steps:  # in order, ties allowed
        since.append((since[-1] if since else 0) + gap)

    async def read(g: Graph) -> list[tuple[Any, ...]]:
        await g.write("MATCH (a:Action {id:'h'}) DELETE a")
        await g.write("CREATE (:Action {id:'h', status:$s, status_history:$h, "
                      "status_since:$t, created_at:$t[0]})",
                      {"s": history[-1], "h": history, "t": since})
        out = []
        for t in probes:
            row = (await g.read(
                f"MATCH (a:Action {{id:'h'}}) RETURN {status_at_cypher('a')} AS s, "
                f"{held_from_at('a')} AS hf, {status_at_in('a', HELD)} AS is_held",
                {"as_of": t})).first()
            assert row is not None
            out.append((row["s"], row["hf"], row["is_held"]))
        return out

    got = with_graph(falkordb, ws, read)
    for t, (s, hf, is_held) in zip(probes, got, strict=True):
        want = status_at(history, since, t)
        assert s == want, (history, since, t)
        assert bool(is_held) == (want == "held")
        if want == "held":
            i = max(i for i, x in enumerate(since) if x <= t)
            assert hf == (history[i - 1] if i > 0 else None)


def test_as_of_parsing() -> None:
    assert parse_as_of(None) is None
    assert parse_as_of("0") == 0
    assert parse_as_of("1970-01-01T00:00:01Z") == 1000
    assert parse_as_of("1970-01-01T01:00:01+01:00") == 1000
    assert parse_as_of("1970-01-01T00:00:00.5") == 500
    assert parse_as_of("1970-01-01") == 86_400_000 - 1
    # An empty value is not "no value": it is refused like any other it cannot read, as are
    # digits outside ASCII.
    for bad in ("soon", "-1", "1970-02-30", "1e3", "12:00", "", "１２３", "٣"):
        with pytest.raises(InvalidRequest):
            parse_as_of(bad)
    assert valid_at(None, None, 5) and valid_at(5, 6, 5) and not valid_at(5, 6, 6)
    assert not valid_at(7, None, 6)
