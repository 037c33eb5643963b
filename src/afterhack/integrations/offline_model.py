"""The app's offline Analyst as an OpenAI Agents SDK model: ``OfflineAnalystModel``.

It plays the policy of the app's own offline model (agents/offline.py) through the tools of
``memory_tools``: search the memory for the question, read the sources of every hit, and
propose the claims whose sources came back, then answer with the decision the memory wrote.
It is deterministic and needs no network, so an agent built on the tools can be run (and
tested) with no model server and no key; any other model of the SDK takes its place by
changing the agent's ``model``.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import AsyncIterator, Mapping
from typing import Any

from agents import ModelResponse, Usage
from agents.models.interface import Model
from openai.types.responses import (
    ResponseFunctionToolCall,
    ResponseOutputMessage,
    ResponseOutputText,
)

from afterhack.integrations.openai_agents import READ_SOURCES, SEARCH_MEMORY, SUBMIT_PROPOSAL

NAME = "afterhack-offline-analyst"


def _field(item: object, name: str) -> Any:
    return item.get(name) if isinstance(item, Mapping) else getattr(item, name, None)


def _text_of(content: object) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return " ".join(str(_field(part, "text") or "") for part in content).strip()
    return ""


def _json(output: object) -> Any:
    try:
        return json.loads(_text_of(output))
    except ValueError:
        return None


class OfflineAnalystModel(Model):
    """search_memory(question) -> read_sources(hits) -> submit_proposal(what was read) ->
    the decision, in words."""

    model = NAME

    async def get_response(self, system_instructions: str | None, input: str | list[Any],
                           model_settings: Any, tools: list[Any], output_schema: Any,
                           handoffs: list[Any], tracing: Any, *,
                           previous_response_id: str | None = None,
                           conversation_id: str | None = None,
                           prompt: Any = None) -> ModelResponse:
        items: list[Any] = [{"role": "user", "content": input}] if isinstance(input, str) \
            else list(input)
        # This turn's question: the last thing the user said; what the tools answered since.
        start = max((i for i, it in enumerate(items) if _field(it, "role") == "user"),
                    default=0)
        question = _text_of(_field(items[start], "content"))
        called: dict[str, str] = {}  # call id -> tool name
        answers: dict[str, Any] = {}  # tool name -> its (last) output
        for it in items[start + 1:]:
            kind = _field(it, "type")
            if kind == "function_call":
                called[str(_field(it, "call_id"))] = str(_field(it, "name"))
            elif kind == "function_call_output":
                name = called.get(str(_field(it, "call_id")))
                if name is not None:
                    answers[name] = _json(_field(it, "output"))
        return ModelResponse(output=[self._next(question, answers)], usage=Usage(requests=1),
                             response_id=None)

    def _next(self, question: str, answers: dict[str, Any]) -> Any:
        if SEARCH_MEMORY not in answers:
            return _call(SEARCH_MEMORY, {"query": question})
        hits = answers[SEARCH_MEMORY] if isinstance(answers[SEARCH_MEMORY], list) else []
        if hits and READ_SOURCES not in answers:
            return _call(READ_SOURCES, {"claim_ids": [h["claim_id"] for h in hits]})
        if SUBMIT_PROPOSAL not in answers:
            read = answers.get(READ_SOURCES)
            readable = [s["claim_id"] for s in read if s["fragments"]] \
                if isinstance(read, list) else []
            statements = {h["claim_id"]: h["statement"] for h in hits}
            return _call(SUBMIT_PROPOSAL, {
                "answer": " ".join(statements[i] for i in readable if i in statements),
                "claim_ids": readable, "proposed_actions": []})
        outcome = answers[SUBMIT_PROPOSAL]
        decision = outcome.get("decision") if isinstance(outcome, dict) else None
        if not decision:
            return _say("I could not write a decision from the memory.")
        return _say(f"{decision['summary'] or decision['title']} "
                    f"(decision {decision['id']}, {decision['status']}; "
                    f"rests on {len(outcome['cited'])} claim(s) read in this run)")

    def stream_response(self, system_instructions: str | None, input: str | list[Any],
                        model_settings: Any, tools: list[Any], output_schema: Any,
                        handoffs: list[Any], tracing: Any, *,
                        previous_response_id: str | None = None,
                        conversation_id: str | None = None,
                        prompt: Any = None) -> AsyncIterator[Any]:
        raise NotImplementedError("OfflineAnalystModel answers whole turns: use Runner.run "
                                  "(or Runner.run_sync), not Runner.run_streamed.")


def _call(name: str, arguments: dict[str, Any]) -> ResponseFunctionToolCall:
    call_id = f"call_{uuid.uuid4().hex}"
    return ResponseFunctionToolCall(type="function_call", id=f"fc_{uuid.uuid4().hex}",
                                    call_id=call_id, name=name, status="completed",
                                    arguments=json.dumps(arguments, ensure_ascii=False))


def _say(text: str) -> ResponseOutputMessage:
    return ResponseOutputMessage(
        type="message", id=f"msg_{uuid.uuid4().hex}", role="assistant", status="completed",
        content=[ResponseOutputText(type="output_text", text=text, annotations=[])])
