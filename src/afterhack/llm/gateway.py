"""The model gateway: any OpenAI-compatible chat-completions server, reached server side.

Two ways in: ``complete_json`` (one JSON object out, for extraction and the Coordinator)
and ``chat_tools`` (one assistant turn of the Analyst's tool loop). Neither the key nor
the base URL ever appears in a return value, an error message, its details or a log line;
SDK errors are re-raised as Gateway* errors with the chain suppressed for that reason.
"""

from __future__ import annotations

import asyncio
import json
import re
import time
from dataclasses import dataclass, field
from typing import Any

import httpx
import openai
from pydantic import JsonValue

from afterhack.config import Settings
from afterhack.errors import GatewayError, GatewayInvalidOutput, GatewayTimeout, GatewayUnavailable
from afterhack.model.calls import ModelCall
from afterhack.model.chat import AssistantMessage, ChatMessage, JsonSchema, ToolSpec
from afterhack.model.vocab import ModelRole, ResponseFormat

# Local servers (Ollama, vLLM without --api-key) ignore the key, but the SDK insists on one.
_DUMMY_KEY = "not-needed"
_FENCED = re.compile(r"```[A-Za-z0-9_-]*[ \t]*\n?(.*?)```", re.DOTALL)
_SAFE_CODE = re.compile(r"[A-Za-z0-9_.\-]{1,64}")
_RETRY_NUDGE = (
    "Your previous reply was not a single valid JSON object. "
    "Reply again with only the JSON object, no other text."
)


@dataclass(frozen=True)
class ToolCall:
    id: str
    name: str
    arguments: dict[str, JsonValue] | None  # None when the model's arguments are not a JSON object
    raw_arguments: str


@dataclass(frozen=True)
class AssistantTurn:
    content: str | None
    tool_calls: list[ToolCall] = field(default_factory=list)

    def as_message(self) -> AssistantMessage:
        """This turn as the assistant message to append before sending the tool results. A
        turn of tool calls alone is sent with empty content, not null: OpenAI takes either,
        and llama-cpp-python's server refuses null with a 500."""
        msg: AssistantMessage = {"role": "assistant", "content": self.content or ""}
        if self.tool_calls:
            msg["tool_calls"] = [
                {"id": c.id, "type": "function",
                 "function": {"name": c.name, "arguments": c.raw_arguments}}
                for c in self.tool_calls
            ]
        return msg


class _FormatRefused(Exception):
    """The gateway refused the response_format asked for; the next one is worth a try."""


# Each way of asking for JSON, and the plainer one to ask next when a gateway refuses it.
_PLAINER: dict[ResponseFormat, ResponseFormat | None] = {
    "json_schema": "json_object_schema", "json_object_schema": "json_object", "json_object": None,
}


def response_format(mode: ResponseFormat, name: str, schema: JsonSchema) -> dict[str, object]:
    """The request's response_format for a mode (vocab.ResponseFormat says what each is)."""
    if mode == "json_schema":
        return {"type": "json_schema",
                "json_schema": {"name": name, "schema": schema, "strict": False}}
    if mode == "json_object_schema":
        return {"type": "json_object", "schema": schema}
    return {"type": "json_object"}


def parse_json_object(text: str | None) -> dict[str, JsonValue] | None:
    """The JSON object in a model's reply (code fences stripped), or None."""
    if text is None:
        return None
    candidates = [text]
    candidates += [m.group(1) for m in _FENCED.finditer(text)]
    for candidate in candidates:
        try:
            data = json.loads(candidate)
        except ValueError:
            continue
        if isinstance(data, dict):
            return data
    return None


def _parse_arguments(raw: str) -> dict[str, JsonValue] | None:
    try:
        data = json.loads(raw)
    except ValueError:
        return None
    return data if isinstance(data, dict) else None


def _refuses_format(exc: openai.APIStatusError) -> bool:
    """Whether an error is the gateway refusing the response_format it was sent. A request it
    could not validate is a 400 or 422 on most servers; llama-cpp-python's server answers a
    500 whose message is the validation error."""
    if exc.status_code not in (400, 422, 500):
        return False
    try:
        body = json.dumps(exc.body, default=str)
    except ValueError:
        body = ""
    text = f"{exc.message} {exc.param} {body}".lower()
    if exc.status_code == 500:
        return "response_format" in text or "json_object" in text
    return "response_format" in text or "json_schema" in text or "schema" in text


