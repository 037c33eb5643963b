"""Decisions and actions: reads, and the reviewer's compare-and-set changes.

Every change carries the revision the client saw; the write goes through only if it is
still the current one and the transition is allowed, checked inside the same query.
"""

from __future__ import annotations

import json
from typing import Any

from afterhack.errors import ActionNotFound, DecisionNotFound
from afterhack.store.audit import CREATE_AUDITS
from afterhack.store.client import Graph

_ACTION_MAP = (
    "{id: a.id, description: a.description, status: a.status, revision: a.revision, "
    "created_at: a.created_at, held_from: a.held_from, "
    "decision_ids: [(a)-[:REQUIRES]->(x:Decision) | x.id]}"
)

_DECISION_RETURN = (
    "RETURN d {.id, .title, .summary, .status, .revision, .created_at, .run_id, "
    ".premise_order, .review_reason} AS d, "
    "[(d)-[u:USED_CLAIM]->(c:Claim) | {premise: u.premise, id: c.id, statement: c.statement, "
    "  status: c.status, source_id: c.source_id}] AS uses, "
    "[(d)-[:DEPENDS_ON]->(x:Decision) | x {.id, .title, .status}] AS depends_on, "
    "[(d)<-[:DEPENDS_ON]-(y:Decision) | y {.id, .title, .status}] AS dependents, "
    "[(d)<-[:REQUIRES]-(a:Action) | a {.id, .description, .status, .revision, .created_at, "
    "  .held_from}] AS actions"
)

# Restores held actions of decision d whose required decisions are all in good standing.
RESTORE_HELD = (
    "CALL { WITH d "
    "  OPTIONAL MATCH (d)<-[:REQUIRES]-(a:Action {status:'held'}) "
    "  OPTIONAL MATCH (a)-[:REQUIRES]->(x:Decision) "
    "  WITH a, collect(x.status) AS ds "
    "  WHERE a IS NOT NULL AND all(s IN ds WHERE s IN ['draft','accepted']) "
    "  SET a.status = coalesce(a.held_from, 'proposed'), a.held_from = null, "
    "      a.revision = a.revision + 1 "
    "  RETURN collect(a.id) AS restored } "
)


async def action_decisions(g: Graph, action_ids: list[str]) -> dict[str, list[str]]:
    """Every decision each action requires, inside the region or not."""
    if not action_ids:
        return {}
    rows = await g.read(
        "MATCH (a:Action)-[:REQUIRES]->(y:Decision) WHERE a.id IN $ids "
        "RETURN a.id AS id, collect(y.id) AS decision_ids",
        {"ids": action_ids})
    return {r["id"]: list(r["decision_ids"]) for r in rows}


async def _with_action_decisions(g: Graph, views: list[dict[str, Any]]) -> list[dict[str, Any]]:
    # A pattern comprehension nested in another comes back null in FalkorDB: read apart.
    required = await action_decisions(g, [a["id"] for v in views for a in v["actions"]])
    for v in views:
        v["actions"] = [{**a, "decision_ids": sorted(required.get(a["id"], []))}
                        for a in v["actions"]]
    return views


# Ends accept and reconfirm alike: held actions come back, the audit event is written.
_ACCEPTED_TAIL = "WITH d " + RESTORE_HELD + "WITH d, restored " + CREATE_AUDITS + " RETURN restored"


def decision_view(row: dict[str, Any]) -> dict[str, Any]:
    d = dict(row["d"])
    order = json.loads(d.pop("premise_order") or "[]")
    groups: dict[str, list[dict[str, Any]]] = {}
    for u in sorted(row["uses"], key=lambda u: u["id"]):
        groups.setdefault(u["premise"], []).append(
            {k: u[k] for k in ("id", "statement", "status", "source_id")})
    labels = [p for p in order if p in groups] + sorted(p for p in groups if p not in order)
    d["premises"] = [{"premise": p, "claims": groups[p]} for p in labels]
    d["review_reason"] = json.loads(d["review_reason"]) if d.get("review_reason") else None
    d["depends_on"] = sorted(row["depends_on"], key=lambda x: x["id"])
    d["dependents"] = sorted(row["dependents"], key=lambda x: x["id"])
    d["actions"] = sorted(row["actions"], key=lambda a: (a["created_at"], a["id"]))
    return d


async def find_decisions(g: Graph, ids: list[str]) -> dict[str, dict[str, Any]]:
    rows = await g.read(
        "MATCH (d:Decision) WHERE d.id IN $ids RETURN d.id AS id, d.status AS status, "
        "d.revision AS revision, d.title AS title",
        {"ids": ids},
    )
    return {r["id"]: r for r in rows}


async def get_decision(g: Graph, decision_id: str) -> dict[str, Any]:
    rows = await g.read("MATCH (d:Decision {id:$id}) " + _DECISION_RETURN, {"id": decision_id})
    row = rows.first()
    if row is None:
        raise DecisionNotFound(decision_id)
    return (await _with_action_decisions(g, [decision_view(row)]))[0]


