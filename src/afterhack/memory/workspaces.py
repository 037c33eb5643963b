"""Every workspace of this server: make one, list them, restore one from an export, and
open one for a caller (a WorkspaceMemory: workspace.py).

Built once when the service starts (runtime/services.py); the transports reach a workspace
only through ``open`` (or ``at``), never through the store.
"""

from __future__ import annotations

from afterhack.access import Caller
from afterhack.errors import WorkspaceNotFound
from afterhack.memory import backup, lists
from afterhack.memory.scope import Parts
from afterhack.memory.workspace import WorkspaceMemory
from afterhack.model.pages import WorkspaceList
from afterhack.model.workspaces import ExportEdge, ExportNode, WorkspaceDeletion, WorkspaceRow
from afterhack.records.audit import audit_params
from afterhack.records.ids import new_id
from afterhack.store import workspaces as store_workspaces
from afterhack.store.client import Store


async def create_workspace(store: Store, name: str, actor: str) -> WorkspaceRow:
    """A new workspace under a new id, made by ``actor``."""
    ws_id = new_id()
    return await store_workspaces.create_workspace(
        store, ws_id, name, audit_params("workspace.created", actor, ws_id, {"name": name}))


class Workspaces:
    def __init__(self, parts: Parts) -> None:
        self.parts = parts

    async def open(self, ws_id: str, caller: Caller) -> WorkspaceMemory:
        """The workspace for this caller, read first: 404 ``workspace_not_found`` when it is
        not there (or not ready yet)."""
        row = await store_workspaces.get_workspace(self.parts.store, ws_id)
        return WorkspaceMemory(self.parts, row["id"],
                               store_workspaces.workspace_graph(self.parts.store, row["id"]),
                               caller, row)

    def at(self, ws_id: str, caller: Caller) -> WorkspaceMemory:
        """The workspace without reading it first: for a hot read whose own query proves the
        workspace is there (a round trip fewer). Anything but a workspace id is 404."""
        try:
            graph = store_workspaces.workspace_graph(self.parts.store, ws_id)
        except ValueError:  # not a workspace id: nothing to read
            raise WorkspaceNotFound(ws_id) from None
        return WorkspaceMemory(self.parts, ws_id, graph, caller)

    async def create(self, name: str, caller: Caller) -> WorkspaceRow:
        return await create_workspace(self.parts.store, name, caller.actor)

    async def page(self, caller: Caller, limit: int, offset: int = 0,
                   cursor: str | None = None) -> WorkspaceList:
        """A page of the workspaces the caller sees: a workspace key sees its own alone."""
        ids = None if caller.workspace_id is None else [caller.workspace_id]
        return await lists.workspace_page(self.parts.store, limit=limit, offset=offset,
                                          cursor=cursor, ids=ids)

    async def deletion(self, ws_id: str) -> WorkspaceDeletion:
        """What is kept of a deleted workspace (404 ``workspace_not_found`` if it never
        was): its id, its times, and whether FalkorDB's files are clean of it yet."""
        return await backup.deletion(self.parts.store, ws_id)

    async def restore(self, ws_id: str, nodes: list[ExportNode],
                      edges: list[ExportEdge]) -> WorkspaceRow:
        """An exported workspace made again under its own id (409 ``workspace_exists`` if
        it is there); its claims are embedded again in the background (an export carries
        no vectors)."""
        store = self.parts.store
        restored = await backup.restore_workspace(store, ws_id, nodes, edges)
        self.parts.vectors.notify(store_workspaces.workspace_graph(store, ws_id))
        return restored
