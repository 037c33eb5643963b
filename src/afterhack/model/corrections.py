"""Corrections: what a preview shows, what an apply answers, and a correction as stored."""

from __future__ import annotations

from typing import NotRequired

from typing_extensions import TypedDict

from afterhack.model.claims import ClaimView
from afterhack.model.region import FlagReason, PremiseSupport
from afterhack.model.vocab import (
    ActionStatus,
    ApplyStatus,
    ClaimStatus,
    CorrectionKind,
    CorrectionNodeKind,
    DecisionStatus,
)


class CorrectionOutcome(TypedDict):
    """What a correction (or a re-check) flagged and held."""

    flagged: list[str]
    held: list[str]


class ReviewerFragment(TypedDict):
    """The fragment a correction writes: the reviewer's own words, with human provenance."""

    id: str
    text: str
    origin_type: str
    origin_name: str
    start: int
    end: int


class Correction(TypedDict):
    id: str
    claim_id: str
    statement: str
    reason: str | None
    reviewer: str
    kind: CorrectionNodeKind
    replacement_id: str | None
    created_at: int
    outcome: NotRequired[CorrectionOutcome]  # read on its own; an apply answers it apart
    fragment: ReviewerFragment | None  # None for a conflict's resolution (kind supersede)
    # The other claims stating the same thing, corrected (superseded) with claim_id.
    also_corrected: list[str]


class ClaimBrief(TypedDict):
    id: str
    statement: str
    status: ClaimStatus
    revision: int


class Flagged(TypedDict):
    decision_id: str
    title: str
    status: DecisionStatus
    reasons: list[FlagReason]


class Held(TypedDict):
    action_id: str
    description: str
    status: ActionStatus
    decision_ids: list[str]  # every decision it requires, in the region or not


class Stays(TypedDict):
    decision_id: str
    title: str
    supported_by: list[PremiseSupport]


class Impact(TypedDict):
    flag: list[Flagged]
    hold: list[Held]
    stay: list[Stays]


class ImpactRevisions(TypedDict):
    """Each revision the impact token covers, by id."""

    decisions: dict[str, int]
    actions: dict[str, int]
    claims: dict[str, int]
    upstream: dict[str, int]
    twins: dict[str, int]


class Revisions(TypedDict):
    """What a client sends back to apply what it previewed."""

    claim_revision: int
    impact_token: str
    impact: ImpactRevisions


class AlsoStates(TypedDict):
    """A twin: another current claim stating the same, corrected with the claim."""

    claim_id: str
    status: ClaimStatus
    revision: int
    source_id: str | None
    source_title: str | None


class CorrectionPreview(Impact):
    claim: ClaimBrief
    kind: CorrectionKind
    statement: str | None
    also_states_this: list[AlsoStates]
    revisions: Revisions


class ClaimImpact(Impact):
    claim: ClaimBrief
    correctable: bool
    also_states_this: list[AlsoStates]
    revisions: Revisions


class CorrectionResult(TypedDict):
    correction: Correction
    old_claim: ClaimView
    replacement: ClaimView | None
    also_corrected: list[str]  # the twins corrected with it
    flagged: list[str]
    held: list[str]
    recheck: NotRequired[CorrectionOutcome]  # a repeat re-runs the dependency check


class AppliedCorrection(CorrectionResult):
    status: ApplyStatus
