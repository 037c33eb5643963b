from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, Query

from afterhack.api.deps import AsOf, WorkspaceDep
from afterhack.api.security import allow
from afterhack.model.graph import GraphView, Timeline
from afterhack.temporal.moments import parse_as_of

router = APIRouter(tags=["graph"])


@router.get("/workspaces/{ws}/graph", dependencies=[allow("read")])
async def get_graph(
    ws: WorkspaceDep,
    view: Literal["product", "internal"] = "product",
    limit: Annotated[int, Query(ge=1, le=50_000)] = 5000,
    as_of: AsOf = None,
) -> GraphView:
    return await ws.graph_view(view, limit, parse_as_of(as_of))


@router.get("/workspaces/{ws}/timeline", dependencies=[allow("read")])
async def get_timeline(
    ws: WorkspaceDep,
    limit: Annotated[int, Query(ge=1, le=5000)] = 500,
) -> Timeline:
    return await ws.timeline(limit)
