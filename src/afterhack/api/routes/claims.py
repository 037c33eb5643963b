from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Response
from pydantic import TypeAdapter

from afterhack.api.deps import AsOf, Cursor, WorkspaceDep, WorkspaceRefDep
from afterhack.api.security import allow
from afterhack.memory import claims
from afterhack.model.claims import ClaimSearch, ClaimView
from afterhack.model.vocab import SearchMode
from afterhack.retrieval.hybrid import ClaimQuery
from afterhack.temporal.moments import parse_as_of

router = APIRouter(tags=["claims"])

SEARCH = TypeAdapter(ClaimSearch)


@router.get("/workspaces/{ws}/claims", response_model=ClaimSearch,
            dependencies=[allow("read")])
async def list_claims(
    ws: WorkspaceRefDep,
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
) -> Response:
    # The hot read of the memory: the workspace is checked in one of the search's own reads
    # (no lookup before the query's embedding starts), and the answer, typed by the domain,
    # is encoded once by its schema rather than validated again.
    async with ws.checked():  # an unknown workspace is 404 before its arguments are read
        query = ClaimQuery(q, claims.parse_statuses(status), limit=limit, offset=offset,
                           mode=mode, neighbours=neighbours, as_of=parse_as_of(as_of),
                           cursor=cursor)
    found = await ws.search_claims(query)
    return Response(SEARCH.dump_json(found), media_type="application/json")


@router.get("/workspaces/{ws}/claims/{claim_id}", dependencies=[allow("read")])
async def get_claim(claim_id: str, ws: WorkspaceDep, as_of: AsOf = None) -> ClaimView:
    return await ws.claim(claim_id, parse_as_of(as_of))
