"""The step a search as of a time applies to its candidates (temporal/timefilter.py): what
each claim was then. (The list and one claim as of a time are the reads of store/claims.py
at a moment, store/moment.py.)"""

from __future__ import annotations

from afterhack.model.claims import ClaimAt
from afterhack.store.client import Graph
from afterhack.store.conflicts import open_conflict_ids
from afterhack.store.moment import THEN
from afterhack.store.rows import of

_CLAIM_AT = of(ClaimAt)

_CLAIMS_AT = (
    f"MATCH (c:Node) WHERE c:Claim AND c.id IN $ids AND {THEN.exists('c')} "
    f"RETURN c.id AS id, {THEN.status('c')} AS status, "
    f"{open_conflict_ids(THEN)} AS open_conflict_ids, "
    "c.valid_from AS valid_from, c.valid_until AS valid_until")


async def claims_at(g: Graph, ids: list[str], as_of: int) -> dict[str, ClaimAt]:
    """Of these claims, those that existed at ``as_of``: each with the status it had, its
    open conflicts then and its valid time. (The one filter step a search as of a time
    applies to its candidates, claims.at_moment.)"""
    if not ids:
        return {}
    rows = await g.read(_CLAIMS_AT, {"ids": ids, "as_of": as_of})
    return {r["id"]: r for r in _CLAIM_AT.all(rows)}
