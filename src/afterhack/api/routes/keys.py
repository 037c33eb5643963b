"""API keys of a workspace (admin only): make one (shown once), list them, revoke one."""

from __future__ import annotations

from fastapi import APIRouter

from afterhack.api.deps import WorkspaceDep
from afterhack.api.security import allow
from afterhack.model.workspaces import ApiKeyRow, NewApiKey
from afterhack.wire.answers import ApiKeyList
from afterhack.wire.inputs import KeyCreate

router = APIRouter(tags=["keys"])


@router.post("/workspaces/{ws}/keys", status_code=201, dependencies=[allow("manage")])
async def create_key(body: KeyCreate, ws: WorkspaceDep) -> NewApiKey:
    """The key itself is in ``key``: it is shown this once and stored only as a hash."""
    return await ws.create_key(body.role, body.name)


@router.get("/workspaces/{ws}/keys", dependencies=[allow("manage")])
async def list_keys(ws: WorkspaceDep) -> ApiKeyList:
    return {"items": await ws.keys()}


@router.delete("/workspaces/{ws}/keys/{key_id}", dependencies=[allow("manage")])
async def revoke_key(key_id: str, ws: WorkspaceDep) -> ApiKeyRow:
    return await ws.revoke_key(key_id)
