"""Conflicts between sources (docs/rules.md, rule 9): as stored and read, planned at ingest,
resolved."""

from __future__ import annotations

from typing import NotRequired

from typing_extensions import TypedDict

from afterhack.model.claims import ClaimView
from afterhack.model.corrections import Correction, CorrectionOutcome, Impact
from afterhack.model.vocab import (
    ApplyStatus,
    ClaimStatus,
    ConflictKind,
    ConflictStatus,
    Resolution,
    RetiredStatus,
    SettledKind,
)


class ConflictClaim(TypedDict):
    """One side of a conflict: the claim, its quote, its source and when each came."""

    id: str
    statement: str
    statement_key: str
    status: ClaimStatus
    revision: int
    evidence_quote: str | None
    source_id: str | None  # None for a reviewer's claim: it has no source
    source_title: str | None
    correction_id: str | None  # a reviewer's claim: the correction that wrote it
    version: int | None
    created_at: int  # when the claim was stored
    source_added_at: int | None  # when the source version that says it was added
    said_by: str | None  # a message's speaker and time (docs/rules.md, rule 11)
    said_at: int | None


class SettledBy(TypedDict):
    """What closed a conflict by superseding or retiring one of its sides: a correction
    (its id), the resolution of another conflict (that conflict's id) or a new version of a
    source (the version's id), and what it says, in words."""

    kind: SettledKind
    id: str
    note: str


class ConflictRecord(TypedDict):
    id: str
    key: str  # the pair of statement keys it is between
    status: ConflictStatus
    kind: ConflictKind
    reason: str
    detected_by: str  # "offline-rules-1" or the gateway model's name
    revision: int
    created_at: int
    resolved_at: int | None
    resolved_by: str | None
    resolution: Resolution | None
    kept_claim_id: str | None
    correction_id: str | None
    # Which side is newer: the one said later, or for claims not said in a conversation, the
    # one added later (None when both came in one write with no time between them).
    newer_claim_id: str | None
    # Whether one speaker said both sides (None unless both were said in a conversation).
    same_speaker: bool | None
    settled_by: SettledBy | None  # for a conflict closed by what retired one of its sides
    claims: list[ConflictClaim]


class PlannedSide(TypedDict):
    id: str  # a new claim's id in a preview is not kept
    statement: str
    source_id: str | None


class PlannedConflict(TypedDict):
    """A conflict a preview of a source would raise."""

    kind: ConflictKind
    reason: str
    detected_by: str
    claims: list[PlannedSide]


class Retired(TypedDict):
    """A claim a new version of its source no longer holds."""

    claim_id: str
    statement: str
    status: RetiredStatus  # superseded by the new version's claim, or withdrawn (rejected)
    superseded_by: str | None


class Superseded(TypedDict):
    claim_id: str
    revision: int
    statement: str
    source_id: str | None  # None for a reviewer's claim: it has no source
    correction_id: str | None  # a reviewer's claim: the correction that wrote it


class ResolutionRevisions(TypedDict):
    conflict_revision: int
    keep_revision: int | None
    impact_token: str


class ResolutionPreview(Impact):
    conflict: ConflictRecord
    resolution: Resolution
    keep: str | None
    supersede: list[Superseded]  # every current claim of the losing statement
    revisions: ResolutionRevisions


class ResolutionResult(TypedDict):
    conflict: ConflictRecord
    correction: Correction | None  # a kept side's supersede correction; None for dismiss
    kept: ClaimView | None
    superseded: list[str]
    flagged: list[str]
    held: list[str]
    # The other open conflicts of the losing statement, closed with it (settled).
    settled: list[str]
    recheck: NotRequired[CorrectionOutcome]  # a repeat re-runs the dependency check


class AppliedResolution(ResolutionResult):
    status: ApplyStatus


class ValidTimeInput(TypedDict):
    """When one side of a conflict dismissed as "both hold, at different times" holds
    (ISO 8601 or epoch ms, either end open when None)."""

    claim_id: str
    valid_from: str | int | None
    valid_until: str | int | None


class ValidTimeRow(TypedDict):
    """The same, as the dismissal writes it on every current claim of that statement."""

    key: str  # the statement key
    valid_from: int | None
    valid_until: int | None
