"""``Client`` and ``AsyncClient``: one method per endpoint of the HTTP API (docs/api.md).

Both share the endpoint methods (``_Endpoints``); only how a request is sent differs, so
the sync client returns the decoded JSON and the async one an awaitable of it. Workspace
methods use the client's ``workspace`` unless a call passes ``workspace=``.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable, Iterator, Mapping, Sequence
from typing import Any, Generic, TypeVar
from urllib.parse import quote

import httpx

from afterhack.client._errors import ApiConnectionError, error_from_body
from afterhack.model.vocab import (
    ActionOp,
    ConflictStatusFilter,
    CorrectionKind,
    DecisionOp,
    GraphViewName,
    SearchMode,
)

JSON = dict[str, Any]
R = TypeVar("R")
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


def _decode(response: httpx.Response) -> JSON:
    if response.status_code == 204:
        return {}
    try:
        body = response.json()
    except ValueError:
        body = None
    if response.is_error:
        raise error_from_body(response.status_code, body)
    if not isinstance(body, dict):
        raise error_from_body(response.status_code, None)
    return body


class _Endpoints(Generic[R]):
    workspace: str | None

    def _call(self, method: str, path: str, *, params: Mapping[str, Any] | None = None,
              json: JSON | None = None) -> R:
        raise NotImplementedError

    def _ws(self, workspace: str | None) -> str:
        ws = workspace or self.workspace
        if not ws:
            raise ValueError("No workspace: pass workspace= or create the client with one.")
        return f"/workspaces/{_seg(ws)}"

    # Health and workspaces

    def health(self) -> R:
        return self._call("GET", "/health")

    def create_workspace(self, name: str) -> R:
        return self._call("POST", "/workspaces", json={"name": name})

    def list_workspaces(self, *, limit: int = 100, offset: int = 0,
                        cursor: str | None = None) -> R:
        """A page of workspaces: ``items``, ``next_cursor`` (pass it as ``cursor`` for the
        next page; None on the last) and ``total``. ``pages`` walks them all."""
        return self._call("GET", "/workspaces",
                          params=_body(limit=limit, offset=offset or None, cursor=cursor))

    def get_workspace(self, *, workspace: str | None = None) -> R:
        return self._call("GET", self._ws(workspace))

    def delete_workspace(self, *, workspace: str | None = None) -> R:
        """Delete the workspace and everything in it; its keys are revoked (admin)."""
        return self._call("DELETE", self._ws(workspace))

    def audit(self, *, limit: int = 100, before: int | None = None,
              workspace: str | None = None) -> R:
        return self._call("GET", self._ws(workspace) + "/audit",
                          params=_body(limit=limit, before=before))

    # Sources

    def add_source(self, text: str, *, title: str | None = None,
                   origin_type: str | None = None, origin_name: str | None = None,
                   source_id: str | None = None, extract: bool = True,
                   preview: bool = False, workspace: str | None = None) -> R:
        """Add a source (or, with ``source_id``, a new version of one). The answer lists the
        conflicts it raised and what a new version retired, flagged and held; with
        ``preview``, what it would do, and nothing is written."""
        return self._call("POST", self._ws(workspace) + "/sources", json=_body(
            text=text, title=title, origin_type=origin_type, origin_name=origin_name,
            source_id=source_id, extract=extract, preview=preview or None))

    def list_sources(self, *, limit: int = 100, offset: int = 0, cursor: str | None = None,
                     workspace: str | None = None) -> R:
        """A page of sources, oldest first (``next_cursor``, ``total``: see list_workspaces)."""
        return self._call("GET", self._ws(workspace) + "/sources",
                          params=_body(limit=limit, offset=offset or None, cursor=cursor))

    def get_source(self, source_id: str, *, workspace: str | None = None) -> R:
        return self._call("GET", f"{self._ws(workspace)}/sources/{_seg(source_id)}")

    def extract_source(self, source_id: str, *, workspace: str | None = None) -> R:
        """Re-run extraction on the latest version's failed or skipped fragments."""
        return self._call("POST", f"{self._ws(workspace)}/sources/{_seg(source_id)}/extract")

    # Claims

    def search_claims(self, q: str | None = None, *, status: Sequence[str] | None = None,
                      limit: int = 20, offset: int = 0,
                      mode: SearchMode | None = None, as_of: When | None = None,
                      cursor: str | None = None, workspace: str | None = None) -> R:
        """Without ``q``, a page of claims oldest first with ``total``; with ``q``, a page of
        the ranking (``total`` None). ``next_cursor`` asks for the next page of the same
        search: keep ``q``, ``status``, ``mode`` and ``as_of`` unchanged."""
        params = _body(q=q, limit=limit, offset=offset or None, mode=mode,
                       status=",".join(status) if status else None, as_of=as_of,
                       cursor=cursor)
        return self._call("GET", self._ws(workspace) + "/claims", params=params)

    # Embeddings

    def embedding_progress(self, *, workspace: str | None = None) -> R:
        """The workspace's vectors: their model and dimension, how many claims still wait."""
        return self._call("GET", self._ws(workspace) + "/embeddings")

    def reembed(self, *, workspace: str | None = None) -> R:
        """Drop every vector and embed all claims again with the server's model."""
        return self._call("POST", self._ws(workspace) + "/embeddings/reembed", json={})

    def get_claim(self, claim_id: str, *, as_of: When | None = None,
                  workspace: str | None = None) -> R:
        return self._call("GET", f"{self._ws(workspace)}/claims/{_seg(claim_id)}",
                          params=_body(as_of=as_of))

    # Agent runs

    def run_agent(self, task: str, *, builds_on: Sequence[str] | None = None,
                  as_of: When | None = None, workspace: str | None = None) -> R:
        """Run the agent; with ``as_of`` (the time the task is about), it searches only the
        claims valid then."""
        return self._call("POST", self._ws(workspace) + "/agent-runs",
                          json=_body(task=task, builds_on=list(builds_on or []), as_of=as_of))

    def list_runs(self, *, limit: int = 50, offset: int = 0, cursor: str | None = None,
                  workspace: str | None = None) -> R:
        """A page of runs, newest first (``next_cursor``, ``total``: see list_workspaces)."""
        return self._call("GET", self._ws(workspace) + "/agent-runs",
                          params=_body(limit=limit, offset=offset or None, cursor=cursor))

    def get_run(self, run_id: str, *, workspace: str | None = None) -> R:
        return self._call("GET", f"{self._ws(workspace)}/agent-runs/{_seg(run_id)}")

    # Decisions and actions

    def list_decisions(self, *, status: Sequence[str] | None = None, limit: int = 100,
                       offset: int = 0, cursor: str | None = None,
                       workspace: str | None = None) -> R:
        """A page of decisions, newest first (``next_cursor``, ``total``: see
        list_workspaces)."""
        params: dict[str, Any] = _body(limit=limit, offset=offset or None, cursor=cursor)
        if status:
            params["status"] = list(status)
        return self._call("GET", self._ws(workspace) + "/decisions", params=params)

    def get_decision(self, decision_id: str, *, as_of: When | None = None,
                     workspace: str | None = None) -> R:
        """The decision with ``support``: what it rested on when it was made and what holds
        it up now (or at ``as_of``)."""
        return self._call("GET", f"{self._ws(workspace)}/decisions/{_seg(decision_id)}",
                          params=_body(as_of=as_of))

    def review_decision(self, decision_id: str, op: DecisionOp, *, revision: int,
                        claim_ids: Sequence[str] | None = None,
                        premises: Sequence[Mapping[str, Any]] | None = None,
                        note: str | None = None, workspace: str | None = None) -> R:
        return self._call(
            "PATCH", f"{self._ws(workspace)}/decisions/{_seg(decision_id)}", json=_body(
                op=op, revision=revision, claim_ids=list(claim_ids) if claim_ids else None,
                premises=[dict(p) for p in premises] if premises else None, note=note))

    def get_action(self, action_id: str, *, as_of: When | None = None,
                   workspace: str | None = None) -> R:
        return self._call("GET", f"{self._ws(workspace)}/actions/{_seg(action_id)}",
                          params=_body(as_of=as_of))

    def change_action(self, action_id: str, op: ActionOp, *, revision: int,
                      workspace: str | None = None) -> R:
        return self._call("PATCH", f"{self._ws(workspace)}/actions/{_seg(action_id)}",
                          json={"op": op, "revision": revision})

    # Corrections

    def preview_correction(self, claim_id: str, statement: str | None = None, *,
                           kind: CorrectionKind = "replace",
                           workspace: str | None = None) -> R:
        return self._call(
            "POST", f"{self._ws(workspace)}/claims/{_seg(claim_id)}/corrections/preview",
            json=_body(statement=statement, kind=kind))

    def apply_correction(self, claim_id: str, statement: str | None = None, *,
                         claim_revision: int, impact_token: str,
                         kind: CorrectionKind = "replace", reason: str | None = None,
                         reviewer: str | None = None, workspace: str | None = None) -> R:
        """Apply with the revisions a preview returned; StaleCorrectionPreviewError when the
        claim or what depends on it changed since. ``status`` is applied / already_applied."""
        return self._call(
            "POST", f"{self._ws(workspace)}/claims/{_seg(claim_id)}/corrections",
            json=_body(statement=statement, kind=kind, reason=reason, reviewer=reviewer,
                       claim_revision=claim_revision, impact_token=impact_token))

    def apply_preview(self, preview: Mapping[str, Any], *, reason: str | None = None,
                      reviewer: str | None = None, workspace: str | None = None) -> R:
        """Apply exactly what a ``preview_correction`` answer showed, with its revisions."""
        revisions = preview["revisions"]
        return self.apply_correction(
            preview["claim"]["id"], preview.get("statement"),
            claim_revision=revisions["claim_revision"], impact_token=revisions["impact_token"],
            kind=preview.get("kind") or "replace", reason=reason, reviewer=reviewer,
            workspace=workspace)

    def get_correction(self, correction_id: str, *, workspace: str | None = None) -> R:
        return self._call("GET", f"{self._ws(workspace)}/corrections/{_seg(correction_id)}")

    # Conflicts

    def list_conflicts(self, *, status: ConflictStatusFilter | None = "open",
                       limit: int = 100, offset: int = 0, as_of: When | None = None,
                       workspace: str | None = None) -> R:
        """Conflicts newest first, each with both claims, their quotes, sources and dates."""
        return self._call("GET", self._ws(workspace) + "/conflicts",
                          params=_body(status=status, limit=limit, offset=offset, as_of=as_of))

    def get_conflict(self, conflict_id: str, *, as_of: When | None = None,
                     workspace: str | None = None) -> R:
        return self._call("GET", f"{self._ws(workspace)}/conflicts/{_seg(conflict_id)}",
                          params=_body(as_of=as_of))

    def preview_conflict_resolution(self, conflict_id: str, *, keep: str | None = None,
                                    dismiss: bool = False, workspace: str | None = None) -> R:
        """What keeping one side (``keep``: a claim id) or dismissing would do, shaped like a
        correction preview, with the revisions ``resolve_conflict`` must send back."""
        return self._call("POST", f"{self._ws(workspace)}/conflicts/{_seg(conflict_id)}/preview",
                          json=_body(keep=keep, dismiss=dismiss or None))

    def resolve_conflict(self, conflict_id: str, *, conflict_revision: int, impact_token: str,
                         keep: str | None = None, dismiss: bool = False,
                         reason: str | None = None, reviewer: str | None = None,
                         valid_times: Sequence[Mapping[str, Any]] | None = None,
                         workspace: str | None = None) -> R:
        """Apply a resolution with the revisions its preview returned; status applied or
        already_applied; StaleCorrectionPreviewError when anything it reads changed since.
        ``valid_times`` (with dismiss: both hold, at different times): one
        ``{claim_id, valid_from?, valid_until?}`` per side."""
        return self._call("POST", f"{self._ws(workspace)}/conflicts/{_seg(conflict_id)}/resolve",
                          json=_body(keep=keep, dismiss=dismiss or None, reason=reason,
                                     reviewer=reviewer, conflict_revision=conflict_revision,
                                     impact_token=impact_token,
                                     valid_times=[dict(v) for v in valid_times]
                                     if valid_times else None))

    def apply_resolution(self, preview: Mapping[str, Any], *, reason: str | None = None,
                         reviewer: str | None = None,
                         valid_times: Sequence[Mapping[str, Any]] | None = None,
                         workspace: str | None = None) -> R:
        """Apply exactly what a ``preview_conflict_resolution`` answer showed."""
        revisions = preview["revisions"]
        return self.resolve_conflict(
            preview["conflict"]["id"], keep=preview.get("keep"),
            dismiss=preview.get("resolution") == "dismiss",
            conflict_revision=revisions["conflict_revision"],
            impact_token=revisions["impact_token"], reason=reason, reviewer=reviewer,
            valid_times=valid_times, workspace=workspace)

    # Graph

    def graph(self, *, view: GraphViewName = "product", limit: int | None = None,
              as_of: When | None = None, workspace: str | None = None) -> R:
        return self._call("GET", self._ws(workspace) + "/graph",
                          params=_body(view=view, limit=limit, as_of=as_of))

    def timeline(self, *, limit: int | None = None, workspace: str | None = None) -> R:
        """The events a time control marks (sources, runs, corrections, conflicts), oldest
        first, and the server's time now."""
        return self._call("GET", self._ws(workspace) + "/timeline", params=_body(limit=limit))


