"""Decisions and actions as the store reads them, and why a decision needs review."""

from __future__ import annotations

from typing import Literal

from typing_extensions import TypedDict

from afterhack.model.claims import ClaimRef
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


class PremiseUse(TypedDict):
    """One claim of a premise, as a decision's earlier support is kept on it."""

    premise: str
    claim_id: str


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


class ErasedReason(TypedDict):
    """An erasure took the words of claims the decision rested on (docs/rules.md, rule 22):
    re-checked as for a retraction."""

    type: Literal["erasure"]
    erasure_id: str
    claim_ids: list[str]  # the erased claims it cited
    reasons: list[FlagReason]


# Why a decision is needs_review or rejected, kept on it as JSON (vocab.ReviewReasonType).
ReviewReason = (CorrectedReason | RecheckReason | UpstreamRejectedReason | RejectedReason
                | NoEvidenceReason | SourcesDisagreeReason | ConflictResolvedReason
                | SourceRevisedReason | ErasedReason)


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


class SupportClaim(TypedDict):
    """A claim of a premise, with the status it had at the moment shown."""

    id: str
    statement: str
    status: ClaimStatus
    source_id: str
    source_title: str | None  # the document it quotes; None for a reviewer's claim


# What retired a claim a decision rested on: a reviewer's correction, a conflict resolved
# against it, or a new version of its source that no longer says it.
FallCause = Literal["correction", "conflict", "version"]


class Fall(TypedDict):
    """A claim a premise rested on that was current then and is not at the moment shown."""

    claim_id: str
    statement: str
    status: ClaimStatus  # at the moment shown: superseded or rejected
    at: int | None  # when it was retired
    by: FallCause | None  # None when the record of it is gone (a restored export, say)
    correction_id: str | None  # the correction, or the conflict's resolution
    conflict_id: str | None
    version_id: str | None  # the new version that retired it
    source_id: str | None  # that version's source
    reviewer: str | None
    reason: str | None
    replaced_by: ClaimRef | None  # the claim that took its place, if one did


class PremiseThenNow(TypedDict):
    """One premise: what supported it when the decision was made, and at the moment shown."""

    premise: str
    then: list[SupportClaim]  # empty: the premise was added later (a re-confirmation)
    now: list[SupportClaim]  # empty: a re-confirmation dropped it
    held_then: bool  # some claim of it was current when the decision was made
    holds_now: bool
    fell: list[Fall]


class DecisionSupport(TypedDict):
    """Why then, why now (docs/rules.md, rule 10)."""

    decided_at: int  # when the decision was made
    at: int  # the moment shown as "now": the read's as_of, or the time of the read
    reconfirmed: list[int]  # when a reviewer replaced its premises (each time)
    premises: list[PremiseThenNow]


class DecisionRead(DecisionView):
    """A decision as one read of it answers: the decision, and why then and why now."""

    support: DecisionSupport


class SupportRecord(TypedDict):
    """What a decision rests on now and what it rested on before each re-confirmation."""

    created_at: int
    premise_order: list[str]
    uses: list[PremiseUse]
    support_history: list[str]  # JSON of each earlier support: {premise_order, uses}
    support_until: list[int]  # when each ended


class CorrectionOfClaim(TypedDict):
    id: str
    kind: str  # a CorrectionNodeKind: 'supersede' is a conflict's resolution
    created_at: int
    reviewer: str | None
    reason: str | None
    conflict_ids: list[str]  # the conflict it resolved, for a 'supersede'


class RetiringVersion(TypedDict):
    id: str
    version: int
    created_at: int
    source_id: str | None


class ReplacingClaim(TypedDict):
    id: str
    statement: str
    status: ClaimStatus
    created_at: int


class ClaimPast(TypedDict):
    """A claim with its status history and whatever retired it."""

    id: str
    statement: str
    status: ClaimStatus
    source_id: str
    source_title: str | None
    created_at: int
    history: list[ClaimStatus]
    since: list[int]
    corrections: list[CorrectionOfClaim]
    retired_by: RetiringVersion | None
    replaced_by: list[ReplacingClaim]
