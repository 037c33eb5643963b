from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query

from afterhack.api.deps import CallerDep, StoreDep, WorkspaceDep
from afterhack.api.schemas import WorkspaceCreate
from afterhack.store import audit, workspaces

router = APIRouter(tags=["workspaces"])


@router.post("/workspaces", status_code=201)
async def create_workspace(body: WorkspaceCreate, store: StoreDep,
                           caller: CallerDep) -> dict[str, Any]:
    return await workspaces.create_workspace(store, body.name, caller.actor)


@router.get("/workspaces")
async def list_workspaces(
    store: StoreDep,
    caller: CallerDep,
    limit: Annotated[int, Query(ge=1, le=1000)] = 100,
    offset: Annotated[int, Query(ge=0, le=10**9)] = 0,
) -> dict[str, Any]:
    ids = None if caller.workspace_id is None else [caller.workspace_id]
    items = await workspaces.list_workspaces(store, limit=limit, offset=offset, ids=ids)
    return {"items": items, "limit": limit, "offset": offset}


@router.get("/workspaces/{ws}")
async def get_workspace(ws: WorkspaceDep) -> dict[str, Any]:
    return ws.row


@router.get("/workspaces/{ws}/audit")
async def get_audit(
    ws: WorkspaceDep,
    limit: Annotated[int, Query(ge=1, le=1000)] = 100,
    before: Annotated[int | None, Query(ge=0, le=2**53)] = None,
) -> dict[str, Any]:
    return {"items": await audit.list_audit(ws.graph, limit=limit, before=before)}
