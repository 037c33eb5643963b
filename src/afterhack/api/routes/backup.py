"""Export a workspace (as data or as W3C PROV-JSON), delete it, restore it (admin only)."""

from __future__ import annotations

from typing import Literal

from fastapi import APIRouter, Response

from afterhack.api.deps import WorkspaceDep, WorkspacesDep
from afterhack.api.security import allow
from afterhack.model.workspaces import ExportDocument, WorkspaceRow
from afterhack.wire.answers import ProvExport
from afterhack.wire.inputs import WorkspaceRestore

router = APIRouter(tags=["backup"])


@router.get("/workspaces/{ws}/export", dependencies=[allow("manage")])
async def export_workspace(ws: WorkspaceDep, format: Literal["json", "prov"] = "json"
                           ) -> ExportDocument | ProvExport:
    """``json``: every node and edge (``afterhack-export/1``, what restore takes).
    ``prov``: the provenance chain as a W3C PROV-JSON document."""
    return await ws.export(format)


@router.delete("/workspaces/{ws}", status_code=204, response_class=Response,
               dependencies=[allow("manage")])
async def delete_workspace(ws: WorkspaceDep) -> Response:
    """Deletes the graph and its registry entry, and revokes the workspace's keys."""
    await ws.delete()
    return Response(status_code=204)


@router.post("/workspaces/restore", status_code=201, dependencies=[allow("manage")])
async def restore_workspace(body: WorkspaceRestore, workspaces: WorkspacesDep) -> WorkspaceRow:
    """Recreates an exported workspace under its own id (409 ``workspace_exists`` if it is
    there), with its indexes, constraints and registry entry; its claims are embedded again
    in the background (an export carries no vectors)."""
    return await workspaces.restore(
        body.workspace.id,
        [{"labels": n.labels, "properties": n.properties} for n in body.nodes],
        [{"type": e.type, "source": e.source, "target": e.target, "properties": e.properties}
         for e in body.edges])
