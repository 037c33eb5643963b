"""Which erasures and workspace deletions still wait for FalkorDB's files to be rewritten,
and marking them clean once a rewrite has finished on every node.

What is marked clean is exactly what was read as pending before the rewrite began: each of
these reads was answered by the master that holds the graph before that master forked its
rewrite, so the rewrite's snapshot was taken after every one of those writes. An erasure
applied while a rewrite runs is not in its list; it waits for the next one. (A time cut,
``applied_at`` before the rewrite's start, would not do: a write stamped before the start
can reach the server after the fork.)
"""

from __future__ import annotations

from dataclasses import dataclass, field

from afterhack.store.client import GraphMissing, Store
from afterhack.store.names import REGISTRY_GRAPH, graph_name


@dataclass(frozen=True)
class PendingDisk:
    """Erasure ids by workspace graph, and deleted workspaces' ids."""

    erasures: dict[str, list[str]] = field(default_factory=dict)
    deletions: list[str] = field(default_factory=list)

    def __bool__(self) -> bool:
        return bool(self.deletions) or any(self.erasures.values())

    @property
    def count(self) -> int:
        return len(self.deletions) + sum(len(ids) for ids in self.erasures.values())


_PENDING_ERASURES = "MATCH (e:Erasure) WHERE e.disk = 'pending' RETURN e.id AS id"
# Only a deletion that is done: one under way may still have its graph (see deletions.py).
_PENDING_DELETIONS = ("MATCH (d:WorkspaceDeletion) WHERE d.disk = 'pending' "
                      "AND d.deleted_at IS NOT NULL RETURN d.id AS id")


async def _workspace_graphs(store: Store) -> list[str]:
    rows = await store.run(REGISTRY_GRAPH, "MATCH (e:WorkspaceEntry) RETURN e.id AS id "
                           "ORDER BY e.id", read_only=True, primary=True)
    out = []
    for r in rows:
        try:
            out.append(graph_name(r["id"]))
        except ValueError:
            continue  # not a workspace id: listing skips it too
    return out


async def pending(store: Store) -> PendingDisk:
    """Everything written as pending so far, each read from the master of its graph."""
    found = PendingDisk()
    for name in await _workspace_graphs(store):
        try:
            rows = await store.run(name, _PENDING_ERASURES, read_only=True, primary=True)
        except GraphMissing:
            continue
        if rows:
            found.erasures[name] = [str(r["id"]) for r in rows]
    rows = await store.run(REGISTRY_GRAPH, _PENDING_DELETIONS, read_only=True, primary=True)
    found.deletions.extend(str(r["id"]) for r in rows)
    return found


async def mark_clean(store: Store, done: PendingDisk, now: int) -> int:
    """Mark these erasures and deletions clean (``disk = 'clean'``, ``disk_clean_at``);
    returns how many were still pending. One still pending is marked once."""
    marked = 0
    for name, ids in done.erasures.items():
        # A write to a missing graph would create it: a workspace deleted since the read
        # is left alone (its deletion has a record of its own).
        if not await store.command(name, "EXISTS", name, read=True):
            continue
        try:
            rows = await store.graph(name).write(
                "UNWIND $ids AS id MATCH (e:Node {id: id}) "
                "WHERE e:Erasure AND e.disk = 'pending' "
                "SET e.disk = 'clean', e.disk_clean_at = $now RETURN count(e) AS n",
                {"ids": ids, "now": now})
        except GraphMissing:
            continue
        marked += int(rows.scalar() or 0)
    if done.deletions:
        rows = await store.graph(REGISTRY_GRAPH).write(
            "UNWIND $ids AS id MATCH (d:WorkspaceDeletion {id: id}) WHERE d.disk = 'pending' "
            "SET d.disk = 'clean', d.disk_clean_at = $now RETURN count(d) AS n",
            {"ids": done.deletions, "now": now})
        marked += int(rows.scalar() or 0)
    return marked
