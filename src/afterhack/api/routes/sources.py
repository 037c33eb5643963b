from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Response
from pydantic import TypeAdapter

from afterhack.api.deps import CallerDep, Cursor, ServicesDep, WorkspaceDep
from afterhack.api.security import allow
from afterhack.memory import ingest, lists
from afterhack.model.pages import SourceList
from afterhack.model.sources import (
    IngestResult,
    NewVersion,
    SameVersion,
    SourcePreview,
    SourceView,
)
from afterhack.store import sources
from afterhack.wire.inputs import SourceCreate

router = APIRouter(tags=["sources"])

# An ingest's answer lists every claim it kept, so it is encoded once by the schema its
# status names rather than validated again against the union (see encode_ingest).
_NEW = TypeAdapter(NewVersion)
_SAME = TypeAdapter(SameVersion)
_PREVIEW = TypeAdapter(SourcePreview)


def encode_ingest(result: IngestResult) -> bytes:
    """``result`` as JSON, by the one member of IngestResult its status names."""
    if result["status"] == "preview":
        return _PREVIEW.dump_json(result)
    if result["status"] == "unchanged" or result["status"] == "extracted":
        return _SAME.dump_json(result)
    return _NEW.dump_json(result)


@router.post("/workspaces/{ws}/sources", status_code=201, response_model=IngestResult,
             dependencies=[allow("add_source")],
             responses={200: {"model": SameVersion | SourcePreview,
                              "description": "A new version equal to the latest "
                                             "(unchanged), or a preview (nothing written)."}})
async def add_source(body: SourceCreate, ws: WorkspaceDep, services: ServicesDep,
                     caller: CallerDep) -> Response:
    result = await ingest.ingest_source(
        ws.graph, services.settings, services.extractor,
        title=body.title, text=body.text, origin_type=body.origin_type,
        origin_name=body.origin_name, source_id=body.source_id, extract=body.extract,
        actor=caller.actor, judge=services.conflict_judge, policy=services.policy,
        preview=body.preview,
        vectors=services.vectors,
    )
    status = 200 if result["status"] in ("unchanged", "preview") else 201
    return Response(encode_ingest(result), status_code=status, media_type="application/json")


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
