"""Erasures (docs/rules.md, rule 22): preview, apply (and wait for the disk), list, read,
and decline a speaker's request."""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, Query, Response

from afterhack.api.deps import Cursor, SettingsDep, WorkspaceDep
from afterhack.api.security import allow
from afterhack.errors import InvalidRequest
from afterhack.model.erasures import AppliedErasure, ErasurePreview, ErasureRecord
from afterhack.model.pages import ErasureList
from afterhack.model.vocab import ERASURE_STATUSES, ErasureStatus, ErasureStatusFilter
from afterhack.wire.inputs import ErasureApply, ErasureDecline, ErasurePreviewIn

router = APIRouter(tags=["erasures"])


@router.post("/workspaces/{ws}/erasures/preview", dependencies=[allow("erase")])
async def preview(body: ErasurePreviewIn, ws: WorkspaceDep) -> ErasurePreview:
    """What erasing the target would remove and repair, and the token apply sends back."""
    return await ws.preview_erasure(body.target.target())


@router.post("/workspaces/{ws}/erasures", status_code=201, dependencies=[allow("erase")],
             responses={200: {"model": AppliedErasure,
                              "description": "The same apply again: already_applied."}})
async def apply(body: ErasureApply, ws: WorkspaceDep, response: Response,
                settings: SettingsDep,
                wait: Annotated[Literal["disk"] | None, Query(
                    description="disk: answer once FalkorDB's files no longer hold what "
                                "was erased (the record says disk: clean)")] = None
                ) -> AppliedErasure:
    """Apply what the preview showed, in one guarded write; the disk rewrite is asked for
    at once, and waited for with ``?wait=disk``."""
    done = await ws.erase(body.target.target(), body.impact_token, body.reason,
                          settings.disk_wait_s if wait == "disk" else None)
    if done["status"] == "already_applied":
        response.status_code = 200
    return done


def _statuses(status: ErasureStatusFilter | None) -> list[ErasureStatus] | None:
    if status is None or status == "all":
        return None
    for s in ERASURE_STATUSES:
        if s == status:
            return [s]
    raise InvalidRequest(f"Unknown erasure status: {status}.")  # pragma: no cover


@router.get("/workspaces/{ws}/erasures", dependencies=[allow("read")])
async def list_erasures(
    ws: WorkspaceDep,
    status: ErasureStatusFilter | None = None,
    limit: Annotated[int, Query(ge=1, le=1000)] = 50,
    cursor: Cursor = None,
) -> ErasureList:
    """Erasures and requests, newest first (every status without ``status``)."""
    return await ws.erasures(_statuses(status), limit, cursor)


@router.get("/workspaces/{ws}/erasures/{erasure_id}", dependencies=[allow("read")])
async def get_erasure(erasure_id: str, ws: WorkspaceDep) -> ErasureRecord:
    return await ws.erasure(erasure_id)


@router.post("/workspaces/{ws}/erasures/{erasure_id}/decline",
             dependencies=[allow("erase")])
async def decline(erasure_id: str, body: ErasureDecline, ws: WorkspaceDep) -> ErasureRecord:
    """A speaker's request declined: the claims it withheld are what they were before."""
    return await ws.decline_erasure(erasure_id, body.reason)
