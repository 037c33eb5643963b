"""Agent runs: what a run costs beyond its model, per tool call.

Each run is ``POST /agent-runs`` with the offline model. Its model time is what the run
records for its model calls (``run.model_calls[].duration_ms``, the Analyst's and the
Coordinator's own time, without the tools they call); the rest of the request's wall time
is the product's overhead: the tools' store reads, the evidence gate, writing the run,
decision and actions in one query, and reading the run back. It is divided by the tool
calls the run made (from its handoff trail).
"""

from __future__ import annotations

from functools import partial

from afterhack_tools.bench.floors import Floors
from afterhack_tools.bench.harness import Harness
from afterhack_tools.bench.records import AgentRunFigures
from afterhack_tools.bench.stats import summary, timed


async def measure_agent_runs(h: Harness, ws_id: str, tasks: list[str], floors: Floors,
                             *, warmup: int = 2) -> AgentRunFigures:
    assert h.http is not None
    wall: list[float] = []
    model: list[float] = []
    overhead: list[float] = []
    per_tool: list[float] = []
    tools: list[int] = []
    cited: list[int] = []
    for i, task in enumerate(tasks):
        if i >= warmup:
            await floors.tick()
        ms, r = await timed(partial(h.http.post, f"/api/workspaces/{ws_id}/agent-runs",
                                    json={"task": task}))
        if r.status_code != 201:
            raise RuntimeError(f"agent run answered {r.status_code}: {r.text[:500]}")
        view = r.json()
        model_ms = sum(c["duration_ms"] for c in view["run"]["model_calls"]
                       if c["role"] != "run")
        n_tools = sum(len(hd["tool_calls"]) for hd in view["handoffs"])
        if i < warmup:
            continue
        wall.append(ms)
        model.append(model_ms)
        overhead.append(ms - model_ms)
        per_tool.append((ms - model_ms) / max(1, n_tools))
        tools.append(n_tools)
        d = view["decision"] or {}
        cited.append(sum(len(p["claims"]) for p in d.get("premises", [])))
    return {
        "wall": summary(wall),
        "model": summary(model),
        "overhead": summary(overhead),
        "overhead_per_tool_call": summary(per_tool),
        "tool_calls_per_run": round(sum(tools) / len(tools), 2),
        "claims_cited_per_run": round(sum(cited) / len(cited), 2),
    }
