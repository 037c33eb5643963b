"""Corrections: what a preview shows, what an apply answers, and a correction as stored."""

from __future__ import annotations

from typing import NotRequired

from typing_extensions import TypedDict

from afterhack.model.claims import ClaimConflictView, ClaimView
from afterhack.model.region import FlagReason, PremiseSupport
from afterhack.model.vocab import (
    ActionStatus,
    ApplyStatus,
    ClaimStatus,
    CorrectionKind,
    CorrectionNodeKind,
    DecisionStatus,
    ValueKind,
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
    # The claims that state the same fact in other words (and their copies), corrected with
    # it or left out of it.
    in_other_words: dict[str, int]


class Revisions(TypedDict):
    """What a client sends back to apply what it previewed."""

    claim_revision: int
    impact_token: str
    impact: ImpactRevisions


class ValueRead(TypedDict):
    """The value two statements both give for the same subject and attribute."""

    kind: ValueKind
    value: str  # in one wording, whatever the statements' ("June 12", "EUR 9,500")
    in_claim: str  # as the corrected claim writes it
    in_other: str  # as the other claim writes it


class AlsoStates(TypedDict):
    """Another current claim that states what the corrected claim states: a twin (the same
    statement, from another source or ingest), or a claim stating the same fact in other
    words (``in_other_words``, with the value both read). Corrected with the claim, unless
    the reviewer leaves it out (``left_out``: a claim stating the same fact in other words
    only; it then stands in an open conflict with the replacement)."""

    claim_id: str
    status: ClaimStatus
    revision: int
    statement: str
    evidence_quote: str | None
    source_id: str | None
    source_title: str | None
    in_other_words: bool
    value_read: ValueRead | None
    left_out: bool


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
    also_corrected: list[str]  # the twins, and claims in other words, corrected with it
    flagged: list[str]
    held: list[str]
    # The open conflicts the replacement is in: with the claims left out of the correction,
    # and with every current claim that gives another value for the same thing.
    conflicts: list[ClaimConflictView]
    # The conflicts the correction closed: one of their sides is what it corrected.
    settled: list[str]
    recheck: NotRequired[CorrectionOutcome]  # a repeat re-runs the dependency check


class AppliedCorrection(CorrectionResult):
    status: ApplyStatus
