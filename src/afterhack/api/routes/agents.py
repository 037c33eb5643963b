from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query

from afterhack.api.deps import Cursor, WorkspaceDep
from afterhack.api.security import allow
from afterhack.model.pages import RunList
from afterhack.model.runs import RunView
from afterhack.temporal.moments import parse_time
from afterhack.wire.inputs import AgentRunCreate

router = APIRouter(tags=["agent runs"])


@router.post("/workspaces/{ws}/agent-runs", status_code=201, dependencies=[allow("run_agent")])
async def create_run(body: AgentRunCreate, ws: WorkspaceDep) -> RunView:
    return await ws.run_agent(body.task, body.builds_on, parse_time(body.as_of, "as_of"))


@router.get("/workspaces/{ws}/agent-runs", dependencies=[allow("read")])
async def list_runs(
    ws: WorkspaceDep,
    limit: Annotated[int, Query(ge=1, le=1000)] = 50,
    offset: Annotated[int, Query(ge=0, le=10**9)] = 0,
    cursor: Cursor = None,
) -> RunList:
    return await ws.runs(limit, offset, cursor)


@router.get("/workspaces/{ws}/agent-runs/{run_id}", dependencies=[allow("read")])
async def get_run(run_id: str, ws: WorkspaceDep) -> RunView:
    return await ws.run(run_id)
