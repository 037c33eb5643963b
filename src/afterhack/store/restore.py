"""Recreate a workspace graph from an export: schema first, then nodes and edges in batches.

The caller has validated the document (labels and edge types from the fixed sets below,
unique ids, edges between exported nodes). Labels and types are interpolated into the
Cypher text only after that check; every value travels as a parameter. The workspace stays
invisible (``ready = false``, no registry entry) until everything is written, and a failure
drops the half-made graph, so a restore is all there or not there at all.
"""

from __future__ import annotations

import asyncio
from collections import defaultdict
from collections.abc import Sequence
from typing import TypedDict, TypeVar

from afterhack.errors import Conflict, InvalidRequest
from afterhack.model.vocab import EDGE_TYPES, NODE_LABELS
from afterhack.model.workspaces import ExportEdge, ExportNode, Properties
from afterhack.store.client import GraphMissing, Store
from afterhack.store.invariants import check_workspace
from afterhack.store.names import REGISTRY_GRAPH, graph_name
from afterhack.store.workspaces import create_schema, discard_graph

BATCH = 2000
T = TypeVar("T")


class _EdgeRow(TypedDict):
    s: str
    t: str
    p: Properties


class WorkspaceExists(Conflict):
    """Raised when a restore names a workspace id that already exists."""

    code = "workspace_exists"

    def default_message(self) -> str:
        return "A workspace with this id already exists; delete it first."


async def workspace_exists(store: Store, ws_id: str) -> bool:
    rows = await store.graph(REGISTRY_GRAPH).read(
        "MATCH (e:WorkspaceEntry {id:$id}) RETURN count(e) AS n", {"id": ws_id})
    if rows.scalar():
        return True
    try:
        rows = await store.graph(graph_name(ws_id)).read(
            "MATCH (w:Workspace) RETURN count(w) AS n")
    except GraphMissing:
        return False
    return bool(rows.scalar())


def _batches(rows: Sequence[T]) -> list[list[T]]:
    return [list(rows[i : i + BATCH]) for i in range(0, len(rows), BATCH)]


async def restore_graph(store: Store, ws_id: str, nodes: list[ExportNode],
                        edges: list[ExportEdge]) -> None:
    """Write the workspace graph ``ws_id``; raises WorkspaceExists if it is there already."""
    if await workspace_exists(store, ws_id):
        raise WorkspaceExists(id=ws_id)
    gname = graph_name(ws_id)
    g = store.graph(gname)
    [ws_node] = [n for n in nodes if n["labels"] == ["Workspace"]]
    # Of restores racing for one id, only one claims it in the registry (a graph that always
    # exists, so the claim cannot race a graph being created); the others stop here.
    claimed = await store.graph(REGISTRY_GRAPH).write(
        "OPTIONAL MATCH (x:WorkspaceEntry {id:$id}) WITH count(x) AS n WHERE n = 0 "
        "CREATE (:WorkspaceEntry {id:$id, name:$name, graph:$graph, created_at:$now}) "
        "RETURN 1 AS ok",
        {"id": ws_id, "name": ws_node["properties"].get("name", ""), "graph": gname,
         "now": ws_node["properties"].get("created_at", 0)})
    if not claimed:
        raise WorkspaceExists(id=ws_id)
    rows = await g.write(
        "OPTIONAL MATCH (x:Workspace) WITH count(x) AS n WHERE n = 0 "
        "CREATE (w:Workspace) SET w = $props, w.ready = false RETURN w.id AS id",
        {"props": ws_node["properties"]})
    if not rows:
        # A graph of that name is already there (made outside this app): leave it alone.
        await store.graph(REGISTRY_GRAPH).write(
            "MATCH (e:WorkspaceEntry {id:$id}) DELETE e", {"id": ws_id})
        raise WorkspaceExists(id=ws_id)
    try:
        await create_schema(store, gname)
        by_label: dict[str, list[Properties]] = defaultdict(list)
        label_of: dict[str, str] = {}
        for n in nodes:
            label = n["labels"][0]
            label_of[str(n["properties"]["id"])] = label
            if n is not ws_node:
                by_label[label].append(n["properties"])
        for label, props in sorted(by_label.items()):
            assert label in NODE_LABELS
            for batch in _batches(props):
                await g.write(f"UNWIND $rows AS r CREATE (n:{label}) SET n = r", {"rows": batch})
        groups: dict[tuple[str, str, str], list[_EdgeRow]] = defaultdict(list)
        for e in edges:
            key = (e["type"], label_of[e["source"]], label_of[e["target"]])
            groups[key].append({"s": e["source"], "t": e["target"], "p": e["properties"]})
        for (etype, src, dst), rows_ in sorted(groups.items()):
            assert etype in EDGE_TYPES and src in NODE_LABELS and dst in NODE_LABELS
            for edge_batch in _batches(rows_):
                await g.write(
                    f"UNWIND $rows AS r MATCH (a:{src} {{id: r.s}}) MATCH (b:{dst} {{id: r.t}}) "
                    f"CREATE (a)-[e:{etype}]->(b) SET e = r.p", {"rows": edge_batch})
        # Checked whole before anyone can see it: an export that breaks a rule the app keeps
        # (a decision in good standing without a current claim, a quote not at its offsets)
        # is refused rather than restored into a workspace the app would misread.
        problems = await check_workspace(g)
        if problems:
            raise InvalidRequest(f"The export breaks an invariant: {problems[0]}",
                                 problems=problems[:20])
        # Whatever the export said, a restored workspace is whole, so it is ready.
        await g.write("MATCH (w:Workspace {id:$id}) SET w.ready = true", {"id": ws_id})
    except BaseException:
        await asyncio.shield(discard_graph(store, gname, ws_id))
        raise
