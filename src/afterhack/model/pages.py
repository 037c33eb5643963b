"""Pages of the lists (paging.py says how a cursor reads): each page's items, the cursor of
the next page (None on the last), and how many items the whole list holds where counting
them costs little (None where it does not). The domain builds them (lists.py), so they are
records here rather than in wire/; each is its route's response schema."""

from __future__ import annotations

from dataclasses import dataclass

from typing_extensions import TypedDict

from afterhack.model.audit import AuditEntry
from afterhack.model.conflicts import ConflictRecord
from afterhack.model.decisions import ActionRecord, DecisionView
from afterhack.model.erasures import ErasureRecord
from afterhack.model.runs import RunSummary
from afterhack.model.sources import SourceRow
from afterhack.model.workspaces import WorkspaceRow


@dataclass(frozen=True)
class After:
    """The sort key of the last item of the previous page: the next page starts after it."""

    at: int
    id: str


class PageKey(TypedDict):
    """What a page's position is read from: the sort key of an item (listed or not)."""

    id: str
    created_at: int


class SourceList(TypedDict):
    items: list[SourceRow]  # oldest first
    next_cursor: str | None
    total: int | None


class RunList(TypedDict):
    items: list[RunSummary]  # newest first
    next_cursor: str | None
    total: int | None


class DecisionList(TypedDict):
    items: list[DecisionView]  # newest first
    next_cursor: str | None
    total: int | None


class ActionList(TypedDict):
    items: list[ActionRecord]  # newest first
    next_cursor: str | None
    total: int | None


class ConflictList(TypedDict):
    items: list[ConflictRecord]  # newest first
    next_cursor: str | None
    total: int | None  # None as of a time: statuses then are not counted


class ErasureList(TypedDict):
    items: list[ErasureRecord]  # newest first
    next_cursor: str | None
    total: int | None


class AuditList(TypedDict):
    items: list[AuditEntry]  # newest first
    next_cursor: str | None
    total: int | None


class WorkspaceList(TypedDict):
    items: list[WorkspaceRow]  # oldest first
    next_cursor: str | None
    # Registered workspaces this key can see; one still being made is counted, not listed.
    total: int | None
    # The page's size and the offset it was asked for (clients from before cursors).
    limit: int
    offset: int
