"""Analyst and Coordinator driven by a model behind the OpenAI-compatible gateway.

Nothing the model returns is trusted: tool arguments are validated, ids it cites go through
the gate afterwards, and a model that never submits ends with the gate applied to what it saw.
"""

from __future__ import annotations

import json
import time

from pydantic import JsonValue

from afterhack.agents import prompts
from afterhack.agents.tools import TOOL_NAMES, TOOL_SPECS, RunTools
from afterhack.errors import GatewayError
from afterhack.llm.gateway import Gateway
from afterhack.model.calls import ModelCall
from afterhack.model.chat import ChatMessage
from afterhack.model.runs import ClaimEvidence, ClaimSources, GatedProposal, SearchHit


def malformed(name: str, args: dict[str, JsonValue] | None) -> str | None:
    """Why a tool call of ours cannot be used as the model wrote it, or None. Arguments
    that are not a JSON object, or lack what the tool needs, are not guessed at: the call
    is ignored with this reason, and the model told."""
    if args is None:
        return "its arguments are not a JSON object"
    if name == "search_claims":
        query = args.get("query")
        return None if isinstance(query, str) and query.strip() else \
            "query must be a non-empty string"
    ids = args.get("claim_ids")
    if not isinstance(ids, list) or not all(isinstance(i, str) for i in ids):
        return "claim_ids must be a list of claim id strings"
    if name == "get_claim_sources" and not ids:
        return "claim_ids must name at least one claim"
    if name == "submit_proposal" and not isinstance(args.get("answer"), str):
        return "answer must be a string"
    return None


class GatewayAnalyst:
    def __init__(self, gateway: Gateway) -> None:
        self.gateway = gateway
        self.name = gateway.model

    async def run(self, tools: RunTools, task: str,
                  max_rounds: int) -> tuple[object, list[ModelCall]]:
        messages: list[ChatMessage] = [
            {"role": "system", "content": prompts.ANALYST_SYSTEM},
            {"role": "user", "content": task},
        ]
        calls: list[ModelCall] = []
        last_text = ""
        for _ in range(max_rounds):
            t0 = time.perf_counter()
            try:
                turn, call = await self.gateway.chat_tools("analyst", messages, TOOL_SPECS)
            except GatewayError as exc:
                exc.model_calls = [*calls, ModelCall(
                    "analyst", (time.perf_counter() - t0) * 1000, False, error=exc.code)]
                raise
            calls.append(call)
            if turn.content:
                last_text = turn.content
            if not turn.tool_calls:
                break
            messages.append(turn.as_message())
            for tc in turn.tool_calls:
                result: list[SearchHit] | list[ClaimSources] | dict[str, str]
                if tc.name not in TOOL_NAMES:
                    result = {"error": f"unknown tool {tc.name!r}; use search_claims, "
                                       "get_claim_sources or submit_proposal"}
                    tools.calls.append({"name": str(tc.name)[:100], "arguments": {},
                                        "claim_ids": [], "error": "unknown_tool"})
                elif (why := malformed(tc.name, tc.arguments)) is not None:
                    result = {"error": f"{tc.name} was not run: {why}"}
                    tools.calls.append({"name": tc.name, "arguments": {}, "claim_ids": [],
                                        "error": "malformed_arguments",
                                        "raw_arguments": tc.raw_arguments[:2000]})
                elif tc.name == "submit_proposal":
                    args = tc.arguments or {}
                    cited = args.get("claim_ids")
                    tools.calls.append({"name": "submit_proposal", "arguments": args,
                                        "claim_ids": [i for i in cited if isinstance(i, str)]
                                        if isinstance(cited, list) else []})
                    return args, calls
                elif tc.name == "search_claims":
                    result = await tools.search_claims((tc.arguments or {}).get("query"))
                else:
                    result = await tools.get_claim_sources((tc.arguments or {}).get("claim_ids"))
                messages.append({"role": "tool", "tool_call_id": tc.id,
                                 "content": json.dumps(result, ensure_ascii=False)})
        # Never submitted: the proposal is what this run saw and read, gated as usual.
        proposal: dict[str, JsonValue] = {"answer": last_text,
                                          "claim_ids": [*tools.evidence.allowed()],
                                          "submitted": False}
        return proposal, calls


class GatewayCoordinator:
    def __init__(self, gateway: Gateway) -> None:
        self.gateway = gateway
        self.name = gateway.model

    async def run(self, task: str, proposal: GatedProposal,
                  evidence: dict[str, ClaimEvidence]) -> tuple[object, ModelCall]:
        payload = {"task": task, "proposal": proposal, "evidence": list(evidence.values())}
        messages: list[ChatMessage] = [
            {"role": "system", "content": prompts.COORDINATOR_SYSTEM},
            {"role": "user", "content": json.dumps(payload, ensure_ascii=False)},
        ]
        out, call = await self.gateway.complete_json("coordinator", messages, "decision",
                                                     prompts.DECISION_SCHEMA)
        return out, call