def _gateway_error(exc: BaseException, role: ModelRole, timeout_s: float) -> GatewayError:
    """A Gateway* error built only from safe facts: never the SDK's message, URL or body."""
    if isinstance(exc, openai.APITimeoutError | httpx.TimeoutException | TimeoutError):
        return GatewayTimeout(f"The model gateway did not answer the {role} within "
                              f"{timeout_s:g} s.", role=role, timeout_s=timeout_s)
    if isinstance(exc, openai.APIStatusError):
        details: dict[str, str | int] = {"role": role, "status": exc.status_code}
        # An upstream error code like "rate_limit_exceeded" helps; free text might echo the key.
        if exc.code is not None and _SAFE_CODE.fullmatch(exc.code):
            details["upstream_code"] = exc.code
        return GatewayUnavailable(
            f"The model gateway answered the {role} with HTTP {exc.status_code}.", **details)
    if isinstance(exc, openai.APIConnectionError | httpx.TransportError):
        return GatewayUnavailable("The model gateway could not be reached.", role=role,
                                  reason="connection_error")
    return GatewayUnavailable(f"The model gateway failed on the {role}.", role=role,
                              reason=type(exc).__name__)


@dataclass
class _Usage:
    prompt: int | None = None
    completion: int | None = None

    def add(self, completion: Any) -> None:
        usage = getattr(completion, "usage", None)
        prompt = getattr(usage, "prompt_tokens", None)
        out = getattr(usage, "completion_tokens", None)
        if isinstance(prompt, int):
            self.prompt = (self.prompt or 0) + prompt
        if isinstance(out, int):
            self.completion = (self.completion or 0) + out


def _first_choice(completion: Any) -> tuple[Any | None, str | None]:
    """The first choice's message and finish_reason ("length": cut at max_tokens)."""
    # Non-strict SDK parsing lets a malformed body through; treat any odd shape as no answer.
    try:
        choice = completion.choices[0]
    except (AttributeError, IndexError, TypeError):
        return None, None
    reason = getattr(choice, "finish_reason", None)
    return getattr(choice, "message", None), reason if isinstance(reason, str) else None


def _first_message(completion: Any) -> Any | None:
    return _first_choice(completion)[0]


