"""Every response says ``X-Content-Type-Options: nosniff``, the UI's page and assets carry a
strict Content-Security-Policy, and the UI's page has no inline script to need another."""

from __future__ import annotations

import re
import socket

import httpx
from fastapi.testclient import TestClient

from afterhack.api.app import STATIC_DIR
from afterhack.api.errors import error_response
from tests.support.files import pdf_file
from tests.support.procs import AppProcess


def _directives(policy: str) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for part in policy.split(";"):
        name, *values = part.split()
        out[name] = values
    return out


def test_the_ui_has_a_strict_policy_and_no_inline_script(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200
    assert page.headers["x-content-type-options"] == "nosniff"
    policy = _directives(page.headers["content-security-policy"])
    assert policy["default-src"] == ["'none'"]
    assert policy["script-src"] == ["'self'"]
    assert policy["connect-src"] == ["'self'"]
    assert policy["frame-ancestors"] == ["'none'"]
    assert not any("unsafe" in v for values in policy.values() for v in values)
    scripts = re.findall(r"<script\b([^>]*)>(.*?)</script>", page.text, re.DOTALL)
    assert scripts, "the UI's page loads its script"
    assert all('src="/assets/' in attrs and not body.strip() for attrs, body in scripts)
    asset = next((STATIC_DIR / "assets").glob("*.js")).name
    script = client.get(f"/assets/{asset}")
    assert script.status_code == 200
    assert script.headers["x-content-type-options"] == "nosniff"
    assert "content-security-policy" in script.headers


def test_api_answers_errors_and_originals_say_nosniff(client: TestClient, ws: str) -> None:
    added = client.post(f"/api/workspaces/{ws}/sources/files",
                        files={"file": ("report.pdf", pdf_file())})
    assert added.status_code == 201, added.text
    source = added.json()["source"]
    original = client.get(f"/api/workspaces/{ws}/sources/{source['id']}/versions/"
                          f"{source['versions'][0]['id']}/file")
    assert original.headers["content-disposition"].startswith("attachment;")
    answers = [added, original, client.get("/api/health"),
               client.get(f"/api/workspaces/{ws}/claims/{'0' * 32}"),
               client.post("/api/workspaces", json={"name": 7}),
               client.post(f"/api/workspaces/{ws}/sources", content=b"{",
                           headers={"content-type": "application/json"}),
               client.get("/nowhere")]
    for answer in answers:
        assert answer.headers.get("x-content-type-options") == "nosniff", (
            answer.request.url, answer.status_code)
    # The API's answers are not the UI: no page policy on them.
    assert "content-security-policy" not in answers[2].headers


def test_an_internal_error_says_nosniff_too() -> None:
    answer = error_response(RuntimeError("boom"), "GET /api/health")
    assert answer.status_code == 500
    assert answer.headers["x-content-type-options"] == "nosniff"


def test_refusals_written_by_the_protocol_say_nosniff(running_app: AppProcess) -> None:
    """421 and 431 are written by the HTTP protocol itself, before the app sees a request."""
    refusals = [b"GET http://evil.example/api/health HTTP/1.1\r\nHost: evil.example\r\n\r\n",
                b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: "
                + b"a" * (70 << 10) + b"\r\n\r\n"]
    for request in refusals:
        with socket.create_connection(("127.0.0.1", running_app.port), timeout=30) as conn:
            conn.sendall(request)
            head = conn.recv(4096).split(b"\r\n\r\n", 1)[0].lower()
        assert head.startswith((b"http/1.1 421", b"http/1.1 431")), head
        assert b"x-content-type-options: nosniff" in head
    health = httpx.get(running_app.base_url + "/api/health")
    assert health.headers["x-content-type-options"] == "nosniff"
