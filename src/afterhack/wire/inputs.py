"""Request bodies and the validation every user string goes through."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictFloat,
    StrictInt,
    StrictStr,
    model_validator,
)

from afterhack.errors import InvalidRequest
from afterhack.model.erasures import ErasureTarget
from afterhack.model.vocab import (
    ActionOp,
    CorrectionKind,
    DecisionOp,
    ErasureKind,
    ForgetRequests,
    KeyRole,
    UpdatesPolicy,
)


def _clean_text(value: str) -> str:
    # FalkorDB's parameter header cannot carry NUL, and lone surrogates cannot be encoded:
    # both are refused here so they never reach the store as a 500.
    if "\x00" in value:
        raise ValueError("must not contain NUL characters")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise ValueError("must be valid Unicode (no lone surrogates)") from None
    return value


def clean(field: str, value: str) -> str:
    """A string that did not come in a JSON body (a form field, a file's name), checked as
    every body string is: InvalidRequest naming the field otherwise."""
    try:
        return _clean_text(value)
    except ValueError as exc:
        raise InvalidRequest(f"{field}: {exc}.", field=field) from None


def _not_blank(value: str) -> str:
    if not value.strip():
        raise ValueError("is empty (or only spaces): there is nothing to keep")
    return value


Text = Annotated[str, AfterValidator(_clean_text)]
NonBlank = Annotated[str, AfterValidator(_clean_text), AfterValidator(_not_blank)]
Id = Annotated[str, Field(min_length=1, max_length=64), AfterValidator(_clean_text)]
# Strict: JSON's true is not the revision 1 (pydantic's lax mode reads it so), and a
# revision sent as "3" or 3.0 is a client's mistake, not a revision.
Revision = Annotated[StrictInt, Field(ge=0, le=2**53)]
Flag = StrictBool


class Body(BaseModel):
    """Every request body. Strict: each field takes exactly the JSON type it documents (a
    flag true or false, never 0 or "yes"; an integer never true, "3" or 3.0)."""

    model_config = ConfigDict(extra="forbid", strict=True, str_strip_whitespace=False)


class Reembed(Body):
    """``POST .../embeddings/reembed``: an empty object (what to do is in the path)."""


class WorkspaceCreate(Body):
    name: Annotated[NonBlank, Field(max_length=200)]


# A time as a request names it: ISO 8601 or epoch milliseconds (moments.parse_time).
TimeIn = (Annotated[StrictStr, Field(min_length=1, max_length=64)]
          | Annotated[StrictInt, Field(ge=0)])


class MessageIn(Body):
    """One message of a conversation: who said it, what, and when (without ``at``, when it
    was received)."""

    speaker: Annotated[NonBlank, Field(max_length=200)]
    text: NonBlank
    at: TimeIn | None = None


Messages = Annotated[list[MessageIn], Field(min_length=1, max_length=10_000)]


class SourceCreate(Body):
    """A document's ``text``, or a conversation's ``messages``: one or the other."""

    title: Annotated[NonBlank, Field(max_length=500)] | None = None
    text: NonBlank | None = None
    messages: Messages | None = None
    origin_type: Annotated[NonBlank, Field(max_length=50)] | None = None
    origin_name: Annotated[NonBlank, Field(max_length=500)] | None = None
    source_id: Id | None = None
    extract: Flag = True
    # Work out what adding it would do (claims, conflicts, what a new version retires,
    # flags and holds) and write nothing.
    preview: Flag = False

    @model_validator(mode="after")
    def _text_or_messages(self) -> SourceCreate:
        if (self.text is None) == (self.messages is None):
            raise ValueError("send either text (a document) or messages (a conversation)")
        if self.messages is not None and self.source_id is not None:
            raise ValueError("messages are appended to a conversation with "
                             "POST .../sources/{id}/messages, not with source_id")
        return self


class MessagesAppend(Body):
    """``POST .../sources/{id}/messages``: messages appended to a conversation."""

    messages: Messages
    extract: Flag = True
    preview: Flag = False


class WorkspaceChange(Body):
    """``PATCH /workspaces/{ws}``: how a newer statement by the same speaker is taken, and
    how a speaker's request to forget is (one of them, or both)."""

    updates: UpdatesPolicy | None = None
    forget_requests: ForgetRequests | None = None

    @model_validator(mode="after")
    def _something(self) -> WorkspaceChange:
        if self.updates is None and self.forget_requests is None:
            raise ValueError("send updates, forget_requests, or both")
        return self


class AgentRunCreate(Body):
    task: Annotated[NonBlank, Field(max_length=4000)]
    builds_on: Annotated[list[Id], Field(max_length=20)] = []
    # The time the task is about: its searches find only the claims valid then.
    as_of: TimeIn | None = None


class PremiseIn(Body):
    statement: Annotated[Text, Field(max_length=500)] | None = None
    claim_ids: Annotated[list[Id], Field(min_length=1, max_length=100)]


class DecisionReview(Body):
    op: DecisionOp
    revision: Revision
    claim_ids: Annotated[list[Id], Field(max_length=200)] | None = None
    premises: Annotated[list[PremiseIn], Field(max_length=20)] | None = None
    note: Annotated[Text, Field(max_length=2000)] | None = None


class ActionChange(Body):
    op: ActionOp
    revision: Revision


# The claims stating the corrected fact in other words that the reviewer leaves out of a
# correction (each must be one the preview listed as such).
Leave = Annotated[list[Id], Field(max_length=1000)]


class CorrectionPreviewIn(Body):
    statement: Annotated[Text, Field(max_length=4000)] | None = None
    kind: CorrectionKind = "replace"
    leave: Leave | None = None


class CorrectionApply(Body):
    statement: Annotated[Text, Field(max_length=4000)] | None = None
    kind: CorrectionKind = "replace"
    leave: Leave | None = None
    reason: Annotated[Text, Field(max_length=4000)] | None = None
    reviewer: Annotated[Text, Field(max_length=200)] | None = None
    claim_revision: Revision
    impact_token: Annotated[str, Field(min_length=1, max_length=200)]


# How many sides of one dismissal may be given a time each.
MAX_SIDES_TIMED = 100


class ConflictPreview(Body):
    keep: Id | None = None
    dismiss: Flag = False


class ValidTimeIn(Body):
    """When one side of a dismissed conflict holds: "each holds, at its own time"."""

    claim_id: Id
    valid_from: TimeIn | None = None
    valid_until: TimeIn | None = None


class ConflictResolve(Body):
    keep: Id | None = None
    dismiss: Flag = False
    # Only with dismiss: when each side holds (its statements' current claims take it).
    valid_times: Annotated[list[ValidTimeIn], Field(max_length=MAX_SIDES_TIMED)] | None = None
    reason: Annotated[Text, Field(max_length=4000)] | None = None
    reviewer: Annotated[Text, Field(max_length=200)] | None = None
    conflict_revision: Revision
    impact_token: Annotated[str, Field(min_length=1, max_length=200)]


# An erased string is looked for wherever it was written: at least this long, so it names
# something (rules/redaction.MIN_NEEDLE).
_ERASED_TEXT_MIN = 4


def _not_spaces(value: str) -> str:
    if not value.strip():
        raise ValueError("is only spaces: there is nothing to erase")
    return value


class ErasureTargetIn(Body):
    """What an erasure removes: exactly one of ``{source_id}``, ``{source_id,
    version_id}``, ``{source_id, message_index}``, ``{claim_id}``, ``{speaker}``, ``{text}``
    (an exact string of at least 4 characters) or ``{request_id}``."""

    source_id: Id | None = None
    version_id: Id | None = None
    message_index: Annotated[StrictInt, Field(ge=0, le=2**31)] | None = None
    claim_id: Id | None = None
    speaker: Annotated[NonBlank, Field(max_length=200)] | None = None
    text: Annotated[Text, Field(min_length=_ERASED_TEXT_MIN, max_length=4000),
                    AfterValidator(_not_spaces)] | None = None
    request_id: Id | None = None

    @model_validator(mode="after")
    def _one_kind(self) -> ErasureTargetIn:
        given = {k for k, v in self.model_dump().items() if v is not None}
        shapes = ({"source_id"}, {"source_id", "version_id"}, {"source_id", "message_index"},
                  {"claim_id"}, {"speaker"}, {"text"}, {"request_id"})
        if given not in shapes:
            raise ValueError(
                "name exactly one thing to erase: {source_id}, {source_id, version_id}, "
                "{source_id, message_index}, {claim_id}, {speaker}, {text} or {request_id}")
        return self

    def target(self) -> ErasureTarget:
        kind: ErasureKind = ("version" if self.version_id is not None
                else "message" if self.message_index is not None
                else "source" if self.source_id is not None
                else "claim" if self.claim_id is not None
                else "speaker" if self.speaker is not None
                else "text" if self.text is not None else "request")
        return {"kind": kind, "source_id": self.source_id, "version_id": self.version_id,
                "message_index": self.message_index, "claim_id": self.claim_id,
                "speaker": self.speaker, "text": self.text, "request_id": self.request_id}


class ErasurePreviewIn(Body):
    target: ErasureTargetIn


class ErasureApply(Body):
    target: ErasureTargetIn
    impact_token: Annotated[str, Field(min_length=1, max_length=200)]
    reason: Annotated[Text, Field(max_length=4000)] | None = None


class ErasureDecline(Body):
    reason: Annotated[Text, Field(max_length=4000)] | None = None


class KeyCreate(Body):
    role: KeyRole
    name: Annotated[NonBlank, Field(max_length=200)]


# A restore body is an export: property values are what FalkorDB stores (no maps, no nulls).
_Int64 = Annotated[StrictInt, Field(ge=-(2**63), le=2**63 - 1)]
_Float = Annotated[StrictFloat, Field(allow_inf_nan=False)]
Scalar = Annotated[StrictStr, AfterValidator(_clean_text)] | StrictBool | _Int64 | _Float
PropName = Annotated[str, Field(pattern=r"^[A-Za-z_][A-Za-z0-9_]{0,63}$")]
Properties = dict[PropName, Scalar | Annotated[list[Scalar], Field(max_length=100_000)]]


class RestoreNode(Body):
    labels: Annotated[list[Annotated[str, Field(max_length=64)]],
                      Field(min_length=1, max_length=1)]
    properties: Properties


class RestoreEdge(Body):
    type: Annotated[str, Field(max_length=64)]
    source: Id
    target: Id
    properties: Properties = {}


class RestoreWorkspace(BaseModel):
    model_config = ConfigDict(extra="ignore", strict=True)
    id: Id
    name: Annotated[Text, Field(max_length=200)] | None = None


class WorkspaceRestore(Body):
    format: Literal["afterhack-export/1"]
    workspace: RestoreWorkspace
    nodes: list[RestoreNode]
    edges: list[RestoreEdge]