async def list_decisions(g: Graph, statuses: list[str] | None, *, limit: int,
                         offset: int) -> list[dict[str, Any]]:
    rows = await g.read(
        "MATCH (d:Decision) WHERE $statuses IS NULL OR d.status IN $statuses "
        "WITH d ORDER BY d.created_at DESC, d.id SKIP $offset LIMIT $limit "
        + _DECISION_RETURN,
        {"statuses": statuses, "limit": limit, "offset": offset},
    )
    return await _with_action_decisions(g, [decision_view(r) for r in rows])


async def list_actions(g: Graph, statuses: list[str] | None, *, limit: int,
                       offset: int) -> list[dict[str, Any]]:
    rows = await g.read(
        "MATCH (a:Action) WHERE $statuses IS NULL OR a.status IN $statuses "
        f"RETURN {_ACTION_MAP} AS a ORDER BY a.created_at DESC, a.id SKIP $offset LIMIT $limit",
        {"statuses": statuses, "limit": limit, "offset": offset})
    return [dict(r["a"]) for r in rows]


async def get_action(g: Graph, action_id: str) -> dict[str, Any]:
    rows = await g.read(f"MATCH (a:Action {{id:$id}}) RETURN {_ACTION_MAP} AS a",
                        {"id": action_id})
    row = rows.first()
    if row is None:
        raise ActionNotFound(action_id)
    return dict(row["a"])


async def action_decision_statuses(g: Graph, action_id: str) -> list[str]:
    rows = await g.read(
        "MATCH (a:Action {id:$id})-[:REQUIRES]->(d:Decision) RETURN collect(d.status) AS s",
        {"id": action_id})
    return list(rows.scalar() or [])


async def set_action_status(g: Graph, p: dict[str, Any]) -> bool:
    """CAS an action's status; the query re-checks the transition and its decisions."""
    rows = await g.write(
        "MATCH (a:Action {id:$id}) WHERE a.revision = $revision AND a.status IN $from "
        "WITH a, [(a)-[:REQUIRES]->(x:Decision) | x.status] AS ds "
        "WHERE NOT $needs_good_standing OR all(s IN ds WHERE s IN ['draft','accepted']) "
        "SET a.status = CASE WHEN $to = 'released' THEN coalesce(a.held_from, 'proposed') "
        "  ELSE $to END, "
        "    a.held_from = null, a.revision = a.revision + 1 "
        "WITH a " + CREATE_AUDITS + " RETURN a.id AS id",
        p,
    )
    return bool(rows)


async def accept_decision(g: Graph, p: dict[str, Any]) -> list[str] | None:
    """Put a decision in good standing if every premise has a current claim; None if refused."""
    rows = await g.write(
        "MATCH (d:Decision {id:$id}) WHERE d.revision = $revision AND d.status IN $from "
        "OPTIONAL MATCH (d)-[u:USED_CLAIM]->(c:Claim) "
        "WITH d, collect(DISTINCT u.premise) AS premises, "
        "  collect(DISTINCT CASE WHEN c.status IN ['proposed','accepted'] "
        "    THEN u.premise END) AS held "
        "WITH d, premises, held, [(d)-[:DEPENDS_ON]->(x:Decision) | x.status] AS ups "
        "WHERE size(premises) > 0 AND size(held) = size(premises) "
        "AND all(s IN ups WHERE s IN ['draft','accepted']) "
        "SET d.status = 'accepted', d.revision = d.revision + 1, d.review_reason = null "
        + _ACCEPTED_TAIL,
        p,
    )
    row = rows.first()
    return None if row is None else list(row["restored"])


async def reconfirm_decision(g: Graph, p: dict[str, Any]) -> list[str] | None:
    """Replace a decision's support with current, fragment-backed claims and accept it."""
    rows = await g.write(
        "MATCH (d:Decision {id:$id}) WHERE d.revision = $revision AND d.status IN $from "
        "OPTIONAL MATCH (d)-[:DEPENDS_ON]->(x:Decision) "
        "WITH d, collect(x.status) AS ups "
        "OPTIONAL MATCH (c:Claim) WHERE c.id IN $claim_ids AND c.status IN ['proposed','accepted'] "
        "AND (c)-[:SUPPORTED_BY]->(:SourceFragment) "
        "WITH d, ups, count(DISTINCT c) AS ok "
        "WHERE ok = size($claim_ids) AND all(s IN ups WHERE s IN ['draft','accepted']) "
        "OPTIONAL MATCH (d)-[old:USED_CLAIM]->() DELETE old "
        "WITH DISTINCT d "
        "CALL { WITH d UNWIND $uses AS u MATCH (c:Claim {id:u.claim_id}) "
        "  CREATE (d)-[:USED_CLAIM {premise:u.premise}]->(c) RETURN count(*) AS n } "
        "SET d.status = 'accepted', d.revision = d.revision + 1, d.review_reason = null, "
        "    d.premise_order = $premise_order "
        + _ACCEPTED_TAIL,
        p,
    )
    row = rows.first()
    return None if row is None else list(row["restored"])
