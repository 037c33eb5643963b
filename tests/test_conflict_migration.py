"""Conflicts raised as pairs before a conflict was a dispute over one fact are joined into one
conflict per fact at start-up (docs/rules.md, rule 9; memory/conflict_migration.py): on the
real FalkorDB, with the pairs written as the code before disputes wrote them."""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from afterhack.memory import conflict_migration
from afterhack.records.clock import now_ms
from afterhack.records.conflicts import pair_key
from afterhack.records.ids import new_id
from afterhack.store import conflict_migration as store_migration
from afterhack.store.client import Graph, Store
from tests.support.api import add_source, app_client, new_workspace
from tests.support.conflicts import claims_of
from tests.support.graphs import violations, with_graph, write
from tests.support.settings import EMBED_INLINE, make_settings

NOTES = ["The event budget is 40,000 euros.", "The event budget is 50,000 euros.",
         "The event budget is 60,000 euros.", "Finance says the event budget is EUR 40k.",
         "The product launch is on June 12.", "The product launch is on June 19."]
# The pairs as the code before disputes raised them: every budget against every other value
# (the restated 40k against 50k and 60k too), and the one pair of launch dates.
PAIRS = [(0, 1, "amount"), (0, 2, "amount"), (1, 2, "amount"), (3, 1, "amount"),
         (3, 2, "amount"), (4, 5, "date")]


def _tick() -> int:
    """A time later than any written before it (the clock moves on by at least a ms)."""
    start = now_ms()
    while now_ms() == start:
        pass
    return now_ms()


@pytest.fixture
def unchecked(falkordb: str, tmp_path: Path) -> Iterator[TestClient]:
    """An app that raises no conflict of its own, to write the claims with."""
    settings = make_settings(falkordb_url=falkordb, data_dir=tmp_path, conflict_checks=False,
                             **EMBED_INLINE)
    with app_client(settings) as c:
        yield c


def _old_pairs(falkordb: str, ws: str, claims: list[dict[str, Any]]) -> list[str]:
    """The pairs written as before: no side, no time on their edges, and no counts."""
    ids = []
    for a, b, kind in PAIRS:
        cid, at = new_id(), _tick()
        write(falkordb, ws, (
            "MATCH (a:Node {id: $a}), (b:Node {id: $b}) "
            "CREATE (k:Conflict:Node {id: $id, key: $key, status: 'open', "
            "status_history: ['open'], status_since: [$at], kind: $kind, reason: 'r', "
            "detected_by: 'offline-rules-1', revision: 1, created_at: $at}) "
            "CREATE (k)-[:BETWEEN]->(a), (k)-[:BETWEEN]->(b)"), {
            "a": claims[a]["id"], "b": claims[b]["id"], "id": cid, "at": at, "kind": kind,
            "key": pair_key(claims[a]["statement_key"], claims[b]["statement_key"])})
        ids.append(cid)
    return ids


def _migrate(falkordb: str, ws: str) -> int:
    return with_graph(falkordb, ws, conflict_migration.migrate)


def _open(client: TestClient, ws: str, **params: Any) -> list[dict[str, Any]]:
    return list(client.get(f"/api/workspaces/{ws}/conflicts",
                           params={"status": "open", "limit": 50, **params}).json()["items"])


def _claims(unchecked: TestClient, falkordb: str, ws: str) -> list[dict[str, Any]]:
    """The notes' claims, each with its statement key (read from the graph)."""
    out = [add_source(unchecked, ws, text, title=f"Note {i}")["claims"][0]
           for i, text in enumerate(NOTES)]

    async def keys(g: Graph) -> dict[str, str]:
        rows = await g.read("MATCH (c:Node) WHERE c:Claim AND c.id IN $ids "
                            "RETURN c.id AS id, c.statement_key AS key",
                            {"ids": [c["id"] for c in out]})
        return {r["id"]: r["key"] for r in rows}

    found = with_graph(falkordb, ws, keys)
    return [{**c, "statement_key": found[c["id"]]} for c in out]


