"""After a load run: the graph is consistent, every 2xx write is there, every 409 was real.

Read straight from FalkorDB (not through the API under test). A 409 is real when the
state it refused had really moved: for a stale preview, a fresh preview taken right after
the refusal no longer matches what the refused apply sent (revisions only grow, so a
match would mean nothing had changed and the refusal was false); for an already corrected
claim, the claim is corrected; for a stale revision, the revision moved; for a refused
transition, the thing or the decisions it needs are no longer in a state that allows it.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from afterhack.model.vocab import CURRENT_CLAIM, GOOD_STANDING, RETIRED_CLAIM
from afterhack.store.client import Store
from afterhack.store.invariants import check_sources, check_workspace
from afterhack.store.workspaces import workspace_graph
from afterhack_tools.load.workload import Log


async def _present(store: Store, ws: str, log: Log) -> list[str]:
    g = workspace_graph(store, ws)
    v: list[str] = []
    rows = await g.read("MATCH (n) WHERE n:Source OR n:Claim OR n:AgentRun OR n:Decision "
                        "OR n:Action OR n:Correction RETURN n.id AS id, "
                        "[x IN labels(n) WHERE x <> 'Node'][0] AS label, "
                        "n.status AS status, n.latest_version AS version")
    have = {r["id"]: r for r in rows}
    for s in (x for x in log.sources if x["ws"] == ws):
        src = have.get(s["source_id"])
        if src is None or src["label"] != "Source" or (src["version"] or 0) < (s["version"] or 1):
            v.append(f"acknowledged source {s['source_id']} v{s['version']} is missing")
        v += [f"acknowledged claim {c} is missing" for c in s["claims"] if c not in have]
    for r in (x for x in log.runs if x["ws"] == ws):
        for i in [r["run_id"], r["decision_id"], *r["actions"]]:
            if i not in have:
                v.append(f"acknowledged run {r['run_id']}: {i} is missing")
    for c in (x for x in log.corrections if x["ws"] == ws):
        if c["correction_id"] not in have:
            v.append(f"acknowledged correction {c['correction_id']} is missing")
        if have.get(c["claim_id"], {}).get("status") not in RETIRED_CLAIM:
            v.append(f"claim {c['claim_id']} was corrected (2xx) but is still current")
        if c["replacement_id"] and c["replacement_id"] not in have:
            v.append(f"replacement {c['replacement_id']} is missing")
    return v


def _conflict_is_real(c: dict[str, Any], claim_status: dict[str, str]) -> str | None:
    """None when the 409 is justified; otherwise why it looks false."""
    code = c["code"]
    if code == "claim_superseded":
        ok = claim_status.get(c["claim_id"]) in RETIRED_CLAIM
        return None if ok else "claim_superseded for a claim that is current"
    if code == "stale_correction_preview":
        again, seen = c["again"], c["seen"]
        if "code" in again:  # the fresh preview itself was refused: the claim is corrected
            return None if again["code"] == "claim_superseded" else f"re-preview {again}"
        same = (again["claim_revision"] == seen["claim_revision"]
                and again["impact_token"] == seen["impact_token"])
        return (f"nothing had changed since the preview (refusal said {c['details']})"
                if same else None)
    if code == "stale_revision":
        again = c["again"] or {}
        return None if again.get("revision") != c["seen"]["revision"] else \
            "stale_revision but the revision had not moved"
    if code in ("invalid_transition", "decision_unsupported"):
        again = c["again"] or {}
        if again.get("revision") != c["seen"]["revision"]:
            return None
        if c["kind"] == "action":
            return None if any(s not in GOOD_STANDING for s in c["decision_statuses"]) else \
                "approve refused though the action and its decisions allow it"
        premises = again.get("premises") or []
        lost = any(not any(x["status"] in CURRENT_CLAIM for x in p["claims"])
                   for p in premises)
        fell = any(d["status"] not in GOOD_STANDING for d in again.get("depends_on") or [])
        return None if lost or fell or not premises else "accept refused a supported decision"
    if code == "workspace_busy":
        return None  # the run's guarded write failed four times: its claims kept changing
    return f"unexpected conflict code {code}"


async def verify(falkordb_url: str, workspaces: list[str], log: Log) -> dict[str, Any]:
    store = Store(falkordb_url, pool_size=4)
    problems: dict[str, list[str]] = defaultdict(list)
    try:
        claim_status: dict[str, str] = {}
        for ws in workspaces:
            g = workspace_graph(store, ws)
            problems["invariants"] += [f"{ws}: {x}" for x in await check_workspace(g)]
            problems["sources"] += [f"{ws}: {x}" for x in await check_sources(g)]
            problems["acknowledged"] += await _present(store, ws, log)
            rows = await g.read("MATCH (c:Claim) RETURN c.id AS id, c.status AS status")
            claim_status.update({r["id"]: r["status"] for r in rows})
        for c in log.conflicts:
            why = _conflict_is_real(c, claim_status)
            if why:
                problems["conflicts"].append(f"{c['kind']} {c['code']}: {why}")
    finally:
        await store.close()
    problems["unexpected"] = [f"{u['route']} {u['status']}: {u['body'][:200]}"
                              for u in log.unexpected]
    return {k: v for k, v in problems.items() if v}
