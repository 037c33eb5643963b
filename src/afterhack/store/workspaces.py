"""Workspaces: one graph each, plus a registry graph that lists them.

FalkorDB in cluster mode cannot list graphs, so the registry is the list. A workspace
becomes visible only when its graph, indexes and registry entry all exist (``ready``).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import time

from afterhack.errors import StoreUnavailable, WorkspaceNotFound
from afterhack.model.pages import After, PageKey
from afterhack.model.vocab import EDGE_TYPES, ForgetRequests, UpdatesPolicy
from afterhack.model.workspaces import WorkspaceRow
from afterhack.model.writes import AuditParams
from afterhack.store import admin
from afterhack.store.audit import CREATE_AUDIT
from afterhack.store.client import Graph, GraphMissing, QueryFailed, Row, Store, concurrently
from afterhack.store.keyset import after_params
from afterhack.store.names import PROPERTY_KEYS, REGISTRY_GRAPH, graph_name
from afterhack.store.node_index import create_node_index
from afterhack.store.node_index import upgrade as upgrade_node_index

_INDEX_WAIT_S = 30.0
# Building the indexes of a large graph loaded from disk takes minutes, not seconds.
_UPGRADE_WAIT_S = 3600.0


async def ensure_registry(store: Store, now: int) -> None:
    """Make the registry graph and its schema, or check that they are there.

    At every start-up, so it only reads when all of it exists: a write here would land in
    the append-only file each time, and a repeated constraint or index creation fails on the
    server (and FalkorDB replays such failures from the file at every load).
    """
    g = store.graph(REGISTRY_GRAPH)
    try:
        present = await g.read("MATCH (m:Registry {id:'registry'}) RETURN count(m) AS n")
    except GraphMissing:
        present = None
    if present is None or not present.scalar():
        await g.write("MERGE (m:Registry {id:'registry'}) ON CREATE SET m.created_at = $now",
                      {"now": now})
    await _ensure_unique_ids(store, REGISTRY_GRAPH, ("WorkspaceEntry", "ApiKey"))
    await _create_range_index(g, "ApiKey", "key_hash")
    await _create_range_index(g, "ApiKey", "workspace_id")
    await _wait_schema(store, REGISTRY_GRAPH)


async def _ensure_unique_ids(store: Store, name: str, labels: tuple[str, ...]) -> None:
    """A unique constraint on ``id`` for each label that lacks one (asked first: see
    ensure_registry)."""
    have = {c["label"] for c in await admin.list_constraints(store, name)
            if c["type"] == "UNIQUE" and c["entitytype"] == "NODE" and c["properties"] == ["id"]}
    for label in labels:
        if label not in have:
            await admin.create_unique_constraint(store, name, label, "id")


async def _create_range_index(g: Graph, label: str, prop: str) -> None:
    # Asked first, so restarting an app does not log a failed CREATE INDEX per index.
    rows = await g.read("CALL db.indexes() YIELD label, properties "
                        "RETURN label AS label, properties AS props")
    if any(r["label"] == label and prop in r["props"] for r in rows):
        return
    try:
        # Labels and property names are constants of this module, never user input.
        await g.write(f"CREATE INDEX FOR (n:{label}) ON (n.{prop})")
    except QueryFailed as exc:
        if "already indexed" not in str(exc):
            raise


async def register_schema(g: Graph) -> None:
    """Make every relationship type and property name exist in the graph before any query.

    FalkorDB 4.16 caches a read plan that names a relationship type the graph does not have
    yet as "matches nothing", and keeps using it after the type appears: a preview made in a
    fresh workspace left ``size([(c)<-[:USED_CLAIM]-(:Decision) | u])`` at 0 for good, so
    every later apply failed its guard (a false 409). And a new type, label or property name
    grows the graph's schema arrays while other threads plan queries against them (upstream
    issue #1784: a data race that can crash 4.16 under concurrent load). Registering all of
    them once, up front, removes both: types and names stay in the schema after their last
    edge or node is gone, so one throwaway pair of nodes is enough.
    """
    types = await g.read("CALL db.relationshipTypes() YIELD relationshipType "
                         "RETURN collect(relationshipType) AS types")
    keys = await g.read("CALL db.propertyKeys() YIELD propertyKey "
                        "RETURN collect(propertyKey) AS keys")
    if (set(EDGE_TYPES) <= set(types.scalar() or [])
            and set(PROPERTY_KEYS) <= set(keys.scalar() or [])):
        return
    # Types and names are constants (vocab.py, names.py), never user input.
    edges = ", ".join(f"(a)-[:{t}]->(b)" for t in EDGE_TYPES)
    await g.write(f"CREATE (a), (b) SET a = $props CREATE {edges} "
                  "WITH a, b DETACH DELETE a, b", {"props": dict.fromkeys(PROPERTY_KEYS, 0)})


async def register_schema_everywhere(store: Store) -> int:
    """At start-up, for workspaces made before types were registered; returns how many
    graphs were checked. (Plans a running FalkorDB already cached wrongly stay until it
    restarts.)"""
    rows = await store.graph(REGISTRY_GRAPH).read(
        "MATCH (e:WorkspaceEntry) RETURN e.id AS id ORDER BY e.id")
    n = 0
    for r in rows:
        try:
            g = workspace_graph(store, r["id"])
            await register_schema(g)
            # Made with an index per label: one shared index instead (store/node_index.py).
            # Its indexes may still be building after a load: waited for, however long.
            if await upgrade_node_index(store, g.name, functools.partial(
                    _wait_schema, store, g.name, timeout_s=_UPGRADE_WAIT_S)):
                await _wait_schema(store, g.name, timeout_s=_UPGRADE_WAIT_S)
        except (GraphMissing, ValueError):
            continue  # registered but its graph is gone: listing skips it as well
        n += 1
    return n


async def create_schema(store: Store, name: str) -> None:
    """The graph's one index (store/node_index.py), waited for until operational."""
    await register_schema(store.graph(name))
    await create_node_index(store, name)
    await _wait_schema(store, name)


