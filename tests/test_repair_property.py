"""Random dependency graphs, random corrections: what apply flags and holds equals a
from-scratch oracle, and the preview always equals what apply did.

The oracle is written from the definition in docs/rules.md (rules 4 and 5), in a different form
from support.py: a correction refutes the corrected claim and every current claim stating
the same (its twins); a decision of the affected region stays in good standing exactly when
every decision it (transitively) builds on inside the region is eligible, none of them lies
on a cycle, and every decision they build on outside the region is in good standing.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from typing import Any

from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.support.graphs import load, statuses, violations

GOOD = {"draft", "accepted"}
CURRENT = {"proposed", "accepted"}
OPEN = {"proposed", "approved"}


@dataclass
class World:
    claims: dict[str, tuple[str, str]] = field(default_factory=dict)  # id -> (source, status)
    facts: dict[str, int] = field(default_factory=dict)  # id -> which statement it states
    decisions: dict[str, dict[str, Any]] = field(default_factory=dict)
    actions: dict[str, dict[str, Any]] = field(default_factory=dict)


@st.composite
def worlds(draw: st.DrawFn) -> tuple[World, str, str]:
    w = World()
    n_sources = draw(st.integers(1, 3))
    n_claims = draw(st.integers(2, 8))
    ids = [str(uuid.uuid4()) for _ in range(n_claims)]
    for i, cid in enumerate(ids):
        status = "proposed" if i == 0 else draw(
            st.sampled_from(["proposed", "proposed", "accepted", "rejected"]))
        w.claims[cid] = (f"S{draw(st.integers(0, n_sources - 1))}", status)
        # Most claims state a fact of their own; some repeat an earlier claim's (a twin).
        w.facts[cid] = i if i == 0 or draw(st.integers(0, 3)) else draw(st.integers(0, i - 1))
    dids = [str(uuid.uuid4()) for _ in range(draw(st.integers(1, 7)))]
    for did in dids:
        n_prem = draw(st.integers(1, 3))
        premises = {f"p{k}": sorted(set(draw(st.lists(st.sampled_from(ids), min_size=1,
                                                        max_size=3))))
                    for k in range(n_prem)}
        ups = sorted(set(draw(st.lists(st.sampled_from(dids), max_size=3))) - {did})
        status = draw(st.sampled_from(["draft", "draft", "draft", "accepted", "needs_review",
                                       "rejected"]))
        w.decisions[did] = {"premises": premises, "ups": ups, "status": status}
        for _ in range(draw(st.integers(0, 2))):
            aid = str(uuid.uuid4())
            extra = draw(st.lists(st.sampled_from(dids), max_size=1))
            w.actions[aid] = {"decisions": sorted({did, *extra}), "status": draw(
                st.sampled_from(["proposed", "approved", "held", "done", "cancelled"]))}
    current = [c for c, (_, s) in w.claims.items() if s in CURRENT]
    corrected = draw(st.sampled_from(current))
    kind = draw(st.sampled_from(["replace", "retract"]))
    return w, corrected, kind


def refuted(w: World, corrected: str) -> set[str]:
    """The corrected claim and every current claim stating the same."""
    return {c for c, f in w.facts.items() if f == w.facts[corrected]
            and (c == corrected or w.claims[c][1] in CURRENT)}


def oracle(w: World, corrected: str, policy: str = "independent") -> tuple[set[str], set[str]]:
    gone = refuted(w, corrected)
    users = {d for d, x in w.decisions.items()
             if any(c in ids for ids in x["premises"].values() for c in gone)}
    region = set(users)
    changed = True
    while changed:
        changed = False
        for d, x in w.decisions.items():
            if d not in region and any(u in region for u in x["ups"]):
                region.add(d)
                changed = True
    def holds(ids: list[str]) -> bool:
        # A refuted claim's source gives no independent support in a premise citing it.
        tainted = {w.claims[r][0] for r in gone if r in ids}
        return any(c not in gone and w.claims[c][1] in CURRENT
                   and not (policy == "independent" and w.claims[c][0] in tainted)
                   for c in ids)

    def eligible(d: str) -> bool:
        x = w.decisions[d]
        return x["status"] in GOOD and all(holds(ids) for ids in x["premises"].values())

    def stands(d: str) -> bool:
        # Walk everything d builds on inside the region; any cycle or ineligible node fails.
        on_path: set[str] = set()
        done: set[str] = set()

        def ok(n: str) -> bool:
            if n in on_path:
                return False
            if n in done:
                return True
            if not eligible(n):
                return False
            on_path.add(n)
            for u in w.decisions[n]["ups"]:
                if u in region:
                    if not ok(u):
                        return False
                elif w.decisions[u]["status"] not in GOOD:
                    return False
            on_path.discard(n)
            done.add(n)
            return True

        return ok(d)

    fallen = {d for d in region if not stands(d)}
    flagged = {d for d in fallen if w.decisions[d]["status"] in GOOD}
    held = {a for a, x in w.actions.items()
            if x["status"] in OPEN and any(d in fallen for d in x["decisions"])}
    return flagged, held


def _load(url: str, ws: str, w: World) -> None:
    load(url, ws,
         sources=[{"id": s, "title": s} for s in sorted({s for s, _ in w.claims.values()})],
         claims=[{"id": c, "statement": f"Fact number {w.facts[c]} holds.", "source_id": s,
                  "status": st_} for c, (s, st_) in w.claims.items()],
         decisions=[{"id": d, "title": d[:8], "status": x["status"], "premises": x["premises"],
                     "depends_on": x["ups"]} for d, x in w.decisions.items()],
         actions=[{"id": a, "description": a[:8], "status": x["status"],
                   "decision_ids": x["decisions"]} for a, x in w.actions.items()])


@settings(max_examples=150, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(case=worlds())
def test_apply_equals_oracle_and_preview(client: TestClient, falkordb: str,
                                         case: tuple[World, str, str]) -> None:
    w, corrected, kind = case
    ws = client.post("/api/workspaces", json={"name": "prop"}).json()["id"]
    _load(falkordb, ws, w)
    consistent_before = violations(falkordb, ws) == []
    before = statuses(falkordb, ws)
    base = f"/api/workspaces/{ws}/claims/{corrected}/corrections"
    body = {"statement": "A reviewer's corrected statement.", "kind": kind}
    preview = client.post(base + "/preview", json=body)
    assert preview.status_code == 200, preview.text
    p = preview.json()
    r = client.post(base, json={**body, "reason": "checked",
                                "claim_revision": p["revisions"]["claim_revision"],
                                "impact_token": p["revisions"]["impact_token"]})
    assert r.status_code == 201, r.text
    out = r.json()
    want_flag, want_hold = oracle(w, corrected)
    assert set(out["flagged"]) == want_flag
    assert set(out["held"]) == want_hold
    assert {f["decision_id"] for f in p["flag"]} == set(out["flagged"])
    assert {h["action_id"] for h in p["hold"]} == set(out["held"])
    after = statuses(falkordb, ws)
    gone = refuted(w, corrected)
    assert set(out["also_corrected"]) == gone - {corrected}
    for node, status in before.items():
        if node in gone:
            assert after[node] == ("superseded" if kind == "replace" else "rejected")
        elif node in want_flag:
            assert after[node] == "needs_review"
        elif node in want_hold:
            assert after[node] == "held"
        else:
            assert after[node] == status, node
    if consistent_before:
        assert violations(falkordb, ws) == []
