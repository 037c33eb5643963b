from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, Query

from afterhack import projection
from afterhack.api.deps import WorkspaceDep
from afterhack.api.security import allow
from afterhack.model.graph import GraphView

router = APIRouter(tags=["graph"])


@router.get("/workspaces/{ws}/graph", dependencies=[allow("read")])
async def get_graph(
    ws: WorkspaceDep,
    view: Literal["product", "internal"] = "product",
    limit: Annotated[int, Query(ge=1, le=50_000)] = 5000,
) -> GraphView:
    if view == "internal":
        return await projection.internal_view(ws.graph, limit)
    return await projection.product_view(ws.graph, limit)
