"""The preview's LeanRoute answers exactly as FastAPI's own handler does.

Every body is sent twice to the same preview: once as ``application/json`` (the lean path
takes it when it validates) and once as ``application/json; charset=utf-8`` (always
FastAPI's handler). Status and body must match, and FastAPI's handler must have run only
for the requests the lean path handed on (it builds an endpoint context first thing).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi import FastAPI, Query, Request, Response
from fastapi import routing as fastapi_routing
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from afterhack.api.lean import LeanRoute
from afterhack.wire.inputs import CorrectionPreview

LEAN = "application/json"
STANDARD = "application/json; charset=utf-8"


@pytest.fixture
def fastapi_runs(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """One entry per request FastAPI's own handler runs."""
    calls: list[int] = []
    real = fastapi_routing._extract_endpoint_context

    def counting(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(fastapi_routing, "_extract_endpoint_context", counting)
    yield calls


@pytest.fixture
def claim_url(client: TestClient, ws: str) -> str:
    claim = client.post(f"/api/workspaces/{ws}/sources", json={
        "title": "Launch plan", "text": "The product launch is planned for June 12."}
    ).json()["claims"][0]
    run = client.post(f"/api/workspaces/{ws}/agent-runs",
                      json={"task": "Plan the launch event"})
    assert run.status_code == 201, run.text
    return f"/api/workspaces/{ws}/claims/{claim['id']}/corrections/preview"


def both(client: TestClient, url: str, raw: bytes,
         fastapi_runs: list[int]) -> tuple[Any, Any, bool]:
    """(lean answer, FastAPI's answer, whether the lean path answered by itself)."""
    before = len(fastapi_runs)
    lean = client.post(url, content=raw, headers={"content-type": LEAN})
    took_lean = len(fastapi_runs) == before
    between = len(fastapi_runs)
    standard = client.post(url, content=raw, headers={"content-type": STANDARD})
    assert len(fastapi_runs) == between + 1, "the other content type goes to FastAPI"
    return lean, standard, took_lean


def same(a: Any, b: Any) -> None:
    assert (a.status_code, a.json(), a.headers.get("content-type")) == (
        b.status_code, b.json(), b.headers.get("content-type"))


VALID = [b'{"statement": "The launch is in July."}', b'{"kind": "retract"}', b"{}",
         b'{"statement": null, "kind": "replace"}', b'{"statement": "x", "statement": "y"}',
         '{"statement": "Le lancement \u00e9tait pr\u00e9vu \U0001f680"}'.encode()]
INVALID = [b"", b"null", b"[]", b"{", b'{"statement": 5}', b'{"kind": "edit"}',
           b'{"other": 1}', b'{"statement": "a\x01b"}', b'{"statement": "a\\ud800b"}',
           b'{"statement": "a\\u0000b"}', b'\xef\xbb\xbf{}',
           b'{"statement": "ok"} trailing', json.dumps({"statement": "x" * 4001}).encode()]


def test_valid_bodies_take_the_lean_path_with_fastapis_answer(
        client: TestClient, claim_url: str, fastapi_runs: list[int]) -> None:
    for raw in VALID:
        lean, standard, took_lean = both(client, claim_url, raw, fastapi_runs)
        assert took_lean, raw
        # A replacement without its statement is refused by the preview itself.
        assert lean.status_code == (422 if raw in (b"{}", VALID[3]) else 200), lean.text
        same(lean, standard)
    assert client.post(claim_url, content=VALID[0], headers={"content-type": LEAN}).json()[
        "flag"], "the claim's decision is flagged: the preview did real work"


# A body that is not UTF-8 is refused before any route sees it (api/limits.py), so it is
# not among these.
def test_invalid_bodies_get_fastapis_own_errors(client: TestClient, claim_url: str,
                                                fastapi_runs: list[int]) -> None:
    for raw in INVALID:
        lean, standard, took_lean = both(client, claim_url, raw, fastapi_runs)
        assert not took_lean and lean.status_code == 422, (raw, lean.text)
        same(lean, standard)


def test_missing_workspace_claim_and_malformed_ids_answer_alike(
        client: TestClient, ws: str, claim_url: str, fastapi_runs: list[int]) -> None:
    urls = [claim_url.replace(ws, "0" * 32), claim_url.replace(ws, "not-a-workspace"),
            f"/api/workspaces/{ws}/claims/clm_missing/corrections/preview"]
    for url in urls:
        lean, standard, took_lean = both(client, url, b"{}", fastapi_runs)
        assert took_lean and lean.status_code == 404, lean.text
        same(lean, standard)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False)
    | st.text(max_size=30), lambda inner: st.lists(inner, max_size=3)
    | st.dictionaries(st.text(max_size=10), inner, max_size=3), max_leaves=8)
bodies = st.one_of(
    st.fixed_dictionaries({}, optional={
        "statement": st.none() | st.text(max_size=60) | json_values,
        "kind": st.sampled_from(["replace", "retract", "other"]) | json_values,
    }).map(lambda d: json.dumps(d).encode()),
    json_values.map(lambda v: json.dumps(v).encode()),
    st.binary(max_size=40))


@settings(max_examples=150, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(raw=bodies)
def test_random_bodies_answer_as_fastapi_does(client: TestClient, claim_url: str,
                                              fastapi_runs: list[int], raw: bytes) -> None:
    lean, standard, _ = both(client, claim_url, raw, fastapi_runs)
    same(lean, standard)


def test_a_route_too_rich_for_the_lean_path_is_refused_when_built() -> None:
    app = FastAPI()

    async def with_query(ws: str, q: str = Query("x")) -> Response:
        return Response()

    with pytest.raises(TypeError, match="query parameters"):
        app.router.add_api_route("/{ws}", with_query, methods=["POST"],
                                 route_class_override=LeanRoute)

    def not_async(request: Request) -> Response:
        return Response()

    with pytest.raises(TypeError, match="must be async"):
        app.router.add_api_route("/sync", not_async, methods=["POST"],
                                 route_class_override=LeanRoute)

    async def limited(ws: str, body: CorrectionPreview) -> Response:
        return Response()

    with pytest.raises(TypeError, match="body limit"):
        app.router.add_api_route("/{ws}/limited", limited, methods=["POST"],
                                 route_class_override=LeanRoute, max_body_size=1000)
    app.router.add_api_route("/{ws}/plain", limited, methods=["POST"],
                             route_class_override=LeanRoute)  # the same route, no limit
