"""One workspace's memory, for one caller: every use case the transports offer, each taking
the request's own data.

A ``WorkspaceMemory`` is a Scope (the workspace's graph, the settings, the model's parts and
the caller: scope.py) with the use cases as methods. The HTTP API builds one per request (a
FastAPI dependency), the MCP tools one per call (over HTTP or stdio); the CLI reaches the
memory through one of the two (``afterhack demo`` serves the app in its own process). All
of them open it through ``Workspaces`` (workspaces.py). A method calls the use case's
module, which plans what to write without I/O and commits it as one store write, planned
again while that write finds its reads changed (``scope.until_written``).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from typing import Literal

from pydantic import JsonValue

from afterhack.agents import external
from afterhack.agents.run import get_run_view, run_agent
from afterhack.errors import (
    AfterhackError,
    InvalidRequest,
    WorkspaceNotFound,
)
from afterhack.memory import (
    admin,
    backup,
    claims,
    conflicts,
    conversations,
    erasure,
    erasure_requests,
    files,
    ingest,
    lists,
    projection,
    prov,
    repair,
    review,
    why,
)
from afterhack.memory.conflicts import Choice
from afterhack.memory.conversations import Conversation, Message
from afterhack.memory.files import Upload
from afterhack.memory.ingest import Document
from afterhack.memory.repair import Fix, Seen
from afterhack.memory.review import Review
from afterhack.memory.scope import ReadFile, Scope
from afterhack.model.claims import ClaimSearch, ClaimView
from afterhack.model.conflicts import (
    AppliedResolution,
    ConflictRecord,
    ResolutionPreview,
)
from afterhack.model.corrections import (
    AppliedCorrection,
    ClaimImpact,
    Correction,
    CorrectionPreview,
)
from afterhack.model.decisions import ActionRecord, DecisionRead, DecisionView
from afterhack.model.embeddings import EmbeddingProgress
from afterhack.model.erasures import (
    AppliedErasure,
    ErasurePreview,
    ErasureRecord,
    ErasureTarget,
)
from afterhack.model.graph import GraphView, Timeline
from afterhack.model.pages import (
    ActionList,
    AuditList,
    ConflictList,
    DecisionList,
    ErasureList,
    RunList,
    SourceList,
)
from afterhack.model.runs import ClaimSources, OpenedRun, RunView, SearchHit
from afterhack.model.sources import IngestResult, SameVersion, SourceView
from afterhack.model.vocab import (
    ActionOp,
    ActionStatus,
    ConflictStatus,
    DecisionStatus,
    ErasureStatus,
    ForgetRequests,
    KeyRole,
    UpdatesPolicy,
)
from afterhack.model.workspaces import (
    ApiKeyRow,
    ExportDocument,
    NewApiKey,
    WorkspaceDeletion,
    WorkspaceRow,
)
from afterhack.retrieval.hybrid import ClaimQuery
from afterhack.store import corrections as store_corrections
from afterhack.store import decisions as store_decisions
from afterhack.store import sources as store_sources
from afterhack.store import vectors as store_vectors
from afterhack.store import workspaces as store_workspaces
from afterhack.store.client import GraphMissing
from afterhack.wire.answers import ProvExport


class WorkspaceMemory(Scope):
    __slots__ = ()

    # --- Sources (docs/rules.md, rules 1, 9 and 11) ---------------------------------------

    async def add_text(self, doc: Document, *, source_id: str | None = None,
                       extract: bool = True, preview: bool = False) -> IngestResult:
        return await ingest.add_document(self, doc, source_id=source_id, extract=extract,
                                         preview=preview)

    async def add_file(self, upload: Upload, *, title: str | None = None,
                       source_id: str | None = None, extract: bool = True,
                       read: ReadFile | None = None) -> IngestResult:
        return await files.add_file(self, upload, title=title, source_id=source_id,
                                    extract=extract, read=read)

    async def add_messages(self, messages: Sequence[Message], to: Conversation, *,
                           extract: bool = True, preview: bool = False) -> IngestResult:
        return await conversations.add_messages(self, messages, to, extract=extract,
                                                preview=preview)

    async def remember(self, conversation: str, messages: Sequence[Message]) -> IngestResult:
        return await conversations.remember(self, conversation, messages)

    async def extract_pending(self, source_id: str) -> SameVersion:
        return await ingest.extract_pending(self, source_id)

    async def source(self, source_id: str) -> SourceView:
        return await store_sources.get_source(self.graph, source_id)

    async def sources(self, limit: int, offset: int = 0,
                      cursor: str | None = None) -> SourceList:
        return await lists.source_page(self.graph, limit=limit, offset=offset, cursor=cursor)

    async def original_file(self, source_id: str,
                            version_id: str) -> tuple[bytes, str, str | None]:
        return await files.original(self.graph, source_id, version_id)

    # --- Claims ---------------------------------------------------------------------------

    async def search_claims(self, query: ClaimQuery) -> ClaimSearch:
        """Opened without its row (Workspaces.at), the workspace is checked in one of the
        search's own reads."""
        async with self.checked():
            return await claims.search_claims(self.graph, query, self.vectors,
                                              None if self.row is not None else self.id)

    @asynccontextmanager
    async def checked(self) -> AsyncIterator[None]:
        """Opened without its row, a failure inside answers 404 first when the workspace is
        not there: an unknown workspace is unknown whatever else is wrong."""
        if self.row is not None:
            yield
            return
        try:
            yield
        except GraphMissing:  # no such graph: a read failed before the check could answer
            raise WorkspaceNotFound(self.id) from None
        except WorkspaceNotFound:
            raise
        except AfterhackError:
            await store_workspaces.check_ready(self.graph, self.id)
            raise

    async def claim(self, claim_id: str, as_of: int | None = None) -> ClaimView:
        return await claims.get_claim(self.graph, claim_id, as_of=as_of)

    async def impact(self, claim_id: str) -> ClaimImpact:
        return await repair.claim_impact(self, claim_id)

    # --- Corrections (rules 4 to 8) -------------------------------------------------------

    async def preview_correction(self, claim_id: str, fix: Fix) -> CorrectionPreview:
        return await repair.preview_correction(self, claim_id, fix)

    async def correct(self, claim_id: str, fix: Fix, seen: Seen,
                      reviewer: str | None = None) -> AppliedCorrection:
        status, result = await repair.apply_correction(self, claim_id, fix, seen, reviewer)
        self.vectors.notify(self.graph)  # the replacement claim waits for its vector
        return {"status": status, **result}

    async def correction(self, correction_id: str) -> Correction:
        return await store_corrections.get_correction(self.graph, correction_id)

    # --- Conflicts (rule 9) ---------------------------------------------------------------

    async def conflicts(self, status: ConflictStatus | None, limit: int = 100,
                        offset: int = 0, cursor: str | None = None,
                        as_of: int | None = None) -> ConflictList:
        return await conflicts.list_conflicts(self.graph, status=status, limit=limit,
                                              offset=offset, cursor=cursor, as_of=as_of)

    async def conflict(self, conflict_id: str, as_of: int | None = None) -> ConflictRecord:
        return await conflicts.get_conflict(self.graph, conflict_id, as_of=as_of)

    async def preview_resolution(self, conflict_id: str, choice: Choice) -> ResolutionPreview:
        return await conflicts.preview_resolution(self, conflict_id, choice)

    async def resolve(self, conflict_id: str, choice: Choice, seen: Seen,
                      reviewer: str | None = None) -> AppliedResolution:
        status, result = await conflicts.resolve(self, conflict_id, choice, seen, reviewer)
        return {"status": status, **result}

    # --- Decisions and actions (the reviewer's way back) ----------------------------------

    async def decisions(self, statuses: Sequence[DecisionStatus] | None, limit: int,
                        offset: int = 0, cursor: str | None = None) -> DecisionList:
        return await lists.decision_page(self.graph, statuses, limit=limit, offset=offset,
                                         cursor=cursor)

    async def decision(self, decision_id: str, as_of: int | None = None) -> DecisionRead:
        return await why.read_decision(self.graph, decision_id, as_of=as_of)

    async def review_decision(self, decision_id: str, change: Review) -> DecisionView:
        return await review.review_decision(self, decision_id, change)

    async def actions(self, statuses: Sequence[ActionStatus] | None, limit: int,
                      cursor: str | None = None) -> ActionList:
        return await lists.action_page(self.graph, statuses, limit=limit, cursor=cursor)

    async def action(self, action_id: str, as_of: int | None = None) -> ActionRecord:
        return await store_decisions.get_action(self.graph, action_id, as_of)

    async def act_on_action(self, action_id: str, op: ActionOp, revision: int) -> ActionRecord:
        return await review.act_on_action(self, action_id, op, revision)

    # --- Agent runs (rule 2: a run cites what it found and read) --------------------------

    async def run_agent(self, task: str, builds_on: list[str],
                        valid_at: int | None = None) -> RunView:
        p = self.parts
        return await run_agent(self.graph, p.analyst, p.coordinator, task=task,
                               builds_on=builds_on, actor=self.actor,
                               max_rounds=self.settings.agent_max_rounds, vectors=self.vectors,
                               valid_at=valid_at)

    async def runs(self, limit: int, offset: int = 0, cursor: str | None = None) -> RunList:
        return await lists.run_page(self.graph, limit=limit, offset=offset, cursor=cursor)

    async def run(self, run_id: str) -> RunView:
        return await get_run_view(self.graph, run_id)

    async def start_run(self, task: str, builds_on: list[str]) -> OpenedRun:
        """A run an agent outside drives (MCP): its evidence is kept on the run."""
        return await external.start_run(self.graph, task=task, builds_on=builds_on,
                                        actor=self.actor)

    async def search_in_run(self, run_id: str, query: str,
                            valid_at: int | None = None) -> list[SearchHit]:
        return await external.search_claims(self.graph, run_id, query,
                                            ttl_s=self.settings.agent_run_open_ttl_s,
                                            vectors=self.vectors, valid_at=valid_at)

    async def sources_in_run(self, run_id: str, claim_ids: list[str]) -> list[ClaimSources]:
        return await external.get_claim_sources(self.graph, run_id, claim_ids,
                                                ttl_s=self.settings.agent_run_open_ttl_s)

    async def submit_proposal(self, run_id: str, proposal: dict[str, JsonValue]) -> RunView:
        return await external.submit_proposal(self.graph, self.parts.coordinator, run_id,
                                              proposal=proposal, actor=self.actor,
                                              ttl_s=self.settings.agent_run_open_ttl_s)

    # --- Views of the graph, and its trail ------------------------------------------------

    async def graph_view(self, view: Literal["product", "internal"], limit: int,
                         as_of: int | None = None) -> GraphView:
        if view == "internal":
            return await projection.internal_view(self.graph, limit, as_of)
        return await projection.product_view(self.graph, limit, as_of)

    async def timeline(self, limit: int) -> Timeline:
        return await projection.timeline(self.graph, limit)

    async def audit(self, limit: int, before: int | None = None,
                    cursor: str | None = None) -> AuditList:
        return await lists.audit_page(self.graph, limit=limit, before=before, cursor=cursor)

    # --- Claim vectors (rule 16) ----------------------------------------------------------

    async def embeddings(self) -> EmbeddingProgress:
        return await self.vectors.progress(self.graph)

    async def reembed(self) -> EmbeddingProgress:
        """Drop the workspace's vectors and index, and embed every claim again with the
        configured model, in the background."""
        if not self.vectors.enabled:
            raise InvalidRequest("Embeddings are off in this server (AFTERHACK_EMBEDDINGS).")
        await store_vectors.reset_space(self.graph)
        self.vectors.notify(self.graph)
        return await self.vectors.progress(self.graph)

    # --- The workspace itself: its settings, keys, export and deletion --------------------

    async def workspace(self) -> WorkspaceRow:
        return self.row or await store_workspaces.get_workspace(self.store, self.id)

    async def change_settings(self, updates: UpdatesPolicy | None = None,
                              forget_requests: ForgetRequests | None = None) -> WorkspaceRow:
        return await admin.change_settings(self, updates, forget_requests)

    async def create_key(self, role: KeyRole, name: str) -> NewApiKey:
        return await admin.create_key(self, role, name)

    async def keys(self) -> list[ApiKeyRow]:
        return await admin.list_keys(self)

    async def revoke_key(self, key_id: str) -> ApiKeyRow:
        return await admin.revoke_key(self, key_id)

    async def export(self, format: Literal["json", "prov"] = "json"
                     ) -> ExportDocument | ProvExport:
        doc = await backup.export_workspace(self)
        if format == "prov":
            return prov.to_prov(doc["workspace"], doc["nodes"], doc["edges"])
        return doc

    async def delete(self, wait_s: float | None = None) -> WorkspaceDeletion:
        """Delete the workspace, and ask at once that FalkorDB's files be rewritten so they
        no longer hold it; with ``wait_s``, wait that long for them to be (the record then
        says ``disk: clean``)."""
        deleted = await backup.delete_workspace(self)
        disk = self.parts.disk()
        ticket = disk.request()
        if wait_s is not None:
            await disk.wait(ticket, wait_s)
            deleted = await backup.deletion(self.store, self.id)
        return deleted

    # --- Erasure (rule 22) ------------------------------------------------------------------

    async def preview_erasure(self, target: ErasureTarget) -> ErasurePreview:
        erasure.check_target(target)
        return await erasure.preview_erasure(self.graph, target, policy=self.policy)

    async def erase(self, target: ErasureTarget, seen: str, reason: str | None = None,
                    wait_s: float | None = None) -> AppliedErasure:
        """Apply what the preview (whose token is ``seen``) showed, in one guarded write, and
        ask at once that FalkorDB's files be rewritten; with ``wait_s``, wait that long for
        them to be (the record then says ``disk: clean``)."""
        erasure.check_target(target)
        status, record = await erasure.apply_erasure(
            self.graph, target, impact_token_seen=seen, reason=reason, actor=self.actor,
            policy=self.policy)
        if record["disk"] == "pending":
            disk = self.parts.disk()
            ticket = disk.request()
            if wait_s is not None:
                await disk.wait(ticket, wait_s)
                record = await erasure.get_erasure(self.graph, record["id"])
        return {"status": status, "erasure": record}

    async def erasures(self, statuses: Sequence[ErasureStatus] | None, limit: int,
                       cursor: str | None = None) -> ErasureList:
        return await lists.erasure_page(self.graph, statuses, limit=limit, cursor=cursor)

    async def erasure(self, erasure_id: str) -> ErasureRecord:
        return await erasure.get_erasure(self.graph, erasure_id)

    async def request_erasure(self, target: ErasureTarget, reason: str | None
                              ) -> ErasureRecord:
        """A request to forget ``target`` for a reviewer, filed by a caller who may not
        erase: what erasing it would erase is withheld until the reviewer decides."""
        return await erasure_requests.file_request(self.graph, target, actor=self.actor,
                                                   reason=reason, policy=self.policy)

    async def decline_erasure(self, erasure_id: str, reason: str | None) -> ErasureRecord:
        """A speaker's request declined: the claims it withheld are what they were before."""
        return await erasure_requests.decline_request(self.graph, erasure_id,
                                                      actor=self.actor, reason=reason)
