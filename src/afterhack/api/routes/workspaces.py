from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query

from afterhack import lists
from afterhack.api import responses as out
from afterhack.api.deps import CallerDep, Cursor, StoreDep, WorkspaceDep
from afterhack.api.schemas import WorkspaceCreate
from afterhack.api.security import allow
from afterhack.model.pages import WorkspacePage
from afterhack.model.workspaces import WorkspaceRow
from afterhack.store import audit, workspaces

router = APIRouter(tags=["workspaces"])


@router.post("/workspaces", status_code=201, response_model=out.Workspace,
             dependencies=[allow("manage")])
async def create_workspace(body: WorkspaceCreate, store: StoreDep,
                           caller: CallerDep) -> WorkspaceRow:
    return await workspaces.create_workspace(store, body.name, caller.actor)


@router.get("/workspaces", response_model=out.WorkspaceList, dependencies=[allow("read")])
async def list_workspaces(
    store: StoreDep,
    caller: CallerDep,
    limit: Annotated[int, Query(ge=1, le=1000)] = 100,
    offset: Annotated[int, Query(ge=0, le=10**9)] = 0,
    cursor: Cursor = None,
) -> WorkspacePage:
    # A workspace key sees its own workspace only.
    ids = None if caller.workspace_id is None else [caller.workspace_id]
    return await lists.workspace_page(store, limit=limit, offset=offset, cursor=cursor,
                                      ids=ids)


@router.get("/workspaces/{ws}", response_model=out.Workspace, dependencies=[allow("read")])
async def get_workspace(ws: WorkspaceDep) -> WorkspaceRow:
    return ws.row


@router.get("/workspaces/{ws}/audit", response_model=out.Items, dependencies=[allow("read")])
async def get_audit(
    ws: WorkspaceDep,
    limit: Annotated[int, Query(ge=1, le=1000)] = 100,
    before: Annotated[int | None, Query(ge=0, le=2**53)] = None,
) -> dict[str, Any]:
    return {"items": await audit.list_audit(ws.graph, limit=limit, before=before)}
