"""Every error the service can answer with, each carrying its wire code and HTTP status.

* AfterhackError (500 internal_error)
  + NotFound (404)
    - WorkspaceNotFound, SourceNotFound, ClaimNotFound, DecisionNotFound,
      ActionNotFound, RunNotFound, CorrectionNotFound, ConflictNotFound, KeyNotFound,
      ErasureNotFound, VersionNotFound, MessageNotFound
  + InvalidRequest (422 invalid_request)
    - ClaimNotInConflict (422 claim_not_in_conflict), ClaimNotListed (422 claim_not_listed)
    - InvalidCursor (422 invalid_cursor)
    - UnreadableFile (422 unreadable_file)
    - NothingToErase (422 nothing_to_erase)
  + PayloadTooLarge (413 payload_too_large)
    - FileOverBudget (413 file_over_budget)
  + UnsupportedMediaType (415 unsupported_media_type)
  + Unauthorized (401 unauthorized), Forbidden (403 forbidden)
  + Conflict (409)
    - StaleRevision, StaleCorrectionPreview, ClaimSuperseded, InvalidTransition,
      DecisionUnsupported, WorkspaceBusy, RunClosed, ConflictClosed,
      StaleErasurePreview, ErasureClosed
  + RateLimited (429 rate_limited)
  + StoreUnavailable (503 graph_store_unavailable)
    - NotReplicated (503 write_not_replicated)
  + ReadersBusy (503 file_readers_busy)
  + GatewayError
    - GatewayUnavailable (502 llm_gateway_unavailable)
      . GatewayInvalidOutput (502 llm_invalid_output)
    - GatewayTimeout (504 llm_gateway_timeout)

The body on the wire is always ``{"error": {"code", "message", "details"}}`` (api/errors.py).
"""

from __future__ import annotations

from typing import Any

from afterhack.model.calls import ModelCall


class AfterhackError(Exception):
    """Base of every error the service raises on purpose."""

    status = 500
    code = "internal_error"

    def __init__(self, message: str | None = None, **details: Any) -> None:
        self.message = message or self.default_message()
        self.details = details
        super().__init__(self.message)

    def default_message(self) -> str:
        return "Internal error."


class NotFound(AfterhackError):
    """Raised when an id names nothing in this workspace (or a workspace that does not exist)."""

    status = 404
    code = "not_found"
    kind = "resource"

    def __init__(self, ident: str | None = None, message: str | None = None) -> None:
        # The id is echoed back only as the caller sent it; nothing else is revealed.
        super().__init__(message or f"No {self.kind} with that id.", id=ident)


class WorkspaceNotFound(NotFound):
    code = "workspace_not_found"
    kind = "workspace"


class SourceNotFound(NotFound):
    code = "source_not_found"
    kind = "source"


class ClaimNotFound(NotFound):
    code = "claim_not_found"
    kind = "claim"


class DecisionNotFound(NotFound):
    code = "decision_not_found"
    kind = "decision"


class ActionNotFound(NotFound):
    code = "action_not_found"
    kind = "action"


class RunNotFound(NotFound):
    code = "agent_run_not_found"
    kind = "agent run"


class CorrectionNotFound(NotFound):
    code = "correction_not_found"
    kind = "correction"


class ConflictNotFound(NotFound):
    code = "conflict_not_found"
    kind = "conflict"


class FileNotFound(NotFound):
    """Raised when a source version asked for its original file holds none (text, a
    conversation) or does not exist."""

    code = "file_not_found"
    kind = "file"


class KeyNotFound(NotFound):
    code = "key_not_found"
    kind = "key"


class ErasureNotFound(NotFound):
    code = "erasure_not_found"
    kind = "erasure"


class VersionNotFound(NotFound):
    """Raised when an erasure names a version its source does not have."""

    code = "version_not_found"
    kind = "version"


class MessageNotFound(NotFound):
    """Raised when an erasure names a message index its conversation does not have."""

    code = "message_not_found"
    kind = "message"


class InvalidRequest(AfterhackError):
    """Raised when a request is well-formed JSON but breaks a rule of its fields."""

    status = 422
    code = "invalid_request"

    def default_message(self) -> str:
        return "The request is not valid."


class InvalidCursor(InvalidRequest):
    """Raised when a list's ``cursor`` is not one this list gave out (paging.py)."""

    code = "invalid_cursor"


class ClaimNotListed(InvalidRequest):
    """Raised when a correction leaves out a claim the preview did not list as stating the
    corrected fact in other words (a copy of the corrected statement is always corrected
    with it)."""

    code = "claim_not_listed"

    def default_message(self) -> str:
        return ("Only a claim the preview lists as stating the same fact in other words can "
                "be left out of a correction.")


class ClaimNotInConflict(InvalidRequest):
    """Raised when a resolution keeps a claim that states neither side of the conflict."""

    code = "claim_not_in_conflict"

    def default_message(self) -> str:
        return "That claim is not one of the two sides of this conflict."


class UnreadableFile(InvalidRequest):
    """Raised when a file is of a kind that is read but this one cannot be: empty, text that
    is not UTF-8, a PDF with no text layer or behind a password, a damaged document. The
    message says which, in words a person can act on."""

    code = "unreadable_file"

    def default_message(self) -> str:
        return "The file could not be read."


class NothingToErase(InvalidRequest):
    """Raised when an erasure is applied whose target holds no words left to erase (an
    erased string found nowhere, a message already erased)."""

    code = "nothing_to_erase"

    def default_message(self) -> str:
        return "Nothing the target names holds words left to erase."


class PayloadTooLarge(AfterhackError):
    """Raised when a body or a field is over its configured limit."""

    status = 413
    code = "payload_too_large"

    def default_message(self) -> str:
        return "The request is too large."