def test_pairs_over_one_fact_become_one_dispute(client: TestClient, unchecked: TestClient,
                                                falkordb: str) -> None:
    ws = new_workspace(unchecked, "pairs")
    claims = _claims(unchecked, falkordb, ws)
    pairs = _old_pairs(falkordb, ws, claims)
    assert violations(falkordb, ws) == []  # pairs are disputes of two sides already
    assert len(_open(client, ws)) == 6
    before = _tick()
    _tick()
    written = _migrate(falkordb, ws)
    assert written == 2  # one dispute of budgets, the launch pair given its sides

    budget, launch = sorted(_open(client, ws), key=lambda k: k["kind"])
    assert budget["id"] == pairs[0] and launch["id"] == pairs[5]  # the oldest survives
    assert {s["value"]: {c["statement"] for c in s["claims"]} for s in budget["sides"]} == {
        "EUR 40,000": {NOTES[0], NOTES[3]}, "EUR 50,000": {NOTES[1]},
        "EUR 60,000": {NOTES[2]}}
    assert budget["n_sides"] == 3 and budget["n_claims"] == 4
    assert {c["statement"] for c in claims_of(launch)} == set(NOTES[4:])
    for merged in pairs[1:5]:
        k = client.get(f"/api/workspaces/{ws}/conflicts/{merged}").json()
        assert k["status"] == "resolved" and k["settled_by"]["kind"] == "merged"
        assert k["settled_by"]["id"] == budget["id"]
    # As of before the migration, the pairs were open, each with its two claims.
    then = _open(client, ws, as_of=str(before))
    assert sorted(k["id"] for k in then) == sorted(pairs)
    assert all(len(claims_of(k)) == 2 for k in then)
    then_budget = client.get(f"/api/workspaces/{ws}/conflicts/{budget['id']}",
                             params={"as_of": str(before)}).json()
    assert {c["statement"] for c in claims_of(then_budget)} == set(NOTES[:2])
    assert violations(falkordb, ws) == []
    # Again: nothing is left to join.
    assert _migrate(falkordb, ws) == 0
    # A new value joins the dispute, not a pair of its own.
    more = add_source(client, ws, "The event budget is 70,000 euros.", title="Note 6")
    (joined,) = more["conflicts"]
    assert joined["id"] == budget["id"] and len(_open(client, ws)) == 2


def test_a_migration_stopped_between_steps_finishes_when_run_again(
        client: TestClient, unchecked: TestClient, falkordb: str,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Each step is one write: stopped after the first (a kill between two steps), the
    workspace is consistent, and the next start joins the rest."""
    ws = new_workspace(unchecked, "stopped")
    claims = _claims(unchecked, falkordb, ws)
    pairs = _old_pairs(falkordb, ws, claims)
    monkeypatch.setattr(conflict_migration, "STEP", 1)

    async def first_step_only(g: Graph) -> int:
        around = await store_migration.open_of_keys(g, sorted(
            {m["key"] for k in await store_migration.pairs(g) for m in k["members"]}))
        steps = list(itertools.chain.from_iterable(
            conflict_migration.plan(group, _tick())
            for group in conflict_migration.groups(around)))
        assert len(steps) == 5  # four pairs into the budget, one at a time; the launch pair
        return int(await store_migration.merge(g, steps[0]))

    assert with_graph(falkordb, ws, first_step_only) == 1
    assert violations(falkordb, ws) == []
    assert len(_open(client, ws)) == 5
    assert _migrate(falkordb, ws) == 4
    assert sorted(k["id"] for k in _open(client, ws)) == sorted([pairs[0], pairs[5]])
    assert violations(falkordb, ws) == []


def test_every_workspace_is_migrated_at_start(unchecked: TestClient, falkordb: str) -> None:
    ws = new_workspace(unchecked, "at start")
    _old_pairs(falkordb, ws, _claims(unchecked, falkordb, ws))

    async def everywhere() -> int:
        store = Store(falkordb)
        try:
            return await conflict_migration.migrate_everywhere(store)
        finally:
            await store.close()

    assert asyncio.run(everywhere()) >= 2
    assert len(_open(unchecked, ws)) == 2
