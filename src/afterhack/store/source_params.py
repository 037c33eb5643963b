"""What a source write takes and gives back: the new fragments and claims, the version
and its file, a policy's supersession, what a new version retires, and the rows written."""

from __future__ import annotations

from typing import NotRequired, TypedDict

from afterhack.model.sources import (
    CreatedClaim,
)
from afterhack.model.vocab import FragmentExtraction, RetiredStatus, SourceKind
from afterhack.model.writes import AuditEvent, AuditParams, RaiseRows, Repair, Settle
from afterhack.store.guard import GuardParams


class NewFragment(TypedDict):
    id: str
    seq: int
    text: str
    start: int
    end: int
    extraction: FragmentExtraction
    # A conversation's message (docs/rules.md, rule 11): who said it, when, and its place
    # among the messages this version adds (the write turns it into the conversation's
    # index). A file's fragment: the PDF page or the heading it falls under. Absent for
    # pasted text, so a text source's rows carry none of these keys.
    speaker: NotRequired[str]
    said_at: NotRequired[int]
    message_offset: NotRequired[int]
    page: NotRequired[int]
    page_end: NotRequired[int]
    section: NotRequired[str]


class NewClaim(TypedDict):
    """A claim that passed the quote rules, to be written with its fragment."""

    id: str
    fragment_id: str
    statement: str
    key: str  # its statement key (evidence.statement_key)
    quote: str
    quote_start: int  # code points into the version text
    quote_end: int
    confidence: float
    extracted_by: str
    terms: str  # its search terms, space-separated (search.joined_terms)
    v: NotRequired[list[float]]  # its vector, when ingest embedded it (else it is pending)
    valid_from: int | None  # when what it says holds, where it says so (validity.py)
    valid_until: int | None
    said_by: str | None  # a message's speaker and time (None for documents)
    said_at: int | None


class FileFields(TypedDict):
    """A file's original, kept on the version it was read into (None for text)."""

    media_type: str | None
    file_size: int | None
    file_hash: str | None  # sha256:<hex> of the original bytes
    file_name: str | None
    file_data: str | None  # the original bytes, base64


NO_FILE = FileFields(media_type=None, file_size=None, file_hash=None, file_name=None,
                     file_data=None)


class PolicyRow(TypedDict):
    """A newer statement by the same speaker superseding an older one at once, under a
    workspace's ``latest_wins`` (conflicts.plan_latest_wins), recorded as a policy's
    supersede correction; the conflict over their fact (by id, else the open one with its
    key) is resolved by keeping ``keep_id`` if no other value of it is still held."""

    conflict_id: str  # open before (``before``), or raised by this write
    conflict_key: str
    before: bool
    # Whether it may close the conflict: the first row of each conflict (the newest
    # statement), so a conflict is resolved once.
    may_close: bool
    keep_id: str
    correction_id: str
    resolution_key: str
    loser_id: str  # the conflict's older side, which the correction names
    losers: list[str]  # every current claim of the older statement
    reason: str
    outcome: str  # JSON: what it flagged and held
    # Its audit event: 'conflict.resolved' when it closes the conflict, else
    # 'conflict.side_superseded'.
    audit_id: str
    audit_detail: str


class LoserRow(TypedDict):
    """A claim a policy supersedes, as planned: still current at this revision, used by as
    many decisions."""

    id: str
    revision: int
    n_users: int


class VersionWrite(AuditParams, FileFields, RaiseRows):
    """A source's new version (or first one) with its fragments and kept claims."""

    source_id: str
    version_id: str
    kind: SourceKind
    title: str | None
    origin_type: str
    origin_name: str | None
    text: str
    content_hash: str
    length: int
    message_count: int | None  # a conversation's messages in this version
    fragments: list[NewFragment]
    claims: list[NewClaim]
    model_calls: str  # JSON: the ModelCallRecord list


class PolicyWrite(GuardParams, Repair):
    """What a ``latest_wins`` workspace supersedes in the same write (empty lists when
    nothing): guarded like a repair, then the conflicts resolved, the flags and holds."""

    policy: list[PolicyRow]
    policy_losers: list[LoserRow]
    # The other open conflicts of the statements it supersedes, settled by its resolutions.
    settles: list[Settle]


class RetireRow(TypedDict):
    """A claim of the source that the new version no longer holds (versions.py plans it):
    retired as planned if it is still as planned (revision, current, users)."""

    id: str
    revision: int
    n_users: int
    status: RetiredStatus
    superseded_by: str | None  # the new version's claim that states it differently
    statement: str
    statement_key: str


class NewVersionWrite(VersionWrite, GuardParams, Repair):
    """A new version, with what it retires and the relabel of that, guarded like a repair."""

    retire: list[RetireRow]
    audits: list[AuditEvent]
    settles: list[Settle]  # the conflicts of the statements it retires are settled by it


class MessagesWrite(VersionWrite, PolicyWrite):
    """A conversation, or the messages appended to one, with what ``latest_wins`` supersedes
    at once."""


class FragmentUpdate(TypedDict):
    id: str
    extraction: FragmentExtraction


class ClaimsWrite(AuditParams, RaiseRows):
    """Claims extracted later from fragments of the latest version that failed or were
    skipped."""

    source_id: str
    version_id: str
    fragment_ids: list[str]
    fragment_updates: list[FragmentUpdate]
    claims: list[NewClaim]


class VersionWritten(TypedDict):
    source_id: str
    version: int
    created: list[CreatedClaim]  # only those that did not start as proposed
    raised: list[str]  # the conflicts raised or joined


class MessagesWritten(VersionWritten):
    """A conversation's version as written: what its answer shows without reading it back."""

    revision: int
    latest_version: int
    message_count: int
    first_message: int
    created_at: int


class ClaimsWritten(TypedDict):
    source_id: str
    created: list[CreatedClaim]
    raised: list[str]  # the conflicts raised or joined


class SourceClaim(TypedDict):
    """A current claim of a source, as a new version is checked against it."""

    id: str
    statement: str
    statement_key: str
    evidence_quote: str | None
    revision: int


class KeptFile(TypedDict):
    media_type: str
    file_name: str | None
    file_data: str  # base64


# A version as both its write and its reads return it.
VERSION_FIELDS = (
    "v.id AS id, v.version AS version, v.content_hash AS content_hash, "
    "v.created_at AS created_at, v.length AS length"
)
