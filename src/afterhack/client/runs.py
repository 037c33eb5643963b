"""A gated agent run driven from outside the app: ``AgentRuns``.

An outside agent answers from memory the way the app's own Analyst does: start a run, search,
retrieve the sources of what it will rely on, then submit a proposal, which the server gates
(it keeps only the claims this run both found and read; docs/rules.md, rule 2). The run
lives in the graph between calls, so each call is one request and any app process may
answer it.

The HTTP API runs its Analyst in one request; an outside agent's steps are the MCP tools
(``start_run``, ``search_claims``, ``get_claim_sources``, ``submit_proposal``, ``remember``),
which the app serves over streamable HTTP at ``/mcp``. ``AgentRuns`` calls them there with
the official ``mcp`` client, one stateless session per call, and reads each result as the
record the tool answers (the TypedDicts of afterhack.model), raising the client's
``ApiError`` subclasses for a tool error.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any, TypeVar

import httpx2
import pydantic
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.types import CallToolResult, TextContent

from afterhack.client._client import DEFAULT_URL
from afterhack.client._errors import ApiConnectionError, UnexpectedAnswerError, error_from_body
from afterhack.errors import AfterhackError
from afterhack.model.runs import ClaimSources, OpenedRun, PremiseProposal, RunView, SearchHit
from afterhack.model.sources import IngestResult

T = TypeVar("T")


def _codes(cls: type[AfterhackError]) -> dict[str, int]:
    found = {cls.code: cls.status}
    for sub in cls.__subclasses__():
        found.update(_codes(sub))
    return found


# A tool error carries the canonical body but no HTTP status: it is the status the same
# error answers over HTTP, so it raises the same ApiError subclass.
_STATUS_OF_CODE = _codes(AfterhackError)

_HITS: pydantic.TypeAdapter[list[SearchHit]] = pydantic.TypeAdapter(list[SearchHit])
_SOURCES: pydantic.TypeAdapter[list[ClaimSources]] = pydantic.TypeAdapter(list[ClaimSources])
_OPENED: pydantic.TypeAdapter[OpenedRun] = pydantic.TypeAdapter(OpenedRun)
_RUN: pydantic.TypeAdapter[RunView] = pydantic.TypeAdapter(RunView)
_INGEST: pydantic.TypeAdapter[IngestResult] = pydantic.TypeAdapter(IngestResult)


def tool_error(result: CallToolResult) -> Exception:
    """The ApiError a tool error's canonical body names."""
    body: Any = result.structured_content
    if body is None:
        first = result.content[0] if result.content else None
        text = first.text if isinstance(first, TextContent) else ""
        try:
            body = json.loads(text)
        except ValueError:
            body = {"error": {"code": "tool_error", "message": text or "The tool failed."}}
    err = body.get("error") if isinstance(body, dict) else None
    code = err.get("code") if isinstance(err, dict) else None
    return error_from_body(_STATUS_OF_CODE.get(code, 500) if isinstance(code, str) else 500,
                           body)


class AgentRuns:
    """The gated run of an outside agent, over the app's MCP endpoint.

        runs = AgentRuns("http://127.0.0.1:8000", workspace=ws)
        run = await runs.start("When is the launch?")
        hits = await runs.search(run["run_id"], "launch date")
        await runs.read(run["run_id"], [h["claim_id"] for h in hits])
        view = await runs.submit(run["run_id"], "June 12.", [hits[0]["claim_id"]])
    """

    def __init__(self, base_url: str = DEFAULT_URL, *, workspace: str, key: str | None = None,
                 timeout: float = 120.0) -> None:
        self.base_url = base_url.rstrip("/")
        self.workspace = workspace
        self._key = key
        self._timeout = timeout

    async def call(self, tool: str, arguments: Mapping[str, Any], answer: pydantic.TypeAdapter[T]
                   ) -> T:
        """One tool of the workspace, its result read as ``answer``'s record."""
        headers = {"authorization": f"Bearer {self._key}"} if self._key else {}
        url = self.base_url + "/mcp"
        try:
            async with httpx2.AsyncClient(headers=headers, timeout=self._timeout) as http, \
                    Client(streamable_http_client(url, http_client=http)) as session:
                result = await session.call_tool(
                    tool, {"workspace_id": self.workspace, **arguments})
        except httpx2.TransportError as exc:
            raise ApiConnectionError(0, "connection_failed",
                                     f"Cannot reach afterhack at {url}: {exc}") from exc
        if result.is_error:
            raise tool_error(result)
        data: Any = result.structured_content
        # A list travels as {"result": [...]} (the SDK's way for a non-object result).
        if isinstance(data, dict) and set(data) == {"result"}:
            data = data["result"]
        try:
            return answer.validate_python(data)
        except pydantic.ValidationError as exc:
            raise UnexpectedAnswerError(
                200, "unexpected_answer",
                f"The result of {tool} is not the record it answers: "
                f"{exc.error_count()} error(s).",
                {"errors": exc.errors(include_url=False, include_input=False)[:10]},
            ) from None

    async def start(self, task: str, *, builds_on: Sequence[str] = ()) -> OpenedRun:
        """A run for one task; ``builds_on`` names earlier decisions this one depends on."""
        return await self.call("start_run", {"task": task, "builds_on": list(builds_on)},
                               _OPENED)

    async def search(self, run_id: str, query: str, *,
                     as_of: str | int | None = None) -> list[SearchHit]:
        """Current claims for the query, remembered on the run as found (not yet evidence);
        with ``as_of``, only those valid then."""
        args: dict[str, Any] = {"run_id": run_id, "query": query}
        if as_of is not None:
            args["as_of"] = str(as_of)
        return await self.call("search_claims", args, _HITS)

    async def read(self, run_id: str, claim_ids: Sequence[str]) -> list[ClaimSources]:
        """The source fragments behind claims (exact text, quote offsets, origin),
        remembered on the run as read."""
        return await self.call("get_claim_sources",
                               {"run_id": run_id, "claim_ids": list(claim_ids)}, _SOURCES)

    async def submit(self, run_id: str, answer: str, claim_ids: Sequence[str], *,
                     premises: Sequence[PremiseProposal] = (),
                     proposed_actions: Sequence[str] = ()) -> RunView:
        """Ends the run: the gate keeps the cited claims this run both found and read (the
        rest are in the run's ``dropped``), and the decision is written from them."""
        return await self.call("submit_proposal", {
            "run_id": run_id, "answer": answer, "claim_ids": list(claim_ids),
            "premises": [dict(p) for p in premises],
            "proposed_actions": list(proposed_actions)}, _RUN)

    async def remember(self, conversation: str, speaker: str, text: str, *,
                       at: str | int | None = None) -> IngestResult:
        """A message said by ``speaker``, appended to the conversation of that title (made
        when missing); its claims quote it and carry who said it and when."""
        args: dict[str, Any] = {"conversation": conversation, "speaker": speaker,
                                "text": text}
        if at is not None:
            args["at"] = str(at)
        return await self.call("remember", args, _INGEST)
