"""The MCP tools: the gated memory, for any MCP-capable agent (stdio or streamable HTTP).

Every tool names its workspace and goes through the same three checks as the HTTP API: who
is calling (callers.py), whether that caller may see the workspace (a workspace key on
another workspace gets exactly the 404 of a missing one), and whether its role allows the
operation (roles.py). Then it calls one domain function. Errors come back as tool errors
whose content is the canonical error body, so the code (``stale_correction_preview``,
``workspace_not_found``, ...) is what the agent reads.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from typing import Annotated, Any

from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import CallToolResult, InputRequiredResult, TextContent, ToolAnnotations
from pydantic import Field, JsonValue, ValidationError

from afterhack.errors import Forbidden, InvalidRequest, WorkspaceNotFound
from afterhack.mcpserver.callers import CallerSource
from afterhack.memory.conflicts import Choice, parse_status
from afterhack.memory.conversations import Message, received
from afterhack.memory.ingest import Document
from afterhack.memory.paging import MAX_CURSOR
from afterhack.memory.repair import Fix, Seen
from afterhack.memory.workspace import WorkspaceMemory
from afterhack.model.erasures import ErasureTarget, ForgetAnswer
from afterhack.model.sources import IngestResult
from afterhack.model.vocab import ConflictStatusFilter, CorrectionKind
from afterhack.roles import Permission, allows, require
from afterhack.runtime.services import Services
from afterhack.temporal.moments import parse_as_of, parse_time
from afterhack.wire.errors import error_of, issues
from afterhack.wire.inputs import (
    ErasureTargetIn,
    Flag,
    Id,
    NonBlank,
    PremiseIn,
    Revision,
    Text,
)

INSTRUCTIONS = """\
afterhack is agent memory with proof. Claims come from sources with exact quotes.
To answer a question from memory: start_run, then search_claims, then get_claim_sources for
the claims you will rely on, then submit_proposal citing only claims you both found and
retrieved in this run (others are dropped). A claim whose open_conflict_ids is not empty
gives a value of a fact in dispute (one conflict lists every value with its claims): do not
pick a side; a run citing two of its values is written for a reviewer. Search ranks each
fact's newest value first, and a question about now ("now", "currently", "latest") finds
its newest value alone. To fix a wrong claim: preview_correction, then apply_correction with the
revisions the preview returned. get_impact shows what depends on a claim. Conflicts between
sources: list_conflicts, preview_conflict_resolution, then resolve_conflict with the
revisions the preview returned. To keep what someone told you: remember, with who said it,
into a named conversation; its claims carry the speaker and the time. When someone asks you
to forget something (a number pasted by mistake, their own words), call forget with what to
forget: with an agent key it files a request for a reviewer and withholds the claims at
once; with a reviewer key it previews, and applies with the preview's impact_token."""

ServicesProvider = Callable[[], Services]
# What a tool does once its caller may: one use case of the workspace's memory.
Work = Callable[[WorkspaceMemory], Awaitable[object]]
Invoke = Callable[[Context[Any, Any], str, Permission, Work], Awaitable[CallToolResult]]

WorkspaceId = Annotated[Id, Field(description="The workspace's id (a UUID).")]
RunId = Annotated[Id, Field(description="The run_id that start_run returned.")]
ClaimId = Annotated[Id, Field(description="A claim's id.")]
ConflictId = Annotated[Id, Field(description="A conflict's id.")]
PageSize = Annotated[int, Field(ge=1, le=1000, description="How many on a page.")]
PageCursor = Annotated[str | None, Field(
    max_length=MAX_CURSOR, description="The next_cursor a previous page answered: the page "
    "after it.")]
AsOf = Annotated[str | None, Field(
    max_length=64, description="An ISO 8601 time or epoch milliseconds (a date alone is the "
    "end of that day, UTC).")]

SaidAt = Annotated[str | None, Field(
    max_length=64, description="When it was said: an ISO 8601 time or epoch milliseconds; "
    "by default, now.")]

_READ = ToolAnnotations(read_only_hint=True, open_world_hint=False)
_RUN = ToolAnnotations(read_only_hint=False, destructive_hint=False, open_world_hint=False)


def _ok(result: object) -> CallToolResult:
    text = json.dumps(result, ensure_ascii=False, default=str)
    data = json.loads(text)
    # Structured content must be an object; a list travels as {"result": [...]} (SDK style).
    structured = data if isinstance(data, dict) else {"result": data}
    return CallToolResult(content=[TextContent(type="text", text=text)],
                          structured_content=structured)


