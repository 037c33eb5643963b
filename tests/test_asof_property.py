"""Random sequences of ingests, new versions, agent runs, corrections, conflict resolutions
and reviews: after each step every read is taken as a snapshot, and at the end every read
as of each step's moment equals that snapshot (docs/rules.md, rule 10). Bounded by count and
steps so the suite stays fast."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.support.graphs import violations
from tests.support.moments import compare_at, moment, world
from tests.support.steps import SENTENCES, TASKS, step, steps


@settings(max_examples=8, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(plan=st.lists(steps, min_size=3, max_size=7))
def test_every_read_as_of_a_step_equals_its_snapshot(client: TestClient, falkordb: str,
                                                     plan: list[tuple[Any, ...]]) -> None:
    ws = client.post("/api/workspaces", json={"name": "asof"}).json()["id"]
    snapshots = []
    # A memo and a plan resting on it first, so later steps have something to change.
    for s in [("ingest", SENTENCES[0] + " " + SENTENCES[2]), ("run", TASKS[0]), *plan]:
        step(client, ws, s)
        snapshots.append((moment(), world(client, ws)))
    compare_at(client, ws, snapshots)
    assert violations(falkordb, ws) == []
