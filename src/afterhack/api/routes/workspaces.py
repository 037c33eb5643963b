from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query

from afterhack.api.deps import CallerDep, Cursor, StoreDep, WorkspaceDep
from afterhack.api.security import allow
from afterhack.memory import lists
from afterhack.model.pages import AuditList, WorkspaceList
from afterhack.model.workspaces import WorkspaceRow
from afterhack.store import workspaces
from afterhack.wire.inputs import WorkspaceChange, WorkspaceCreate

router = APIRouter(tags=["workspaces"])


@router.post("/workspaces", status_code=201, dependencies=[allow("manage")])
async def create_workspace(body: WorkspaceCreate, store: StoreDep,
                           caller: CallerDep) -> WorkspaceRow:
    return await workspaces.create_workspace(store, body.name, caller.actor)


@router.get("/workspaces", dependencies=[allow("read")])
async def list_workspaces(
    store: StoreDep,
    caller: CallerDep,
    limit: Annotated[int, Query(ge=1, le=1000)] = 100,
    offset: Annotated[int, Query(ge=0, le=10**9)] = 0,
    cursor: Cursor = None,
) -> WorkspaceList:
    # A workspace key sees its own workspace only.
    ids = None if caller.workspace_id is None else [caller.workspace_id]
    return await lists.workspace_page(store, limit=limit, offset=offset, cursor=cursor,
                                      ids=ids)


@router.get("/workspaces/{ws}", dependencies=[allow("read")])
async def get_workspace(ws: WorkspaceDep) -> WorkspaceRow:
    return ws.row


@router.patch("/workspaces/{ws}", dependencies=[allow("manage")])
async def change_workspace(body: WorkspaceChange, ws: WorkspaceDep, store: StoreDep,
                           caller: CallerDep) -> WorkspaceRow:
    """How a newer statement by the same speaker is taken (docs/rules.md, rule 11):
    ``review`` (a conflict for a reviewer, the default) or ``latest_wins`` (it supersedes
    the older one at once); and a speaker's request to forget (rule 22): ``review`` (a
    request for a reviewer, the default) or ``apply`` (applied at once)."""
    return await workspaces.change_settings(store, ws.id, caller.actor, updates=body.updates,
                                            forget_requests=body.forget_requests)


@router.get("/workspaces/{ws}/audit", dependencies=[allow("read")])
async def get_audit(
    ws: WorkspaceDep,
    limit: Annotated[int, Query(ge=1, le=1000)] = 100,
    before: Annotated[int | None, Query(ge=0, le=2**53)] = None,
    cursor: Cursor = None,
) -> AuditList:
    return await lists.audit_page(ws.graph, limit=limit, before=before, cursor=cursor)
