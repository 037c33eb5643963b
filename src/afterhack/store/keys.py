"""API keys, kept in the registry graph: only a key's sha256 is stored, never the key.

A key belongs to one workspace and has one role (reader, agent, reviewer). It is shown once,
when it is created; revoking it sets ``revoked_at`` and it stops working on the next
request (every request looks its key up here; nothing is cached in the app).
"""

from __future__ import annotations

import hashlib
import secrets

from afterhack.errors import KeyNotFound
from afterhack.model.vocab import KEY_ROLES, KeyRole
from afterhack.model.workspaces import ApiKeyRow, NewApiKey
from afterhack.store.audit import now_ms
from afterhack.store.client import Store
from afterhack.store.names import REGISTRY_GRAPH, new_id
from afterhack.store.rows import of

KEY_PREFIX = "ahk_"

_KEY = of(ApiKeyRow)
_NEW_KEY = of(NewApiKey)

_FIELDS = (
    "k.id AS id, k.workspace_id AS workspace_id, k.role AS role, k.name AS name, "
    "k.created_at AS created_at, k.revoked_at AS revoked_at"
)


def new_secret() -> str:
    """``ahk_`` and 43 url-safe characters (256 random bits)."""
    return KEY_PREFIX + secrets.token_urlsafe(32)


def key_hash(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


async def create_key(store: Store, workspace_id: str, role: KeyRole, name: str) -> NewApiKey:
    """A new key; the returned row carries the secret under ``key`` (the only time it exists)."""
    if role not in KEY_ROLES:
        raise ValueError(f"not a workspace role: {role}")
    secret = new_secret()
    rows = await store.graph(REGISTRY_GRAPH).write(
        "CREATE (k:ApiKey {id:$id, workspace_id:$ws, role:$role, key_hash:$hash, name:$name, "
        f"created_at:$now}}) RETURN {_FIELDS}",
        {"id": new_id(), "ws": workspace_id, "role": role, "hash": key_hash(secret),
         "name": name, "now": now_ms()},
    )
    return _NEW_KEY.one({**rows[0], "key": secret})


async def list_keys(store: Store, workspace_id: str) -> list[ApiKeyRow]:
    rows = await store.graph(REGISTRY_GRAPH).read(
        f"MATCH (k:ApiKey {{workspace_id:$ws}}) RETURN {_FIELDS} ORDER BY k.created_at, k.id",
        {"ws": workspace_id},
    )
    return _KEY.all(rows)


async def revoke_key(store: Store, workspace_id: str, key_id: str) -> ApiKeyRow:
    """Revoke one key of the workspace (idempotent: a revoked key keeps its first revoked_at)."""
    rows = await store.graph(REGISTRY_GRAPH).write(
        "MATCH (k:ApiKey {id:$id}) WHERE k.workspace_id = $ws "
        f"SET k.revoked_at = coalesce(k.revoked_at, $now) RETURN {_FIELDS}",
        {"id": key_id, "ws": workspace_id, "now": now_ms()},
    )
    row = rows.first()
    if row is None:
        raise KeyNotFound(key_id)
    return _KEY.one(row)


async def revoke_workspace_keys(store: Store, workspace_id: str) -> int:
    """Revoke every key of a workspace (when it is deleted); returns how many were live."""
    rows = await store.graph(REGISTRY_GRAPH).write(
        "MATCH (k:ApiKey {workspace_id:$ws}) WHERE k.revoked_at IS NULL "
        "SET k.revoked_at = $now RETURN count(k) AS n",
        {"ws": workspace_id, "now": now_ms()},
    )
    return int(rows.scalar() or 0)


async def find_live_key(store: Store, secret: str) -> ApiKeyRow | None:
    """The unrevoked key with this secret, or None (unknown and revoked look the same)."""
    rows = await store.graph(REGISTRY_GRAPH).read(
        "MATCH (k:ApiKey {key_hash:$hash}) WHERE k.revoked_at IS NULL "
        f"RETURN {_FIELDS} LIMIT 1",
        {"hash": key_hash(secret)},
    )
    return _KEY.first(rows)
