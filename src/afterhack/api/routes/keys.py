"""API keys of a workspace (admin only): make one (shown once), list them, revoke one."""

from __future__ import annotations

from fastapi import APIRouter

from afterhack.api.deps import StoreDep, WorkspaceDep
from afterhack.api.security import allow
from afterhack.model.workspaces import ApiKeyRow, NewApiKey
from afterhack.store import keys
from afterhack.wire.answers import ApiKeyList
from afterhack.wire.inputs import KeyCreate

router = APIRouter(tags=["keys"])


@router.post("/workspaces/{ws}/keys", status_code=201, dependencies=[allow("manage")])
async def create_key(body: KeyCreate, ws: WorkspaceDep, store: StoreDep) -> NewApiKey:
    """The key itself is in ``key``: it is shown this once and stored only as a hash."""
    return await keys.create_key(store, ws.id, body.role, body.name)


@router.get("/workspaces/{ws}/keys", dependencies=[allow("manage")])
async def list_keys(ws: WorkspaceDep, store: StoreDep) -> ApiKeyList:
    return {"items": await keys.list_keys(store, ws.id)}


@router.delete("/workspaces/{ws}/keys/{key_id}", dependencies=[allow("manage")])
async def revoke_key(key_id: str, ws: WorkspaceDep, store: StoreDep) -> ApiKeyRow:
    return await keys.revoke_key(store, ws.id, key_id)
