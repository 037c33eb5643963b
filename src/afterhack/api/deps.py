"""FastAPI dependencies: settings, the services, the caller, and the workspace's memory for
this request (memory/workspace.py): the routes are adapters, and reach the memory only
through it.

Every dependency is ``async def``: FastAPI runs a plain ``def`` dependency in a worker
thread, and a thread hop per dependency per request cost more than what they do.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Query, Request

from afterhack.access import LOCAL_USER, Caller
from afterhack.config import Settings
from afterhack.memory.workspace import WorkspaceMemory
from afterhack.memory.workspaces import Workspaces
from afterhack.runtime.services import Services


async def get_settings(request: Request) -> Settings:
    settings: Settings = request.app.state.settings
    return settings


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
ServicesDep = Annotated[Services, Depends(get_services)]


async def get_caller(request: Request) -> Caller:
    """Whoever the key check (api/security.py) found; the local user when keys are off."""
    caller: Caller | None = getattr(request.state, "caller", None)
    return caller or LOCAL_USER


CallerDep = Annotated[Caller, Depends(get_caller)]


async def get_workspaces(request: Request) -> Workspaces:
    workspaces: Workspaces = request.app.state.services.workspaces
    return workspaces


WorkspacesDep = Annotated[Workspaces, Depends(get_workspaces)]


async def get_workspace(ws: str, request: Request) -> WorkspaceMemory:
    """The workspace named in the path, read first (404 when it is not there), for the
    caller of this request."""
    workspaces: Workspaces = request.app.state.services.workspaces
    return await workspaces.open(ws, await get_caller(request))


WorkspaceDep = Annotated[WorkspaceMemory, Depends(get_workspace)]


async def get_workspace_ref(ws: str, request: Request) -> WorkspaceMemory:
    """The workspace named in the path, not read first: for a hot route whose one read
    proves the workspace is ready itself (a round trip fewer than WorkspaceDep)."""
    workspaces: Workspaces = request.app.state.services.workspaces
    return workspaces.at(ws, await get_caller(request))


WorkspaceRefDep = Annotated[WorkspaceMemory, Depends(get_workspace_ref)]
