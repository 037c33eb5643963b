"""Sources, their versions and fragments, and what adding one answers."""

from __future__ import annotations

from typing import Literal, NotRequired

from typing_extensions import TypedDict

from afterhack.model.calls import ModelCallRecord
from afterhack.model.conflicts import ConflictRecord, PlannedConflict, Retired
from afterhack.model.corrections import Impact
from afterhack.model.erasures import ErasureRecord
from afterhack.model.vocab import ClaimStatus, DropReason, FragmentExtraction, SourceKind

# Between two messages in a conversation's version text: a blank line, which no fragment
# covers (each fragment is a message's own text, so no quote reaches past its message).
MESSAGE_SEPARATOR = "\n\n"


class SourceRow(TypedDict):
    id: str
    kind: SourceKind
    title: str | None
    origin_type: str
    origin_name: str | None
    created_at: int
    revision: int
    latest_version: int
    message_count: int | None  # a conversation's messages so far


class FragmentRow(TypedDict):
    version_id: str
    id: str
    seq: int
    text: str
    start: int  # code points into the version text, [start, end)
    end: int
    extraction: FragmentExtraction
    # A conversation's fragment is (a part of) one message: who said it, when (epoch ms),
    # and the message's index in the conversation, from 0.
    speaker: str | None
    said_at: int | None
    message_index: int | None
    # A file's fragment: the PDF page (from 1), and the last page when it runs over onto
    # later ones (None otherwise), or the heading it falls under.
    page: int | None
    page_end: int | None
    section: str | None


class VersionView(TypedDict):
    id: str
    version: int
    content_hash: str
    created_at: int
    length: int
    text: str
    # A file's original, kept: its media type, size in bytes, sha256 and name (all None for
    # text and conversations).
    media_type: str | None
    file_size: int | None
    file_hash: str | None
    file_name: str | None
    fragments: list[FragmentRow]


class SourceView(SourceRow):
    versions: list[VersionView]


class CreatedClaim(TypedDict):
    """A claim written with a version that did not start as proposed (a statement a
    reviewer had already corrected comes back superseded or rejected)."""

    id: str
    status: ClaimStatus


class PendingFragment(TypedDict):
    id: str
    seq: int
    text: str
    start: int
    end: int
    speaker: str | None  # a message's, so claims read again still carry who said them
    said_at: int | None
    message_index: int | None
    page: int | None
    page_end: int | None
    section: str | None


class PendingFragments(TypedDict):
    version_id: str
    fragments: list[PendingFragment]


class KeptClaim(TypedDict):
    """A claim extraction kept: its quote is exactly in the fragment, at these offsets."""

    id: str
    statement: str
    evidence_quote: str
    quote_start: int
    quote_end: int
    fragment_id: str
    status: ClaimStatus
    valid_from: int | None  # when what it says holds, where it says so (validity.py)
    valid_until: int | None
    said_by: str | None  # a message's speaker and time (None for documents)
    said_at: int | None


class DroppedExample(TypedDict):
    reason: DropReason
    fragment_seq: int
    statement: NotRequired[str]
    evidence_quote: NotRequired[str]


class FailedFragment(TypedDict):
    fragment_id: str
    seq: int
    error: str | None


class ExtractionOutcome(TypedDict):
    claims: list[KeptClaim]
    dropped: dict[DropReason, int]
    dropped_examples: list[DroppedExample]
    failed_fragments: list[FailedFragment]
    model_calls: list[ModelCallRecord]


class ChecksOutcome(Impact):
    """What the new claims and the new version did beyond themselves: the conflicts raised,
    the claims a new version retired, and the relabel of that (flag, hold, stay) as in a
    correction's preview."""

    conflicts: list[ConflictRecord]
    retired: list[Retired]
    flagged: list[str]
    held: list[str]


class NewVersion(ExtractionOutcome, ChecksOutcome):
    """A source added, or a new version of one: the version written."""

    status: Literal["created", "versioned"]
    source: SourceView
    version: int
    # A conversation's messages that asked to forget something their speaker said: the
    # requests they raised (docs/rules.md, rule 22), each withholding the claims it names.
    erasures: list[ErasureRecord]


class SameVersion(ExtractionOutcome, ChecksOutcome):
    """No version written: the text was the latest version's, or its pending fragments
    were extracted."""

    status: Literal["unchanged", "extracted"]
    source: SourceView


class PreviewOutcome(Impact):
    conflicts: list[PlannedConflict]
    retired: list[Retired]
    flagged: list[str]
    held: list[str]


class SourcePreview(ExtractionOutcome, PreviewOutcome):
    """What adding the source (or version) would do; nothing was written, and the ids of
    new claims shown are not kept. ``source`` is None for a source not yet added."""

    status: Literal["preview"]
    source: SourceView | None


IngestResult = NewVersion | SameVersion | SourcePreview
