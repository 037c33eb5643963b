from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Response
from pydantic import TypeAdapter

from afterhack.api.deps import AsOf, Cursor, WorkspaceDep, WorkspaceRefDep
from afterhack.api.security import allow
from afterhack.errors import AfterhackError, WorkspaceNotFound
from afterhack.memory import claims
from afterhack.model.claims import ClaimSearch, ClaimView
from afterhack.model.vocab import SearchMode
from afterhack.store import workspaces
from afterhack.store.client import GraphMissing
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
    try:
        found = await claims.search_claims(
            ws.graph, q, claims.parse_statuses(status), limit=limit, offset=offset, mode=mode,
            vectors=ws.services.vectors, neighbours=neighbours, as_of=parse_as_of(as_of),
            cursor=cursor, workspace_id=ws.id)
    except GraphMissing:  # no such graph: a read failed before the check could answer
        raise WorkspaceNotFound(ws.id) from None
    except WorkspaceNotFound:
        raise
    except AfterhackError:
        await workspaces.check_ready(ws.graph, ws.id)  # an unknown workspace answers 404 first
        raise
    return Response(SEARCH.dump_json(found), media_type="application/json")


@router.get("/workspaces/{ws}/claims/{claim_id}", dependencies=[allow("read")])
async def get_claim(claim_id: str, ws: WorkspaceDep, as_of: AsOf = None) -> ClaimView:
    return await claims.get_claim(ws.graph, claim_id, as_of=parse_as_of(as_of))
