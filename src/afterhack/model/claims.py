"""Claims as the store reads them and as users and agents see them."""

from __future__ import annotations

from typing import NotRequired

from typing_extensions import TypedDict

from afterhack.model.vocab import (
    ClaimStatus,
    ConfidenceKind,
    ConflictKind,
    ConflictStatus,
    DecisionStatus,
    ErasureStatus,
    FoundMatch,
    SearchMode,
    SpaceState,
)


class ClaimRow(TypedDict):
    id: str
    statement: str
    status: ClaimStatus
    confidence: float
    confidence_kind: ConfidenceKind
    source_id: str  # its source, or for a reviewer's claim its correction
    revision: int
    created_at: int
    score: NotRequired[float]  # a word search's (BM25)
    open_conflict_ids: NotRequired[list[str]]  # a search's or a list's: its open conflicts


class QuotedClaim(ClaimRow):
    evidence_quote: str


class ClaimErasure(TypedDict):
    """On a claim: the erasure that took its words (applied), or the request that withholds
    it (requested), when and by whom (docs/rules.md, rule 22)."""

    id: str
    status: ErasureStatus
    at: int | None
    by: str | None


class ClaimDetailRow(QuotedClaim):
    quote_start: int  # code points into the version text, [start, end)
    quote_end: int
    # When what it says holds (epoch ms), where a source or a reviewer said so: from
    # valid_from (inclusive) until valid_until (exclusive); None is open-ended.
    valid_from: int | None
    valid_until: int | None
    # Who said it and when, for a claim from a conversation's message (docs/rules.md,
    # rule 11); None for a document's.
    said_by: str | None
    said_at: int | None
    erasure: ClaimErasure | None


class ClaimAt(TypedDict):
    """A claim as it was at an earlier time: what a read as of that time shows of it."""

    id: str
    status: ClaimStatus
    open_conflict_ids: list[str]
    valid_from: int | None
    valid_until: int | None


class ClaimRef(TypedDict):
    id: str
    statement: str
    status: ClaimStatus


class CorrectionRef(TypedDict):
    id: str
    kind: str
    statement: str | None
    reason: str | None
    reviewer: str | None
    created_at: int
    replacement_id: str | None


class ClaimUse(TypedDict):
    """A decision using the claim, and under which premise."""

    decision_id: str
    title: str
    status: DecisionStatus
    premise: str


class ClaimLinks(TypedDict):
    corrections: list[CorrectionRef]
    superseded_by: list[ClaimRef]
    supersedes: list[ClaimRef]
    used_by: list[ClaimUse]


class FragmentRow(TypedDict):
    """A fragment supporting a claim, with the claim's quote offsets and the fragment's origin
    (its source and version, or the correction that wrote it)."""

    claim_id: str
    claim_status: ClaimStatus
    quote_start: int
    quote_end: int
    role: str
    fragment_id: str
    text: str | None
    start: int
    end: int
    origin_type: str
    origin_name: str | None
    source_id: str | None
    source_title: str | None
    version: int | None
    correction_id: str | None
    speaker: str | None
    said_at: int | None
    message_index: int | None
    page: int | None
    page_end: int | None
    section: str | None
    media_type: str | None


class SegmentDict(TypedDict):
    text: str
    highlight: bool


class EvidenceItem(TypedDict):
    """One fragment behind a claim, with the quote's offsets and the text cut at them."""

    fragment_id: str
    text: str
    start: int
    end: int
    role: str
    origin_type: str
    origin_name: str | None
    source_id: str | None
    source_title: str | None
    version: int | None
    correction_id: str | None
    quote_start: int
    quote_end: int
    segments: list[SegmentDict]
    # Where the fragment stands: a message (who said it, when, its index in the
    # conversation), or a file's page or heading and the file's media type.
    speaker: str | None
    said_at: int | None
    message_index: int | None
    page: int | None
    page_end: int | None
    section: str | None
    media_type: str | None


class Origin(TypedDict):
    type: str
    name: str | None
    source_id: str | None
    source_title: str | None
    version: int | None


class NeighbourRow(TypedDict):
    """A current claim near a new one, as a conflict check compares them."""

    id: str
    statement: str
    statement_key: str
    source_id: str | None


class OtherSide(TypedDict):
    id: str
    statement: str
    status: ClaimStatus
    source_id: str | None
    source_title: str | None


class ClaimConflictView(TypedDict):
    """An open conflict a claim's statement is in, with the claims of the other side."""

    id: str
    kind: ConflictKind
    reason: str
    status: ConflictStatus
    other: list[OtherSide]


class ClaimView(ClaimDetailRow):
    """One claim with its evidence, its corrections and what replaced it."""

    origin: Origin | None
    evidence: list[EvidenceItem]
    corrections: list[CorrectionRef]
    superseded_by: ClaimRef | None
    supersedes: list[ClaimRef]
    replacement_chain: list[ClaimRef]
    used_by: list[ClaimUse]
    conflicts: list[ClaimConflictView]  # the open conflicts its statement is in


class FoundBy(TypedDict):
    """How a search hit was found: by its words, by its meaning (the cosine distance), or as
    the neighbour of a hit above it (that hit's id); ``match`` says it in one word."""

    match: FoundMatch
    text: bool
    vector_distance: float | None
    neighbour_of: str | None


class FoundClaim(ClaimRow):
    found_by: NotRequired[FoundBy]  # absent when the claims are listed, not searched


class VectorInfo(TypedDict):
    state: SpaceState
    pending: int  # claims still waiting for their vector


class SearchInfo(TypedDict):
    q: str | None
    terms: list[str]
    # No claim found holds every word as typed: the results rest on the query's meaningful
    # words (or on its meaning).
    backed_off: bool
    mode: SearchMode
    vectors: NotRequired[VectorInfo]  # with mode hybrid or vector
    embedding_ms: NotRequired[float | None]  # the query's embedding (model time)
    as_of: NotRequired[int]  # a read as of this time (epoch ms): the claims as they were then
    valid_at: NotRequired[int]  # a search at this time: only claims valid then


class ClaimSearch(TypedDict):
    items: list[FoundClaim]
    search: SearchInfo
    # The next page (paging.py): after the last claim in order of creation, or, for a search,
    # the next ranks of the same query; None on the last page.
    next_cursor: str | None
    # Claims the list holds; None for a search (a ranking's top, not a count) and a list
    # as of a time (counting it reads every claim's history).
    total: int | None
