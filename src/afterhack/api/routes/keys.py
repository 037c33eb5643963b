"""API keys of a workspace (admin only): make one (shown once), list them, revoke one."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from afterhack.api import responses as out
from afterhack.api.deps import StoreDep, WorkspaceDep
from afterhack.api.security import allow
from afterhack.model.workspaces import ApiKeyRow, NewApiKey
from afterhack.store import keys
from afterhack.wire.inputs import KeyCreate

router = APIRouter(tags=["keys"])


@router.post("/workspaces/{ws}/keys", status_code=201, response_model=out.NewApiKey,
             dependencies=[allow("manage")])
async def create_key(body: KeyCreate, ws: WorkspaceDep, store: StoreDep) -> NewApiKey:
    """The key itself is in ``key``: it is shown this once and stored only as a hash."""
    return await keys.create_key(store, ws.id, body.role, body.name)


@router.get("/workspaces/{ws}/keys", response_model=out.ApiKeyList,
            dependencies=[allow("manage")])
async def list_keys(ws: WorkspaceDep, store: StoreDep) -> dict[str, Any]:
    return {"items": await keys.list_keys(store, ws.id)}


@router.delete("/workspaces/{ws}/keys/{key_id}", response_model=out.ApiKey,
               dependencies=[allow("manage")])
async def revoke_key(key_id: str, ws: WorkspaceDep, store: StoreDep) -> ApiKeyRow:
    return await keys.revoke_key(store, ws.id, key_id)
