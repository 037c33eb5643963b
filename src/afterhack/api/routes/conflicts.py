"""Conflicts: list them, preview a resolution, resolve (docs/rules.md, rule 9; docs/api.md)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Response

from afterhack.api.deps import AsOf, CallerDep, Cursor, ServicesDep, WorkspaceDep
from afterhack.api.security import allow
from afterhack.memory import conflicts
from afterhack.model.conflicts import AppliedResolution, ConflictRecord, ResolutionPreview
from afterhack.model.pages import ConflictList
from afterhack.temporal.moments import parse_as_of
from afterhack.wire.inputs import ConflictPreview, ConflictResolve

router = APIRouter(tags=["conflicts"])


@router.get("/workspaces/{ws}/conflicts", dependencies=[allow("read")])
async def list_conflicts(
    ws: WorkspaceDep,
    status: Annotated[str | None, Query(max_length=20,
                                        description="open, resolved, dismissed or all")] = None,
    limit: Annotated[int, Query(ge=1, le=1000)] = 100,
    offset: Annotated[int, Query(ge=0, le=10**9)] = 0,
    cursor: Cursor = None,
    as_of: AsOf = None,
) -> ConflictList:
    return await conflicts.list_conflicts(ws.graph, status=conflicts.parse_status(status),
                                          limit=limit, offset=offset, cursor=cursor,
                                          as_of=parse_as_of(as_of))


@router.get("/workspaces/{ws}/conflicts/{conflict_id}", dependencies=[allow("read")])
async def get_conflict(conflict_id: str, ws: WorkspaceDep, as_of: AsOf = None
                       ) -> ConflictRecord:
    return await conflicts.get_conflict(ws.graph, conflict_id, as_of=parse_as_of(as_of))


@router.post("/workspaces/{ws}/conflicts/{conflict_id}/preview",
             dependencies=[allow("correct")])
async def preview(conflict_id: str, body: ConflictPreview, ws: WorkspaceDep,
                  services: ServicesDep) -> ResolutionPreview:
    return await conflicts.preview_resolution(ws.graph, conflict_id, keep=body.keep,
                                              dismiss=body.dismiss, policy=services.policy)


@router.post("/workspaces/{ws}/conflicts/{conflict_id}/resolve", status_code=201,
             dependencies=[allow("correct")],
             responses={200: {"model": AppliedResolution,
                              "description": "The same resolution again: already_applied."}})
async def resolve(conflict_id: str, body: ConflictResolve, ws: WorkspaceDep,
                  services: ServicesDep, caller: CallerDep,
                  response: Response) -> AppliedResolution:
    status, result = await conflicts.resolve(
        ws.graph, conflict_id, keep=body.keep, dismiss=body.dismiss, reason=body.reason,
        reviewer=body.reviewer or caller.actor, conflict_revision=body.conflict_revision,
        impact_token_seen=body.impact_token, policy=services.policy, actor=caller.actor,
        valid_times=[{"claim_id": v.claim_id, "valid_from": v.valid_from,
                      "valid_until": v.valid_until} for v in body.valid_times or []],
        judge=services.conflict_judge, vectors=services.vectors)
    if status == "already_applied":
        response.status_code = 200
    return {"status": status, **result}
