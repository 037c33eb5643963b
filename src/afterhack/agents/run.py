"""One agent run: the Analyst's tool loop, the gate, the Coordinator, the gate again, persist.

The run is written once, at the end: a completed run together with its decision and actions
in one guarded query, or a failed run with its trail and no decision at all. An outside
agent (MCP) is the Analyst of an open run instead; its proposal ends the same way, through
``conclude_run``.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, replace
from typing import Protocol

from afterhack.agents.gate import (
    NO_ANSWER_TITLE,
    Evidence,
    Gated,
    Premise,
    Statements,
    gate,
    unique_premise_labels,
)
from afterhack.agents.tools import RunTools
from afterhack.errors import (
    DecisionNotFound,
    GatewayError,
    GatewayInvalidOutput,
    InvalidRequest,
    RunClosed,
)
from afterhack.memory import claims
from afterhack.memory.conflicts import Disagreement, disagreements
from afterhack.memory.scope import until_written
from afterhack.model.calls import ModelCall, ModelCallRecord
from afterhack.model.decisions import NoEvidenceReason, ReviewReason, SourcesDisagreeReason
from afterhack.model.runs import (
    ClaimEvidence,
    Dropped,
    GatedProposal,
    RunView,
    SkippedDecision,
    ToolCallLog,
)
from afterhack.model.vocab import CURRENT_CLAIM, GOOD_STANDING, DecisionStatus
from afterhack.model.writes import AuditEvent
from afterhack.records.audit import audit_event
from afterhack.records.clock import now_ms
from afterhack.records.ids import new_id
from afterhack.retrieval.vectors import Vectors
from afterhack.store import claims as store_claims
from afterhack.store import decisions as store_decisions
from afterhack.store import runs as store_runs
from afterhack.store.client import Graph
from afterhack.store.runs import DecisionWrite, HandoffWrite, NewAction, RunFields, RunWrite

_MAX_BUILDS_ON = 20
_SAVE_ATTEMPTS = 4
# The no_evidence detail of a run whose Coordinator answered with no usable JSON object.
_UNUSABLE = "coordinator_output_unusable"


class Analyst(Protocol):
    name: str

    async def run(self, tools: RunTools, task: str,
                  max_rounds: int) -> tuple[object, list[ModelCall]]:
        """The proposal (a model's output: anything, until the gate has read it)."""
        ...


class Coordinator(Protocol):
    name: str

    async def run(self, task: str, proposal: GatedProposal,
                  evidence: dict[str, ClaimEvidence]) -> tuple[object, ModelCall]:
        """The decision (a model's output: anything, until the gate has read it)."""
        ...


def _gated_proposal(g: Gated) -> GatedProposal:
    return {"answer": g.answer, "claim_ids": g.claim_ids,
            "premises": [{"statement": p.statement, "claim_ids": p.claim_ids}
                         for p in g.premises],
            "proposed_actions": g.actions}


def _handoff(seq: int, src: str, dst: str, proposal: object, ev: Evidence,
             dropped: list[Dropped], tool_calls: list[ToolCallLog]) -> HandoffWrite:
    return {
        "id": new_id(), "seq": seq, "from_role": src, "to_role": dst,
        "proposal": json.dumps(proposal, ensure_ascii=False, default=str)[:200_000],
        "searched": list(ev.searched), "retrieved": list(ev.retrieved),
        "dropped_ids": [d["claim_id"] for d in dropped],
        "dropped": json.dumps(dropped, ensure_ascii=False),
        "tool_calls": json.dumps(tool_calls, ensure_ascii=False, default=str)[:200_000],
    }


async def _label_unknown(g: Graph, dropped: list[Dropped]) -> None:
    """Tell an invented id (no such claim) from one this run never searched."""
    ids = [d["claim_id"] for d in dropped if d["reason"] == "not_searched"]
    if not ids:
        return
    known = await store_claims.find_claims(g, ids[:500])
    for d in dropped:
        if d["reason"] == "not_searched" and d["claim_id"] not in known:
            d["reason"] = "unknown"


async def _coordinator_evidence(g: Graph, ids: list[str]) -> dict[str, ClaimEvidence]:
    rows = await store_claims.find_claims(g, ids)
    sources = await claims.claim_sources(g, ids)
    return {
        i: {"claim_id": i, "statement": rows[i]["statement"],
            "fragments": [{"text": f["text"], "origin_type": f["origin_type"],
                           "origin_name": f["origin_name"]} for f in sources.get(i, [])]}
        for i in ids if i in rows
    }


async def _resolve_builds_on(g: Graph,
                             builds_on: list[str]) -> tuple[list[str], list[SkippedDecision]]:
    ids = list(dict.fromkeys(builds_on))
    if len(ids) > _MAX_BUILDS_ON:
        raise InvalidRequest(f"builds_on names at most {_MAX_BUILDS_ON} decisions.")
    found = await store_decisions.find_decisions(g, ids) if ids else {}
    for i in ids:
        if i not in found:
            raise DecisionNotFound(i)
    good = [i for i in ids if found[i]["status"] in GOOD_STANDING]
    skipped: list[SkippedDecision] = [{"decision_id": i, "status": found[i]["status"]}
                                      for i in ids if i not in good]
    return good, skipped


@dataclass(frozen=True)
class _Draft:
    """The decision a run is about to write."""

    title: str
    summary: str
    status: DecisionStatus
    premises: list[Premise]
    actions: list[str]
    review_reason: ReviewReason | None


def _decision(task: str, out: object, g2: Gated) -> _Draft:
    o = out if isinstance(out, dict) else {}
    raw_title = o.get("title")
    title = raw_title if isinstance(raw_title, str) and raw_title.strip() else task
    raw_summary = o.get("summary")
    summary = raw_summary if isinstance(raw_summary, str) else g2.answer
    return _Draft(title=title.strip()[:300], summary=(summary or "").strip()[:5000],
                  status="draft", premises=g2.premises, actions=g2.actions, review_reason=None)


def _no_answer(reason: str) -> _Draft:
    why: NoEvidenceReason = {"type": "no_evidence", "detail": reason}
    summary = ("The Coordinator's answer was not a JSON object a decision could be written "
               "from (asked twice): nothing was decided." if reason == _UNUSABLE else
               "No claim survived the evidence check: nothing was both found and read from "
               "its source in this run.")
    return _Draft(title=NO_ANSWER_TITLE, summary=summary, status="needs_review", premises=[],
                  actions=[], review_reason=why)


def _disputed(task: str, decision: _Draft, disputes: list[Disagreement],
              statements: Statements) -> _Draft:
    """The decision of a run whose evidence holds both sides of open conflicts: both sides
    cited (as alternatives of one premise per conflict), needs_review, no action."""
    disputed = {i for d in disputes for i in d.claim_ids}
    premises = [Premise(p.statement, [c for c in p.claim_ids if c not in disputed])
                for p in decision.premises]
    premises = [p for p in premises if p.claim_ids]
    sides: list[str] = []
    for d in disputes:
        said = list(dict.fromkeys(statements.get(c, ("", c))[1] for c in d.claim_ids))
        sides.append(" vs ".join(f'"{x}"' for x in said))
        premises.append(Premise(("Sources disagree: " + " / ".join(said))[:500],
                                list(d.claim_ids)))
    title = decision.title if decision.title != NO_ANSWER_TITLE else task
    why: SourcesDisagreeReason = {"type": "sources_disagree",
                                  "conflict_ids": [d.conflict_id for d in disputes],
                                  "claim_ids": sorted(disputed)}
    return _Draft(title=title.strip()[:300] or "Sources disagree",
                  summary=("The sources disagree: " + "; ".join(sides)
                           + ". Resolve the conflict before acting on it.")[:5000],
                  status="needs_review", premises=unique_premise_labels(premises),
                  actions=[], review_reason=why)


@dataclass
class RunStart:
    """A run as it began: in-process (written once, at the end) or open in the graph (MCP)."""

    id: str
    task: str
    model: str
    created_at: int
    depends_on: list[str]
    skipped: list[SkippedDecision]
    # True when the run is already stored with status 'open' and the end finishes that node.
    open_run: bool = False
    # perf_counter at the start, for the run's own duration; None means "from created_at".
    t0: float | None = None
    # The time the task is about (its searches found the claims valid then).
    valid_at: int | None = None

    def row(self) -> RunFields:
        return {"id": self.id, "task": self.task, "model": self.model,
                "created_at": self.created_at, "builds_on": self.depends_on,
                "builds_on_skipped": json.dumps(self.skipped), "error": None,
                "valid_at": self.valid_at}

    def elapsed_ms(self) -> float:
        if self.t0 is not None:
            return (time.perf_counter() - self.t0) * 1000
        return float(now_ms() - self.created_at)


async def begin_run(g: Graph, *, task: str, builds_on: list[str], model: str) -> RunStart:
    depends_on, skipped = await _resolve_builds_on(g, builds_on)
    return RunStart(id=new_id(), task=task, model=model, created_at=now_ms(),
                    depends_on=depends_on, skipped=skipped, t0=time.perf_counter())


async def run_agent(g: Graph, analyst: Analyst, coordinator: Coordinator, *, task: str,
                    builds_on: list[str], actor: str, max_rounds: int,
                    vectors: Vectors | None = None,
                    valid_at: int | None = None) -> RunView:
    """Run the Analyst and the Coordinator on ``task``; with ``valid_at`` (the time the task
    is about), the Analyst's searches find only the current claims valid then."""
    start = await begin_run(g, task=task, builds_on=builds_on, model=analyst.name)
    start.valid_at = valid_at
    ev = Evidence()
    tools = RunTools(g, ev, vectors, valid_at=valid_at)
    try:
        proposal, analyst_calls = await analyst.run(tools, task, max_rounds)
    except GatewayError as exc:
        trail = [_handoff(0, "analyst", "coordinator", {"error": exc.code}, ev, [], tools.calls)]
        await _save_failed(g, start, exc, list(exc.model_calls or []), trail, actor)
        raise
    return await conclude_run(g, coordinator, start, proposal=proposal, evidence=ev,
                              tool_calls=tools.calls, calls=analyst_calls, actor=actor)


async def conclude_run(g: Graph, coordinator: Coordinator, start: RunStart, *,
                       proposal: object, evidence: Evidence, tool_calls: list[ToolCallLog],
                       calls: list[ModelCall], actor: str) -> RunView:
    """Gate the Analyst's proposal, run the Coordinator on what survived, gate its output
    again, and save the run with its decision and actions. Shared by the in-process run and
    the MCP path, where an outside agent was the Analyst."""
    ev = evidence
    calls = list(calls)
    handoffs: list[HandoffWrite] = []
    try:
        # Statement keys of what the run may cite: uncited-premise grouping needs them.
        statements = await store_claims.statement_keys(g, ev.allowed())
        gated = gate(proposal, ev, actions_key="proposed_actions", statements=statements)
        await _label_unknown(g, gated.dropped)
        handoffs.append(_handoff(0, "analyst", "coordinator", proposal, ev, gated.dropped,
                                 tool_calls))
        if gated.empty:
            decision = _no_answer("analyst")
        else:
            evidence_for = await _coordinator_evidence(g, gated.claim_ids)
            t0 = time.perf_counter()
            try:
                out, ccall = await coordinator.run(start.task, _gated_proposal(gated),
                                                   evidence_for)
            except GatewayInvalidOutput as exc:
                # The model answered, with nothing a decision can be written from: that is
                # no answer (needs_review, said so), not a failure of the gateway.
                out, ccall = {"error": exc.code}, ModelCall(
                    "coordinator", (time.perf_counter() - t0) * 1000, False, error=exc.code)
            except GatewayError as exc:
                calls.append(ModelCall("coordinator", (time.perf_counter() - t0) * 1000, False,
                                       error=exc.code))
                raise
            calls.append(ccall)
            gated2 = gate(out, ev, actions_key="actions", statements=statements)
            await _label_unknown(g, gated2.dropped)
            handoffs.append(_handoff(1, "coordinator", "decision", out, ev, gated2.dropped, []))
            decision = (_no_answer(_UNUSABLE if not ccall.ok else "coordinator")
                        if gated2.empty else _decision(start.task, out, gated2))
    except GatewayError as exc:
        if not handoffs:
            handoffs.append(_handoff(0, "analyst", "coordinator", {"error": exc.code}, ev, [],
                                     tool_calls))
        await _save_failed(g, start, exc, calls, handoffs, actor)
        raise
    # A run does not pick a side: evidence holding both sides of an open conflict makes
    # the decision a question for a reviewer, citing both, with no action.
    disputes = await disagreements(g, ev.allowed())
    if disputes:
        decision = _disputed(start.task, decision, disputes, statements)
    records: list[ModelCallRecord] = [c.as_dict() for c in calls]
    records.append({"role": "run", "duration_ms": start.elapsed_ms(), "ok": True})
    run: RunWrite = {**start.row(), "status": "completed", "model_calls": json.dumps(records)}
    await _save(g, start, run, handoffs, decision, actor)
    return await get_run_view(g, start.id)


async def _save_failed(g: Graph, start: RunStart, exc: GatewayError, calls: list[ModelCall],
                       handoffs: list[HandoffWrite], actor: str) -> None:
    run: RunWrite = {**start.row(), "status": "failed", "error": exc.code,
                     "model_calls": json.dumps([c.as_dict() for c in calls])}
    # An open run that another submit closed meanwhile keeps that outcome; the error stands.
    await store_runs.save_failed_run(
        g, run, handoffs, open_run=start.open_run, now=now_ms(),
        audits=[audit_event("agent_run.failed", actor, start.id, {"error": exc.code})])
    exc.details["run_id"] = start.id


async def _save(g: Graph, start: RunStart, run: RunWrite, handoffs: list[HandoffWrite],
                decision: _Draft, actor: str) -> None:
    """The run, its handoffs, its decision and actions in one write, guarded on the claims it
    cites and the decisions it builds on; planned again on what is still current."""
    decision_id = new_id()
    depends_on = start.depends_on

    async def attempt() -> bool | None:
        nonlocal decision, depends_on
        premises = decision.premises
        claim_ids = list(dict.fromkeys(c for p in premises for c in p.claim_ids))
        write, audits = _decision_write(decision_id, decision, depends_on, run["id"], actor)
        if await store_runs.save_completed_run(g, run, handoffs, write, open_run=start.open_run,
                                               now=now_ms(), audits=audits):
            return True
        if start.open_run:
            state = await store_runs.find_run_state(g, start.id)
            if state is None or state["status"] != "open":
                raise RunClosed(run_id=start.id, status=state["status"] if state else None)
        # A claim was corrected (or an upstream decision fell) while the run was thinking:
        # cite only what is still current, and say so on the trail.
        current = await store_claims.find_claims(g, claim_ids)
        gone = [c for c in claim_ids
                if c not in current or current[c]["status"] not in CURRENT_CLAIM]
        ups = await store_decisions.find_decisions(g, depends_on)
        depends_on = [d for d in depends_on if d in ups and ups[d]["status"] in GOOD_STANDING]
        kept = [Premise(p.statement, [c for c in p.claim_ids if c not in gone])
                for p in premises]
        kept = [p for p in kept if p.claim_ids]
        dropped: list[Dropped] = [{"claim_id": c, "reason": "superseded_during_run"}
                                  for c in gone]
        if handoffs:
            prior = json.loads(handoffs[-1]["dropped"])
            handoffs[-1]["dropped"] = json.dumps(prior + dropped)
            handoffs[-1]["dropped_ids"] = handoffs[-1]["dropped_ids"] + gone
        # Losing a whole premise means the decision no longer stands on its evidence.
        if len(kept) < len(premises) or not kept:
            decision = _no_answer("superseded_during_run")
        else:
            decision = replace(decision, premises=kept)
        return None

    await until_written(attempt, _SAVE_ATTEMPTS,
                        "The claims this run cites kept changing; run it again.")


def _decision_write(decision_id: str, decision: _Draft, depends_on: list[str], run_id: str,
                    actor: str) -> tuple[DecisionWrite, list[AuditEvent]]:
    """The decision a run wrote, its actions, and the audit events of both."""
    premises = decision.premises
    actions: list[NewAction] = [{"id": new_id(), "description": a} for a in decision.actions]
    write: DecisionWrite = {
        "id": decision_id, "title": decision.title, "summary": decision.summary,
        "status": decision.status,
        "uses": [{"claim_id": c, "premise": p.statement} for p in premises
                 for c in p.claim_ids],
        "depends_on": depends_on, "actions": actions,
        "premise_order": json.dumps([p.statement for p in premises]),
        "review_reason": json.dumps(decision.review_reason)
        if decision.review_reason else None,
    }
    claim_ids = list(dict.fromkeys(c for p in premises for c in p.claim_ids))
    audits = [
        audit_event("agent_run.completed", actor, run_id, {"decision_id": decision_id}),
        audit_event("decision.created", actor, decision_id,
                    {"status": decision.status, "claims": claim_ids,
                     "actions": [a["id"] for a in actions]}),
    ]
    return write, audits


async def get_run_view(g: Graph, run_id: str) -> RunView:
    base = await store_runs.get_run(g, run_id)
    decision = None
    actions = []
    if base["decision_ids"]:
        decision = await store_decisions.get_decision(g, base["decision_ids"][0])
        actions = decision["actions"]
    return {"run": base["run"], "handoffs": base["handoffs"], "decision": decision,
            "actions": actions}
