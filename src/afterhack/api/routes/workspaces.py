from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query

from afterhack.api.deps import CallerDep, Cursor, WorkspaceDep, WorkspacesDep
from afterhack.api.security import allow
from afterhack.model.pages import AuditList, WorkspaceList
from afterhack.model.workspaces import WorkspaceRow
from afterhack.wire.inputs import WorkspaceChange, WorkspaceCreate

router = APIRouter(tags=["workspaces"])


@router.post("/workspaces", status_code=201, dependencies=[allow("manage")])
async def create_workspace(body: WorkspaceCreate, workspaces: WorkspacesDep,
                           caller: CallerDep) -> WorkspaceRow:
    return await workspaces.create(body.name, caller)


@router.get("/workspaces", dependencies=[allow("read")])
async def list_workspaces(
    workspaces: WorkspacesDep,
    caller: CallerDep,
    limit: Annotated[int, Query(ge=1, le=1000)] = 100,
    offset: Annotated[int, Query(ge=0, le=10**9)] = 0,
    cursor: Cursor = None,
) -> WorkspaceList:
    # A workspace key sees its own workspace only.
    return await workspaces.page(caller, limit, offset, cursor)


@router.get("/workspaces/{ws}", dependencies=[allow("read")])
async def get_workspace(ws: WorkspaceDep) -> WorkspaceRow:
    return await ws.workspace()


@router.patch("/workspaces/{ws}", dependencies=[allow("manage")])
async def change_workspace(body: WorkspaceChange, ws: WorkspaceDep) -> WorkspaceRow:
    """How a newer statement by the same speaker is taken (docs/rules.md, rule 11):
    ``review`` (a conflict for a reviewer, the default) or ``latest_wins`` (it supersedes
    the older one at once); and a speaker's request to forget (rule 22): ``review`` (a
    request for a reviewer, the default) or ``apply`` (applied at once)."""
    return await ws.change_settings(body.updates, body.forget_requests)


@router.get("/workspaces/{ws}/audit", dependencies=[allow("read")])
async def get_audit(
    ws: WorkspaceDep,
    limit: Annotated[int, Query(ge=1, le=1000)] = 100,
    before: Annotated[int | None, Query(ge=0, le=2**53)] = None,
    cursor: Cursor = None,
) -> AuditList:
    return await ws.audit(limit, before, cursor)
