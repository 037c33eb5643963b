"""Correction preview and apply, and the flag-everything-reachable baseline on the same claims.

Each sample corrects a fresh claim that decisions use: preview, then apply with the
preview's revisions (as a client does). Between the two, outside the timings, the region
the correction reaches is read through the store to count what a naive rule would do: flag
every reachable decision in good standing and hold every open action requiring one.

First, the same claims are previewed back to back (nothing else in between), so preview
has a figure taken as the tight-loop floors are: compared like with like. That loop runs in
several rounds, each between two blocks of tight-loop floors, and its ratio is the median
of the rounds' ratios: a shared host that slows down for a moment (another tenant, an AOF
rewrite forking FalkorDB) moves one round, not the figure. The previews in the mixed
sequence (floors, preview, baseline read, floors, apply) are compared with the
interleaved floors, taken in that same sequence.
"""

from __future__ import annotations

from functools import partial

from afterhack.model.vocab import GOOD_STANDING, OPEN_ACTION
from afterhack.store import repair as store_repair
from afterhack.store.names import graph_name
from afterhack_tools.bench.floors import Floors, ratio
from afterhack_tools.bench.harness import Harness
from afterhack_tools.bench.records import CorrectionFigures, FloorPair, LoopRound
from afterhack_tools.bench.stats import summary, timed


async def naive_reach(h: Harness, ws_id: str, claim_id: str) -> tuple[int, int]:
    """(decisions, actions) the flag-everything-reachable rule would flag and hold."""
    assert h.store is not None
    g = h.store.graph(graph_name(ws_id))
    claim, snap = await store_repair.claim_region(g, claim_id)
    assert claim is not None
    decisions = sum(1 for d in snap.decisions.values() if d.status in GOOD_STANDING)
    actions = sum(1 for a in snap.actions.values() if a.status in OPEN_ACTION)
    return decisions, actions


async def measure_corrections(h: Harness, ws_id: str, targets: list[str], floors: Floors,
                              *, floor_samples: int, loop_rounds: int = 5,
                              warmup: int = 2) -> CorrectionFigures:
    assert h.http is not None
    http = h.http
    base = f"/api/workspaces/{ws_id}/claims"

    async def preview_once(claim_id: str) -> None:
        r = await http.post(f"{base}/{claim_id}/corrections/preview",
                            json={"statement": "A back-to-back preview."})
        r.raise_for_status()

    async def loop() -> list[float]:
        out = []
        for i, claim_id in enumerate(targets):
            ms, _ = await timed(partial(preview_once, claim_id))
            if i >= warmup:
                out.append(ms)
        return out

    loop_ms: list[float] = []
    rounds: list[tuple[LoopRound, FloorPair]] = []
    for _ in range(loop_rounds):
        ms, floor = await floors.around(floor_samples, loop)
        loop_ms += ms
        p50, floor_p50 = summary(ms)["p50"], floor["http_plus_falkordb"]["p50"]
        rounds.append(({"p50": p50, "floor_p50": floor_p50, "ratio": ratio(p50, floor_p50)},
                       floor))
    # The upper one of an even count: a ratio some round measured, never an average.
    median, median_floor = sorted(rounds, key=lambda r: r[0]["ratio"])[len(rounds) // 2]
    preview_ms: list[float] = []
    apply_ms: list[float] = []
    region: list[int] = []
    totals = {"naive_decisions": 0, "naive_actions": 0, "flagged": 0, "held": 0}
    for i, claim_id in enumerate(targets):
        statement = f"Reviewed statement {i}: the earlier figure was wrong."
        if i >= warmup:
            await floors.tick()
        ms_p, r = await timed(partial(http.post, f"{base}/{claim_id}/corrections/preview",
                                      json={"statement": statement}))
        r.raise_for_status()
        preview = r.json()
        naive_d, naive_a = await naive_reach(h, ws_id, claim_id)
        seen = preview["revisions"]
        body = {"statement": statement, "claim_revision": seen["claim_revision"],
                "impact_token": seen["impact_token"], "reason": "benchmark"}
        if i >= warmup:
            await floors.tick()
        ms_a, r = await timed(partial(http.post, f"{base}/{claim_id}/corrections", json=body))
        if r.status_code != 201:
            raise RuntimeError(f"apply answered {r.status_code}: {r.text[:500]}")
        applied = r.json()
        if (sorted(applied["flagged"]) != sorted(f["decision_id"] for f in preview["flag"])
                or sorted(applied["held"]) != sorted(x["action_id"] for x in preview["hold"])):
            raise RuntimeError(f"apply did not do what the preview said for {claim_id}")
        if i < warmup:
            continue
        preview_ms.append(ms_p)
        apply_ms.append(ms_a)
        region.append(len(preview["flag"]) + len(preview["stay"]))
        totals["naive_decisions"] += naive_d
        totals["naive_actions"] += naive_a
        totals["flagged"] += len(applied["flagged"])
        totals["held"] += len(applied["held"])
    return {
        "preview": summary(preview_ms),
        "preview_loop": summary(loop_ms),
        # Per round: the back-to-back previews' p50 and the tight-loop floors taken just
        # before and just after them; the ratio and floor of the median round.
        "preview_loop_rounds": [r for r, _ in rounds],
        "preview_loop_ratio": median["ratio"],
        "preview_loop_floor": median_floor,
        "apply": summary(apply_ms),
        "region_decisions": {"mean": round(sum(region) / len(region), 2), "max": max(region)},
        "baseline": {
            "corrections": len(apply_ms),
            "naive_decisions": totals["naive_decisions"],
            "naive_actions": totals["naive_actions"],
            "flagged": totals["flagged"],
            "held": totals["held"],
            "false_alarms_avoided": (totals["naive_decisions"] - totals["flagged"]
                                     + totals["naive_actions"] - totals["held"]),
        },
    }
