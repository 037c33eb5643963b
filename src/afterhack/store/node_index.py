"""The one index of a workspace graph, on the label every node carries (names.NODE), and the
upgrade of graphs made before it, which had an index per label, or a full-text field.

An empty workspace costs FalkorDB its bare graph plus one label index (unique ``id`` and the
range fields of names.NODE_RANGE_INDEXED), not a label index for each of eleven labels
plus a full-text one. Claims are found by their terms (search.py), conflict checks included
(neighbours.py); a full-text index of their statements would be kept up to date by every
write for no reader, and was measured as the largest single part of an ingest's write
(docs/decisions/0014-no-full-text-index.md).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

from afterhack.store import admin
from afterhack.store.client import QueryFailed, Store
from afterhack.store.names import NODE, NODE_RANGE_INDEXED

log = logging.getLogger(__name__)


async def create_node_index(store: Store, name: str) -> None:
    """The unique ``id`` and range fields on NODE, each created only if missing.

    Asked first, so a start-up that finds it all there only reads: a repeated creation fails
    on the server, and FalkorDB replays such failures from its append-only file at every
    load (store/workspaces.ensure_registry)."""
    g = store.graph(name)
    if not await _has_unique_id(store, name):
        await admin.create_unique_constraint(store, name, NODE, "id")
    kinds = await _node_kinds(store, name)
    # Names are constants of names.py, never user input.
    missing = [p for p in NODE_RANGE_INDEXED if "RANGE" not in kinds.get(p, [])]
    if missing:
        fields = ", ".join(f"n.{p}" for p in missing)
        await _tolerate_existing(g.write(f"CREATE INDEX FOR (n:{NODE}) ON ({fields})"))


async def _has_unique_id(store: Store, name: str) -> bool:
    return any(c["label"] == NODE and c["type"] == "UNIQUE" and c["entitytype"] == "NODE"
               and c["properties"] == ["id"] for c in await admin.list_constraints(store, name))


async def _node_kinds(store: Store, name: str) -> dict[str, list[str]]:
    """The kinds of index (RANGE, FULLTEXT, VECTOR) each field of NODE's index has."""
    rows = await store.graph(name).read("CALL db.indexes() YIELD label, properties, types "
                                        "RETURN label AS label, properties AS props, "
                                        "types AS types")
    for r in rows:
        if r["label"] == NODE:
            return {p: list(k) for p, k in (r["types"] or {}).items()}
    return {}


def _has_fulltext(kinds: dict[str, list[str]]) -> bool:
    return any("FULLTEXT" in k for k in kinds.values())


async def _node_index_complete(store: Store, name: str) -> bool:
    kinds = await _node_kinds(store, name)
    return (all("RANGE" in kinds.get(p, []) for p in NODE_RANGE_INDEXED)
            and not _has_fulltext(kinds) and await _has_unique_id(store, name))


async def _tolerate_existing(write: Awaitable[Any]) -> None:
    try:
        await write
    except QueryFailed as exc:
        if "already indexed" not in str(exc):
            raise


async def _old_layout(store: Store, name: str) -> tuple[list[Any], list[Any], int]:
    """The graph's constraints and indexes on labels other than NODE, and how many nodes
    lack NODE."""
    g = store.graph(name)
    constraints = [c for c in await admin.list_constraints(store, name) if c["label"] != NODE]
    rows = await g.read("CALL db.indexes() YIELD label, properties, types "
                        "RETURN label AS label, properties AS props, types AS types")
    # Range and full-text fields on other labels are the old layout; a vector index (on
    # Claim, made with the first vectors: store/vectors.py) is not.
    indexes = [r for r in rows if r["label"] != NODE and any(
        kind in ("RANGE", "FULLTEXT") for kinds in (r["types"] or {}).values() for kind in kinds)]
    unlabelled = (await g.read(f"MATCH (n) WHERE NOT n:{NODE} RETURN count(n) AS n")).scalar()
    return constraints, indexes, int(unlabelled or 0)


async def upgrade(store: Store, name: str, built: Callable[[], Awaitable[None]]) -> bool:
    """Give a graph made with an index per label the shared label and its index, then drop
    the old indexes (their memory is the point); give a graph whose shared index lacks a
    field added since that field, and drop the full-text field it no longer has; True if it
    needed any of it. Idempotent: a crash half-way is finished by the next start. Read-only
    when there is nothing to do.

    ``built`` waits until every index and constraint of the graph is operational: an index
    is dropped only once built (FalkorDB 4.16 loses a drop sent while the index still
    builds, or refuses it as "no such index", as after a load that replayed its creation),
    and the old ones go only once the new one serves."""
    constraints, indexes, unlabelled = await _old_layout(store, name)
    if not constraints and not indexes and not unlabelled:
        if await _node_index_complete(store, name):
            return False
        # Made with the shared index before a field joined it (names.NODE_RANGE_INDEXED), or
        # while it had a full-text field.
        log.info("bringing the shared index of %s up to date", name)
        await create_node_index(store, name)
        await built()
        if _has_fulltext(await _node_kinds(store, name)):
            await _tolerate_missing(store.graph(name).write(
                f"CALL db.idx.fulltext.drop('{NODE}')"))
        return True
    log.info("giving workspace graph %s one shared index", name)
    g = store.graph(name)
    await built()
    await g.write(f"MATCH (n) WHERE NOT n:{NODE} SET n:{NODE}")
    await create_node_index(store, name)
    await built()
    constraints, indexes, _ = await _old_layout(store, name)
    for c in constraints:
        await _tolerate_missing(store.command(
            name, "GRAPH.CONSTRAINT", "DROP", name, c["type"], c["entitytype"], c["label"],
            "PROPERTIES", len(c["properties"]), *c["properties"]))
    for r in indexes:
        # Labels and properties read back from the graph's own index list.
        kinds_of = r["types"] or {}
        if any("FULLTEXT" in kinds_of.get(p, []) for p in r["props"]):
            await _tolerate_missing(g.write(f"CALL db.idx.fulltext.drop('{r['label']}')"))
        for prop in r["props"]:
            if "RANGE" in kinds_of.get(prop, []):
                await _tolerate_missing(
                    g.write(f"DROP INDEX FOR (n:{r['label']}) ON (n.{prop})"))
    return True


async def _tolerate_missing(write: Awaitable[Any]) -> None:
    # Dropping a unique constraint can take its index with it.
    try:
        await write
    except QueryFailed as exc:
        if "no such" not in str(exc).lower() and "not found" not in str(exc).lower():
            raise
