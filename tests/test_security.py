"""Keys, roles and workspace isolation over every route of the OpenAPI document.

The routes are enumerated from /api/openapi.json (as test_error_shape.py does), so a route
added later is covered without touching this file: it must answer 401 without a key, 404
(byte for byte a missing workspace's answer) to another workspace's key, and 403 to a role
its permission does not include.
"""

from __future__ import annotations

import asyncio
import hashlib
import os
import re
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from typing import Any, get_args

import pytest
from fastapi.testclient import TestClient
from pydantic import SecretStr

from afterhack import roles
from afterhack.access import keys_required, refuse_to_serve
from afterhack.api.app import ROUTERS
from afterhack.api.security import OPEN_PATHS, route_permissions
from afterhack.config import Settings
from afterhack.store.client import Store
from afterhack.store.names import REGISTRY_GRAPH
from tests.support.api import app_client, fill_path, new_workspace
from tests.support.errors import assert_canonical_error
from tests.support.settings import make_settings

ADMIN = "test-admin-" + uuid.uuid4().hex
ROLES = ("reader", "agent", "reviewer")
# The permissions by the names the OpenAPI document gives them.
PERMISSIONS: dict[str, roles.Permission] = {p: p for p in get_args(roles.Permission)}
WORKSPACE_ROLES_OK = {"reader", "agent", "reviewer"}


def keyed_settings(falkordb: str, tmp: Any, **kw: Any) -> Settings:
    base: dict[str, Any] = {"falkordb_url": falkordb, "data_dir": tmp,
                            "admin_key": SecretStr(ADMIN), "rate_limit_per_minute": 100_000}
    return make_settings(**{**base, **kw})


