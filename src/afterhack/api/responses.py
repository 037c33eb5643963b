"""What the API answers, as far as OpenAPI documents it (and Schemathesis checks it).

The models are deliberately minimal: they name the fields every client relies on and let
the rest through unchanged (``extra="allow"``); docs/api.md has the full shapes. Every error
status shares one body, the canonical ``{"error": {code, message, details}}``.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict


class Out(BaseModel):
    model_config = ConfigDict(extra="allow")


class ErrorDetail(BaseModel):
    code: str
    message: str
    details: dict[str, Any]


class ErrorBody(BaseModel):
    error: ErrorDetail


_ERROR_STATUSES = {
    401: "No key, an unknown key or a revoked key (when keys are on).",
    403: "The key's role does not allow this, or the request came from another site's page "
         "(origin_not_allowed).",
    404: "Unknown id, or a workspace this key cannot see.",
    409: "Conflict: stale revision or preview, already corrected, invalid transition.",
    413: "The body or a field is over its limit.",
    421: "The Host header does not name this server (host_not_allowed).",
    422: "Invalid request.",
    429: "Over the per-key rate limit; see Retry-After.",
    431: "The request's headers are too large or too many.",
    502: "The model gateway failed.",
    503: "The graph store is unavailable.",
    504: "The model gateway did not answer in time.",
}
ERRORS: dict[int | str, dict[str, Any]] = {
    status: {"model": ErrorBody, "description": text} for status, text in _ERROR_STATUSES.items()
}


class Health(Out):
    status: Literal["ok", "degraded"]
    falkordb: dict[str, Any]
    model: dict[str, Any]


class Workspace(Out):
    id: str
    name: str
    revision: int
    created_at: int


class WorkspaceList(Out):
    items: list[Workspace]
    next_cursor: str | None
    total: int | None
    limit: int
    offset: int


class Items(Out):
    items: list[dict[str, Any]]


class Page(Items):
    """A page of a list: ``next_cursor`` asks for the next one (None on the last), ``total``
    counts the whole list (None where counting is not cheap)."""

    next_cursor: str | None
    total: int | None


class Source(Out):
    id: str
    title: str | None
    origin_type: str
    revision: int
    latest_version: int
    versions: list[dict[str, Any]]


class IngestResult(Out):
    status: Literal["created", "versioned", "unchanged", "extracted", "preview"]
    # None only for the preview of a new source (nothing is written).
    source: Source | None
    claims: list[dict[str, Any]]
    dropped: dict[str, int]
    failed_fragments: list[dict[str, Any]]
    model_calls: list[dict[str, Any]]
    # The conflicts it raised; what a new version retired, flagged and held.
    conflicts: list[dict[str, Any]]
    retired: list[dict[str, Any]]
    flagged: list[str]
    held: list[str]


class ClaimSearch(Out):
    items: list[dict[str, Any]]
    search: dict[str, Any]
    next_cursor: str | None
    total: int | None


class EmbeddingProgress(Out):
    """``state``: ready (vectors in the configured model's space), empty (none yet), stale
    (another model's vectors: search by meaning is off until a re-embed), off (no model)."""

    state: Literal["ready", "empty", "stale", "off"]
    model: str | None
    dim: int | None
    configured_model: str | None
    claims: int
    pending: int


class Claim(Out):
    id: str
    statement: str
    status: Literal["proposed", "accepted", "rejected", "superseded"]
    revision: int
    evidence: list[dict[str, Any]]


class Action(Out):
    id: str
    description: str
    status: Literal["proposed", "approved", "held", "done", "cancelled"]
    revision: int


class Decision(Out):
    id: str
    title: str
    status: Literal["draft", "accepted", "needs_review", "rejected"]
    revision: int
    actions: list[Action]


class RunView(Out):
    run: dict[str, Any]
    handoffs: list[dict[str, Any]]
    decision: Decision | None
    actions: list[Action]


class CorrectionPreview(Out):
    claim: dict[str, Any]
    kind: Literal["replace", "retract"]
    flag: list[dict[str, Any]]
    hold: list[dict[str, Any]]
    stay: list[dict[str, Any]]
    revisions: dict[str, Any]


class Correction(Out):
    id: str
    claim_id: str
    kind: Literal["replace", "retract", "supersede"]


class CorrectionResult(Out):
    status: Literal["applied", "already_applied"]
    correction: Correction
    old_claim: Claim
    replacement: Claim | None
    flagged: list[str]
    held: list[str]


class ConflictClaim(Out):
    id: str
    statement: str
    status: Literal["proposed", "accepted", "rejected", "superseded"]
    evidence_quote: str | None
    source_id: str | None
    source_title: str | None
    created_at: int


class Conflict(Out):
    id: str
    status: Literal["open", "resolved", "dismissed"]
    kind: Literal["date", "time", "number", "amount", "place", "person", "other"]
    reason: str
    detected_by: str
    revision: int
    created_at: int
    claims: list[ConflictClaim]


class ConflictList(Out):
    items: list[Conflict]


class ConflictPreview(Out):
    conflict: Conflict
    resolution: Literal["keep", "dismiss"]
    keep: str | None
    supersede: list[dict[str, Any]]
    flag: list[dict[str, Any]]
    hold: list[dict[str, Any]]
    stay: list[dict[str, Any]]
    revisions: dict[str, Any]


class ConflictResult(Out):
    status: Literal["applied", "already_applied"]
    conflict: Conflict
    correction: Correction | None
    kept: Claim | None
    superseded: list[str]
    flagged: list[str]
    held: list[str]


class GraphView(Out):
    nodes: list[dict[str, Any]]
    edges: list[dict[str, Any]]


class TimelineEvent(Out):
    at: int
    kind: Literal["source_added", "source_versioned", "run", "correction", "conflict_raised",
                  "conflict_resolved", "conflict_dismissed"]
    subject_id: str | None
    label: str | None


class Timeline(Out):
    events: list[TimelineEvent]
    now: int


class ApiKey(Out):
    id: str
    workspace_id: str
    role: Literal["reader", "agent", "reviewer"]
    name: str
    created_at: int
    revoked_at: int | None = None


class NewApiKey(ApiKey):
    key: str


class ApiKeyList(Out):
    items: list[ApiKey]