class Gateway:
    """One OpenAI-compatible endpoint with bounded concurrency; we own every retry."""

    def __init__(self, settings: Settings) -> None:
        self._settings = settings
        self.model = settings.model
        self.timeout_s = settings.llm_timeout_s
        self._semaphore = asyncio.Semaphore(settings.llm_concurrency)
        self._json_mode: ResponseFormat = settings.llm_response_format
        self.max_tokens = settings.llm_max_tokens
        self._client: openai.AsyncOpenAI | None = None

    @property
    def json_mode(self) -> ResponseFormat:
        """The response_format the next complete_json call will ask for."""
        return self._json_mode

    def _get_client(self) -> openai.AsyncOpenAI:
        # Built on first use: the SDK raises at construction when it finds no key.
        if self._client is None:
            key = self._settings.openai_api_key
            self._client = openai.AsyncOpenAI(
                api_key=(key.get_secret_value() if key else "") or _DUMMY_KEY,
                base_url=self._settings.openai_base_url,
                timeout=self.timeout_s,
                max_retries=0,
            )
        return self._client

    async def aclose(self) -> None:
        client, self._client = self._client, None
        if client is not None:
            await client.close()

    async def _call(self, role: ModelRole, **kwargs: Any) -> tuple[Any, float]:
        """One HTTP call under the semaphore; returns the completion and its duration in ms."""
        client = self._get_client()
        if self.max_tokens is not None:
            kwargs["max_tokens"] = self.max_tokens
        async with self._semaphore:
            t0 = time.perf_counter()
            try:
                # The SDK timeout is per read; this bounds the whole call.
                async with asyncio.timeout(self.timeout_s):
                    completion = await client.chat.completions.create(model=self.model, **kwargs)
            except openai.APIStatusError as exc:
                sent = kwargs.get("response_format")
                if sent is not None and sent != {"type": "json_object"} and _refuses_format(exc):
                    raise _FormatRefused from None
                raise _gateway_error(exc, role, self.timeout_s) from None
            except (openai.OpenAIError, httpx.HTTPError, TimeoutError) as exc:
                raise _gateway_error(exc, role, self.timeout_s) from None
            return completion, (time.perf_counter() - t0) * 1000

    async def embeddings(self, model: str, texts: list[str]) -> tuple[list[list[float]],
                                                                      float, int | None]:
        """``POST /embeddings``: one vector per text in order, the call's ms, prompt tokens."""
        client = self._get_client()
        async with self._semaphore:
            t0 = time.perf_counter()
            try:
                async with asyncio.timeout(self.timeout_s):
                    # Plain floats: not every OpenAI-compatible server speaks base64.
                    res = await client.embeddings.create(model=model, input=texts,
                                                         encoding_format="float")
            except (openai.OpenAIError, httpx.HTTPError, TimeoutError) as exc:
                raise _gateway_error(exc, "embedder", self.timeout_s) from None
            ms = (time.perf_counter() - t0) * 1000
        try:
            ordered = sorted(res.data, key=lambda d: d.index)
            vectors = [[float(x) for x in d.embedding] for d in ordered]
        except (AttributeError, TypeError, ValueError):
            vectors = []
        if len(vectors) != len(texts) or len({len(v) for v in vectors}) > 1:
            raise GatewayInvalidOutput("The model gateway's embeddings did not match the "
                                       "texts sent.", role="embedder")
        tokens = getattr(getattr(res, "usage", None), "prompt_tokens", None)
        return vectors, ms, tokens if isinstance(tokens, int) else None

    async def _call_json(self, role: ModelRole, messages: list[ChatMessage], schema_name: str,
                         schema: JsonSchema) -> tuple[Any, float]:
        while True:
            mode = self._json_mode
            try:
                return await self._call(role, messages=messages,
                                        response_format=response_format(mode, schema_name,
                                                                        schema))
            except _FormatRefused:
                # Remembered, so later calls go straight to the mode this gateway takes.
                # Concurrent calls may have stepped down already: step from what was sent.
                plainer = _PLAINER[mode]
                if plainer is not None and self._json_mode == mode:
                    self._json_mode = plainer

    async def complete_json(self, role: ModelRole, messages: list[ChatMessage],
                            schema_name: str, schema: JsonSchema
                            ) -> tuple[dict[str, JsonValue], ModelCall]:
        """One JSON object from the model; a reply that is not one is asked again, once,
        unless the token limit cut it (asked again, it would be cut again)."""
        usage = _Usage()
        elapsed = 0.0
        attempt_messages = list(messages)
        for attempt in (1, 2):
            completion, ms = await self._call_json(role, attempt_messages, schema_name, schema)
            elapsed += ms
            usage.add(completion)
            message, finish = _first_choice(completion)
            data = parse_json_object(getattr(message, "content", None))
            if data is not None:
                return data, ModelCall(role, elapsed, True, usage.prompt, usage.completion,
                                       detail={"attempts": attempt,
                                               "response_format": self._json_mode})
            if finish == "length":
                raise GatewayInvalidOutput(
                    f"The model's answer to the {role} was cut at its token limit "
                    f"(max_tokens {self.max_tokens or 'of the server'}) before it was a whole "
                    "JSON object.", role=role, attempts=attempt, finish_reason=finish)
            attempt_messages = [*messages, {"role": "user", "content": _RETRY_NUDGE}]
        raise GatewayInvalidOutput(f"The model's answer to the {role} was not a JSON object "
                                   "(asked twice).", role=role, attempts=2)

    async def chat_tools(
        self, role: ModelRole, messages: list[ChatMessage], tools: list[ToolSpec]
    ) -> tuple[AssistantTurn, ModelCall]:
        """One assistant turn; tool arguments that are not a JSON object come back as None."""
        usage = _Usage()
        completion, ms = await self._call(role, messages=messages, tools=tools,
                                          tool_choice="auto")
        usage.add(completion)
        message = _first_message(completion)
        if message is None:
            raise GatewayInvalidOutput(f"The model's answer to the {role} had no message.",
                                       role=role)
        calls: list[ToolCall] = []
        for i, tc in enumerate(getattr(message, "tool_calls", None) or []):
            fn = getattr(tc, "function", None)
            name = getattr(fn, "name", None)
            if not isinstance(name, str):
                continue  # not a function call (e.g. a custom tool): nothing we offered
            raw = getattr(fn, "arguments", None)
            raw = raw if isinstance(raw, str) else ""
            call_id = getattr(tc, "id", None)
            calls.append(ToolCall(id=call_id if isinstance(call_id, str) and call_id
                                  else f"call_{i}",
                                  name=name, arguments=_parse_arguments(raw), raw_arguments=raw))
        content = getattr(message, "content", None)
        turn = AssistantTurn(content=content if isinstance(content, str) else None,
                             tool_calls=calls)
        return turn, ModelCall(role, ms, True, usage.prompt, usage.completion,
                               detail={"tool_calls": len(calls)})
