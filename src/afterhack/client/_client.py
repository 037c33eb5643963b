"""``Client`` and ``AsyncClient``: one method per endpoint of the HTTP API (docs/api.md),
each answering the record the API's route answers (the TypedDicts of afterhack.model and
afterhack.wire, shared with the server), checked as it arrives.

An endpoint is declared once, in ``_Endpoints``: its method builds the request and names
its route and the record it answers (``endpoint``). Read from a ``Client``, the method sends
the request and returns the record; read from an ``AsyncClient``, it returns an awaitable of
it. An answer is validated against its record on receipt (pydantic): a key the record does
not know is dropped, so a newer server's additions do not break an older client, and an
answer without a key the record needs raises UnexpectedAnswerError. Workspace methods use
the client's ``workspace`` unless a call passes ``workspace=``.
"""

from __future__ import annotations

import functools
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import IO, Any, Concatenate, Generic, ParamSpec, Self, TypeVar, overload
from urllib.parse import quote

import httpx
import pydantic

from afterhack.client._errors import ApiConnectionError, UnexpectedAnswerError, error_from_body
from afterhack.model.audit import AuditEntry
from afterhack.model.claims import ClaimSearch, ClaimView, FoundClaim
from afterhack.model.conflicts import AppliedResolution, ConflictRecord, ResolutionPreview
from afterhack.model.corrections import AppliedCorrection, Correction, CorrectionPreview
from afterhack.model.decisions import ActionRecord, DecisionRead, DecisionView
from afterhack.model.embeddings import EmbeddingProgress
from afterhack.model.erasures import AppliedErasure, ErasurePreview, ErasureRecord
from afterhack.model.graph import GraphView, Timeline
from afterhack.model.pages import (
    ActionList,
    AuditList,
    ConflictList,
    DecisionList,
    ErasureList,
    RunList,
    SourceList,
    WorkspaceList,
)
from afterhack.model.runs import RunSummary, RunView
from afterhack.model.sources import IngestResult, SameVersion, SourceRow, SourceView
from afterhack.model.vocab import (
    ActionOp,
    ConflictStatusFilter,
    CorrectionKind,
    DecisionOp,
    ErasureStatusFilter,
    ForgetRequests,
    GraphViewName,
    KeyRole,
    SearchMode,
    UpdatesPolicy,
)
from afterhack.model.workspaces import (
    ApiKeyRow,
    ExportDocument,
    NewApiKey,
    WorkspaceDeletion,
    WorkspaceRow,
)
from afterhack.wire.answers import ApiKeyList, Health, Pong, ProvExport

JSON = dict[str, Any]
P = ParamSpec("P")
T = TypeVar("T")
Page = TypeVar("Page", bound=Mapping[str, Any])
# A time the API takes: ISO 8601 or epoch milliseconds. ``as_of`` on a read: the read as
# the memory held it then (docs/rules.md, rule 10).
When = str | int

DEFAULT_URL = "http://127.0.0.1:8000"


def _seg(value: str) -> str:
    return quote(value, safe="")


def _body(**fields: Any) -> JSON:
    # Optional fields are left out rather than sent as null: the API forbids null where a
    # field has a default (origin_type, kind, ...).
    return {k: v for k, v in fields.items() if v is not None}


# A file to upload: its name, its bytes (or a binary file to read them from, whose position
# tells how much was sent) and (optionally) the media type it is sent as.
Upload = tuple[str, bytes | IO[bytes]] | tuple[str, bytes | IO[bytes], str]


@dataclass(frozen=True)
class Request:
    """One request to the API (its path under ``/api``): a JSON body, or a form with files
    (multipart)."""

    method: str
    path: str
    params: Mapping[str, Any] | None = None
    json: JSON | None = None
    files: Mapping[str, Upload] | None = None
    data: Mapping[str, str] | None = None


class Answer(Generic[T]):
    """The record an endpoint answers (a TypedDict, a union of them, or None for a route
    that answers nothing), read from a response's body. Its validator is built on first
    use: a client that calls few endpoints builds few."""

    def __init__(self, record: Any) -> None:
        self.record = record
        self._adapter: pydantic.TypeAdapter[T] | None = None

    def read(self, route: str, status: int, content: bytes) -> T:
        """The body as the record; UnexpectedAnswerError when it is not one."""
        if self._adapter is None:
            self._adapter = pydantic.TypeAdapter(self.record)
        try:
            return self._adapter.validate_json(content or b"null")
        except pydantic.ValidationError as exc:
            raise UnexpectedAnswerError(
                status, "unexpected_answer",
                f"The answer to {route} is not the record it answers: "
                f"{exc.error_count()} error(s).",
                {"errors": exc.errors(include_url=False, include_input=False)[:10]},
            ) from None


class Raw(Answer[bytes]):
    """The body as it came, for a route that answers a file rather than a record."""

    def __init__(self) -> None:
        super().__init__(None)

    def read(self, route: str, status: int, content: bytes) -> bytes:
        return content


# Both export formats are one route's answer: its response model is their union.
_EXPORT = ExportDocument | ProvExport


