"""The error contract across every route: bad input gets a 4xx in the canonical body,
never a 500, and leaves the graph exactly as it was."""

from __future__ import annotations

import re
import uuid
from typing import Any

import pytest
from fastapi.testclient import TestClient
from pydantic import BaseModel, ValidationError

from afterhack.wire import inputs
from tests.support.api import fill_path
from tests.support.errors import INJECTIONS, assert_canonical_error
from tests.support.graphs import snapshot


class _Route:
    def __init__(self, path: str, methods: set[str]) -> None:
        self.path = path
        self.methods = methods


def _routes(client: TestClient) -> list[_Route]:
    app: Any = client.app
    return [_Route(path, {m.upper() for m in ops})
            for path, ops in app.openapi()["paths"].items() if path.startswith("/api")]


def _body_props(client: TestClient, route: _Route, method: str) -> dict[str, Any]:
    app: Any = client.app
    op = app.openapi()["paths"][route.path][method.lower()]
    content = op.get("requestBody", {}).get("content", {}).get("application/json")
    if not content:
        return {}
    schema = content["schema"]
    if "$ref" in schema:
        name = schema["$ref"].rsplit("/", 1)[1]
        schema = app.openapi()["components"]["schemas"][name]
    return dict(schema.get("properties", {}))


def _wrong_value(prop: dict[str, Any]) -> Any:
    types = {prop.get("type")} | {s.get("type") for s in prop.get("anyOf", [])}
    if "string" in types:
        return {"nested": ["not", "a", "string"]}
    if "integer" in types or "number" in types:
        return "not a number"
    if "boolean" in types:
        return {"x": 1}
    if "array" in types:
        return "not a list"
    return 12345


def _send(client: TestClient, method: str, url: str, **kw: Any) -> Any:
    return client.request(method, url, **kw)


@pytest.fixture
def seeded(client: TestClient, ws: str) -> str:
    r = client.post(f"/api/workspaces/{ws}/sources",
                    json={"title": "Plan", "text": "The product launch is planned for June 12."})
    assert r.status_code == 201
    return ws


def test_every_route_answers_bad_input_canonically(
    client: TestClient, seeded: str, falkordb: str, settings: Any
) -> None:
    ws = seeded
    before = snapshot(falkordb, ws)
    routes = _routes(client)
    assert len(routes) >= 6
    checked = 0
    for route in routes:
        for method in route.methods:
            if "{" not in route.path and method == "GET":
                continue
            unknown = str(uuid.uuid4())
            if "{ws}" in route.path:
                # An unknown workspace is 404 whatever else the request says.
                r = _send(client, method, fill_path(route.path, str(uuid.uuid4()), unknown),
                          json={})
                assert_canonical_error(r, 404)
                r = _send(client, method, fill_path(route.path, "not-a-uuid", unknown), json={})
                assert_canonical_error(r, 404)
            url = fill_path(route.path, ws, unknown)
            if re.search(r"\{(?!ws\})[^}]+\}", route.path):
                r = _send(client, method, url, json={})
                assert r.status_code in (404, 422), (route.path, method, r.text)
                assert_canonical_error(r)
                for bad in INJECTIONS[:5]:
                    r = _send(client, method, fill_path(route.path, ws, bad.replace("/", "%2F")),
                              json={})
                    assert r.status_code in (404, 405, 422), (route.path, bad, r.text)
                    assert_canonical_error(r)
            if method in ("POST", "PATCH", "PUT"):
                url = re.sub(r"\{[^}]+\}", unknown, route.path.replace("{ws}", ws))
                if re.search(r"\{(?!ws\})[^}]+\}", route.path):
                    url = fill_path(route.path, ws, unknown)
                for raw in (b"{bad json", b"[]", b'"text"', b"\xff\xfe", b"null"):
                    r = _send(client, method, url, content=raw,
                              headers={"content-type": "application/json"})
                    assert_canonical_error(r)
                for name, prop in _body_props(client, route, method).items():
                    r = _send(client, method, url, json={name: _wrong_value(prop)})
                    assert_canonical_error(r)
                limit = (settings.max_restore_bytes if route.path == "/api/workspaces/restore"
                         else settings.max_body_bytes)
                big = b'{"text": "' + b"a" * (limit + 10) + b'"}'
                r = _send(client, method, url, content=big,
                          headers={"content-type": "application/json"})
                assert_canonical_error(r, 413)
            checked += 1
    assert checked >= 5
    assert snapshot(falkordb, ws) == before


@pytest.mark.parametrize("bad", ["a\x00b", "\ud800"])
def test_unstorable_strings_are_422_not_500(client: TestClient, ws: str, falkordb: str,
                                           bad: str) -> None:
    before = snapshot(falkordb, ws)
    import json

    raw = json.dumps({"title": "t", "text": f"The launch is {bad} soon."}).encode()
    r = client.post(f"/api/workspaces/{ws}/sources", content=raw,
                    headers={"content-type": "application/json"})
    assert_canonical_error(r, 422)
    r = client.post("/api/workspaces", content=json.dumps({"name": bad}).encode(),
                    headers={"content-type": "application/json"})
    assert_canonical_error(r, 422)
    assert snapshot(falkordb, ws) == before


def test_injection_like_text_is_stored_literally(client: TestClient, ws: str) -> None:
    text = "The code is '}) MATCH (n) DETACH DELETE n // and $x and `y` here."
    r = client.post(f"/api/workspaces/{ws}/sources", json={"title": "$(title)", "text": text})
    assert r.status_code == 201
    src = client.get(f"/api/workspaces/{ws}/sources/{r.json()['source']['id']}").json()
    assert src["title"] == "$(title)"
    assert src["versions"][0]["text"] == text
    assert client.get(f"/api/workspaces/{ws}").status_code == 200


def test_unknown_route_and_method_are_canonical(client: TestClient, ws: str) -> None:
    assert_canonical_error(client.get("/api/nope"), 404)
    assert_canonical_error(client.delete(f"/api/workspaces/{ws}/audit"), 405)


def _models(root: type[BaseModel]) -> list[type[BaseModel]]:
    found = [root]
    for sub in root.__subclasses__():
        found += _models(sub)
    return found


def _json_types(prop: dict[str, Any]) -> set[str]:
    return {str(t) for t in [prop.get("type"), *(s.get("type") for s in prop.get("anyOf", []))]
            if t is not None}


def test_every_body_takes_exactly_the_json_types_it_documents() -> None:
    # A boolean is no integer (a revision, a limit) and an integer no flag: pydantic's lax
    # mode reads true as 1 and 0 as false, so one typo in a client became a real write.
    checked = 0
    models: set[type[BaseModel]] = {*_models(inputs.Body), inputs.RestoreWorkspace}
    for model in models:
        for name, prop in model.model_json_schema()["properties"].items():
            types = _json_types(prop)
            wrong: list[Any] = []
            if "integer" in types and "boolean" not in types:
                wrong += [True, False, *(["1"] if "string" not in types else [])]
                wrong += [1.5] if "number" not in types else []
            if "boolean" in types and "integer" not in types:
                wrong += [0, 1, *(["true", "yes"] if "string" not in types else [])]
            for value in wrong:
                with pytest.raises(ValidationError) as refused:
                    model.model_validate({name: value})
                assert any(tuple(e["loc"][:1]) == (name,) and e["type"] != "missing"
                           for e in refused.value.errors()), (model.__name__, name, value)
                checked += 1
    assert checked >= 40
