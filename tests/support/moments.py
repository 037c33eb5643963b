"""Reads of a workspace reduced to what a read as of a time must reproduce (docs/rules.md, rule 10):
which nodes exist, their statuses and the links between them. Revisions are left out: a
read as of a time shows the statuses of then, not the revisions."""

from __future__ import annotations

import time
from typing import Any

from fastapi.testclient import TestClient

from afterhack.records.clock import now_ms
from tests.support.api import read_json
from tests.support.conflicts import claims_of


def moment() -> int:
    """Now, once every write so far is stamped at or before it and the next write will be
    stamped after it (the store's times are milliseconds)."""
    t = now_ms()
    while now_ms() <= t:
        time.sleep(0.001)
    return t


def _get(client: TestClient, path: str, as_of: int | None, **params: Any) -> Any:
    return read_json(client, path, **params, **({} if as_of is None else {"as_of": as_of}))


def _claim(c: dict[str, Any]) -> dict[str, Any]:
    return {
        "status": c["status"],
        "corrections": sorted(k["id"] for k in c["corrections"]),
        "superseded_by": c["superseded_by"] and (c["superseded_by"]["id"],
                                                 c["superseded_by"]["status"]),
        "supersedes": sorted((o["id"], o["status"]) for o in c["supersedes"]),
        "chain": [(x["id"], x["status"]) for x in c["replacement_chain"]],
        "used_by": sorted((u["decision_id"], u["status"]) for u in c["used_by"]),
        "conflicts": sorted((k["id"], tuple(sorted((o["id"], o["status"]) for o in k["other"])))
                            for k in c["conflicts"]),
        "evidence": [e["fragment_id"] for e in c["evidence"]],
    }


def _decision(d: dict[str, Any]) -> dict[str, Any]:
    return {
        "status": d["status"],
        "premises": [(p["premise"], [(c["id"], c["status"]) for c in p["claims"]])
                     for p in d["premises"]],
        "depends_on": [(x["id"], x["status"]) for x in d["depends_on"]],
        "dependents": [(x["id"], x["status"]) for x in d["dependents"]],
        "actions": [(a["id"], a["status"], a["held_from"]) for a in d["actions"]],
    }


def _graph(g: dict[str, Any]) -> dict[str, Any]:
    return {"nodes": sorted((n["id"], n["type"], n["status"]) for n in g["nodes"]),
            "edges": sorted(e["id"] for e in g["edges"])}


def world(client: TestClient, ws: str, as_of: int | None = None,
          ids: dict[str, list[str]] | None = None) -> dict[str, Any]:
    """Every read of the workspace, now or as of a time. ``ids`` (what to read one by one)
    defaults to what exists now."""
    base = f"/api/workspaces/{ws}"
    claims = _get(client, base + "/claims", as_of, status="all", limit=1000)["items"]
    conflicts = _get(client, base + "/conflicts", as_of, status="all")["items"]
    graph = _get(client, base + "/graph", as_of)
    if ids is None:
        ids = {"claim": [c["id"] for c in claims],
               "decision": [n["id"] for n in graph["nodes"] if n["type"] == "decision"],
               "action": [n["id"] for n in graph["nodes"] if n["type"] == "action"]}
    out: dict[str, Any] = {
        "claims": sorted((c["id"], c["status"], tuple(c["open_conflict_ids"]))
                         for c in claims),
        "conflicts": sorted((k["id"], k["status"], k["resolution"],
                             tuple(sorted((c["id"], c["status"]) for c in claims_of(k))))
                            for k in conflicts),
        "graph": _graph(graph),
        "internal": sorted((n["id"], n["status"]) for n in _get(
            client, base + "/graph", as_of, view="internal")["nodes"]),
    }
    for cid in ids["claim"]:
        out[f"claim {cid}"] = _claim(_get(client, f"{base}/claims/{cid}", as_of))
    for did in ids["decision"]:
        out[f"decision {did}"] = _decision(_get(client, f"{base}/decisions/{did}", as_of))
    for aid in ids["action"]:
        a = _get(client, f"{base}/actions/{aid}", as_of)
        out[f"action {aid}"] = (a["status"], a["held_from"], a["decision_ids"])
    out["ids"] = ids
    return out


def compare_at(client: TestClient, ws: str, snapshots: list[tuple[int, dict[str, Any]]]
               ) -> None:
    """Every snapshot equals the reads as of its moment."""
    for t, snap in snapshots:
        past = world(client, ws, t, snap["ids"])
        for key in snap:
            assert past[key] == snap[key], (t, key, past[key], snap[key])
