"""No collateral: on a benchmark-shaped workspace, resolving a conflict changes nothing
outside the superseded claims' region (the invariant checker compares before and after)."""

from __future__ import annotations

import re

from fastapi.testclient import TestClient

from afterhack.store.invariants import collateral, states
from afterhack_tools.bench.synth import build_workspace, correction_targets
from tests.support.conflicts import claims_of
from tests.support.graphs import load, violations, with_graph


def _moved(statement: str) -> str:
    """The same statement with another day of the month: a date conflict."""
    m = re.search(r" on (\w+) (\d+) ", statement)
    assert m is not None
    day = int(m.group(2)) % 28 + 1
    return statement[: m.start(2)] + str(day) + statement[m.end(2):]


def test_resolving_changes_only_the_losing_region(client: TestClient, ws: str,
                                                  falkordb: str) -> None:
    shape = build_workspace(1500, seed=11)
    load(falkordb, ws, sources=shape.sources, claims=shape.claims, decisions=shape.decisions,
         actions=shape.actions)
    assert violations(falkordb, ws) == []
    by_id = {c["id"]: c for c in shape.claims}
    targets = [t for t in correction_targets(shape, 40)
               if by_id[t]["status"] in ("proposed", "accepted")][:6]
    text = " ".join(_moved(by_id[t]["statement"]) for t in targets)
    added = client.post(f"/api/workspaces/{ws}/sources", json={"title": "Revised plan",
                                                               "text": text}).json()
    raised = {next(c["id"] for c in claims_of(k) if c["id"] in by_id): k
              for k in added["conflicts"]}
    assert set(raised) == set(targets), added["conflicts"]
    flagged_any = False
    for i, old in enumerate(targets):
        k = raised[old]
        new = next(c["id"] for c in claims_of(k) if c["id"] != old)
        keep, lose = (new, old) if i % 2 == 0 else (old, new)
        base = f"/api/workspaces/{ws}/conflicts/{k['id']}"
        p = client.post(base + "/preview", json={"keep": keep}).json()
        before = with_graph(falkordb, ws, states)
        r = client.post(base + "/resolve", json={
            "keep": keep, "conflict_revision": p["revisions"]["conflict_revision"],
            "impact_token": p["revisions"]["impact_token"]})
        assert r.status_code == 201, r.text
        out = r.json()
        after = with_graph(falkordb, ws, states)
        assert out["superseded"] == [lose]
        allowed = {lose, k["id"], *out["flagged"], *out["held"]}
        assert collateral(before, after, allowed) == []
        assert after[lose][0] == "superseded"
        assert {d for d in out["flagged"]} == {f["decision_id"] for f in p["flag"]}
        flagged_any = flagged_any or bool(out["flagged"])
    assert violations(falkordb, ws) == []
    assert flagged_any  # the check was not vacuous: some resolution flagged a decision
