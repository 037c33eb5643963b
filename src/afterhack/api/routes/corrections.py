from __future__ import annotations

from fastapi import APIRouter, Response
from pydantic import TypeAdapter

from afterhack.api.deps import WorkspaceDep, WorkspaceRefDep
from afterhack.api.security import allow
from afterhack.memory.repair import Fix, Seen
from afterhack.model.corrections import AppliedCorrection, Correction, CorrectionPreview
from afterhack.wire.inputs import CorrectionApply, CorrectionPreviewIn

router = APIRouter(tags=["corrections"])

PREVIEW = TypeAdapter(CorrectionPreview)


@router.post("/workspaces/{ws}/claims/{claim_id}/corrections/preview",
             response_model=CorrectionPreview, dependencies=[allow("correct")])
async def preview(claim_id: str, body: CorrectionPreviewIn, ws: WorkspaceRefDep) -> Response:
    # The hot read of a review: the workspace is checked inside the region query (one
    # round trip), and the answer, typed by the domain, is encoded once by its schema
    # rather than validated against it again.
    result = await ws.preview_correction(
        claim_id, Fix(kind=body.kind, statement=body.statement, leave=body.leave or ()))
    return Response(PREVIEW.dump_json(result), media_type="application/json")


@router.post("/workspaces/{ws}/claims/{claim_id}/corrections", status_code=201,
             dependencies=[allow("correct")],
             responses={200: {"model": AppliedCorrection,
                              "description": "The same apply again: already_applied."}})
async def apply(claim_id: str, body: CorrectionApply, ws: WorkspaceDep,
                response: Response) -> AppliedCorrection:
    done = await ws.correct(
        claim_id, Fix(kind=body.kind, statement=body.statement, reason=body.reason,
                      leave=body.leave or ()),
        Seen(body.claim_revision, body.impact_token), body.reviewer)
    if done["status"] == "already_applied":
        response.status_code = 200
    return done


@router.get("/workspaces/{ws}/corrections/{correction_id}", dependencies=[allow("read")])
async def get_correction(correction_id: str, ws: WorkspaceDep) -> Correction:
    return await ws.correction(correction_id)
