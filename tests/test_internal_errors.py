"""No internal text in any 500, over HTTP and MCP: a real FalkorDB query failure (a graph
broken through the store, so the app's own search query fails) is answered with a generic
message and a request id; the failure's text goes to the log under that id."""

from __future__ import annotations

import json
import re
import uuid
from collections.abc import Iterator

import httpx
import pytest

from afterhack.store.client import Graph, Rows
from tests.support.errors import INJECTIONS
from tests.support.graphs import with_graph
from tests.support.paths import ROOT
from tests.support.procs import AppProcess

MEMO = "The launch is planned for June 12. The caterer is Bella Foods."


@pytest.fixture(scope="module")
def app_proc(falkordb: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[AppProcess]:
    tmp = tmp_path_factory.mktemp("internal-errors")
    env = {"AFTERHACK_FALKORDB_URL": falkordb, "AFTERHACK_EMBEDDING_WORKER": "false"}
    with AppProcess(env, data_dir=tmp / "data", log_path=tmp / "app.log") as app:
        yield app


@pytest.fixture(scope="module")
def broken_ws(app_proc: AppProcess, falkordb: str) -> str:
    """A workspace whose claims hold a number where the app keeps the list of times their
    status changed: the app's own queries of their past then fail inside FalkorDB."""
    base = app_proc.base_url + "/api"
    ws = httpx.post(base + "/workspaces", json={"name": "broken"}, timeout=30).json()["id"]
    r = httpx.post(f"{base}/workspaces/{ws}/sources", json={"title": "Plan", "text": MEMO},
                   timeout=60)
    assert r.status_code == 201 and r.json()["claims"], r.text

    async def corrupt(g: Graph) -> Rows:
        return await g.write("MATCH (c:Claim) SET c.status_since = 7")

    with_graph(falkordb, ws, corrupt)
    return str(ws)


def _store_failures(log: str) -> list[tuple[str, str]]:
    """The store's own log lines for failed queries: (FalkorDB's message, the query)."""
    found = re.findall(r"query failed on \S+: (.*)\n(.*)", log)
    return [(m.strip(), q.strip()) for m, q in found]


def _logged_with(log: str, request_id: str) -> list[str]:
    """The log lines written while serving the request with that id."""
    return [line for line in log.splitlines() if f" [{request_id}]: " in line]


def _assert_no_internal_text(text: str, failures: list[tuple[str, str]]) -> None:
    assert failures
    for message, query in failures:
        assert message not in text, text
        assert query not in text and query[:30] not in text, text
    for word in ("MATCH", "RETURN", "UNWIND", "Type mismatch", "Traceback", "QueryFailed"):
        assert word not in text, (word, text)


def test_a_store_error_is_a_500_with_a_request_id_and_no_query_text(
        app_proc: AppProcess, broken_ws: str) -> None:
    r = httpx.get(f"{app_proc.base_url}/api/workspaces/{broken_ws}/claims",
                  params={"as_of": "2999-01-01"}, timeout=30)
    assert r.status_code == 500, r.text
    body = r.json()
    assert set(body) == {"error"} and set(body["error"]) == {"code", "message", "details"}
    assert body["error"]["code"] == "internal_error"
    log = app_proc.log_path.read_text(errors="replace")
    failures = _store_failures(log)
    _assert_no_internal_text(r.text, failures)
    request_id = body["error"]["details"]["request_id"]
    assert re.fullmatch(r"[0-9a-f]{32}", request_id)
    assert r.headers["x-request-id"] == request_id
    # The log has what the answer leaves out, under the id the answer carries: the store's
    # line with FalkorDB's message and the query, then the error with its route.
    lines = _logged_with(log, request_id)
    assert len(lines) == 2, log[-3000:]
    assert lines[0].startswith("WARNING afterhack.store.client")
    assert any(message in lines[0] for message, _ in failures), lines[0]
    query = log.splitlines()[log.splitlines().index(lines[0]) + 1]
    assert query.startswith("MATCH (c:Claim)"), query
    assert lines[1].startswith("ERROR afterhack.errors")
    assert f"GET /api/workspaces/{broken_ws}/claims" in lines[1]
    # Each 500 gets its own id.
    again = httpx.get(f"{app_proc.base_url}/api/workspaces/{broken_ws}/claims",
                      params={"as_of": "2999-01-02"}, timeout=30)
    assert again.status_code == 500
    assert again.json()["error"]["details"]["request_id"] != request_id


def test_an_mcp_tool_hitting_a_store_error_answers_the_same_way(
        app_proc: AppProcess, broken_ws: str) -> None:
    accept = {"Accept": "application/json, text/event-stream"}

    def rpc(method: str, params: dict[str, object]) -> httpx.Response:
        msg = {"jsonrpc": "2.0", "id": str(uuid.uuid4()), "method": method, "params": params}
        return httpx.post(app_proc.base_url + "/mcp", json=msg, headers=accept, timeout=60)

    claims = httpx.get(f"{app_proc.base_url}/api/workspaces/{broken_ws}/claims",
                       timeout=30).json()["items"]
    r = rpc("tools/call", {"name": "get_claim", "arguments": {
        "workspace_id": broken_ws, "claim_id": claims[0]["id"], "as_of": "2999-01-01"}})
    assert r.status_code == 200, r.text
    result = r.json()["result"]
    assert result["isError"] is True
    body = result["structuredContent"]
    assert json.loads(result["content"][0]["text"]) == body
    assert body["error"]["code"] == "internal_error"
    log = app_proc.log_path.read_text(errors="replace")
    _assert_no_internal_text(r.text, _store_failures(log))
    request_id = body["error"]["details"]["request_id"]
    lines = _logged_with(log, request_id)
    assert len(lines) == 2 and "MCP tool" in lines[1], log[-3000:]


def test_bad_input_is_still_answered_4xx_without_a_request_id(app_proc: AppProcess) -> None:
    # What the caller got wrong it may read in full; only internal errors are withheld.
    base = app_proc.base_url + "/api"
    for name in INJECTIONS[:4]:
        r = httpx.post(base + "/workspaces", json={"name": name, "extra": 1}, timeout=30)
        assert r.status_code == 422 and "request_id" not in r.json()["error"]["details"]
        assert "x-request-id" not in r.headers


def test_the_rule_is_documented() -> None:
    api = (ROOT / "docs" / "api.md").read_text()
    assert "X-Request-Id" in api and "request_id" in api
