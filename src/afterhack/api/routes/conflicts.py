"""Conflicts: list them, preview a resolution, resolve (docs/rules.md, rule 9; docs/api.md)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Response

from afterhack.api.deps import AsOf, Cursor, WorkspaceDep
from afterhack.api.security import allow
from afterhack.memory import conflicts
from afterhack.memory.conflicts import Choice
from afterhack.memory.repair import Seen
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
    return await ws.conflicts(conflicts.parse_status(status), limit, offset, cursor,
                              parse_as_of(as_of))


@router.get("/workspaces/{ws}/conflicts/{conflict_id}", dependencies=[allow("read")])
async def get_conflict(conflict_id: str, ws: WorkspaceDep, as_of: AsOf = None
                       ) -> ConflictRecord:
    return await ws.conflict(conflict_id, parse_as_of(as_of))


@router.post("/workspaces/{ws}/conflicts/{conflict_id}/preview",
             dependencies=[allow("correct")])
async def preview(conflict_id: str, body: ConflictPreview,
                  ws: WorkspaceDep) -> ResolutionPreview:
    return await ws.preview_resolution(conflict_id, Choice(keep=body.keep, dismiss=body.dismiss))


@router.post("/workspaces/{ws}/conflicts/{conflict_id}/resolve", status_code=201,
             dependencies=[allow("correct")],
             responses={200: {"model": AppliedResolution,
                              "description": "The same resolution again: already_applied."}})
async def resolve(conflict_id: str, body: ConflictResolve, ws: WorkspaceDep,
                  response: Response) -> AppliedResolution:
    choice = Choice(keep=body.keep, dismiss=body.dismiss, reason=body.reason,
                    valid_times=[{"claim_id": v.claim_id, "valid_from": v.valid_from,
                                  "valid_until": v.valid_until} for v in body.valid_times or []])
    done = await ws.resolve(conflict_id, choice, Seen(body.conflict_revision, body.impact_token),
                            body.reviewer)
    if done["status"] == "already_applied":
        response.status_code = 200
    return done
