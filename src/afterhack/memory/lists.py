"""The lists a client pages through (claims page in hybrid.py, conflicts in conflicts.py):
each page is read one item past its size, so it knows whether another follows, beside the
count of the whole list (cheap here: a label's count, or an indexed status)."""

from __future__ import annotations

from collections.abc import Sequence

from afterhack.memory import paging
from afterhack.model.pages import (
    ActionList,
    AuditList,
    DecisionList,
    ErasureList,
    RunList,
    SourceList,
    WorkspaceList,
)
from afterhack.model.vocab import ActionStatus, DecisionStatus, ErasureStatus
from afterhack.store import audit, decisions, erasure_records, runs, sources, workspaces
from afterhack.store.client import Graph, Store, concurrently


async def source_page(g: Graph, *, limit: int, offset: int = 0,
                      cursor: str | None = None) -> SourceList:
    after = paging.parse_after("sources", cursor, offset)
    rows, total = await concurrently(
        sources.list_sources(g, limit=limit + 1, offset=offset, after=after),
        sources.count_sources(g))
    return {"items": rows[:limit], "total": total,
            "next_cursor": paging.next_after("sources", rows, limit)}


async def run_page(g: Graph, *, limit: int, offset: int = 0,
                   cursor: str | None = None) -> RunList:
    after = paging.parse_after("runs", cursor, offset)
    rows, total = await concurrently(
        runs.list_runs(g, limit=limit + 1, offset=offset, after=after), runs.count_runs(g))
    return {"items": rows[:limit], "total": total,
            "next_cursor": paging.next_after("runs", rows, limit)}


async def decision_page(g: Graph, statuses: Sequence[DecisionStatus] | None, *, limit: int,
                        offset: int = 0, cursor: str | None = None) -> DecisionList:
    after = paging.parse_after("decisions", cursor, offset)
    rows, total = await concurrently(
        decisions.list_decisions(g, statuses, limit=limit + 1, offset=offset, after=after),
        decisions.count_decisions(g, statuses))
    return {"items": rows[:limit], "total": total,
            "next_cursor": paging.next_after("decisions", rows, limit)}


async def action_page(g: Graph, statuses: Sequence[ActionStatus] | None, *, limit: int,
                      cursor: str | None = None) -> ActionList:
    after = paging.parse_after("actions", cursor)
    rows, total = await concurrently(
        decisions.list_actions(g, statuses, limit=limit + 1, after=after),
        decisions.count_actions(g, statuses))
    return {"items": rows[:limit], "total": total,
            "next_cursor": paging.next_after("actions", rows, limit)}


async def erasure_page(g: Graph, statuses: Sequence[ErasureStatus] | None, *, limit: int,
                       cursor: str | None = None) -> ErasureList:
    """Erasures and requests, newest first (docs/rules.md, rule 22)."""
    after = paging.parse_after("erasures", cursor)
    rows, total = await concurrently(
        erasure_records.list_erasures(g, statuses, limit=limit + 1, after=after),
        erasure_records.count_erasures(g, statuses))
    return {"items": rows[:limit], "total": total,
            "next_cursor": paging.next_after("erasures", rows, limit)}


async def audit_page(g: Graph, *, limit: int, before: int | None = None,
                     cursor: str | None = None) -> AuditList:
    """Newest first: before a time (``before``, as the trail was read before cursors), then
    a page after the cursor's position."""
    after = paging.parse_after("audit", cursor)
    rows, total = await concurrently(
        audit.list_audit(g, limit=limit + 1, before=before, after=after),
        audit.count_audit(g, before))
    return {"items": rows[:limit], "total": total,
            "next_cursor": paging.next_after("audit", rows, limit, at="at")}


async def workspace_page(store: Store, *, limit: int, offset: int = 0,
                         cursor: str | None = None,
                         ids: list[str] | None = None) -> WorkspaceList:
    """A page of the workspaces ``ids`` names (all without): one still being made is not
    listed, so a page can be short with more after it; follow ``next_cursor``."""
    after = paging.parse_after("workspaces", cursor, offset)
    entries, total = await concurrently(
        workspaces.workspace_entries(store, limit=limit + 1, offset=offset, ids=ids,
                                     after=after),
        workspaces.count_workspaces(store, ids))
    ready = await workspaces.ready_workspaces(store, [e["id"] for e in entries[:limit]])
    return {"items": ready, "total": total,
            "next_cursor": paging.next_after("workspaces", entries, limit),
            "limit": limit, "offset": offset}