async def _wait_schema(store: Store, name: str, timeout_s: float = _INDEX_WAIT_S) -> None:
    """Indexes and constraints build asynchronously; a graph is not ready until they run."""
    deadline = time.monotonic() + timeout_s
    while not await _schema_built(store, name):
        if time.monotonic() > deadline:
            raise StoreUnavailable(f"indexes of {name} did not become operational")
        await asyncio.sleep(0.02)


async def _schema_built(store: Store, name: str) -> bool:
    """Whether every index and constraint of a graph is operational (read-only)."""
    idx = await store.graph(name).read(
        "CALL db.indexes() YIELD status RETURN collect(status) AS s")
    cons = await admin.list_constraints(store, name)
    failed = [c for c in cons if c["status"] == "FAILED"]
    if failed:
        raise StoreUnavailable(f"constraint creation failed on {name}: {failed}")
    return (all(s == "OPERATIONAL" for s in (idx.scalar() or []))
            and all(c["status"] == "OPERATIONAL" for c in cons))


async def wait_schema_built_everywhere(store: Store, poll_s: float = 1.0) -> None:
    """Wait, however long it takes, until every graph's indexes and constraints are built.

    After a load that replayed their creation from the append-only file, FalkorDB builds
    them in the background over all the data, which can take minutes; read-only.
    """
    rows = await store.graph(REGISTRY_GRAPH).read(
        "MATCH (e:WorkspaceEntry) RETURN e.id AS id ORDER BY e.id")
    pending = [REGISTRY_GRAPH]
    for r in rows:
        with contextlib.suppress(ValueError):  # not a workspace id: listing skips it too
            pending.append(graph_name(r["id"]))
    while pending:
        try:
            built = await _schema_built(store, pending[0])
        except GraphMissing:
            built = True  # registered but its graph is gone: nothing to build
        if built:
            pending.pop(0)
        else:
            await asyncio.sleep(poll_s)


_FIELDS = ("w.id AS id, w.name AS name, w.revision AS revision, w.created_at AS created_at, "
           "coalesce(w.updates, 'review') AS updates, "
           "coalesce(w.forget_requests, 'review') AS forget_requests")


def _row(r: Row) -> WorkspaceRow:
    return {"id": r["id"], "name": r["name"], "revision": r["revision"],
            "created_at": r["created_at"], "updates": r["updates"],
            "forget_requests": r["forget_requests"]}


async def change_settings(store: Store, ws_id: str, updates: UpdatesPolicy | None,
                          forget_requests: ForgetRequests | None,
                          audit: AuditParams) -> WorkspaceRow:
    """How the workspace takes a newer statement by the same speaker (rule 11) and a
    speaker's request to forget (rule 22); a setting given as None is left as it is."""
    rows = await store.graph(graph_name(ws_id)).write(
        "MATCH (w:Node {id:$id}) WHERE w:Workspace AND w.ready = true "
        "SET w.updates = coalesce($updates, w.updates), "
        "w.forget_requests = coalesce($forget_requests, w.forget_requests), "
        "w.revision = w.revision + 1 WITH w "
        + CREATE_AUDIT + f" RETURN {_FIELDS}",
        {"id": ws_id, "updates": updates, "forget_requests": forget_requests, **audit})
    found = rows.first()
    if found is None:
        raise WorkspaceNotFound(ws_id)
    return _row(found)


async def create_workspace(store: Store, ws_id: str, name: str,
                           audit: AuditParams) -> WorkspaceRow:
    """A workspace under a new id: its graph, its schema and its registry entry; visible only
    once all of them exist."""
    gname = graph_name(ws_id)
    g = store.graph(gname)
    params = {"id": ws_id, "name": name, **audit}
    await g.write(
        "CREATE (w:Workspace:Node {id:$id, name:$name, revision:1, created_at:$now, "
        "ready:false}) "
        + CREATE_AUDIT,
        params,
    )
    try:
        await create_schema(store, gname)
        await store.graph(REGISTRY_GRAPH).write(
            "CREATE (:WorkspaceEntry {id:$id, name:$name, graph:$graph, created_at:$now})",
            {"id": ws_id, "name": name, "graph": gname, "now": params["now"]},
        )
        rows = await g.write(
            "MATCH (w:Node {id:$id}) WHERE w:Workspace SET w.ready = true "
            f"RETURN {_FIELDS}",
            {"id": ws_id},
        )
    except BaseException:
        # Leave nothing half-made behind: the graph is not listed and is dropped.
        await asyncio.shield(discard_graph(store, gname, ws_id))
        raise
    return _row(rows[0])


