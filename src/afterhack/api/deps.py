"""FastAPI dependencies: settings, the store, the services, the resolved workspace, the caller.

Every dependency is ``async def``: FastAPI runs a plain ``def`` dependency in a worker
thread, and a thread hop per dependency per request cost more than what they do.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

from fastapi import Depends, Query, Request

from afterhack.access import LOCAL_USER, Caller
from afterhack.config import Settings
from afterhack.errors import WorkspaceNotFound
from afterhack.model.workspaces import WorkspaceRow
from afterhack.runtime.services import Services
from afterhack.store import workspaces
from afterhack.store.client import Graph, Store


async def get_settings(request: Request) -> Settings:
    settings: Settings = request.app.state.settings
    return settings


async def get_store(request: Request) -> Store:
    store: Store = request.app.state.store
    return store


async def get_services(request: Request) -> Services:
    services: Services = request.app.state.services
    return services


# Every read takes ``?as_of=``: the read as the memory held it then (docs/rules.md,
# rule 10). A plain
# query parameter, parsed by the route (moments.parse_as_of): no dependency for reads without.
AsOf = Annotated[str | None, Query(
    max_length=64, description="An ISO 8601 time or epoch milliseconds: the read as the "
    "memory held it then.")]

# A list's next page: the ``next_cursor`` its previous page answered (paging.py).
Cursor = Annotated[str | None, Query(
    max_length=512, description="The next_cursor of the previous page; leave out for the "
    "first. Not with offset.")]

SettingsDep = Annotated[Settings, Depends(get_settings)]
StoreDep = Annotated[Store, Depends(get_store)]
ServicesDep = Annotated[Services, Depends(get_services)]


async def get_caller(request: Request) -> Caller:
    """Whoever the key check (api/security.py) found; the local user when keys are off."""
    caller: Caller | None = getattr(request.state, "caller", None)
    return caller or LOCAL_USER


CallerDep = Annotated[Caller, Depends(get_caller)]


@dataclass(frozen=True)
class Workspace:
    id: str
    graph: Graph
    row: WorkspaceRow


async def get_workspace(ws: str, store: StoreDep) -> Workspace:
    row = await workspaces.get_workspace(store, ws)
    return Workspace(id=row["id"], graph=workspaces.workspace_graph(store, row["id"]), row=row)


WorkspaceDep = Annotated[Workspace, Depends(get_workspace)]


@dataclass(frozen=True)
class WorkspaceRef:
    """A workspace's graph, not yet checked, and the app's services: for a hot route whose
    one read proves the workspace is ready itself (a round trip fewer than WorkspaceDep).
    One dependency instead of three: FastAPI solves each one per request."""

    id: str
    graph: Graph
    services: Services


async def get_workspace_ref(ws: str, request: Request) -> WorkspaceRef:
    state = request.app.state
    try:
        return WorkspaceRef(id=ws, graph=workspaces.workspace_graph(state.store, ws),
                            services=state.services)
    except ValueError:  # not a workspace id: nothing to read
        raise WorkspaceNotFound(ws) from None


WorkspaceRefDep = Annotated[WorkspaceRef, Depends(get_workspace_ref)]