class endpoint(Generic[P, T]):
    """An endpoint method of the clients: ``build`` makes its request; read from a client,
    it sends the request and reads the answer (``answer``). ``route`` is the route's method
    and path as the API declares it."""

    def __init__(self, route: str, answer: Answer[T],
                 build: Callable[Concatenate[Any, P], Request]) -> None:
        self.route = route
        self.answer = answer
        self.build = build
        self.__doc__ = build.__doc__
        self.__name__ = build.__name__

    def read(self, status: int, content: bytes) -> T:
        return self.answer.read(self.route, status, content)

    @overload
    def __get__(self, client: None, owner: type[Any]) -> Self: ...

    @overload
    def __get__(self, client: Client, owner: type[Any]) -> Callable[P, T]: ...

    @overload
    def __get__(self, client: AsyncClient, owner: type[Any]) -> Callable[P, Awaitable[T]]: ...

    def __get__(self, client: _Endpoints | None, owner: type[Any]) -> Any:
        if client is None:
            return self
        build = self.build

        @functools.wraps(build)
        def call(*args: P.args, **kwargs: P.kwargs) -> Any:
            return client._send(build(client, *args, **kwargs), self)

        return call


@overload
def route(method_path: str, answer: type[T]
          ) -> Callable[[Callable[Concatenate[Any, P], Request]], endpoint[P, T]]: ...


@overload
def route(method_path: str, answer: Answer[T]
          ) -> Callable[[Callable[Concatenate[Any, P], Request]], endpoint[P, T]]: ...


def route(method_path: str, answer: Any
          ) -> Callable[[Callable[Concatenate[Any, P], Request]], endpoint[P, Any]]:
    """Declares an endpoint method (see ``endpoint``): the route's method and path, and the
    record it answers (an ``Answer`` of it where the record is not a class: a union, or
    None)."""
    read = answer if isinstance(answer, Answer) else Answer[Any](answer)

    def declare(build: Callable[Concatenate[Any, P], Request]) -> endpoint[P, Any]:
        return endpoint(method_path, read, build)
    return declare


