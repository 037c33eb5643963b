"""Agent runs with their handoffs, and the decision and actions a run produced.

A completed run is written in ONE guarded query: it goes through only if every claim the
decision cites is still current and every decision it builds on is still in good standing,
so a correction racing the run can never leave a decision resting on a superseded claim.

A run driven from outside (MCP) is stored ``open`` first, because the app keeps no state
between requests: each tool call appends what it searched and retrieved to the run node in
one write, and the final write finishes that node instead of creating one.
"""

from __future__ import annotations

import json
from typing import TypedDict

from afterhack.errors import RunNotFound
from afterhack.model.pages import After
from afterhack.model.runs import (
    HandoffRecord,
    OpenRunState,
    RunRecord,
    RunSummary,
    StoredRun,
    ToolCallLog,
)
from afterhack.model.vocab import DecisionStatus, RunStatus
from afterhack.model.writes import AuditEvent
from afterhack.store.audit import CREATE_AUDITS
from afterhack.store.client import Graph
from afterhack.store.cypher import CURRENT, GOOD
from afterhack.store.decisions import NewUse
from afterhack.store.history import born
from afterhack.store.keyset import after_params
from afterhack.store.rows import of


class RunFields(TypedDict):
    """A run as it began (agents.run.RunStart)."""

    id: str
    task: str
    model: str
    created_at: int
    builds_on: list[str]
    builds_on_skipped: str  # JSON: the SkippedDecision list
    error: str | None
    valid_at: int | None  # the time the task was about, if one was given


class RunWrite(RunFields):
    """A run as it ended."""

    status: RunStatus
    model_calls: str  # JSON: the ModelCallRecord list


class HandoffWrite(TypedDict):
    id: str
    seq: int
    from_role: str
    to_role: str
    proposal: str  # JSON
    searched: list[str]
    retrieved: list[str]
    dropped_ids: list[str]
    dropped: str  # JSON: the Dropped list
    tool_calls: str  # JSON: the ToolCallLog list


class NewAction(TypedDict):
    id: str
    description: str


class DecisionWrite(TypedDict):
    id: str
    title: str
    summary: str
    status: DecisionStatus
    uses: list[NewUse]
    depends_on: list[str]
    actions: list[NewAction]
    premise_order: str  # JSON: the premise labels in order
    review_reason: str | None  # JSON: a ReviewReason

_HANDOFFS = """
FOREACH (h IN $handoffs |
  CREATE (r)-[:HAS_HANDOFF]->(:Handoff:Node {id:h.id, seq:h.seq, from_role:h.from_role,
      to_role:h.to_role, proposal:h.proposal, searched_claim_ids:h.searched,
      retrieved_claim_ids:h.retrieved, dropped_claim_ids:h.dropped_ids, dropped:h.dropped,
      tool_calls:h.tool_calls, created_at:$now}))
"""

_CREATE_RUN = """
CREATE (r:AgentRun:Node {id:$run.id, task:$run.task, status:$run.status, model:$run.model,
    created_at:$run.created_at, finished_at:$now, model_calls:$run.model_calls,
    error:$run.error, builds_on:$run.builds_on, builds_on_skipped:$run.builds_on_skipped,
    valid_at:$run.valid_at})
""" + _HANDOFFS

# Only an open run is finished, and only once: a second submit finds nothing to match.
_FINISH_OPEN_RUN = """
MATCH (r:Node {id:$run.id}) WHERE r:AgentRun AND r.status = 'open'
SET r.status = $run.status, r.finished_at = $now, r.model_calls = $run.model_calls,
    r.error = $run.error
""" + _HANDOFFS


def _run_part(open_run: bool) -> str:
    return _FINISH_OPEN_RUN if open_run else _CREATE_RUN


async def save_failed_run(g: Graph, run: RunWrite, handoffs: list[HandoffWrite], *,
                          open_run: bool, now: int, audits: list[AuditEvent]) -> bool:
    """Write a failed run with its trail; False when an open run was no longer open."""
    rows = await g.write(
        _run_part(open_run) + "WITH r " + CREATE_AUDITS + " RETURN r.id AS id",
        {"run": run, "handoffs": handoffs, "now": now, "audits": audits})
    return bool(rows)


