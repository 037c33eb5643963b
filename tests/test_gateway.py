"""The model gateway against a scripted OpenAI-compatible server, over real HTTP, through
the real openai SDK: formats, retries, error mapping, concurrency and key hygiene."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import AsyncIterator
from typing import Any

import pytest

from afterhack.config import Settings
from afterhack.errors import (
    GatewayError,
    GatewayInvalidOutput,
    GatewayTimeout,
    GatewayUnavailable,
)
from afterhack.llm.gateway import AssistantTurn, Gateway, ToolCall, parse_json_object
from afterhack.model.calls import ModelCall
from afterhack.model.chat import ChatMessage, ToolSpec
from afterhack.runtime.embedded import free_loopback_port
from tests.support.fakellm import FakeLLM, Reply, ToolCallSpec
from tests.support.settings import make_settings
from tests.support.timing import bound

SCHEMA: dict[str, Any] = {"type": "object", "properties": {"claims": {"type": "array"}}}
ASK: list[ChatMessage] = [{"role": "system", "content": "Reply in JSON."},
                          {"role": "user", "content": "Hi."}]
SECRET = "sk-test-SECRET-0123456789"


def settings_for(base_url: str, **overrides: Any) -> Settings:
    """The gateway's settings for the model at ``base_url``. Its timeout only ends a hang: a
    test of the timeout sets its own, on a gateway that gets no reply it must wait for."""
    values: dict[str, Any] = {"openai_base_url": base_url, "openai_api_key": "test-key",
                              "llm_timeout_s": 60.0}
    return make_settings(**{**values, **overrides})


@pytest.fixture
async def gateway(fakellm: FakeLLM) -> AsyncIterator[Gateway]:
    gw = Gateway(settings_for(fakellm.base_url))
    yield gw
    await gw.aclose()


async def ask(gw: Gateway) -> tuple[dict[str, Any], ModelCall]:
    return await gw.complete_json("extractor", ASK, "claims", SCHEMA)


# -- response format -----------------------------------------------------------------


async def test_json_schema_is_asked_first_and_usage_is_recorded(
    gateway: Gateway, fakellm: FakeLLM
) -> None:
    fakellm.script(Reply.json({"claims": []}, usage={"prompt_tokens": 30,
                                                     "completion_tokens": 4,
                                                     "total_tokens": 34}))
    data, call = await ask(gateway)
    assert data == {"claims": []}
    [body] = fakellm.bodies
    assert body["response_format"] == {
        "type": "json_schema",
        "json_schema": {"name": "claims", "schema": SCHEMA, "strict": False},
    }
    assert body["model"] == "gpt-4o-mini" and body["messages"] == ASK
    assert "tools" not in body
    assert (call.role, call.ok, call.prompt_tokens, call.completion_tokens) == (
        "extractor", True, 30, 4)
    assert call.duration_ms > 0
    assert call.detail == {"attempts": 1, "response_format": "json_schema"}


async def test_missing_usage_leaves_token_counts_unknown(
    gateway: Gateway, fakellm: FakeLLM
) -> None:
    fakellm.script(Reply.json({"claims": []}, usage=None))
    _, call = await ask(gateway)
    assert call.prompt_tokens is None and call.completion_tokens is None
    assert "prompt_tokens" not in call.as_dict()


async def test_rejected_json_schema_falls_back_to_json_object_and_remembers(
    gateway: Gateway, fakellm: FakeLLM
) -> None:
    fakellm.script(
        Reply.error(400, "Invalid parameter: 'response_format' of type 'json_schema' is not "
                    "supported with this model.", param="response_format"),
        Reply.error(400, "Unrecognized request argument supplied: response_format.schema",
                    param="response_format"),
        Reply.json({"claims": ["first"]}),
        Reply.json({"claims": ["second"]}),
    )
    first, call = await ask(gateway)
    second, _ = await ask(gateway)
    assert (first, second) == ({"claims": ["first"]}, {"claims": ["second"]})
    formats = [b["response_format"] for b in fakellm.bodies]
    assert [f["type"] for f in formats] == ["json_schema", "json_object", "json_object",
                                            "json_object"]
    # The schema rides along with json_object once, for servers that constrain by it.
    assert formats[1] == {"type": "json_object", "schema": SCHEMA}
    assert formats[2] == formats[3] == {"type": "json_object"}
    assert gateway.json_mode == "json_object"
    assert call.detail["response_format"] == "json_object"


async def test_a_server_that_takes_json_object_with_a_schema_keeps_getting_the_schema(
    gateway: Gateway, fakellm: FakeLLM
) -> None:
    # llama-cpp-python's server: its request validation refuses json_schema with a 500.
    fakellm.script(
        Reply.error(500, "[{'type': 'literal_error', 'loc': ('body', 'response_format', "
                    "'type'), 'msg': \"Input should be 'text' or 'json_object'\"}]"),
        Reply.json({"claims": ["first"]}),
        Reply.json({"claims": ["second"]}),
    )
    _, first = await ask(gateway)
    _, second = await ask(gateway)
    formats = [b["response_format"] for b in fakellm.bodies]
    assert formats[1:] == [{"type": "json_object", "schema": SCHEMA}] * 2
    assert gateway.json_mode == "json_object_schema"
    assert first.detail["response_format"] == second.detail["response_format"] == (
        "json_object_schema")


async def test_a_plain_500_is_not_taken_for_a_refused_format(
    gateway: Gateway, fakellm: FakeLLM
) -> None:
    fakellm.script(Reply.error(500, "CUDA out of memory"), Reply.json({"never": "asked"}))
    with pytest.raises(GatewayUnavailable) as err:
        await ask(gateway)
    assert err.value.details["status"] == 500
    assert len(fakellm.requests) == 1 and gateway.json_mode == "json_schema"


async def test_other_bad_requests_do_not_fall_back(gateway: Gateway, fakellm: FakeLLM) -> None:
    fakellm.script(Reply.error(400, "This model's maximum context length is 8192 tokens.",
                               code="context_length_exceeded", param="messages"))
    with pytest.raises(GatewayUnavailable) as err:
        await ask(gateway)
    assert err.value.details["status"] == 400
    assert err.value.details["upstream_code"] == "context_length_exceeded"
    assert len(fakellm.requests) == 1 and gateway.json_mode == "json_schema"


async def test_a_refused_plain_json_object_is_an_error(fakellm: FakeLLM) -> None:
    gw = Gateway(settings_for(fakellm.base_url, llm_response_format="json_object"))
    fakellm.script(Reply.error(400, "response_format is not supported", param="response_format"),
                   Reply.json({"never": "asked"}))
    try:
        with pytest.raises(GatewayUnavailable) as err:
            await ask(gw)
    finally:
        await gw.aclose()
    assert err.value.details["status"] == 400 and len(fakellm.requests) == 1


async def test_configured_json_object_mode_never_sends_json_schema(fakellm: FakeLLM) -> None:
    gw = Gateway(settings_for(fakellm.base_url, llm_response_format="json_object"))
    try:
        fakellm.script(Reply.json({"a": 1}))
        assert (await ask(gw))[0] == {"a": 1}
    finally:
        await gw.aclose()
    assert fakellm.bodies[0]["response_format"] == {"type": "json_object"}


# -- replies that are not clean JSON ------------------------------------------------------


@pytest.mark.parametrize("text", [
    '```json\n{"claims": [{"statement": "s", "evidence_quote": "q"}]}\n```',
    '```\n{"claims": [{"statement": "s", "evidence_quote": "q"}]}\n```',
    'Here you go:\n```JSON\n{"claims": [{"statement": "s", "evidence_quote": "q"}]}\n```\n',
    '  {"claims": [{"statement": "s", "evidence_quote": "q"}]}\n\n',
])
async def test_code_fences_are_stripped(gateway: Gateway, fakellm: FakeLLM, text: str) -> None:
    fakellm.script(Reply.text(text))
    data, call = await ask(gateway)
    assert data == {"claims": [{"statement": "s", "evidence_quote": "q"}]}
    assert len(fakellm.requests) == 1 and call.detail["attempts"] == 1


def test_parse_json_object_keeps_backticks_inside_strings() -> None:
    assert parse_json_object('{"q": "run ```make```"}') == {"q": "run ```make```"}
    assert parse_json_object("[1, 2]") is None
    assert parse_json_object(None) is None


async def test_non_json_once_then_valid_is_ok_after_two_calls(
    gateway: Gateway, fakellm: FakeLLM
) -> None:
    fakellm.script(Reply.text("Sure! The claims are: none."), Reply.json({"claims": []}))
    data, call = await ask(gateway)
    assert data == {"claims": []}
    assert len(fakellm.requests) == 2
    retry = fakellm.bodies[1]
    assert retry["messages"][: len(ASK)] == ASK and len(retry["messages"]) == len(ASK) + 1
    assert retry["response_format"]["type"] == "json_schema"
    assert call.ok and call.detail["attempts"] == 2
    # Both calls cost tokens, so both are counted.
    assert (call.prompt_tokens, call.completion_tokens) == (42, 16)


@pytest.mark.parametrize("first, second", [
    (Reply.text("not json"), Reply.text("still not json")),
    (Reply.json([1, 2]), Reply.text("null")),
    (Reply.text("```json\n{broken\n```"), Reply(content=None)),
])
async def test_non_json_twice_is_invalid_output(
    gateway: Gateway, fakellm: FakeLLM, first: Reply, second: Reply
) -> None:
    fakellm.script(first, second, Reply.json({"never": "asked"}))
    with pytest.raises(GatewayInvalidOutput) as err:
        await ask(gateway)
    assert isinstance(err.value, GatewayUnavailable)
    assert (err.value.code, err.value.status) == ("llm_invalid_output", 502)
    assert len(fakellm.requests) == 2 and fakellm.pending == 1


async def test_max_tokens_is_sent_when_set_and_not_otherwise(fakellm: FakeLLM) -> None:
    fakellm.on_request(lambda body: Reply.json({"claims": []}))
    for limit in (None, 300):
        gw = Gateway(settings_for(fakellm.base_url, llm_max_tokens=limit))
        try:
            await ask(gw)
            await gw.chat_tools("analyst", ASK, TOOLS)
        finally:
            await gw.aclose()
    assert [b.get("max_tokens") for b in fakellm.bodies] == [None, None, 300, 300]


async def test_an_answer_cut_at_max_tokens_is_invalid_output_and_not_asked_again(
    fakellm: FakeLLM
) -> None:
    gw = Gateway(settings_for(fakellm.base_url, llm_max_tokens=64))
    looping = '{"claims": [{"statement": "The launch is set", "evidence_quote": "The launch ' + (
        "is set " * 40)
    fakellm.script(Reply(content=looping, finish_reason="length"), Reply.json({"never": "asked"}))
    try:
        with pytest.raises(GatewayInvalidOutput) as err:
            await ask(gw)
    finally:
        await gw.aclose()
    assert err.value.details == {"role": "extractor", "attempts": 1, "finish_reason": "length"}
    assert "cut at its token limit (max_tokens 64)" in err.value.message
    assert len(fakellm.requests) == 1 and fakellm.pending == 1


async def test_a_whole_answer_that_hit_the_limit_is_still_used(
    gateway: Gateway, fakellm: FakeLLM
) -> None:
    fakellm.script(Reply(content='{"claims": []}', finish_reason="length"))
    data, call = await ask(gateway)
    assert data == {"claims": []} and call.ok


# -- errors --------------------------------------------------------------------------------


@pytest.mark.parametrize("status, code", [(429, "rate_limit_exceeded"), (500, None),
                                          (503, None), (401, "invalid_api_key")])
async def test_http_errors_are_gateway_unavailable_without_retry(
    gateway: Gateway, fakellm: FakeLLM, status: int, code: str | None
) -> None:
    fakellm.script(Reply.error(status, code=code), Reply.json({"never": "asked"}))
    with pytest.raises(GatewayUnavailable) as err:
        await ask(gateway)
    exc = err.value
    assert (exc.code, exc.status) == ("llm_gateway_unavailable", 502)
    assert exc.details["status"] == status and exc.details["role"] == "extractor"
    assert exc.details.get("upstream_code") == code
    assert len(fakellm.requests) == 1  # the SDK's own retries are off


async def test_slow_gateway_is_a_timeout(fakellm: FakeLLM) -> None:
    timeout_s = 0.5  # AFTERHACK_LLM_TIMEOUT_S: a gateway silent this long is a 504
    gw = Gateway(settings_for(fakellm.base_url, llm_timeout_s=timeout_s))
    # A reply far beyond the bound: a call that waited for it could not pass.
    fakellm.script(Reply.json({"claims": []}, delay_s=60))
    t0 = time.monotonic()
    try:
        with pytest.raises(GatewayTimeout) as err:
            await ask(gw)
    finally:
        await gw.aclose()
    assert time.monotonic() - t0 <= bound(timeout_s)
    assert (err.value.code, err.value.status) == ("llm_gateway_timeout", 504)
    assert err.value.details["timeout_s"] == timeout_s


async def test_unreachable_gateway_is_unavailable() -> None:
    gw = Gateway(settings_for(f"http://127.0.0.1:{free_loopback_port()}/v1"))
    try:
        with pytest.raises(GatewayUnavailable) as err:
            await ask(gw)
    finally:
        await gw.aclose()
    assert err.value.details["reason"] == "connection_error"


# -- concurrency ---------------------------------------------------------------------------


async def test_concurrency_is_bounded_per_gateway(fakellm: FakeLLM) -> None:
    gw = Gateway(settings_for(fakellm.base_url, llm_concurrency=2))
    fakellm.on_request(lambda body: Reply.json({"claims": []}, delay_s=0.15))
    t0 = time.monotonic()
    try:
        results = await asyncio.gather(*(ask(gw) for _ in range(6)))
    finally:
        await gw.aclose()
    assert [r[0] for r in results] == [{"claims": []}] * 6
    assert len(fakellm.requests) == 6
    assert fakellm.max_in_flight == 2
    assert time.monotonic() - t0 >= 3 * 0.15


# -- the key stays on the server -----------------------------------------------------------


async def test_key_is_sent_as_bearer_but_never_surfaces(
    fakellm: FakeLLM, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG, logger="afterhack")
    gw = Gateway(settings_for(fakellm.base_url, openai_api_key=SECRET))
    # A gateway that gives up soon, for the reply that never comes in time.
    hurried = Gateway(settings_for(fakellm.base_url, openai_api_key=SECRET, llm_timeout_s=0.3))
    fakellm.script(
        Reply.json({"ok": True}),
        # Real providers echo (part of) the key in 401 bodies.
        Reply.error(401, f"Incorrect API key provided: {SECRET}.", code="invalid_api_key"),
        Reply.error(429, f"Rate limit for key {SECRET} at {fakellm.base_url}"),
        Reply.error(500, f"upstream {fakellm.url} failed"),
        Reply.json({"ok": True}, delay_s=60),
    )
    errors: list[GatewayError] = []
    try:
        await ask(gw)
        for g in (gw, gw, gw, hurried):
            with pytest.raises(GatewayError) as err:
                await ask(g)
            errors.append(err.value)
    finally:
        await gw.aclose()
        await hurried.aclose()
    unreachable = Gateway(settings_for(f"http://127.0.0.1:{free_loopback_port()}/v1",
                                       openai_api_key=SECRET))
    try:
        with pytest.raises(GatewayError) as err:
            await ask(unreachable)
        errors.append(err.value)
    finally:
        await unreachable.aclose()

    assert {r.headers["authorization"] for r in fakellm.requests} == {f"Bearer {SECRET}"}
    assert [e.code for e in errors] == ["llm_gateway_unavailable"] * 3 + [
        "llm_gateway_timeout", "llm_gateway_unavailable"]
    for e in errors:
        surface = f"{e} {e.message} {e.details!r} {e!r}"
        assert SECRET not in surface and "127.0.0.1" not in surface, surface
        # The SDK error (with its URL and body) is not chained into tracebacks either.
        assert e.__cause__ is None and e.__suppress_context__
    assert SECRET not in caplog.text and "127.0.0.1" not in caplog.text
    for g in (gw, hurried):
        assert SECRET not in repr(g) and SECRET not in repr(vars(g))


async def test_without_a_key_a_dummy_bearer_is_sent(
    fakellm: FakeLLM, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    gw = Gateway(settings_for(fakellm.base_url, openai_api_key=None))  # builds no client yet
    fakellm.script(Reply.json({"ok": True}))
    try:
        await ask(gw)
    finally:
        await gw.aclose()
    assert fakellm.requests[0].headers["authorization"] == "Bearer not-needed"


# -- tool calls ----------------------------------------------------------------------------

TOOLS: list[ToolSpec] = [
    {"type": "function", "function": {
        "name": "search_claims", "description": "Search claims.",
        "parameters": {"type": "object", "properties": {"query": {"type": "string"}},
                       "required": ["query"]}}},
    {"type": "function", "function": {
        "name": "get_claim_sources", "description": "Fragments behind claims.",
        "parameters": {"type": "object",
                       "properties": {"claim_ids": {"type": "array",
                                                    "items": {"type": "string"}}},
                       "required": ["claim_ids"]}}},
]


async def test_chat_tools_parses_tool_calls_and_keeps_bad_arguments_raw(
    gateway: Gateway, fakellm: FakeLLM
) -> None:
    fakellm.script(Reply.tools(
        ToolCallSpec("search_claims", {"query": "launch date"}, id="call_a"),
        ToolCallSpec("get_claim_sources", '{"claim_ids": ["c1"', id="call_b"),
        ToolCallSpec("get_claim_sources", '["c1"]', id="call_c"),
    ))
    turn, call = await gateway.chat_tools("analyst", ASK, TOOLS)
    assert turn == AssistantTurn(content=None, tool_calls=[
        ToolCall("call_a", "search_claims", {"query": "launch date"},
                 '{"query": "launch date"}'),
        ToolCall("call_b", "get_claim_sources", None, '{"claim_ids": ["c1"'),
        ToolCall("call_c", "get_claim_sources", None, '["c1"]'),
    ])
    [body] = fakellm.bodies
    assert body["tools"] == TOOLS and body["tool_choice"] == "auto"
    assert "response_format" not in body
    assert (call.role, call.ok, call.prompt_tokens, call.completion_tokens) == (
        "analyst", True, 21, 8)
    assert call.detail == {"tool_calls": 3}


async def test_chat_tools_turn_round_trips_as_a_message(
    gateway: Gateway, fakellm: FakeLLM
) -> None:
    fakellm.script(Reply.tools(("search_claims", {"query": "venue"})),
                   Reply.text("No source-backed answer."))
    turn, _ = await gateway.chat_tools("analyst", ASK, TOOLS)
    [tc] = turn.tool_calls
    history: list[ChatMessage] = [*ASK, turn.as_message(),
                                  {"role": "tool", "tool_call_id": tc.id, "content": "[]"}]
    final, _ = await gateway.chat_tools("analyst", history, TOOLS)
    assert final == AssistantTurn(content="No source-backed answer.", tool_calls=[])
    sent = fakellm.bodies[1]["messages"]
    assert sent[len(ASK)] == {"role": "assistant", "content": "", "tool_calls": [
        {"id": tc.id, "type": "function",
         "function": {"name": "search_claims", "arguments": '{"query": "venue"}'}}]}
    assert sent[-1]["tool_call_id"] == tc.id


async def test_chat_tools_does_not_retry_and_maps_errors(
    gateway: Gateway, fakellm: FakeLLM
) -> None:
    fakellm.script(Reply.text("not json at all"), Reply.error(500),
                   Reply.json({"never": "asked"}))
    turn, _ = await gateway.chat_tools("analyst", ASK, TOOLS)
    assert turn.content == "not json at all" and turn.tool_calls == []
    with pytest.raises(GatewayUnavailable) as err:
        await gateway.chat_tools("analyst", ASK, TOOLS)
    assert err.value.details == {"role": "analyst", "status": 500}
    assert len(fakellm.requests) == 2
