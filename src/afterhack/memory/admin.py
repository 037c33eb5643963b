"""A workspace's own settings and its API keys (admin only).

A key is made here: 256 random bits behind ``ahk_``, shown once in the answer and stored
only as its hash (access.py checks it on every request, with no cache, so a revoked key
stops at once)."""

from __future__ import annotations

from afterhack.access import key_hash, new_secret
from afterhack.memory.scope import Scope
from afterhack.model.vocab import ForgetRequests, KeyRole, UpdatesPolicy
from afterhack.model.workspaces import ApiKeyRow, NewApiKey, WorkspaceRow
from afterhack.records.audit import audit_params
from afterhack.records.clock import now_ms
from afterhack.records.ids import new_id
from afterhack.store import keys as store_keys
from afterhack.store import workspaces as store_workspaces


async def change_settings(ws: Scope, updates: UpdatesPolicy | None = None,
                          forget_requests: ForgetRequests | None = None) -> WorkspaceRow:
    """How the workspace takes a newer statement by the same speaker (docs/rules.md,
    rule 11) and a speaker's request to forget (rule 22); a setting left None, or given its
    value again, is not changed, and nothing changed writes nothing."""
    row = await store_workspaces.get_workspace(ws.store, ws.id)
    wanted: dict[str, str] = {}
    was: dict[str, str] = {}
    if updates is not None and updates != row["updates"]:
        wanted["updates"], was["updates"] = updates, row["updates"]
    if forget_requests is not None and forget_requests != row["forget_requests"]:
        wanted["forget_requests"], was["forget_requests"] = (forget_requests,
                                                             row["forget_requests"])
    if not wanted:
        return row
    return await store_workspaces.change_settings(
        ws.store, ws.id, updates if "updates" in wanted else None,
        forget_requests if "forget_requests" in wanted else None,
        audit_params("workspace.updated", ws.actor, ws.id, {**wanted, "was": was}))


async def create_key(ws: Scope, role: KeyRole, name: str) -> NewApiKey:
    """A new key of this workspace; the answer carries the secret (``key``), this once."""
    secret = new_secret()
    return await store_keys.create_key(ws.store, {
        "id": new_id(), "workspace_id": ws.id, "role": role, "name": name,
        "key_hash": key_hash(secret), "now": now_ms()}, secret)


async def list_keys(ws: Scope) -> list[ApiKeyRow]:
    return await store_keys.list_keys(ws.store, ws.id)


async def revoke_key(ws: Scope, key_id: str) -> ApiKeyRow:
    return await store_keys.revoke_key(ws.store, ws.id, key_id, now_ms())
