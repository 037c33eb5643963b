from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Response
from pydantic_core import to_json

from afterhack import repair
from afterhack.api import responses as out
from afterhack.api.deps import CallerDep, ServicesDep, WorkspaceDep, WorkspaceRefDep
from afterhack.api.security import allow
from afterhack.model.corrections import Correction
from afterhack.store import corrections
from afterhack.wire.inputs import CorrectionApply, CorrectionPreview

router = APIRouter(tags=["corrections"])


@router.post("/workspaces/{ws}/claims/{claim_id}/corrections/preview",
             response_model=out.CorrectionPreview, dependencies=[allow("correct")])
async def preview(claim_id: str, body: CorrectionPreview, ws: WorkspaceRefDep) -> Response:
    # The hot read of a review: the workspace is checked inside the region query, and the
    # answer (built to out.CorrectionPreview, which tests hold it to) is encoded once
    # instead of validated against the model again.
    result = await repair.preview_correction(
        ws.graph, claim_id, statement=body.statement, kind=body.kind, policy=ws.services.policy,
        workspace_id=ws.id)
    return Response(to_json(result), media_type="application/json")


@router.post("/workspaces/{ws}/claims/{claim_id}/corrections", status_code=201,
             response_model=out.CorrectionResult, dependencies=[allow("correct")],
             responses={200: {"model": out.CorrectionResult,
                              "description": "The same apply again: already_applied."}})
async def apply(claim_id: str, body: CorrectionApply, ws: WorkspaceDep, services: ServicesDep,
                caller: CallerDep, response: Response) -> dict[str, Any]:
    status, result = await repair.apply_correction(
        ws.graph, claim_id, statement=body.statement, kind=body.kind, reason=body.reason,
        reviewer=body.reviewer or caller.actor, claim_revision=body.claim_revision,
        impact_token_seen=body.impact_token, policy=services.policy, actor=caller.actor)
    if status == "already_applied":
        response.status_code = 200
    return {"status": status, **result}


@router.get("/workspaces/{ws}/corrections/{correction_id}", response_model=out.Correction,
            dependencies=[allow("read")])
async def get_correction(correction_id: str, ws: WorkspaceDep) -> Correction:
    return await corrections.get_correction(ws.graph, correction_id)