def error_result(exc: BaseException, where: str = "MCP") -> CallToolResult:
    """The tool error for ``exc``: the canonical body, an internal error's details logged
    under the request id it carries, as over HTTP."""
    text = json.dumps(error_of(exc, where), default=str)
    return CallToolResult(content=[TextContent(type="text", text=text)],
                          structured_content=json.loads(text), is_error=True)


def _request(ctx: Context[Any, Any]) -> Any:
    try:
        return ctx.request_context.request
    except ValueError:  # no request context: called outside a transport
        return None


class AfterhackMCP(MCPServer[Any]):
    """MCPServer whose argument-validation failures carry the canonical invalid_request."""

    async def call_tool(self, name: str, arguments: dict[str, Any],
                        context: Context[Any, Any] | None = None
                        ) -> CallToolResult | InputRequiredResult:
        try:
            return await super().call_tool(name, arguments, context)
        except ToolError as exc:
            cause = exc.__cause__
            if isinstance(cause, ValidationError):
                errs = issues(cause.errors())
                message = "; ".join(f"{'.'.join(e['loc'])}: {e['msg']}" for e in errs[:5])
                return error_result(InvalidRequest(message or None, errors=errs))
            raise


def create_mcp_server(services: ServicesProvider, caller: CallerSource) -> AfterhackMCP:
    server = AfterhackMCP("afterhack", instructions=INSTRUCTIONS, version="0.1.0",
                          log_level="WARNING")

    async def invoke(ctx: Context[Any, Any], workspace_id: str, permission: Permission,
                     work: Work) -> CallToolResult:
        try:
            who = await caller(_request(ctx))
            # A workspace key sees only its own workspace; anything else looks missing.
            if who.workspace_id is not None and who.workspace_id != workspace_id:
                raise WorkspaceNotFound(workspace_id)
            ws = await services().workspaces.open(workspace_id, who)
            require(who.role, permission)
            return _ok(await work(ws))
        except Exception as exc:
            return error_result(exc, f"MCP tool on workspace {workspace_id!r}")

    for add_tools in (_run_tools, _source_tools, _correction_tools, _conflict_tools,
                      _erasure_tools):
        add_tools(server, invoke)
    return server


def _run_tools(server: AfterhackMCP, invoke: Invoke) -> None:
    """An agent outside is the Analyst of a run: its evidence is kept on the run."""

    @server.tool(annotations=_RUN)
    async def start_run(workspace_id: WorkspaceId,
                        task: Annotated[NonBlank, Field(max_length=4000)],
                        ctx: Context[Any, Any],
                        builds_on: Annotated[list[Id], Field(max_length=20)] | None = None,
                        ) -> CallToolResult:
        """Start an agent run for one task and get its run_id. Evidence is tracked per run:
        only claims found by search_claims AND retrieved by get_claim_sources in this run can
        be cited in submit_proposal. builds_on names earlier decisions this one depends on."""
        return await invoke(ctx, workspace_id, "run_agent",
                            lambda ws: ws.start_run(task, builds_on or []))

    @server.tool(annotations=_RUN)
    async def search_claims(workspace_id: WorkspaceId, run_id: RunId,
                            query: Annotated[Text, Field(max_length=2000)],
                            ctx: Context[Any, Any], as_of: AsOf = None) -> CallToolResult:
        """Search the workspace's current claims: [{claim_id, statement, status,
        open_conflict_ids}]. A search hit is not evidence until its sources are retrieved with
        get_claim_sources; a claim with open conflicts is disputed by another source. With
        as_of (the time the question is about), only the claims valid then."""
        return await invoke(ctx, workspace_id, "run_agent", lambda ws: ws.search_in_run(
            run_id, query, parse_as_of(as_of)))

    @server.tool(annotations=_RUN)
    async def get_claim_sources(workspace_id: WorkspaceId, run_id: RunId,
                                claim_ids: Annotated[list[Id], Field(max_length=500)],
                                ctx: Context[Any, Any]) -> CallToolResult:
        """Retrieve the source fragments (exact quoted text, offsets, origin) behind claims:
        [{claim_id, status, fragments: [{fragment_id, text, origin_type, origin_name,
        quote_start, quote_end, start, end}]}]. Up to 50 ids per call."""
        return await invoke(ctx, workspace_id, "run_agent",
                            lambda ws: ws.sources_in_run(run_id, claim_ids))

    @server.tool(annotations=_RUN)
    async def submit_proposal(
        workspace_id: WorkspaceId, run_id: RunId,
        answer: Annotated[Text, Field(max_length=20_000)],
        claim_ids: Annotated[list[Id], Field(max_length=500)],
        ctx: Context[Any, Any],
        premises: Annotated[list[PremiseIn], Field(max_length=20)] | None = None,
        proposed_actions: Annotated[list[Annotated[Text, Field(max_length=2000)]],
                                    Field(max_length=10)] | None = None,
    ) -> CallToolResult:
        """Finish the run: the answer and the claim ids it rests on (only claims you searched
        and retrieved in this run survive), optional premises [{statement, claim_ids}] and
        proposed actions. Returns the run with its handoff trail, decision and actions."""
        proposal: dict[str, JsonValue] = {
            "answer": answer, "claim_ids": list(claim_ids),
            "premises": [p.model_dump() for p in premises or []],
            "proposed_actions": list(proposed_actions or [])}
        return await invoke(ctx, workspace_id, "run_agent",
                            lambda ws: ws.submit_proposal(run_id, proposal))