class _Endpoints:
    workspace: str | None

    def _send(self, request: Request, answer: endpoint[Any, T]) -> Any:
        raise NotImplementedError

    def _ws(self, workspace: str | None) -> str:
        ws = workspace or self.workspace
        if not ws:
            raise ValueError("No workspace: pass workspace= or create the client with one.")
        return f"/workspaces/{_seg(ws)}"

    # Health and workspaces

    @route("GET /health", Health)
    def health(self) -> Request:
        return Request("GET", "/health")

    @route("GET /ping", Pong)
    def ping(self) -> Request:
        """The app answers (liveness alone: FalkorDB is not asked)."""
        return Request("GET", "/ping")

    @route("POST /workspaces", WorkspaceRow)
    def create_workspace(self, name: str) -> Request:
        return Request("POST", "/workspaces", json={"name": name})

    @route("GET /workspaces", WorkspaceList)
    def list_workspaces(self, *, limit: int = 100, offset: int = 0,
                        cursor: str | None = None) -> Request:
        """A page of workspaces: ``items``, ``next_cursor`` (pass it as ``cursor`` for the
        next page; None on the last) and ``total``. ``pages`` walks them all."""
        return Request("GET", "/workspaces",
                       params=_body(limit=limit, offset=offset or None, cursor=cursor))

    @route("GET /workspaces/{ws}", WorkspaceRow)
    def get_workspace(self, *, workspace: str | None = None) -> Request:
        return Request("GET", self._ws(workspace))

    @route("DELETE /workspaces/{ws}", WorkspaceDeletion)
    def delete_workspace(self, *, wait_for_disk: bool = False,
                         workspace: str | None = None) -> Request:
        """Delete the workspace and everything in it; its keys are revoked (admin). The
        answer's ``disk`` is ``pending`` until FalkorDB's files no longer hold it, then
        ``clean``; ``wait_for_disk``: answer only then (or after the server's wait, pending)."""
        return Request("DELETE", self._ws(workspace),
                       params=_body(wait="disk" if wait_for_disk else None))

    @route("GET /workspaces/{ws}/deletion", WorkspaceDeletion)
    def workspace_deletion(self, *, workspace: str | None = None) -> Request:
        """What is kept of a deleted workspace: when, and whether the disk is clean yet."""
        return Request("GET", self._ws(workspace) + "/deletion")

    @route("PATCH /workspaces/{ws}", WorkspaceRow)
    def set_updates(self, updates: UpdatesPolicy, *, workspace: str | None = None) -> Request:
        """How the workspace takes a newer statement by the same speaker: ``review`` (a
        conflict for a reviewer) or ``latest_wins`` (it supersedes the older at once)."""
        return Request("PATCH", self._ws(workspace), json={"updates": updates})

    # Keys, export and restore (admin)

    @route("POST /workspaces/{ws}/keys", NewApiKey)
    def create_key(self, role: KeyRole, name: str, *, workspace: str | None = None) -> Request:
        """A new key of the workspace; the secret is in ``key``, shown this once."""
        return Request("POST", self._ws(workspace) + "/keys", json={"role": role, "name": name})

    @route("GET /workspaces/{ws}/keys", ApiKeyList)
    def list_keys(self, *, workspace: str | None = None) -> Request:
        """The workspace's keys (never the secrets), revoked ones with ``revoked_at``: one
        page holds them all."""
        return Request("GET", self._ws(workspace) + "/keys")

    @route("DELETE /workspaces/{ws}/keys/{key_id}", ApiKeyRow)
    def revoke_key(self, key_id: str, *, workspace: str | None = None) -> Request:
        return Request("DELETE", f"{self._ws(workspace)}/keys/{_seg(key_id)}")

    @route("GET /workspaces/{ws}/export", Answer[ExportDocument](_EXPORT))
    def export_workspace(self, *, workspace: str | None = None) -> Request:
        """Every node and edge of the workspace (``afterhack-export/1``): what
        ``restore_workspace`` takes."""
        return Request("GET", self._ws(workspace) + "/export", params={"format": "json"})

    @route("GET /workspaces/{ws}/export", Answer[ProvExport](_EXPORT))
    def export_prov(self, *, workspace: str | None = None) -> Request:
        """The provenance chain as a W3C PROV-JSON document."""
        return Request("GET", self._ws(workspace) + "/export", params={"format": "prov"})

    @route("POST /workspaces/restore", WorkspaceRow)
    def restore_workspace(self, export: Mapping[str, Any]) -> Request:
        """An exported workspace made again under its own id (ConflictError
        ``workspace_exists`` while it is there)."""
        return Request("POST", "/workspaces/restore", json=dict(export))

    @route("PATCH /workspaces/{ws}", WorkspaceRow)
    def set_forget_requests(self, forget_requests: ForgetRequests, *,
                            workspace: str | None = None) -> Request:
        """How a speaker's request to forget is taken: ``review`` (it waits for a reviewer,
        its claims withheld meanwhile) or ``apply`` (erased at once)."""
        return Request("PATCH", self._ws(workspace), json={"forget_requests": forget_requests})

    # Erasures

    @route("POST /workspaces/{ws}/erasures/preview", ErasurePreview)
    def preview_erasure(self, *, source_id: str | None = None, version_id: str | None = None,
                        message_index: int | None = None, claim_id: str | None = None,
                        speaker: str | None = None, text: str | None = None,
                        request_id: str | None = None,
                        workspace: str | None = None) -> Request:
        """What erasing the target would remove and repair, with the ``impact_token`` that
        ``apply_erasure`` sends back. The target is one of: ``source_id`` (with
        ``version_id`` or ``message_index``, or alone), ``claim_id``, ``speaker``, ``text``
        (an exact string) or ``request_id`` (a speaker's request to forget)."""
        return Request("POST", self._ws(workspace) + "/erasures/preview", json={
            "target": _body(source_id=source_id, version_id=version_id,
                            message_index=message_index, claim_id=claim_id, speaker=speaker,
                            text=text, request_id=request_id)})

    @route("POST /workspaces/{ws}/erasures", AppliedErasure)
    def apply_erasure(self, *, impact_token: str, source_id: str | None = None,
                      version_id: str | None = None, message_index: int | None = None,
                      claim_id: str | None = None, speaker: str | None = None,
                      text: str | None = None, request_id: str | None = None,
                      reason: str | None = None, wait_for_disk: bool = False,
                      workspace: str | None = None) -> Request:
        """Apply the erasure its preview showed (the same target and the preview's
        ``impact_token``); StaleErasurePreviewError when anything it reads changed since.
        ``status`` is applied / already_applied; with ``wait_for_disk``, the answer comes
        once FalkorDB's files no longer hold the words (``erasure.disk``)."""
        return Request("POST", self._ws(workspace) + "/erasures",
                       params={"wait": "disk"} if wait_for_disk else None, json=_body(
                           target=_body(source_id=source_id, version_id=version_id,
                                        message_index=message_index, claim_id=claim_id,
                                        speaker=speaker, text=text, request_id=request_id),
                           impact_token=impact_token, reason=reason))

    @route("GET /workspaces/{ws}/erasures", ErasureList)
    def list_erasures(self, *, status: ErasureStatusFilter | None = None, limit: int = 50,
                      cursor: str | None = None, workspace: str | None = None) -> Request:
        """A page of erasures and speakers' requests, newest first (``next_cursor``,
        ``total``: see list_workspaces)."""
        return Request("GET", self._ws(workspace) + "/erasures",
                       params=_body(status=status, limit=limit, cursor=cursor))

    @route("GET /workspaces/{ws}/erasures/{erasure_id}", ErasureRecord)
    def get_erasure(self, erasure_id: str, *, workspace: str | None = None) -> Request:
        return Request("GET", f"{self._ws(workspace)}/erasures/{_seg(erasure_id)}")

    @route("POST /workspaces/{ws}/erasures/{erasure_id}/decline", ErasureRecord)
    def decline_erasure(self, erasure_id: str, *, reason: str | None = None,
                        workspace: str | None = None) -> Request:
        """A speaker's request to forget declined: what it withheld stands again."""
        return Request("POST", f"{self._ws(workspace)}/erasures/{_seg(erasure_id)}/decline",
                       json=_body(reason=reason))

    @route("GET /workspaces/{ws}/audit", AuditList)
    def audit(self, *, limit: int = 100, before: int | None = None, cursor: str | None = None,
              workspace: str | None = None) -> Request:
        """A page of the audit trail, newest first (those before ``before``, epoch ms, when
        given; ``next_cursor``, ``total``: see list_workspaces)."""
        return Request("GET", self._ws(workspace) + "/audit",
                       params=_body(limit=limit, before=before, cursor=cursor))

    # Sources

    @route("POST /workspaces/{ws}/sources", Answer[IngestResult](IngestResult))
    def add_source(self, text: str, *, title: str | None = None,
                   origin_type: str | None = None, origin_name: str | None = None,
                   source_id: str | None = None, extract: bool = True,
                   preview: bool = False, workspace: str | None = None) -> Request:
        """Add a source (or, with ``source_id``, a new version of one). The answer lists the
        conflicts it raised and what a new version retired, flagged and held; with
        ``preview``, what it would do, and nothing is written."""
        return Request("POST", self._ws(workspace) + "/sources", json=_body(
            text=text, title=title, origin_type=origin_type, origin_name=origin_name,
            source_id=source_id, extract=extract, preview=preview or None))

    @route("POST /workspaces/{ws}/sources", Answer[IngestResult](IngestResult))
    def add_conversation(self, messages: Sequence[Mapping[str, Any]], *,
                         title: str | None = None, extract: bool = True,
                         preview: bool = False, workspace: str | None = None) -> Request:
        """A conversation: ``messages`` are ``{speaker, text, at?}`` (``at``: ISO 8601 or
        epoch ms; without it, the time the server receives it). Claims quote their message
        and carry ``said_by`` and ``said_at``."""
        return Request("POST", self._ws(workspace) + "/sources", json=_body(
            title=title, messages=[dict(m) for m in messages], extract=extract,
            preview=preview or None))

    @route("POST /workspaces/{ws}/sources/{source_id}/messages",
           Answer[IngestResult](IngestResult))
    def append_messages(self, source_id: str, messages: Sequence[Mapping[str, Any]], *,
                        extract: bool = True, preview: bool = False,
                        workspace: str | None = None) -> Request:
        """Messages appended to a conversation: a version of them alone, the only ones
        read. The answer lists the conflicts they raised (each says which side is newer and
        whether one speaker said both) and, under latest_wins, what they superseded."""
        return Request(
            "POST", f"{self._ws(workspace)}/sources/{_seg(source_id)}/messages",
            json=_body(messages=[dict(m) for m in messages], extract=extract,
                       preview=preview or None))

    @route("POST /workspaces/{ws}/sources/files", Answer[IngestResult](IngestResult))
    def add_file(self, data: bytes | IO[bytes], filename: str, *,
                 content_type: str | None = None,
                 title: str | None = None, source_id: str | None = None,
                 extract: bool = True, workspace: str | None = None) -> Request:
        """A file (plain text, Markdown, HTML, PDF or DOCX) read to text; its original is
        kept. ``source_id`` makes it a new version of that source. A kind that is not read
        raises UnsupportedMediaTypeError (415), one that cannot be read ApiError 422."""
        upload: Upload = ((filename, data) if content_type is None
                          else (filename, data, content_type))
        form = _body(title=title, source_id=source_id, extract=None if extract else "false")
        return Request("POST", self._ws(workspace) + "/sources/files",
                       files={"file": upload}, data=form)

    @route("GET /workspaces/{ws}/sources/{source_id}/versions/{version_id}/file", Raw())
    def get_file(self, source_id: str, version_id: str, *,
                 workspace: str | None = None) -> Request:
        """The original bytes a file source's version was read from (``version_id``: the
        version's ``id`` in ``get_source``)."""
        return Request("GET", f"{self._ws(workspace)}/sources/{_seg(source_id)}/versions/"
                              f"{_seg(version_id)}/file")

    @route("GET /workspaces/{ws}/sources", SourceList)
    def list_sources(self, *, limit: int = 100, offset: int = 0, cursor: str | None = None,
                     workspace: str | None = None) -> Request:
        """A page of sources, oldest first (``next_cursor``, ``total``: see list_workspaces)."""
        return Request("GET", self._ws(workspace) + "/sources",
                       params=_body(limit=limit, offset=offset or None, cursor=cursor))

    @route("GET /workspaces/{ws}/sources/{source_id}", SourceView)
    def get_source(self, source_id: str, *, workspace: str | None = None) -> Request:
        return Request("GET", f"{self._ws(workspace)}/sources/{_seg(source_id)}")

    @route("POST /workspaces/{ws}/sources/{source_id}/extract", SameVersion)
    def extract_source(self, source_id: str, *, workspace: str | None = None) -> Request:
        """Re-run extraction on the latest version's failed or skipped fragments."""
        return Request("POST", f"{self._ws(workspace)}/sources/{_seg(source_id)}/extract")

    # Claims

    @route("GET /workspaces/{ws}/claims", ClaimSearch)
    def search_claims(self, q: str | None = None, *, status: Sequence[str] | None = None,
                      limit: int = 20, offset: int = 0,
                      mode: SearchMode | None = None, as_of: When | None = None,
                      neighbours: bool | None = None, cursor: str | None = None,
                      workspace: str | None = None) -> Request:
        """Without ``q``, a page of claims oldest first with ``total``; with ``q``, a page of
        the ranking (``total`` None). ``next_cursor`` asks for the next page of the same
        search: keep ``q``, ``status``, ``mode`` and ``as_of`` unchanged. ``neighbours``
        False leaves out the claims quoted just before and after the first hits."""
        params = _body(q=q, limit=limit, offset=offset or None, mode=mode,
                       status=",".join(status) if status else None, as_of=as_of,
                       neighbours=None if neighbours is None else str(neighbours).lower(),
                       cursor=cursor)
        return Request("GET", self._ws(workspace) + "/claims", params=params)

    # Embeddings

    @route("GET /workspaces/{ws}/embeddings", EmbeddingProgress)
    def embedding_progress(self, *, workspace: str | None = None) -> Request:
        """The workspace's vectors: their model and dimension, how many claims still wait."""
        return Request("GET", self._ws(workspace) + "/embeddings")

    @route("POST /workspaces/{ws}/embeddings/reembed", EmbeddingProgress)
    def reembed(self, *, workspace: str | None = None) -> Request:
        """Drop every vector and embed all claims again with the server's model."""
        return Request("POST", self._ws(workspace) + "/embeddings/reembed", json={})

    @route("GET /workspaces/{ws}/claims/{claim_id}", ClaimView)
    def get_claim(self, claim_id: str, *, as_of: When | None = None,
                  workspace: str | None = None) -> Request:
        return Request("GET", f"{self._ws(workspace)}/claims/{_seg(claim_id)}",
                       params=_body(as_of=as_of))

    # Agent runs

    @route("POST /workspaces/{ws}/agent-runs", RunView)
    def run_agent(self, task: str, *, builds_on: Sequence[str] | None = None,
                  as_of: When | None = None, workspace: str | None = None) -> Request:
        """Run the agent; with ``as_of`` (the time the task is about), it searches only the
        claims valid then."""
        return Request("POST", self._ws(workspace) + "/agent-runs",
                       json=_body(task=task, builds_on=list(builds_on or []), as_of=as_of))

    @route("GET /workspaces/{ws}/agent-runs", RunList)
    def list_runs(self, *, limit: int = 50, offset: int = 0, cursor: str | None = None,
                  workspace: str | None = None) -> Request:
        """A page of runs, newest first (``next_cursor``, ``total``: see list_workspaces)."""
        return Request("GET", self._ws(workspace) + "/agent-runs",
                       params=_body(limit=limit, offset=offset or None, cursor=cursor))

    @route("GET /workspaces/{ws}/agent-runs/{run_id}", RunView)
    def get_run(self, run_id: str, *, workspace: str | None = None) -> Request:
        return Request("GET", f"{self._ws(workspace)}/agent-runs/{_seg(run_id)}")

    # Decisions and actions

    @route("GET /workspaces/{ws}/decisions", DecisionList)
    def list_decisions(self, *, status: Sequence[str] | None = None, limit: int = 100,
                       offset: int = 0, cursor: str | None = None,
                       workspace: str | None = None) -> Request:
        """A page of decisions, newest first (``next_cursor``, ``total``: see
        list_workspaces)."""
        params: dict[str, Any] = _body(limit=limit, offset=offset or None, cursor=cursor)
        if status:
            params["status"] = list(status)
        return Request("GET", self._ws(workspace) + "/decisions", params=params)

    @route("GET /workspaces/{ws}/decisions/{decision_id}", DecisionRead)
    def get_decision(self, decision_id: str, *, as_of: When | None = None,
                     workspace: str | None = None) -> Request:
        """The decision with ``support``: what it rested on when it was made and what holds
        it up now (or at ``as_of``)."""
        return Request("GET", f"{self._ws(workspace)}/decisions/{_seg(decision_id)}",
                       params=_body(as_of=as_of))

    @route("PATCH /workspaces/{ws}/decisions/{decision_id}", DecisionView)
    def review_decision(self, decision_id: str, op: DecisionOp, *, revision: int,
                        claim_ids: Sequence[str] | None = None,
                        premises: Sequence[Mapping[str, Any]] | None = None,
                        note: str | None = None, workspace: str | None = None) -> Request:
        return Request(
            "PATCH", f"{self._ws(workspace)}/decisions/{_seg(decision_id)}", json=_body(
                op=op, revision=revision, claim_ids=list(claim_ids) if claim_ids else None,
                premises=[dict(p) for p in premises] if premises else None, note=note))

    @route("GET /workspaces/{ws}/actions", ActionList)
    def list_actions(self, *, status: Sequence[str] | None = None, limit: int = 100,
                     cursor: str | None = None, workspace: str | None = None) -> Request:
        """A page of actions, newest first (``next_cursor``, ``total``: see
        list_workspaces)."""
        params: dict[str, Any] = _body(limit=limit, cursor=cursor)
        if status:
            params["status"] = list(status)
        return Request("GET", self._ws(workspace) + "/actions", params=params)

    @route("GET /workspaces/{ws}/actions/{action_id}", ActionRecord)
    def get_action(self, action_id: str, *, as_of: When | None = None,
                   workspace: str | None = None) -> Request:
        return Request("GET", f"{self._ws(workspace)}/actions/{_seg(action_id)}",
                       params=_body(as_of=as_of))

    @route("PATCH /workspaces/{ws}/actions/{action_id}", ActionRecord)
    def change_action(self, action_id: str, op: ActionOp, *, revision: int,
                      workspace: str | None = None) -> Request:
        return Request("PATCH", f"{self._ws(workspace)}/actions/{_seg(action_id)}",
                       json={"op": op, "revision": revision})

    # Corrections

    @route("POST /workspaces/{ws}/claims/{claim_id}/corrections/preview", CorrectionPreview)
    def preview_correction(self, claim_id: str, statement: str | None = None, *,
                           kind: CorrectionKind = "replace",
                           leave: Sequence[str] | None = None,
                           workspace: str | None = None) -> Request:
        """What correcting the claim would do; ``also_states_this`` lists the claims that
        state the same (copies, and the same fact in other words: ``leave`` names those to
        leave out)."""
        return Request(
            "POST", f"{self._ws(workspace)}/claims/{_seg(claim_id)}/corrections/preview",
            json=_body(statement=statement, kind=kind, leave=list(leave) if leave else None))

    @route("POST /workspaces/{ws}/claims/{claim_id}/corrections", AppliedCorrection)
    def apply_correction(self, claim_id: str, statement: str | None = None, *,
                         claim_revision: int, impact_token: str,
                         kind: CorrectionKind = "replace", reason: str | None = None,
                         reviewer: str | None = None, leave: Sequence[str] | None = None,
                         workspace: str | None = None) -> Request:
        """Apply with the revisions a preview returned; StaleCorrectionPreviewError when the
        claim or what depends on it changed since. ``status`` is applied / already_applied.
        ``leave``: claims the preview listed in other words, left out (each then stands in
        an open conflict with the replacement)."""
        return Request(
            "POST", f"{self._ws(workspace)}/claims/{_seg(claim_id)}/corrections",
            json=_body(statement=statement, kind=kind, reason=reason, reviewer=reviewer,
                       claim_revision=claim_revision, impact_token=impact_token,
                       leave=list(leave) if leave else None))

    @route("POST /workspaces/{ws}/claims/{claim_id}/corrections", AppliedCorrection)
    def apply_preview(self, preview: Mapping[str, Any], *, reason: str | None = None,
                      reviewer: str | None = None, workspace: str | None = None) -> Request:
        """Apply exactly what a ``preview_correction`` answer showed, with its revisions and
        the claims it shows left out."""
        revisions = preview["revisions"]
        return _Endpoints.apply_correction.build(
            self, preview["claim"]["id"], preview.get("statement"),
            claim_revision=revisions["claim_revision"], impact_token=revisions["impact_token"],
            kind=preview.get("kind") or "replace", reason=reason, reviewer=reviewer,
            leave=[a["claim_id"] for a in preview.get("also_states_this") or []
                   if a.get("left_out")], workspace=workspace)

    @route("GET /workspaces/{ws}/corrections/{correction_id}", Correction)
    def get_correction(self, correction_id: str, *, workspace: str | None = None) -> Request:
        return Request("GET", f"{self._ws(workspace)}/corrections/{_seg(correction_id)}")

    # Conflicts

    @route("GET /workspaces/{ws}/conflicts", ConflictList)
    def list_conflicts(self, *, status: ConflictStatusFilter | None = "open",
                       limit: int = 100, offset: int = 0, cursor: str | None = None,
                       as_of: When | None = None, workspace: str | None = None) -> Request:
        """A page of conflicts, newest first, each a dispute over one fact: its ``sides``,
        one per value (the newest first), each with its claims, their quotes, sources and
        dates (``next_cursor``, ``total``: see list_workspaces; ``total`` is None with
        ``as_of``)."""
        return Request("GET", self._ws(workspace) + "/conflicts",
                       params=_body(status=status, limit=limit, offset=offset or None,
                                    cursor=cursor, as_of=as_of))

    @route("GET /workspaces/{ws}/conflicts/{conflict_id}", ConflictRecord)
    def get_conflict(self, conflict_id: str, *, as_of: When | None = None,
                     workspace: str | None = None) -> Request:
        return Request("GET", f"{self._ws(workspace)}/conflicts/{_seg(conflict_id)}",
                       params=_body(as_of=as_of))

    @route("POST /workspaces/{ws}/conflicts/{conflict_id}/preview", ResolutionPreview)
    def preview_conflict_resolution(self, conflict_id: str, *, keep: str | None = None,
                                    dismiss: bool = False,
                                    workspace: str | None = None) -> Request:
        """What keeping one side (``keep``: a claim id) or dismissing would do, shaped like a
        correction preview, with the revisions ``resolve_conflict`` must send back."""
        return Request("POST", f"{self._ws(workspace)}/conflicts/{_seg(conflict_id)}/preview",
                       json=_body(keep=keep, dismiss=dismiss or None))

    @route("POST /workspaces/{ws}/conflicts/{conflict_id}/resolve", AppliedResolution)
    def resolve_conflict(self, conflict_id: str, *, conflict_revision: int, impact_token: str,
                         keep: str | None = None, dismiss: bool = False,
                         reason: str | None = None, reviewer: str | None = None,
                         valid_times: Sequence[Mapping[str, Any]] | None = None,
                         workspace: str | None = None) -> Request:
        """Apply a resolution with the revisions its preview returned; status applied or
        already_applied; StaleCorrectionPreviewError when anything it reads changed since.
        ``valid_times`` (with dismiss: both hold, at different times): one
        ``{claim_id, valid_from?, valid_until?}`` per side."""
        return Request("POST", f"{self._ws(workspace)}/conflicts/{_seg(conflict_id)}/resolve",
                       json=_body(keep=keep, dismiss=dismiss or None, reason=reason,
                                  reviewer=reviewer, conflict_revision=conflict_revision,
                                  impact_token=impact_token,
                                  valid_times=[dict(v) for v in valid_times]
                                  if valid_times else None))

    @route("POST /workspaces/{ws}/conflicts/{conflict_id}/resolve", AppliedResolution)
    def apply_resolution(self, preview: Mapping[str, Any], *, reason: str | None = None,
                         reviewer: str | None = None,
                         valid_times: Sequence[Mapping[str, Any]] | None = None,
                         workspace: str | None = None) -> Request:
        """Apply exactly what a ``preview_conflict_resolution`` answer showed."""
        revisions = preview["revisions"]
        return _Endpoints.resolve_conflict.build(
            self, preview["conflict"]["id"], keep=preview.get("keep"),
            dismiss=preview.get("resolution") == "dismiss",
            conflict_revision=revisions["conflict_revision"],
            impact_token=revisions["impact_token"], reason=reason, reviewer=reviewer,
            valid_times=valid_times, workspace=workspace)

    # Graph

    @route("GET /workspaces/{ws}/graph", GraphView)
    def graph(self, *, view: GraphViewName = "product", limit: int | None = None,
              as_of: When | None = None, workspace: str | None = None) -> Request:
        return Request("GET", self._ws(workspace) + "/graph",
                       params=_body(view=view, limit=limit, as_of=as_of))

    @route("GET /workspaces/{ws}/timeline", Timeline)
    def timeline(self, *, limit: int | None = None, workspace: str | None = None) -> Request:
        """The events a time control marks (sources, runs, corrections, conflicts), oldest
        first, and the server's time now."""
        return Request("GET", self._ws(workspace) + "/timeline", params=_body(limit=limit))


