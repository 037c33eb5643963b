"""What the registry remembers of a deleted workspace: a ``WorkspaceDeletion`` with its id,
its times and whether FalkorDB's files are clean of it yet; nothing of what it held.

A deletion is written down before anything goes (``begin``) and marked done once the graph
is gone (``finish``), so a deletion cut short by a crash is found and finished at the next
start, and its files are rewritten then too (store/erasure_disk.py).
"""

from __future__ import annotations

from afterhack.model.workspaces import WorkspaceDeletion
from afterhack.store.client import Store
from afterhack.store.names import REGISTRY_GRAPH
from afterhack.store.rows import of

_DELETION = of(WorkspaceDeletion)
_FIELDS = ("d.id AS id, d.requested_at AS requested_at, d.deleted_at AS deleted_at, "
           "d.disk AS disk, d.disk_clean_at AS disk_clean_at")


async def begin(store: Store, ws_id: str, now: int) -> None:
    """Record that the workspace is being deleted (again, if it was restored since)."""
    await store.graph(REGISTRY_GRAPH).write(
        "MERGE (d:WorkspaceDeletion {id: $id}) "
        "SET d.requested_at = $now, d.deleted_at = null, d.disk = 'pending', "
        "d.disk_clean_at = null",
        {"id": ws_id, "now": now})


async def finish(store: Store, ws_id: str, now: int) -> WorkspaceDeletion:
    """Record that the workspace's graph and registry entry are gone; its files are not
    clean until a rewrite that begins after this has finished on every node."""
    rows = await store.graph(REGISTRY_GRAPH).write(
        f"MATCH (d:WorkspaceDeletion {{id: $id}}) SET d.deleted_at = $now RETURN {_FIELDS}",
        {"id": ws_id, "now": now})
    return _DELETION.one(rows[0])


async def get(store: Store, ws_id: str) -> WorkspaceDeletion | None:
    rows = await store.run(
        REGISTRY_GRAPH, f"MATCH (d:WorkspaceDeletion {{id: $id}}) RETURN {_FIELDS}",
        {"id": ws_id}, read_only=True, primary=True)
    return _DELETION.first(rows)


async def unfinished(store: Store) -> list[str]:
    """Deletions a crash cut short: begun, never finished."""
    rows = await store.run(
        REGISTRY_GRAPH, "MATCH (d:WorkspaceDeletion) WHERE d.deleted_at IS NULL "
        "RETURN d.id AS id ORDER BY d.id", read_only=True, primary=True)
    return [str(r["id"]) for r in rows]