def _source_tools(server: AfterhackMCP, invoke: Invoke) -> None:
    @server.tool(annotations=_RUN)
    async def add_source(workspace_id: WorkspaceId,
                         title: Annotated[NonBlank, Field(max_length=500)],
                         text: NonBlank, ctx: Context[Any, Any]) -> CallToolResult:
        """Add a document: it is split into fragments and claims are extracted, each kept only
        with an exact quote. Returns the source, the kept claims, dropped counts and the
        conflicts its claims raised or joined (a new value of a fact in dispute joins the
        open conflict over it) with what the memory already holds."""
        return await invoke(ctx, workspace_id, "add_source",
                            lambda ws: ws.add_text(Document(text=text, title=title)))

    @server.tool(annotations=_RUN)
    async def remember(workspace_id: WorkspaceId,
                       conversation: Annotated[NonBlank, Field(
                           max_length=500, description="The conversation's title: the "
                           "message is appended to it, or to a new one of that title.")],
                       speaker: Annotated[NonBlank, Field(
                           max_length=200, description="Who said it (a user's name, "
                           "'user', or your own role).")],
                       text: Annotated[NonBlank, Field(description="What was said.")],
                       ctx: Context[Any, Any], at: SaidAt = None) -> CallToolResult:
        """Record what you were told as a message of a conversation, with its speaker (and
        its time: at, or now). Claims are read from this message alone, each quoting it and
        carrying said_by and said_at; one that gives another value for something said
        before raises a conflict marked newer and whether the same speaker said both."""
        async def work(ws: WorkspaceMemory) -> IngestResult:
            said = received(parse_time(at, "at"))
            return await ws.remember(conversation,
                                     [Message(speaker=speaker, text=text, at=said)])

        return await invoke(ctx, workspace_id, "add_source", work)


