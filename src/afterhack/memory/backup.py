"""Export a workspace as data, delete it, and restore it from an export.

The export is every node and edge of the workspace graph read in one query (one consistent
moment); restoring it into an empty server gives back the same graph, node for node and
edge for edge, under the same workspace id. Keys are not part of an export: they live in the
registry, are revoked when their workspace is deleted, and a restored workspace gets new ones.
"""

from __future__ import annotations

from collections.abc import Mapping

from afterhack.errors import InvalidRequest, WorkspaceNotFound
from afterhack.memory.scope import Scope
from afterhack.model.ids import is_uuid
from afterhack.model.vocab import EDGE_ENDS, EDGE_TYPES, NODE_LABELS
from afterhack.model.workspaces import (
    EXPORT_FORMAT,
    ExportDocument,
    ExportEdge,
    ExportNode,
    Properties,
    WorkspaceDeletion,
    WorkspaceRow,
)
from afterhack.records.clock import now_ms
from afterhack.store import deletions as store_deletions
from afterhack.store import keys as store_keys
from afterhack.store import restore as store_restore
from afterhack.store import workspaces as store_workspaces
from afterhack.store.client import Store
from afterhack.store.export import snapshot_graph
from afterhack.store.properties import (
    EDGE_PROPERTIES,
    NODE_PROPERTIES,
    REQUIRED,
    VALUES,
    PropType,
    type_ok,
)

FORMAT = EXPORT_FORMAT


async def export_workspace(ws: Scope) -> ExportDocument:
    row = ws.row or await store_workspaces.get_workspace(ws.store, ws.id)
    snap = await snapshot_graph(ws.graph)
    return {"format": "afterhack-export/1", "workspace": row, **snap}


async def delete_workspace(ws: Scope) -> WorkspaceDeletion:
    """Delete the workspace's graph and registry entry, and revoke its keys; the answer is
    the deletion's record, ``disk: pending`` until FalkorDB's files are rewritten (the
    caller asks the disk for that: memory/workspace.py)."""
    if ws.row is None:
        await store_workspaces.get_workspace(ws.store, ws.id)
    # Written down first: a deletion a crash cuts short is finished at the next start.
    await store_deletions.begin(ws.store, ws.id, now_ms())
    return await _finish_deletion(ws.store, ws.id)


async def _finish_deletion(store: Store, ws_id: str) -> WorkspaceDeletion:
    # Keys first: from here on nothing can use them, whatever happens to the rest.
    await store_keys.revoke_workspace_keys(store, ws_id, now_ms())
    await store_workspaces.drop_workspace(store, ws_id)
    return await store_deletions.finish(store, ws_id, now_ms())


async def finish_deletions(store: Store) -> int:
    """At start-up: finish the deletions a stop cut short (read-only when there are none);
    returns how many."""
    ids = await store_deletions.unfinished(store)
    for ws_id in ids:
        await _finish_deletion(store, ws_id)
    return len(ids)


async def deletion(store: Store, ws_id: str) -> WorkspaceDeletion:
    """The record of a deleted workspace; WorkspaceNotFound if it was never deleted, the
    answer another workspace's key gets for it too."""
    found = await store_deletions.get(store, ws_id) if is_uuid(ws_id) else None
    if found is None:
        raise WorkspaceNotFound(ws_id)
    return found


def _check_properties(where: str, label: str, props: Properties,
                      known: Mapping[str, PropType]) -> None:
    for name, value in props.items():
        kind = known.get(name)
        if kind is None:
            raise InvalidRequest(f"{where} ({label}) has an unknown property {name[:64]!r}.")
        if not type_ok(kind, value):
            raise InvalidRequest(f"{where} ({label}).{name} must be of type {kind}.")
        allowed = VALUES.get((label, name))
        values = value if isinstance(value, list) else [value]
        if allowed is not None and any(v not in allowed for v in values):
            raise InvalidRequest(f"{where} ({label}).{name} must be one of {list(allowed)}.")
    for name in REQUIRED.get(label, ()):
        if name not in props:
            raise InvalidRequest(f"{where} ({label}) lacks {name!r}.")


def check_export(ws_id: str, nodes: list[ExportNode], edges: list[ExportEdge]) -> None:
    """Raise InvalidRequest, naming the first problem, unless the document is a whole,
    well-formed workspace graph: known labels and edge types, every property of the type the
    app writes and every status from its vocabulary, unique UUID ids, edges between exported
    nodes of the labels they join."""
    if not is_uuid(ws_id):
        raise InvalidRequest("workspace.id must be a workspace id (a lowercase UUID).")
    label_of: dict[str, str] = {}
    workspaces = []
    for i, n in enumerate(nodes):
        label = n["labels"][0]
        if label not in NODE_LABELS:
            raise InvalidRequest(f"nodes[{i}] has an unknown label.", label=label[:64])
        node_id = n["properties"].get("id")
        if not isinstance(node_id, str) or not is_uuid(node_id):
            raise InvalidRequest(f"nodes[{i}] has no id (a lowercase UUID).")
        if node_id in label_of:
            raise InvalidRequest(f"nodes[{i}] repeats an id.", id=node_id)
        _check_properties(f"nodes[{i}]", label, n["properties"], NODE_PROPERTIES[label])
        label_of[node_id] = label
        if label == "Workspace":
            workspaces.append(node_id)
    if workspaces != [ws_id]:
        raise InvalidRequest("An export has exactly one Workspace node, with workspace.id.")
    for i, e in enumerate(edges):
        if e["type"] not in EDGE_TYPES:
            raise InvalidRequest(f"edges[{i}] has an unknown type.", type=e["type"][:64])
        if e["source"] not in label_of or e["target"] not in label_of:
            raise InvalidRequest(f"edges[{i}] joins a node that is not in the export.")
        ends = EDGE_ENDS.get(e["type"])
        if ends is not None and ends != (label_of[e["source"]], label_of[e["target"]]):
            raise InvalidRequest(f"edges[{i}] ({e['type']}) must join a {ends[0]} to a "
                                 f"{ends[1]}.")
        _check_properties(f"edges[{i}]", e["type"], e["properties"],
                          EDGE_PROPERTIES.get(e["type"], {}))


async def restore_workspace(store: Store, ws_id: str, nodes: list[ExportNode],
                            edges: list[ExportEdge]) -> WorkspaceRow:
    check_export(ws_id, nodes, edges)
    await store_restore.restore_graph(store, ws_id, nodes, edges)
    return await store_workspaces.get_workspace(store, ws_id)
