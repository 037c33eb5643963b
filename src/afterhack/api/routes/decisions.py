from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query

from afterhack.api.deps import AsOf, Cursor, WorkspaceDep
from afterhack.api.security import allow
from afterhack.memory.review import Review
from afterhack.model.decisions import ActionRecord, DecisionRead, DecisionView
from afterhack.model.pages import ActionList, DecisionList
from afterhack.model.vocab import ActionStatus, DecisionStatus
from afterhack.temporal.moments import parse_as_of
from afterhack.wire.inputs import ActionChange, DecisionReview

router = APIRouter(tags=["decisions and actions"])

@router.get("/workspaces/{ws}/decisions", dependencies=[allow("read")])
async def list_decisions(
    ws: WorkspaceDep,
    status: Annotated[list[DecisionStatus] | None, Query(max_length=4)] = None,
    limit: Annotated[int, Query(ge=1, le=1000)] = 100,
    offset: Annotated[int, Query(ge=0, le=10**9)] = 0,
    cursor: Cursor = None,
) -> DecisionList:
    return await ws.decisions(list(status) if status else None, limit, offset, cursor)


@router.get("/workspaces/{ws}/decisions/{decision_id}", dependencies=[allow("read")])
async def get_decision(decision_id: str, ws: WorkspaceDep, as_of: AsOf = None) -> DecisionRead:
    return await ws.decision(decision_id, parse_as_of(as_of))


@router.patch("/workspaces/{ws}/decisions/{decision_id}", dependencies=[allow("review")])
async def review_decision(decision_id: str, body: DecisionReview,
                          ws: WorkspaceDep) -> DecisionView:
    return await ws.review_decision(decision_id, Review(
        op=body.op, revision=body.revision, claim_ids=body.claim_ids,
        premises=[{"statement": p.statement, "claim_ids": p.claim_ids} for p in body.premises]
        if body.premises else None, note=body.note))


@router.get("/workspaces/{ws}/actions", dependencies=[allow("read")])
async def list_actions(
    ws: WorkspaceDep,
    status: Annotated[list[ActionStatus] | None, Query(max_length=5)] = None,
    limit: Annotated[int, Query(ge=1, le=1000)] = 100,
    cursor: Cursor = None,
) -> ActionList:
    return await ws.actions(list(status) if status else None, limit, cursor)


@router.get("/workspaces/{ws}/actions/{action_id}", dependencies=[allow("read")])
async def get_action(action_id: str, ws: WorkspaceDep, as_of: AsOf = None) -> ActionRecord:
    return await ws.action(action_id, parse_as_of(as_of))


@router.patch("/workspaces/{ws}/actions/{action_id}", dependencies=[allow("review")])
async def change_action(action_id: str, body: ActionChange, ws: WorkspaceDep) -> ActionRecord:
    return await ws.act_on_action(action_id, body.op, body.revision)
