from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Response

from afterhack import ingest, lists
from afterhack.api.deps import CallerDep, Cursor, ServicesDep, WorkspaceDep
from afterhack.api.security import allow
from afterhack.model.pages import SourceList
from afterhack.model.sources import IngestResult, SameVersion, SourcePreview, SourceView
from afterhack.store import sources
from afterhack.wire.inputs import SourceCreate

router = APIRouter(tags=["sources"])


@router.post("/workspaces/{ws}/sources", status_code=201,
             dependencies=[allow("add_source")],
             responses={200: {"model": SameVersion | SourcePreview,
                              "description": "A new version equal to the latest "
                                             "(unchanged), or a preview (nothing written)."}})
async def add_source(body: SourceCreate, ws: WorkspaceDep, services: ServicesDep,
                     caller: CallerDep, response: Response) -> IngestResult:
    result = await ingest.ingest_source(
        ws.graph, services.settings, services.extractor,
        title=body.title, text=body.text, origin_type=body.origin_type,
        origin_name=body.origin_name, source_id=body.source_id, extract=body.extract,
        actor=caller.actor, judge=services.conflict_judge, policy=services.policy,
        preview=body.preview,
        vectors=services.vectors,
    )
    if result["status"] in ("unchanged", "preview"):
        response.status_code = 200
    return result


@router.get("/workspaces/{ws}/sources", dependencies=[allow("read")])
async def list_sources(
    ws: WorkspaceDep,
    limit: Annotated[int, Query(ge=1, le=1000)] = 100,
    offset: Annotated[int, Query(ge=0, le=10**9)] = 0,
    cursor: Cursor = None,
) -> SourceList:
    return await lists.source_page(ws.graph, limit=limit, offset=offset, cursor=cursor)


@router.get("/workspaces/{ws}/sources/{source_id}", dependencies=[allow("read")])
async def get_source(source_id: str, ws: WorkspaceDep) -> SourceView:
    return await sources.get_source(ws.graph, source_id)


@router.post("/workspaces/{ws}/sources/{source_id}/extract",
             dependencies=[allow("add_source")])
async def extract_source(source_id: str, ws: WorkspaceDep, services: ServicesDep,
                         caller: CallerDep) -> SameVersion:
    return await ingest.extract_pending(ws.graph, services.settings, services.extractor,
                                        source_id=source_id, actor=caller.actor,
                                        judge=services.conflict_judge,
                                        vectors=services.vectors)
