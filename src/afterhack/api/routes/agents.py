from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query

from afterhack.agents.run import get_run_view, run_agent
from afterhack.api.deps import CallerDep, Cursor, ServicesDep, WorkspaceDep
from afterhack.api.security import allow
from afterhack.memory import lists
from afterhack.model.pages import RunList
from afterhack.model.runs import RunView
from afterhack.temporal.moments import parse_time
from afterhack.wire.inputs import AgentRunCreate

router = APIRouter(tags=["agent runs"])


@router.post("/workspaces/{ws}/agent-runs", status_code=201, dependencies=[allow("run_agent")])
async def create_run(body: AgentRunCreate, ws: WorkspaceDep, services: ServicesDep,
                     caller: CallerDep) -> RunView:
    return await run_agent(ws.graph, services.analyst, services.coordinator, task=body.task,
                           builds_on=body.builds_on, actor=caller.actor,
                           max_rounds=services.settings.agent_max_rounds,
                           vectors=services.vectors,
                           valid_at=parse_time(body.as_of, "as_of"))


@router.get("/workspaces/{ws}/agent-runs", dependencies=[allow("read")])
async def list_runs(
    ws: WorkspaceDep,
    limit: Annotated[int, Query(ge=1, le=1000)] = 50,
    offset: Annotated[int, Query(ge=0, le=10**9)] = 0,
    cursor: Cursor = None,
) -> RunList:
    return await lists.run_page(ws.graph, limit=limit, offset=offset, cursor=cursor)


@router.get("/workspaces/{ws}/agent-runs/{run_id}", dependencies=[allow("read")])
async def get_run(run_id: str, ws: WorkspaceDep) -> RunView:
    return await get_run_view(ws.graph, run_id)
