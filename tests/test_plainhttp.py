"""The bench's plain HTTP client against a real server: answers, errors, a dropped
keep-alive connection."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import ClassVar

import pytest

from afterhack_tools.bench.plainhttp import PlainHttp, PlainHttpError


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    served: ClassVar[list[str]] = []

    def do_GET(self) -> None:
        self.served.append(self.path)
        status = 404 if self.path.startswith("/missing") else 200
        body = self.path.encode()
        self.send_response(status)
        self.send_header("Content-Length", str(len(body)))
        if self.path.startswith("/drop"):
            # Closed after answering, without saying so: as a server drops an idle
            # keep-alive connection, the client learns it on its next request.
            self.close_connection = True
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def server() -> Iterator[str]:
    srv = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)  # the kernel picks a free port
    thread = threading.Thread(target=srv.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{srv.server_address[1]}"
    finally:
        srv.shutdown()
        srv.server_close()
        thread.join(5)


def test_get_answers_the_body_and_encodes_the_query(server: str) -> None:
    client = PlainHttp(server)
    try:
        assert client.get("/a", {"q": "when do we ship?", "limit": 20}) == (
            b"/a?q=when+do+we+ship%3F&limit=20")
        assert client.get("/b") == b"/b"
    finally:
        client.close()


def test_a_non_200_answer_raises(server: str) -> None:
    client = PlainHttp(server)
    try:
        with pytest.raises(PlainHttpError, match="404"):
            client.get("/missing")
        assert client.get("/after") == b"/after"  # the connection is still usable
    finally:
        client.close()


def test_a_connection_the_server_closed_is_opened_again(server: str) -> None:
    client = PlainHttp(server)
    try:
        assert client.get("/drop") == b"/drop"
        assert client.get("/next") == b"/next"
        assert _Handler.served[-2:] == ["/drop", "/next"]
    finally:
        client.close()


def test_only_plain_http_urls() -> None:
    with pytest.raises(ValueError):
        PlainHttp("https://127.0.0.1:1")
