"""Conflicts between sources (docs/rules.md, rule 9): a dispute over one fact, each value a
side with its claims; as stored and read, planned at ingest, resolved."""

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
    """A claim of one side of a conflict: the claim, its quote, its source and when each
    came."""

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
    side: str  # the id of the side (value) it is on
    joined_at: int  # when it joined the conflict (its raising, for the first two)


class ConflictSide(TypedDict):
    """One value of the fact in dispute, with the claims that give it (a claim restating a
    value in other words is on its side)."""

    side: str  # the side's id: the id of the first claim that gave this value
    value: str  # the value in words ("EUR 40,000", "09:15"), or the first claim's statement
    newest_at: int  # when its latest claim was said (or, for a document's, added)
    claims: list[ConflictClaim]


class SettledBy(TypedDict):
    """What closed a conflict by superseding or retiring one of its sides: a correction
    (its id), the resolution of another conflict (that conflict's id) or a new version of a
    source (the version's id), and what it says, in words."""

    kind: SettledKind
    id: str
    note: str


class ConflictHead(TypedDict):
    """A dispute over one fact, without its claims."""

    id: str
    key: str  # what it was raised as (a pair of statements, or the fact it is about)
    status: ConflictStatus
    kind: ConflictKind
    reason: str  # why its first two claims were found to disagree
    detected_by: str  # "offline-rules-1" or the gateway model's name
    revision: int
    created_at: int
    resolved_at: int | None
    resolved_by: str | None
    resolution: Resolution | None
    kept_claim_id: str | None
    correction_id: str | None
    # The newest word: the claim said (or, for claims not said in a conversation, added) last
    # among those that joined (None when the first two came in one write with no time
    # between them, and nothing newer joined).
    newer_claim_id: str | None
    # Whether one speaker said every side (None unless all were said in a conversation).
    same_speaker: bool | None
    settled_by: SettledBy | None  # for a conflict closed by what retired its other sides
    n_sides: int  # values it has held, superseded ones included
    n_claims: int
    # Whether its claims are all listed: an ingest's answer lists only those on the sides
    # its own claims are on and those they were found against, so its cost does not grow
    # with the dispute.
    complete: bool


class StoredConflict(ConflictHead):
    """A conflict as the store reads it: its claims, each naming its side."""

    claims: list[ConflictClaim]


class ConflictRecord(ConflictHead):
    """A dispute over one fact: the claims that give it different values, one side per
    value, the newest value first."""

    sides: list[ConflictSide]


class PlannedSide(TypedDict):
    id: str  # a new claim's id in a preview is not kept
    statement: str
    source_id: str | None


class PlannedConflict(TypedDict):
    """A pair a preview of a source found to disagree: a new claim and the claim it gives
    another value than, and the open conflict over that fact it would join (None: it would
    raise a new one)."""

    kind: ConflictKind
    reason: str
    detected_by: str
    joins: str | None
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
    supersede: list[Superseded]  # every current claim of every other value
    revisions: ResolutionRevisions


class ResolutionResult(TypedDict):
    conflict: ConflictRecord
    correction: Correction | None  # a kept side's supersede correction; None for dismiss
    kept: ClaimView | None
    superseded: list[str]
    flagged: list[str]
    held: list[str]
    # The other open conflicts of the losing statements, closed with them (settled).
    settled: list[str]
    recheck: NotRequired[CorrectionOutcome]  # a repeat re-runs the dependency check


class AppliedResolution(ResolutionResult):
    status: ApplyStatus


class ValidTimeInput(TypedDict):
    """When one side of a conflict dismissed as "each holds, at its own time" holds (the
    side of this claim; ISO 8601 or epoch ms, either end open when None)."""

    claim_id: str
    valid_from: str | int | None
    valid_until: str | int | None


class ValidTimeRow(TypedDict):
    """The same, as the dismissal writes it on every current claim of a statement of that
    side."""

    key: str  # the statement key
    valid_from: int | None
    valid_until: int | None
