from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query

from afterhack import claims
from afterhack.api.deps import AsOf, Cursor, ServicesDep, WorkspaceDep
from afterhack.api.security import allow
from afterhack.model.claims import ClaimSearch, ClaimView
from afterhack.model.vocab import SearchMode
from afterhack.moments import parse_as_of

router = APIRouter(tags=["claims"])


@router.get("/workspaces/{ws}/claims", dependencies=[allow("read")])
async def list_claims(
    ws: WorkspaceDep,
    q: Annotated[str | None, Query(max_length=2000)] = None,
    status: Annotated[list[str] | None, Query(max_length=10)] = None,
    limit: Annotated[int, Query(ge=1, le=1000)] = 20,
    offset: Annotated[int, Query(ge=0, le=10**9)] = 0,
    mode: Annotated[SearchMode, Query(
        description="hybrid: words and meaning fused (default); text: words only (BM25); "
                    "vector: meaning only.")] = "hybrid",
    neighbours: Annotated[bool, Query(
        description="Follow each of the first hits with the claims quoted just before and "
                    "after it in its source.")] = True,
    as_of: AsOf = None,
    cursor: Cursor = None,
    *, services: ServicesDep,
) -> ClaimSearch:
    statuses = claims.parse_statuses(status)
    return await claims.search_claims(ws.graph, q, statuses, limit=limit, offset=offset,
                                      mode=mode, vectors=services.vectors,
                                      neighbours=neighbours, as_of=parse_as_of(as_of),
                                      cursor=cursor)


@router.get("/workspaces/{ws}/claims/{claim_id}", dependencies=[allow("read")])
async def get_claim(claim_id: str, ws: WorkspaceDep, as_of: AsOf = None) -> ClaimView:
    return await claims.get_claim(ws.graph, claim_id, as_of=parse_as_of(as_of))
