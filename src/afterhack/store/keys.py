"""API keys, kept in the registry graph: only a key's sha256 is stored, never the key.

A key belongs to one workspace and has one role (reader, agent, reviewer). It is shown once,
when it is created; revoking it sets ``revoked_at`` and it stops working on the next
request (every request looks its key up here; nothing is cached in the app).
"""

from __future__ import annotations

from typing import TypedDict

from afterhack.errors import KeyNotFound
from afterhack.model.vocab import KEY_ROLES, KeyRole
from afterhack.model.workspaces import ApiKeyRow, NewApiKey
from afterhack.store.client import Store
from afterhack.store.names import REGISTRY_GRAPH
from afterhack.store.rows import of

_KEY = of(ApiKeyRow)
_NEW_KEY = of(NewApiKey)

_FIELDS = (
    "k.id AS id, k.workspace_id AS workspace_id, k.role AS role, k.name AS name, "
    "k.created_at AS created_at, k.revoked_at AS revoked_at"
)


class NewKey(TypedDict):
    """A key to store: its id, workspace, role and name, the hash of its secret, and when."""

    id: str
    workspace_id: str
    role: KeyRole
    name: str
    key_hash: str
    now: int


async def create_key(store: Store, key: NewKey, secret: str) -> NewApiKey:
    """Store a new key; the returned row carries ``secret`` under ``key`` (the only time it
    is given back: only its hash is stored)."""
    if key["role"] not in KEY_ROLES:
        raise ValueError(f"not a workspace role: {key['role']}")
    rows = await store.graph(REGISTRY_GRAPH).write(
        "CREATE (k:ApiKey {id:$id, workspace_id:$workspace_id, role:$role, key_hash:$key_hash, "
        f"name:$name, created_at:$now}}) RETURN {_FIELDS}",
        key,
    )
    return _NEW_KEY.one({**rows[0], "key": secret})


async def list_keys(store: Store, workspace_id: str) -> list[ApiKeyRow]:
    rows = await store.graph(REGISTRY_GRAPH).read(
        f"MATCH (k:ApiKey {{workspace_id:$ws}}) RETURN {_FIELDS} ORDER BY k.created_at, k.id",
        {"ws": workspace_id},
    )
    return _KEY.all(rows)


async def revoke_key(store: Store, workspace_id: str, key_id: str, now: int) -> ApiKeyRow:
    """Revoke one key of the workspace (idempotent: a revoked key keeps its first revoked_at)."""
    rows = await store.graph(REGISTRY_GRAPH).write(
        "MATCH (k:ApiKey {id:$id}) WHERE k.workspace_id = $ws "
        f"SET k.revoked_at = coalesce(k.revoked_at, $now) RETURN {_FIELDS}",
        {"id": key_id, "ws": workspace_id, "now": now},
    )
    row = rows.first()
    if row is None:
        raise KeyNotFound(key_id)
    return _KEY.one(row)


async def revoke_workspace_keys(store: Store, workspace_id: str, now: int) -> int:
    """Revoke every key of a workspace (when it is deleted); returns how many were live."""
    rows = await store.graph(REGISTRY_GRAPH).write(
        "MATCH (k:ApiKey {workspace_id:$ws}) WHERE k.revoked_at IS NULL "
        "SET k.revoked_at = $now RETURN count(k) AS n",
        {"ws": workspace_id, "now": now},
    )
    return int(rows.scalar() or 0)


async def find_live_key(store: Store, key_hash: str) -> ApiKeyRow | None:
    """The unrevoked key whose secret has this hash, or None (unknown and revoked look the
    same)."""
    rows = await store.graph(REGISTRY_GRAPH).read(
        "MATCH (k:ApiKey {key_hash:$hash}) WHERE k.revoked_at IS NULL "
        f"RETURN {_FIELDS} LIMIT 1",
        {"hash": key_hash},
    )
    return _KEY.first(rows)
