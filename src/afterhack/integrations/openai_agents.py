"""The memory as OpenAI Agents SDK tools: ``memory_tools``.

Four ``FunctionTool``s: ``search_memory``, ``read_sources``, ``remember`` and
``submit_proposal``. The first search (or read) opens a run of the memory's evidence gate;
``submit_proposal`` ends it, and the server keeps only the cited claims this run both found
and read (the others come back under ``dropped``, with why): an agent cannot cite a claim it
never retrieved, whatever its model writes. The next search opens a new run. The steps are
the app's MCP tools, called over its ``/mcp`` endpoint (``afterhack.client.runs``).

A tool set follows one run at a time: give each concurrent conversation its own.
Install with ``pip install 'afterhack[openai-agents]'``.
"""

from __future__ import annotations

import json
from typing import Any

try:
    from agents import Tool, function_tool
except ImportError as exc:  # pragma: no cover - the extra is missing
    raise ImportError("memory_tools needs the OpenAI Agents SDK: "
                      "pip install 'afterhack[openai-agents]'") from exc

from afterhack.client import DEFAULT_URL, ApiError
from afterhack.client.runs import AgentRuns
from afterhack.model.runs import RunView
from afterhack.model.sources import IngestResult

SEARCH_MEMORY = "search_memory"
READ_SOURCES = "read_sources"
REMEMBER = "remember"
SUBMIT_PROPOSAL = "submit_proposal"


def _text(value: object) -> str:
    return json.dumps(value, ensure_ascii=False)


def _error(exc: ApiError) -> str:
    """What the model reads of a refusal: the canonical error body."""
    return _text({"error": {"code": exc.code, "message": exc.message, "details": exc.details}})


def proposal_outcome(view: RunView) -> dict[str, Any]:
    """A finished run as the agent reads it: the decision, the claims it rests on, and the
    cited claims the gate dropped."""
    decision = view["decision"]
    return {
        "run_id": view["run"]["id"],
        "decision": None if decision is None else {
            "id": decision["id"], "title": decision["title"], "summary": decision["summary"],
            "status": decision["status"]},
        "cited": [k["id"] for p in (decision["premises"] if decision else [])
                  for k in p["claims"]],
        "dropped": [d for h in view["handoffs"] for d in h["dropped"]],
    }


def remembered(result: IngestResult) -> dict[str, Any]:
    return {
        "source_id": result["source"]["id"] if result["source"] is not None else None,
        "claims": [{"claim_id": k["id"], "statement": k["statement"],
                    "quote": k["evidence_quote"], "said_by": k["said_by"]}
                   for k in result["claims"]],
        "conflicts": [] if result["status"] == "preview"
        else [c["id"] for c in result.get("conflicts", [])],
    }


_NO_RUN = _text({"error": {
    "code": "no_run", "message": "Search the memory first: a run reads and cites only what "
    "it found with search_memory.", "details": {}}})


class MemoryRun:
    """The run a tool set is in: opened by the first search or read, ended by a proposal."""

    def __init__(self, runs: AgentRuns, task: str | None) -> None:
        self.runs = runs
        self.task = task
        self.run_id: str | None = None

    async def open(self, asked: str) -> str:
        if self.run_id is None:
            opened = await self.runs.start(self.task or asked)
            self.run_id = opened["run_id"]
        return self.run_id


def memory_tools(*, url: str = DEFAULT_URL, workspace: str, api_key: str | None = None,
                 task: str | None = None) -> list[Tool]:
    """The memory's tools for an Agents SDK agent, on one workspace of the app at ``url``:
    four ``FunctionTool``s (typed as the SDK's ``Tool``, which ``Agent(tools=...)`` takes).

    ``task`` names the question a run answers (its decision's title); without it, a run is
    named by its first search.
    """
    run = MemoryRun(AgentRuns(url, workspace=workspace, key=api_key), task)

    async def search_memory(query: str) -> str:
        """Search the memory's current claims. Returns [{claim_id, statement, status,
        open_conflict_ids}]. A hit is not evidence until read_sources has returned its source;
        a claim with open conflicts is disputed by another source.

        Args:
            query: What to look for, in words.
        """
        try:
            return _text(await run.runs.search(await run.open(query), query))
        except ApiError as exc:
            if exc.code == "agent_run_closed":
                run.run_id = None
            return _error(exc)

    async def read_sources(claim_ids: list[str]) -> str:
        """Read the source fragments behind claims found by search_memory: the exact text
        each claim quotes, its offsets and where it comes from.

        Args:
            claim_ids: The claim_id of each claim to read (up to 50).
        """
        if run.run_id is None:
            return _NO_RUN
        try:
            return _text(await run.runs.read(run.run_id, claim_ids))
        except ApiError as exc:
            return _error(exc)

    async def remember(conversation: str, speaker: str, text: str) -> str:
        """Keep something you were told, as a message of a named conversation: its claims
        quote it and carry who said it. One that disagrees with the memory raises a conflict.

        Args:
            conversation: The conversation's title (made when it does not exist yet).
            speaker: Who said it.
            text: What was said.
        """
        try:
            return _text(remembered(await run.runs.remember(conversation, speaker, text)))
        except ApiError as exc:
            return _error(exc)

    async def submit_proposal(answer: str, claim_ids: list[str],
                              proposed_actions: list[str]) -> str:
        """Finish: your answer and the claim ids it rests on. Only claims you both found with
        search_memory and read with read_sources in this run are kept; the others come back
        under dropped. Returns the decision written from them.

        Args:
            answer: The answer, in words.
            claim_ids: The claims the answer rests on.
            proposed_actions: Actions to take, if the task asks for any (else empty).
        """
        if run.run_id is None:
            return _NO_RUN
        try:
            view = await run.runs.submit(run.run_id, answer, claim_ids,
                                         proposed_actions=proposed_actions)
        except ApiError as exc:
            if exc.code == "agent_run_closed":  # expired: the next search opens another
                run.run_id = None
            return _error(exc)
        run.run_id = None
        return _text(proposal_outcome(view))

    return [function_tool(search_memory), function_tool(read_sources),
            function_tool(remember), function_tool(submit_proposal)]


__all__ = ["READ_SOURCES", "REMEMBER", "SEARCH_MEMORY", "SUBMIT_PROPOSAL", "MemoryRun",
           "memory_tools", "proposal_outcome"]