async def save_completed_run(g: Graph, run: RunWrite, handoffs: list[HandoffWrite],
                             decision: DecisionWrite, *, open_run: bool, now: int,
                             audits: list[AuditEvent]) -> bool:
    """Write run, handoffs, decision, its support and actions; False when the guard failed
    (a claim it cites is no longer current, or a decision it builds on fell)."""
    claim_ids = list(dict.fromkeys(u["claim_id"] for u in decision["uses"]))
    rows = await g.write(
        f"OPTIONAL MATCH (c:Node) WHERE c:Claim AND c.id IN $claim_ids "
        f"AND c.status IN {CURRENT} "
        "WITH count(DISTINCT c) AS current_claims "
        "OPTIONAL MATCH (up:Node) WHERE up:Decision AND up.id IN $decision.depends_on "
        f"AND up.status IN {GOOD} "
        "WITH current_claims, count(DISTINCT up) AS good_upstream "
        "WHERE current_claims = size($claim_ids) AND good_upstream = size($decision.depends_on) "
        + _run_part(open_run) +
        "CREATE (r)-[:PRODUCED]->(d:Decision:Node {id:$decision.id, title:$decision.title, "
        f"summary:$decision.summary, {born('$decision.status')}, revision:1, created_at:$now, "
        "run_id:$run.id, premise_order:$decision.premise_order, "
        "review_reason:$decision.review_reason}) "
        "WITH r, d "
        "CALL { WITH d UNWIND $decision.uses AS u MATCH (c:Node {id:u.claim_id}) WHERE c:Claim "
        "  CREATE (d)-[:USED_CLAIM {premise:u.premise}]->(c) RETURN count(*) AS n_uses } "
        "CALL { WITH d UNWIND $decision.depends_on AS up_id "
        "  MATCH (up:Node {id:up_id}) WHERE up:Decision "
        "  CREATE (d)-[:DEPENDS_ON]->(up) RETURN count(*) AS n_deps } "
        "CALL { WITH d UNWIND $decision.actions AS a "
        "  CREATE (:Action:Node {id:a.id, description:a.description, " + born("'proposed'") + ", "
        "    revision:1, created_at:$now, held_from:null})-[:REQUIRES]->(d) "
        "  RETURN count(*) AS n_actions } "
        "WITH r, d " + CREATE_AUDITS + " RETURN r.id AS id",
        {"run": run, "handoffs": handoffs, "decision": decision, "claim_ids": claim_ids,
         "now": now, "audits": audits},
    )
    return bool(rows)


_RUN = of(RunRecord)
_HANDOFF = of(HandoffRecord)
_SUMMARY = of(RunSummary)
_OPEN_RUN = of(OpenRunState)


async def get_run(g: Graph, run_id: str) -> StoredRun:
    rows = await g.read(
        "MATCH (r:Node {id:$id}) WHERE r:AgentRun "
        "RETURN r {.id, .task, .status, .model, .created_at, .finished_at, .model_calls, "
        ".error, .builds_on, .builds_on_skipped, .valid_at} AS run, "
        "[(r)-[:HAS_HANDOFF]->(h:Handoff) | h {.id, .seq, .from_role, .to_role, .proposal, "
        ".searched_claim_ids, .retrieved_claim_ids, .dropped_claim_ids, .dropped, "
        ".tool_calls}] AS handoffs, "
        "[(r)-[:PRODUCED]->(d:Decision) | d.id] AS decision_ids",
        {"id": run_id},
    )
    row = rows.first()
    if row is None:
        raise RunNotFound(run_id)
    run = dict(row["run"])
    for k in ("model_calls", "builds_on_skipped"):
        run[k] = json.loads(run[k]) if run.get(k) else []
    handoffs = []
    for h in sorted(row["handoffs"], key=lambda h: h["seq"]):
        h = dict(h)
        for k in ("proposal", "dropped", "tool_calls"):
            h[k] = json.loads(h[k]) if h.get(k) else ([] if k != "proposal" else {})
        handoffs.append(_HANDOFF.one(h))
    return {"run": _RUN.one(run), "handoffs": handoffs,
            "decision_ids": list(row["decision_ids"])}


