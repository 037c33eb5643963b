"""A run whose Analyst is an outside agent (over MCP), one tool call per request.

The app keeps no state between requests and any process may serve the next call, so the
run lives in the graph: ``start_run`` stores it ``open``, every search and retrieval appends
the claim ids it returned to the run node, and ``submit_proposal`` gates the proposal with
those persisted sets and ends the run exactly like an in-process one (``conclude_run``).
A claim the agent never searched AND retrieved in this run cannot be cited.
"""

from __future__ import annotations

from pydantic import JsonValue

from afterhack.agents.gate import Evidence
from afterhack.agents.run import Coordinator, RunStart, begin_run, conclude_run
from afterhack.agents.tools import RunTools
from afterhack.errors import InvalidRequest, RunClosed, RunNotFound
from afterhack.model.runs import (
    ClaimSources,
    OpenedRun,
    OpenRunState,
    RunView,
    SearchHit,
    ToolCallLog,
)
from afterhack.records.audit import audit_event
from afterhack.records.clock import now_ms
from afterhack.retrieval.vectors import Vectors
from afterhack.store import runs as store_runs
from afterhack.store.client import Graph

# Who the Analyst was, as recorded on the run (the Coordinator's model is in model_calls).
EXTERNAL_MODEL = "external-agent"
# A run is one question; this bounds how much evidence history one run node carries.
MAX_TOOL_CALLS = 200


async def start_run(g: Graph, *, task: str, builds_on: list[str], actor: str) -> OpenedRun:
    start = await begin_run(g, task=task, builds_on=builds_on, model=EXTERNAL_MODEL)
    await store_runs.create_open_run(
        g, start.row(), started_by=actor,
        audits=[audit_event("agent_run.started", actor, start.id,
                            {"task": task[:500], "builds_on": start.depends_on},
                            at=start.created_at)])
    return {"run_id": start.id, "status": "open", "builds_on": start.depends_on,
            "builds_on_skipped": start.skipped}


async def _open_state(g: Graph, run_id: str, ttl_s: int) -> OpenRunState:
    state = await store_runs.find_run_state(g, run_id)
    if state is None:
        raise RunNotFound(run_id)
    now = now_ms()
    if state["status"] == "open" and now - state["created_at"] > ttl_s * 1000:
        # An agent that walked away should not hold a run (and its evidence) open forever.
        await store_runs.expire_run(g, run_id, now=now, audits=[audit_event(
            "agent_run.expired", "system", run_id, {"open_ttl_s": ttl_s}, at=now)])
        raise RunClosed(run_id=run_id, status="expired")
    if state["status"] != "open":
        raise RunClosed(run_id=run_id, status=state["status"])
    return state


async def _record(g: Graph, run_id: str, tools: RunTools, ttl_s: int) -> None:
    ok = await store_runs.record_tool_call(
        g, run_id, searched=list(tools.evidence.searched),
        retrieved=list(tools.evidence.retrieved), call=tools.calls[-1],
        max_calls=MAX_TOOL_CALLS)
    if ok:
        return
    state = await _open_state(g, run_id, ttl_s)  # raises when the run closed meanwhile
    raise InvalidRequest(f"This run used its {MAX_TOOL_CALLS} tool calls; submit a proposal.",
                         run_id=run_id, tool_calls=len(state["tool_log"]))


async def search_claims(g: Graph, run_id: str, query: str, *, ttl_s: int,
                        vectors: Vectors | None = None,
                        valid_at: int | None = None) -> list[SearchHit]:
    """The Analyst's search_claims, with the hits remembered on the run; with ``valid_at``,
    only the claims valid then."""
    await _open_state(g, run_id, ttl_s)
    tools = RunTools(g, Evidence(), vectors, valid_at=valid_at)
    hits = await tools.search_claims(query)
    await _record(g, run_id, tools, ttl_s)
    return hits


async def get_claim_sources(g: Graph, run_id: str, claim_ids: list[str], *,
                            ttl_s: int) -> list[ClaimSources]:
    """The Analyst's get_claim_sources, with what was actually read remembered on the run."""
    await _open_state(g, run_id, ttl_s)
    tools = RunTools(g, Evidence())
    found = await tools.get_claim_sources(claim_ids)
    await _record(g, run_id, tools, ttl_s)
    return found


async def submit_proposal(g: Graph, coordinator: Coordinator, run_id: str, *,
                          proposal: dict[str, JsonValue], actor: str, ttl_s: int) -> RunView:
    """Gate the proposal with what this run persisted, run the Coordinator, gate again, save."""
    state = await _open_state(g, run_id, ttl_s)
    ev = Evidence()
    ev.saw(state["searched"])
    ev.read(state["retrieved"])
    cited = proposal.get("claim_ids")
    trail: list[ToolCallLog] = [*state["tool_log"], {
        "name": "submit_proposal", "arguments": proposal,
        "claim_ids": [i for i in cited if isinstance(i, str)] if isinstance(cited, list) else []}]
    start = RunStart(id=run_id, task=state["task"], model=state["model"],
                     created_at=state["created_at"], depends_on=state["builds_on"],
                     skipped=state["builds_on_skipped"], open_run=True)
    return await conclude_run(g, coordinator, start, proposal=proposal, evidence=ev,
                              tool_calls=trail, calls=[], actor=actor)
