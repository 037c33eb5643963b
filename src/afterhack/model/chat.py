"""What goes over the wire to an OpenAI-compatible chat model: messages, tools, schemas.

The gateway (llm/gateway.py) sends these; the prompts and the Analyst's tools build them.
"""

from __future__ import annotations

from typing import Literal, NotRequired

from pydantic import JsonValue
from typing_extensions import TypedDict

# A JSON Schema, as the model is asked to follow it (prompts, tool parameters).
JsonSchema = dict[str, JsonValue]


class FunctionSpec(TypedDict):
    name: str
    description: str
    parameters: JsonSchema


class ToolSpec(TypedDict):
    """A tool the model may call."""

    type: Literal["function"]
    function: FunctionSpec


class FunctionCall(TypedDict):
    name: str
    arguments: str  # JSON, as the model wrote it


class ToolCallRequest(TypedDict):
    """A tool call the model asked for, as it goes back in the assistant message."""

    id: str
    type: Literal["function"]
    function: FunctionCall


class SystemMessage(TypedDict):
    role: Literal["system"]
    content: str


class UserMessage(TypedDict):
    role: Literal["user"]
    content: str


class AssistantMessage(TypedDict):
    role: Literal["assistant"]
    content: str | None
    tool_calls: NotRequired[list[ToolCallRequest]]


class ToolMessage(TypedDict):
    role: Literal["tool"]
    tool_call_id: str
    content: str  # the tool's result, as JSON


ChatMessage = SystemMessage | UserMessage | AssistantMessage | ToolMessage
