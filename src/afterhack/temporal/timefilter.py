"""The one step a search at a time applies to its candidates (docs/rules.md, rule 10).

A search as of a time ranks candidates of every status (a claim retired since may have been
current then) by whatever rankings it uses (hybrid.py: words, meaning, neighbours), then
keeps, in their order, those this step admits: the claims that existed then with a status
of the filter then, each with that status and its open conflicts then. A search at a time
(``valid_at``: as of a time, or an agent run about one) also leaves out the claims whose
valid time does not hold then.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from afterhack.model.claims import ClaimRow
from afterhack.model.vocab import CLAIM_STATUSES, ClaimStatus
from afterhack.store import asof as store_asof
from afterhack.store import claims as store_claims
from afterhack.store.client import Graph
from afterhack.temporal.moments import valid_at as valid_at_time

Row = TypeVar("Row", bound=ClaimRow)


def ranked_statuses(statuses: Sequence[ClaimStatus],
                    as_of: int | None) -> Sequence[ClaimStatus]:
    """The statuses to rank candidates of: every one as of a time, the filter's now."""
    return CLAIM_STATUSES if as_of is not None else statuses


async def at_moment(g: Graph, rows: list[Row], statuses: Sequence[ClaimStatus], *,
                    as_of: int | None, valid_at: int | None) -> list[Row]:
    """The candidates ``rows`` the moment admits, in their order (see the module)."""
    if not rows or (as_of is None and valid_at is None):
        return rows
    ids = [r["id"] for r in rows]
    out: list[Row] = []
    if as_of is None:
        valid = await store_claims.valid_times(g, ids)
        for r in rows:
            v = valid.get(r["id"])
            if v is not None and (valid_at is None or valid_at_time(*v, valid_at)):
                out.append(r)
        return out
    then = await store_asof.claims_at(g, ids, as_of)
    wanted = set(statuses)
    for r in rows:
        t = then.get(r["id"])
        if t is None or t["status"] not in wanted:
            continue
        if valid_at is not None and not valid_at_time(t["valid_from"], t["valid_until"],
                                                      valid_at):
            continue
        kept = dict(r)
        kept.update(status=t["status"], open_conflict_ids=t["open_conflict_ids"])
        out.append(kept)  # type: ignore[arg-type]
    return out
