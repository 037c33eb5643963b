"""Claims as the memory held them at an earlier time (docs/rules.md, rule 10): their own
query texts,
so reads without ``as_of`` are the ones they always were.

A node created after the time asked for did not exist then; a status is the one its history
(store/history.py) says it had then. An edge added by a later change is recognised by that
change: a claim replaced (SUPERSEDES) only once it was retired, a correction only once it
was made, a conflict only once it was raised.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from afterhack.errors import ClaimNotFound
from afterhack.model.claims import (
    ClaimAt,
    ClaimConflictView,
    ClaimDetailRow,
    ClaimLinks,
    ClaimRef,
    ClaimRow,
)
from afterhack.model.pages import After
from afterhack.model.vocab import ClaimStatus
from afterhack.store.claims import AFTER_CLAIM
from afterhack.store.client import Graph
from afterhack.store.cypher import RETIRED
from afterhack.store.history import status_at, status_at_in
from afterhack.store.keyset import after_params

_STATUS = status_at("c")
_OPEN = "['open']"

# CLAIM_FIELDS (store/claims.py) with the status it had then.
CLAIM_FIELDS_AT = (
    f"c.id AS id, c.statement AS statement, {_STATUS} AS status, c.confidence AS confidence, "
    "c.confidence_kind AS confidence_kind, c.source_id AS source_id, c.revision AS revision, "
    "c.created_at AS created_at"
)

# The open conflicts (then) of a claim's statement, through the copies that existed then.
OPEN_CONFLICT_IDS_AT = (
    "[(oc_t:Node {statement_key: c.statement_key})<-[:BETWEEN]-(oc_k:Conflict) "
    f"WHERE oc_t:Claim AND oc_t.created_at <= $as_of AND {status_at_in('oc_k', _OPEN)} | oc_k.id]"
)


async def claims_at(g: Graph, ids: list[str], as_of: int) -> dict[str, ClaimAt]:
    """Of these claims, those that existed at ``as_of``: each with the status it had, its
    open conflicts then and its valid time. (The one filter step a search as of a time
    applies to its candidates, claims.at_moment.)"""
    if not ids:
        return {}
    rows = await g.read(
        "MATCH (c:Node) WHERE c:Claim AND c.id IN $ids AND c.created_at <= $as_of "
        f"RETURN c.id AS id, {_STATUS} AS status, {OPEN_CONFLICT_IDS_AT} AS open_conflict_ids, "
        "c.valid_from AS valid_from, c.valid_until AS valid_until",
        {"ids": ids, "as_of": as_of})
    return {r["id"]: cast(ClaimAt, r) for r in rows}


async def list_claims_at(g: Graph, statuses: Sequence[ClaimStatus], as_of: int, limit: int,
                         offset: int, after: After | None = None) -> list[ClaimRow]:
    """list_claims as of a time: the claims that existed then with a status of ``statuses``
    then, in order of creation."""
    rows = await g.read(
        f"MATCH (c:Claim) WHERE {AFTER_CLAIM} AND {status_at_in('c', '$statuses')} "
        "WITH c ORDER BY c.created_at, c.id SKIP $offset LIMIT $limit "
        f"RETURN {CLAIM_FIELDS_AT}, {OPEN_CONFLICT_IDS_AT} AS open_conflict_ids "
        "ORDER BY c.created_at, c.id",
        {"statuses": statuses, "limit": limit, "offset": offset, "as_of": as_of,
         **after_params(after)},
    )
    return cast(list[ClaimRow], list(rows))


async def get_claim_row_at(g: Graph, claim_id: str, as_of: int) -> ClaimDetailRow:
    rows = await g.read(
        "MATCH (c:Node {id:$id}) WHERE c:Claim AND c.created_at <= $as_of "
        f"RETURN {CLAIM_FIELDS_AT}, c.evidence_quote AS evidence_quote, "
        "c.quote_start AS quote_start, c.quote_end AS quote_end, "
        "c.valid_from AS valid_from, c.valid_until AS valid_until",
        {"id": claim_id, "as_of": as_of},
    )
    row = rows.first()
    if row is None:
        raise ClaimNotFound(claim_id, "No claim with that id at that time.")
    return cast(ClaimDetailRow, row)


async def claim_links_at(g: Graph, claim_id: str, as_of: int) -> ClaimLinks:
    """claim_links as of a time. A claim was superseded by another only once it was
    retired; it superseded another only once that one was."""
    rows = await g.read(
        "MATCH (c:Node {id:$id}) WHERE c:Claim "
        f"WITH c, {_STATUS} AS st "
        "RETURN "
        "[(c)<-[:CORRECTS]-(k:Correction) WHERE k.created_at <= $as_of | k {.id, .kind, "
        "  .statement, .reason, .reviewer, .created_at, .replacement_id}] AS corrections, "
        f"[(c)<-[:SUPERSEDES]-(r:Claim) WHERE st IN {RETIRED} AND r.created_at <= $as_of | "
        f"  {{id: r.id, statement: r.statement, status: {status_at('r')}}}] AS superseded_by, "
        f"[(c)-[:SUPERSEDES]->(o:Claim) WHERE {status_at('o')} IN {RETIRED} | "
        f"  {{id: o.id, statement: o.statement, status: {status_at('o')}}}] AS supersedes, "
        "[(c)<-[u:USED_CLAIM]-(d:Decision) WHERE d.created_at <= $as_of | "
        f"  {{decision_id: d.id, title: d.title, status: {status_at('d')}, "
        "    premise: u.premise}] AS used_by",
        {"id": claim_id, "as_of": as_of},
    )
    row = rows.first()
    if row is None:
        raise ClaimNotFound(claim_id)
    return cast(ClaimLinks, row)


async def replacement_chain_at(g: Graph, claim_id: str, as_of: int) -> list[ClaimRef]:
    """The claim and each claim that had replaced it by then, in order."""
    # The time is tested here, not in the MATCH: a condition on the far end makes FalkorDB
    # start from every claim instead of from this one.
    rows = [r for r in await g.read(
        "MATCH p = (c:Node {id:$id})<-[:SUPERSEDES*0..64]-(r:Claim) WHERE c:Claim "
        f"RETURN r.id AS id, r.statement AS statement, {status_at('r')} AS status, "
        "[n IN nodes(p) | n.id] AS path, length(p) AS depth ORDER BY depth",
        {"id": claim_id, "as_of": as_of},
    ) if r["status"] is not None]
    status = {r["id"]: r["status"] for r in rows}
    chain: list[ClaimRef] = []
    seen: set[str] = set()
    for r in rows:
        # Each step of the path existed then: every claim before the last was retired then.
        if r["id"] in seen or any(status.get(i) not in ("superseded", "rejected")
                                  for i in r["path"][:-1]):
            continue
        seen.add(r["id"])
        chain.append({"id": r["id"], "statement": r["statement"], "status": r["status"]})
    return chain


async def open_conflicts_of_claim_at(g: Graph, claim_id: str,
                                     as_of: int) -> list[ClaimConflictView]:
    """The conflicts open at ``as_of`` that the claim's statement was in, each with the
    claims of the other side that existed then."""
    rows = await g.read(
        # The WITHs: the key through the index (conflicts.open_conflicts_of says why).
        "MATCH (c:Node {id:$id}) WHERE c:Claim WITH c "
        "MATCH (t:Node {statement_key: c.statement_key})<-[:BETWEEN]-(k:Conflict) "
        f"WITH c, t, k WHERE t:Claim AND t.created_at <= $as_of AND {status_at_in('k', _OPEN)} "
        "WITH DISTINCT c, k "
        "MATCH (k)-[:BETWEEN]->(o:Claim) WHERE o.statement_key <> c.statement_key "
        "OPTIONAL MATCH (o)-[:SUPPORTED_BY]->(:SourceFragment)<-[:HAS_FRAGMENT]-"
        "(:SourceVersion)<-[:HAS_VERSION]-(s:Source) "
        "WITH k, o, s ORDER BY o.created_at, o.id "
        "RETURN k.id AS id, k.kind AS kind, k.reason AS reason, "
        "collect({id: o.id, statement: o.statement, "
        f"  status: {status_at('o')}, source_id: s.id, source_title: s.title}}) AS other "
        "ORDER BY k.id",
        {"id": claim_id, "as_of": as_of})
    return [cast(ClaimConflictView, {**r, "status": "open",
                                     "other": [dict(o) for o in r["other"]]})
            for r in rows]


async def valid_times(g: Graph, ids: list[str]) -> dict[str, tuple[int | None, int | None]]:
    """Each claim's valid time (valid_from, valid_until), now."""
    if not ids:
        return {}
    rows = await g.read("MATCH (c:Node) WHERE c:Claim AND c.id IN $ids "
                        "RETURN c.id AS id, c.valid_from AS f, c.valid_until AS u", {"ids": ids})
    return {r["id"]: (r["f"], r["u"]) for r in rows}
