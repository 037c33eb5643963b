"""What a use case of the memory runs with, so no call site unpacks it: the parts every
workspace of this process shares (the store, the settings, the model's parts), and one
workspace's graph for one caller.

``Parts`` is built once when the service starts (runtime/services.py); a ``Scope`` once per
request, MCP call or command, by ``Workspaces.open`` (memory/workspaces.py). The use cases
(ingest.py, conversations.py, repair.py, ...) take a Scope and the request's own data;
``WorkspaceMemory`` (memory/workspace.py) is the Scope with those use cases as methods.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeVar

from afterhack.access import Caller
from afterhack.config import Settings
from afterhack.errors import AfterhackError, WorkspaceBusy
from afterhack.files import ReadDocument
from afterhack.llm.judge import ConflictJudge
from afterhack.memory.extraction import Extractor
from afterhack.model.vocab import ForgetRequests, SupportPolicy, UpdatesPolicy
from afterhack.model.workspaces import WorkspaceRow
from afterhack.retrieval.vectors import Vectors
from afterhack.store.client import Graph, Store

if TYPE_CHECKING:
    # The agents' roles run the memory's own searches, and the disk is the runtime's: typed
    # here, never imported at run time.
    from afterhack.agents.run import Analyst, Coordinator
    from afterhack.runtime.disk_scrub import DiskScrub

T = TypeVar("T")

# A file's bytes, name and declared type to the document read from them: the process's file
# readers, each file in a worker process within its limits (runtime/sandbox.py).
ReadFile = Callable[[bytes, str | None, str | None], Awaitable[ReadDocument]]


@dataclass(frozen=True, slots=True)
class Parts:
    """What every workspace's memory in this process shares."""

    store: Store
    settings: Settings
    extractor: Extractor
    analyst: Analyst
    coordinator: Coordinator
    # Decides whether two statements contradict (the offline detector or the gateway's).
    judge: ConflictJudge
    # Claim embeddings (search by meaning); embeddings off is Vectors(None).
    vectors: Vectors
    # What rewrites FalkorDB's files after an erasure (runtime/disk_scrub.py), asked each
    # time: the one the service holds then.
    disk: Callable[[], DiskScrub]
    # Reads an uploaded file to text (runtime/sandbox.py).
    read_file: ReadFile

    @property
    def conflict_judge(self) -> ConflictJudge | None:
        """The judge new claims are checked with; None when checks are off."""
        return self.judge if self.settings.conflict_checks else None


@dataclass(frozen=True, slots=True)
class Scope:
    """One workspace, for one caller. ``row`` is None when the workspace was not read first
    (a hot read whose own query proves the workspace is there: Workspaces.at)."""

    parts: Parts
    id: str
    graph: Graph
    caller: Caller
    row: WorkspaceRow | None = None

    @property
    def settings(self) -> Settings:
        return self.parts.settings

    @property
    def store(self) -> Store:
        return self.parts.store

    @property
    def extractor(self) -> Extractor:
        return self.parts.extractor

    @property
    def judge(self) -> ConflictJudge | None:
        """The conflict judge new claims are checked with; None when checks are off."""
        return self.parts.conflict_judge

    @property
    def policy(self) -> SupportPolicy:
        return self.parts.settings.support_policy

    @property
    def vectors(self) -> Vectors:
        return self.parts.vectors

    @property
    def actor(self) -> str:
        return self.caller.actor

    @property
    def updates(self) -> UpdatesPolicy:
        """How the workspace takes a newer statement by the same speaker (rule 11)."""
        assert self.row is not None, "a workspace opened without its row (Workspaces.at)"
        return self.row["updates"]

    @property
    def forget_requests(self) -> ForgetRequests:
        """How the workspace takes a speaker's request to forget (rule 22)."""
        assert self.row is not None, "a workspace opened without its row (Workspaces.at)"
        return self.row["forget_requests"]


async def until_written(attempt: Callable[[], Awaitable[T | None]], attempts: int,
                        busy: str | AfterhackError) -> T:
    """Plan and write again while the write finds that what it was planned on has changed:
    ``attempt`` reads, plans and writes once, and answers None when the write's guard
    refused. After ``attempts`` refusals, ``busy`` is raised (a message: 409
    ``workspace_busy``)."""
    for _ in range(attempts):
        done = await attempt()
        if done is not None:
            return done
    raise WorkspaceBusy(busy) if isinstance(busy, str) else busy
