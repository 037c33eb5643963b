"""Export a workspace (as data or as W3C PROV-JSON), delete it, restore it (admin only)."""

from __future__ import annotations

from typing import Literal

from fastapi import APIRouter

from afterhack.api.deps import SettingsDep, WorkspaceDep, WorkspacesDep
from afterhack.api.security import allow
from afterhack.model.workspaces import ExportDocument, WorkspaceDeletion, WorkspaceRow
from afterhack.wire.answers import ProvExport
from afterhack.wire.inputs import WorkspaceRestore

router = APIRouter(tags=["backup"])


@router.get("/workspaces/{ws}/export", dependencies=[allow("manage")])
async def export_workspace(ws: WorkspaceDep, format: Literal["json", "prov"] = "json"
                           ) -> ExportDocument | ProvExport:
    """``json``: every node and edge (``afterhack-export/1``, what restore takes).
    ``prov``: the provenance chain as a W3C PROV-JSON document."""
    return await ws.export(format)


@router.delete("/workspaces/{ws}", dependencies=[allow("manage")])
async def delete_workspace(ws: WorkspaceDep, settings: SettingsDep,
                           wait: Literal["disk"] | None = None) -> WorkspaceDeletion:
    """Deletes the graph and its registry entry (its name with it), and revokes the
    workspace's keys; FalkorDB's files on every node are then rewritten so they no longer
    hold it. The answer is the deletion's record: ``disk`` is ``pending`` until they are,
    then ``clean`` (``GET /workspaces/{ws}/deletion`` tells later). ``wait=disk``: answer
    only once they are, or after ``AFTERHACK_DISK_WAIT_S`` with ``pending``."""
    return await ws.delete(wait_s=settings.disk_wait_s if wait == "disk" else None)


# A read: the workspace's own keys are revoked with it, so in practice the admin reads it.
@router.get("/workspaces/{ws}/deletion", dependencies=[allow("read")])
async def get_deletion(ws: str, workspaces: WorkspacesDep) -> WorkspaceDeletion:
    """What is kept of a deleted workspace: its id, when it was deleted, and whether
    FalkorDB's files are clean of it yet (404 ``workspace_not_found`` if it never was)."""
    return await workspaces.deletion(ws)


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
