"""Decisions and actions as the store reads them, and why a decision needs review."""

from __future__ import annotations

from typing import Literal

from typing_extensions import TypedDict

from afterhack.model.region import FlagReason
from afterhack.model.vocab import ActionStatus, ClaimStatus, DecisionStatus


class DecisionRef(TypedDict):
    id: str
    status: DecisionStatus
    revision: int
    title: str


class DecisionLink(TypedDict):
    """A decision this one builds on, or one building on it."""

    id: str
    title: str
    status: DecisionStatus


class ActionRecord(TypedDict):
    id: str
    description: str
    status: ActionStatus
    revision: int
    created_at: int
    held_from: ActionStatus | None  # the status a held action returns to
    decision_ids: list[str]  # every decision it requires


class PremiseClaim(TypedDict):
    id: str
    statement: str
    status: ClaimStatus
    source_id: str


class PremiseView(TypedDict):
    premise: str
    claims: list[PremiseClaim]  # the premise holds while any one of them is current


class PremiseInput(TypedDict):
    """A premise a reviewer re-confirms a decision with: a label and its claims."""

    statement: str | None
    claim_ids: list[str]


class CorrectedReason(TypedDict):
    type: Literal["correction"]
    correction_id: str
    claim_id: str
    reasons: list[FlagReason]


class RecheckReason(TypedDict):
    type: Literal["recheck"]
    claim_id: str
    reasons: list[FlagReason]


class UpstreamRejectedReason(TypedDict):
    type: Literal["upstream_rejected"]
    decision_id: str
    reasons: list[FlagReason]


class RejectedReason(TypedDict):
    type: Literal["rejected"]
    note: str | None


class NoEvidenceReason(TypedDict):
    type: Literal["no_evidence"]
    detail: str  # the step where nothing survived the gate


class SourcesDisagreeReason(TypedDict):
    """A run whose evidence held both sides of open conflicts: it did not pick one."""

    type: Literal["sources_disagree"]
    conflict_ids: list[str]
    claim_ids: list[str]  # the evidence's claims on either side


class ConflictResolvedReason(TypedDict):
    type: Literal["conflict_resolved"]
    conflict_id: str
    correction_id: str
    kept_claim_id: str
    superseded: list[str]
    reasons: list[FlagReason]


class SourceRevisedReason(TypedDict):
    """A new version of a source no longer says what the decision rested on."""

    type: Literal["source_revised"]
    source_id: str
    version_id: str
    retired: list[str]
    reasons: list[FlagReason]


# Why a decision is needs_review or rejected, kept on it as JSON (vocab.ReviewReasonType).
ReviewReason = (CorrectedReason | RecheckReason | UpstreamRejectedReason | RejectedReason
                | NoEvidenceReason | SourcesDisagreeReason | ConflictResolvedReason
                | SourceRevisedReason)


class DecisionView(TypedDict):
    id: str
    title: str
    summary: str
    status: DecisionStatus
    revision: int
    created_at: int
    run_id: str | None
    review_reason: ReviewReason | None
    premises: list[PremiseView]
    depends_on: list[DecisionLink]
    dependents: list[DecisionLink]
    actions: list[ActionRecord]