def _correction_tools(server: AfterhackMCP, invoke: Invoke) -> None:
    @server.tool(annotations=_READ)
    async def get_claim(workspace_id: WorkspaceId, claim_id: ClaimId,
                        ctx: Context[Any, Any], as_of: AsOf = None) -> CallToolResult:
        """A claim with its evidence (fragments, quote offsets, origin), its corrections and
        replacement chain, and the decisions that use it; with as_of, as it was then (its
        status, corrections and conflicts at that time)."""
        return await invoke(ctx, workspace_id, "read",
                            lambda ws: ws.claim(claim_id, parse_as_of(as_of)))

    @server.tool(annotations=_READ)
    async def get_impact(workspace_id: WorkspaceId, claim_id: ClaimId,
                         ctx: Context[Any, Any]) -> CallToolResult:
        """What depends on a claim: the decisions a correction would flag and the actions it
        would hold (and why), and the decisions that would stay supported."""
        return await invoke(ctx, workspace_id, "read", lambda ws: ws.impact(claim_id))

    @server.tool(annotations=ToolAnnotations(read_only_hint=True, open_world_hint=False))
    async def preview_correction(workspace_id: WorkspaceId, claim_id: ClaimId,
                                 statement: Annotated[Text, Field(max_length=4000)],
                                 ctx: Context[Any, Any], kind: CorrectionKind = "replace",
                                 leave: Annotated[list[ClaimId], Field(max_length=1000)]
                                 | None = None,
                                 ) -> CallToolResult:
        """Preview correcting a claim (kind 'replace' with the corrected statement, or
        'retract'): what would be flagged, held and stay, the other claims that state the
        same (also_states_this: copies, and claims stating the same fact in other words, which
        leave may name to leave out of the correction), plus the revisions to apply with."""
        return await invoke(ctx, workspace_id, "correct", lambda ws: ws.preview_correction(
            claim_id, Fix(kind=kind, statement=statement, leave=leave or ())))

    @server.tool(annotations=ToolAnnotations(read_only_hint=False, destructive_hint=True,
                                             idempotent_hint=True, open_world_hint=False))
    async def apply_correction(workspace_id: WorkspaceId, claim_id: ClaimId,
                               statement: Annotated[Text, Field(max_length=4000)],
                               claim_revision: Revision,
                               impact_token: Annotated[str, Field(min_length=1, max_length=200)],
                               ctx: Context[Any, Any], kind: CorrectionKind = "replace",
                               reason: Annotated[Text, Field(max_length=4000)] | None = None,
                               leave: Annotated[list[ClaimId], Field(max_length=1000)]
                               | None = None,
                               ) -> CallToolResult:
        """Apply a previewed correction with the preview's claim_revision and impact_token.
        Supersedes (or retracts) the claim with every claim the preview listed as stating the
        same, but those in leave (which then stand in an open conflict with the replacement),
        flags decisions that lost support and holds their actions, atomically. A changed
        picture is refused with stale_correction_preview; repeating the same apply returns
        status already_applied."""
        fix = Fix(kind=kind, statement=statement, reason=reason, leave=leave or ())
        return await invoke(ctx, workspace_id, "correct", lambda ws: ws.correct(
            claim_id, fix, Seen(claim_revision, impact_token)))


def _conflict_tools(server: AfterhackMCP, invoke: Invoke) -> None:
    @server.tool(annotations=_READ)
    async def list_conflicts(workspace_id: WorkspaceId, ctx: Context[Any, Any],
                             status: ConflictStatusFilter = "open", limit: PageSize = 100,
                             cursor: PageCursor = None) -> CallToolResult:
        """Conflicts between sources, a page at a time (newest first). Each is a dispute over
        one fact: {items: [{id, status, kind, reason, revision, newer_claim_id, n_sides,
        n_claims, sides: [{side, value, newest_at, claims: [{id, statement, status,
        evidence_quote, source_id, source_title, said_by, said_at, created_at}]}]}],
        next_cursor, total}: each value a side with the claims that give it, the newest value
        first. Pass next_cursor back as cursor (same status) for the next page; null on the
        last."""
        return await invoke(ctx, workspace_id, "read", lambda ws: ws.conflicts(
            parse_status(status), limit, cursor=cursor))

    @server.tool(annotations=_READ)
    async def preview_conflict_resolution(
        workspace_id: WorkspaceId, conflict_id: ConflictId, ctx: Context[Any, Any],
        keep: ClaimId | None = None, dismiss: Flag = False,
    ) -> CallToolResult:
        """Preview resolving a conflict: keep one value (keep: a claim id of its side; every
        claim of the other values, and their copies, are superseded by it) or dismiss (every
        value holds). Shows the claims superseded, the decisions flagged, actions held and
        decisions that stay, plus the revisions to resolve with."""
        return await invoke(ctx, workspace_id, "correct", lambda ws: ws.preview_resolution(
            conflict_id, Choice(keep=keep, dismiss=dismiss)))

    @server.tool(annotations=ToolAnnotations(read_only_hint=False, destructive_hint=True,
                                             idempotent_hint=True, open_world_hint=False))
    async def resolve_conflict(
        workspace_id: WorkspaceId, conflict_id: ConflictId, conflict_revision: Revision,
        impact_token: Annotated[str, Field(min_length=1, max_length=200)],
        ctx: Context[Any, Any], keep: ClaimId | None = None, dismiss: Flag = False,
        reason: Annotated[Text, Field(max_length=4000)] | None = None,
    ) -> CallToolResult:
        """Apply a previewed resolution with the preview's conflict_revision and
        impact_token, atomically. A changed picture is refused with stale_correction_preview;
        repeating the same resolution returns status already_applied."""
        choice = Choice(keep=keep, dismiss=dismiss, reason=reason)
        return await invoke(ctx, workspace_id, "correct", lambda ws: ws.resolve(
            conflict_id, choice, Seen(conflict_revision, impact_token)))


