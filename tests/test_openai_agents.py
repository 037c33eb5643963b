"""memory_tools against the live app: the Agents SDK's FunctionTools, the server's evidence
gate holding whatever the model cites, and an agent on the offline model."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from agents import Agent, FunctionTool, Runner, Tool, set_tracing_disabled
from agents.tool_context import ToolContext

from afterhack.client import Client
from afterhack.integrations.offline_model import NAME, OfflineAnalystModel
from afterhack.integrations.openai_agents import memory_tools
from tests.support.paths import ROOT
from tests.support.procs import AppProcess
from tests.support.texts import JUNE, VENUE

CATERING = "The catering budget is 8,000 euros."


@pytest.fixture(autouse=True)
def _no_traces() -> Iterator[None]:
    set_tracing_disabled(True)  # the SDK would send traces to OpenAI's servers
    yield


@dataclass(frozen=True)
class Memory:
    url: str
    workspace: str
    june: str
    venue: str
    catering: str


@pytest.fixture
def memory(running_app: AppProcess) -> Memory:
    with Client(running_app.base_url) as c:
        c.workspace = c.create_workspace("agents sdk")["id"]
        claims = {k["statement"]: k["id"]
                  for k in c.add_source(f"{JUNE} {VENUE}", title="Plan")["claims"]}
        [catering] = c.add_source(CATERING, title="Budget")["claims"]
        return Memory(running_app.base_url, c.workspace, claims[JUNE], claims[VENUE],
                      catering["id"])


async def _call(tools: list[Tool], name: str, **args: Any) -> Any:
    [tool] = [t for t in tools if isinstance(t, FunctionTool) and t.name == name]
    raw = json.dumps(args)
    out = await tool.on_invoke_tool(
        ToolContext(None, tool_name=name, tool_call_id=f"call_{name}", tool_arguments=raw), raw)
    return json.loads(out)


def test_openai_agents_memory_tools_are_function_tools(memory: Memory) -> None:
    tools = memory_tools(url=memory.url, workspace=memory.workspace)
    assert all(isinstance(t, FunctionTool) for t in tools)
    assert [t.name for t in tools] == ["search_memory", "read_sources", "remember",
                                       "submit_proposal"]
    assert all(isinstance(t, FunctionTool) and t.description
               and t.params_json_schema["additionalProperties"] is False for t in tools)


async def test_openai_agents_gate_keeps_only_what_the_run_found_and_read(
        memory: Memory) -> None:
    tools = memory_tools(url=memory.url, workspace=memory.workspace, task="Plan the launch")
    refused = await _call(tools, "submit_proposal", answer="x", claim_ids=[memory.june],
                          proposed_actions=[])
    assert refused["error"]["code"] == "no_run"

    hits = await _call(tools, "search_memory", query="launch")
    assert {h["claim_id"] for h in hits} == {memory.june, memory.venue}
    [read] = await _call(tools, "read_sources", claim_ids=[memory.june])
    assert read["fragments"][0]["text"].startswith(JUNE)
    invented = "00000000-0000-4000-8000-000000000000"
    outcome = await _call(tools, "submit_proposal", answer="June 12 at the Grand Hotel.",
                          claim_ids=[memory.june, memory.venue, memory.catering, invented],
                          proposed_actions=["Book the venue"])
    # Found and read: kept. Found, never read; never found; no such claim: dropped.
    assert outcome["cited"] == [memory.june]
    assert {(d["claim_id"], d["reason"]) for d in outcome["dropped"]} == {
        (memory.venue, "not_retrieved"), (memory.catering, "not_searched"),
        (invented, "unknown")}
    assert outcome["decision"]["title"] == "Plan the launch"

    # A new run starts from nothing: what the last run read does not count in it.
    await _call(tools, "search_memory", query="launch")
    again = await _call(tools, "submit_proposal", answer="June 12.", claim_ids=[memory.june],
                        proposed_actions=[])
    assert again["cited"] == [] and again["run_id"] != outcome["run_id"]
    assert {(d["claim_id"], d["reason"]) for d in again["dropped"]} == {
        (memory.june, "not_retrieved")}
    with Client(memory.url, workspace=memory.workspace) as c:
        assert c.get_run(again["run_id"])["run"]["model"] == "external-agent"


async def test_openai_agents_remember_keeps_who_said_it(memory: Memory) -> None:
    tools = memory_tools(url=memory.url, workspace=memory.workspace)
    kept = await _call(tools, "remember", conversation="Launch chat", speaker="Ana",
                       text="The product launch is planned for June 19.")
    [claim] = kept["claims"]
    assert (claim["said_by"], claim["quote"]) == ("Ana",
                                                  "The product launch is planned for June 19.")
    assert len(kept["conflicts"]) == 1  # the plan says June 12


async def test_openai_agents_agent_on_the_offline_model(memory: Memory) -> None:
    agent = Agent(name="Planner", instructions="Answer from memory.",
                  tools=memory_tools(url=memory.url, workspace=memory.workspace),
                  model=OfflineAnalystModel())
    result = await Runner.run(agent, "When is the product launch planned?")
    assert JUNE in str(result.final_output)
    with Client(memory.url, workspace=memory.workspace) as c:
        [run] = c.list_runs()["items"]
        view = c.get_run(run["id"])
    assert view["run"]["task"] == "When is the product launch planned?"
    assert view["decision"] is not None
    cited = {k["id"] for p in view["decision"]["premises"] for k in p["claims"]}
    calls = [t for h in view["handoffs"] for t in h["tool_calls"]]
    assert [t["name"] for t in calls[:3]] == ["search_claims", "get_claim_sources",
                                              "submit_proposal"]
    # It cites the claims it read: the date among them, the catering budget not.
    assert memory.june in cited and cited <= set(calls[1]["claim_ids"])
    assert memory.catering not in cited
    assert OfflineAnalystModel().model == NAME


def test_openai_agents_example_runs(running_app: AppProcess) -> None:
    out = subprocess.run([sys.executable, str(ROOT / "examples" / "openai_agents_agent.py"),
                          "--url", running_app.base_url], capture_output=True, text=True,
                         timeout=300, check=True).stdout
    assert "answer: The launch venue is the Harbour Hall. The product launch is planned for " \
           "June 12." in out
    assert "'The product launch is planned for June 12.' [0:42] of 'Launch plan'" in out
