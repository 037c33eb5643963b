"""What a decision rested on before each re-confirmation, and the pasts of claims: what a
decision's read as of a time (store/decisions.py) and why then, why now (memory/why.py)
read beside the decision itself.

A decision re-confirmed after a time rested on other claims then: the premises it had
are kept on it (``support_history``, each ending at its ``support_until``) and read from
there.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from afterhack.errors import DecisionNotFound
from afterhack.model.decisions import (
    ClaimPast,
    CorrectionOfClaim,
    PremiseClaim,
    PremiseUse,
    ReplacingClaim,
    RetiringVersion,
    SupportRecord,
)
from afterhack.store.client import Graph
from afterhack.store.history import history_expr, since_expr, status_at
from afterhack.store.rows import of

_USE = of(PremiseUse)
_CLAIM = of(PremiseClaim)
_SUPPORT = of(SupportRecord)
_PAST = of(ClaimPast)
_CORRECTION = of(CorrectionOfClaim)
_RETIRING = of(RetiringVersion)
_REPLACING = of(ReplacingClaim)


def parse_support(was: str) -> tuple[list[str], list[PremiseUse]]:
    """One entry of ``support_history``: the premise order and the uses it had."""
    old = json.loads(was)
    return list(old["premise_order"]), _USE.all(old["uses"])


def support_at(d: Mapping[str, Any], as_of: int) -> tuple[list[str], list[PremiseUse]] | None:
    """The premise order and uses a decision had at ``as_of`` if a re-confirmation replaced
    them since; None when it still rests on what it rested on then."""
    for was, until in zip(d.get("support_history") or [], d.get("support_until") or [],
                          strict=True):
        if until > as_of:
            return parse_support(was)
    return None


async def claims_then(g: Graph, ids: list[str], as_of: int) -> dict[str, PremiseClaim]:
    """These claims, each with the status it had at ``as_of``."""
    rows = await g.read(
        "MATCH (c:Node) WHERE c:Claim AND c.id IN $ids "
        f"RETURN c.id AS id, c.statement AS statement, {status_at('c')} AS status, "
        "c.source_id AS source_id", {"ids": ids, "as_of": as_of})
    return {r["id"]: r for r in _CLAIM.all(rows)}


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
    return _SUPPORT.one({**row, "premise_order": json.loads(row["premise_order"] or "[]"),
                         "uses": _USE.all(row["uses"])})


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
    return {r["id"]: _PAST.one({
        **r, "corrections": _CORRECTION.all(r["corrections"]),
        "retired_by": _RETIRING.one(r["retired_by"]) if r["retired_by"] else None,
        "replaced_by": _REPLACING.all(r["replaced_by"])}) for r in rows}