def bearer(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


@pytest.fixture(scope="module")
def keyed(falkordb: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    with app_client(keyed_settings(falkordb, tmp_path_factory.mktemp("keyed"))) as c:
        yield c


def new_key(c: TestClient, ws: str, role: str, name: str | None = None) -> dict[str, Any]:
    r = c.post(f"/api/workspaces/{ws}/keys", json={"role": role, "name": name or role},
               headers=bearer(ADMIN))
    assert r.status_code == 201, r.text
    return dict(r.json())


@pytest.fixture(scope="module")
def tenants(keyed: TestClient) -> dict[str, Any]:
    """Two workspaces, A and B, each with a source, a run and one key per role."""
    out: dict[str, Any] = {}
    for name in ("A", "B"):
        ws = new_workspace(keyed, name, headers=bearer(ADMIN))
        r = keyed.post(f"/api/workspaces/{ws}/sources", headers=bearer(ADMIN),
                       json={"title": "Plan", "text": "The launch is planned for June 12."})
        assert r.status_code == 201, r.text
        out[name] = {"ws": ws, "keys": {role: new_key(keyed, ws, role)["key"]
                                        for role in ROLES}}
    return out


def operations(c: TestClient) -> list[tuple[str, str, str | None]]:
    """(METHOD, path template, permission) of every guarded /api operation."""
    doc = c.get("/api/openapi.json").json()
    ops = []
    for path, methods in doc["paths"].items():
        if not path.startswith("/api/") or path in OPEN_PATHS:
            continue
        for method, op in methods.items():
            ops.append((method.upper(), path, op.get("x-permission")))
    assert len(ops) >= 20
    return ops


def call(c: TestClient, method: str, url: str, headers: dict[str, str] | None = None) -> Any:
    kw: dict[str, Any] = {"headers": headers or {}}
    if method in ("POST", "PATCH", "PUT"):
        kw["json"] = {}
    return c.request(method, url, **kw)


# -- keys ---------------------------------------------------------------------------------


def test_a_key_is_shown_once_and_stored_only_as_its_hash(keyed: TestClient,
                                                         falkordb: str) -> None:
    ws = new_workspace(keyed, headers=bearer(ADMIN))
    made = new_key(keyed, ws, "agent", "ci bot")
    secret = made["key"]
    assert re.fullmatch(r"ahk_[A-Za-z0-9_-]{32,}", secret)
    assert set(made) >= {"id", "workspace_id", "role", "name", "created_at", "revoked_at"}
    assert made["workspace_id"] == ws and made["role"] == "agent" and made["revoked_at"] is None
    listed = keyed.get(f"/api/workspaces/{ws}/keys", headers=bearer(ADMIN)).json()["items"]
    assert [k["id"] for k in listed] == [made["id"]]
    assert secret not in str(listed) and "key" not in listed[0] and "key_hash" not in listed[0]

    async def stored() -> list[dict[str, Any]]:
        store = Store(falkordb)
        try:
            rows = await store.graph(REGISTRY_GRAPH).read(
                "MATCH (k:ApiKey {id:$id}) RETURN properties(k) AS p", {"id": made["id"]})
            return [dict(r["p"]) for r in rows]
        finally:
            await store.close()

    [props] = asyncio.run(stored())
    assert props["key_hash"] == hashlib.sha256(secret.encode()).hexdigest()
    assert secret not in str(props) and secret[4:] not in str(props)
    # The key works, as an agent of its workspace.
    assert keyed.get(f"/api/workspaces/{ws}", headers=bearer(secret)).status_code == 200


def test_revoked_key_is_refused_on_its_next_request(keyed: TestClient) -> None:
    ws = new_workspace(keyed, headers=bearer(ADMIN))
    made = new_key(keyed, ws, "reviewer")
    assert keyed.get(f"/api/workspaces/{ws}", headers=bearer(made["key"])).status_code == 200
    r = keyed.delete(f"/api/workspaces/{ws}/keys/{made['id']}", headers=bearer(ADMIN))
    assert r.status_code == 200 and isinstance(r.json()["revoked_at"], int)
    again = keyed.delete(f"/api/workspaces/{ws}/keys/{made['id']}", headers=bearer(ADMIN))
    assert again.json()["revoked_at"] == r.json()["revoked_at"]  # idempotent
    r = keyed.get(f"/api/workspaces/{ws}", headers=bearer(made["key"]))
    assert_canonical_error(r, 401)
    # A key id of another workspace is not found through this one.
    other = new_workspace(keyed, headers=bearer(ADMIN))
    r = keyed.delete(f"/api/workspaces/{other}/keys/{made['id']}", headers=bearer(ADMIN))
    assert_canonical_error(r, 404)


def test_deleting_a_workspace_revokes_its_keys(keyed: TestClient) -> None:
    ws = new_workspace(keyed, headers=bearer(ADMIN))
    key = new_key(keyed, ws, "reader")["key"]
    assert keyed.delete(f"/api/workspaces/{ws}", headers=bearer(ADMIN)).status_code == 200
    assert_canonical_error(keyed.get("/api/workspaces", headers=bearer(key)), 401)


# -- 401 over every route -----------------------------------------------------------------


def test_every_route_refuses_a_missing_unknown_or_revoked_key_with_one_body(
    keyed: TestClient, tenants: dict[str, Any]
) -> None:
    ws = tenants["A"]["ws"]
    revoked = new_key(keyed, ws, "reviewer")
    keyed.delete(f"/api/workspaces/{ws}/keys/{revoked['id']}", headers=bearer(ADMIN))
    senders = {
        "missing": {},
        "empty bearer": {"Authorization": "Bearer "},
        "basic": {"Authorization": "Basic " + "YWRtaW46YWRtaW4="},
        "unknown": bearer("ahk_" + "x" * 43),
        "admin-ish": bearer(ADMIN + "x"),
        "revoked": bearer(revoked["key"]),
    }
    bodies = set()
    for method, path, _ in operations(keyed):
        url = fill_path(path, ws, str(uuid.uuid4()))
        for name, headers in senders.items():
            r = call(keyed, method, url, headers)
            assert r.status_code == 401, (method, path, name, r.text)
            assert_canonical_error(r, 401)
            assert r.json()["error"]["code"] == "unauthorized"
            assert r.headers["www-authenticate"] == "Bearer"
            bodies.add(r.content)
    assert len(bodies) == 1, bodies  # which of the six it was is not revealed


def test_health_and_openapi_stay_open(keyed: TestClient) -> None:
    assert keyed.get("/api/health").status_code == 200
    doc = keyed.get("/api/openapi.json")
    assert doc.status_code == 200
    assert doc.json()["components"]["securitySchemes"]["bearer"]["scheme"] == "bearer"


# -- isolation ----------------------------------------------------------------------------


def test_another_workspaces_key_gets_exactly_a_missing_workspaces_404(
    keyed: TestClient, tenants: dict[str, Any]
) -> None:
    a, b = tenants["A"], tenants["B"]
    checked = 0
    for method, path, _ in operations(keyed):
        if "{ws}" not in path:
            continue
        other = str(uuid.uuid4())
        missing = str(uuid.uuid4())
        expected = call(keyed, method, fill_path(path, missing, other), bearer(ADMIN))
        assert expected.status_code == 404, (method, path, expected.text)
        for role, key in a["keys"].items():
            r = call(keyed, method, fill_path(path, b["ws"], other), bearer(key))
            assert r.status_code == 404, (method, path, role, r.text)
            assert r.content.replace(b["ws"].encode(), b"WS") == \
                expected.content.replace(missing.encode(), b"WS"), (method, path, role)
            assert r.headers.get("content-length") == expected.headers.get("content-length")
            checked += 1
    assert checked >= 3 * 20


def test_a_workspace_key_lists_only_its_own_workspace(keyed: TestClient,
                                                      tenants: dict[str, Any]) -> None:
    for name in ("A", "B"):
        for key in tenants[name]["keys"].values():
            items = keyed.get("/api/workspaces", headers=bearer(key)).json()["items"]
            assert [w["id"] for w in items] == [tenants[name]["ws"]]
    everything = keyed.get("/api/workspaces", params={"limit": 1000},
                           headers=bearer(ADMIN)).json()["items"]
    assert {tenants["A"]["ws"], tenants["B"]["ws"]} <= {w["id"] for w in everything}


# -- roles --------------------------------------------------------------------------------


def test_only_reads_are_read_permission() -> None:
    # Guards the table itself: a write route marked "read" would let readers write.
    for (method, path), permission in route_permissions(ROUTERS).items():
        if path in OPEN_PATHS:
            continue
        if method == "GET" and not path.endswith("/export") and not path.endswith("/keys"):
            assert permission == "read", (method, path)
        else:
            assert permission != "read", (method, path, permission)


def test_every_role_is_refused_what_its_permission_table_lacks(
    keyed: TestClient, tenants: dict[str, Any]
) -> None:
    a = tenants["A"]
    seen_forbidden = set()
    for method, path, permission in operations(keyed):
        assert permission is not None, (method, path)
        for role, key in a["keys"].items():
            r = call(keyed, method, fill_path(path, a["ws"], str(uuid.uuid4())), bearer(key))
            if roles.allows(role, PERMISSIONS[permission]):
                assert r.status_code not in (401, 403), (method, path, role, r.text)
            else:
                assert_canonical_error(r, 403)
                assert r.json()["error"]["code"] == "forbidden"
                seen_forbidden.add((role, permission))
    assert {("reader", "add_source"), ("agent", "correct"), ("reviewer", "manage")} \
        <= seen_forbidden


def test_what_each_role_may_do_in_its_own_workspace(keyed: TestClient) -> None:
    ws = new_workspace(keyed, headers=bearer(ADMIN))
    k = {role: bearer(new_key(keyed, ws, role)["key"]) for role in ROLES}
    src = {"title": "Plan", "text": "The launch is planned for June 12."}
    # reader: reads only.
    assert keyed.get(f"/api/workspaces/{ws}/claims", headers=k["reader"]).status_code == 200
    assert_canonical_error(
        keyed.post(f"/api/workspaces/{ws}/sources", json=src, headers=k["reader"]), 403)
    assert_canonical_error(keyed.post(f"/api/workspaces/{ws}/agent-runs",
                                      json={"task": "Plan the launch"}, headers=k["reader"]),
                           403)
    # agent: adds sources and runs agents, but never corrects.
    claim = keyed.post(f"/api/workspaces/{ws}/sources", json=src,
                       headers=k["agent"]).json()["claims"][0]
    run = keyed.post(f"/api/workspaces/{ws}/agent-runs", json={"task": "Plan the launch"},
                     headers=k["agent"])
    assert run.status_code == 201, run.text
    preview_url = f"/api/workspaces/{ws}/claims/{claim['id']}/corrections/preview"
    body = {"statement": "The launch is planned for July 15."}
    assert_canonical_error(keyed.post(preview_url, json=body, headers=k["agent"]), 403)
    preview = keyed.post(preview_url, json=body, headers=k["reviewer"]).json()
    apply = {**body, "claim_revision": preview["revisions"]["claim_revision"],
             "impact_token": preview["revisions"]["impact_token"]}
    apply_url = f"/api/workspaces/{ws}/claims/{claim['id']}/corrections"
    r = keyed.post(apply_url, json=apply, headers=k["agent"])
    assert_canonical_error(r, 403)
    assert r.json()["error"]["details"] == {"role": "agent", "permission": "correct"}
    decision = run.json()["decision"]
    assert_canonical_error(keyed.patch(f"/api/workspaces/{ws}/decisions/{decision['id']}",
                                       json={"op": "accept", "revision": decision["revision"]},
                                       headers=k["agent"]), 403)
    # reviewer: corrects in its workspace, and the audit names the key.
    r = keyed.post(apply_url, json=apply, headers=k["reviewer"])
    assert r.status_code == 201, r.text
    audit = keyed.get(f"/api/workspaces/{ws}/audit", headers=k["reader"]).json()["items"]
    assert audit[0]["kind"] == "correction.applied" and audit[0]["actor"] == "reviewer"
    # ...but makes no workspaces or keys, and cannot export, restore or delete.
    for method, url, payload in (
        ("POST", "/api/workspaces", {"name": "mine"}),
        ("POST", f"/api/workspaces/{ws}/keys", {"role": "reader", "name": "x"}),
        ("GET", f"/api/workspaces/{ws}/keys", None),
        ("GET", f"/api/workspaces/{ws}/export", None),
        ("DELETE", f"/api/workspaces/{ws}", None),
        ("POST", "/api/workspaces/restore", {}),
    ):
        r = keyed.request(method, url, json=payload, headers=k["reviewer"])
        assert_canonical_error(r, 403)
    assert keyed.get(f"/api/workspaces/{ws}", headers=k["reviewer"]).status_code == 200


# -- rate limit ---------------------------------------------------------------------------


def _away_from_a_minute_boundary() -> None:
    left = 60 - time.time() % 60
    if left < 8:
        time.sleep(left + 0.2)


def test_rate_limit_per_key_is_shared_by_every_app_process(
    keyed: TestClient, falkordb: str, tmp_path: Any
) -> None:
    ws = new_workspace(keyed, headers=bearer(ADMIN))
    hot, cold = new_key(keyed, ws, "reader")["key"], new_key(keyed, ws, "reader")["key"]
    s = keyed_settings(falkordb, tmp_path, rate_limit_per_minute=5)
    with app_client(s) as one, app_client(s) as two:
        _away_from_a_minute_boundary()
        statuses = [(one if i % 2 else two).get(f"/api/workspaces/{ws}",
                                                headers=bearer(hot)).status_code
                    for i in range(5)]
        assert statuses == [200] * 5
        for app in (one, two):
            r = app.get(f"/api/workspaces/{ws}", headers=bearer(hot))
            assert_canonical_error(r, 429)
            assert r.json()["error"]["code"] == "rate_limited"
            assert 1 <= int(r.headers["retry-after"]) <= 60
            assert r.json()["error"]["details"]["limit_per_minute"] == 5
        # Another key has its own budget; health is never limited.
        assert two.get(f"/api/workspaces/{ws}", headers=bearer(cold)).status_code == 200
        assert one.get("/api/health").status_code == 200


def test_each_admin_key_has_its_own_budget(falkordb: str, tmp_path: Any) -> None:
    # Apps sharing one FalkorDB with different admin keys (or one after a key rotation) must
    # not spend each other's requests: the counter is per admin secret, not per role.
    mine, theirs = "admin-a-" + uuid.uuid4().hex, "admin-b-" + uuid.uuid4().hex
    with app_client(keyed_settings(falkordb, tmp_path, admin_key=SecretStr(mine),
                    rate_limit_per_minute=3)) as c:
        _away_from_a_minute_boundary()
        assert [c.get("/api/workspaces", headers=bearer(mine)).status_code
                for _ in range(4)] == [200, 200, 200, 429]
    with app_client(keyed_settings(falkordb, tmp_path, admin_key=SecretStr(theirs),
                    rate_limit_per_minute=3)) as c:
        assert c.get("/api/workspaces", headers=bearer(theirs)).status_code == 200


def test_keyless_local_user_is_not_rate_limited(falkordb: str, tmp_path: Any) -> None:
    s = make_settings(falkordb_url=falkordb, data_dir=tmp_path, rate_limit_per_minute=3)
    with app_client(s) as c:
        assert [c.get("/api/workspaces").status_code for _ in range(10)] == [200] * 10


# -- when keys are on ---------------------------------------------------------------------


@pytest.mark.parametrize(("host", "admin", "require", "on"), [
    ("127.0.0.1", None, None, False),
    ("127.0.0.1", "k", None, True),
    ("127.0.0.1", "k", False, False),
    ("127.0.0.1", None, True, True),
    ("::1", None, None, False),
    ("0.0.0.0", None, None, True),
    ("0.0.0.0", "k", False, True),
])
def test_when_keys_are_on(host: str, admin: str | None, require: bool | None,
                          on: bool) -> None:
    s = make_settings(host=host, admin_key=SecretStr(admin) if admin else None,
                      require_keys=require)
    assert keys_required(s) is on


@pytest.mark.parametrize(("env", "refused"), [
    ({}, True),
    ({"AFTERHACK_REQUIRE_KEYS": "false", "AFTERHACK_ADMIN_KEY": "k"}, True),
    ({"AFTERHACK_ADMIN_KEY": "k"}, False),
    ({"AFTERHACK_REQUIRE_KEYS": "true"}, False),
])
def test_refuse_to_serve_beyond_loopback_without_keys(env: dict[str, str],
                                                      refused: bool) -> None:
    clean = {k: v for k, v in os.environ.items() if not k.startswith("AFTERHACK_")}
    s = make_settings(host="0.0.0.0", **{
        k.removeprefix("AFTERHACK_").lower(): v for k, v in env.items()})
    assert (refuse_to_serve(s) is not None) is refused
    if refused:
        done = subprocess.run(
            [sys.executable, "-m", "afterhack.cli", "serve", "--host", "0.0.0.0", "--port", "0"],
            env={**clean, **env, "AFTERHACK_FALKORDB_URL": "redis://127.0.0.1:1"},
            capture_output=True, text=True, timeout=60)
        assert done.returncode == 2, done.stderr
        assert "Refusing to serve on 0.0.0.0" in done.stderr