async def discard_graph(store: Store, gname: str, ws_id: str) -> None:
    """Unlist and drop a half-made workspace graph; quiet, as it runs while failing."""
    try:
        await store.graph(REGISTRY_GRAPH).write(
            "MATCH (e:WorkspaceEntry {id:$id}) DELETE e", {"id": ws_id})
        await store.delete_graph(gname)
    except Exception:  # pragma: no cover - the store is probably down; nothing is listed
        pass


async def get_workspace(store: Store, ws_id: str) -> WorkspaceRow:
    try:
        gname = graph_name(ws_id)
    except ValueError:
        raise WorkspaceNotFound(ws_id) from None
    try:
        rows = await store.graph(gname).read(
            "MATCH (w:Node {id:$id}) WHERE w:Workspace AND w.ready = true "
            f"RETURN {_FIELDS}",
            {"id": ws_id},
        )
    except GraphMissing:
        raise WorkspaceNotFound(ws_id) from None
    row = rows.first()
    if row is None:
        raise WorkspaceNotFound(ws_id)
    return _row(row)


# Put before a query on a workspace's graph ($ws: its id), it makes that query prove the
# workspace is ready (no rows if not), so a request need not spend a round trip reading the
# workspace first.
IN_READY_WORKSPACE = "MATCH (rw:Node {id: $ws, ready: true}) WHERE rw:Workspace\n"


async def check_ready(g: Graph, ws_id: str) -> None:
    """Raise WorkspaceNotFound unless the workspace whose graph ``g`` is exists and is ready:
    for a hot route that runs this read beside its own instead of before them."""
    try:
        rows = await g.read(IN_READY_WORKSPACE + "RETURN 1 AS ready", {"ws": ws_id})
    except GraphMissing:
        raise WorkspaceNotFound(ws_id) from None
    if not rows:
        raise WorkspaceNotFound(ws_id)


async def workspace_entries(store: Store, *, limit: int, offset: int,
                            ids: list[str] | None = None,
                            after: After | None = None) -> list[PageKey]:
    """The registry's entries oldest first (after ``after``: paging.py), ready or not."""
    rows = await store.graph(REGISTRY_GRAPH).read(
        "MATCH (e:WorkspaceEntry) WHERE ($ids IS NULL OR e.id IN $ids) "
        "AND ($at_after IS NULL OR e.created_at > $at_after "
        "OR (e.created_at = $at_after AND e.id > $id_after)) "
        "RETURN e.id AS id, e.created_at AS created_at "
        "ORDER BY e.created_at, e.id SKIP $offset LIMIT $limit",
        {"limit": limit, "offset": offset, "ids": ids, **after_params(after)},
    )
    return [{"id": r["id"], "created_at": r["created_at"]} for r in rows]


async def listed_ids(store: Store) -> list[str]:
    """Every workspace the registry lists (made or being made), oldest first."""
    rows = await store.graph(REGISTRY_GRAPH).read(
        "MATCH (e:WorkspaceEntry) RETURN e.id AS id ORDER BY e.created_at")
    return [str(r["id"]) for r in rows]


async def ready_workspaces(store: Store, ids: list[str]) -> list[WorkspaceRow]:
    """Of these workspaces, in this order, those that are ready: one still being created,
    or whose graph was lost, is left out."""

    async def ready(ws_id: str) -> WorkspaceRow | None:
        try:
            return await get_workspace(store, ws_id)
        except WorkspaceNotFound:
            return None

    # Each workspace is its own graph, so each is read on its own; at once, not in a row
    # (the store's pool bounds how many are in flight).
    found = await concurrently(*(ready(i) for i in ids))
    return [w for w in found if w is not None]


async def count_workspaces(store: Store, ids: list[str] | None = None) -> int:
    rows = await store.graph(REGISTRY_GRAPH).read(
        "MATCH (e:WorkspaceEntry) WHERE $ids IS NULL OR e.id IN $ids RETURN count(e) AS n",
        {"ids": ids})
    return int(rows.scalar() or 0)


async def delete_workspace(store: Store, ws_id: str) -> None:
    await get_workspace(store, ws_id)
    await drop_workspace(store, ws_id)


async def drop_workspace(store: Store, ws_id: str) -> None:
    """Unlist the workspace (its entry holds its name) and delete its graph; either may be
    gone already (a deletion finished after a crash)."""
    await store.graph(REGISTRY_GRAPH).write(
        "MATCH (e:WorkspaceEntry {id:$id}) DELETE e", {"id": ws_id})
    await store.delete_graph(graph_name(ws_id))


def workspace_graph(store: Store, ws_id: str) -> Graph:
    return store.graph(graph_name(ws_id))
