"""Erasures (docs/rules.md, rule 22): what a target names, what a preview shows, and the
record that stays. A record holds who, when, why, what kind of thing and how many: never
the erased words, nor a hash of them (a hash of a phone number is found by trying them all).
"""

from __future__ import annotations

from typing_extensions import TypedDict

from afterhack.model.corrections import Impact
from afterhack.model.vocab import (
    ApplyStatus,
    ClaimStatus,
    DiskState,
    ErasureKind,
    ErasureStatus,
    ForgetStatus,
)


class ErasureTarget(TypedDict):
    """What is to be erased, exactly one kind: a source (every version), a version, one
    message of a conversation, the span a claim's quote covers, everything a speaker said,
    an exact string wherever it was written, or what a speaker's request named."""

    kind: ErasureKind
    source_id: str | None
    version_id: str | None
    message_index: int | None
    claim_id: str | None
    speaker: str | None
    text: str | None
    request_id: str | None


class TargetRef(TypedDict):
    """A target as the record keeps it: its ids, never its words (a speaker's name or an
    erased string is not kept)."""

    kind: ErasureKind
    source_id: str | None
    version_id: str | None
    message_index: int | None
    claim_id: str | None
    request_id: str | None


class ErasureCounts(TypedDict):
    """How many of each thing an erasure reached."""

    sources: int  # sources with a version whose text lost a span
    versions: int  # versions whose text lost a span
    messages: int  # messages (of conversations) that lost words
    fragments: int  # fragments whose text lost a span
    spans: int  # erased spans, each now a marker
    claims: int  # claims erased
    files: int  # originals that went with the words they held
    records: int  # other records that repeated an erased string (runs, audit, decisions...)
    flagged: int  # decisions that lost support
    held: int  # actions held
    conflicts: int  # conflicts closed


class ErasureRecord(TypedDict):
    """An erasure as the graph keeps it, and as the API answers it."""

    id: str
    status: ErasureStatus
    target: TargetRef
    reason: str | None
    requested_by: str | None  # a speaker's request: who asked
    requested_at: int | None
    applied_by: str | None
    applied_at: int | None
    declined_by: str | None
    declined_at: int | None
    created_at: int
    counts: ErasureCounts | None  # once applied
    claim_ids: list[str]  # a request: the claims it names; applied: the claims erased
    flagged: list[str]  # decisions that lost support
    held: list[str]  # actions held
    conflicts: list[str]  # conflicts closed
    # Whether FalkorDB's files still hold what the graph no longer does: pending until every
    # node's files were rewritten after it was applied, then clean (with the time).
    disk: DiskState | None
    disk_clean_at: int | None


class ErasedClaim(TypedDict):
    """A claim an erasure takes: its words as they are before it (what the preview shows
    of what goes; the answer after apply shows what stands in its place)."""

    id: str
    statement: str
    status: ClaimStatus
    source_id: str | None
    used_by: int  # decisions citing it


class GoingVersion(TypedDict):
    source_id: str
    version_id: str
    version: int
    spans: int  # erased spans in its text
    file: bool  # its original file goes with it


class GoingMessage(TypedDict):
    source_id: str
    message_index: int
    speaker: str | None


class ClosingConflict(TypedDict):
    id: str
    kind: str
    reason: str


class ErasureGoes(TypedDict):
    versions: list[GoingVersion]
    messages: list[GoingMessage]
    claims: list[ErasedClaim]
    # Corrections whose reviewer text held erased words (their fragment loses them).
    corrections: list[str]
    records: int


class ErasurePreview(Impact):
    """What applying the erasure would do now (rule 22): what goes, what is repaired (flag,
    hold and stay as for a retraction, the conflicts that close) and the token apply sends
    back."""

    target: TargetRef
    goes: ErasureGoes
    counts: ErasureCounts
    closes: list[ClosingConflict]
    impact_token: str


class AppliedErasure(TypedDict):
    status: ApplyStatus
    erasure: ErasureRecord


class ForgetAnswer(TypedDict):
    """What the MCP tool ``forget`` answers: a request filed for a reviewer (``requested``,
    an agent's key), a preview with the token to apply it with (``preview``, a reviewer's
    key without one), or the erasure applied (``applied`` / ``already_applied``)."""

    status: ForgetStatus
    erasure: ErasureRecord | None
    preview: ErasurePreview | None
