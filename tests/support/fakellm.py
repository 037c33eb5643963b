"""A scripted OpenAI-compatible chat-completions server over real HTTP, for tests.

The code under test reaches it with the real ``openai`` SDK, so request encoding, status
handling, timeouts and response parsing all run as in production; only the model's
answers are scripted. Replies come from a queue (``script``) first, then from a
``handler(request_json) -> Reply``; a request with neither gets a 500 and is counted in
``unscripted`` so a test notices.

It is a stdlib ThreadingHTTPServer on 127.0.0.1: it starts and stops in milliseconds, and
``stop`` cuts every pending delay short so no test waits on a reply nobody reads.
"""

from __future__ import annotations

import contextlib
import itertools
import json as _json
import socket
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from typing import Any

from afterhack.runtime.embedded import free_loopback_port

DEFAULT_USAGE = {"prompt_tokens": 21, "completion_tokens": 8, "total_tokens": 29}


@dataclass(frozen=True)
class ToolCallSpec:
    name: str
    arguments: dict[str, Any] | str  # a str is sent as is (use it for invalid JSON)
    id: str | None = None


@dataclass(frozen=True)
class Reply:
    """One scripted answer: content and/or tool calls, or an HTTP error; optionally late."""

    content: str | None = None
    tool_calls: tuple[ToolCallSpec, ...] = ()
    status: int = 200
    error_message: str | None = None
    error_type: str | None = None
    error_code: str | None = None
    error_param: str | None = None
    delay_s: float = 0.0
    usage: dict[str, int] | None = field(default_factory=lambda: dict(DEFAULT_USAGE))
    # "length" says the answer was cut at max_tokens; None: "tool_calls" or "stop".
    finish_reason: str | None = None

    @classmethod
    def json(cls, obj: Any, *, delay_s: float = 0.0,
             usage: dict[str, int] | None = DEFAULT_USAGE) -> Reply:
        """Content that is ``obj`` serialised as JSON."""
        return cls(content=_json.dumps(obj), delay_s=delay_s, usage=usage)

    @classmethod
    def text(cls, text: str, *, delay_s: float = 0.0,
             usage: dict[str, int] | None = DEFAULT_USAGE) -> Reply:
        """Raw content: "not json", fenced JSON, prose around JSON..."""
        return cls(content=text, delay_s=delay_s, usage=usage)

    @classmethod
    def tools(cls, *calls: ToolCallSpec | tuple[str, dict[str, Any] | str],
              content: str | None = None, delay_s: float = 0.0) -> Reply:
        specs = tuple(c if isinstance(c, ToolCallSpec) else ToolCallSpec(c[0], c[1])
                      for c in calls)
        return cls(content=content, tool_calls=specs, delay_s=delay_s)

    @classmethod
    def error(cls, status: int, message: str | None = None, *, type: str | None = None,
              code: str | None = None, param: str | None = None,
              delay_s: float = 0.0) -> Reply:
        """An HTTP error with an OpenAI-style body ``{"error": {message, type, param, code}}``."""
        return cls(status=status, error_message=message or f"scripted error {status}",
                   error_type=type or ("rate_limit_error" if status == 429 else
                                       "invalid_request_error" if status < 500 else
                                       "server_error"),
                   error_code=code, error_param=param, delay_s=delay_s, usage=None)


@dataclass(frozen=True)
class RecordedRequest:
    method: str
    path: str
    headers: dict[str, str]  # names lower-cased
    body: Any  # the parsed JSON body, or None when it was not JSON
    raw: bytes
    at: float  # time.monotonic() when it arrived


Handler = Callable[[Any], Reply]
# ``POST /v1/embeddings``: one vector per input text (set ``FakeLLM.embed``).
EmbedFn = Callable[[str], list[float]]


