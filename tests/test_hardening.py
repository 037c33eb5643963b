"""What an outside probe found (issue 17), each reproduced against the real app and FalkorDB:
DNS rebinding and cross-site requests, malformed path ids, restores that trust types, giant
headers, bodies that are not UTF-8, and an oversize body from a client that writes it whole
before reading."""

from __future__ import annotations

import contextlib
import http.client
import json
import re
import socket
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import httpx
import pytest
from fastapi.testclient import TestClient
from pydantic import ValidationError

from tests.support.api import run_agent
from tests.support.errors import assert_canonical_error
from tests.support.hosts import MALFORMED_HOSTS, ODD_HOSTS
from tests.support.paths import ROOT
from tests.support.procs import AppProcess
from tests.support.settings import make_settings

ADMIN = "hardening-admin-" + uuid.uuid4().hex


@pytest.fixture(scope="module")
def app_proc(falkordb: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[AppProcess]:
    """The real app (uvicorn, its own HTTP protocol) with keys off, as a local user runs it."""
    tmp = tmp_path_factory.mktemp("hardening")
    env = {"AFTERHACK_FALKORDB_URL": falkordb, "AFTERHACK_ALLOWED_HOSTS": "memory.example",
           "AFTERHACK_ALLOWED_ORIGINS": "http://ui.example:3000"}
    with AppProcess(env, data_dir=tmp / "data", log_path=tmp / "app.log") as app:
        yield app


@pytest.fixture(scope="module")
def keyed_proc(falkordb: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[AppProcess]:
    tmp = tmp_path_factory.mktemp("hardening-keyed")
    env = {"AFTERHACK_FALKORDB_URL": falkordb, "AFTERHACK_ADMIN_KEY": ADMIN,
           "AFTERHACK_RATE_LIMIT_PER_MINUTE": "100000"}
    with AppProcess(env, data_dir=tmp / "data", log_path=tmp / "app.log") as app:
        yield app


def _workspace_names(app: AppProcess, headers: dict[str, str] | None = None) -> list[str]:
    r = httpx.get(app.base_url + "/api/workspaces", headers=headers, timeout=30)
    assert r.status_code == 200, r.text
    return [w["name"] for w in r.json()["items"]]


# 1. DNS rebinding and cross-site requests


def test_a_rebound_name_is_refused_on_every_route(app_proc: AppProcess) -> None:
    evil = f"evil.example:{app_proc.port}"
    name = "rebound-" + uuid.uuid4().hex
    r = httpx.post(app_proc.base_url + "/api/workspaces", json={"name": name},
                   headers={"Host": evil, "Origin": f"http://{evil}"})
    assert_canonical_error(r, 421)
    assert r.json()["error"]["code"] == "host_not_allowed"
    assert name not in _workspace_names(app_proc)
    # Every path the app serves, the UI and MCP included, with the rebound Host alone.
    spec = httpx.get(app_proc.base_url + "/api/openapi.json").json()
    paths = [re.sub(r"{\w+}", str(uuid.uuid4()), p) for p in spec["paths"]]
    for path in [*paths, "/", "/mcp", "/mcp/", "/assets/x.js"]:
        for method in ("GET", "POST"):
            r = httpx.request(method, app_proc.base_url + path, headers={"Host": evil},
                              json={} if method == "POST" else None)
            assert r.status_code == 421, (method, path, r.status_code, r.text[:200])


def test_loopback_names_and_listed_hosts_are_answered(app_proc: AppProcess) -> None:
    for host in (f"127.0.0.1:{app_proc.port}", f"localhost:{app_proc.port}",
                 f"[::1]:{app_proc.port}", "memory.example", f"MEMORY.example:{app_proc.port}",
                 "localhost", "localhost.", "127.0.0.1", "[::1]", "[0:0:0:0:0:0:0:1]",
                 "127.0.0.2", f"memory.example.:{app_proc.port}"):
        r = httpx.get(app_proc.base_url + "/api/workspaces", headers={"Host": host})
        assert r.status_code == 200, (host, r.text)
        for method, target, body in _routes(app_proc):
            reply = _raw(app_proc, _request(method, target, [host], body))
            assert _status(reply) in (200, 201), (host, target, reply[:300])


def test_a_cross_site_origin_with_a_loopback_host_is_refused(app_proc: AppProcess) -> None:
    name = "cross-site-" + uuid.uuid4().hex
    for origin in ("http://evil.example", "null", f"http://localhost:{app_proc.port + 1}",
                   "https://127.0.0.1"):
        r = httpx.post(app_proc.base_url + "/api/workspaces", json={"name": name},
                       headers={"Origin": origin})
        assert_canonical_error(r, 403)
        assert r.json()["error"]["code"] == "origin_not_allowed"
        # Keys are off: no read is a keyed read, so reads are refused as well.
        assert httpx.get(app_proc.base_url + "/api/workspaces",
                         headers={"Origin": origin}).status_code == 403
    assert name not in _workspace_names(app_proc)


def test_the_apps_own_origin_and_listed_origins_are_accepted(app_proc: AppProcess) -> None:
    for origin in (app_proc.base_url, "http://ui.example:3000"):
        r = httpx.post(app_proc.base_url + "/api/workspaces", json={"name": "own origin"},
                       headers={"Origin": origin})
        assert r.status_code == 201, (origin, r.text)


def test_mcp_is_guarded_by_the_same_check(app_proc: AppProcess) -> None:
    init = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
            "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                       "clientInfo": {"name": "t", "version": "1"}}}
    accept = {"Accept": "application/json, text/event-stream"}
    ok = httpx.post(app_proc.base_url + "/mcp", json=init, headers=accept)
    assert ok.status_code == 200, ok.text
    r = httpx.post(app_proc.base_url + "/mcp", json=init,
                   headers={**accept, "Origin": "http://evil.example"})
    assert r.json()["error"]["code"] == "origin_not_allowed"
    r = httpx.post(app_proc.base_url + "/mcp", json=init,
                   headers={**accept, "Host": "evil.example"})
    assert r.json()["error"]["code"] == "host_not_allowed"


def test_the_trailing_slash_redirect_stays_on_the_requests_own_host(
        app_proc: AppProcess) -> None:
    for host in (f"localhost:{app_proc.port}", f"127.0.0.1:{app_proc.port}"):
        r = httpx.get(app_proc.base_url + "/mcp/", headers={"Host": host})
        if r.is_redirect:
            assert httpx.URL(r.headers["location"]).netloc.decode() == host
    r = httpx.get(app_proc.base_url + "/mcp/", headers={"Host": "evil.example"})
    assert r.status_code == 421 and "location" not in r.headers


INIT = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                   "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                              "clientInfo": {"name": "t", "version": "1"}}}).encode()


def _request(method: str, target: str, hosts: list[str], body: bytes = b"") -> bytes:
    """A request as raw bytes: any target and any Host lines, as no HTTP client sends them."""
    head = f"{method} {target} HTTP/1.1\r\n".encode()
    for host in hosts:
        head += b"Host: " + host.encode() + b"\r\n"
    head += b"Connection: close\r\nAccept: application/json, text/event-stream\r\n"
    if body:
        head += b"Content-Type: application/json\r\nContent-Length: %d\r\n" % len(body)
    return head + b"\r\n" + body


def _routes(app: AppProcess, authority: str = "") -> list[tuple[str, str, bytes]]:
    """One request per kind of route (API read, API write, MCP, UI), targets prefixed with
    ``authority`` (an absolute-form target) when given."""
    name = json.dumps({"name": "misdirected-" + uuid.uuid4().hex}).encode()
    return [("GET", authority + "/api/workspaces", b""),
            ("POST", authority + "/api/workspaces", name),
            ("POST", authority + "/mcp", INIT),
            ("GET", authority + "/", b"")]


def _status(reply: bytes) -> int:
    return int(reply.split(b" ", 2)[1]) if reply.startswith(b"HTTP/1.1 ") else 0


def _assert_misdirected(reply: bytes, what: object) -> None:
    assert reply.startswith(b"HTTP/1.1 421 "), (what, reply[:300])
    body = json.loads(reply.split(b"\r\n\r\n", 1)[1])
    assert body["error"]["code"] == "host_not_allowed", (what, body)


def test_a_malformed_host_is_refused_on_every_kind_of_route(app_proc: AppProcess) -> None:
    before = _workspace_names(app_proc)
    for host in [*MALFORMED_HOSTS, *ODD_HOSTS]:
        for method, target, body in _routes(app_proc):
            _assert_misdirected(_raw(app_proc, _request(method, target, [host], body)),
                                (host, method, target))
    assert _workspace_names(app_proc) == before


def test_two_host_headers_are_refused(app_proc: AppProcess) -> None:
    own = f"127.0.0.1:{app_proc.port}"
    before = _workspace_names(app_proc)
    for hosts in ([own, "evil.example"], ["evil.example", own], [own, own],
                  [own, f"localhost:{app_proc.port}"]):
        for method, target, body in _routes(app_proc):
            _assert_misdirected(_raw(app_proc, _request(method, target, hosts, body)),
                                (hosts, method, target))
    assert _workspace_names(app_proc) == before


def test_an_absolute_target_naming_another_host_is_refused(app_proc: AppProcess) -> None:
    own = f"127.0.0.1:{app_proc.port}"
    before = _workspace_names(app_proc)
    for authority in ("http://evil.example", f"http://evil.example:{app_proc.port}",
                      "HTTP://EVIL.EXAMPLE", f"https://{own}@evil.example",
                      f"http://user@{own}", "http://[::1].evil.example",
                      "ftp://127.0.0.1"):
        for method, target, body in _routes(app_proc, authority):
            _assert_misdirected(_raw(app_proc, _request(method, target, [own], body)),
                                (method, target))
    assert _workspace_names(app_proc) == before


def test_a_refused_target_ends_the_connection_and_what_was_pipelined_after_it(
        app_proc: AppProcess) -> None:
    own = f"127.0.0.1:{app_proc.port}"
    name = "pipelined-" + uuid.uuid4().hex
    refused = _request("POST", "http://evil.example/api/workspaces", [own],
                       json.dumps({"name": name + "-first"}).encode())
    after = _request("POST", "/api/workspaces", [own], json.dumps({"name": name}).encode())
    reply = _raw(app_proc, refused.replace(b"Connection: close\r\n", b"") + after)
    _assert_misdirected(reply, "pipelined")
    assert reply.count(b"HTTP/1.1 ") == 1, reply
    assert not [n for n in _workspace_names(app_proc) if n.startswith(name)]


def test_an_absolute_target_naming_this_server_is_answered(app_proc: AppProcess) -> None:
    own = f"127.0.0.1:{app_proc.port}"
    for authority in (f"http://{own}", f"http://localhost:{app_proc.port}",
                      "http://memory.example", f"http://[::1]:{app_proc.port}"):
        for method, target, body in _routes(app_proc, authority):
            reply = _raw(app_proc, _request(method, target, [own], body))
            assert _status(reply) in (200, 201), (target, reply[:300])


@pytest.mark.parametrize("http", ["h11", "httptools"])
def test_under_plain_uvicorn_the_guard_reads_hosts_the_same_way(
        falkordb: str, tmp_path: Path, http: str) -> None:
    # An operator's own uvicorn: h11 keeps an absolute-form target whole in raw_path, where
    # the guard reads it; httptools keeps only its path (so only `afterhack serve`, whose
    # protocol reads the target as sent, refuses a foreign authority there).
    env = {"AFTERHACK_FALKORDB_URL": falkordb}
    with AppProcess(env, data_dir=tmp_path / "data", log_path=tmp_path / "app.log",
                    http=http) as app:
        own = f"127.0.0.1:{app.port}"
        for host in [*MALFORMED_HOSTS, *ODD_HOSTS]:
            for method, target, body in _routes(app):
                _assert_misdirected(_raw(app, _request(method, target, [host], body)), host)
        for method, target, body in _routes(app):
            reply = _raw(app, _request(method, target, [own, "evil.example"], body))
            # h11 refuses two Host headers itself, with its own 400.
            assert _status(reply) == (400 if http == "h11" else 421), reply[:300]
            reply = _raw(app, _request(method, target, [own], body))
            assert _status(reply) in (200, 201), (target, reply[:300])
        if http == "h11":
            for method, target, body in _routes(app, "http://evil.example"):
                _assert_misdirected(_raw(app, _request(method, target, [own], body)), target)


def test_allowed_hosts_must_be_hosts() -> None:
    assert make_settings(allowed_hosts=["memory.example:8000", "[fd00::1]", "*"]).allowed_hosts
    for bad in ("[::1]evil.example", "http://memory.example", "memory.example:http"):
        with pytest.raises(ValidationError, match="is not a host"):
            make_settings(allowed_hosts=[bad])


def test_a_keyed_read_from_another_origin_passes_to_the_key_check(
        keyed_proc: AppProcess) -> None:
    auth = {"Authorization": f"Bearer {ADMIN}", "Origin": "http://evil.example"}
    assert httpx.get(keyed_proc.base_url + "/api/workspaces", headers=auth).status_code == 200
    wrong = {"Authorization": "Bearer ahk_nope", "Origin": "http://evil.example"}
    assert httpx.get(keyed_proc.base_url + "/api/workspaces", headers=wrong).status_code == 401
    # A write from another site's page is refused even with a key.
    r = httpx.post(keyed_proc.base_url + "/api/workspaces", json={"name": "x"}, headers=auth)
    assert r.json()["error"]["code"] == "origin_not_allowed"


# 2. Malformed path ids


BAD_IDS = ["\x00", "a\x00b", "\ud800", "x" * 10_000, "') RETURN 1 //", "@id:{x} | -y*",
           "00000000-0000-0000-0000-00000000000Z", str(uuid.uuid4()).upper(),
           str(uuid.uuid4()) + "\n", "%", "ws_0"]


def _encode(value: str) -> str:
    return quote(value.encode("utf-8", "surrogatepass"), safe="")


def test_every_path_id_that_is_not_an_id_is_an_unknown_id(client: TestClient,
                                                          ws: str) -> None:
    spec = client.get("/api/openapi.json").json()
    checked = 0
    for path, ops in spec["paths"].items():
        names = re.findall(r"{(\w+)}", path)
        for name in names:
            for method in ops:
                for bad in BAD_IDS:
                    values = {n: ws if n == "ws" else str(uuid.uuid4()) for n in names}
                    values[name] = bad
                    url = path
                    for n, v in values.items():
                        url = url.replace("{" + n + "}", _encode(v))
                    r = client.request(method.upper(), url,
                                       json={} if method in ("post", "patch") else None)
                    assert r.status_code == 404, (method, path, name, repr(bad)[:40], r.text)
                    assert_canonical_error(r, 404)
                    assert r.json()["error"]["code"].endswith("not_found"), (method, path, r.text)
                    checked += 1
    assert checked > 200


# 3. Restore trusts no type


@pytest.fixture
def export(client: TestClient, ws: str) -> dict[str, Any]:
    client.post(f"/api/workspaces/{ws}/sources",
                json={"title": "Plan", "text": "The launch is planned for June 12."})
    run_agent(client, ws, "Plan the launch")
    doc: dict[str, Any] = client.get(f"/api/workspaces/{ws}/export").json()
    assert client.delete(f"/api/workspaces/{ws}").status_code == 200
    return doc


def _node(doc: dict[str, Any], label: str) -> dict[str, Any]:
    return next(n["properties"] for n in doc["nodes"] if n["labels"] == [label])


@pytest.mark.parametrize(("label", "prop", "value", "words"), [
    ("Claim", "statement", 123, "statement must be of type str"),
    ("Claim", "quote_start", "x", "quote_start must be of type int"),
    ("Claim", "status", "bogus", "status must be one of"),
    ("Decision", "status", "maybe", "status must be one of"),
    ("Action", "revision", 1.5, "revision must be of type int"),
    ("Workspace", "ready", "yes", "ready must be of type bool"),
    ("Claim", "colour", "red", "unknown property 'colour'"),
])
def test_a_restore_with_a_wrong_type_or_status_is_422_and_leaves_nothing(
        client: TestClient, export: dict[str, Any], label: str, prop: str, value: Any,
        words: str) -> None:
    _node(export, label)[prop] = value
    r = client.post("/api/workspaces/restore", json=export)
    assert_canonical_error(r, 422)
    assert words in r.json()["error"]["message"], r.text
    ws = export["workspace"]["id"]
    assert client.get(f"/api/workspaces/{ws}").status_code == 404


def test_a_restore_that_breaks_an_invariant_is_422_and_leaves_nothing(
        client: TestClient, export: dict[str, Any]) -> None:
    # The decision stays a draft while its only claim is superseded: the app never writes that.
    for n in export["nodes"]:
        if n["labels"] == ["Claim"]:
            n["properties"]["status"] = "superseded"
    r = client.post("/api/workspaces/restore", json=export)
    assert_canonical_error(r, 422)
    assert "invariant" in r.json()["error"]["message"]
    ws = export["workspace"]["id"]
    assert client.get(f"/api/workspaces/{ws}").status_code == 404
    assert ws not in [w["id"] for w in client.get("/api/workspaces?limit=200").json()["items"]]


def test_a_workspace_exported_as_not_ready_restores_readable_and_deletable(
        client: TestClient, export: dict[str, Any]) -> None:
    _node(export, "Workspace")["ready"] = False
    ws = export["workspace"]["id"]
    assert client.post("/api/workspaces/restore", json=export).status_code == 201
    assert client.get(f"/api/workspaces/{ws}").status_code == 200
    assert client.get(f"/api/workspaces/{ws}/graph").status_code == 200
    assert client.delete(f"/api/workspaces/{ws}").status_code == 200
    assert client.post("/api/workspaces/restore", json=export).status_code == 201


# 4. Header limits


def _raw(app: AppProcess, head: bytes, body: bytes = b"") -> bytes:
    with socket.create_connection(("127.0.0.1", app.port), timeout=30) as s:
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):
            s.sendall(head + body)
        chunks = []
        while True:
            try:
                chunk = s.recv(65536)
            except ConnectionResetError:
                break
            if not chunk:
                break
            chunks.append(chunk)
        return b"".join(chunks)


def test_a_giant_header_is_refused_before_the_head_ends(app_proc: AppProcess) -> None:
    # The head never ends (no blank line): the answer can only come from counting it.
    head = (b"GET /api/workspaces HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer "
            + b"a" * 1_000_000)
    reply = _raw(app_proc, head)
    assert reply.startswith(b"HTTP/1.1 431 "), reply[:200]
    body = json.loads(reply.split(b"\r\n\r\n", 1)[1])
    assert body["error"]["code"] == "request_header_fields_too_large"


def test_too_many_headers_are_refused(app_proc: AppProcess) -> None:
    many = b"".join(b"X-H%d: v\r\n" % i for i in range(150))
    reply = _raw(app_proc, b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n" + many + b"\r\n")
    assert reply.startswith(b"HTTP/1.1 431 "), reply[:200]


def test_ordinary_requests_keep_working_on_one_connection(app_proc: AppProcess) -> None:
    with httpx.Client(base_url=app_proc.base_url) as c:
        for _ in range(5):
            assert c.get("/api/health").status_code == 200
            assert c.post("/api/workspaces", json={"name": "keep-alive"}).status_code == 201


# 6. Bodies that are not UTF-8, and an oversize body written whole before reading


def test_a_utf16_body_is_422(app_proc: AppProcess) -> None:
    body = json.dumps({"name": "utf16"}).encode("utf-16")
    r = httpx.post(app_proc.base_url + "/api/workspaces", content=body,
                   headers={"Content-Type": "application/json"})
    assert_canonical_error(r, 422)
    assert "UTF-8" in r.json()["error"]["message"]


@pytest.mark.parametrize("size", [3_000_000, 24_000_000])
def test_http_client_posting_megabytes_reads_the_413(app_proc: AppProcess, size: int) -> None:
    conn = http.client.HTTPConnection("127.0.0.1", app_proc.port, timeout=60)
    body = json.dumps({"title": "big", "text": "x" * size}).encode()
    ws = httpx.post(app_proc.base_url + "/api/workspaces", json={"name": "big"}).json()["id"]
    conn.request("POST", f"/api/workspaces/{ws}/sources", body=body,
                 headers={"Content-Type": "application/json"})
    resp = conn.getresponse()
    assert resp.status == 413
    assert json.loads(resp.read())["error"]["code"] == "payload_too_large"
    conn.close()


def test_a_streamed_oversize_body_is_drained_and_answered_413(app_proc: AppProcess) -> None:
    def chunks() -> Iterator[bytes]:
        yield b'{"name": "'
        for _ in range(300):
            yield b"y" * 10_000
        yield b'"}'

    r = httpx.post(app_proc.base_url + "/api/workspaces", content=chunks(),
                   headers={"Content-Type": "application/json"}, timeout=60)
    assert_canonical_error(r, 413)


def test_the_guards_are_documented() -> None:
    readme = (ROOT / "README.md").read_text()
    api = (ROOT / "docs" / "api.md").read_text()
    for name in ("AFTERHACK_ALLOWED_HOSTS", "AFTERHACK_ALLOWED_ORIGINS",
                 "AFTERHACK_MAX_HEADER_BYTES", "AFTERHACK_MAX_HEADERS"):
        assert name in readme, name
    for code in ("host_not_allowed", "origin_not_allowed", "request_header_fields_too_large"):
        assert code in api, code


def test_a_blank_source_is_refused_in_plain_words(client: TestClient, ws: str) -> None:
    r = client.post(f"/api/workspaces/{ws}/sources", json={"title": "x", "text": "   \n"})
    assert_canonical_error(r, 422)
    message = r.json()["error"]["message"]
    assert message == "text: is empty (or only spaces): there is nothing to keep"
    assert "Value error" not in r.text
