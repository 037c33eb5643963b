from __future__ import annotations

from fastapi import APIRouter, Response
from pydantic import TypeAdapter

from afterhack.api.deps import CallerDep, ServicesDep, WorkspaceDep, WorkspaceRefDep
from afterhack.api.security import allow
from afterhack.memory import repair
from afterhack.model.corrections import AppliedCorrection, Correction, CorrectionPreview
from afterhack.store import corrections
from afterhack.wire.inputs import CorrectionApply, CorrectionPreviewIn

router = APIRouter(tags=["corrections"])

PREVIEW = TypeAdapter(CorrectionPreview)


@router.post("/workspaces/{ws}/claims/{claim_id}/corrections/preview",
             response_model=CorrectionPreview, dependencies=[allow("correct")])
async def preview(claim_id: str, body: CorrectionPreviewIn, ws: WorkspaceRefDep) -> Response:
    # The hot read of a review: the workspace is checked inside the region query (one
    # round trip), and the answer, typed by the domain, is encoded once by its schema
    # rather than validated against it again.
    result = await repair.preview_correction(
        ws.graph, claim_id, statement=body.statement, kind=body.kind, policy=ws.services.policy,
        leave=body.leave or (), workspace_id=ws.id)
    return Response(PREVIEW.dump_json(result), media_type="application/json")


@router.post("/workspaces/{ws}/claims/{claim_id}/corrections", status_code=201,
             dependencies=[allow("correct")],
             responses={200: {"model": AppliedCorrection,
                              "description": "The same apply again: already_applied."}})
async def apply(claim_id: str, body: CorrectionApply, ws: WorkspaceDep, services: ServicesDep,
                caller: CallerDep, response: Response) -> AppliedCorrection:
    status, result = await repair.apply_correction(
        ws.graph, claim_id, statement=body.statement, kind=body.kind, reason=body.reason,
        reviewer=body.reviewer or caller.actor, claim_revision=body.claim_revision,
        impact_token_seen=body.impact_token, policy=services.policy, actor=caller.actor,
        leave=body.leave or (), judge=services.conflict_judge, vectors=services.vectors)
    services.vectors.notify(ws.graph)  # the replacement claim waits for its vector
    if status == "already_applied":
        response.status_code = 200
    return {"status": status, **result}


@router.get("/workspaces/{ws}/corrections/{correction_id}", dependencies=[allow("read")])
async def get_correction(correction_id: str, ws: WorkspaceDep) -> Correction:
    return await corrections.get_correction(ws.graph, correction_id)