class FakeLLM:
    def __init__(self) -> None:
        self.port = free_loopback_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.base_url = self.url + "/v1"
        self.requests: list[RecordedRequest] = []
        self.handler: Handler | None = None
        self.embed: EmbedFn | None = None
        self.in_flight = 0
        self.max_in_flight = 0
        self.unscripted = 0
        self.handler_errors: list[BaseException] = []
        self._queue: deque[Reply] = deque()
        self._lock = threading.Lock()
        self._release = threading.Event()
        self._ids = itertools.count(1)
        self._server: _Server | None = None
        self._thread: threading.Thread | None = None

    # -- scripting ---------------------------------------------------------------------

    def script(self, *replies: Reply | Iterable[Reply]) -> FakeLLM:
        """Queue replies, answered in order before the handler is consulted."""
        with self._lock:
            for r in replies:
                self._queue.extend([r] if isinstance(r, Reply) else r)
        return self

    def on_request(self, handler: Handler) -> FakeLLM:
        self.handler = handler
        return self

    @property
    def bodies(self) -> list[Any]:
        return [r.body for r in self.requests]

    @property
    def pending(self) -> int:
        """Scripted replies not yet used."""
        return len(self._queue)

    def reset(self) -> None:
        with self._lock:
            self._queue.clear()
            self.requests.clear()
            self.handler = None
            self.max_in_flight = self.in_flight
            self.unscripted = 0
            self.handler_errors.clear()

    # -- lifecycle ---------------------------------------------------------------------

    def start(self) -> FakeLLM:
        self._server = _Server(("127.0.0.1", self.port), _RequestHandler)
        self._server.fake = self
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.02},
            name=f"fakellm:{self.port}", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._release.set()  # end pending delays now
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None

    def __enter__(self) -> FakeLLM:
        return self.start()

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.stop()

    # -- serving (called on the server's threads) --------------------------------------

    def _next_reply(self, body: Any) -> Reply:
        with self._lock:
            if self._queue:
                return self._queue.popleft()
            handler = self.handler
        if handler is None:
            with self._lock:
                self.unscripted += 1
            return Reply.error(500, "fakellm: no reply was scripted for this request")
        try:
            return handler(body)
        except Exception as exc:  # a broken test handler must show up, not hang the client
            with self._lock:
                self.handler_errors.append(exc)
            return Reply.error(500, f"fakellm: handler raised {type(exc).__name__}")

    def _answer(self, method: str, path: str, headers: dict[str, str],
                raw: bytes) -> tuple[int, bytes]:
        try:
            body = _json.loads(raw) if raw else None
        except ValueError:
            body = None
        with self._lock:
            self.requests.append(RecordedRequest(method, path, headers, body, raw,
                                                 time.monotonic()))
            self.in_flight += 1
            self.max_in_flight = max(self.max_in_flight, self.in_flight)
        try:
            if method == "POST" and path.rstrip("/") == "/v1/embeddings" and self.embed:
                return 200, self._embeddings(body)
            if method != "POST" or path.rstrip("/") != "/v1/chat/completions":
                return 404, _error_body("fakellm serves only POST /v1/chat/completions",
                                        "invalid_request_error", None, None)
            reply = self._next_reply(body)
            if reply.delay_s > 0:
                self._release.wait(reply.delay_s)
            return reply.status, self._render(reply, body)
        finally:
            with self._lock:
                self.in_flight -= 1

    def _embeddings(self, body: Any) -> bytes:
        assert self.embed is not None
        texts = body.get("input") if isinstance(body, dict) else None
        texts = [texts] if isinstance(texts, str) else list(texts or [])
        data = [{"object": "embedding", "index": i, "embedding": self.embed(t)}
                for i, t in enumerate(texts)]
        return _json.dumps({"object": "list", "data": data, "model": body.get("model"),
                            "usage": {"prompt_tokens": 3 * len(texts),
                                      "total_tokens": 3 * len(texts)}}).encode()

    def _render(self, reply: Reply, body: Any) -> bytes:
        if reply.status >= 400:
            return _error_body(reply.error_message or "error", reply.error_type,
                               reply.error_code, reply.error_param)
        message: dict[str, Any] = {"role": "assistant", "content": reply.content}
        if reply.tool_calls:
            message["tool_calls"] = [
                {"id": c.id or f"call_{next(self._ids)}", "type": "function",
                 "function": {"name": c.name,
                              "arguments": c.arguments if isinstance(c.arguments, str)
                              else _json.dumps(c.arguments)}}
                for c in reply.tool_calls
            ]
        model = body.get("model") if isinstance(body, dict) else None
        out: dict[str, Any] = {
            "id": f"chatcmpl-fake-{next(self._ids)}",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": model or "fakellm",
            "choices": [{"index": 0, "message": message,
                         "finish_reason": reply.finish_reason
                         or ("tool_calls" if reply.tool_calls else "stop")}],
        }
        if reply.usage is not None:
            out["usage"] = reply.usage
        return _json.dumps(out).encode()


def _error_body(message: str, type_: str | None, code: str | None,
                param: str | None) -> bytes:
    return _json.dumps({"error": {"message": message, "type": type_, "param": param,
                                  "code": code}}).encode()


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    fake: FakeLLM

    def handle_error(self, request: Any, client_address: Any) -> None:
        # A client that gave up (timeout test) closes its socket before a late reply.
        if isinstance(sys.exc_info()[1], ConnectionError | TimeoutError):
            return
        super().handle_error(request, client_address)


class _RequestHandler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive, as the SDK's connection pool expects
    timeout = 10  # an idle keep-alive connection frees its thread after this
    server: _Server

    def setup(self) -> None:
        super().setup()
        # Headers and body go out in two writes; without this, Nagle plus delayed ACK
        # adds ~40 ms to every reply.
        self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def _serve(self) -> None:
        length = int(self.headers.get("content-length") or 0)
        raw = self.rfile.read(length) if length else b""
        headers = {k.lower(): v for k, v in self.headers.items()}
        status, payload = self.server.fake._answer(self.command, self.path, headers, raw)
        self.send_response(status)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(payload)))
        self.end_headers()
        with contextlib.suppress(ConnectionError):
            self.wfile.write(payload)

    do_POST = _serve
    do_GET = _serve