def _headers(key: str | None) -> dict[str, str]:
    headers = {"accept": "application/json", "user-agent": "afterhack-client/0.1"}
    if key:
        headers["authorization"] = f"Bearer {key}"
    return headers


def _answer(response: httpx.Response, answer: endpoint[Any, T]) -> T:
    if response.is_error:
        try:
            body = response.json()
        except ValueError:
            body = None
        raise error_from_body(response.status_code, body)
    # A route that answers nothing (204) reads as None.
    return answer.read(response.status_code, response.content)


def _unreachable(base_url: str, exc: httpx.TransportError) -> ApiConnectionError:
    return ApiConnectionError(0, "connection_failed",
                              f"Cannot reach afterhack at {base_url}: {exc}")


def _next_cursor(page: Mapping[str, Any]) -> str | None:
    cursor = page.get("next_cursor")
    return cursor if isinstance(cursor, str) and cursor else None


class Client(_Endpoints):
    """Synchronous client. ``with Client(url, key=..., workspace=...) as c: c.get_claim(id)``."""

    def __init__(self, base_url: str = DEFAULT_URL, *, key: str | None = None,
                 workspace: str | None = None, timeout: float = 120.0,
                 transport: httpx.BaseTransport | None = None) -> None:
        self.base_url = base_url.rstrip("/")
        self.workspace = workspace
        self._http = httpx.Client(base_url=self.base_url + "/api", headers=_headers(key),
                                  timeout=timeout, transport=transport)

    def _send(self, request: Request, answer: endpoint[Any, T]) -> T:
        try:
            response = self._http.request(request.method, request.path, params=request.params,
                                          json=request.json, files=request.files,
                                          data=request.data)
        except httpx.TransportError as exc:
            raise _unreachable(self.base_url, exc) from exc
        return _answer(response, answer)

    def pages(self, list_page: Callable[..., Page], /, **params: Any) -> Iterator[Page]:
        """Every page of a list, following ``next_cursor``: ``list_page`` is one of the
        ``list_*`` methods or ``search_claims``, ``params`` its arguments (not ``cursor``).

            for page in c.pages(c.list_sources, limit=200):
                for source in page["items"]: ...
        """
        # The first page is asked for without a cursor, so a list that is one page
        # (list_keys) walks the same way.
        page = list_page(**params)
        while True:
            yield page
            cursor = _next_cursor(page)
            if cursor is None:
                return
            page = list_page(**params, cursor=cursor)

    @overload
    def items(self, list_page: Callable[..., WorkspaceList], /,
              **params: Any) -> Iterator[WorkspaceRow]: ...

    @overload
    def items(self, list_page: Callable[..., SourceList], /,
              **params: Any) -> Iterator[SourceRow]: ...

    @overload
    def items(self, list_page: Callable[..., RunList], /,
              **params: Any) -> Iterator[RunSummary]: ...

    @overload
    def items(self, list_page: Callable[..., DecisionList], /,
              **params: Any) -> Iterator[DecisionView]: ...

    @overload
    def items(self, list_page: Callable[..., ClaimSearch], /,
              **params: Any) -> Iterator[FoundClaim]: ...

    @overload
    def items(self, list_page: Callable[..., ActionList], /,
              **params: Any) -> Iterator[ActionRecord]: ...

    @overload
    def items(self, list_page: Callable[..., ConflictList], /,
              **params: Any) -> Iterator[ConflictRecord]: ...

    @overload
    def items(self, list_page: Callable[..., AuditList], /,
              **params: Any) -> Iterator[AuditEntry]: ...

    @overload
    def items(self, list_page: Callable[..., ApiKeyList], /,
              **params: Any) -> Iterator[ApiKeyRow]: ...

    @overload
    def items(self, list_page: Callable[..., ErasureList], /,
              **params: Any) -> Iterator[ErasureRecord]: ...

    @overload
    def items(self, list_page: Callable[..., Mapping[str, Any]], /,
              **params: Any) -> Iterator[Any]: ...

    def items(self, list_page: Callable[..., Mapping[str, Any]], /,
              **params: Any) -> Iterator[Any]:
        """Every item of a list, page after page (see ``pages``)."""
        for page in self.pages(list_page, **params):
            yield from page["items"]

    def close(self) -> None:
        self._http.close()

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class AsyncClient(_Endpoints):
    """Asynchronous client: the same methods, each awaited."""

    def __init__(self, base_url: str = DEFAULT_URL, *, key: str | None = None,
                 workspace: str | None = None, timeout: float = 120.0,
                 transport: httpx.AsyncBaseTransport | None = None) -> None:
        self.base_url = base_url.rstrip("/")
        self.workspace = workspace
        self._http = httpx.AsyncClient(base_url=self.base_url + "/api", headers=_headers(key),
                                       timeout=timeout, transport=transport)

    async def _send(self, request: Request, answer: endpoint[Any, T]) -> T:
        try:
            response = await self._http.request(request.method, request.path,
                                                params=request.params, json=request.json,
                                                files=request.files, data=request.data)
        except httpx.TransportError as exc:
            raise _unreachable(self.base_url, exc) from exc
        return _answer(response, answer)

    async def pages(self, list_page: Callable[..., Awaitable[Page]], /,
                    **params: Any) -> AsyncIterator[Page]:
        """Every page of a list, following ``next_cursor`` (see ``Client.pages``)."""
        page = await list_page(**params)
        while True:
            yield page
            cursor = _next_cursor(page)
            if cursor is None:
                return
            page = await list_page(**params, cursor=cursor)

    @overload
    def items(self, list_page: Callable[..., Awaitable[WorkspaceList]], /,
              **params: Any) -> AsyncIterator[WorkspaceRow]: ...

    @overload
    def items(self, list_page: Callable[..., Awaitable[SourceList]], /,
              **params: Any) -> AsyncIterator[SourceRow]: ...

    @overload
    def items(self, list_page: Callable[..., Awaitable[RunList]], /,
              **params: Any) -> AsyncIterator[RunSummary]: ...

    @overload
    def items(self, list_page: Callable[..., Awaitable[DecisionList]], /,
              **params: Any) -> AsyncIterator[DecisionView]: ...

    @overload
    def items(self, list_page: Callable[..., Awaitable[ClaimSearch]], /,
              **params: Any) -> AsyncIterator[FoundClaim]: ...

    @overload
    def items(self, list_page: Callable[..., Awaitable[ActionList]], /,
              **params: Any) -> AsyncIterator[ActionRecord]: ...

    @overload
    def items(self, list_page: Callable[..., Awaitable[ConflictList]], /,
              **params: Any) -> AsyncIterator[ConflictRecord]: ...

    @overload
    def items(self, list_page: Callable[..., Awaitable[AuditList]], /,
              **params: Any) -> AsyncIterator[AuditEntry]: ...

    @overload
    def items(self, list_page: Callable[..., Awaitable[ApiKeyList]], /,
              **params: Any) -> AsyncIterator[ApiKeyRow]: ...

    @overload
    def items(self, list_page: Callable[..., Awaitable[ErasureList]], /,
              **params: Any) -> AsyncIterator[ErasureRecord]: ...

    @overload
    def items(self, list_page: Callable[..., Awaitable[Mapping[str, Any]]], /,
              **params: Any) -> AsyncIterator[Any]: ...

    async def items(self, list_page: Callable[..., Awaitable[Mapping[str, Any]]], /,
                    **params: Any) -> AsyncIterator[Any]:
        """Every item of a list, page after page."""
        async for page in self.pages(list_page, **params):
            for item in page["items"]:
                yield item

    async def aclose(self) -> None:
        await self._http.aclose()

    async def __aenter__(self) -> AsyncClient:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