class FileOverBudget(PayloadTooLarge):
    """Raised when reading a file would take more than one of its budgets: pages, elements
    or paragraphs (counted as they are read), or the reading worker's CPU time, wall time or
    memory. ``details`` names the budget and its value (``budget``, ``limit``)."""

    code = "file_over_budget"

    def default_message(self) -> str:
        return "Reading this file would take more than a file may take."


class UnsupportedMediaType(AfterhackError):
    """Raised when a file is of a kind that is not read at all (an image, an archive, an old
    Word file, a binary under a borrowed name): its bytes decide, not its name."""

    status = 415
    code = "unsupported_media_type"

    def default_message(self) -> str:
        return ("This kind of file is not read; send plain text, Markdown, HTML, PDF or "
                "DOCX.")


class Unauthorized(AfterhackError):
    """Raised when keys are required and none (or an unknown or revoked one) was sent."""

    status = 401
    code = "unauthorized"

    def default_message(self) -> str:
        return "A valid API key is required."


class Forbidden(AfterhackError):
    """Raised when a key's role does not allow the operation in its own workspace."""

    status = 403
    code = "forbidden"

    def default_message(self) -> str:
        return "This key's role does not allow that."


class Conflict(AfterhackError):
    status = 409
    code = "conflict"


class StaleRevision(Conflict):
    """Raised when a change carries a revision that is no longer the current one."""

    code = "stale_revision"

    def default_message(self) -> str:
        return "Someone changed this since you read it; read it again."


class StaleCorrectionPreview(Conflict):
    """Raised when the claim or its impact set changed between preview and apply."""

    code = "stale_correction_preview"

    def default_message(self) -> str:
        return "The claim or what depends on it changed since the preview; preview again."


class StaleErasurePreview(Conflict):
    """Raised when what an erasure would remove or repair changed between preview and
    apply."""

    code = "stale_erasure_preview"

    def default_message(self) -> str:
        return "What this erasure reaches changed since the preview; preview again."


class ErasureClosed(Conflict):
    """Raised when a request is applied or declined that is no longer waiting."""

    code = "erasure_closed"

    def default_message(self) -> str:
        return "This erasure request was already applied or declined."


class ClaimSuperseded(Conflict):
    """Raised when a correction targets a claim that is no longer current."""

    code = "claim_superseded"

    def default_message(self) -> str:
        return "This claim was already corrected."


class InvalidTransition(Conflict):
    """Raised when a status change is not allowed from the current status."""

    code = "invalid_transition"


class DecisionUnsupported(Conflict):
    """Raised when a decision would be put in good standing without current support."""

    code = "decision_unsupported"


class WorkspaceBusy(Conflict):
    code = "workspace_busy"


class RunClosed(Conflict):
    """Raised when a tool call or a proposal targets an agent run that already completed or
    failed: its evidence is sealed, so a new question needs a new run."""

    code = "agent_run_closed"

    def default_message(self) -> str:
        return "This agent run is already closed; start a new run."


class ConflictClosed(Conflict):
    """Raised when a resolution targets a conflict that was already resolved or dismissed
    in another way (the same resolution again is answered ``already_applied``)."""

    code = "conflict_closed"

    def default_message(self) -> str:
        return "This conflict was already resolved or dismissed."


class SourceKindMismatch(Conflict):
    """Raised when a source is asked to grow in a way its kind does not: messages appended
    to a document, or a document's text sent as a new version of a conversation."""

    code = "source_kind_mismatch"

    def default_message(self) -> str:
        return ("A conversation grows by its messages, a document by new versions of its "
                "text or file; this source is the other kind.")


class RateLimited(AfterhackError):
    status = 429
    code = "rate_limited"

    def default_message(self) -> str:
        return "Too many requests; retry later."


class StoreUnavailable(AfterhackError):
    """Raised when FalkorDB cannot be reached or is loading."""

    status = 503
    code = "graph_store_unavailable"

    def default_message(self) -> str:
        return "The graph store is unavailable; retry shortly."


class NotReplicated(StoreUnavailable):
    """Raised when a write was made on the primary but fewer replicas than
    AFTERHACK_WRITE_REPLICAS confirmed it in time: it stands, but would not survive losing
    that primary now. Read it back before sending it again."""

    code = "write_not_replicated"

    def default_message(self) -> str:
        return ("The change was made, but no replica confirmed it in time, so it is not yet "
                "safe from the loss of the primary. Read it back before retrying.")


class ReadersBusy(AfterhackError):
    """Raised when every file reader is busy and the line of uploads waiting for one is
    full, or an upload waited its turn too long; ``retry_after_s`` says when to try again."""

    status = 503
    code = "file_readers_busy"

    def default_message(self) -> str:
        return "Every file reader is busy; send the file again shortly."


class GatewayError(AfterhackError):
    status = 502
    code = "llm_gateway_error"
    # The model calls of the failing step, the failed one last, when the step made several
    # (a tool loop): set by the agent that caught it, so a failed run keeps its record.
    model_calls: list[ModelCall] | None = None


class GatewayUnavailable(GatewayError):
    """Raised when the model gateway refuses, fails, or keeps answering garbage."""

    code = "llm_gateway_unavailable"

    def default_message(self) -> str:
        return "The model gateway is unavailable."


class GatewayInvalidOutput(GatewayUnavailable):
    """Raised when the model still answers with something that is not a JSON object after
    one retry (or with JSON of the wrong shape)."""

    code = "llm_invalid_output"

    def default_message(self) -> str:
        return "The model did not answer with valid JSON."


class GatewayTimeout(GatewayError):
    """Raised when the model gateway does not answer in time."""

    status = 504
    code = "llm_gateway_timeout"

    def default_message(self) -> str:
        return "The model gateway did not answer in time."