def _target(source_id: str | None, version_id: str | None, message_index: int | None,
            claim_id: str | None, speaker: str | None, text: str | None,
            request_id: str | None) -> ErasureTarget:
    """The one thing a forget names, checked as the API checks it."""
    try:
        return ErasureTargetIn(source_id=source_id, version_id=version_id,
                               message_index=message_index, claim_id=claim_id,
                               speaker=speaker, text=text, request_id=request_id).target()
    except ValidationError as exc:
        errs = issues(exc.errors())
        raise InvalidRequest("; ".join(e["msg"] for e in errs[:3]) or None,
                             errors=errs) from None


async def _forget(ws: WorkspaceMemory, target: ErasureTarget, reason: str | None,
                  impact_token: str | None) -> ForgetAnswer:
    """A key that may erase previews, then applies with the preview's token; any other key
    (an agent's) files a request for a reviewer."""
    if not allows(ws.caller.role, "erase"):
        if impact_token is not None or target["kind"] == "request":
            raise Forbidden("This key files requests to forget; a reviewer's key applies "
                            "them.", role=ws.caller.role, permission="erase")
        return {"status": "requested", "preview": None,
                "erasure": await ws.request_erasure(target, reason)}
    if impact_token is None:
        return {"status": "preview", "erasure": None,
                "preview": await ws.preview_erasure(target)}
    done = await ws.erase(target, impact_token, reason)
    return {"status": done["status"], "erasure": done["erasure"], "preview": None}


def _erasure_tools(server: AfterhackMCP, invoke: Invoke) -> None:
    @server.tool(annotations=ToolAnnotations(read_only_hint=False, destructive_hint=True,
                                             idempotent_hint=True, open_world_hint=False))
    async def forget(
        workspace_id: WorkspaceId, ctx: Context[Any, Any],
        claim_id: Annotated[Id | None, Field(description="A claim: the span its quote "
                                             "covers.")] = None,
        source_id: Annotated[Id | None, Field(description="A source: alone, every version "
                                              "of it; with version_id or message_index, one "
                                              "version or one message.")] = None,
        version_id: Id | None = None,
        message_index: Annotated[int | None, Field(ge=0, le=2**31, description="One "
                                 "message of the conversation source_id, from 0.")] = None,
        speaker: Annotated[NonBlank | None, Field(max_length=200, description="Everything "
                           "this speaker said.")] = None,
        text: Annotated[Text | None, Field(min_length=4, max_length=4000, description="An "
                        "exact string, wherever it was written.")] = None,
        request_id: Annotated[Id | None, Field(description="A request waiting for review "
                              "(reviewer keys).")] = None,
        reason: Annotated[Text, Field(max_length=4000)] | None = None,
        impact_token: Annotated[str | None, Field(
            min_length=1, max_length=200, description="The impact_token of this target's "
            "preview: applies it (reviewer keys).")] = None,
    ) -> CallToolResult:
        """Forget something the memory holds: its words go from every text, quote and record
        that holds them (a marker stands in their place), and what rested on it is re-checked
        as after a retraction. Name exactly one target: claim_id; source_id (alone, or with
        version_id or message_index); speaker; text (an exact string, 4 characters or more);
        or request_id. With an agent key, this files a request for a reviewer: the claims
        erasing the target would erase are withheld at once (no search or run finds or cites
        them) and the answer is {status: "requested", erasure}. With a reviewer or admin key,
        without impact_token it answers {status: "preview", preview} (what goes, what is
        repaired, and its impact_token; nothing is written); called again with the same
        target and that impact_token it applies the erasure in one guarded write: {status:
        "applied" or "already_applied", erasure}; stale_erasure_preview when anything
        changed since the preview. A request_id names a request (a speaker's, or an
        agent's) for a reviewer to preview and apply."""
        return await invoke(ctx, workspace_id, "add_source", lambda ws: _forget(
            ws, _target(source_id, version_id, message_index, claim_id, speaker, text,
                        request_id), reason, impact_token))