async def list_runs(g: Graph, *, limit: int, offset: int,
                    after: After | None = None) -> list[RunSummary]:
    """Runs newest first; with ``after``, those after that position (paging.py)."""
    rows = await g.read(
        "MATCH (r:AgentRun) WHERE $at_after IS NULL OR r.created_at < $at_after "
        "OR (r.created_at = $at_after AND r.id > $id_after) "
        "RETURN r.id AS id, r.task AS task, r.status AS status, "
        "r.model AS model, r.created_at AS created_at, "
        "[(r)-[:PRODUCED]->(d:Decision) | d.id] AS decision_ids "
        "ORDER BY r.created_at DESC, r.id SKIP $offset LIMIT $limit",
        {"limit": limit, "offset": offset, **after_params(after)},
    )
    return _SUMMARY.all(rows)


async def count_runs(g: Graph) -> int:
    return int((await g.read("MATCH (r:AgentRun) RETURN count(r) AS n")).scalar() or 0)


_OPEN_FIELDS = (
    "r.id AS id, r.status AS status, r.task AS task, r.model AS model, "
    "r.created_at AS created_at, r.builds_on AS builds_on, "
    "r.builds_on_skipped AS builds_on_skipped, r.searched_claim_ids AS searched, "
    "r.retrieved_claim_ids AS retrieved, r.tool_log AS tool_log"
)


async def create_open_run(g: Graph, run: RunFields, *, started_by: str,
                          audits: list[AuditEvent]) -> None:
    """Store a run that an outside agent will drive through separate tool calls."""
    await g.write(
        "CREATE (r:AgentRun:Node {id:$run.id, task:$run.task, status:'open', model:$run.model, "
        "created_at:$run.created_at, finished_at:null, model_calls:null, error:null, "
        "builds_on:$run.builds_on, builds_on_skipped:$run.builds_on_skipped, "
        "started_by:$run.started_by, searched_claim_ids:[], retrieved_claim_ids:[], "
        "tool_log:[]}) WITH r " + CREATE_AUDITS + " RETURN r.id AS id",
        {"run": {**run, "started_by": started_by}, "audits": audits},
    )


async def expire_run(g: Graph, run_id: str, *, now: int, audits: list[AuditEvent]) -> bool:
    """Close a run that stayed open too long; False when it was no longer open."""
    rows = await g.write(
        "MATCH (r:Node {id:$id}) WHERE r:AgentRun AND r.status = 'open' "
        "SET r.status = 'expired', r.error = 'expired', r.finished_at = $now "
        "WITH r " + CREATE_AUDITS + " RETURN r.id AS id",
        {"id": run_id, "now": now, "audits": audits})
    return bool(rows)


async def find_run_state(g: Graph, run_id: str) -> OpenRunState | None:
    """What the gate needs of a run: its status, task and the evidence it has seen."""
    rows = await g.read("MATCH (r:Node {id:$id}) WHERE r:AgentRun RETURN " + _OPEN_FIELDS,
                        {"id": run_id})
    row = rows.first()
    if row is None:
        return None
    out = dict(row)
    out["builds_on"] = list(out["builds_on"] or [])
    out["builds_on_skipped"] = json.loads(out["builds_on_skipped"] or "[]")
    for k in ("searched", "retrieved"):
        out[k] = list(out[k] or [])
    out["tool_log"] = [json.loads(c) for c in out["tool_log"] or []]
    return _OPEN_RUN.one(out)


async def record_tool_call(g: Graph, run_id: str, *, searched: list[str], retrieved: list[str],
                           call: ToolCallLog, max_calls: int) -> bool:
    """Append one tool call's evidence to an open run in one write; False when the run is
    not open (or has used up its tool calls)."""
    rows = await g.write(
        "MATCH (r:Node {id:$id}) WHERE r:AgentRun AND r.status = 'open' "
        "AND size(r.tool_log) < $max "
        "SET r.searched_claim_ids = r.searched_claim_ids + "
        "    [i IN $searched WHERE NOT i IN r.searched_claim_ids], "
        "    r.retrieved_claim_ids = r.retrieved_claim_ids + "
        "    [i IN $retrieved WHERE NOT i IN r.retrieved_claim_ids], "
        "    r.tool_log = r.tool_log + [$call] "
        "RETURN r.id AS id",
        {"id": run_id, "searched": list(dict.fromkeys(searched)),
         "retrieved": list(dict.fromkeys(retrieved)), "max": max_calls,
         "call": json.dumps(call, ensure_ascii=False, default=str)[:200_000]},
    )
    return bool(rows)