def _headers(key: str | None) -> dict[str, str]:
    headers = {"accept": "application/json", "user-agent": "afterhack-client/0.1"}
    if key:
        headers["authorization"] = f"Bearer {key}"
    return headers


class Client(_Endpoints[JSON]):
    """Synchronous client. ``with Client(url, key=..., workspace=...) as c: c.get_claim(id)``."""

    def __init__(self, base_url: str = DEFAULT_URL, *, key: str | None = None,
                 workspace: str | None = None, timeout: float = 120.0,
                 transport: httpx.BaseTransport | None = None) -> None:
        self.base_url = base_url.rstrip("/")
        self.workspace = workspace
        self._http = httpx.Client(base_url=self.base_url + "/api", headers=_headers(key),
                                  timeout=timeout, transport=transport)

    def _call(self, method: str, path: str, *, params: Mapping[str, Any] | None = None,
              json: JSON | None = None) -> JSON:
        try:
            response = self._http.request(method, path, params=params, json=json)
        except httpx.TransportError as exc:
            raise ApiConnectionError(0, "connection_failed",
                                     f"Cannot reach afterhack at {self.base_url}: {exc}") from exc
        return _decode(response)

    def pages(self, list_page: Callable[..., JSON], /, **params: Any) -> Iterator[JSON]:
        """Every page of a list, following ``next_cursor``: ``list_page`` is one of the
        ``list_*`` methods or ``search_claims``, ``params`` its arguments (not ``cursor``).

            for page in c.pages(c.list_sources, limit=200):
                for source in page["items"]: ...
        """
        cursor: str | None = None
        while True:
            page = list_page(**params, cursor=cursor)
            yield page
            cursor = page.get("next_cursor")
            if not cursor:
                return

    def items(self, list_page: Callable[..., JSON], /, **params: Any) -> Iterator[JSON]:
        """Every item of a list, page after page (see ``pages``)."""
        for page in self.pages(list_page, **params):
            yield from page["items"]

    def close(self) -> None:
        self._http.close()

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class AsyncClient(_Endpoints[Awaitable[JSON]]):
    """Asynchronous client: the same methods, each awaited."""

    def __init__(self, base_url: str = DEFAULT_URL, *, key: str | None = None,
                 workspace: str | None = None, timeout: float = 120.0,
                 transport: httpx.AsyncBaseTransport | None = None) -> None:
        self.base_url = base_url.rstrip("/")
        self.workspace = workspace
        self._http = httpx.AsyncClient(base_url=self.base_url + "/api", headers=_headers(key),
                                       timeout=timeout, transport=transport)

    async def _send(self, method: str, path: str, params: Mapping[str, Any] | None,
                    json: JSON | None) -> JSON:
        try:
            response = await self._http.request(method, path, params=params, json=json)
        except httpx.TransportError as exc:
            raise ApiConnectionError(0, "connection_failed",
                                     f"Cannot reach afterhack at {self.base_url}: {exc}") from exc
        return _decode(response)

    def _call(self, method: str, path: str, *, params: Mapping[str, Any] | None = None,
              json: JSON | None = None) -> Awaitable[JSON]:
        return self._send(method, path, params, json)

    async def pages(self, list_page: Callable[..., Awaitable[JSON]], /,
                    **params: Any) -> AsyncIterator[JSON]:
        """Every page of a list, following ``next_cursor`` (see ``Client.pages``)."""
        cursor: str | None = None
        while True:
            page = await list_page(**params, cursor=cursor)
            yield page
            cursor = page.get("next_cursor")
            if not cursor:
                return

    async def items(self, list_page: Callable[..., Awaitable[JSON]], /,
                    **params: Any) -> AsyncIterator[JSON]:
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
