"""Decisions and actions as they were at an earlier time (docs/rules.md, rule 10; store/asof.py says
how a read as of a time sees nodes and edges).

A decision re-confirmed after that time rested on other claims then: the premises it had
are kept on it (``support_history``, each ending at its ``support_until``) and read from
there. Why a decision was flagged is kept only for its latest flag: a read as of a time
before its status last changed says ``review_reason`` null unless it was in good standing.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, cast

from afterhack.errors import ActionNotFound, DecisionNotFound
from afterhack.model.decisions import (
    ActionRecord,
    ClaimPast,
    DecisionView,
    PremiseUse,
    SupportRecord,
)
from afterhack.store.client import Graph, Row
from afterhack.store.decisions import action_decisions, decision_view
from afterhack.store.history import changed_since, held_from_at, history_expr, since_expr, status_at

_ACTION_AT = (
    f"{{id: a.id, description: a.description, status: {status_at('a')}, "
    "revision: a.revision, created_at: a.created_at, "
    f"held_from: {held_from_at('a')}}}"
)

_DECISION_AT = (
    "RETURN d {.id, .title, .summary, .revision, .created_at, .run_id, .premise_order, "
    f".review_reason, .support_history, .support_until}} AS d, {status_at('d')} AS status, "
    f"{changed_since('d')} AS changed_since, "
    "[(d)-[u:USED_CLAIM]->(c:Claim) | {premise: u.premise, id: c.id, statement: c.statement, "
    f"  status: {status_at('c')}, source_id: c.source_id}}] AS uses, "
    "[(d)-[:DEPENDS_ON]->(x:Decision) WHERE x.created_at <= $as_of | "
    f"  {{id: x.id, title: x.title, status: {status_at('x')}}}] AS depends_on, "
    "[(d)<-[:DEPENDS_ON]-(y:Decision) WHERE y.created_at <= $as_of | "
    f"  {{id: y.id, title: y.title, status: {status_at('y')}}}] AS dependents, "
    f"[(d)<-[:REQUIRES]-(a:Action) WHERE a.created_at <= $as_of | {_ACTION_AT}] AS actions"
)


def parse_support(was: str) -> tuple[list[str], list[PremiseUse]]:
    """One entry of ``support_history``: the premise order and the uses it had."""
    old = json.loads(was)
    return list(old["premise_order"]), cast(list[PremiseUse], old["uses"])


def support_at(d: Mapping[str, Any], as_of: int) -> tuple[list[str], list[PremiseUse]] | None:
    """The premise order and uses a decision had at ``as_of`` if a re-confirmation replaced
    them since; None when it still rests on what it rested on then."""
    for was, until in zip(d.get("support_history") or [], d.get("support_until") or [],
                          strict=True):
        if until > as_of:
            return parse_support(was)
    return None


async def _claims_at(g: Graph, ids: list[str], as_of: int) -> dict[str, Row]:
    rows = await g.read(
        "MATCH (c:Node) WHERE c:Claim AND c.id IN $ids "
        f"RETURN c.id AS id, c.statement AS statement, {status_at('c')} AS status, "
        "c.source_id AS source_id", {"ids": ids, "as_of": as_of})
    return {r["id"]: r for r in rows}


async def get_decision_at(g: Graph, decision_id: str, as_of: int) -> DecisionView:
    rows = await g.read("MATCH (d:Node {id:$id}) WHERE d:Decision AND d.created_at <= $as_of "
                        + _DECISION_AT, {"id": decision_id, "as_of": as_of})
    row = rows.first()
    if row is None:
        raise DecisionNotFound(decision_id, "No decision with that id at that time.")
    d = dict(row["d"])
    d["status"] = row["status"]
    if row["changed_since"]:
        d["review_reason"] = None
    uses = list(row["uses"])
    then = support_at(d, as_of)
    if then is not None:
        order, was = then
        d["premise_order"] = json.dumps(order)
        claims = await _claims_at(g, sorted({u["claim_id"] for u in was}), as_of)
        uses = [{**claims[u["claim_id"]], "premise": u["premise"]}
                for u in was if u["claim_id"] in claims]
    required = await action_decisions(g, [a["id"] for a in row["actions"]])
    return decision_view({**row, "d": d, "uses": uses}, required)


async def get_action_at(g: Graph, action_id: str, as_of: int) -> ActionRecord:
    rows = await g.read(
        "MATCH (a:Node {id:$id}) WHERE a:Action AND a.created_at <= $as_of "
        f"RETURN {_ACTION_AT} AS a, [(a)-[:REQUIRES]->(x:Decision) | x.id] AS decision_ids",
        {"id": action_id, "as_of": as_of})
    row = rows.first()
    if row is None:
        raise ActionNotFound(action_id, "No action with that id at that time.")
    return cast(ActionRecord, {**row["a"], "decision_ids": sorted(row["decision_ids"])})


async def support_record(g: Graph, decision_id: str) -> SupportRecord:
    rows = await g.read(
        "MATCH (d:Node {id:$id}) WHERE d:Decision RETURN d.created_at AS created_at, "
        "d.premise_order AS premise_order, "
        "[(d)-[u:USED_CLAIM]->(c:Claim) | {premise: u.premise, claim_id: c.id}] AS uses, "
        "coalesce(d.support_history, []) AS support_history, "
        "coalesce(d.support_until, []) AS support_until", {"id": decision_id})
    row = rows.first()
    if row is None:
        raise DecisionNotFound(decision_id)
    return cast(SupportRecord, {**row, "premise_order": json.loads(row["premise_order"] or "[]"),
                                "uses": [dict(u) for u in row["uses"]]})


async def claim_pasts(g: Graph, ids: list[str]) -> dict[str, ClaimPast]:
    """Each claim with its status history, the corrections (and conflict resolutions) of
    it, the version that retired it and the claims that replaced it."""
    if not ids:
        return {}
    rows = await g.read(
        "MATCH (c:Node) WHERE c:Claim AND c.id IN $ids "
        "OPTIONAL MATCH (c)-[:SUPPORTED_BY]->(:SourceFragment)<-[:HAS_FRAGMENT]-"
        "(:SourceVersion)<-[:HAS_VERSION]-(s:Source) "
        "OPTIONAL MATCH (c)<-[:CORRECTS]-(k:Correction) "
        "OPTIONAL MATCH (k)-[:RESOLVES]->(x:Conflict) "
        "WITH c, s, k, collect(x.id) AS conflict_ids "
        "WITH c, s, collect(CASE WHEN k IS NULL THEN NULL ELSE {id: k.id, kind: k.kind, "
        "  created_at: k.created_at, reviewer: k.reviewer, reason: k.reason, "
        "  conflict_ids: conflict_ids} END) AS corrections "
        "OPTIONAL MATCH (v:Node {id: c.retired_by})<-[:HAS_VERSION]-(vs:Source) "
        "WHERE v:SourceVersion "
        "RETURN c.id AS id, c.statement AS statement, c.status AS status, "
        "c.source_id AS source_id, s.title AS source_title, c.created_at AS created_at, "
        f"{history_expr('c')} AS history, {since_expr('c')} AS since, corrections, "
        "CASE WHEN v IS NULL THEN NULL ELSE {id: v.id, version: v.version, "
        "  created_at: v.created_at, source_id: vs.id} END AS retired_by, "
        "[(c)<-[:SUPERSEDES]-(r:Claim) | r {.id, .statement, .status, .created_at}] "
        "AS replaced_by",
        {"ids": ids})
    return {r["id"]: cast(ClaimPast, {
        **r, "corrections": [dict(k) for k in r["corrections"]],
        "retired_by": dict(r["retired_by"]) if r["retired_by"] else None,
        "replaced_by": [dict(x) for x in r["replaced_by"]]}) for r in rows}
