"""Export a workspace (as data or as W3C PROV-JSON), delete it, restore it (admin only)."""

from __future__ import annotations

from typing import Literal

from fastapi import APIRouter, Response

from afterhack.api.deps import ServicesDep, StoreDep
from afterhack.api.security import allow
from afterhack.memory import backup, prov
from afterhack.model.workspaces import ExportDocument, WorkspaceRow
from afterhack.store.workspaces import workspace_graph
from afterhack.wire.answers import ProvExport
from afterhack.wire.inputs import WorkspaceRestore

router = APIRouter(tags=["backup"])


@router.get("/workspaces/{ws}/export", dependencies=[allow("manage")])
async def export_workspace(ws: str, store: StoreDep,
                           format: Literal["json", "prov"] = "json"
                           ) -> ExportDocument | ProvExport:
    """``json``: every node and edge (``afterhack-export/1``, what restore takes).
    ``prov``: the provenance chain as a W3C PROV-JSON document."""
    doc = await backup.export_workspace(store, ws)
    if format == "prov":
        return prov.to_prov(doc["workspace"], doc["nodes"], doc["edges"])
    return doc


@router.delete("/workspaces/{ws}", status_code=204, response_class=Response,
               dependencies=[allow("manage")])
async def delete_workspace(ws: str, store: StoreDep) -> Response:
    """Deletes the graph and its registry entry, and revokes the workspace's keys."""
    await backup.delete_workspace(store, ws)
    return Response(status_code=204)


@router.post("/workspaces/restore", status_code=201, dependencies=[allow("manage")])
async def restore_workspace(body: WorkspaceRestore, store: StoreDep,
                            services: ServicesDep) -> WorkspaceRow:
    """Recreates an exported workspace under its own id (409 ``workspace_exists`` if it is
    there), with its indexes, constraints and registry entry; its claims are embedded again
    in the background (an export carries no vectors)."""
    restored = await backup.restore_workspace(
        store, body.workspace.id,
        [{"labels": n.labels, "properties": n.properties} for n in body.nodes],
        [{"type": e.type, "source": e.source, "target": e.target, "properties": e.properties}
         for e in body.edges])
    services.vectors.notify(workspace_graph(store, body.workspace.id))
    return restored
